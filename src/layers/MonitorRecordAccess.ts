/**
 * What every monitor method shares: the checks of revisions and ids, and the record access over
 * the ports (a record loaded or refused with its not-found tag, a file the input names required
 * as a regular file, a completed run's binding state).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { toBuffer } from "../domain/Bytes.js"
import { FileNotFound, InvalidInput, StaleRevision, UnsafePath } from "../domain/Errors.js"
import { RunNotFound, SubscriptionNotFound } from "../domain/MonitorErrors.js"
import { timesInRange } from "../domain/MonitorRules.js"
import { RUN_ID_PATTERN, type RunRecord } from "../domain/MonitorSchema.js"
import type { MonitorOptions } from "../services/Monitor.js"
import type { MonitorFilesShape, MonitorStoreShape } from "../services/ports/MonitorStore.js"

export const checkRevision = (expected: number, actual: number) =>
  expected === actual ? Effect.void : Effect.fail(new StaleRevision({ expected, actual }))

export const checkId = (id: string, pattern: RegExp, field: string) =>
  pattern.test(id)
    ? Effect.void
    : Effect.fail(new InvalidInput({ issues: [{ path: field, message: `'${id}' is not a valid id` }] }))

/** A file's bytes as UTF-8 text. */
export const textOf = (bytes: Uint8Array) => toBuffer(bytes).toString("utf8")

/** The record access every method shares, over the store. */
export const makeRecordAccess = (store: MonitorStoreShape, files: MonitorFilesShape) => {
  const findSubscription = (id: string) => Effect.map(store.subscriptions.get(id), Option.map((v) => v.value))
  const loadSubscription = (id: string) =>
    Effect.flatMap(
      findSubscription(id),
      (o) =>
        Option.match(o, {
          onNone: () => Effect.fail(new SubscriptionNotFound({ subscriptionId: id })),
          onSome: Effect.succeed
        })
    )
  const findRun = (id: string) => Effect.map(store.runs.get(id), Option.map((v) => v.value))
  /** Load a run (the store re-verifies its receipt digest: fail closed). */
  const loadRun = (id: string) =>
    Effect.zipRight(
      checkId(id, RUN_ID_PATTERN, "runId"),
      Effect.flatMap(findRun(id), (o) =>
        Option.match(o, { onNone: () => Effect.fail(new RunNotFound({ runId: id })), onSome: Effect.succeed }))
    )
  /** A file the input names must exist as a regular file in the work folder. */
  const requireFile = (path: string) =>
    Effect.gen(function*() {
      const rel = yield* files.normalize(path)
      const kind = yield* files.kind(rel)
      if (kind === "none") return yield* new FileNotFound({ path: rel })
      // A symlink is never followed, whatever it points to; a directory, FIFO or device is no unit file.
      if (kind === "symlink") return yield* new UnsafePath({ path: rel, reason: "symlink" })
      if (kind !== "file") return yield* new UnsafePath({ path: rel, reason: "not-regular-file" })
      return rel
    })
  /** Whether a completed run's stage (and survey) still have the digests it was completed with. */
  const bindingState = (run: RunRecord) =>
    Effect.gen(function*() {
      if (run.completion === null) return null
      let stale = false
      for (const b of [run.completion.stage, ...(run.completion.survey === null ? [] : [run.completion.survey])]) {
        if ((yield* files.digest(b.path)) !== b.sha256) stale = true
      }
      return stale ? "stale" as const : "verified" as const
    })
  return { findSubscription, loadSubscription, findRun, loadRun, requireFile, bindingState }
}

export type RecordAccess = ReturnType<typeof makeRecordAccess>

/** A method's type with its trailing options replaced by the `now` it resolved to. */
export type NowGiven<F> = F extends (options?: MonitorOptions) => infer R ? (now: Date) => R
  : F extends (input: infer I, options?: MonitorOptions) => infer R ? (input: I, now: Date) => R
  : never

/** A record is stored only when its times are within years 0000–9999 (`LimitExceeded` otherwise, nothing written). */
export const inRange = <A>(record: A) => Either.map(timesInRange(record), () => record)
