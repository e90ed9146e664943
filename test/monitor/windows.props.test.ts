/** Window arithmetic properties (run under UTC, New York and Lord Howe by `npm test`; see windows.test.ts). */
import { assert, describe, it } from "@effect/vitest"
import * as DateTime from "effect/DateTime"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import {
  firstWindowAfterP,
  formatWall,
  latestStartedWindowP,
  prepare,
  type PreparedGrid,
  windowStartP,
  windowWall
} from "../../src/domain/MonitorWindows.js"

const ZONES = [
  "UTC",
  "America/New_York",
  "Australia/Lord_Howe",
  "Europe/Berlin",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "America/Santiago",
  "Africa/Casablanca"
]

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate()

const gridArb = fc
  .record({
    timezone: fc.constantFrom(...ZONES),
    year: fc.integer({ min: 2019, max: 2031 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hours: fc.integer({ min: 0, max: 23 }),
    minutes: fc.integer({ min: 0, max: 59 }),
    every: fc.integer({ min: 1, max: 12 }),
    unit: fc.constantFrom("day" as const, "week" as const, "month" as const)
  })
  .map((r) => {
    const day = Math.min(r.day, daysIn(r.year, r.month))
    const anchor = formatWall({ year: r.year, month: r.month, day, hours: r.hours, minutes: r.minutes })
    return { timezone: r.timezone, anchor, cadence: { every: r.every, unit: r.unit } }
  })
  .map((g) => Option.getOrThrow(prepare(g)))

const localWall = (g: PreparedGrid, ms: number) => {
  const p = DateTime.toParts(DateTime.unsafeMakeZoned(ms, { timeZone: g.zone }))
  return formatWall(p)
}

describe("monitor windows: properties", () => {
  it.prop("windows strictly increase", [gridArb, fc.integer({ min: 0, max: 400 })], ([g, k]) => {
    assert.isTrue(windowStartP(g, k) < windowStartP(g, k + 1))
  })

  it.prop(
    "a window's instant shows its own local wall time unless that time falls in a gap (then it is later by less than a day)",
    [gridArb, fc.integer({ min: 0, max: 400 })],
    ([g, k]) => {
      const wall = formatWall(windowWall(g, k))
      const shown = localWall(g, windowStartP(g, k))
      if (shown !== wall) {
        // Gap: the shown local time is after the wall time, by the gap's length (at most a few hours).
        const wallMs = Date.parse(`${wall}:00Z`)
        const shownMs = Date.parse(`${shown}:00Z`)
        assert.isTrue(shownMs > wallMs && shownMs - wallMs <= 3 * 3_600_000, `${wall} shown as ${shown}`)
      }
    }
  )

  it.prop(
    "the first window after t starts after t and its predecessor started at or before t",
    [gridArb, fc.integer({ min: -5_000_000_000, max: 400 * 86_400_000 * 3 })],
    ([g, offset]) => {
      const t = windowStartP(g, 0) + offset
      const k = firstWindowAfterP(g, t)
      assert.isTrue(windowStartP(g, k) > t)
      if (k > 0) assert.isTrue(windowStartP(g, k - 1) <= t)
      assert.strictEqual(latestStartedWindowP(g, t), k - 1)
    }
  )

  it.prop(
    "window k is the same whether computed directly or reached after any sequence of runs",
    [gridArb, fc.array(fc.integer({ min: 0, max: 90 * 86_400_000 }), { minLength: 1, maxLength: 25 })],
    ([g, gaps]) => {
      // Simulate a subscription: each run ends `gap` after its window started; the next due window
      // is the first one after the end. Every window reached must be the anchored window itself.
      let next = 0
      let nextDueAt = windowStartP(g, 0)
      for (const gap of gaps) {
        const endedAt = nextDueAt + gap
        const k = firstWindowAfterP(g, endedAt)
        assert.isTrue(k > next)
        nextDueAt = windowStartP(g, k)
        assert.isTrue(nextDueAt > endedAt)
        // Directly from a fresh preparation of the same grid: identical instant.
        next = k
      }
      const fresh = windowStartP({ ...g }, next)
      assert.strictEqual(fresh, nextDueAt)
    }
  )

  it.prop(
    "results do not depend on the process time zone (TZ changed at run time, too)",
    [gridArb, fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 300 * 86_400_000 })],
    ([g, k, offset]) => {
      const saved = process.env["TZ"]
      const compute = () => {
        const start = windowStartP(g, k)
        return [start, latestStartedWindowP(g, start + offset), firstWindowAfterP(g, start + offset)]
      }
      try {
        const results = ["UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"].map((tz) => {
          process.env["TZ"] = tz
          return compute()
        })
        for (const r of results) assert.deepStrictEqual(r, results[0])
      } finally {
        if (saved === undefined) delete process.env["TZ"]
        else process.env["TZ"] = saved
      }
    }
  )

  it.prop(
    "month steps clamp from the anchor day, never chained",
    [gridArb, fc.integer({ min: 0, max: 120 })],
    ([g, k]) => {
      if (g.cadence.unit !== "month") return
      const anchorDay = DateTime.toPartsUtc(g.anchorWall).day
      const w = windowWall(g, k)
      assert.strictEqual(w.day, Math.min(anchorDay, daysIn(w.year, w.month)))
    }
  )
})
