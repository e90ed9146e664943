/**
 * The monitor's logic, once, over its storage ports (src/services/ports/MonitorStore.ts): every
 * method under the lock after the store recovered any interrupted commit. This file composes
 * the parts: the methods that write (./MonitorCommands.ts), the methods that only read
 * (./MonitorScans.ts) and `next`'s monitor facts (./MonitorFacts.ts). `MonitorFromStore` needs
 * the ports and a Lock; `MonitorLive` brings the folder's ports (src/layers/folder/), so it needs
 * a FileStore and a Lock as before.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import type * as Schema from "effect/Schema"
import { checkNow, checkOptionalNow, validateWith } from "../domain/Decode.js"
import { type InvalidInput, RecoveryNeeded } from "../domain/Errors.js"
import { INTENT_FILE } from "../domain/MonitorLayout.js"
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
import { optionsObject } from "../domain/Options.js"
import type { FileStoreShape } from "../services/FileStore.js"
import { type FileStore } from "../services/FileStore.js"
import { Lock } from "../services/Lock.js"
import { Monitor, type MonitorServiceError, type MonitorShape } from "../services/Monitor.js"
import {
  MonitorFiles,
  type MonitorFilesShape,
  MonitorStore,
  type MonitorStoreShape,
  type RecoveredTransaction
} from "../services/ports/MonitorStore.js"
import { makeMonitorFilesFolder, makeMonitorStoreFolder, MonitorStoreFolder } from "./folder/MonitorStoreFolder.js"
import type { TransactionHooks } from "./folder/MonitorTransaction.js"
import { makeCommands } from "./MonitorCommands.js"
import { makeMonitorFacts } from "./MonitorFacts.js"
import { makeRecordAccess } from "./MonitorRecordAccess.js"
import { makeScans } from "./MonitorScans.js"
import { currentDate } from "./Now.js"
import { spanned } from "./Spans.js"

// The folder's record layout, for callers that know the monitor by this file (tests, tools).
export {
  MONITOR_DIR,
  REPORTS_FILE,
  runPath,
  RUNS_DIR,
  SCAN_INDEX_FILE,
  subscriptionPath,
  SUBSCRIPTIONS_DIR
} from "./folder/MonitorRecords.js"

/**
 * How the methods that only read take the lock (`Lock.withReadLock`); `held` false means they
 * run without it and write nothing. Default: the writers' lock, always held.
 */
export type WithReadLock = <A, E>(
  self: (held: boolean) => Effect.Effect<A, E>
) => Effect.Effect<A, E | MonitorServiceError>

/**
 * The trailing options object of every method that takes one (`{ now }`): left out, `undefined`
 * or `null` is no option; anything but a plain object (a `Date` included) is `InvalidInput`.
 * `now` left out reads Effect's Clock when the effect runs.
 */
export const nowOf = (options: unknown): Effect.Effect<Date, InvalidInput> => {
  if (options === undefined || options === null) return currentDate
  const object = optionsObject(options)
  if (Either.isLeft(object)) return Effect.fail(object.left)
  const now = checkOptionalNow(object.right["now"])
  return Either.isLeft(now) ? Effect.fail(now.left) : now.right === undefined ? currentDate : Effect.succeed(now.right)
}

