/**
 * Issue 13, item 11: every service method checks what a library caller gives it with the Schema
 * the CLI decodes with. Each service (on the in-memory layers) is driven with arbitrary, often
 * invalid, arguments — empty targets, ids with slashes, zero cadences, deep or `__proto__`-keyed
 * free-form fields, `new Date(NaN)`, dates past 9999 — and afterwards every record on "disk" must
 * decode: no call may write a record that the library would later refuse, and no call may die.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeWith, parseJson } from "../../src/domain/Decode.js"
import { RunState } from "../../src/domain/Gate.js"
import { SubscriptionRecord } from "../../src/domain/Monitor.js"
import { parsePlanBytes } from "../../src/domain/PlanMarkdown.js"
import { verifyRunText } from "../../src/domain/RunScan.js"
import { fileStoreMemoryOf, makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { PlanFolder } from "../../src/layers/folder/PlanStoreFolder.js"
import { GateLive } from "../../src/layers/GateLive.js"
import { JournalLive } from "../../src/layers/JournalLive.js"
import { LockMemory } from "../../src/layers/LockMemory.js"
import { MonitorLive } from "../../src/layers/MonitorLive.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Gate } from "../../src/services/Gate.js"
import { Journal } from "../../src/services/Journal.js"
import { Monitor } from "../../src/services/Monitor.js"
import { Plan } from "../../src/services/Plan.js"

const world = () => {
  const fs = makeMemoryFs()
  const base = Layer.merge(fileStoreMemoryOf(fs), LockMemory)
  const services = Layer.mergeAll(MonitorLive, JournalLive, GateLive).pipe(
    Layer.provideMerge(PlanFolder),
    Layer.provideMerge(base)
  )
  return { fs, services }
}

const deep = (n: number): unknown => {
  let v: unknown = 1
  for (let i = 0; i < n; i++) v = [v]
  return v
}
const protoKeyed = (): unknown => JSON.parse("{\"__proto__\": {\"polluted\": true}, \"x\": 1}")

/** A value a careless or hostile caller might pass for a free-form field. */
const freeForm = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.constantFrom(deep(70), deep(5000)).map((d) => ({ d })),
  fc.constant(null).map(protoKeyed),
  fc.anything({ maxDepth: 2 })
)

const id = fc.oneof(fc.constantFrom("lit", "s1", "a b/c", "", "../x", "x".repeat(80)), fc.string({ maxLength: 6 }))
const runId = fc.oneof(fc.constantFrom("lit.w0", "lit.w1", "s1.w0", "a/b.w0", ""), fc.string({ maxLength: 8 }))
const dates = fc.oneof(
  fc.constantFrom(
    new Date("2026-12-01T08:00:01Z"),
    new Date("2026-12-15T08:00:01Z"),
    new Date(Number.NaN),
    new Date("9999-12-31T23:59:59Z"),
    new Date(8.64e15)
  ),
  fc.date({ noInvalidDate: false })
)
const revision = fc.oneof(fc.integer({ min: -1, max: 4 }), fc.constantFrom(Number.NaN, 1.5, Number.MAX_VALUE))
const text = fc.oneof(fc.constantFrom("", "target", "\u0000", "\ud800"), fc.string({ maxLength: 8 }))
const timezone = fc.constantFrom("UTC", "Europe/Berlin", "Mars/Olympus", "")
const anchor = fc.constantFrom(undefined, "2026-12-01T09:00", "2026-02-30T09:00", "9999-12-31T23:59", "soon")
const cadence = fc.record({
  every: fc.integer({ min: -1, max: 400 }),
  unit: fc.constantFrom("day", "week", "month", "year")
})

/** Mostly a valid value (so that flows get far), sometimes a bad one. */
const mostly = <A, B>(good: fc.Arbitrary<A>, bad: fc.Arbitrary<B>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: bad, weight: 1 })

