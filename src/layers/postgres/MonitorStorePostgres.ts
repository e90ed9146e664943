/**
 * The monitor's store in a shared dossier (PostgreSQL): the `MonitorStore` port
 * (src/services/ports/MonitorStore.ts) over the generic tables of ./PgSchema.ts, through the
 * generic adapters of ./PgRecords.ts.
 *
 * - subscriptions and runs are `dossier.records` of kinds `subscription` and `run`, keyed by id,
 *   the value the record's JSON text; the row's revision is the record's own `revision` (the
 *   logic writes `revision + 1` naming the revision it read). A create is `INSERT … ON CONFLICT
 *   DO NOTHING`, a change `UPDATE … WHERE revision = $expected`: a loss is `StaleRevision` and
 *   nothing changes. A run's id names its window (`runIdOf`), so one window has one row whoever
 *   asks, with or without the dossier's lock.
 * - completion reports are `dossier.events` of the log `monitor`, all in one stream (`reports`),
 *   so a report's id (`<runId>:run-completed`) is unique across programs as in the folder's one
 *   `reports.jsonl`; `read(program)`/`streams` answer by the line's `program`.
 * - `commit` runs every write in one `sql.withTransaction`: inside `PgLock.withLock` (a command)
 *   that is a savepoint of the command's transaction, alone it is a transaction of its own.
 *   Either way a `StaleRevision` or `ConflictingEvent` anywhere rolls all of it back.
 * - a run that binds files (its completion's stage and survey) registers their bytes: `commit`
 *   puts them into `dossier.content` (by SHA-256) in the same transaction, read from the local
 *   work folder through `MonitorFiles` when given, and only when the local file still has the
 *   digest the run records (docs/store.md, "Monitor").
 * - the scans read every row once and check it as the folder checks a file: a subscription that
 *   does not decode or names another id is a broken id, a run that does not decode, names
 *   another id or whose receipt digest does not verify is a mismatch (fail closed). Records are
 *   written only by dossier, so this answers what the records hold; there is no derived state
 *   (no scan index), so `fromScratch`/`readOnly` change nothing.
 * - nothing is ever left half done: `recover` answers none, `pending` false.
 *
 * Every statement is parameterized; every driver failure is `StoreUnavailable` or `LockTimeout`.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { sha256Hex } from "../../domain/Canonical.js"
import { decodeWith, firstIssueReason, parseJson } from "../../domain/Decode.js"
import type { StaleRevision } from "../../domain/Errors.js"
import { ConflictingEvent } from "../../domain/JournalErrors.js"
import { CorruptMonitorRecord, ReceiptDigestMismatch } from "../../domain/MonitorErrors.js"
import { byCreation, REPORTS_FILE, runPath, subscriptionPath } from "../../domain/MonitorLayout.js"
import { ReportLine, type RunRecord, SubscriptionRecord } from "../../domain/MonitorSchema.js"
import { isRunMismatch, type RunScan, scanRun, verifyRunText } from "../../domain/RunScan.js"
import {
  MonitorFiles,
  type MonitorFilesShape,
  MonitorStore,
  type MonitorStoreError,
  type MonitorStoreShape,
  type MonitorWrite,
  type RunCheck,
  type RunsScan,
  type SubscriptionsScan
} from "../../services/ports/MonitorStore.js"
import { pgContentStore, pgEventLog, pgVersionedRecords } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `kind` of the monitor's records and the `log`/stream of its reports in the generic tables. */
export const SUBSCRIPTION_KIND = "subscription"
export const RUN_KIND = "run"
const decodeReport = decodeWith(ReportLine)

export const REPORTS_LOG = "monitor"
export const REPORTS_STREAM = "reports"

const decodeSubscription = decodeWith(SubscriptionRecord)

/** Key order: the order of `keys` everywhere (UTF-16 code units, as the other adapters sort). */
const byKey = <A extends { readonly key: string }>(a: A, b: A) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

/** A subscription's stored text, checked: the record, or why it is none. */
const parseSubscription = (
  id: string,
  text: string,
  dossier: string
): Either.Either<SubscriptionRecord, CorruptMonitorRecord> => {
  const parsed = Either.flatMap(parseJson(text), decodeSubscription)
  if (Either.isLeft(parsed)) {
    return Either.left(
      new CorruptMonitorRecord({
        path: subscriptionPath(id),
        reason: firstIssueReason(parsed.left, "invalid record"),
        dossier
      })
    )
  }
  return parsed.right.id === id
    ? Either.right(parsed.right)
    : Either.left(
      new CorruptMonitorRecord({ path: subscriptionPath(id), reason: "the record names another id", dossier })
    )
}

const isJsonObjectText = (text: string): boolean =>
  Either.match(parseJson(text), {
    onLeft: () => false,
    onRight: (v) => typeof v === "object" && v !== null && !Array.isArray(v)
  })

