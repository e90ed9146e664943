/**
 * StoreTransfer: copy what one set of storage-port adapters holds into another — the plan record
 * (its revision, the prose around it, the bytes of every file it registers), the capture log and
 * every retained file, every study's journal, the monitor's subscriptions, runs and reports, the
 * grants with their events, the execution records with their logs — keeping revisions, ids,
 * digests and order. The one routine behind `dossier export --to` (a
 * store → a plain folder), `dossier pull` (a store → this folder's view) and the import of
 * `dossier init --store` (a folder holding state → a new shared dossier). It knows the ports only
 * (src/services/ports/) and the work folder's files (`FileStore`, where both folder and memory
 * adapters keep retained and registered bytes), so it works with any adapters.
 *
 * Everything is read from the source first (under its read lock), the transfer is decided
 * (src/domain/StoreTransfer.ts: `fresh` into an empty destination, `refresh` over an earlier
 * state of the same dossier), then written under the destination's lock. A destination file that
 * already holds other bytes is never overwritten: it is reported (`kept`), as is a registered file
 * the source does not have (`missing`).
 *
 * Grants and execution records go through their ports (`GrantStore`, `ExecutionStore`): a
 * grant's record and its events in order, an execution record and its stdout/stderr logs
 * (`readLog`/`putLog`). Not copied: in-flight markers (a run under way belongs to the host that
 * runs it), the files under a grant's roots (local to each host), the folder's derived state
 * (scan and append indexes, projections). A journal's torn tail (bytes after its last whole
 * event) is not an event and is not copied.
 *
 * Over 400 lines: the snapshot of a side, the decision and the writes cover every port in one
 * transaction of the destination, so that a copy is all or nothing; a port's part is read beside
 * the others it is ordered with (the plan's registered files after the captures that retain them).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Scope from "effect/Scope"
import { canonicalDigest, sha256Hex } from "../domain/Canonical.js"
import { EditedRetainedFile, type IoError, type LockTimeout, type WorkdirNotFound } from "../domain/Errors.js"
import { executionPaths, type ExecutionRecord } from "../domain/Execution.js"
import type { GrantEvent, StoredGrant } from "../domain/Grant.js"
import type { CaptureRecord } from "../domain/IngestContent.js"
import type { JournalEvent } from "../domain/Journal.js"
import { CorruptJournal } from "../domain/JournalErrors.js"
import { candidatesCreatedBy } from "../domain/JournalProjection.js"
import { DigestMismatch } from "../domain/MonitorErrors.js"
import type { ReportLine, RunRecord, SubscriptionRecord } from "../domain/MonitorSchema.js"
import { stateFileAt } from "../domain/Ownership.js"
import { PLAN_FILE, PLAN_LIMITS } from "../domain/Plan.js"
import { heldPlanBytes } from "../domain/PlanMarkdown.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"
import {
  ALL_PARTS,
  decideTransfer,
  type Divergence,
  type Holdings,
  holdsState,
  registeredFiles,
  retainedFiles,
  type TransferMode,
  type TransferParts
} from "../domain/StoreTransfer.js"
import type { EvidenceKey } from "../services/EvidenceKey.js"
import { FileStore, type FileStoreShape } from "../services/FileStore.js"
import { Lock, type LockShape } from "../services/Lock.js"
import { CaptureStore, type CaptureStoreShape, type RetainFile } from "../services/ports/CaptureStore.js"
import { ExecutionStore, type ExecutionStoreShape } from "../services/ports/ExecutionStore.js"
import { GrantStore, type GrantStoreShape } from "../services/ports/GrantStore.js"
import { JournalStore, type JournalStoreShape } from "../services/ports/JournalStore.js"
import { MonitorStore, type MonitorStoreShape, type MonitorWrite } from "../services/ports/MonitorStore.js"
import { PLAN_KEY, type PlanRecord, PlanStore, type PlanStoreShape } from "../services/ports/PlanStore.js"
import type { LoggedEvent, Versioned } from "../services/Store.js"
import type { Workdir } from "../services/Workdir.js"
import { BaseLive } from "./Base.js"
import { LockLive } from "./LockLive.js"
import { planMdDigest, type PlanViewShape } from "./PlanViewFile.js"

/** One side of a transfer: the storage ports, the work folder's files, and the unit of atomicity. */
export interface StoreSide {
  readonly plan: PlanStoreShape
  readonly captures: CaptureStoreShape
  readonly journal: JournalStoreShape
  readonly monitor: MonitorStoreShape
  readonly grants: GrantStoreShape
  readonly executions: ExecutionStoreShape
  readonly files: FileStoreShape
  readonly lock: LockShape
  /**
   * Bytes the side keeps by their SHA-256 besides its files (a shared store's content), read when
   * a registered file is not among `files`; absent: the files are all there is. A destination
   * that has it takes a file only under the digest its record names (`DigestMismatch`, or
   * `EditedRetainedFile` for a capture's file, otherwise).
   */
  readonly content?: (sha256: string) => Effect.Effect<Option.Option<Uint8Array>, IoError>
  /**
   * Keep bytes by their SHA-256 in that content (a shared store: `init --store`'s import), for the
   * registered files no port of the side keeps itself: the files a journal's events link. Called
   * in the destination's transaction, after the events that link them.
   */
  readonly keep?: (data: Uint8Array) => Effect.Effect<void, StoreUnavailable | LockTimeout>
  /**
   * A bound folder's view (`pull`, the refresh after a command, the pull of `init --store`): the
   * record of the plan.md bytes dossier last wrote there (src/layers/PlanViewFile.ts). A plan.md
   * that is neither those bytes nor what the source's plan renders (with no record: not the
   * latter) was edited here: it is kept and named in `kept`, never overwritten. Absent (a plain
   * folder, a store): plan.md is the plan.
   */
  readonly planView?: PlanViewShape
}