const subscriptionInput = fc.record(
  {
    kind: mostly(fc.constant("literature"), fc.constantFrom("unit-recheck", "survey-freshness", "poem")),
    target: mostly(fc.constant("target"), text),
    scope: mostly(fc.constant({ q: "x" }), freeForm),
    budget: fc.record({ maxSources: fc.integer({ min: -1, max: 20 }), maxMinutes: fc.integer({ min: 0, max: 20 }) }),
    cadence: mostly(fc.constant({ every: 1, unit: "week" }), cadence),
    timezone: mostly(fc.constant("UTC"), timezone),
    anchor: mostly(fc.constant("2026-12-01T08:00"), anchor),
    mode: fc.constantFrom("remind", "run", "later"),
    id: mostly(fc.constantFrom("lit", "s1"), id)
  },
  { requiredKeys: ["kind", "target", "timezone"] }
)

type Call = (now: Date) => Effect.Effect<unknown, unknown, Monitor | Plan | Journal | Gate | FileStore>

const schedulerCall: fc.Arbitrary<Call> = fc.oneof(
  fc.tuple(subscriptionInput).map(([input]) => (now: Date) =>
    Effect.flatMap(Monitor, (s) => s.createSubscription(input as any, { now }))
  ),
  fc.record({
    subscriptionId: id,
    expectedRevision: revision,
    changes: fc.record({ target: text, scope: freeForm, cadence, timezone, anchor }, { requiredKeys: [] })
  })
    .map((input) => (now: Date) => Effect.flatMap(Monitor, (s) => s.updateSubscription(input as any, { now }))),
  fc.record({
    subscriptionId: id,
    expectedRevision: revision,
    status: fc.constantFrom("active", "paused", "completed", "gone")
  })
    .map((input) => (now: Date) => Effect.flatMap(Monitor, (s) => s.setSubscriptionStatus(input as any, { now }))),
  fc.record({ subscriptionId: mostly(fc.constantFrom("lit", "s1"), id) }).map((input) => (now: Date) =>
    Effect.flatMap(Monitor, (s) => s.createDueRun(input as any, { now }))
  ),
  fc.record({
    runId: mostly(fc.constantFrom("lit.w0", "lit.w1", "s1.w0", "s1.w1"), runId),
    expectedRevision: revision,
    to: fc.constantFrom("running", "cancelled", "completed", "x"),
    reason: text
  }, { requiredKeys: ["runId", "expectedRevision", "to"] })
    .map((input) => (now: Date) => Effect.flatMap(Monitor, (s) => s.transitionRun(input as any, { now }))),
  fc.record({ runId, outcomeId: id, disposition: fc.constantFrom("acknowledged", "dismissed", "nope") })
    .map((input) => (now: Date) => Effect.flatMap(Monitor, (s) => s.setOutcomeDisposition(input as any, { now }))),
  fc.constant((now: Date) => Effect.flatMap(Monitor, (s) => s.due({ now }))),
  fc.constant((now: Date) => Effect.flatMap(Monitor, (s) => s.facts({ now }))),
  id.map((i) => () => Effect.flatMap(Monitor, (s) => s.showSubscription(i))),
  runId.map((i) => () => Effect.flatMap(Monitor, (s) => s.showRun(i)))
)

const planCall: fc.Arbitrary<Call> = fc.oneof(
  fc.record({ goal: text, limits: fc.oneof(fc.array(text, { maxLength: 2 }), fc.constant([1])), nextAction: text })
    .chain((input) =>
      fc.record({ replaceGoal: fc.boolean(), expected: fc.option(revision, { nil: undefined }) }).map(
        (o) => (now: Date) =>
          Effect.flatMap(Plan, (p) => p.start(input as any, { replaceGoal: o.replaceGoal, expected: o.expected, now }))
      )
    ),
  fc.record({
    completedSteps: fc.array(
      fc.record({ summary: text, id: fc.constantFrom(undefined, "s1", "") }, { requiredKeys: ["summary"] }),
      { maxLength: 3 }
    ),
    status: fc.constantFrom("in_progress", "blocked", "done"),
    nextAction: text,
    unresolved: fc.array(fc.record({ id: text, text }), { maxLength: 2 })
  }, { requiredKeys: [] }).chain((input) =>
    revision.map((expected) => (now: Date) =>
      Effect.flatMap(Plan, (p) => p.checkpoint(input as any, { expected, now }))
    )
  )
)

