/**
 * Window arithmetic examples. Run under several process time zones by `npm test` (UTC in the
 * whole run, then New York and Lord Howe by `npm run test:tz`): every expectation is an absolute
 * UTC instant, so the results must not depend on TZ.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Option from "effect/Option"
import {
  defaultAnchor,
  firstWindowAfter,
  type Grid,
  isNamedZone,
  iso,
  latestStartedWindow,
  parseAnchor,
  windowStart,
  zoneOf
} from "../../src/domain/MonitorWindows.js"

const starts = (grid: Grid, n: number) => Array.from({ length: n }, (_, k) => iso(windowStart(grid, k)))

describe("monitor windows: examples", () => {
  it("New York 02:30 daily across the 2025-03-09 spring-forward gap moves forward by the gap", () => {
    const grid: Grid = { timezone: "America/New_York", anchor: "2025-03-08T02:30", cadence: { every: 1, unit: "day" } }
    assert.deepStrictEqual(starts(grid, 3), [
      "2025-03-08T07:30:00.000Z", // 02:30 EST
      "2025-03-09T07:30:00.000Z", // 02:30 does not exist: 03:30 EDT
      "2025-03-10T06:30:00.000Z" // 02:30 EDT: the next window is still from the anchor
    ])
  })

  it("New York 01:30 daily across the 2025-11-02 fall-back takes the earlier instant", () => {
    const grid: Grid = { timezone: "America/New_York", anchor: "2025-11-01T01:30", cadence: { every: 1, unit: "day" } }
    assert.deepStrictEqual(starts(grid, 3), [
      "2025-11-01T05:30:00.000Z",
      "2025-11-02T05:30:00.000Z", // 01:30 EDT, the first of the two 01:30s
      "2025-11-03T06:30:00.000Z"
    ])
  })

  it("Jan 31 monthly clamps to each month's last day and returns to the 31st", () => {
    const grid: Grid = { timezone: "Europe/Berlin", anchor: "2025-01-31T09:00", cadence: { every: 1, unit: "month" } }
    assert.deepStrictEqual(starts(grid, 5), [
      "2025-01-31T08:00:00.000Z",
      "2025-02-28T08:00:00.000Z",
      "2025-03-31T07:00:00.000Z", // summer time since 03-30
      "2025-04-30T07:00:00.000Z",
      "2025-05-31T07:00:00.000Z"
    ])
    const leap: Grid = { ...grid, anchor: "2024-01-31T09:00" }
    assert.strictEqual(iso(windowStart(leap, 1)), "2024-02-29T08:00:00.000Z")
  })

  it("Feb 29 every 12 months lands on Feb 28 in common years and Feb 29 in leap years", () => {
    const grid: Grid = { timezone: "UTC", anchor: "2024-02-29T12:00", cadence: { every: 12, unit: "month" } }
    assert.deepStrictEqual(starts(grid, 5), [
      "2024-02-29T12:00:00.000Z",
      "2025-02-28T12:00:00.000Z",
      "2026-02-28T12:00:00.000Z",
      "2027-02-28T12:00:00.000Z",
      "2028-02-29T12:00:00.000Z"
    ])
  })

  it("Mar 31 every 6 months alternates Sep 30 and Mar 31", () => {
    const grid: Grid = {
      timezone: "Australia/Lord_Howe",
      anchor: "2025-03-31T08:00",
      cadence: { every: 6, unit: "month" }
    }
    // Lord Howe: +11 in (southern) summer, +10:30 in winter.
    assert.deepStrictEqual(starts(grid, 4), [
      "2025-03-30T21:00:00.000Z",
      "2025-09-29T21:30:00.000Z",
      "2026-03-30T21:00:00.000Z",
      "2026-09-29T21:30:00.000Z"
    ])
  })

  it("Lord Howe's 30-minute spring-forward gap moves 02:15 to 02:45", () => {
    // 2025-10-05 02:00 → 02:30 at Lord Howe.
    const grid: Grid = {
      timezone: "Australia/Lord_Howe",
      anchor: "2025-10-04T02:15",
      cadence: { every: 1, unit: "day" }
    }
    assert.deepStrictEqual(starts(grid, 3), [
      "2025-10-03T15:45:00.000Z", // 02:15 +10:30
      "2025-10-04T15:45:00.000Z", // 02:45 +11
      "2025-10-05T15:15:00.000Z" // 02:15 +11
    ])
  })

  it("a 200-window outage coalesces: the latest started window is 200 and the next one is 201", () => {
    const grid: Grid = { timezone: "America/New_York", anchor: "2025-01-01T09:00", cadence: { every: 1, unit: "day" } }
    const w200 = windowStart(grid, 200)
    assert.strictEqual(iso(w200), "2025-07-20T13:00:00.000Z")
    const now = w200 + 3_600_000
    assert.strictEqual(latestStartedWindow(grid, now), 200)
    assert.strictEqual(firstWindowAfter(grid, now), 201)
    // 200 missed windows since window 0 plus the current one.
    assert.strictEqual(latestStartedWindow(grid, now) - 0 + 1, 201)
    assert.strictEqual(latestStartedWindow(grid, windowStart(grid, 0) - 1), -1)
    assert.strictEqual(latestStartedWindow(grid, w200), 200)
    assert.strictEqual(firstWindowAfter(grid, w200), 201)
  })

  it("every 2 weeks from a Berlin anchor across the autumn change keeps 09:00 local", () => {
    const grid: Grid = { timezone: "Europe/Berlin", anchor: "2026-10-19T09:00", cadence: { every: 2, unit: "week" } }
    assert.deepStrictEqual(starts(grid, 2), ["2026-10-19T07:00:00.000Z", "2026-11-02T08:00:00.000Z"])
  })

  it("anchors are validated as calendar dates", () => {
    assert.isTrue(Option.isSome(parseAnchor("2024-02-29T00:00")))
    assert.isTrue(Option.isNone(parseAnchor("2025-02-29T00:00")))
    assert.isTrue(Option.isNone(parseAnchor("2025-01-01T24:00")))
    assert.isTrue(Option.isNone(parseAnchor("2025-01-01T09:00:00")))
    assert.isTrue(Option.isNone(parseAnchor("2025-01-01T09:00Z")))
  })

  it("the default anchor is now (local, to the minute) plus one cadence", () => {
    const now = Date.parse("2026-11-30T10:00:30.000Z")
    assert.deepStrictEqual(
      defaultAnchor("Europe/Berlin", { every: 2, unit: "week" }, now),
      Option.some("2026-12-14T11:00")
    )
    assert.deepStrictEqual(
      defaultAnchor("Australia/Lord_Howe", { every: 1, unit: "month" }, now),
      Option.some("2026-12-30T21:00")
    )
    assert.isTrue(Option.isNone(defaultAnchor("Mars/Olympus", { every: 1, unit: "day" }, now)))
  })
})

describe("monitor windows: zone names", () => {
  it("isNamedZone accepts exactly what zoneOf (Intl.DateTimeFormat) accepts", () => {
    const names = [
      ...Intl.supportedValuesOf("timeZone"),
      "UTC",
      "Etc/UTC",
      "Asia/Kolkata",
      "US/Eastern",
      "europe/berlin",
      "EUROPE/BERLIN",
      "Mars/Olympus",
      "",
      "Europe/Berlin ",
      "+01:00"
    ]
    for (const name of names) assert.strictEqual(isNamedZone(name), Option.isSome(zoneOf(name)), name)
  })
})
