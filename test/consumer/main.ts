/**
 * A program that embeds dossier through its public surface only (copied into a separate package
 * by test/consumer/consumer.test.ts, compiled there with `tsc --strict` as ESM and as CommonJS):
 * a flow over DossierMemory under TestClock. Prints one JSON object.
 */
import { DossierMemory, Errors, Files, Journal, Monitor, Plan } from "dossier"
import { FileStoreConformance } from "dossier/testing"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as TestContext from "effect/TestContext"

const events: ReadonlyArray<typeof Journal.JournalEvent.Encoded> = [
  { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "baseline", protocolVersion: "p1" } },
  {
    id: "e1",
    type: "evaluation_recorded",
    candidateId: "cand-a",
    evaluation: { evaluatorVersion: "v1", metrics: { accuracy: 0.9 }, decision: "accept" }
  }
]

const subscription: Monitor.SubscriptionInput = {
  id: "lit",
  kind: "literature",
  target: "sparse attention for long documents",
  cadence: { every: 1, unit: "week" },
  timezone: "Europe/Berlin",
  anchor: "2026-12-01T09:00"
}

/** Every refusal of an append, matched exhaustively (a new tag would fail to compile). */
const describeAppendError = (e: Journal.AppendError): string =>
  Effect.runSync(
    Effect.catchTags(Effect.fail(e), {
      InvalidInput: (x) => Effect.succeed(`invalid at ${x.issues[0]?.path ?? ""}`),
      CorruptJournal: () => Effect.succeed("corrupt"),
      AliasedFile: () => Effect.succeed("aliased"),
      IoError: () => Effect.succeed("io"),
      UnsafePath: () => Effect.succeed("unsafe"),
      LimitExceeded: () => Effect.succeed("limit"),
      DuplicateEventId: () => Effect.succeed("duplicate"),
      UnknownCandidate: (x) => Effect.succeed(`unknown candidate ${x.candidateId}`),
      ConflictingEvent: () => Effect.succeed("conflict"),
      UnterminatedTail: () => Effect.succeed("tail"),
      LockTimeout: () => Effect.succeed("lock")
    })
  )

const flow = Effect.gen(function*() {
  yield* TestClock.setTime(Date.parse("2026-11-30T10:00:00.000Z"))
  const plan = yield* Plan.Plan
  const journal = yield* Journal.Journal
  const monitor = yield* Monitor.Monitor
  const lock = yield* Files.Lock

  const started = yield* plan.start({ goal: "embedded", limits: [], nextAction: "read" }, {
    replaceGoal: false,
    expected: undefined
  })
  const stale = yield* Effect.flip(plan.checkpoint({}, { expected: started.revision + 5 }))

  const appended = yield* journal.append("study-1", events)
  const refused = yield* Effect.flip(
    journal.append("study-1", [{ id: "e2", type: "candidate_selected", candidateId: "nobody", reason: "r" }])
  )
  const inspected = yield* journal.inspect("study-1")

  const created = yield* monitor.createSubscription(subscription)
  const dueBefore = yield* monitor.due()
  yield* TestClock.adjust("22 hours")
  const dueAfter = yield* monitor.due()

  // The lock gives up after 10 s of the (test) clock.
  const holding = yield* Deferred.make<void>()
  const holder = yield* Effect.fork(lock.withLock(Effect.zipRight(Deferred.succeed(holding, undefined), Effect.never)))
  yield* Deferred.await(holding)
  const waiter = yield* Effect.fork(Effect.flip(plan.checkpoint({}, { expected: started.revision })))
  yield* TestClock.adjust("10 seconds")
  const timeout = yield* Fiber.join(waiter)
  yield* Fiber.interrupt(holder)

  return {
    planRevision: started.revision,
    stale: stale._tag === "StaleRevision" ? { tag: stale._tag, retryable: Errors.retryable(stale) } : stale._tag,
    appended: appended.appended,
    refused: describeAppendError(refused),
    candidates: inspected.candidates.map((c) => `${c.id}:${c.status}`),
    createdAt: created.subscription.createdAt,
    due: [dueBefore.subscriptions[0]?.due, dueAfter.subscriptions[0]?.due],
    dueNow: dueAfter.now,
    timeout: { tag: timeout._tag, retryable: Errors.retryable(timeout) }
  }
})

/** The exported conformance suite, on the in-memory store from the public layer. */
const conformance = Effect.forEach(
  FastCheck.sample(FileStoreConformance.operations, { numRuns: 5, seed: 42 }),
  (ops) =>
    Effect.flatMap(Files.FileStore, (store) => FileStoreConformance.check(() => ({ store }), ops)).pipe(
      Effect.provide(Files.FileStoreMemory)
    )
)

const program = Effect.zipLeft(flow, conformance).pipe(
  Effect.provide(DossierMemory),
  Effect.provide(TestContext.TestContext)
)

Effect.runPromise(program).then((result) => console.log(JSON.stringify(result)), (e: unknown) => {
  console.error(e)
  process.exitCode = 1
})

// Only the public entry points resolve: internal modules are not reachable.
// @ts-expect-error: not exported by the package
export type Internal = typeof import("dossier/dist/lib/index.mjs")