/** The destination holds what the source cannot be copied over (see `Divergence`); nothing was written. */
export class TransferDivergence extends Data.TaggedError("TransferDivergence")<{ readonly divergence: Divergence }> {}

/** What a transfer copied, and what it left. */
export interface TransferReport {
  /** The plan's revision after the transfer (null: none), and whether it (or the prose) was copied. */
  readonly plan: { readonly revision: number | null; readonly copied: boolean }
  /** Capture records appended. */
  readonly captures: number
  /** Per study, the events appended. */
  readonly journals: ReadonlyArray<{ readonly study: string; readonly events: number }>
  readonly subscriptions: number
  readonly runs: number
  readonly reports: number
  /** Grant records created, and grant events appended. */
  readonly grants: number
  readonly grantEvents: number
  /** Execution records stored. */
  readonly executions: number
  /** Files written (`copied`) or already there with the same bytes (`same`), execution logs included. */
  readonly files: { readonly copied: number; readonly same: number }
  /** Destination files that hold other bytes than the source's: left as they are. */
  readonly kept: ReadonlyArray<string>
  /** Files the records name that the source does not have (nothing to copy). */
  readonly missing: ReadonlyArray<string>
  /**
   * Files the records (or the gate's attempts logs) name at a path of dossier's own state in the
   * destination folder (`.dossier/…`, `plan.md`, a journal's files; `stateFileAt`): never written.
   */
  readonly skipped: ReadonlyArray<string>
}

/** Everything one side holds, read once. */
interface Snapshot {
  readonly plan: Option.Option<Versioned<PlanRecord>>
  readonly prose: string
  readonly captures: ReadonlyArray<CaptureRecord>
  readonly journals: ReadonlyMap<string, ReadonlyArray<LoggedEvent<JournalEvent>>>
  readonly subscriptions: ReadonlyMap<string, SubscriptionRecord>
  readonly runs: ReadonlyMap<string, RunRecord>
  readonly reports: ReadonlyMap<string, ReadonlyArray<LoggedEvent<ReportLine>>>
  readonly grants: ReadonlyMap<string, { readonly record: StoredGrant; readonly events: ReadonlyArray<GrantEvent> }>
  readonly executions: ReadonlyMap<string, ExecutionRecord>
}

const holdingsOf = (s: Snapshot): Holdings => ({
  planRevision: Option.match(s.plan, { onNone: () => null, onSome: (r) => r.revision }),
  prose: s.prose,
  captures: s.captures,
  journals: new Map([...s.journals].map(([k, v]) => [k, v.map((e) => ({ id: e.id, digest: e.digest }))])),
  subscriptions: new Map([...s.subscriptions].map(([k, v]) => [k, v.revision])),
  runs: new Map([...s.runs].map(([k, v]) => [k, v.revision])),
  reports: new Map([...s.reports].map(([k, v]) => [k, new Map(v.map((e) => [e.id, e.digest]))])),
  grants: new Map(
    [...s.grants].map(([k, v]) => [k, { record: canonicalDigest(v.record), events: v.events.map(canonicalDigest) }])
  ),
  executions: new Map([...s.executions].map(([k, v]) => [k, canonicalDigest(v)]))
})

