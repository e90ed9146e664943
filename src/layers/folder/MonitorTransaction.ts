/**
 * Multi-file transactions of the monitor. The caller holds the work folder's lock.
 *
 * 1. an intent record `.dossier/monitor/intent.json` is published atomically (fsynced) holding,
 *    for every file, its before-image and its new content (`committed: false`);
 * 2. the intent is published again with `committed: true` (the commit point);
 * 3. each file is replaced atomically (or appended to, for reports.jsonl);
 * 4. the intent record is removed.
 *
 * Recovery (the next command, read-only ones included, under the lock): no intent → nothing;
 * `committed: false` → every file is put back from its before-image; `committed: true` → every
 * file is written forward from its new content. Both are idempotent, so a crash during recovery
 * is recovered again. Appends record the size before, so rolling back truncates and rolling
 * forward truncates then appends exactly once.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { decodeWith, firstIssueReason, parseJson } from "../../domain/Decode.js"
import type { FileNotFound, IoError, LimitExceeded, UnsafePath } from "../../domain/Errors.js"
import { CorruptMonitorRecord } from "../../domain/MonitorErrors.js"
import { MONITOR_ID_PATTERN, RUN_ID_PATTERN } from "../../domain/MonitorSchema.js"
import { normalizeRelative } from "../../domain/Paths.js"
import type { FileStoreShape } from "../../services/FileStore.js"
import type { RecoveredTransaction } from "../../services/ports/MonitorStore.js"

export { INTENT_FILE } from "../../domain/MonitorLayout.js"
import { INTENT_FILE } from "../../domain/MonitorLayout.js"

const ReplaceEntry = Schema.Struct({
  kind: Schema.Literal("replace"),
  path: Schema.String,
  before: Schema.NullOr(Schema.String),
  after: Schema.NullOr(Schema.String)
})
const AppendEntry = Schema.Struct({
  kind: Schema.Literal("append"),
  path: Schema.String,
  sizeBefore: Schema.Int.pipe(Schema.nonNegative()),
  data: Schema.String
})
export const MonitorIntent = Schema.Struct({
  version: Schema.Literal(1),
  id: Schema.String,
  committed: Schema.Boolean,
  files: Schema.Array(Schema.Union(ReplaceEntry, AppendEntry))
}).annotations({ identifier: "monitor-intent" })
export type MonitorIntent = typeof MonitorIntent.Type
export type IntentEntry = MonitorIntent["files"][number]

/** A change requested by the caller: replace a file with new text (null: remove it) or append a line. */
export type Change =
  | { readonly kind: "replace"; readonly path: string; readonly after: string | null }
  | { readonly kind: "append"; readonly path: string; readonly data: string }

/** Steps a fault-injection test may stop after. */
export type Step = "intent-written" | "committed" | `applied-${number}` | "done"

export interface TransactionHooks {
  /** Called after each step (tests stop the transaction here). */
  readonly afterStep?: (step: Step) => Effect.Effect<void>
}

type StoreError = IoError | UnsafePath | LimitExceeded | FileNotFound

const SUBSCRIPTION_RECORD = /^\.dossier\/monitor\/subscriptions\/([^/]+)\.json$/
const RUN_RECORD = /^\.dossier\/monitor\/runs\/([^/]+)\.json$/
const REPORTS_RECORD = ".dossier/monitor/reports.jsonl"

/**
 * Whether an intent entry names one of the files a monitor transaction writes: a subscription
 * record or a run record (replaced) under a valid id, or the reports log (appended). The path
 * must be in normal form already (`a/./b`, `a/../b`, `//`, a leading `/` are not), so no
 * spelling of another file passes.
 */
export const isOwnRecordEntry = (entry: IntentEntry): boolean => {
  const normalized = normalizeRelative(entry.path)
  if (Either.isLeft(normalized) || normalized.right !== entry.path) return false
  if (entry.kind === "append") return entry.path === REPORTS_RECORD
  const sub = SUBSCRIPTION_RECORD.exec(entry.path)
  if (sub !== null) return MONITOR_ID_PATTERN.test(sub[1]!)
  const run = RUN_RECORD.exec(entry.path)
  return run !== null && RUN_ID_PATTERN.test(run[1]!)
}

