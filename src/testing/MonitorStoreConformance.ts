/**
 * The MonitorStore conformance suite (src/services/ports/MonitorStore.ts): what every adapter of
 * the monitor's store must answer, whatever holds the records. Two parts:
 *
 * - `scenarios`: named checks of the port's promises (compare-and-set, one run per window, a
 *   commit all or nothing, reports stored once, scans in creation order);
 * - `check(make, ops)`: a random sequence of port calls run on the adapter under test and on the
 *   memory adapter in lockstep; every answer (value, or error tag) must be the same.
 *
 * The memory and folder adapters pass it (test/monitor/store.conformance.test.ts); a new adapter
 * (PostgreSQL) should too:
 *
 *   for (const s of MonitorStoreConformance.scenarios) it.effect(s.name, () => s.run(makeMyStore()))
 *   it.effect.prop("lockstep", { ops: MonitorStoreConformance.operations },
 *     ({ ops }) => MonitorStoreConformance.check(makeMyStore, ops))
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { isDeepStrictEqual } from "node:util"
import { reportEvent } from "../domain/MonitorLayout.js"
import { afterRunEnded, newRun, newSubscription } from "../domain/MonitorRules.js"
import type { ReportLine, RunRecord, SubscriptionInput, SubscriptionRecord } from "../domain/MonitorSchema.js"
import { makeMonitorStoreMemory } from "../layers/memory/MonitorStoreMemory.js"
import type { MonitorStoreShape, MonitorWrite } from "../services/ports/MonitorStore.js"

export class ConformanceFailure extends Data.TaggedError("ConformanceFailure")<{
  readonly check: string
  readonly expected: unknown
  readonly actual: unknown
}> {
  override get message() {
    return `${this.check}: expected ${JSON.stringify(this.expected)}, got ${JSON.stringify(this.actual)}`
  }
}

const T0 = new Date("2026-11-30T10:00:00.000Z")

/** A subscription record as the monitor would create it (ids "s0".."s2"), daily from 2026-12-01. */
export const subscriptionOf = (id: string, at: Date = T0): SubscriptionRecord =>
  Either.getOrThrow(
    newSubscription(
      {
        id,
        kind: "literature",
        target: `topic ${id}`,
        timezone: "UTC",
        anchor: "2026-12-01T09:00",
        cadence: { every: 1, unit: "day" }
      } as SubscriptionInput,
      at
    )
  )

/** The run of window `k` of a subscription record, created at `at`. */
export const runOf = (
  sub: SubscriptionRecord,
  k: number,
  at: Date = new Date(Date.parse("2026-12-01T09:00:00Z") + k * 86_400_000 + 60_000)
): RunRecord => newRun(sub, k, at)

const reportOf = (run: RunRecord, program: string, outcomes = 0): ReportLine => ({
  at: run.createdAt,
  event: "run-completed",
  program,
  subscriptionId: run.subscriptionId,
  runId: run.id,
  windowIndex: run.windowIndex,
  outcomes,
  outcomeCounts: {
    new: outcomes,
    duplicate: 0,
    contradiction_candidate: 0,
    worth_reviewing: 0,
    no_substantive_change: 0
  }
})

/** What an effect answered: its value, or its error's tag. */
const outcome = <A, E extends { readonly _tag: string }>(self: Effect.Effect<A, E>) =>
  Effect.match(self, { onFailure: (e) => ({ error: e._tag }), onSuccess: (ok) => ({ ok }) })

const expectEq = (check: string, expected: unknown, actual: unknown) =>
  isDeepStrictEqual(expected, actual) ? Effect.void : Effect.fail(new ConformanceFailure({ check, expected, actual }))

const revisionOf = (o: Option.Option<{ readonly revision: number }>) => (Option.isSome(o) ? o.value.revision : null)

export interface Scenario {
  readonly name: string
  readonly run: (store: MonitorStoreShape) => Effect.Effect<void, ConformanceFailure>
}

