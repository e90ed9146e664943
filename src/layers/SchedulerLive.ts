/**
 * Scheduler on top of FileStore and Lock: one JSON file per subscription and per run under
 * `.dossier/monitor/`, multi-file writes as transactions (./SchedulerTransaction.ts), every
 * method under the work folder's lock after recovering any interrupted transaction.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type * as Schema from "effect/Schema"
import { toBuffer } from "../domain/Bytes.js"
import { canonicalJson, sha256Hex } from "../domain/Canonical.js"
import { checkNow, decodeWith, parseJson, validateWith } from "../domain/Decode.js"
import { compileGuard } from "../domain/Guard.js"
import { isRunMismatch, type RunScan, type RunScanResult, scanRun, scanRunText, verifyRunText } from "../domain/RunScan.js"
import {
  decodeScanIndex,
  encodeScanIndex,
  fileDigest,
  type RunLineSource,
  runLine,
  type ScanIndex,
  scanStamp
} from "../domain/ScanIndex.js"
import { FileNotFound, InvalidInput, RecoveryNeeded, StaleRevision, UnsafePath } from "../domain/Errors.js"
import {
  afterRunEnded,
  CreateDueRunInput,
  FinishRunInput,
  Id,
  OutcomeDispositionInput,
  RunId,
  SubscriptionInput,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunFile,
  TransitionRunInput,
  checkDisposition,
  checkFinishInput,
  checkTransition,
  dispositionOf,
  type DueEntry,
  type Fact,
  MONITOR_ID_PATTERN,
  isActiveRun,
  isDue,
  latestWindow,
  missingUnits,
  newRun,
  newSubscription,
  outcomeCounts,
  type ReportLine,
  RUN_ID_PATTERN,
  runIdOf,
  RunRecord,
  statusChange,
  SubscriptionRecord,
  timesInRange,
  updateSubscription
} from "../domain/Monitor.js"
import {
  ActiveRunExists,
  BindingMismatch,
  CitationNotFound,
  ConflictingSubscription,
  CorruptMonitorRecord,
  DigestMismatch,
  InvalidTransition,
  MissingUnits,
  NotDue,
  OutcomeNotFound,
  ReceiptDigestMismatch,
  RunNotFound,
  SubscriptionCompleted,
  SubscriptionNotFound
} from "../domain/MonitorErrors.js"
import { makeFileQuoteMatcher } from "../domain/Quote.js"
import { FileStore, type FileStoreShape } from "../services/FileStore.js"
import { listNamesOf, readManyWithOf } from "./FileStoreFallbacks.js"
import { Lock } from "../services/Lock.js"
import { type MonitorList, type RecoveredTransaction, Scheduler, type SchedulerError, type SchedulerShape } from "../services/Scheduler.js"
import { type Change, INTENT_FILE, makeTransactions, type TransactionHooks } from "./SchedulerTransaction.js"
import { nowOptional, nowOptional0, type NowGiven } from "./Now.js"

export const MONITOR_DIR = ".dossier/monitor"
export const SUBSCRIPTIONS_DIR = `${MONITOR_DIR}/subscriptions`
export const RUNS_DIR = `${MONITOR_DIR}/runs`
export const REPORTS_FILE = `${MONITOR_DIR}/reports.jsonl`
/** Derived: what the scans made of each record file, by the SHA-256 of its bytes (src/domain/ScanIndex.ts). */
export const SCAN_INDEX_FILE = `${MONITOR_DIR}/scan.index`
export const subscriptionPath = (id: string) => `${SUBSCRIPTIONS_DIR}/${id}.json`
export const runPath = (id: string) => `${RUNS_DIR}/${id}.json`

const FILE_MAX = 16 * 1024 * 1024
const RECORD_MAX = 4 * 1024 * 1024
const INDEX_MAX = 256 * 1024 * 1024

export interface SchedulerOptions {
  /** Keep and use the scan index (default true); false checks every record from scratch and leaves the index alone. */
  readonly scanIndex?: boolean
  /**
   * How the methods that only read take the lock (`Lock.withReadLock`); `held` false means they
   * run without it and write nothing. Default: the writers' lock, always held.
   */
  readonly withReadLock?: <A, E>(self: (held: boolean) => Effect.Effect<A, E>) => Effect.Effect<A, E | SchedulerError>
}

const decodeSubscription = decodeWith(SubscriptionRecord)

const isJsonObjectText = (text: string): boolean =>
  Either.match(parseJson(text), { onLeft: () => false, onRight: (v) => typeof v === "object" && v !== null && !Array.isArray(v) })

/** A record's stored text; one whose times fall after year 9999 is refused (`timesInRange`). */
const render = (value: unknown) => Either.map(timesInRange(value), (v) => `${JSON.stringify(v, null, 2)}\n`)

/** `Schema.is(SubscriptionRecord, { onExcessProperty: "error" })`, compiled (scans read every subscription). */
const isSubscriptionRecord = compileGuard(SubscriptionRecord)

const byCreation = <A extends { readonly createdAt: string; readonly id: string }>(a: A, b: A) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0

