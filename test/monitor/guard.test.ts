/**
 * The compiled guard the scans use (src/domain/Guard.ts) answers exactly as
 * `Schema.is(schema, { onExcessProperty: "error" })` on stored monitor records and on every
 * damage we could make to them: a key removed, a key added at any depth, any value replaced
 * by another JSON value (tricky strings and numbers included).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { compileGuard } from "../../src/domain/Guard.js"
import { RunRecord, SubscriptionRecord } from "../../src/domain/Monitor.js"
import { apply, type Json, mutation, seeds } from "./records.js"

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
