/**
 * Window arithmetic of subscriptions (pure). Window k (k >= 0) starts at `anchor + k x cadence`
 * counted in the local calendar of the subscription's time zone, always from the anchor:
 *
 * - the local wall time of window k is computed on a zone-less calendar (`DateTime.add` on a UTC
 *   value standing for the wall clock), which clamps month steps to the target month's last day;
 * - the wall time is then placed in the zone with `disambiguation: "compatible"`: a local time in
 *   a spring-forward gap moves forward by the gap's length, a repeated local time takes the
 *   earlier instant.
 *
 * No time-zone rule is written by hand: offsets come from Effect's `DateTime` (Intl). The process
 * time zone (`TZ`) plays no part: only UTC calendar operations and named zones are used.
 */
import * as DateTime from "effect/DateTime"
import * as Option from "effect/Option"

export type GridCadenceUnit = "day" | "week" | "month"

export interface GridCadence {
  readonly every: number
  readonly unit: GridCadenceUnit
}

/** The window grid of a subscription: its time zone, local anchor and cadence. */
export interface Grid {
  readonly timezone: string
  /** Local `YYYY-MM-DDTHH:MM` of window 0 (no seconds, no offset). */
  readonly anchor: string
  readonly cadence: GridCadence
}

export interface WallParts {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hours: number
  readonly minutes: number
}

const ANCHOR = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** A named IANA zone, or None. */
export const zoneOf = (timezone: string): Option.Option<DateTime.TimeZone.Named> => DateTime.zoneMakeNamed(timezone)

let canonicalZones: ReadonlySet<string> | undefined

/**
 * Is `timezone` a zone `zoneOf` accepts? The first `Intl.DateTimeFormat` of a process builds V8's
 * set of date-format locales (~115 million instructions, more than a bare Node start), and every
 * read of a subscription checks its zone: a name in the run time's own list of canonical zones
 * (`Intl.supportedValuesOf`, ~16 million) is accepted by `Intl.DateTimeFormat` too, so only
 * other spellings (aliases, other case) are asked of it. Read-only commands then build no
 * formatter unless they compute a window. See docs/performance.md, "tenth round".
 */
export const isNamedZone = (timezone: string): boolean => {
  canonicalZones ??= new Set(Intl.supportedValuesOf("timeZone"))
  return canonicalZones.has(timezone) || Option.isSome(zoneOf(timezone))
}

/** Parse a local anchor `YYYY-MM-DDTHH:MM`; None when malformed or not a calendar date/time. */
export const parseAnchor = (anchor: string): Option.Option<WallParts> => {
  const m = ANCHOR.exec(anchor)
  if (m === null) return Option.none()
  const [year, month, day, hours, minutes] = m.slice(1).map(Number) as [number, number, number, number, number]
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59) return Option.none()
  const wall = wallOf({ year, month, day, hours, minutes })
  const back = DateTime.toPartsUtc(wall)
  return back.year === year && back.month === month && back.day === day
    ? Option.some({ year, month, day, hours, minutes })
    : Option.none()
}

/** A zone-less wall clock value: a UTC DateTime whose parts are the local calendar parts. */
const wallOf = (p: WallParts): DateTime.Utc =>
  DateTime.unsafeMake({
    year: p.year,
    month: p.month,
    day: p.day,
    hours: p.hours,
    minutes: p.minutes,
    seconds: 0,
    millis: 0
  }) as DateTime.Utc

const pad = (n: number, w = 2) => String(n).padStart(w, "0")

export const formatWall = (p: WallParts): string =>
  `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hours)}:${pad(p.minutes)}`

const partsOfWall = (w: DateTime.DateTime): WallParts => {
  const p = DateTime.toPartsUtc(w)
  return { year: p.year, month: p.month, day: p.day, hours: p.hours, minutes: p.minutes }
}