/** Read what a side holds of `parts` through its ports (the parts left out read as empty). */
const snapshotOf = (side: StoreSide, parts: TransferParts = ALL_PARTS) =>
  Effect.gen(function*() {
    const plan = parts.plan ? yield* side.plan.plan.get(PLAN_KEY) : Option.none()
    const prose = parts.plan ? yield* side.plan.prose : ""
    const captures = parts.captures ? yield* side.captures.records : []
    const journals = new Map<string, ReadonlyArray<LoggedEvent<JournalEvent>>>()
    for (const row of parts.journals ? yield* side.journal.studies : []) {
      // A damaged journal names its study: a transfer reads every study's (`pull`, `export`).
      const stored = yield* side.journal.read(row.study).pipe(
        Effect.catchTag("CorruptJournal", (e) =>
          Effect.fail(e.study === undefined ? new CorruptJournal({ ...e, study: row.study }) : e))
      )
      if (Option.isSome(stored)) {
        journals.set(row.study, stored.value.events)
      }
    }
    const subscriptions = new Map<string, SubscriptionRecord>()
    const runs = new Map<string, RunRecord>()
    const reports = new Map<string, ReadonlyArray<LoggedEvent<ReportLine>>>()
    if (parts.monitor) {
      for (const id of yield* side.monitor.subscriptions.keys) {
        const r = yield* side.monitor.subscriptions.get(id)
        if (Option.isSome(r)) {
          subscriptions.set(id, r.value.value)
        }
      }
      for (const id of yield* side.monitor.runs.keys) {
        const r = yield* side.monitor.runs.get(id)
        if (Option.isSome(r)) {
          runs.set(id, r.value.value)
        }
      }
      for (const program of yield* side.monitor.reports.streams) {
        reports.set(program, yield* side.monitor.reports.read(program))
      }
    }
    // A damaged grant or execution record fails the copy (`GrantDigestMismatch`,
    // `ExecutionDigestMismatch`): no port can write it, and leaving it out would change answers.
    const grants = new Map<string, { readonly record: StoredGrant; readonly events: ReadonlyArray<GrantEvent> }>()
    for (const id of parts.grants ? yield* side.grants.ids : []) {
      const record = yield* side.grants.get(id)
      if (Option.isSome(record)) {
        grants.set(id, { record: record.value, events: (yield* side.grants.events(id)).value })
      }
    }
    const executions = new Map<string, ExecutionRecord>()
    for (const id of parts.executions ? yield* side.executions.ids : []) {
      const record = yield* side.executions.get(id)
      if (Option.isSome(record)) {
        executions.set(id, record.value)
      }
    }
    return { plan, prose, captures, journals, subscriptions, runs, reports, grants, executions } satisfies Snapshot
  })

/** A file's bytes on a side; None when it is not there (any other failure fails). */
const bytesAt = (files: FileStoreShape, path: string) =>
  files.read(path, { maxBytes: PLAN_LIMITS.fileBytes, requireSingleLink: false }).pipe(
    Effect.map(Option.some),
    Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<Uint8Array>()))
  )

/** What a destination path holds compared with `data`: nothing, the same bytes, or others. */
const compareAt = (files: FileStoreShape, path: string, data: Uint8Array) =>
  Effect.map(
    files.stat(path),
    Option.match({
      onNone: () => Effect.succeed("absent" as const),
      onSome: () =>
        Effect.map(
          files.hash(path, { maxBytes: PLAN_LIMITS.fileBytes, requireSingleLink: false }),
          (d) => (d.sha256 === sha256Hex(data) ? "same" as const : "other" as const)
        )
    })
  ).pipe(Effect.flatten)

/**
 * Copy what `from` holds of `parts` (all by default) into `to`: `fresh` into a destination that
 * holds nothing, `refresh` over an earlier state of the same dossier (see
 * src/domain/StoreTransfer.ts). Fails with `TransferDivergence` (nothing written) when the
 * destination cannot take the copy.
 */