export const makeScheduler = (
  store: FileStoreShape,
  withLock: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | SchedulerError>,
  hooks: TransactionHooks = {},
  options: SchedulerOptions = {}
) =>
  Effect.gen(function*() {
    const tx = makeTransactions(store, hooks)
    const recoveredRef = yield* Ref.make<ReadonlyArray<RecoveredTransaction>>([])

    const recoverNow: Effect.Effect<ReadonlyArray<RecoveredTransaction>, SchedulerError> = Effect.flatMap(
      tx.recover,
      Option.match({
        onNone: () => Ref.get(recoveredRef),
        onSome: (r) => Ref.updateAndGet(recoveredRef, (xs) => [...xs, r])
      })
    )

    /** Every method: under the lock, after recovering an interrupted transaction. */
    const locked = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | SchedulerError> =>
      withLock(Effect.zipRight(recoverNow, self))

    /** May this fiber write derived state (the scan index)? False for a reader without the lock. */
    const mayWrite = FiberRef.unsafeMake(true)
    const withReadLock = options.withReadLock ?? ((self) => withLock(self(true)))

    /**
     * The methods that only read: under the lock when it can be taken without creating anything
     * (then recovering as the writers do); otherwise without it, writing nothing, and refusing
     * with RecoveryNeeded when an interrupted transaction would have to be recovered first.
     */
    const readLocked = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | SchedulerError> =>
      withReadLock((held): Effect.Effect<A, E | SchedulerError> =>
        held
          ? Effect.zipRight(recoverNow, self)
          : Effect.flatMap(tx.pending, (pending): Effect.Effect<A, E | SchedulerError> =>
            pending ? Effect.fail(new RecoveryNeeded({ path: INTENT_FILE })) : Effect.locally(self, mayWrite, false))
      )

    // --- loading -------------------------------------------------------------------------

    const checkId = (id: string, pattern: RegExp, field: string) =>
      pattern.test(id) ? Effect.void : Effect.fail(new InvalidInput({ issues: [{ path: field, message: `'${id}' is not a valid id` }] }))

    const readOptional = (path: string) =>
      store.readText(path, { maxBytes: RECORD_MAX }).pipe(
        Effect.map(Option.some),
        Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>()))
      )

    const parseSubscription = (id: string, path: string, text: string) => {
      const parsed = Either.flatMap(parseJson(text), decodeSubscription)
      if (Either.isLeft(parsed)) {
        return Either.left(new CorruptMonitorRecord({ path, reason: parsed.left.issues[0]?.message ?? "invalid record" }))
      }
      if (parsed.right.id !== id) return Either.left(new CorruptMonitorRecord({ path, reason: "the record names another id" }))
      return Either.right(parsed.right)
    }

    const findSubscription = (id: string) =>
      Effect.flatMap(readOptional(subscriptionPath(id)), (text) =>
        Option.match(text, {
          onNone: () => Effect.succeed(Option.none<SubscriptionRecord>()),
          onSome: (t) => Effect.map(parseSubscription(id, subscriptionPath(id), t), Option.some)
        })
      )

    const loadSubscription = (id: string) =>
      Effect.flatMap(findSubscription(id), (o) =>
        Option.match(o, { onNone: () => Effect.fail(new SubscriptionNotFound({ subscriptionId: id })), onSome: Effect.succeed })
      )

    const findRun = (id: string) =>
      Effect.flatMap(readOptional(runPath(id)), (text) =>
        Option.match(text, {
          onNone: () => Effect.succeed(Option.none<RunRecord>()),
          onSome: (t): Effect.Effect<Option.Option<RunRecord>, CorruptMonitorRecord | ReceiptDigestMismatch> => {
            const loaded = verifyRunText(id, t)
            if (loaded._tag === "Ok") return Effect.succeed(Option.some(loaded.run))
            // A file that is not even a JSON object is a corrupt record; a JSON object that is no
            // valid run, or whose receipt does not verify, is a receipt mismatch (fail closed).
            return isJsonObjectText(t)
              ? Effect.fail(new ReceiptDigestMismatch({ runId: id }))
              : Effect.fail(new CorruptMonitorRecord({ path: runPath(id), reason: "not a JSON object" }))
          }
        })
      )

    /** Load a run and re-verify its receipt digest (fail closed). */
    const loadRun = (id: string) =>
      Effect.zipRight(
        checkId(id, RUN_ID_PATTERN, "runId"),
        Effect.flatMap(findRun(id), (o) =>
          Option.match(o, { onNone: () => Effect.fail(new RunNotFound({ runId: id })), onSome: Effect.succeed })
        )
      )

    /** The `.json` files of a directory, sorted by name (each is opened and type-checked when read). */
    const listNames = store.listNames ?? listNamesOf(store)
    const listJson = (dir: string) =>
      Effect.map(listNames(dir), (names) => names.filter((n) => n.endsWith(".json")).map((name) => ({ name, id: name.slice(0, -5) })))

    /**
     * Read many files and keep only what `use` makes of each (a parsed record, a digest): the
     * store's batch paths when it has them, else file by file. `use` must not keep the bytes.
     */
    const readManyWith = store.readManyWith ?? readManyWithOf(store)
    const readAllWith = <A>(paths: ReadonlyArray<string>, use: (bytes: Uint8Array, index: number) => A, maxBytes: number) =>
      readManyWith(paths, use, { maxBytes })

    const textOf = (bytes: Uint8Array) =>
      toBuffer(bytes).toString("utf8")

    /** Parsed JSON, or undefined when the text is not JSON. */
    const parseOrUndefined = (bytes: Uint8Array): unknown => {
      try {
        return JSON.parse(textOf(bytes))
      } catch {
        return undefined
      }
    }

    // --- the scan index (src/domain/ScanIndex.ts) -------------------------------------------

    const useIndex = options.scanIndex !== false
    const stamp = scanStamp(process.versions)

    /** The scan index as stored, or undefined when it is missing, damaged or made under other rules. */
    const loadIndex: Effect.Effect<ScanIndex | undefined> = store.read(SCAN_INDEX_FILE, { maxBytes: INDEX_MAX }).pipe(
      Effect.map((bytes) => decodeScanIndex(stamp, bytes)),
      Effect.orElseSucceed(() => undefined)
    )

    /**
     * One command's use of the index: what it knew when the command started, and what this
     * command's scans found (a section a command did not scan is kept as it was): the run ids in
     * listing order (sorted) with, for each, its line of `known` or a new line.
     */
    interface ScanSession {
      readonly known: ScanIndex | undefined
      runs: { readonly ids: ReadonlyArray<string>; readonly lines: ReadonlyArray<RunLineSource> } | null
      subscriptions: ReadonlyMap<string, string> | null
      dirty: boolean
    }

    /** The index to write: what this command scanned, and the rest as it was known. */
    const indexToWrite = (session: ScanSession) => {
      const known = session.known
      const subscriptions = session.subscriptions ?? known?.subscriptions ?? new Map<string, string>()
      if (session.runs !== null) return encodeScanIndex(stamp, subscriptions, session.runs.ids, session.runs.lines, known?.runs)
      const ids: Array<string> = []
      const lines: Array<number> = []
      for (let k = 0; k < (known?.runs.size ?? 0); k++) {
        const id = known!.runs.runId(k)
        if (id !== undefined) {
          ids.push(id)
          lines.push(k)
        }
      }
      return encodeScanIndex(stamp, subscriptions, ids, lines, known?.runs)
    }

    /**
     * Run `body` with a scan session (null when the index is off), then publish the index if the
     * scans found anything it did not hold. It is derived state: a failure to write it (a
     * read-only folder, a full disk) only costs the next scan time.
     */
    const withScanIndex = <A, E>(body: (session: ScanSession | null) => Effect.Effect<A, E>): Effect.Effect<A, E> =>
      !useIndex ? body(null) : Effect.gen(function*() {
        const session: ScanSession = { known: yield* loadIndex, runs: null, subscriptions: null, dirty: false }
        const out = yield* body(session)
        if (session.dirty && (yield* FiberRef.get(mayWrite))) {
          yield* Effect.ignore(store.writeAtomic(SCAN_INDEX_FILE, indexToWrite(session)))
        }
        return out
      })

    /**
     * Every subscription record, sorted by creation; unreadable ones listed by path. With a scan
     * session, a file the index knows (same id, same SHA-256) is not checked again.
     */
    const scanSubscriptions = (session: ScanSession | null) =>
      Effect.gen(function*() {
        const entries = yield* listJson(SUBSCRIPTIONS_DIR)
        const known = session?.known?.subscriptions ?? new Map<string, string>()
        const fresh = new Map<string, string>()
        const read = yield* readAllWith(entries.map((e) => `${SUBSCRIPTIONS_DIR}/${e.name}`), (bytes, i): SubscriptionRecord | null => {
          const id = entries[i]!.id
          const raw = parseOrUndefined(bytes)
          if (session === null) return isSubscriptionRecord(raw) && raw.id === id ? raw : null
          const sha256 = fileDigest(bytes)
          if (known.get(id) === sha256) {
            fresh.set(id, sha256)
            return raw as SubscriptionRecord
          }
          if (!isSubscriptionRecord(raw) || raw.id !== id) return null
          fresh.set(id, sha256)
          session.dirty = true
          return raw
        }, RECORD_MAX)
        if (session !== null) {
          if (known.size !== fresh.size) session.dirty = true
          session.subscriptions = fresh
        }
        const subs: Array<SubscriptionRecord> = []
        const broken: Array<string> = []
        const brokenIds: Array<string> = []
        for (const [i, r] of read.entries()) {
          if (r.value === null) {
            broken.push(r.path)
            brokenIds.push(entries[i]!.id)
          }
          else subs.push(r.value)
        }
        return { subs: subs.sort(byCreation), broken, brokenIds }
      })

    const checkRevision = (expected: number, actual: number) =>
      expected === actual ? Effect.void : Effect.fail(new StaleRevision({ expected, actual }))

    /** A file the input names must exist as a regular file in the work folder. */
    const requireFile = (path: string) =>
      Effect.gen(function*() {
        const rel = yield* store.normalize(path)
        const st = yield* store.stat(rel)
        if (Option.isNone(st)) return yield* new FileNotFound({ path: rel })
        // A symlink is never followed, whatever it points to; a directory, FIFO or device is no unit file.
        if (st.value.kind === "symlink") return yield* new UnsafePath({ path: rel, reason: "symlink" })
        if (st.value.kind !== "file") return yield* new UnsafePath({ path: rel, reason: "not-regular-file" })
        return rel
      })

    /** SHA-256 of a file, or null when it is missing or cannot be read safely (one read, no stream). */
    const digestOrNull = (path: string) =>
      store.read(path, { maxBytes: FILE_MAX }).pipe(
        Effect.map((bytes) => sha256Hex(bytes) as string | null),
        Effect.catchTags({
          FileNotFound: () => Effect.succeed(null),
          UnsafePath: () => Effect.succeed(null),
          LimitExceeded: () => Effect.succeed(null)
        })
      )

    const bindingState = (run: RunRecord, digest: (path: string) => Effect.Effect<string | null, SchedulerError>) =>
      Effect.gen(function*() {
        if (run.completion === null) return { state: null, stale: [] as Array<string> }
        const stale: Array<string> = []
        for (const b of [run.completion.stage, ...(run.completion.survey === null ? [] : [run.completion.survey])]) {
          if ((yield* digest(b.path)) !== b.sha256) stale.push(b.path)
        }
        return { state: stale.length === 0 ? "verified" as const : "stale" as const, stale }
      })

    // --- subscriptions -------------------------------------------------------------------

    const createSubscription: NowGiven<SchedulerShape["createSubscription"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          yield* newSubscription(input, now) // the input's own rules first, then its files
          const survey = input.survey === undefined ? undefined : yield* requireFile(input.survey)
          const resolved = { ...input, ...(survey === undefined ? {} : { survey }) }
          const record = yield* newSubscription(resolved, now)
          const existing = yield* findSubscription(record.id)
          if (Option.isSome(existing)) {
            const same = existing.value.requestDigest === record.requestDigest ||
              existing.value.contentDigest === record.contentDigest
            if (same) return { created: false, subscription: existing.value }
            return yield* new ConflictingSubscription({ id: record.id })
          }
          yield* store.writeAtomic(subscriptionPath(record.id), yield* render(record))
          return { created: true, subscription: record }
        })
      )

    const updateSubscriptionM: NowGiven<SchedulerShape["updateSubscription"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          const sub = yield* loadSubscription(input.subscriptionId)
          yield* checkRevision(input.expectedRevision, sub.revision)
          if (sub.status === "completed") return yield* new SubscriptionCompleted({ subscriptionId: sub.id })
          const { gridChanged, record } = updateSubscription(sub, input.changes, now)
          yield* store.writeAtomic(subscriptionPath(record.id), yield* render(record))
          return { gridChanged, subscription: record }
        })
      )

    const setSubscriptionStatus: NowGiven<SchedulerShape["setSubscriptionStatus"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          const sub = yield* loadSubscription(input.subscriptionId)
          yield* checkRevision(input.expectedRevision, sub.revision)
          const change = statusChange(sub.status, input.status)
          if (change === "same") return { changed: false, subscription: sub }
          if (change === "from-completed") return yield* new SubscriptionCompleted({ subscriptionId: sub.id })
          if (input.status === "completed" && sub.activeRunId !== null) {
            return yield* new ActiveRunExists({ runId: sub.activeRunId })
          }
          const record: SubscriptionRecord = { ...sub, status: input.status, revision: sub.revision + 1, updatedAt: now.toISOString() }
          yield* store.writeAtomic(subscriptionPath(record.id), yield* render(record))
          return { changed: true, subscription: record }
        })
      )

    /** Every subscription; a damaged record fails closed with CorruptMonitorRecord. */

    const dueEntry = (s: SubscriptionRecord, now: Date): DueEntry => ({
      id: s.id,
      revision: s.revision,
      status: s.status,
      kind: s.kind,
      target: s.target,
      mode: s.mode,
      cadence: s.cadence,
      timezone: s.timezone,
      due: isDue(s, now),
      nextDueAt: s.nextDueAt,
      activeRunId: s.activeRunId
    })

    const due: NowGiven<SchedulerShape["due"]> = (now) =>
      readLocked(withScanIndex((session) =>
        Effect.gen(function*() {
          // A damaged subscription record is reported by id, not fatal for the healthy ones.
          const { brokenIds, subs } = yield* scanSubscriptions(session)
          const damaged = brokenIds.map((id) => ({ id, damaged: "not a valid subscription record" }))
          const active = subs.flatMap((s) => (s.activeRunId === null ? [] : [s.activeRunId]))
          const read = yield* readAllWith(active.map(runPath), (bytes) => textOf(bytes), RECORD_MAX)
          const receiptMismatches = read.flatMap((r, i) =>
            r.error?._tag === "FileNotFound" ? [] : scanRunText(active[i]!, r.value ?? "")._tag === "Ok" ? [] : [active[i]!]
          )
          return { now: now.toISOString(), subscriptions: subs.map((s) => dueEntry(s, now)), damaged, receiptMismatches }
        })
      ))

    // --- runs ----------------------------------------------------------------------------

    const createDueRun: NowGiven<SchedulerShape["createDueRun"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          const sub = yield* loadSubscription(input.subscriptionId)
          const latest = latestWindow(sub, now)
          if (latest >= 0) {
            // An active run for the latest window that has started: answer it (a retry). A run of
            // that window that has ended is no answer: the subscription is then not due (NotDue).
            const existing = yield* findRun(runIdOf(sub.id, sub.gridVersion, latest))
            if (Option.isSome(existing) && isActiveRun(existing.value.status)) return { created: false, run: existing.value }
          }
          if (sub.activeRunId !== null) return yield* new ActiveRunExists({ runId: sub.activeRunId })
          if (!isDue(sub, now)) {
            return yield* new NotDue({ nextDueAt: sub.status === "completed" ? null : sub.nextDueAt, status: sub.status })
          }
          const run = newRun(sub, latest, now)
          const updated: SubscriptionRecord = {
            ...sub,
            activeRunId: run.id,
            lastRunId: run.id,
            revision: sub.revision + 1,
            updatedAt: now.toISOString()
          }
          yield* tx.commit([
            { kind: "replace", path: runPath(run.id), after: yield* render(run) },
            { kind: "replace", path: subscriptionPath(sub.id), after: yield* render(updated) }
          ])
          return { created: true, run }
        })
      )

    const transitionRun: NowGiven<SchedulerShape["transitionRun"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          const run = yield* loadRun(input.runId)
          yield* checkRevision(input.expectedRevision, run.revision)
          yield* checkTransition(run.status, input.to)
          const updated: RunRecord = {
            ...run,
            status: input.to,
            revision: run.revision + 1,
            updatedAt: now.toISOString(),
            transitions: [...run.transitions, { from: run.status, to: input.to, at: now.toISOString(), reason: input.reason ?? null }]
          }
          const changes: Array<Change> = [{ kind: "replace", path: runPath(run.id), after: yield* render(updated) }]
          if (input.to === "cancelled") {
            const sub = yield* findSubscription(run.subscriptionId)
            if (Option.isSome(sub) && sub.value.activeRunId === run.id) {
              changes.push({ kind: "replace", path: subscriptionPath(sub.value.id), after: yield* render(afterRunEnded(sub.value, now)) })
            }
          }
          if (changes.length === 1) yield* store.writeAtomic(runPath(run.id), yield* render(updated))
          else yield* tx.commit(changes)
          return { run: updated }
        })
      )

    /** Does `input` say exactly what the completed run's finish recorded (paths compared normalized)? */
    const sameFinish = (run: RunRecord, input: FinishRunInput) =>
      Effect.gen(function*() {
        const c = run.completion
        if (c === null) return false
        const normalized = (p: string) => store.normalize(p).pipe(Effect.orElseSucceed(() => p))
        const citations: Array<{ path: string; quote: string }> = []
        for (const o of input.outcomes) {
          for (const x of o.citations) citations.push({ path: yield* normalized(x.path), quote: x.quote })
        }
        let i = 0
        const given = {
          binding: input.binding,
          stage: { path: yield* normalized(input.stage.path), sha256: input.stage.sha256 },
          survey: input.survey === undefined ? null : { path: yield* normalized(input.survey.path), sha256: input.survey.sha256 },
          units: input.units === undefined ? [] : input.units,
          outcomes: input.outcomes.map((o) => ({
            id: o.id,
            label: o.label,
            reason: o.reason,
            citations: o.citations.map(() => citations[i++]!)
          }))
        }
        const recorded = {
          binding: c.binding,
          stage: c.stage,
          survey: c.survey,
          units: c.units,
          outcomes: run.outcomes.map((o) => ({ id: o.id, label: o.label, reason: o.reason, citations: o.citations }))
        }
        return canonicalJson(given) === canonicalJson(recorded)
      })

    const finishRun: NowGiven<SchedulerShape["finishRun"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          const run = yield* loadRun(input.runId)
          // An exact repeat of the finish that completed this run (a retry after a lost answer)
          // answers the completed run, unchanged.
          if (run.status === "completed" && input.expectedRevision === run.revision - 1 && (yield* sameFinish(run, input))) {
            const sub = yield* loadSubscription(run.subscriptionId)
            return {
              changed: false,
              run,
              subscription: { id: sub.id, revision: sub.revision, nextDueAt: sub.nextDueAt },
              reported: false
            }
          }
          yield* checkRevision(input.expectedRevision, run.revision)
          if (run.status !== "running") return yield* new InvalidTransition({ from: run.status, to: "completed" })
          yield* checkFinishInput(run, input)
          if (input.binding.runId !== run.id) {
            return yield* new BindingMismatch({ reason: "binding.runId does not name this run" })
          }
          if (input.binding.taskDigest !== run.receiptDigest) {
            return yield* new BindingMismatch({ reason: "binding.taskDigest is not the run's receiptDigest" })
          }
          // The stage file: its bytes, read once, must have the SHA-256 given and carry the binding.
          const stagePath = yield* store.normalize(input.stage.path)
          const givenStage = input.stage.sha256
          const stageBytes = yield* store.read(stagePath, { maxBytes: FILE_MAX }).pipe(
            Effect.catchTag("FileNotFound", (e): Effect.Effect<never, FileNotFound | DigestMismatch> =>
              givenStage === undefined ? Effect.fail(e) : Effect.fail(new DigestMismatch({ path: stagePath, expected: givenStage, actual: null }))
            )
          )
          const stageSha = sha256Hex(stageBytes)
          if (givenStage !== undefined && stageSha !== givenStage) {
            return yield* new DigestMismatch({ path: stagePath, expected: givenStage, actual: stageSha })
          }
          const stageText = Buffer.from(stageBytes.buffer, stageBytes.byteOffset, stageBytes.byteLength).toString("utf8")
          if (!stageText.includes(run.id) || !stageText.includes(run.receiptDigest)) {
            return yield* new BindingMismatch({ reason: "the stage file does not contain the run id and its receipt digest" })
          }
          let survey: { path: string; sha256: string } | null = null
          if (input.survey !== undefined) {
            const surveyPath = yield* store.normalize(input.survey.path)
            if (surveyPath !== run.frozen.survey) {
              return yield* new BindingMismatch({ reason: "the survey path is not the run's frozen survey" })
            }
            const actual = yield* digestOrNull(surveyPath)
            const given = input.survey.sha256
            if (given === undefined && actual === null) return yield* new FileNotFound({ path: surveyPath })
            if (given !== undefined && actual !== given) {
              return yield* new DigestMismatch({ path: surveyPath, expected: given, actual })
            }
            survey = { path: surveyPath, sha256: actual! }
          }
          const missing = missingUnits(run, input.units)
          if (missing.length > 0) return yield* new MissingUnits({ missing })
          // Every quote must occur in its cited file (the shared quote matcher).
          const matchers = new Map<string, ((quote: string) => boolean) | null>()
          const outcomes = []
          for (const o of input.outcomes) {
            const citations = []
            for (const c of o.citations) {
              const path = yield* store.normalize(c.path)
              let matcher = matchers.get(path)
              if (matcher === undefined) {
                // A cited file is evidence: a hard-linked one is refused, as every retained file is.
                const text = yield* store.readText(path, { maxBytes: FILE_MAX, requireSingleLink: true }).pipe(
                  Effect.map(Option.some),
                  Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>()))
                )
                matcher = Option.match(text, {
                  onNone: () => null,
                  onSome: (t) => {
                    const m = makeFileQuoteMatcher(path, t)
                    return (q: string) => m(q).matched
                  }
                })
                matchers.set(path, matcher)
              }
              if (matcher === null || !matcher(c.quote)) return yield* new CitationNotFound({ outcome: o.id, path })
              citations.push({ path, quote: c.quote })
            }
            outcomes.push({ id: o.id, label: o.label, reason: o.reason, citations, disposition: null })
          }
          const sub = yield* loadSubscription(run.subscriptionId)
          const at = now.toISOString()
          const completed: RunRecord = {
            ...run,
            status: "completed",
            revision: run.revision + 1,
            updatedAt: at,
            transitions: [...run.transitions, { from: run.status, to: "completed", at, reason: null }],
            completion: {
              at,
              binding: { runId: input.binding.runId, taskDigest: input.binding.taskDigest },
              stage: { path: stagePath, sha256: stageSha },
              survey,
              units: input.units === undefined ? [] : [...input.units]
            },
            outcomes
          }
          const nextSub = sub.activeRunId === run.id ? afterRunEnded(sub, now) : sub
          const changes: Array<Change> = [
            { kind: "replace", path: runPath(run.id), after: yield* render(completed) },
            { kind: "replace", path: subscriptionPath(sub.id), after: yield* render(nextSub) }
          ]
          const program = sub.program
          if (program !== null) {
            const line: ReportLine = {
              at,
              event: "run-completed",
              program,
              subscriptionId: sub.id,
              runId: run.id,
              windowIndex: run.windowIndex,
              outcomes: outcomes.length,
              outcomeCounts: outcomeCounts(outcomes)
            }
            changes.push({ kind: "append", path: REPORTS_FILE, data: `${JSON.stringify(line)}\n` })
          }
          yield* tx.commit(changes)
          return {
            changed: true,
            run: completed,
            subscription: { id: nextSub.id, revision: nextSub.revision, nextDueAt: nextSub.nextDueAt },
            reported: program !== null
          }
        })
      )

    const setOutcomeDisposition: NowGiven<SchedulerShape["setOutcomeDisposition"]> = (input, now) =>
      locked(
        Effect.gen(function*() {
          const run = yield* loadRun(input.runId)
          const outcome = run.outcomes.find((o) => o.id === input.outcomeId)
          if (outcome === undefined) return yield* new OutcomeNotFound({ runId: run.id, outcomeId: input.outcomeId })
          const decision = yield* checkDisposition(outcome, input)
          if (decision === "noop") return { changed: false, runId: run.id, runRevision: run.revision, outcome }
          const unitPath = input.unitPath === undefined ? undefined : yield* requireFile(input.unitPath)
          const reviewItem = input.reviewItem === undefined ? undefined : yield* requireFile(input.reviewItem)
          const disposition = dispositionOf(
            { ...input, ...(unitPath === undefined ? {} : { unitPath }), ...(reviewItem === undefined ? {} : { reviewItem }) },
            now
          )
          const updatedOutcome = { ...outcome, disposition }
          const updated: RunRecord = {
            ...run,
            revision: run.revision + 1,
            updatedAt: now.toISOString(),
            outcomes: run.outcomes.map((o) => (o.id === outcome.id ? updatedOutcome : o))
          }
          yield* store.writeAtomic(runPath(run.id), yield* render(updated))
          return { changed: true, runId: run.id, runRevision: updated.revision, outcome: updatedOutcome }
        })
      )

    /**
     * Every run file, verified; unreadable or altered ones are mismatches (never silently skipped).
     * Each run file is read whole and checked as soon as it is read, and only what the scans use
     * is kept (RunScan): the parsed record dies young instead of surviving the whole scan. With a
     * scan session, the check's answer comes from the scan index when the file's bytes are the
     * very bytes it was computed from (same SHA-256), and a quiet run (./ScanIndex.ts `isQuietRun`)
     * found there stays a line of the index (`quietLines`): `next` reads its bindings from there,
     * and builds it only when a binding no longer holds. Every other verified run is in `runs`.
     */
    const loadAllRuns = (session: ScanSession | null) =>
      Effect.gen(function*() {
        const entries = yield* listJson(RUNS_DIR)
        const ids = entries.map((e) => e.id)
        const known = session?.known?.runs
        const lines: Array<RunLineSource> = []
        const mismatches: Array<{ runId: string; revision: number | null; at: number }> = []
        const runs: Array<RunScan> = []
        const quietLines: Array<number> = []
        const take = (r: RunScanResult, at: number) => {
          if (isRunMismatch(r)) mismatches.push({ runId: r.runId, revision: r.revision, at })
          else runs.push(r)
        }
        const read = yield* readAllWith(entries.map((e) => `${RUNS_DIR}/${e.name}`), (bytes, i): true => {
          const id = ids[i]!
          if (session === null) {
            take(scanRun(id, textOf(bytes)), i)
            return true
          }
          const sha256 = fileDigest(bytes)
          const k = known === undefined ? -1 : known.find(id, sha256)
          if (k >= 0) {
            if (known!.isQuiet(k)) {
              lines[i] = k
              quietLines.push(k)
              return true
            }
            const r = known!.result(k)
            if (r !== undefined) {
              lines[i] = k
              take(r, i)
              return true
            }
          }
          const r = scanRun(id, textOf(bytes))
          lines[i] = runLine(id, sha256, r)
          session.dirty = true
          take(r, i)
          return true
        }, RECORD_MAX)
        // A file that could not be read is a mismatch (and has no line: the next scan reads it again).
        let unread = false
        read.forEach((r, i) => {
          if (r.value === null) {
            mismatches.push({ runId: ids[i]!, revision: null, at: i })
            unread = true
          }
        })
        // In listing order, as every scan reports them.
        if (unread) mismatches.sort((a, b) => a.at - b.at)
        if (session !== null) {
          if (unread || (known?.size ?? 0) !== ids.length) session.dirty = true
          session.runs = unread
            ? { ids: ids.filter((_, i) => lines[i] !== undefined), lines: lines.filter((l) => l !== undefined) }
            : { ids, lines }
        }
        return { ids, mismatches, runs, quietLines, index: known }
      })

    const unresolvedOutcomes: SchedulerShape["unresolvedOutcomes"] = readLocked(
      withScanIndex((session) => Effect.map(loadAllRuns(session), ({ mismatches, runs }) => {
        // A quiet run left as a line of the index has no undecided outcome by definition.
        const outcomes = runs.sort(byCreation).flatMap((r) => r.unresolved)
        return { outcomes, receiptMismatches: mismatches.map((m) => m.runId) }
      }))
    )

    const showSubscription: SchedulerShape["showSubscription"] = (id) =>
      readLocked(Effect.zipRight(checkId(id, MONITOR_ID_PATTERN, "--subscription"), loadSubscription(id)))

    const showRun: SchedulerShape["showRun"] = (id) =>
      readLocked(
        Effect.gen(function*() {
          const run = yield* loadRun(id)
          const { state } = yield* bindingState(run, digestOrNull)
          return { ...run, binding: state }
        })
      )

    const list: SchedulerShape["list"] = readLocked(
      Effect.gen(function*() {
        const { broken, subs } = yield* scanSubscriptions(null)
        const subscriptions: Array<MonitorList["subscriptions"][number]> = subs.map((s) => ({
          id: s.id,
          status: s.status,
          revision: s.revision,
          kind: s.kind,
          target: s.target,
          nextDueAt: s.nextDueAt,
          activeRunId: s.activeRunId
        }))
        for (const p of broken) {
          const id = p.slice(SUBSCRIPTIONS_DIR.length + 1, -".json".length)
          subscriptions.push({ id, status: "unreadable", revision: null, kind: null, target: null, nextDueAt: null, activeRunId: null })
        }
        const entries = yield* listJson(RUNS_DIR)
        const read = yield* readAllWith(entries.map((e) => runPath(e.id)), (bytes, i) => {
          const loaded = verifyRunText(entries[i]!.id, textOf(bytes))
          return loaded._tag === "Ok" ? loaded.run : null
        }, RECORD_MAX)
        const good = read.flatMap((r) => (r.value === null ? [] : [r.value])).sort(byCreation)
        const runs: Array<MonitorList["runs"][number]> = good.map((r) => ({
          id: r.id,
          subscriptionId: r.subscriptionId,
          status: r.status,
          revision: r.revision,
          windowStart: r.windowStart
        }))
        read.forEach((r, i) => {
          if (r.value === null) runs.push({ id: entries[i]!.id, subscriptionId: null, status: "unreadable", revision: null, windowStart: null })
        })
        return { subscriptions, runs }
      })
    )

    // --- next ----------------------------------------------------------------------------

    const facts: NowGiven<SchedulerShape["facts"]> = (now) =>
      readLocked(withScanIndex((session) =>
        Effect.gen(function*() {
          const out: Array<Fact> = []
          for (const r of yield* Ref.get(recoveredRef)) {
            out.push({ kind: "transaction-recovered", transactionId: r.transactionId, direction: r.direction, paths: r.paths })
          }
          const { broken, subs: subList } = yield* scanSubscriptions(session)
          const subs = new Map(subList.map((s) => [s.id, s]))
          for (const path of broken) {
            out.push({ kind: "broken-link", runId: null, runRevision: null, missing: path, reason: "unreadable subscription record" })
          }
          for (const s of subList) {
            if (isDue(s, now)) {
              out.push({
                kind: "subscription-due",
                subscriptionId: s.id,
                subscriptionRevision: s.revision,
                mode: s.mode,
                target: s.target,
                nextDueAt: s.nextDueAt
              })
            }
          }
          const { ids, index, mismatches, quietLines, runs } = yield* loadAllRuns(session)
          const runIds = new Set(ids)
          for (const s of subList) {
            if (s.activeRunId !== null && !runIds.has(s.activeRunId)) {
              out.push({
                kind: "broken-link",
                runId: s.activeRunId,
                runRevision: null,
                missing: runPath(s.activeRunId),
                reason: `the active run of subscription '${s.id}' (revision ${s.revision}) is gone`
              })
            }
          }
          for (const m of mismatches) out.push({ kind: "receipt-mismatch", runId: m.runId, runRevision: m.revision })

          // Digests of every bound file (stage, survey) of completed runs, each file read once; a
          // quiet run left as a line of the index has its bindings read from there.
          const bound = new Set<string>()
          const stagePaths = quietLines.map((k) => index!.stagePath(k))
          const surveyPaths = quietLines.map((k) => index!.surveyPath(k))
          for (const path of stagePaths) bound.add(path)
          for (const path of surveyPaths) if (path !== null) bound.add(path)
          for (const run of runs) {
            if (run.status !== "completed" || run.completion === null) continue
            bound.add(run.completion.stage.path)
            if (run.completion.survey !== null) bound.add(run.completion.survey.path)
          }
          // Keyed by each path as the records write it (the entries come back in the same order,
          // their own `path` normalized), so another spelling of a bound path still finds its digest.
          const boundPaths = [...bound]
          const digests = new Map<string, string | null>()
          const hashed = yield* readAllWith(boundPaths, (bytes) => sha256Hex(bytes), FILE_MAX)
          for (let i = 0; i < boundPaths.length; i++) digests.set(boundPaths[i]!, hashed[i]?.value ?? null)
          // A quiet line reports something only when a binding no longer holds: then it joins the rest.
          quietLines.forEach((k, i) => {
            const survey = surveyPaths[i] ?? null
            const holds = index!.stageIs(k, digests.get(stagePaths[i]!)) && (survey === null || index!.surveyIs(k, digests.get(survey)))
            if (!holds) runs.push(index!.result(k) as RunScan) // a quiet line: `find` checked its fields
          })
          runs.sort(byCreation)
          const cited = new Set<string>()
          for (const run of runs) for (const u of run.unresolved) for (const c of u.citations) cited.add(c.path)
          const present = new Map<string, boolean>()
          for (const path of cited) {
            const st = yield* store.stat(path).pipe(Effect.catchAll(() => Effect.succeed(Option.none())))
            present.set(path, Option.isSome(st) && st.value.kind === "file")
          }

          for (const run of runs) {
            const sub = subs.get(run.subscriptionId)
            if (isActiveRun(run.status)) {
              if (sub === undefined) {
                out.push({
                  kind: "broken-link",
                  runId: run.id,
                  runRevision: run.revision,
                  missing: subscriptionPath(run.subscriptionId),
                  reason: "the run's subscription is gone"
                })
              } else {
                out.push({
                  kind: "resume-monitor-run",
                  runId: run.id,
                  runRevision: run.revision,
                  status: run.status,
                  subscriptionId: run.subscriptionId,
                  subscriptionRevision: sub.revision,
                  target: run.target
                })
              }
              continue
            }
            if (run.status !== "completed" || run.completion === null) continue
            // Arrays only when something is off: most completed runs have nothing to report.
            const completion = run.completion
            let gone: Array<string> | null = null
            let stale: Array<string> | null = null
            for (let k = 0; k < (completion.survey === null ? 1 : 2); k++) {
              const b = k === 0 ? completion.stage : completion.survey!
              const d = digests.get(b.path) ?? null
              if (d === null) (gone ??= []).push(b.path)
              else if (d !== b.sha256) (stale ??= []).push(b.path)
            }
            const unresolved = run.unresolved
            let links: Array<string> | null = gone === null ? null : [...gone]
            if (unresolved.length > 0) {
              if (sub === undefined) (links ??= []).push(subscriptionPath(run.subscriptionId))
              for (const u of unresolved) for (const c of u.citations) if (present.get(c.path) !== true) (links ??= []).push(c.path)
            }
            if (links !== null) {
              for (const path of new Set(links)) {
                out.push({ kind: "broken-link", runId: run.id, runRevision: run.revision, missing: path, reason: "a file the completed run is bound to is gone" })
              }
            }
            if (stale !== null || gone !== null) {
              out.push({ kind: "completion-binding-stale", runId: run.id, runRevision: run.revision, paths: [...(stale ?? []), ...(gone ?? [])] })
            }
            for (const u of unresolved) {
              out.push({ kind: "unresolved-outcome", runId: run.id, runRevision: run.revision, outcomeId: u.outcomeId, label: u.label })
            }
          }
          return out
        })
      ))

    // Every argument is checked with the Schema the CLI decodes with, so a library caller cannot
    // make the scheduler write a record it would later refuse to read.
    const checked = <I, A>(schema: Schema.Schema<I, any, never>, method: (input: I, now: Date) => Effect.Effect<A, SchedulerError>) => {
      const validate = validateWith(schema)
      return (input: I, now: Date): Effect.Effect<A, SchedulerError> =>
        Effect.flatMap(Effect.all([validate(input), checkNow(now)]), ([i, n]) => method(i, n))
    }
    const idChecked = <A>(schema: Schema.Schema<string, string, never>, method: (id: string) => Effect.Effect<A, SchedulerError>) => {
      const validate = validateWith(schema)
      return (id: string) => Effect.flatMap(validate(id), method)
    }
    const nowChecked = <A>(method: (now: Date) => Effect.Effect<A, SchedulerError>) => (now: Date) =>
      Effect.flatMap(checkNow(now), method)

    return {
      createSubscription: nowOptional(checked(SubscriptionInput, createSubscription)),
      updateSubscription: nowOptional(checked(SubscriptionUpdateInput, updateSubscriptionM)),
      setSubscriptionStatus: nowOptional(checked(SubscriptionStatusInput, setSubscriptionStatus)),
      due: nowOptional0(nowChecked(due)),
      createDueRun: nowOptional(checked(CreateDueRunInput, createDueRun)),
      // Checked against the file's shape (any status), so an unreachable target is InvalidTransition.
      transitionRun: nowOptional(checked(TransitionRunFile, (i, n) => transitionRun(i as TransitionRunInput, n))),
      finishRun: nowOptional(checked(FinishRunInput, finishRun)),
      setOutcomeDisposition: nowOptional(checked(OutcomeDispositionInput, setOutcomeDisposition)),
      unresolvedOutcomes,
      showSubscription: idChecked(Id, showSubscription),
      showRun: idChecked(RunId, showRun),
      list,
      facts: nowOptional0(nowChecked(facts)),
      recover: locked(Ref.get(recoveredRef))
    } satisfies SchedulerShape
  })

export const SchedulerLive: Layer.Layer<Scheduler, never, FileStore | Lock> = Layer.effect(
  Scheduler,
  Effect.gen(function*() {
    const store = yield* FileStore
    const lock = yield* Lock
    return yield* makeScheduler(store, lock.withLock, {}, { withReadLock: lock.withReadLock })
  })
)
