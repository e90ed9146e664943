/**
 * Instants: the one check that an ISO-8601 text names a real time (used by every instant Schema,
 * by `--now` and by the services' `now`), and the range every stored time stays in: years
 * 0000–9999, the years `Date.prototype.toISOString` writes with four digits.
 * No imports: `--now` is parsed on the CLI's start-up path.
 */

/** The first and last instants dossier accepts or stores (epoch milliseconds). */
export const FIRST_INSTANT = Date.parse("0000-01-01T00:00:00.000Z")
export const LAST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z")
export const LAST_YEAR = 9999

/** Epoch milliseconds within years 0000–9999. */
export const inInstantRange = (ms: number): boolean => Number.isFinite(ms) && ms >= FIRST_INSTANT && ms <= LAST_INSTANT

const digitsAt = (s: string, at: number, n: number): number => {
  let v = 0
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48
    if (c < 0 || c > 9) return -1
    v = v * 10 + c
  }
  return v
}
const daysIn = (y: number, m: number) =>
  m === 2
    ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28)
    : m === 4 || m === 6 || m === 9 || m === 11
    ? 30
    : 31

/**
 * An ISO-8601 instant `YYYY-MM-DDTHH:MM[:SS[.fraction]](Z|±HH:MM)` naming a real calendar
 * time (month 1–12, day within the month, 00:00–23:59:59) whose UTC form is still within years
 * 0000–9999. Written out by hand: replay checks every event's `at`.
 */
export const isRealInstant = (s: string): boolean => {
  const n = s.length
  if (n < 17 || n > 35) return false
  const y = digitsAt(s, 0, 4)
  const mo = digitsAt(s, 5, 2)
  const d = digitsAt(s, 8, 2)
  const h = digitsAt(s, 11, 2)
  const mi = digitsAt(s, 14, 2)
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h < 0 || h > 23 || mi < 0 || mi > 59) return false
  if (s[4] !== "-" || s[7] !== "-" || s[10] !== "T" || s[13] !== ":") return false
  let p = 16
  if (s[p] === ":") {
    const sec = digitsAt(s, p + 1, 2)
    if (sec < 0 || sec > 59) return false
    p += 3
    if (s[p] === ".") {
      let k = 0
      while (p + 1 + k < n && digitsAt(s, p + 1 + k, 1) >= 0) k++
      if (k < 1 || k > 9) return false
      p += 1 + k
    }
  }
  if (s[p] === "Z") return p === n - 1
  if (s[p] !== "+" && s[p] !== "-") return false
  const oh = digitsAt(s, p + 1, 2)
  const om = digitsAt(s, p + 4, 2)
  if (!(p + 6 === n && s[p + 3] === ":" && oh >= 0 && oh <= 23 && om >= 0 && om <= 59)) return false
  // An offset can carry the first or last day of the range into year -1 or 10000, whose UTC form
  // (stored, normalized) has no four-digit year: refuse those instants here, at the edge years only.
  if (y !== 0 && y !== 9999) return true
  const ms = Date.parse(s)
  return ms >= FIRST_INSTANT && ms <= LAST_INSTANT
}

/** Epoch milliseconds of a real ISO-8601 instant (`isRealInstant`), or undefined. */
export const parseRealInstant = (s: string): number | undefined => (isRealInstant(s) ? Date.parse(s) : undefined)

/** An instant exactly as `Date.prototype.toISOString` writes it (how every stored time is written), years 0000–9999. */
export const isStoredInstant = (s: string): boolean => {
  if (s.length !== 24) return false
  const ms = Date.parse(s)
  return inInstantRange(ms) && new Date(ms).toISOString() === s
}
