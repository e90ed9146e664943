import { describe, expect, it, vi } from "@effect/vitest"
import { loadedMachine, printTable, record, rows } from "../../bench/support.js"

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