export const transfer = (from: StoreSide, to: StoreSide, mode: TransferMode, parts: TransferParts = ALL_PARTS) =>
  Effect.gen(function*() {
    const source = yield* from.lock.withReadLock(() => snapshotOf(from, parts))
    return yield* to.lock.withLock(Effect.gen(function*() {
      const dest = yield* snapshotOf(to, parts)
      const decided = decideTransfer(holdingsOf(source), holdingsOf(dest), mode)
      if (Either.isLeft(decided)) return yield* new TransferDivergence({ divergence: decided.left })
      const steps = decided.right

      // The files: every one the source's records name, read and compared before anything is written.
      const newCaptures = source.captures.slice(steps.capturesFrom)
      const viaCaptures = new Set(retainedFiles(newCaptures).map((f) => f.path))
      const planDocument = Option.match(source.plan, { onNone: () => null, onSome: (r) => r.value.document })
      const named = registeredFiles(
        planDocument,
        [...source.journals.values()].flat().map((e) => e.event),
        [...source.runs.values()].flatMap((r) => [
          ...(r.completion === null
            ? []
            : [r.completion.stage, ...(r.completion.survey === null ? [] : [r.completion.survey])]),
          ...r.outcomes.flatMap((o) => o.citations.map((c) => ({ path: c.path, sha256: null })))
        ])
      )
      const paths = [...new Set([...named.map((f) => f.path), ...retainedFiles(source.captures).map((f) => f.path)])]
        .sort()
      const retain: Array<RetainFile> = []
      const write: Array<RetainFile> = []
      const kept: Array<string> = []
      const missing: Array<string> = []
      const skipped: Array<string> = []
      let same = 0
      // The journals' linked files, for a destination that keeps their bytes (`keep`).
      const linked = new Set(
        [...source.journals.values()].flat().flatMap((e) =>
          e.event.type === "artifact_linked" ? [e.event.artifact.path] : []
        )
      )
      const linkedBytes: Array<Uint8Array> = []
      const retainedPaths = new Set(retainedFiles(source.captures).map((f) => f.path))
      const digestOf = new Map(
        [...retainedFiles(source.captures), ...named].filter((f) => f.sha256 != null).map((f) => [f.path, f.sha256])
      )
      for (const path of paths) {
        // A folder's own state files are written by their ports, never as a record's file: a
        // record naming one (a peer's row naming `.dossier/store.json`) is skipped and named.
        if (to.content === undefined && stateFileAt(path) !== null) {
          skipped.push(path)
          continue
        }
        const sha256 = digestOf.get(path)
        // A side that keeps bytes by digest (a shared store) answers with the bytes its records
        // name: its `files` are this host's folder, whose file may have been edited since, so the
        // folder's file stands only when it holds those very bytes (no round trip then), else the
        // store's content by digest.
        const fromContent = from.content !== undefined && sha256 != null
        let data = yield* bytesAt(from.files, path)
        if (fromContent) {
          data = Option.filter(data, (d) => sha256Hex(d) === sha256)
          if (Option.isNone(data)) data = Option.filter(yield* from.content!(sha256), (d) => sha256Hex(d) === sha256)
        }
        if (Option.isNone(data)) {
          missing.push(path)
          continue
        }
        // A destination that keeps bytes by their SHA-256 (a shared store: `init --store`'s import)
        // never takes a file under a digest it does not have: a retained or registered file edited
        // since its record was made is refused, naming it, before anything is written.
        if (to.content !== undefined && sha256 != null) {
          const actual = sha256Hex(data.value)
          if (actual !== sha256) {
            return yield* retainedPaths.has(path)
              ? new EditedRetainedFile({ path, expected: sha256, actual })
              : new DigestMismatch({ path, expected: sha256, actual })
          }
        }
        if (to.keep !== undefined && linked.has(path)) linkedBytes.push(data.value)
        const there = yield* compareAt(to.files, path, data.value)
        if (there === "other") kept.push(path)
        else if (viaCaptures.has(path)) retain.push({ path, data: data.value })
        else if (there === "absent") write.push({ path, data: data.value })
        else same++
      }

      // Execution logs: every record's, compared now too, and read only where the destination
      // lacks them. A log is where exec keeps it for the record's id, whatever path a record names.
      const logs: Array<RetainFile> = []
      const digestAt = (store: ExecutionStoreShape, path: string) =>
        store.logDigest(path).pipe(
          Effect.map(Option.some),
          Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<{ readonly sha256: string }>()))
        )
      for (const id of source.executions.keys()) {
        const paths = executionPaths(id)
        for (const path of [paths.stdout, paths.stderr]) {
          const there = yield* digestAt(to.executions, path)
          const held = yield* digestAt(from.executions, path)
          if (Option.isNone(held)) {
            if (Option.isNone(there)) missing.push(path)
            continue
          }
          if (Option.isSome(there)) {
            if (there.value.sha256 === held.value.sha256) same++
            else kept.push(path)
            continue
          }
          const data = yield* from.executions.readLog(path)
          if (Option.isSome(data)) logs.push({ path, data: data.value })
          else missing.push(path)
        }
      }

      // plan.md in a bound folder's view: edited here since dossier wrote it → kept (see `planView`).
      const planBytes = parts.plan
        ? heldPlanBytes(Option.getOrNull(Option.map(source.plan, (r) => r.value)), source.prose)
        : null
      let planKept = false
      let planRecord: string | null = null
      if (to.planView !== undefined && planBytes !== null) {
        const wanted = sha256Hex(planBytes)
        const here = yield* planMdDigest(to.files)
        const written = yield* to.planView.written
        if (Option.isSome(here) && here.value !== wanted && !Option.contains(written, here.value)) {
          kept.push(PLAN_FILE)
          planKept = true
        } else if (steps.plan !== null || (Option.contains(here, wanted) && !Option.contains(written, wanted))) {
          planRecord = wanted
        }
      }

      for (const f of write) yield* to.files.writeRetained(f.path, f.data)
      let copiedByCaptures = 0
      if (newCaptures.length > 0 || retain.length > 0) {
        const stored = yield* to.captures.record(retain, newCaptures)
        copiedByCaptures = stored.filter((s) => !s.reused).length
        same += stored.length - copiedByCaptures
      }
      if (steps.plan !== null && !planKept) {
        yield* to.plan.restore({ record: source.plan, prose: source.prose }, steps.plan.expected)
      }
      // After plan.md (a stop between the two leaves it the source's bytes, which the next refresh takes as written).
      if (planRecord !== null && to.planView !== undefined) yield* to.planView.record(planRecord)
      // A store that keeps registered bytes (SQL) keeps them when a file is registered.
      const gone = new Set([...kept, ...missing, ...skipped])
      for (const path of [...(planDocument?.sources ?? []), ...(planDocument?.outputs ?? [])].map((f) => f.path)) {
        if (!gone.has(path)) yield* to.plan.register(path)
      }
      const journals: Array<{ readonly study: string; readonly events: number }> = []
      for (const { from: start, study } of steps.journals) {
        const batch = source.journals.get(study)!.slice(start).map((e) => ({
          id: e.id,
          digest: e.digest,
          event: e.event,
          claims: candidatesCreatedBy(e.event)
        }))
        if (batch.length === 0) continue
        const appended = yield* to.journal.append<never>(study, batch, () => null)
        journals.push({ study, events: appended.appended.length })
      }
      if (to.keep !== undefined) { for (const data of linkedBytes) yield* to.keep(data) }
      const writes: Array<MonitorWrite> = [
        ...steps.subscriptions.map((s): MonitorWrite => ({
          _tag: "Subscription",
          record: source.subscriptions.get(s.id)!,
          expected: s.expected
        })),
        ...steps.runs.map((s): MonitorWrite => ({ _tag: "Run", record: source.runs.get(s.id)!, expected: s.expected })),
        ...steps.reports.flatMap(({ ids, program }) =>
          source.reports.get(program)!.filter((e) => ids.includes(e.id)).map((event): MonitorWrite => ({
            _tag: "Report",
            event
          }))
        )
      ]
      if (writes.length > 0) yield* to.monitor.commit(writes)

      // Grants before the execution records that name them; each event after the ones held.
      let grantEvents = 0
      for (const { create, eventsFrom, id } of steps.grants) {
        const held = source.grants.get(id)!
        if (create) yield* to.grants.create(held.record)
        for (let i = eventsFrom; i < held.events.length; i++) {
          yield* to.grants.appendEvent(id, held.events[i]!, i)
          grantEvents++
        }
      }
      for (const id of steps.executions) yield* to.executions.put(source.executions.get(id)!)
      for (const log of logs) yield* to.executions.putLog(log.path, log.data)

      return {
        plan: {
          revision: Option.match(planKept ? dest.plan : source.plan, { onNone: () => null, onSome: (r) => r.revision }),
          copied: steps.plan !== null && !planKept
        },
        captures: newCaptures.length,
        journals,
        subscriptions: steps.subscriptions.length,
        runs: steps.runs.length,
        reports: steps.reports.reduce((n, r) => n + r.ids.length, 0),
        grants: steps.grants.filter((g) => g.create).length,
        grantEvents,
        executions: steps.executions.length,
        files: { copied: write.length + copiedByCaptures + logs.length, same },
        kept,
        missing,
        skipped
      } satisfies TransferReport
    }))
  })

