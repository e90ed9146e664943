/**
 * The compiled guard the scans use (src/domain/Guard.ts) answers exactly as
 * `Schema.is(schema, { onExcessProperty: "error" })` on stored monitor records and on every
 * damage we could make to them: a key removed, a key added at any depth, any value replaced
 * by another JSON value (tricky strings and numbers included).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import { compileGuard } from "../../src/domain/Guard.js"
import {
  afterRunEnded,
  newRun,
  newSubscription,
  RunRecord,
  SubscriptionRecord,
  type SubscriptionInput
} from "../../src/domain/Monitor.js"

const created = new Date("2026-01-01T00:00:00Z")
const inputs: ReadonlyArray<SubscriptionInput> = [
  { kind: "literature", target: "topic", timezone: "Europe/Berlin", anchor: "2026-01-05T09:00", cadence: { every: 1, unit: "week" }, id: "s1" },
  {
    kind: "literature",
    target: "other",
    timezone: "America/New_York",
    anchor: "2026-01-31T02:30",
    cadence: { every: 1, unit: "month" },
    id: "s2",
    program: "prog",
    scope: { venues: ["a", "b"], since: 2020, nested: { x: null } },
    mode: "run"
  } as SubscriptionInput,
  { kind: "unit-recheck", target: "units", timezone: "UTC", anchor: "2028-02-29T23:59", cadence: { every: 3, unit: "day" }, id: "s3", units: ["research/a.md", "research/b.md"] } as SubscriptionInput
]

/** Valid stored records: subscriptions, and runs planned, running and completed with outcomes. */
const seeds = (): ReadonlyArray<{ readonly schema: "run" | "subscription"; readonly value: unknown }> => {
  const out: Array<{ schema: "run" | "subscription"; value: unknown }> = []
  for (const input of inputs) {
    const sub = Either.getOrThrow(newSubscription(input, created))
    out.push({ schema: "subscription", value: sub })
    const at = new Date("2026-02-10T10:00:00Z")
    const run = newRun(sub, 3, at)
    out.push({ schema: "run", value: run })
    out.push({
      schema: "run",
      value: {
        ...run,
        status: "completed",
        revision: 4,
        transitions: [{ from: "planned", to: "running", at: at.toISOString(), reason: null }],
        completion: {
          at: at.toISOString(),
          binding: { runId: run.id, taskDigest: run.receiptDigest },
          stage: { path: `research/results/${run.id}.md`, sha256: "a".repeat(64) },
          survey: { path: "research/survey.md", sha256: "b".repeat(64) },
          units: ["research/a.md"]
        },
        outcomes: [
          { id: "o1", label: "new", reason: "r", citations: [{ path: "research/sources/p.txt", quote: "a quote here" }], disposition: null },
          {
            id: "o2",
            label: "worth_reviewing",
            reason: "r2",
            citations: [],
            disposition: { value: "sent_to_review", at: at.toISOString(), authorization: { messageId: "m" }, unitPath: null, reviewItem: "research/r.md" }
          }
        ]
      }
    })
    out.push({ schema: "subscription", value: afterRunEnded({ ...sub, activeRunId: run.id }, at) })
  }
  return JSON.parse(JSON.stringify(out))
}

type Json = null | boolean | number | string | Array<Json> | { [k: string]: Json }

/** Every container (object or array) of a JSON value, with the key path to it. */
const containers = (v: Json, at: Array<string | number> = [], acc: Array<{ path: Array<string | number>; node: Json }> = []) => {
  if (v !== null && typeof v === "object") {
    acc.push({ path: at, node: v })
    if (Array.isArray(v)) v.forEach((x, i) => containers(x, [...at, i], acc))
    else for (const [k, x] of Object.entries(v)) containers(x, [...at, k], acc)
  }
  return acc
}

const tricky: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>("", "x", "../up", "/abs", "a".repeat(64), "A".repeat(64), "research/a.md", "q".repeat(4001), 0, -1, 1, 1.5, 1e9, 366, 367, 10_000, 10_001, null, true, false, [], {}, "2026-01-05T09:00", "Europe/Berlin", "Mars/Olympus", "new", "completed", "acknowledged"),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>
)

const mutation = fc.record({
  pick: fc.nat(),
  key: fc.nat(),
  kind: fc.constantFrom("delete", "add", "replace", "replace", "none"),
  name: fc.constantFrom("extra", "id", "__proto__", "constructor", "0"),
  value: tricky
})

type Mutation = { pick: number; key: number; kind: string; name: string; value: Json }
const apply = (value: Json, m: Mutation): Json => {
  const copy = JSON.parse(JSON.stringify(value)) as Json
  if (m.kind === "none") return copy
  const all = containers(copy)
  const { node } = all[m.pick % all.length]!
  if (Array.isArray(node)) {
    if (node.length === 0 || m.kind === "add") node.push(m.value)
    else if (m.kind === "delete") node.splice(m.key % node.length, 1)
    else node[m.key % node.length] = m.value
    return copy
  }
  const obj = node as { [k: string]: Json }
  const keys = Object.keys(obj)
  if (m.kind === "add" || keys.length === 0) Object.defineProperty(obj, m.name, { value: m.value, enumerable: true, writable: true, configurable: true })
  else if (m.kind === "delete") delete obj[keys[m.key % keys.length]!]
  else obj[keys[m.key % keys.length]!] = m.value
  return copy
}

describe("compiled guards of the stored monitor records", () => {
  const guards = { run: compileGuard(RunRecord), subscription: compileGuard(SubscriptionRecord) }
  const reference = {
    run: Schema.is(RunRecord, { onExcessProperty: "error" }),
    subscription: Schema.is(SubscriptionRecord, { onExcessProperty: "error" })
  }
  const all = seeds()

  it("accept every valid seed record", () => {
    for (const s of all) {
      expect(reference[s.schema](s.value)).toBe(true)
      expect(guards[s.schema](s.value)).toBe(true)
    }
  })

  it("answer as Schema.is (onExcessProperty: error) on damaged records", () => {
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 3 }), (which, ms) => {
        const seed = all[which % all.length]!
        let value = seed.value as Json
        for (const m of ms) value = apply(value, m)
        const want = reference[seed.schema](value)
        if (want) accepted++
        else refused++
        expect(guards[seed.schema](value)).toBe(want)
      }),
      { numRuns: 4000 }
    )
    // Both answers were exercised.
    expect(accepted).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(100)
  })

  it("refuse non-objects and arrays at the top", () => {
    for (const v of [null, 1, "x", [], [{}], true]) {
      expect(guards.run(v)).toBe(false)
      expect(guards.subscription(v)).toBe(false)
    }
  })
})