/** A run's stored text, checked as a single-run load does (receipt included). */
const parseRun = (
  id: string,
  text: string,
  dossier: string
): Either.Either<RunRecord, CorruptMonitorRecord | ReceiptDigestMismatch> => {
  const loaded = verifyRunText(id, text)
  if (loaded._tag === "Ok") return Either.right(loaded.run)
  return Either.left(
    isJsonObjectText(text)
      ? new ReceiptDigestMismatch({ runId: id })
      : new CorruptMonitorRecord({ path: runPath(id), reason: "not a JSON object", dossier })
  )
}

export interface MonitorStorePostgresOptions {
  /** The work folder's files: where the bytes a completed run binds are read from to be stored. */
  readonly files?: MonitorFilesShape | undefined
}

export const makeMonitorStorePostgres = (
  store: PgStoreShape,
  options: MonitorStorePostgresOptions = {}
): MonitorStoreShape => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  const subscriptionRows = pgVersionedRecords(store, SUBSCRIPTION_KIND, Schema.Unknown)
  const runRows = pgVersionedRecords(store, RUN_KIND, Schema.Unknown)
  const log = pgEventLog(store, REPORTS_LOG, ReportLine, (id) => new ConflictingEvent({ id }))
  const content = pgContentStore(store)

  /** Every row of a kind (or those of `keys`), as stored, in key order. */
  const rowsOf = (kind: string, keys?: ReadonlyArray<string>) =>
    mapErrors(
      Effect.map(
        keys === undefined
          ? sql<{ key: string; revision: number; value: string }>`SELECT key, revision, value FROM dossier.records
              WHERE dossier = ${dossier} AND kind = ${kind}`
          : sql<{ key: string; revision: number; value: string }>`SELECT key, revision, value FROM dossier.records
              WHERE dossier = ${dossier} AND kind = ${kind}
                AND key IN (SELECT json_array_elements_text(${JSON.stringify(keys)}::json))`,
        (rows) => [...rows].sort(byKey)
      )
    )

  const rowOf = (kind: string, key: string) => Effect.map(rowsOf(kind, [key]), (rows) => Option.fromNullable(rows[0]))

  /** The bytes a completed run binds, stored when not there yet and the local file still has them. */
  const registerBindings = (run: RunRecord) =>
    Effect.gen(function*() {
      const files = options.files
      if (files === undefined || run.completion === null) return
      const bound = [run.completion.stage, ...(run.completion.survey === null ? [] : [run.completion.survey])]
      for (const b of bound) {
        if (yield* content.has(b.sha256)) continue
        // Any reason the local file cannot give those bytes now (gone, changed, too large,
        // unsafe) leaves them unstored: the run keeps its digest, as the folder keeps it.
        const bytes = yield* files.read(b.path).pipe(Effect.orElseSucceed(() => Option.none<Uint8Array>()))
        if (Option.isSome(bytes) && sha256Hex(bytes.value) === b.sha256) yield* content.put(bytes.value)
      }
    })

  const write = (w: MonitorWrite): Effect.Effect<void, MonitorStoreError | StaleRevision | ConflictingEvent> => {
    switch (w._tag) {
      case "Subscription":
        return Effect.asVoid(subscriptionRows.put(w.record.id, w.record, w.expected))
      case "Run":
        return Effect.zipRight(runRows.put(w.record.id, w.record, w.expected), registerBindings(w.record))
      case "Report":
        return Effect.asVoid(log.append(REPORTS_STREAM, [w.event]))
    }
  }

  const commit: MonitorStoreShape["commit"] = (writes) =>
    writes.length === 0 ? Effect.void : mapErrors(sql.withTransaction(Effect.forEach(writes, write, { discard: true })))

  // Read here rather than through `log.read`, whose decoder throws: a report row that does not
  // decode (written behind dossier's back) is `CorruptMonitorRecord`, as a damaged line of the
  // folder's reports.jsonl is, never a Defect.
  const allReports = Effect.flatMap(
    mapErrors(sql<{ id: string; digest: string; event: string }>`SELECT id, digest, event FROM dossier.events
      WHERE dossier = ${dossier} AND log = ${REPORTS_LOG} AND stream = ${REPORTS_STREAM} ORDER BY position`),
    (rows) =>
      Effect.forEach(rows, (r) => {
        const decoded = Either.flatMap(parseJson(r.event), decodeReport)
        return Either.isLeft(decoded)
          ? Effect.fail(
            new CorruptMonitorRecord({
              path: REPORTS_FILE,
              reason: `report '${r.id}': ${firstIssueReason(decoded.left, "not a report line")}`,
              dossier
            })
          )
          : Effect.succeed({ id: r.id, digest: r.digest, event: decoded.right })
      })
  )

  const subscriptions: MonitorStoreShape["subscriptions"] = {
    get: (id) =>
      Effect.flatMap(rowOf(SUBSCRIPTION_KIND, id), (row) =>
        Option.match(row, {
          onNone: () => Effect.succeed(Option.none()),
          onSome: (r) =>
            Effect.map(parseSubscription(id, r.value, dossier), (value) => Option.some({ revision: r.revision, value }))
        })),
    put: (id, value, expected) =>
      commit([{ _tag: "Subscription", record: { ...value, id }, expected }]).pipe(
        Effect.as(value.revision),
        Effect.catchTag("ConflictingEvent", Effect.die)
      ),
    keys: subscriptionRows.keys
  }

  const runs: MonitorStoreShape["runs"] = {
    get: (id) =>
      Effect.flatMap(rowOf(RUN_KIND, id), (row) =>
        Option.match(row, {
          onNone: () => Effect.succeed(Option.none()),
          onSome: (r) =>
            Effect.map(parseRun(id, r.value, dossier), (value) => Option.some({ revision: r.revision, value }))
        })),
    put: (id, value, expected) =>
      commit([{ _tag: "Run", record: { ...value, id }, expected }]).pipe(
        Effect.as(value.revision),
        Effect.catchTag("ConflictingEvent", Effect.die)
      ),
    keys: runRows.keys
  }

  const reports: MonitorStoreShape["reports"] = {
    read: (program) => Effect.map(allReports, (all) => all.filter((e) => e.event.program === program)),
    append: (program, batch) =>
      Effect.gen(function*() {
        // A program's stream holds only its own reports.
        const foreign = batch.find((e) => e.event.program !== program)
        if (foreign !== undefined) return yield* new ConflictingEvent({ id: foreign.id })
        const outcome = yield* mapErrors(sql.withTransaction(log.append(REPORTS_STREAM, batch)))
        // As the other adapters answer: each event of the batch in order, a repeat of an id `existing`.
        const fresh = new Set(outcome.appended)
        const appended: Array<string> = []
        const existing: Array<string> = []
        for (const e of batch) {
          if (fresh.delete(e.id)) appended.push(e.id)
          else existing.push(e.id)
        }
        return { appended, existing }
      }),
    streams: Effect.map(allReports, (all) => [...new Set(all.map((e) => e.event.program))].sort())
  }

  const scanSubscriptions = Effect.map(rowsOf(SUBSCRIPTION_KIND), (rows): SubscriptionsScan => {
    const subs: Array<SubscriptionRecord> = []
    const brokenIds: Array<string> = []
    for (const r of rows) {
      const parsed = parseSubscription(r.key, r.value, dossier)
      if (Either.isRight(parsed)) subs.push(parsed.right)
      else brokenIds.push(r.key)
    }
    return { subs: subs.sort(byCreation), brokenIds }
  })

  const scanRuns = Effect.map(rowsOf(RUN_KIND), (rows): RunsScan => {
    const runs: Array<RunScan> = []
    const mismatches: Array<{ runId: string; revision: number | null }> = []
    for (const r of rows) {
      const scanned = scanRun(r.key, r.value)
      if (isRunMismatch(scanned)) mismatches.push({ runId: scanned.runId, revision: scanned.revision })
      else runs.push(scanned)
    }
    return { ids: rows.map((r) => r.key), mismatches, runs: runs.sort(byCreation) }
  })

  return {
    subscriptions,
    runs,
    reports,
    commit,
    scanSubscriptions: () => scanSubscriptions,
    scanRuns: () => scanRuns,
    scan: () => Effect.all({ subscriptions: scanSubscriptions, runs: scanRuns }),
    checkRuns: (ids) =>
      Effect.map(rowsOf(RUN_KIND, ids), (rows) => {
        const byId = new Map(rows.map((r) => [r.key, r.value]))
        return ids.map((id): RunCheck => {
          const text = byId.get(id)
          return text === undefined ? "missing" : isRunMismatch(scanRun(id, text)) ? "mismatch" : "ok"
        })
      }),
    allRuns: Effect.map(
      rowsOf(RUN_KIND),
      (rows) => rows.map((r) => ({ id: r.key, run: Either.getOrNull(parseRun(r.key, r.value, dossier)) }))
    ),
    recover: Effect.succeed(Option.none()),
    pending: Effect.succeed(false)
  }
}

/**
 * The monitor's store in the shared dossier of the `PgStore` in context; the bytes a run binds
 * are read from the `MonitorFiles` in context (the bound folder's).
 */
export const MonitorStorePostgres: Layer.Layer<MonitorStore, never, PgStore | MonitorFiles> = Layer.effect(
  MonitorStore,
  Effect.gen(function*() {
    const store = yield* PgStore
    const files = yield* MonitorFiles
    return makeMonitorStorePostgres(store, { files })
  })
)