const journalCall: fc.Arbitrary<Call> = fc.record({
  study: fc.constantFrom("s", "S", "inputs", "../x", ""),
  events: fc.array(
    fc.oneof(
      fc.record({
        id: fc.constantFrom("e1", "e2", "bad id"),
        type: fc.constant("candidate_created"),
        candidate: fc.record({ id: fc.constantFrom("c1", "c2"), title: text, params: freeForm }, {
          requiredKeys: ["id", "title"]
        })
      }),
      fc.record({
        id: fc.constantFrom("e3", "e4"),
        type: fc.constant("checkpoint_saved"),
        at: fc.constantFrom("2026-02-30T00:00:00Z", "2026-12-01T00:00:00Z", "+010000-01-01T00:00:00Z"),
        checkpoint: fc.record({ summary: text, nextAction: text, reviewed: fc.boolean() })
      }),
      fc.anything({ maxDepth: 2 })
    ),
    { maxLength: 3 }
  )
}).map(({ events, study }) => () => Effect.flatMap(Journal, (j) => j.append(study, events as never)))

const gateCall: fc.Arbitrary<Call> = fc.record({
  maxAskRounds: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant(Number.NaN)),
  recordAttempt: fc.boolean(),
  // The text of a key the gate does not own (deep values as text: JSON.stringify cannot write them).
  extra: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.constantFrom("[".repeat(70) + "]".repeat(70), "[".repeat(5000) + "]".repeat(5000), "{\"__proto__\":{\"a\":1}}")
  )
}).map(({ extra, maxAskRounds, recordAttempt }) => (now: Date) =>
  Effect.gen(function*() {
    const store = yield* FileStore
    const state = JSON.stringify({
      item: "PROJ-1",
      autopilot: true,
      waitingFor: "maturity",
      maturity: { blockers: [{ id: "b1" }] }
    })
    yield* store.writeAtomic("run/state.json", `${state.slice(0, -1)},"extra":${extra}}`)
    yield* store.writeAtomic(
      "research/gate/research.json",
      JSON.stringify({ item: "PROJ-1", kind: "maturity", gaps: [] })
    )
    const gate = yield* Gate
    return yield* gate.run("run/state.json", {
      researchDir: "research/gate",
      attempts: ".dossier/gate/attempted.jsonl",
      recordAttempt,
      maxAskRounds,
      unattended: false,
      now
    })
  })
)

/** Every record the services keep must decode with the library's own readers. */
const checkRecords = Effect.gen(function*() {
  const store = yield* FileStore
  const names = (dir: string) =>
    store.list(dir).pipe(
      Effect.map((l) => l.filter((e) => e.kind === "file").map((e) => e.name)),
      Effect.orElseSucceed(() => [])
    )
  for (const name of yield* names(".dossier/monitor/subscriptions")) {
    const text = yield* store.readText(`.dossier/monitor/subscriptions/${name}`)
    const decoded = Either.flatMap(parseJson(text), decodeWith(SubscriptionRecord))
    expect(Either.isRight(decoded), `${name}: ${text}`).toBe(true)
  }
  for (const name of yield* names(".dossier/monitor/runs")) {
    const text = yield* store.readText(`.dossier/monitor/runs/${name}`)
    expect(verifyRunText(name.slice(0, -5), text)._tag, text).toBe("Ok")
  }
  const plan = yield* store.read("plan.md").pipe(Effect.option)
  if (Option.isSome(plan)) {
    expect(Either.isRight(parsePlanBytes(plan.value)), Buffer.from(plan.value).toString()).toBe(true)
  }
  const journal = yield* Journal
  for (const study of yield* journal.studies) {
    const inspected = yield* Effect.either(journal.inspect(study.study))
    expect(Either.isRight(inspected), JSON.stringify(inspected)).toBe(true)
  }
  const state = yield* store.readText("run/state.json").pipe(Effect.option)
  // The test writes the state (any content); once the gate has written its research into it, it must decode.
  if (Option.isSome(state) && state.value.includes("\"research\"")) {
    expect(Either.isRight(Either.flatMap(parseJson(state.value), decodeWith(RunState))), state.value).toBe(true)
  }
})