export const scenarios: ReadonlyArray<Scenario> = [
  {
    name: "an empty store holds nothing and has nothing to recover",
    run: (store) =>
      Effect.gen(function*() {
        yield* expectEq("subscriptions.keys", { ok: [] }, yield* outcome(store.subscriptions.keys))
        yield* expectEq("runs.get", { ok: Option.none() }, yield* outcome(store.runs.get("s0.w0")))
        yield* expectEq("scan", {
          ok: { subscriptions: { subs: [], brokenIds: [] }, runs: { ids: [], mismatches: [], runs: [] } }
        }, yield* outcome(store.scan()))
        yield* expectEq("reports.streams", { ok: [] }, yield* outcome(store.reports.streams))
        yield* expectEq("recover", { ok: Option.none() }, yield* outcome(store.recover))
        yield* expectEq("pending", { ok: false }, yield* outcome(store.pending))
      })
  },
  {
    name: "a record is created once, then replaced only by naming its revision",
    run: (store) =>
      Effect.gen(function*() {
        const s1 = subscriptionOf("s0")
        yield* expectEq("create", { ok: 1 }, yield* outcome(store.subscriptions.put("s0", s1, null)))
        yield* expectEq(
          "create again",
          { error: "StaleRevision" },
          yield* outcome(store.subscriptions.put("s0", s1, null))
        )
        const s2 = { ...s1, revision: 2, status: "paused" as const }
        yield* expectEq(
          "stale replace",
          { error: "StaleRevision" },
          yield* outcome(store.subscriptions.put("s0", { ...s2, revision: 3 }, 2))
        )
        yield* expectEq("replace", { ok: 2 }, yield* outcome(store.subscriptions.put("s0", s2, 1)))
        yield* expectEq(
          "get",
          { ok: Option.some({ revision: 2, value: s2 }) },
          yield* outcome(store.subscriptions.get("s0"))
        )
        yield* expectEq(
          "replace absent",
          { error: "StaleRevision" },
          yield* outcome(store.subscriptions.put("s1", subscriptionOf("s1"), 1))
        )
        yield* expectEq("keys", { ok: ["s0"] }, yield* outcome(store.subscriptions.keys))
      })
  },
  {
    name: "one run per window: a second create of the window's run is refused and changes nothing",
    run: (store) =>
      Effect.gen(function*() {
        const sub = subscriptionOf("s0")
        yield* store.subscriptions.put("s0", sub, null).pipe(Effect.orDie)
        const run = runOf(sub, 0)
        const taken = { ...sub, activeRunId: run.id, lastRunId: run.id, revision: 2 }
        const create: ReadonlyArray<MonitorWrite> = [
          { _tag: "Run", record: run, expected: null },
          { _tag: "Subscription", record: taken, expected: 1 }
        ]
        yield* expectEq("first create-due-run commit", { ok: undefined }, yield* outcome(store.commit(create)))
        // A second host that read the subscription at revision 1 asks again.
        yield* expectEq("second commit", { error: "StaleRevision" }, yield* outcome(store.commit(create)))
        const other = { ...run, createdAt: "2026-12-01T09:05:00.000Z" }
        yield* expectEq(
          "second run of the window",
          { error: "StaleRevision" },
          yield* outcome(
            store.commit([{ _tag: "Run", record: other, expected: null }, {
              _tag: "Subscription",
              record: { ...taken, revision: 3 },
              expected: 2
            }])
          )
        )
        yield* expectEq(
          "the one run",
          { ok: Option.some({ revision: 1, value: run }) },
          yield* outcome(store.runs.get(run.id))
        )
        yield* expectEq("the subscription", 2, revisionOf(yield* store.subscriptions.get("s0").pipe(Effect.orDie)))
        yield* expectEq("run keys", { ok: [run.id] }, yield* outcome(store.runs.keys))
      })
  },
  {
    name: "a commit is all or nothing",
    run: (store) =>
      Effect.gen(function*() {
        const sub = subscriptionOf("s0")
        yield* store.subscriptions.put("s0", sub, null).pipe(Effect.orDie)
        const run = runOf(sub, 0)
        const line = reportOf(run, "p")
        const refused = yield* outcome(
          store.commit([
            { _tag: "Run", record: run, expected: null },
            { _tag: "Report", event: reportEvent(line) },
            { _tag: "Subscription", record: { ...sub, revision: 6 }, expected: 5 }
          ])
        )
        yield* expectEq("stale batch", { error: "StaleRevision" }, refused)
        yield* expectEq("no run", { ok: Option.none() }, yield* outcome(store.runs.get(run.id)))
        yield* expectEq("no report", { ok: [] }, yield* outcome(store.reports.read("p")))
        yield* expectEq(
          "subscription unchanged",
          1,
          revisionOf(yield* store.subscriptions.get("s0").pipe(Effect.orDie))
        )
      })
  },
  {
    name: "a report is stored once; another with its id is a conflict",
    run: (store) =>
      Effect.gen(function*() {
        const sub = subscriptionOf("s0")
        const run = runOf(sub, 0)
        const e = reportEvent(reportOf(run, "p"))
        yield* expectEq(
          "append",
          { ok: { appended: [e.id], existing: [] } },
          yield* outcome(store.reports.append("p", [e]))
        )
        yield* expectEq(
          "retry",
          { ok: { appended: [], existing: [e.id] } },
          yield* outcome(store.reports.append("p", [e]))
        )
        yield* expectEq("commit retry", { ok: undefined }, yield* outcome(store.commit([{ _tag: "Report", event: e }])))
        const changed = reportEvent(reportOf(run, "p", 3))
        const e2 = reportEvent(reportOf(runOf(sub, 1), "p"))
        yield* expectEq(
          "conflict",
          { error: "ConflictingEvent" },
          yield* outcome(store.reports.append("p", [e2, changed]))
        )
        yield* expectEq("read", { ok: [e] }, yield* outcome(store.reports.read("p")))
        yield* expectEq("streams", { ok: ["p"] }, yield* outcome(store.reports.streams))
      })
  },
  {
    name: "scans answer every record in creation order; runs are checked",
    run: (store) =>
      Effect.gen(function*() {
        const b = subscriptionOf("b", new Date("2026-11-30T09:00:00Z"))
        const a = subscriptionOf("a", new Date("2026-11-30T11:00:00Z"))
        yield* store.subscriptions.put("a", a, null).pipe(Effect.orDie)
        yield* store.subscriptions.put("b", b, null).pipe(Effect.orDie)
        const r1 = runOf(b, 1)
        const r0 = runOf(b, 0)
        const ended = afterRunEnded({ ...b, activeRunId: r1.id, revision: 2 }, new Date(r1.createdAt))
        yield* store.commit([{ _tag: "Run", record: r1, expected: null }, {
          _tag: "Subscription",
          record: ended,
          expected: 1
        }]).pipe(Effect.orDie)
        yield* store.runs.put(r0.id, r0, null).pipe(Effect.orDie)
        const subs = yield* store.scanSubscriptions().pipe(Effect.orDie)
        yield* expectEq("subscriptions by creation", ["b", "a"], subs.subs.map((s) => s.id))
        const runs = yield* store.scanRuns({ fromScratch: true }).pipe(Effect.orDie)
        yield* expectEq("run ids in key order", [r0.id, r1.id].sort(), runs.ids)
        yield* expectEq("runs by creation", [r0.id, r1.id], runs.runs.map((r) => r.id))
        const both = yield* store.scan().pipe(Effect.orDie)
        yield* expectEq("scan = the two scans", { subscriptions: subs, runs }, both)
        yield* expectEq(
          "checkRuns",
          { ok: ["ok", "missing", "ok"] },
          yield* outcome(store.checkRuns([r1.id, "b.w9", r0.id]))
        )
        yield* expectEq("allRuns", {
          ok: [r0, r1].sort((x, y) => (x.id < y.id ? -1 : 1)).map((run) => ({ id: run.id, run }))
        }, yield* outcome(store.allRuns))
      })
  }
]

