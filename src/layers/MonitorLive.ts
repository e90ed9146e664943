/**
 * Monitor on top of FileStore and Lock: one JSON file per subscription and per run under
 * `.dossier/monitor/`, multi-file writes as transactions (./MonitorTransaction.ts), every
 * method under the work folder's lock after recovering any interrupted transaction. This file
 * composes the parts: records (./MonitorRecords.ts), the methods that write
 * (./MonitorCommands.ts), the scan of every record with its index (./MonitorScanIndex.ts),
 * the methods that only read (./MonitorScans.ts) and `next`'s monitor facts (./MonitorFacts.ts).
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type * as Schema from "effect/Schema"
import { checkNow, validateWith } from "../domain/Decode.js"
import { RecoveryNeeded } from "../domain/Errors.js"
import {
  CreateDueRunInput,
  FinishRunInput,
  Id,
  OutcomeDispositionInput,
  RunId,
  SubscriptionInput,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunFile,
  type TransitionRunInput
} from "../domain/MonitorSchema.js"
import { FileStore, type FileStoreShape } from "../services/FileStore.js"
import { Lock } from "../services/Lock.js"
import { type RecoveredTransaction, Monitor, type MonitorServiceError, type MonitorShape } from "../services/Monitor.js"
import { nowOptional, nowOptional0 } from "./Now.js"
import { makeCommands } from "./MonitorCommands.js"
import { makeMonitorFacts } from "./MonitorFacts.js"
import { makeRecords } from "./MonitorRecords.js"
import { makeScan } from "./MonitorScanIndex.js"
import { makeScans } from "./MonitorScans.js"
import { INTENT_FILE, makeTransactions, type TransactionHooks } from "./MonitorTransaction.js"

// The record layout, for callers that know the monitor by this file (tests, tools).
export {
  MONITOR_DIR,
  REPORTS_FILE,
  RUNS_DIR,
  runPath,
  SCAN_INDEX_FILE,
  SUBSCRIPTIONS_DIR,
  subscriptionPath
} from "./MonitorRecords.js"

export interface MonitorOptions {
  /** Keep and use the scan index (default true); false checks every record from scratch and leaves the index alone. */
  readonly scanIndex?: boolean
  /**
   * How the methods that only read take the lock (`Lock.withReadLock`); `held` false means they
   * run without it and write nothing. Default: the writers' lock, always held.
   */
  readonly withReadLock?: <A, E>(self: (held: boolean) => Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>
}

export const makeMonitor = (
  store: FileStoreShape,
  withLock: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>,
  hooks: TransactionHooks = {},
  options: MonitorOptions = {}
) =>
  Effect.gen(function*() {
    const tx = makeTransactions(store, hooks)
    const recoveredRef = yield* Ref.make<ReadonlyArray<RecoveredTransaction>>([])

    const recoverNow: Effect.Effect<ReadonlyArray<RecoveredTransaction>, MonitorServiceError> = Effect.flatMap(
      tx.recover,
      Option.match({
        onNone: () => Ref.get(recoveredRef),
        onSome: (r) => Ref.updateAndGet(recoveredRef, (xs) => [...xs, r])
      })
    )

    /** Every method: under the lock, after recovering an interrupted transaction. */
    const locked = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | MonitorServiceError> => withLock(Effect.zipRight(recoverNow, self))

    /** May this fiber write derived state (the scan index)? False for a reader without the lock. */
    const mayWrite = FiberRef.unsafeMake(true)
    const withReadLock = options.withReadLock ?? ((self) => withLock(self(true)))

    /**
     * The methods that only read: under the lock when it can be taken without creating anything
     * (then recovering as the writers do); otherwise without it, writing nothing, and refusing
     * with RecoveryNeeded when an interrupted transaction would have to be recovered first.
     */
    const readLocked = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | MonitorServiceError> =>
      withReadLock((held): Effect.Effect<A, E | MonitorServiceError> =>
        held
          ? Effect.zipRight(recoverNow, self)
          : Effect.flatMap(tx.pending, (pending): Effect.Effect<A, E | MonitorServiceError> =>
            pending ? Effect.fail(new RecoveryNeeded({ path: INTENT_FILE })) : Effect.locally(self, mayWrite, false))
      )

    const records = makeRecords(store)
    const scan = makeScan(store, records, options.scanIndex !== false, FiberRef.get(mayWrite))
    const commands = makeCommands(store, records, tx, locked)
    const scans = makeScans(records, scan, readLocked)
    const facts = makeMonitorFacts(store, records, scan, Ref.get(recoveredRef))

    // Every argument is checked with the Schema the CLI decodes with, so a library caller cannot
    // make the monitor write a record it would later refuse to read.
    const checked = <I, A>(schema: Schema.Schema<I, any, never>, method: (input: I, now: Date) => Effect.Effect<A, MonitorServiceError>) => {
      const validate = validateWith(schema)
      return (input: I, now: Date): Effect.Effect<A, MonitorServiceError> =>
        Effect.flatMap(Effect.all([validate(input), checkNow(now)]), ([i, n]) => method(i, n))
    }
    const idChecked = <A>(schema: Schema.Schema<string, string, never>, method: (id: string) => Effect.Effect<A, MonitorServiceError>) => {
      const validate = validateWith(schema)
      return (id: string) => Effect.flatMap(validate(id), method)
    }
    const nowChecked = <A>(method: (now: Date) => Effect.Effect<A, MonitorServiceError>) => (now: Date) => Effect.flatMap(checkNow(now), method)

    return {
      createSubscription: nowOptional(checked(SubscriptionInput, commands.createSubscription)),
      updateSubscription: nowOptional(checked(SubscriptionUpdateInput, commands.updateSubscription)),
      setSubscriptionStatus: nowOptional(checked(SubscriptionStatusInput, commands.setSubscriptionStatus)),
      due: nowOptional0(nowChecked(scans.due)),
      createDueRun: nowOptional(checked(CreateDueRunInput, commands.createDueRun)),
      // Checked against the file's shape (any status), so an unreachable target is InvalidTransition.
      transitionRun: nowOptional(checked(TransitionRunFile, (i, n) => commands.transitionRun(i as TransitionRunInput, n))),
      finishRun: nowOptional(checked(FinishRunInput, commands.finishRun)),
      setOutcomeDisposition: nowOptional(checked(OutcomeDispositionInput, commands.setOutcomeDisposition)),
      unresolvedOutcomes: scans.unresolvedOutcomes,
      showSubscription: idChecked(Id, scans.showSubscription),
      showRun: idChecked(RunId, scans.showRun),
      list: scans.list,
      facts: nowOptional0(nowChecked((now) => readLocked(facts(now)))),
      recover: locked(Ref.get(recoveredRef))
    } satisfies MonitorShape
  })

export const MonitorLive: Layer.Layer<Monitor, never, FileStore | Lock> = Layer.effect(
  Monitor,
  Effect.gen(function*() {
    const store = yield* FileStore
    const lock = yield* Lock
    return yield* makeMonitor(store, lock.withLock, {}, { withReadLock: lock.withReadLock })
  })
)
