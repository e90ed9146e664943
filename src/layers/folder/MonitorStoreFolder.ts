/**
 * The monitor's ports over the work folder (the FileStore): today's bytes, byte for byte.
 *
 * - a subscription is `.dossier/monitor/subscriptions/<id>.json`, a run
 *   `.dossier/monitor/runs/<runId>.json` (indented JSON and a newline), the revision the
 *   record's own `revision` field; reports are lines of `.dossier/monitor/reports.jsonl`.
 * - `commit` of one record replaces its file atomically; of more (or a report), it is one
 *   transaction with an intent record (./MonitorTransaction.ts: the folder service that also
 *   recovers an interrupted one, `recover`/`pending`).
 * - the scans keep the derived scan index `.dossier/monitor/scan.index` (./MonitorScanIndex.ts),
 *   which never changes an answer.
 * - `MonitorFiles` reads the work folder's files through the FileStore (its boundary checks).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { sha256Hex } from "../../domain/Canonical.js"
import { decodeWith, firstIssueReason, parseJson } from "../../domain/Decode.js"
import { StaleRevision } from "../../domain/Errors.js"
import { ConflictingEvent } from "../../domain/JournalErrors.js"
import { CorruptMonitorRecord } from "../../domain/MonitorErrors.js"
import { reportEvent } from "../../domain/MonitorLayout.js"
import { ReportLine, type RunRecord, type SubscriptionRecord } from "../../domain/MonitorSchema.js"
import { scanRunText, verifyRunText } from "../../domain/RunScan.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import {
  MonitorFiles,
  type MonitorFilesShape,
  MonitorStore,
  type MonitorStoreError,
  type MonitorStoreShape,
  type MonitorWrite,
  type RunCheck
} from "../../services/ports/MonitorStore.js"
import type { LoggedEvent } from "../../services/Store.js"
import {
  FILE_MAX,
  makeRecords,
  RECORD_MAX,
  render,
  REPORTS_FILE,
  runPath,
  RUNS_DIR,
  subscriptionPath,
  SUBSCRIPTIONS_DIR,
  textOf
} from "./MonitorRecords.js"
import { makeScan } from "./MonitorScanIndex.js"
import { type Change, makeTransactions, type TransactionHooks } from "./MonitorTransaction.js"

export interface MonitorStoreFolderOptions {
  /** Keep and use the scan index (default true); false checks every record from scratch and leaves the index alone. */
  readonly scanIndex?: boolean
}

const decodeReport = decodeWith(ReportLine)

const stale = (expected: number | null, actual: number | null) =>
  new StaleRevision({ expected: expected ?? 0, actual: actual ?? 0 })

