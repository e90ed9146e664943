/**
 * Plan over the PlanStore port and the Lock: read-check-write of the plan record under the lock,
 * revision compare-and-set, digests of the registered files measured by the store. Nothing here
 * names a file: the folder's plan.md is src/layers/folder/PlanStoreFolder.ts.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { checkOptionalNow, validateWith } from "../domain/Decode.js"
import { InvalidInput, type LockTimeout, StaleRevision } from "../domain/Errors.js"
import { optionsObject } from "../domain/Options.js"
import { PlanCheckpointInput, type PlanDocument, type PlanInspectOutput, PlanStartInput } from "../domain/Plan.js"
import { CompletionRefused, GoalConflict, NoPlan } from "../domain/PlanErrors.js"
import { appendPosition } from "../domain/PlanMarkdown.js"
import {
  applyCheckpoint,
  checkpointPaths,
  completion,
  expectedOnlyWithReplace,
  newPlan,
  type Observations,
  type Observed,
  originConflict,
  pathsToObserve,
  replaceGoal,
  requireComplete,
  unregisteredDependency,
  verify
} from "../domain/PlanRules.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"
import { Lock } from "../services/Lock.js"
import { Plan, type PlanShape } from "../services/Plan.js"
import { PLAN_KEY, type PlanRecord, PlanStore } from "../services/ports/PlanStore.js"
import type { Versioned } from "../services/Store.js"
import { unansweredLook } from "./LookBeforeLock.js"
import { dateOr } from "./Now.js"
import { spanned } from "./Spans.js"

export const VERIFICATION_NOTE =
  "Digests show these are the registered bytes; they do not show that a result is correct."

export const makePlanLive = Effect.gen(function*() {
  const store = yield* PlanStore
  const lock = yield* Lock

  const current = store.plan.get(PLAN_KEY)

  const read: PlanShape["read"] = Effect.map(current, Option.map((r) => r.value.document))

  /** Observe a path for verification: its digest, absence, or an unsafe entry (never followed). */
  const observe = (path: string): Effect.Effect<Observed> =>
    store.observe(path).pipe(
      Effect.map((d): Observed => ({ _tag: "Present", sha256: d.sha256, bytes: d.bytes })),
      Effect.catchTags({
        FileNotFound: () => Effect.succeed<Observed>({ _tag: "Missing" }),
        UnsafePath: (e) => Effect.succeed<Observed>({ _tag: "Unsafe", reason: e.reason }),
        LimitExceeded: () => Effect.succeed<Observed>({ _tag: "Unsafe", reason: "too-large" }),
        IoError: (e) => Effect.succeed<Observed>({ _tag: "Unsafe", reason: `io-${e.code}` })
      })
    )

  /** Observe every path verification needs; paths already hashed in this call are not read again. */
  const observeAll = (
    doc: PlanDocument,
    known: ReadonlyMap<string, { readonly sha256: string; readonly bytes: number }> = new Map()
  ): Effect.Effect<Observations> =>
    Effect.forEach(
      pathsToObserve(doc),
      (p) => {
        const k = known.get(p)
        return k === undefined
          ? Effect.map(observe(p), (o) => [p, o] as const)
          : Effect.succeed([p, { _tag: "Present", sha256: k.sha256, bytes: k.bytes } as Observed] as const)
      },
      { concurrency: 2 }
    ).pipe(Effect.map((entries) => new Map(entries)))

  const inspect: PlanShape["inspect"] = Effect.gen(function*() {
    const stored = yield* current
    if (Option.isNone(stored)) {
      // Said to a library caller: the method, never a command line (the commands say theirs).
      return { ok: true, state: "none", hint: "No plan yet: start one with Plan.start." } as const
    }
    const doc = stored.value.value.document
    const verification = verify(doc, yield* observeAll(doc))
    const out: PlanInspectOutput = {
      ok: true,
      state: "active",
      revision: doc.revision,
      goal: doc.goal,
      limits: doc.limits,
      status: doc.status,
      nextAction: doc.nextAction,
      updatedAt: doc.updatedAt,
      progress: {
        completedSteps: doc.completedSteps.length,
        sources: doc.sources.length,
        outputs: doc.outputs.length,
        unresolved: doc.unresolved.length
      },
      completedSteps: doc.completedSteps,
      sources: doc.sources,
      outputs: doc.outputs,
      unresolved: doc.unresolved,
      previousGoals: doc.previousGoals,
      verification,
      completion: completion(doc, verification),
      note: store.missingNote !== undefined && verification.findings.some((f) => f.kind.endsWith("-missing"))
        ? `${VERIFICATION_NOTE} ${store.missingNote}`
        : VERIFICATION_NOTE
    }
    return out
  })

  /** Store `doc` after the record read (its prose kept), or as the first plan, after any prose. */
  const publish = (stored: Option.Option<Versioned<PlanRecord>>, doc: PlanDocument) =>
    Option.match(stored, {
      onNone: () =>
        Effect.flatMap(store.prose, (prose) =>
          store.plan.put(PLAN_KEY, { document: doc, ...appendPosition(prose) }, null)),
      onSome: (r) =>
        store.plan.put(PLAN_KEY, { document: doc, before: r.value.before, after: r.value.after }, r.revision)
    })

  const start = (
    input: PlanStartInput,
    options: { readonly replaceGoal: boolean; readonly expected: number | undefined; readonly now: Date | undefined }
  ) =>
    lock.withLock(
      Effect.gen(function*() {
        const now = (yield* dateOr(options.now)).toISOString()
        const stored = yield* current
        if (Option.isNone(stored)) {
          // A revision names the plan whose goal is replaced: with none stored, it is stale
          // (revision 0), never a silent creation.
          if (options.expected !== undefined) {
            return yield* new StaleRevision({ expected: options.expected, actual: 0 })
          }
          const doc = newPlan(input, now)
          yield* publish(stored, doc)
          return { revision: doc.revision, created: true }
        }
        const was = stored.value.value.document
        if (options.expected !== undefined && options.expected !== was.revision) {
          return yield* new StaleRevision({ expected: options.expected, actual: was.revision })
        }
        if (was.goal === input.goal) return { revision: was.revision, created: false }
        if (!options.replaceGoal || options.expected === undefined) {
          return yield* new GoalConflict({ current: was.goal })
        }
        const doc = yield* Either.match(replaceGoal(was, input, now), { onLeft: Effect.fail, onRight: Effect.succeed })
        yield* publish(stored, doc)
        return { revision: doc.revision, created: false, replaced: true }
      })
    )

  /**
   * No plan is refused before the lock too, so a checkpoint in a folder without one creates
   * nothing (not even the lock file). Sound because a plan only appears through `start`'s one
   * write; the plan is read again under the lock.
   */
  const noPlanFirst = <A, E, R>(
    self: Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | NoPlan | StoreUnavailable | LockTimeout, R> =>
    Effect.flatMap(
      Effect.either(current),
      (got): Effect.Effect<A, E | NoPlan | StoreUnavailable | LockTimeout, R> =>
        Either.isRight(got) && Option.isNone(got.right)
          ? Effect.fail(new NoPlan())
          : Either.isLeft(got) && unansweredLook(got.left)
          ? Effect.fail(got.left)
          : self
    )

  /**
   * A goal replacement (a revision named) with no plan is refused before the lock as well:
   * StaleRevision (actual 0) creates nothing, not even the lock file. Sound for the same reason.
   */
  const replacedPlanFirst = (expected: number | undefined) =>
  <A, E, R>(
    self: Effect.Effect<A, E, R>
  ): Effect.Effect<A, E | StaleRevision | StoreUnavailable | LockTimeout, R> =>
    expected === undefined ? self : Effect.flatMap(
      Effect.either(current),
      (got): Effect.Effect<A, E | StaleRevision | StoreUnavailable | LockTimeout, R> =>
        Either.isRight(got) && Option.isNone(got.right)
          ? Effect.fail(new StaleRevision({ expected, actual: 0 }))
          : Either.isLeft(got) && unansweredLook(got.left)
          ? Effect.fail(got.left)
          : self
    )

  const checkpoint = (
    input: PlanCheckpointInput,
    options: { readonly expected: number; readonly now: Date | undefined }
  ) =>
    lock.withLock(
      Effect.gen(function*() {
        const now = (yield* dateOr(options.now)).toISOString()
        /** The stored plan at the expected revision (NoPlan / StaleRevision otherwise). */
        const atExpected = Effect.gen(function*() {
          const stored = yield* current
          if (Option.isNone(stored)) return yield* new NoPlan()
          const doc = stored.value.value.document
          if (options.expected !== doc.revision) {
            return yield* new StaleRevision({ expected: options.expected, actual: doc.revision })
          }
          return { stored, doc }
        })
        const apply = (doc: PlanDocument) =>
          Either.match(
            applyCheckpoint(doc, input, paths, (p) => digests.get(p) ?? { sha256: "", bytes: 0 }, now),
            { onLeft: Effect.fail, onRight: Effect.succeed }
          )
        const first = yield* atExpected
        const paths = yield* Either.match(checkpointPaths(input), { onLeft: Effect.fail, onRight: Effect.succeed })
        // Registration is judged from the input and the plan before any file is hashed: a
        // dependency neither registered nor on disk is UnregisteredDependency, not FileNotFound.
        const unregistered = unregisteredDependency(first.doc, paths)
        if (unregistered !== undefined) return yield* unregistered
        const conflict = originConflict(first.doc, paths)
        if (conflict !== undefined) return yield* conflict
        // Measure every file the input names (sources, outputs, dependencies).
        const named = new Set<string>()
        for (const s of paths.sources) named.add(s.path)
        for (const o of paths.outputs) {
          named.add(o.path)
          for (const d of o.dependsOn) named.add(d)
        }
        const digests = new Map<string, { sha256: string; bytes: number }>()
        for (const p of named) digests.set(p, yield* store.register(p))
        // A plan this checkpoint leaves complete (marked now, or kept so) must meet the completion
        // rule; measure the other registered files too, while the plan is still as first read.
        const completing = (doc: PlanDocument) => (input.status ?? doc.status) === "complete"
        const measured = new Map(digests)
        if (completing(first.doc)) {
          for (const [p, o] of yield* observeAll(yield* apply(first.doc), digests)) {
            if (o._tag === "Present") measured.set(p, { sha256: o.sha256, bytes: o.bytes })
          }
        }
        // Measuring can take seconds; a person may have saved plan.md meanwhile (prose, or the
        // section by hand). Read it again and change that plan, so their edit is not written over.
        const { doc, stored } = yield* atExpected
        const applied = yield* apply(doc)
        const next = completing(doc)
          ? yield* Either.match(requireComplete(applied, yield* observeAll(applied, measured)), {
            onLeft: (e) =>
              Effect.fail(
                input.status === undefined
                  ? new CompletionRefused({
                    reasons: [
                      ...e.reasons,
                      "the plan is marked complete: give status in_progress or blocked in this checkpoint to reopen it"
                    ]
                  })
                  : e
              ),
            onRight: Effect.succeed
          })
          : applied
        yield* publish(stored, next)
        return { revision: next.revision }
      })
    )

  // Every argument is checked with the Schema the CLI decodes with: a library caller cannot make
  // the plan write a document the plan itself would then call corrupt.
  const validStart = validateWith(PlanStartInput)
  const validCheckpoint = validateWith(PlanCheckpointInput)
  const revision = (value: unknown, path: string) =>
    Number.isSafeInteger(value) && (value as number) >= 1
      ? Either.right(value as number)
      : Either.left(new InvalidInput({ issues: [{ path, message: "expected a revision, a whole number from 1" }] }))
  const invalid = (path: string, message: string) => Either.left(new InvalidInput({ issues: [{ path, message }] }))
  /** The revision named by `options.expected` or the input's `expectedRevision`; both must agree. */
  const expectedOf = (given: unknown, inInput: number | undefined): Either.Either<number | undefined, InvalidInput> => {
    if (given === undefined) return Either.right(inInput)
    return Either.flatMap(revision(given, "expected"), (e) =>
      inInput === undefined || inInput === e
        ? Either.right(e)
        : invalid("expectedRevision", `the input names revision ${inInput} and the call ${e}: name the revision once`))
  }
  return {
    read,
    inspect,
    start: (input, options) =>
      Effect.flatMap(
        Effect.all([validStart(input), optionsObject(options)]),
        ([i, o]) =>
          Effect.flatMap(
            Effect.all([
              checkOptionalNow(o["now"]),
              expectedOf(o["expected"], i.expectedRevision),
              o["replaceGoal"] === undefined || typeof o["replaceGoal"] === "boolean"
                ? Either.right(o["replaceGoal"] === true)
                : invalid("replaceGoal", "expected true or false")
            ]),
            ([now, expected, replace]) => {
              // A revision names the plan whose goal is replaced: without replaceGoal it would be
              // ignored (or judged against a plan not asked to change), so it is refused; and
              // replaceGoal needs it (as --help says) whatever the folder holds: no plan, the
              // same goal. Never a silent creation or no-op.
              const misuse = expected !== undefined && !replace
                ? o["expected"] === undefined
                  ? { path: "expectedRevision", message: expectedOnlyWithReplace("expectedRevision", "replaceGoal") }
                  : { path: "expected", message: expectedOnlyWithReplace("expected", "replaceGoal") }
                : replace && expected === undefined
                ? {
                  path: "expected",
                  message: "replaceGoal needs expected (or expectedRevision in the input): the revision you reconciled"
                }
                : undefined
              return Effect.zipRight(
                misuse === undefined ? Effect.void : Effect.fail(new InvalidInput({ issues: [misuse] })),
                replacedPlanFirst(expected)(start(i, { replaceGoal: replace, expected, now }))
              )
            }
          )
      ),
    checkpoint: (input, options) =>
      Effect.flatMap(
        Effect.all([validCheckpoint(input), optionsObject(options)]),
        ([i, o]) =>
          Effect.flatMap(
            Effect.all([checkOptionalNow(o["now"]), expectedOf(o["expected"], i.expectedRevision)]),
            ([now, expected]) =>
              expected === undefined
                ? Effect.fail(
                  new InvalidInput({
                    issues: [{
                      path: "expectedRevision",
                      message:
                        "the plan's current revision is missing: give expectedRevision in the input (or --expected)"
                    }]
                  })
                )
                : noPlanFirst(checkpoint(i, { expected, now }))
          )
      )
  } satisfies PlanShape
})

/** Plan over a PlanStore (the folder's, memory's, or another) and a Lock. */
export const PlanLive: Layer.Layer<Plan, never, PlanStore | Lock> = Layer.effect(
  Plan,
  Effect.map(makePlanLive, spanned("Plan"))
)