/** The side the context's ports, FileStore and Lock make. */
export const sideOf: Effect.Effect<
  StoreSide,
  never,
  PlanStore | CaptureStore | JournalStore | MonitorStore | GrantStore | ExecutionStore | FileStore | Lock
> = Effect.all({
  plan: PlanStore,
  captures: CaptureStore,
  journal: JournalStore,
  monitor: MonitorStore,
  grants: GrantStore,
  executions: ExecutionStore,
  files: FileStore,
  lock: Lock
})

export type Ports = PlanStore | CaptureStore | JournalStore | MonitorStore | GrantStore | ExecutionStore

export const sideFrom = <E>(
  layer: Layer.Layer<Ports | FileStore | Lock, E>
): Effect.Effect<StoreSide, E, Scope.Scope> =>
  Effect.flatMap(Layer.build(layer), (context) => Effect.provide(sideOf, context))

/**
 * The port of a side that a transfer of other parts never uses: not loaded (a bound folder's
 * command refreshes its part of the view without evaluating the other parts' adapters). Any use
 * is a defect.
 */
export const unusedPort = (port: string): never =>
  new Proxy({}, {
    get: (_, key) => {
      // Not a thenable (it passes through promises), nor anything a runtime inspects.
      if (key === "then" || typeof key === "symbol") return undefined
      throw new Error(`the ${port} port of this side was not loaded: the transfer copies other parts`)
    }
  }) as never

