/** Pure rules of the monitor: transition graph, dispositions, due, coalescing, digests. */
import { assert, describe, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { canonicalJson } from "../../src/domain/Canonical.js"
import { decodeWith } from "../../src/domain/Decode.js"
import {
  afterRunEnded,
  ALLOWED_TRANSITIONS,
  checkDisposition,
  checkTransition,
  DispositionValue,
  isDue,
  latestWindow,
  newRun,
  newSubscription,
  nextWindowAt,
  type Outcome,
  OutcomeLabel,
  receiptDigestOf,
  receiptJsonOf,
  receiptOf,
  RunStatus,
  statusChange,
  SubscriptionInput,
  updateSubscription
} from "../../src/domain/Monitor.js"
import { windowStart } from "../../src/domain/MonitorWindows.js"

const input: SubscriptionInput = {
  kind: "literature",
  target: "t",
  timezone: "America/New_York",
  anchor: "2025-03-08T02:30",
  cadence: { every: 1, unit: "day" },
  id: "s"
}
const created = new Date("2025-03-01T00:00:00Z")
const sub = Either.getOrThrow(newSubscription(input, created))

describe("monitor domain", () => {
  it("the transition graph is exactly the spec's; completed is never a transition target", () => {
    const allowed = new Set([
      "planned>running",
      "planned>cancelled",
      "running>blocked",
      "running>failed_retryable",
      "running>cancelled",
      "blocked>running",
      "blocked>cancelled",
      "failed_retryable>running",
      "failed_retryable>cancelled"
    ])
    for (const from of RunStatus.literals) {
      for (const to of RunStatus.literals) {
        const ok = Either.isRight(checkTransition(from, to))
        assert.strictEqual(ok, allowed.has(`${from}>${to}`), `${from}>${to}`)
      }
    }
    assert.deepStrictEqual(ALLOWED_TRANSITIONS.completed, [])
    assert.deepStrictEqual(ALLOWED_TRANSITIONS.cancelled, [])
  })

  it("status changes: completed never returns", () => {
    assert.strictEqual(statusChange("active", "paused"), "change")
    assert.strictEqual(statusChange("paused", "active"), "change")
    assert.strictEqual(statusChange("paused", "completed"), "change")
    assert.strictEqual(statusChange("completed", "active"), "from-completed")
    assert.strictEqual(statusChange("completed", "paused"), "from-completed")
    assert.strictEqual(statusChange("active", "active"), "same")
  })

  it.prop(
    "dispositions are set once; contradiction candidates are never materialized; sent_to_review only for them",
    [
      fc.constantFrom(...OutcomeLabel.literals),
      fc.constantFrom(...DispositionValue.literals),
      fc.option(fc.constantFrom(...DispositionValue.literals), { nil: null })
    ],
    ([label, wanted, current]) => {
      const outcome: Outcome = {
        id: "o",
        label,
        reason: "r",
        citations: [],
        disposition: current === null
          ? null
          : { value: current, at: "2026-01-01T00:00:00.000Z", authorization: null, unitPath: null, reviewItem: null }
      }
      const full = {
        runId: "s.w0",
        outcomeId: "o",
        disposition: wanted,
        ...(wanted === "materialized" ? { authorization: { messageId: "m" }, unitPath: "u.md" } : {}),
        ...(wanted === "sent_to_review" ? { reviewItem: "r.md" } : {})
      }
      const r = checkDisposition(outcome, full)
      if (current !== null) {
        if (current === wanted) assert.deepStrictEqual(r, Either.right("noop"))
        else {assert.strictEqual(
            Either.getLeft(r).pipe((o) => o._tag === "Some" && o.value._tag),
            "DispositionAlreadySet"
          )}
        return
      }
      const refused = Either.isLeft(r)
      if (wanted === "materialized") assert.strictEqual(refused, label === "contradiction_candidate")
      else if (wanted === "sent_to_review") assert.strictEqual(refused, label !== "contradiction_candidate")
      else assert.isFalse(refused)
      if (wanted === "materialized" && label !== "contradiction_candidate") {
        // Without its authorization it is refused.
        const { authorization: _a, ...noAuth } = full as any
        assert.isTrue(Either.isLeft(checkDisposition(outcome, noAuth)))
      }
    }
  )

  it.prop(
    "due, coalescing and completion: one run for the latest window; next due is the first window after the end",
    [
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 0, max: 86_399_999 }),
      fc.integer({ min: 0, max: 40 * 86_400_000 })
    ],
    ([k, into, runFor]) => {
      const now = new Date(windowStart(sub, k) + Math.min(into, windowStart(sub, k + 1) - windowStart(sub, k) - 1))
      assert.isTrue(isDue(sub, now))
      const latest = latestWindow(sub, now)
      assert.strictEqual(latest, k)
      const run = newRun(sub, latest, now)
      assert.strictEqual(run.coalescedWindows, k + 1)
      assert.strictEqual(run.receiptDigest, receiptDigestOf(run))
      const withRun = { ...sub, activeRunId: run.id }
      assert.isFalse(isDue(withRun, now))
      const ended = new Date(now.getTime() + runFor)
      const after = afterRunEnded(withRun, ended)
      const due = Date.parse(after.nextDueAt)
      assert.isTrue(due > ended.getTime())
      assert.isTrue(windowStart(sub, after.nextWindowIndex - 1) <= ended.getTime())
      assert.strictEqual(due, windowStart(sub, after.nextWindowIndex))
      assert.isNull(after.activeRunId)
    }
  )

  it.prop(
    "when it is next due: nextDueAt without an active run; with one, the window after the run's, which is when it is due again once the run ends in its window",
    [
      fc.integer({ min: 0, max: 300 }),
      fc.integer({ min: 0, max: 300 }),
      fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
      fc.integer({ min: 0, max: 40 * 86_400_000 })
    ],
    ([first, extra, into, late]) => {
      // Due since window `first`; the run is created in window `first + extra` (coalescing the rest).
      const due = { ...sub, nextWindowIndex: first, nextDueAt: new Date(windowStart(sub, first)).toISOString() }
      assert.strictEqual(nextWindowAt(due), due.nextDueAt)
      const k = first + extra
      const start = windowStart(sub, k)
      const now = new Date(start + Math.floor(into * (windowStart(sub, k + 1) - start)))
      const run = newRun(due, latestWindow(due, now), now)
      assert.strictEqual(run.windowIndex, k)
      const withRun = { ...due, activeRunId: run.id, lastRunId: run.id }
      const next = Date.parse(nextWindowAt(withRun))
      assert.strictEqual(next, windowStart(sub, k + 1))
      assert.isTrue(next > Date.parse(run.windowStart))
      // Ended before the next window starts: due again exactly then; ended later: not before it.
      const ended = new Date(Math.min(now.getTime() + late, next - 1))
      assert.strictEqual(afterRunEnded(withRun, ended).nextDueAt, nextWindowAt(withRun))
      assert.isTrue(Date.parse(afterRunEnded(withRun, new Date(now.getTime() + late)).nextDueAt) >= next)
    }
  )

  it.prop(
    "when it is next due, with a run of an earlier grid active: the first window of the new grid, after the edit",
    [fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 400 * 86_400_000 })],
    ([k, later]) => {
      const now = new Date(windowStart(sub, k))
      const run = newRun(sub, latestWindow(sub, now), now)
      const edited = updateSubscription(
        { ...sub, activeRunId: run.id },
        { cadence: { every: 1, unit: "week" } },
        new Date(now.getTime() + later)
      ).record
      assert.strictEqual(edited.gridVersion, 2)
      assert.strictEqual(nextWindowAt(edited), edited.nextDueAt)
      assert.isTrue(Date.parse(nextWindowAt(edited)) > now.getTime() + later)
    }
  )

  it("the receipt digest covers the frozen content, the id and the window", () => {
    const run = newRun(sub, 3, new Date(windowStart(sub, 3)))
    assert.notStrictEqual(receiptDigestOf({ ...run, frozen: { ...run.frozen, target: "x" } }), run.receiptDigest)
    assert.notStrictEqual(receiptDigestOf({ ...run, id: "s.w4" }), run.receiptDigest)
    assert.notStrictEqual(receiptDigestOf({ ...run, windowIndex: 4 }), run.receiptDigest)
    const moved: typeof run = { ...run, status: "running", revision: 2 }
    assert.strictEqual(receiptDigestOf(moved), run.receiptDigest)
  })

  it.prop(
    "an edit never makes a subscription due: a grid change moves nextDueAt after now",
    [
      fc.integer({ min: 0, max: 400 * 86_400_000 }),
      fc.integer({ min: 1, max: 30 }),
      fc.constantFrom("day" as const, "week" as const, "month" as const)
    ],
    ([offset, every, unit]) => {
      const now = new Date(windowStart(sub, 0) + offset)
      const { gridChanged, record } = updateSubscription(
        sub,
        { cadence: { every, unit }, anchor: "2025-03-09T02:30" },
        now
      )
      assert.isTrue(gridChanged)
      assert.isFalse(isDue(record, now))
      assert.strictEqual(record.gridVersion, 2)
      const { gridChanged: g2, record: r2 } = updateSubscription(sub, { mode: "run" }, now)
      assert.isFalse(g2)
      assert.strictEqual(r2.nextDueAt, sub.nextDueAt)
    }
  )
})