/** One call of the port, by data (so fast-check can generate and shrink sequences). */
export type Operation =
  | { readonly op: "createSubscription"; readonly id: string }
  | { readonly op: "touchSubscription"; readonly id: string; readonly expected: number }
  | { readonly op: "createRun"; readonly id: string; readonly window: number; readonly expected: number }
  | { readonly op: "touchRun"; readonly id: string; readonly window: number; readonly expected: number }
  | {
    readonly op: "report"
    readonly id: string
    readonly window: number
    readonly program: string
    readonly outcomes: number
  }
  | { readonly op: "read"; readonly what: "subscriptions" | "runs" | "reports" | "scan" | "check" }

const IDS = ["s0", "s1", "s2"] as const

export const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant("createSubscription" as const), id: fc.constantFrom(...IDS) }),
  fc.record({
    op: fc.constant("touchSubscription" as const),
    id: fc.constantFrom(...IDS),
    expected: fc.integer({ min: 0, max: 4 })
  }),
  fc.record({
    op: fc.constant("createRun" as const),
    id: fc.constantFrom(...IDS),
    window: fc.integer({ min: 0, max: 2 }),
    expected: fc.integer({ min: 0, max: 4 })
  }),
  fc.record({
    op: fc.constant("touchRun" as const),
    id: fc.constantFrom(...IDS),
    window: fc.integer({ min: 0, max: 2 }),
    expected: fc.integer({ min: 0, max: 3 })
  }),
  fc.record({
    op: fc.constant("report" as const),
    id: fc.constantFrom(...IDS),
    window: fc.integer({ min: 0, max: 2 }),
    program: fc.constantFrom("p", "q"),
    outcomes: fc.integer({ min: 0, max: 1 })
  }),
  fc.record({
    op: fc.constant("read" as const),
    what: fc.constantFrom("subscriptions", "runs", "reports", "scan", "check") as fc.Arbitrary<
      "subscriptions" | "runs" | "reports" | "scan" | "check"
    >
  })
)