/** What loads a port's adapter: the part it serves, and the module, imported only when the part is copied. */
export interface PortLoaders<A> {
  readonly plan: () => Promise<A>
  readonly captures: () => Promise<A>
  readonly journals: () => Promise<A>
  readonly monitor: () => Promise<A>
  readonly grants: () => Promise<A>
  readonly executions: () => Promise<A>
}

type FolderPort = Layer.Layer<Ports, never, FileStore | Lock>

/** The folder's adapter of each port, over a FileStore and Lock. */
const FOLDER_PORTS: PortLoaders<FolderPort> = {
  plan: () => import("./folder/PlanStoreFolder.js").then((m) => m.PlanStoreFolder as unknown as FolderPort),
  captures: () => import("./folder/CaptureStoreFolder.js").then((m) => m.CaptureStoreFolder as unknown as FolderPort),
  journals: () => import("./folder/JournalFolderLive.js").then((m) => m.JournalFolderLayer as unknown as FolderPort),
  monitor: () => import("./folder/MonitorStoreFolder.js").then((m) => m.MonitorStoreFolder as unknown as FolderPort),
  grants: () => import("./folder/GrantStoreFolder.js").then((m) => m.GrantStoreFolder as unknown as FolderPort),
  executions: () =>
    import("./folder/ExecutionStoreFolder.js").then((m) => m.ExecutionStoreFolder as unknown as FolderPort)
}

/** The parts `parts` names, in the order of `PortLoaders`. */
export const partsIn = (parts: TransferParts): ReadonlyArray<keyof TransferParts> =>
  (["plan", "captures", "journals", "monitor", "grants", "executions"] as const).filter((p) => parts[p])

/**
 * A side of the folder whose FileStore and Lock `base` provides, with the folder adapters of
 * `parts` (the others `unusedPort`).
 */