describe("monitor input checks", () => {
  it("newSubscription refuses an unknown zone or an anchor that is no real date with InvalidInput, also without the Schema", () => {
    const at = new Date("2026-01-01T00:00:00Z")
    const refused = (i: SubscriptionInput) => {
      const r = newSubscription(i, at)
      return Either.isLeft(r) && r.left._tag === "InvalidInput"
        ? r.left.issues.map((x: { path: string }) => x.path)
        : []
    }
    assert.deepStrictEqual(refused({ ...input, anchor: "2026-02-29T23:59" }), ["anchor"])
    assert.deepStrictEqual(refused({ ...input, timezone: "Mars/Olympus" }), ["timezone"])
    assert.deepStrictEqual(refused({ ...input, timezone: "Mars/Olympus", anchor: undefined } as SubscriptionInput), [
      "timezone"
    ])
    assert.isTrue(Either.isRight(newSubscription({ ...input, anchor: "2028-02-29T23:59" }, at)))
  })

  it("a wrong optional field is one issue, without the empty 'Expected undefined' alternative", () => {
    const decode = decodeWith(SubscriptionInput)
    const issues = (v: unknown) => {
      const r = decode(v)
      return Either.isLeft(r) ? r.left.issues : []
    }
    const base = { kind: "literature", target: "t", timezone: "UTC" }
    assert.deepStrictEqual(issues({ ...base, anchor: "2026-02-29T23:59" }).map((i) => i.path), ["anchor"])
    assert.deepStrictEqual(issues({ ...base, budget: { maxSources: 0, maxMinutes: 5 } }).map((i) => i.path), [
      "budget.maxSources"
    ])
    const wrongType = issues({ ...base, budget: "x" })
    assert.deepStrictEqual(wrongType.map((i) => i.path), ["budget"])
    assert.notInclude(wrongType[0]!.message, "Expected undefined")
  })

  it("a value outside a union of literals is one issue naming every literal", () => {
    const decode = decodeWith(SubscriptionInput)
    const r = decode({ kind: "literature", target: "t", timezone: "UTC", mode: "bogus" })
    const issues = Either.isLeft(r) ? r.left.issues : []
    assert.deepStrictEqual(issues.map((i) => i.path), ["mode"])
    assert.match(issues[0]!.message, /^Expected "[a-z_]+"( \| "[a-z_]+")+, actual "bogus"$/)
    // Two fields wrong: one issue each.
    const two = decode({ kind: "bogus", target: "t", timezone: "UTC", mode: "bogus" })
    assert.deepStrictEqual(Either.isLeft(two) ? two.left.issues.map((i) => i.path).sort() : [], ["kind", "mode"])
  })
})

