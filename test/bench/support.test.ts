import { describe, expect, it, vi } from "@effect/vitest"
import { loadedMachine, pairedRatio, printTable, record, rows, sampleAsyncAlternating } from "../../bench/support.js"

describe("bench/support: a ratio measured on a busy machine", () => {
  it("is loaded above 1.5 per core (one minute's load average), quiet at or under it", () => {
    expect(loadedMachine(17.7, 2)).toBe("load average 17.7 on 2 cores")
    expect(loadedMachine(3.01, 2)).toBe("load average 3.0 on 2 cores")
    expect(loadedMachine(3, 2)).toBeUndefined()
    expect(loadedMachine(2.2, 2)).toBeUndefined()
    expect(loadedMachine(10, 8)).toBeUndefined()
  })

  it("says its target is not judged instead of met or MISSED, in the row and in the table", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    try {
      rows.length = 0
      // Under load the library's side reads under its target: that verdict would be false.
      record({
        name: "append",
        ms: 6.9,
        baseline: "raw",
        baselineMs: 13.2,
        target: 1.5,
        unjudged: loadedMachine(17.7, 2)
      })
      record({ name: "quiet", ms: 3, baseline: "raw", baselineMs: 1.5, target: 1.5, unjudged: loadedMachine(1.8, 2) })
      printTable()
      const out = log.mock.calls.map((c) => String(c[0]))
      expect(out[0]).toBe(
        "  append: 6.9 ms vs raw 13.2 ms = 0.52x (target <= 1.5x: not judged, load average 17.7 on 2 cores)"
      )
      expect(out[1]).toBe("  quiet: 3.0 ms vs raw 1.5 ms = 2.00x (target <= 1.5x: MISSED)")
      expect(out).toContain("| append | 6.9 | raw | 13.2 | 0.52x | <= 1.5x not judged, load average 17.7 on 2 cores |")
      expect(out).toContain("| quiet | 3.0 | raw | 1.5 | 2.00x | <= 1.5x MISSED |")
    } finally {
      rows.length = 0
      log.mockRestore()
    }
  })
})

describe("bench/support: a ratio of paired samples", () => {
  it("runs each side once a round, the order reversed every other round, samples in round order", async () => {
    const order: Array<string> = []
    const side = (name: string) => () => Promise.resolve(void order.push(name))
    const samples = await sampleAsyncAlternating(3, [side("a"), side("b"), side("c")], 1)
    expect(order).toEqual(["a", "b", "c", "a", "b", "c", "c", "b", "a", "a", "b", "c"])
    expect(samples.map((xs) => xs.length)).toEqual([3, 3, 3])
  })

  it("is the median of the rounds' ratios, not the ratio of the medians", () => {
    // The machine slows down and speeds up during the run; each round's two sides move together.
    const library = [1.5, 1.5, 3, 4.5, 6]
    const raw = [1, 1, 3, 3, 4]
    expect(pairedRatio(library, raw)).toBe(1.5)
    // The medians' ratio (3 / 3) compares round 3's library with round 3's raw, the one round
    // in which the library's side did not take half as long again.
    expect(() => pairedRatio([1], [1, 2])).toThrow()
    expect(() => pairedRatio([], [])).toThrow()
  })

  it("judges the target by the row's own ratio and says that it is paired", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    try {
      rows.length = 0
      // The medians' ratio would read 1.00x "met"; the rounds' ratios read 1.5x each.
      record({ name: "append", ms: 3, baseline: "raw", baselineMs: 3, target: 1.4, ratio: 1.5 })
      printTable()
      const out = log.mock.calls.map((c) => String(c[0]))
      expect(out[0]).toBe("  append: 3.0 ms vs raw 3.0 ms = 1.50x (median of paired ratios) (target <= 1.4x: MISSED)")
      expect(out).toContain("| append | 3.0 | raw | 3.0 | 1.50x | <= 1.4x MISSED |")
    } finally {
      rows.length = 0
      log.mockRestore()
    }
  })
})