/** Add `n` cadence steps to a wall clock value (calendar arithmetic, month-end clamped from `wall`). */
const addSteps = (wall: DateTime.Utc, cadence: GridCadence, n: number): DateTime.Utc => {
  if (n === 0) return wall
  const steps = n * cadence.every
  switch (cadence.unit) {
    case "day":
      return DateTime.add(wall, { days: steps })
    case "week":
      return DateTime.add(wall, { weeks: steps })
    case "month":
      return DateTime.add(wall, { months: steps })
  }
}

/** The instant (epoch ms) at which a local wall time occurs in a zone (gap → forward; repeat → earlier). */
export const instantOf = (wall: DateTime.Utc, zone: DateTime.TimeZone): number =>
  DateTime.toEpochMillis(
    DateTime.unsafeMakeZoned(wall, { timeZone: zone, adjustForTimeZone: true, disambiguation: "compatible" })
  )

/** A grid prepared for repeated evaluation (zone resolved once). */
export interface PreparedGrid {
  readonly zone: DateTime.TimeZone.Named
  readonly anchorWall: DateTime.Utc
  readonly cadence: GridCadence
}

export const prepare = (grid: Grid): Option.Option<PreparedGrid> =>
  Option.flatMap(
    zoneOf(grid.timezone),
    (zone) =>
      Option.map(parseAnchor(grid.anchor), (parts) => ({ zone, anchorWall: wallOf(parts), cadence: grid.cadence }))
  )

const unsafePrepare = (grid: Grid): PreparedGrid =>
  Option.getOrThrowWith(prepare(grid), () => new RangeError(`invalid grid ${grid.timezone} ${grid.anchor}`))

/** Local wall time of window k. */
export const windowWall = (g: PreparedGrid, k: number): WallParts => partsOfWall(addSteps(g.anchorWall, g.cadence, k))

/** Start (epoch ms) of window k, computed directly from the anchor. */
export const windowStartP = (g: PreparedGrid, k: number): number =>
  instantOf(addSteps(g.anchorWall, g.cadence, k), g.zone)

export const windowStart = (grid: Grid, k: number): number => windowStartP(unsafePrepare(grid), k)

const DAY_MS = 86_400_000
const approxStepMs = (c: GridCadence): number =>
  c.every * (c.unit === "day" ? DAY_MS : c.unit === "week" ? 7 * DAY_MS : 30.436875 * DAY_MS)

/** The largest k with start(k) <= t, or -1 when window 0 has not started at t. */
export const latestStartedWindowP = (g: PreparedGrid, t: number): number => {
  const w0 = windowStartP(g, 0)
  if (t < w0) return -1
  let k = Math.max(0, Math.floor((t - w0) / approxStepMs(g.cadence)))
  while (k > 0 && windowStartP(g, k) > t) k--
  while (windowStartP(g, k + 1) <= t) k++
  return k
}

export const latestStartedWindow = (grid: Grid, t: number): number => latestStartedWindowP(unsafePrepare(grid), t)

/** The smallest k with start(k) > t: the first window that starts after t. */
export const firstWindowAfterP = (g: PreparedGrid, t: number): number => latestStartedWindowP(g, t) + 1

export const firstWindowAfter = (grid: Grid, t: number): number => firstWindowAfterP(unsafePrepare(grid), t)

/** The default anchor: now in the zone, to the minute, plus one cadence step (local calendar). */
export const defaultAnchor = (timezone: string, cadence: GridCadence, now: number): Option.Option<string> =>
  Option.map(zoneOf(timezone), (zone) => {
    const local = DateTime.toParts(DateTime.unsafeMakeZoned(now, { timeZone: zone }))
    const wall = wallOf({
      year: local.year,
      month: local.month,
      day: local.day,
      hours: local.hours,
      minutes: local.minutes
    })
    return formatWall(partsOfWall(addSteps(wall, cadence, 1)))
  })

export const iso = (ms: number): string => new Date(ms).toISOString()