describe("monitor receipt canonical form", () => {
  const str = fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme" }),
    fc.constantFrom("2026-12-01T09:00:00Z", "2026-12-01T10:00+01:00", "2026-12-01T09:00", "é\u0301", "\u2028", "\"\\"),
    // Lone surrogates (no canonical form), a paired one, and text that only looks like an escape.
    fc.constantFrom("\uD800", "a\uDC00b", "\uDBFF\uDFFF", "\\ud800", "\\uDC00x")
  )
  const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      str,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      tie("arr"),
      tie("obj")
    ),
    arr: fc.array(tie("value"), { maxLength: 3 }),
    obj: fc.dictionary(str, tie("value"), { maxKeys: 3 })
  })).value
  const runArb = fc.record({
    id: str,
    subscriptionId: str,
    gridVersion: fc.integer({ min: 1, max: 1e6 }),
    windowIndex: fc.integer({ min: 0, max: 1e6 }),
    windowStart: str,
    coalescedWindows: fc.integer({ min: 1, max: 1e6 }),
    createdAt: str,
    frozen: fc.record({
      kind: str,
      target: str,
      scope: fc.dictionary(str, json, { maxKeys: 4 }),
      scopeDigest: str,
      budget: fc.record({ maxSources: fc.integer(), maxMinutes: fc.integer() }),
      cadence: fc.record({ every: fc.integer(), unit: str }),
      timezone: str,
      anchor: str,
      mode: str,
      units: fc.array(str, { maxLength: 4 }),
      survey: fc.option(str, { nil: null }),
      program: fc.option(str, { nil: null }),
      subscriptionRevision: fc.integer({ min: 1 }),
      contentDigest: str,
      preference: fc.option(str, { nil: null })
    })
  })

  it.prop("the receipt's written-out canonical JSON equals the generic RFC 8785 form", [runArb], ([run]) => {
    let generic: string | Error
    try {
      generic = canonicalJson(receiptOf(run as any))
    } catch (e) {
      generic = e as Error
    }
    if (typeof generic === "string") assert.strictEqual(receiptJsonOf(run as any), generic)
    else assert.throws(() => receiptJsonOf(run as any))
  }, { fastCheck: { numRuns: 1000 } })

  // Off-shape receipts (a field of another type, -0, a fraction, an unsafe integer, an extra or
  // missing key) must give the generic form too, or fail as it does.
  const fields = [
    "id",
    "subscriptionId",
    "gridVersion",
    "windowIndex",
    "windowStart",
    "coalescedWindows",
    "createdAt",
    "frozen.kind",
    "frozen.target",
    "frozen.scope",
    "frozen.scopeDigest",
    "frozen.budget",
    "frozen.budget.maxSources",
    "frozen.cadence.every",
    "frozen.cadence.unit",
    "frozen.units",
    "frozen.survey",
    "frozen.program",
    "frozen.subscriptionRevision",
    "frozen.preference",
    "frozen.extra",
    "frozen.budget.extra",
    "frozen.cadence.extra"
  ]
  const odd = fc.oneof(json, fc.constantFrom(-0, 0.5, 2 ** 53, -1, undefined, [], {}, ["a", 1], null))
  it.prop(
    "an off-shape receipt gives the generic form or fails as it does",
    [runArb, fc.constantFrom(...fields), odd],
    ([run, field, value]) => {
      const copy = JSON.parse(JSON.stringify(run))
      const keys = field.split(".")
      let target = copy
      for (const k of keys.slice(0, -1)) target = target[k]
      if (value === undefined) delete target[keys[keys.length - 1]!]
      else target[keys[keys.length - 1]!] = value
      let generic: string | Error
      try {
        generic = canonicalJson(receiptOf(copy))
      } catch (e) {
        generic = e as Error
      }
      if (typeof generic === "string") assert.strictEqual(receiptJsonOf(copy), generic)
      else assert.throws(() => receiptJsonOf(copy))
    },
    { fastCheck: { numRuns: 1000 } }
  )
})