export const operations: fc.Arbitrary<ReadonlyArray<Operation>> = fc.array(operation, { maxLength: 25 })

/** Apply one operation to a store; what it answered. */
const apply = (store: MonitorStoreShape, o: Operation): Effect.Effect<unknown> =>
  Effect.gen(function*() {
    switch (o.op) {
      case "createSubscription":
        return yield* outcome(store.subscriptions.put(o.id, subscriptionOf(o.id), null))
      case "touchSubscription": {
        const current = yield* store.subscriptions.get(o.id).pipe(Effect.orDie)
        const base = Option.isSome(current) ? current.value.value : subscriptionOf(o.id)
        return yield* outcome(
          store.subscriptions.put(o.id, { ...base, revision: o.expected + 1, target: `${base.target}+` }, o.expected)
        )
      }
      case "createRun": {
        // create-due-run: the window's run and the subscription's change, as one commit.
        const current = yield* store.subscriptions.get(o.id).pipe(Effect.orDie)
        const sub = Option.isSome(current) ? current.value.value : subscriptionOf(o.id)
        const run = runOf(sub, o.window)
        return yield* outcome(
          store.commit([
            { _tag: "Run", record: run, expected: null },
            {
              _tag: "Subscription",
              record: { ...sub, activeRunId: run.id, lastRunId: run.id, revision: o.expected + 1 },
              expected: o.expected
            }
          ])
        )
      }
      case "touchRun": {
        const id = `${o.id}.w${o.window}`
        const current = yield* store.runs.get(id).pipe(Effect.orDie)
        if (Option.isNone(current)) {
          return yield* outcome(store.runs.put(id, runOf(subscriptionOf(o.id), o.window), o.expected))
        }
        const run = current.value.value
        return yield* outcome(store.runs.put(id, { ...run, revision: o.expected + 1, status: "running" }, o.expected))
      }
      case "report": {
        const run = runOf(subscriptionOf(o.id), o.window)
        return yield* outcome(store.reports.append(o.program, [reportEvent(reportOf(run, o.program, o.outcomes))]))
      }
      case "read":
        switch (o.what) {
          case "subscriptions":
            return yield* outcome(Effect.all([store.subscriptions.keys, store.scanSubscriptions()]))
          case "runs":
            return yield* outcome(Effect.all([store.runs.keys, store.scanRuns(), store.allRuns]))
          case "reports":
            return yield* outcome(Effect.all([store.reports.streams, store.reports.read("p"), store.reports.read("q")]))
          case "scan":
            return yield* outcome(store.scan())
          case "check":
            return yield* outcome(store.checkRuns(IDS.flatMap((id) => [`${id}.w0`, `${id}.w1`, `${id}.w2`])))
        }
    }
  })

/**
 * Run `ops` on a fresh store from `make` and on the memory adapter in lockstep: every answer
 * must be the same. `dispose` (optional) cleans up after the sequence.
 */
export const check = (
  make: () => { readonly store: MonitorStoreShape; readonly dispose?: () => void },
  ops: ReadonlyArray<Operation>
): Effect.Effect<void, ConformanceFailure> =>
  Effect.gen(function*() {
    const reference = yield* makeMonitorStoreMemory
    const { dispose, store } = make()
    try {
      for (const [i, o] of ops.entries()) {
        const expected = yield* apply(reference, o)
        const actual = yield* apply(store, o)
        yield* expectEq(`step ${i} ${JSON.stringify(o)}`, expected, actual)
      }
    } finally {
      dispose?.()
    }
  })