/** The monitor over its ports. */
export const monitorOver = (
  store: MonitorStoreShape,
  files: MonitorFilesShape,
  withLock: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>,
  withReadLock?: WithReadLock
) =>
  Effect.gen(function*() {
    const recoveredRef = yield* Ref.make<ReadonlyArray<RecoveredTransaction>>([])

    const recoverNow: Effect.Effect<ReadonlyArray<RecoveredTransaction>, MonitorServiceError> = Effect.flatMap(
      store.recover,
      Option.match({
        onNone: () => Ref.get(recoveredRef),
        onSome: (r) => Ref.updateAndGet(recoveredRef, (xs) => [...xs, r])
      })
    )

    /** Every method: under the lock, after recovering an interrupted commit. */
    const locked = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | MonitorServiceError> =>
      withLock(Effect.zipRight(recoverNow, self))

    /** Does this fiber read without the lock (then the store writes nothing, not even derived state)? */
    const readOnlyRef = FiberRef.unsafeMake(false)
    const readOnly = FiberRef.get(readOnlyRef)
    const readLock: WithReadLock = withReadLock ?? ((self) => withLock(self(true)))

    /**
     * The methods that only read: under the lock when it can be taken without creating anything
     * (then recovering as the writers do); otherwise without it, writing nothing, and refusing
     * with RecoveryNeeded when an interrupted commit would have to be recovered first.
     */
    const readLocked = <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E | MonitorServiceError> =>
      readLock((held): Effect.Effect<A, E | MonitorServiceError> =>
        held
          ? Effect.zipRight(recoverNow, self)
          : Effect.flatMap(
            store.pending,
            (pending): Effect.Effect<A, E | MonitorServiceError> =>
              pending ? Effect.fail(new RecoveryNeeded({ path: INTENT_FILE })) : Effect.locally(self, readOnlyRef, true)
          )
      )

    const records = makeRecordAccess(store, files)
    const commands = makeCommands(store, files, records, locked)
    const scans = makeScans(store, records, readOnly, readLocked)
    const facts = makeMonitorFacts(store, files, readOnly, Ref.get(recoveredRef))

    // Every argument is checked with the Schema the CLI decodes with, so a library caller cannot
    // make the monitor write a record it would later refuse to read.
    const checked = <I, A>(
      schema: Schema.Schema<I, any, never>,
      method: (input: I, now: Date) => Effect.Effect<A, MonitorServiceError>
    ) => {
      const validate = validateWith(schema)
      return (input: I, options?: unknown): Effect.Effect<A, MonitorServiceError> =>
        Effect.flatMap(
          Effect.all([validate(input), nowOf(options)]),
          ([i, n]) => Effect.flatMap(checkNow(n), (d) => method(i, d))
        )
    }
    const idChecked = <A>(
      schema: Schema.Schema<string, string, never>,
      method: (id: string) => Effect.Effect<A, MonitorServiceError>
    ) => {
      const validate = validateWith(schema)
      return (id: string) => Effect.flatMap(validate(id), method)
    }
    const nowChecked = <A>(method: (now: Date) => Effect.Effect<A, MonitorServiceError>) => (options?: unknown) =>
      Effect.flatMap(Effect.flatMap(nowOf(options), checkNow), method)

    const shape: MonitorShape = {
      createSubscription: checked(SubscriptionInput, commands.createSubscription),
      updateSubscription: checked(SubscriptionUpdateInput, commands.updateSubscription),
      setSubscriptionStatus: checked(SubscriptionStatusInput, commands.setSubscriptionStatus),
      due: nowChecked(scans.due),
      createDueRun: checked(CreateDueRunInput, commands.createDueRun),
      // Checked against the file's shape (any status), so an unreachable target is InvalidTransition.
      transitionRun: checked(TransitionRunFile, (i, n) => commands.transitionRun(i as TransitionRunInput, n)),
      finishRun: checked(FinishRunInput, commands.finishRun),
      setOutcomeDisposition: checked(OutcomeDispositionInput, commands.setOutcomeDisposition),
      unresolvedOutcomes: scans.unresolvedOutcomes,
      showSubscription: idChecked(Id, scans.showSubscription),
      showRun: idChecked(RunId, scans.showRun),
      list: scans.list,
      subscriptionCount: Effect.map(store.subscriptions.keys, (keys) => keys.length),
      facts: nowChecked((now) => readLocked(facts(now))),
      recover: locked(Ref.get(recoveredRef))
    }
    return shape
  })

/** The monitor over the ports and the Lock in context. */
export const MonitorFromStore: Layer.Layer<Monitor, never, MonitorStore | MonitorFiles | Lock> = Layer.effect(
  Monitor,
  Effect.gen(function*() {
    const store = yield* MonitorStore
    const files = yield* MonitorFiles
    const lock = yield* Lock
    return spanned("Monitor")(yield* monitorOver(store, files, lock.withLock, lock.withReadLock))
  })
)

/** The monitor in the work folder: the folder's ports over the FileStore, and the Lock. */
export const MonitorLive: Layer.Layer<Monitor, never, FileStore | Lock> = MonitorFromStore.pipe(
  Layer.provide(MonitorStoreFolder)
)

export interface MonitorFolderOptions {
  /** Keep and use the scan index (default true); false checks every record from scratch and leaves the index alone. */
  readonly scanIndex?: boolean
  readonly withReadLock?: WithReadLock
}

/** The monitor over a FileStore directly (tests: transaction hooks, the scan index off). */
export const makeMonitor = (
  store: FileStoreShape,
  withLock: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>,
  hooks: TransactionHooks = {},
  options: MonitorFolderOptions = {}
) =>
  monitorOver(
    makeMonitorStoreFolder(store, hooks, options.scanIndex === undefined ? {} : { scanIndex: options.scanIndex }),
    makeMonitorFilesFolder(store),
    withLock,
    options.withReadLock
  )