export const makeMonitorStoreFolder = (
  store: FileStoreShape,
  hooks: TransactionHooks = {},
  options: MonitorStoreFolderOptions = {}
): MonitorStoreShape => {
  const records = makeRecords(store)
  const tx = makeTransactions(store, hooks)
  const scan = makeScan(store, records, options.scanIndex !== false)

  const revisionOf = <A extends { readonly revision: number }>(o: Option.Option<A>) =>
    Option.isSome(o) ? o.value.revision : null
  const versioned = <A extends { readonly revision: number }>(o: Option.Option<A>) =>
    Option.map(o, (value) => ({ revision: value.revision, value }))

  /** Every `.json` record file of a directory, by id (regular files only), sorted. */
  const keysOf = (dir: string) =>
    Effect.map(
      store.list(dir),
      (entries) => entries.filter((e) => e.kind === "file" && e.name.endsWith(".json")).map((e) => e.name.slice(0, -5))
    )

  const current = (w: Exclude<MonitorWrite, { _tag: "Report" }>) =>
    w._tag === "Subscription"
      ? Effect.map(records.findSubscription(w.record.id), revisionOf)
      : Effect.map(records.findRun(w.record.id), revisionOf)

  /** The reports as stored, each line decoded (a damaged line is a corrupt record). */
  const readReports = Effect.gen(function*() {
    const text = yield* store.readText(REPORTS_FILE).pipe(Effect.catchTag("FileNotFound", () => Effect.succeed("")))
    const out: Array<LoggedEvent<ReportLine>> = []
    for (const line of text.split("\n")) {
      if (line.length === 0) continue
      const decoded = Either.flatMap(parseJson(line), decodeReport)
      if (Either.isLeft(decoded)) {
        return yield* new CorruptMonitorRecord({
          path: REPORTS_FILE,
          reason: firstIssueReason(decoded.left, "not a report line")
        })
      }
      out.push(reportEvent(decoded.right))
    }
    return out
  })

  const commit: MonitorStoreShape["commit"] = (writes) =>
    Effect.gen(function*() {
      const changes: Array<Change> = []
      let stored: ReadonlyArray<LoggedEvent<ReportLine>> | undefined
      for (const w of writes) {
        if (w._tag === "Report") {
          stored ??= yield* readReports
          const same = stored.find((e) => e.id === w.event.id)
          if (same !== undefined) {
            if (same.digest !== w.event.digest) return yield* new ConflictingEvent({ id: w.event.id })
            continue
          }
          changes.push({ kind: "append", path: REPORTS_FILE, data: `${JSON.stringify(w.event.event)}\n` })
          continue
        }
        const actual = yield* current(w)
        if (actual !== w.expected) return yield* stale(w.expected, actual)
        const path = w._tag === "Subscription" ? subscriptionPath(w.record.id) : runPath(w.record.id)
        changes.push({ kind: "replace", path, after: yield* render(w.record) })
      }
      if (changes.length === 0) return
      // One record file is replaced atomically as it is; more are one transaction.
      const only = changes[0]!
      if (changes.length === 1 && only.kind === "replace" && only.after !== null) {
        yield* store.writeAtomic(only.path, only.after)
      } else yield* tx.commit(changes)
    })

  // A commit of records alone cannot conflict on a report, nor one of reports alone on a revision.
  const commitRecords = (writes: ReadonlyArray<MonitorWrite>) =>
    commit(writes) as Effect.Effect<void, MonitorStoreError | StaleRevision>
  const commitReports = (writes: ReadonlyArray<MonitorWrite>) =>
    commit(writes) as Effect.Effect<void, MonitorStoreError | ConflictingEvent>

  const subscriptions: MonitorStoreShape["subscriptions"] = {
    get: (id) => Effect.map(records.findSubscription(id), versioned),
    put: (id, value: SubscriptionRecord, expected) =>
      Effect.as(commitRecords([{ _tag: "Subscription", record: { ...value, id }, expected }]), value.revision),
    keys: keysOf(SUBSCRIPTIONS_DIR)
  }

  const runs: MonitorStoreShape["runs"] = {
    get: (id) => Effect.map(records.findRun(id), versioned),
    put: (id, value: RunRecord, expected) =>
      Effect.as(commitRecords([{ _tag: "Run", record: { ...value, id }, expected }]), value.revision),
    keys: keysOf(RUNS_DIR)
  }

  const reports: MonitorStoreShape["reports"] = {
    read: (program) => Effect.map(readReports, (all) => all.filter((e) => e.event.program === program)),
    append: (program, batch) =>
      Effect.gen(function*() {
        const stored = yield* readReports
        const appended: Array<string> = []
        const existing: Array<string> = []
        for (const e of batch) {
          if (e.event.program !== program) return yield* new ConflictingEvent({ id: e.id })
          const same = stored.find((s) => s.id === e.id)
          if (same !== undefined && same.digest !== e.digest) return yield* new ConflictingEvent({ id: e.id })
          if (same !== undefined || appended.includes(e.id)) existing.push(e.id)
          else appended.push(e.id)
        }
        const fresh = batch.filter((e, i) => appended.includes(e.id) && batch.findIndex((b) => b.id === e.id) === i)
        if (fresh.length > 0) yield* commitReports(fresh.map((event) => ({ _tag: "Report" as const, event })))
        return { appended, existing }
      }),
    streams: Effect.map(readReports, (all) => [...new Set(all.map((e) => e.event.program))].sort())
  }

  const checkRuns: MonitorStoreShape["checkRuns"] = (ids) =>
    Effect.map(
      records.readAllWith(ids.map(runPath), (bytes) => textOf(bytes), RECORD_MAX),
      (read) =>
        read.map((r, i): RunCheck =>
          r.error?._tag === "FileNotFound"
            ? "missing"
            : scanRunText(ids[i]!, r.value ?? "")._tag === "Ok"
            ? "ok"
            : "mismatch"
        )
    )

  const allRuns: MonitorStoreShape["allRuns"] = Effect.gen(function*() {
    const entries = yield* records.listJson(RUNS_DIR)
    const read = yield* records.readAllWith(entries.map((e) => runPath(e.id)), (bytes, i) => {
      const loaded = verifyRunText(entries[i]!.id, textOf(bytes))
      return loaded._tag === "Ok" ? loaded.run : null
    }, RECORD_MAX)
    return read.map((r, i) => ({ id: entries[i]!.id, run: r.value }))
  })

  return {
    subscriptions,
    runs,
    reports,
    commit,
    scanSubscriptions: (o) =>
      Effect.map(scan(["subscriptions"], o?.fromScratch === true, o?.readOnly === true), (s) => s.subscriptions),
    scanRuns: (o) => Effect.map(scan(["runs"], o?.fromScratch === true, o?.readOnly === true), (s) => s.runs),
    scan: (o) => scan(["subscriptions", "runs"], o?.fromScratch === true, o?.readOnly === true),
    checkRuns,
    allRuns,
    recover: tx.recover,
    pending: tx.pending
  }
}

/** The work folder's files through the FileStore. */
export const makeMonitorFilesFolder = (store: FileStoreShape): MonitorFilesShape => {
  const records = makeRecords(store)
  return {
    normalize: store.normalize,
    kind: (path) =>
      Effect.map(
        store.stat(path),
        (st) =>
          Option.isNone(st)
            ? "none"
            : st.value.kind === "file"
            ? "file"
            : st.value.kind === "symlink"
            ? "symlink"
            : "other"
      ),
    read: (path, options) =>
      store.read(path, { maxBytes: FILE_MAX, ...(options?.singleLink === true ? { requireSingleLink: true } : {}) })
        .pipe(
          Effect.map(Option.some),
          Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<Uint8Array>()))
        ),
    digest: records.digestOrNull,
    digests: (paths) =>
      Effect.map(
        records.readAllWith(paths, (bytes) => sha256Hex(bytes), FILE_MAX),
        (read) => read.map((r) => r.value ?? null)
      )
  }
}

/** Both monitor ports over the FileStore in context. */
export const MonitorStoreFolder: Layer.Layer<MonitorStore | MonitorFiles, never, FileStore> = Layer.effectContext(
  Effect.map(
    FileStore,
    (store) =>
      Context.make(MonitorStore, makeMonitorStoreFolder(store)).pipe(
        Context.add(MonitorFiles, makeMonitorFilesFolder(store))
      )
  )
)

/** The monitor's stage files in this host's folder (a shared dossier's are each host's own). */
export const MonitorFilesFolder: Layer.Layer<MonitorFiles, never, FileStore> = Layer.effect(
  MonitorFiles,
  Effect.map(FileStore, makeMonitorFilesFolder)
)