const decodeIntent = decodeWith(MonitorIntent)

export const makeTransactions = (store: FileStoreShape, hooks: TransactionHooks = {}) => {
  const after = (step: Step) => (hooks.afterStep === undefined ? Effect.void : hooks.afterStep(step))

  const sizeOf = (path: string) =>
    Effect.map(store.stat(path), (st) => (Option.isSome(st) && st.value.kind === "file" ? st.value.size : 0))

  const readOrNull = (path: string): Effect.Effect<string | null, StoreError> =>
    store.readText(path).pipe(Effect.catchTag("FileNotFound", () => Effect.succeed(null)))

  const put = (
    path: string,
    text: string | null
  ) => (text === null ? store.remove(path) : Effect.asVoid(store.writeAtomic(path, text)))

  /** Bring an append entry to its before (`forward = false`) or after state; idempotent. */
  const settleAppend = (e: Extract<IntentEntry, { kind: "append" }>, forward: boolean) =>
    Effect.gen(function*() {
      const size = yield* sizeOf(e.path)
      if (size > e.sizeBefore) yield* store.truncate(e.path, e.sizeBefore)
      if (forward) yield* Effect.asVoid(store.append(e.path, e.data))
    })

  const apply = (e: IntentEntry, forward: boolean): Effect.Effect<void, StoreError> =>
    e.kind === "replace" ? put(e.path, forward ? e.after : e.before) : settleAppend(e, forward)

  /** Run the changes as one transaction. The caller holds the lock and has read `before` states under it. */
  const commit = (changes: ReadonlyArray<Change>): Effect.Effect<void, StoreError> =>
    Effect.gen(function*() {
      const files: Array<IntentEntry> = []
      for (const c of changes) {
        if (c.kind === "replace") {
          files.push({ kind: "replace", path: c.path, before: yield* readOrNull(c.path), after: c.after })
        } else files.push({ kind: "append", path: c.path, sizeBefore: yield* sizeOf(c.path), data: c.data })
      }
      const intent: MonitorIntent = { version: 1, id: randomBytes(8).toString("hex"), committed: false, files }
      yield* store.writeAtomic(INTENT_FILE, JSON.stringify(intent))
      yield* after("intent-written")
      yield* store.writeAtomic(INTENT_FILE, JSON.stringify({ ...intent, committed: true }))
      yield* after("committed")
      for (let i = 0; i < files.length; i++) {
        // Appends are settled (truncate to sizeBefore, then append) exactly as recovery does.
        yield* apply(files[i]!, true)
        yield* after(`applied-${i}`)
      }
      yield* store.remove(INTENT_FILE)
      yield* after("done")
    })

  /** Recover an interrupted transaction, if any: roll back (uncommitted) or forward (committed). */
  const recover: Effect.Effect<Option.Option<RecoveredTransaction>, StoreError | CorruptMonitorRecord> = Effect.gen(
    function*() {
      const text = yield* readOrNull(INTENT_FILE)
      if (text === null) return Option.none()
      const intent = yield* Effect.flatMap(parseJson(text), decodeIntent).pipe(
        Effect.mapError((e) =>
          new CorruptMonitorRecord({ path: INTENT_FILE, reason: firstIssueReason(e, "not an intent record") })
        )
      )
      // Every path must be one of the monitor's own record files, compared after normalizing:
      // anything else makes the whole intent corrupt, and nothing is touched.
      for (const f of intent.files) {
        if (!isOwnRecordEntry(f)) {
          return yield* new CorruptMonitorRecord({
            path: INTENT_FILE,
            reason: "names a file that is not one of the monitor's record files"
          })
        }
      }
      for (const f of intent.files) yield* apply(f, intent.committed)
      yield* store.remove(INTENT_FILE)
      return Option.some({
        transactionId: intent.id,
        direction: intent.committed ? "rolled-forward" as const : "rolled-back" as const,
        paths: intent.files.map((f) => f.path)
      })
    }
  )

  /** Is an interrupted transaction waiting to be recovered? (Reads only.) */
  const pending: Effect.Effect<boolean, StoreError> = Effect.map(readOrNull(INTENT_FILE), (t) => t !== null)

  return { commit, recover, pending }
}