const calls = fc.array(
  fc.tuple(
    fc.oneof({ arbitrary: schedulerCall, weight: 3 }, planCall, journalCall, gateCall),
    mostly(fc.constantFrom(new Date("2026-12-01T08:00:01Z"), new Date("2026-12-09T08:00:01Z")), dates)
  ),
  { minLength: 1, maxLength: 12 }
)

describe("services refuse bad arguments and never write a record they would refuse (memory layers)", () => {
  it("arbitrary calls: only typed refusals, and every record decodes afterwards", async () => {
    await fc.assert(
      fc.asyncProperty(calls, async (sequence) => {
        const { services } = world()
        const program = Effect.gen(function*() {
          for (const [call, now] of sequence) {
            const exit = yield* Effect.exit(call(now))
            if (Exit.isFailure(exit)) {
              // A refusal is a failure in the typed channel, never a defect.
              expect(Option.isSome(Cause.failureOption(exit.cause)), Cause.pretty(exit.cause)).toBe(true)
            }
          }
          yield* checkRecords
        })
        await Effect.runPromise(Effect.provide(program, services))
      }),
      { numRuns: 150, interruptAfterTimeLimit: 20_000 }
    )
  }, 60_000)

  it("the reported cases are refused with InvalidInput", async () => {
    const { services } = world()
    const tags = await Effect.runPromise(Effect.provide(
      Effect.gen(function*() {
        const s = yield* Monitor
        const p = yield* Plan
        const now = new Date("2026-11-30T10:00:00Z")
        const base = { kind: "literature", target: "t", timezone: "UTC" } as const
        const tagOf = (e: Effect.Effect<unknown, { readonly _tag: string }>) =>
          Effect.match(e, { onFailure: (x) => x._tag, onSuccess: () => "ok" })
        return [
          yield* tagOf(s.createSubscription({ ...base, target: "" }, { now })),
          yield* tagOf(s.createSubscription({ ...base, id: "a b/c" }, { now })),
          yield* tagOf(s.createSubscription({ ...base, cadence: { every: 0, unit: "week" } }, { now })),
          yield* tagOf(s.createSubscription(base, { now: new Date(Number.NaN) })),
          yield* tagOf(s.due({ now: new Date(Number.NaN) })),
          yield* tagOf(
            p.start({ goal: "", limits: [], nextAction: "n" }, { replaceGoal: false, expected: undefined, now })
          ),
          yield* tagOf(
            p.start({ goal: "g", limits: [], nextAction: "n" }, {
              replaceGoal: false,
              expected: undefined,
              now: new Date(Number.NaN)
            })
          ),
          // A lone surrogate has no canonical JSON: the request digest used to throw (CI, seed 1959690365).
          yield* tagOf(s.createSubscription({ ...base, target: "t\ud800" }, { now })),
          yield* tagOf(s.createSubscription({ ...base, scope: { ["k\udc00"]: "v" } }, { now })),
          yield* tagOf(
            p.start({ goal: "\udbff", limits: [], nextAction: "n" }, { replaceGoal: false, expected: undefined, now })
          ),
          // Nor a number that is not finite: JSON.parse reads 1e400 as Infinity (CI, seed 1043465559).
          yield* tagOf(s.createSubscription({ ...base, scope: { a: Number.POSITIVE_INFINITY } }, { now })),
          yield* tagOf(s.createSubscription({ ...base, scope: { a: [Number.NaN] } }, { now })),
          yield* tagOf(s.due({ now }))
        ]
      }),
      services
    ))
    expect(tags).toEqual([...Array<string>(12).fill("InvalidInput"), "ok"])
  })
})
