/** The CPU seconds an execution records: never less than what the watchdog saw the tree use. */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { recordedCpuSeconds } from "../../src/layers/SandboxBwrap.js"

describe("recordedCpuSeconds", () => {
  it("a kill that left the wrapper's count short records what the watchdog saw", () => {
    expect(recordedCpuSeconds(1.565, 2.04)).toBe(2.04)
    expect(recordedCpuSeconds(null, 2.0001)).toBe(2)
    expect(recordedCpuSeconds(null, 0)).toBeNull()
    expect(recordedCpuSeconds(0.004, 0)).toBe(0.004)
  })

  it("never records less than either count, and records one of them", () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 0, max: 10_000_000 }).map((ms) => ms / 1000), { nil: null }),
        fc.double({ min: 0, max: 10_000, noNaN: true }),
        (reported, seen) => {
          const r = recordedCpuSeconds(reported, seen)
          if (r === null) {
            expect(reported).toBeNull()
            expect(seen).toBeLessThan(0.0005)
            return
          }
          if (reported !== null) expect(r).toBeGreaterThanOrEqual(reported)
          expect(r).toBeGreaterThanOrEqual(seen - 0.0005)
          expect(r === reported || Math.abs(r - seen) <= 0.0005).toBe(true)
        }
      )
    )
  })
})