const folderSideOf = <E, R>(
  base: Layer.Layer<FileStore | Lock, E, R>,
  parts: TransferParts
): Effect.Effect<StoreSide, E, R | Scope.Scope> =>
  Effect.gen(function*() {
    const wanted = partsIn(parts)
    const layers = yield* Effect.promise(() => Promise.all(wanted.map((p) => FOLDER_PORTS[p]())))
    const ports = layers.reduce<Layer.Layer<Ports, never, FileStore | Lock>>(
      (all, l) => Layer.merge(all, l),
      Layer.empty as unknown as FolderPort
    )
    const context = yield* Layer.build(ports.pipe(Layer.provideMerge(base)))
    const get = <I, S>(tag: Context.Tag<I, S>, part: keyof TransferParts): S =>
      parts[part] ? Context.unsafeGet(context, tag) : unusedPort(part)
    return {
      plan: get(PlanStore, "plan"),
      captures: get(CaptureStore, "captures"),
      journal: get(JournalStore, "journals"),
      monitor: get(MonitorStore, "monitor"),
      grants: get(GrantStore, "grants"),
      executions: get(ExecutionStore, "executions"),
      files: Context.unsafeGet(context, FileStore),
      lock: Context.unsafeGet(context, Lock)
    } satisfies StoreSide
  })

/** The side of the folder whose FileStore and Lock the context holds (the folder adapters over them). */
export const folderSideHere: Effect.Effect<StoreSide, never, FileStore | Lock | Scope.Scope> = Effect.flatMap(
  Effect.context<FileStore | Lock>(),
  (context) => folderSideOf(Layer.succeedContext(context), ALL_PARTS)
)

/** Whether a side holds any state (a plan or prose, a capture record, a journal, a monitor record or report, a grant, an execution record). */
export const sideHoldsState = (side: StoreSide) =>
  Effect.map(side.lock.withReadLock(() => snapshotOf(side)), (s) => holdsState(holdingsOf(s)))

/** Entries of a map, by key. */
const byKey = <V>(m: ReadonlyMap<string, V>): ReadonlyArray<readonly [string, V]> =>
  [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** Everything a snapshot holds, as one digest: each record whole, each event by its id and digest, in order. */
const stateDigest = (s: Snapshot): string =>
  canonicalDigest({
    plan: Option.getOrNull(s.plan),
    prose: s.prose,
    captures: s.captures,
    journals: byKey(s.journals).map(([study, events]) => [study, events.map((e) => [e.id, e.digest])]),
    subscriptions: byKey(s.subscriptions),
    runs: byKey(s.runs),
    reports: byKey(s.reports).map(([program, events]) => [program, events.map((e) => [e.id, e.digest])]),
    grants: byKey(s.grants),
    executions: byKey(s.executions)
  })

/**
 * Whether two sides hold the same state: the same plan record (revision and content) and prose,
 * capture log, journals, monitor records and reports, grants with their events, execution
 * records. Files are not compared: each host's files are checked against the digests the records
 * register (verification findings).
 */
export const sameState = (a: StoreSide, b: StoreSide) =>
  Effect.gen(function*() {
    const x = yield* a.lock.withReadLock(() => snapshotOf(a))
    const y = yield* b.lock.withReadLock(() => snapshotOf(b))
    return stateDigest(x) === stateDigest(y)
  })

/**
 * A side over the work folder `dir` (it must exist): the folder adapters of `parts` (all by
 * default; a transfer of fewer parts loads fewer), its FileStore and its lock.
 */
export const folderSide = (
  dir: string,
  parts: TransferParts = ALL_PARTS
): Effect.Effect<StoreSide, WorkdirNotFound, Scope.Scope> => folderSideOf(BaseLive(dir), parts)

/**
 * `folderSide` of the folder whose FileStore, Workdir and EvidenceKey the context holds (a bound
 * command's own, `BaseLive`'s services but its lock): the folder's lock and the folder adapters of
 * `parts` over them, the rest not built again.
 */
export const folderSideOfContext = (
  parts: TransferParts
): Effect.Effect<StoreSide, never, FileStore | Workdir | EvidenceKey | Scope.Scope> =>
  Effect.flatMap(
    Effect.context<FileStore | Workdir | EvidenceKey>(),
    (context) => folderSideOf(LockLive.pipe(Layer.provideMerge(Layer.succeedContext(context))), parts)
  )
