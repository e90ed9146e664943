/**
 * A post's reading time standing alone: cards and article headers write how long the text takes to
 * read ("3 min read", "7 minute read") in an element of its own beside the date. It is the site's
 * estimate, not the post's words, and most references of the development set leave it out. An
 * element whose whole text is such an estimate is left out (`withoutReadingTimes`); one written
 * inside a sentence or a run of other words ("a 5 min read on …") holds more than the estimate
 * and stays.
 */
import { type El, type Page, withoutShortLines } from "./tree.js"

/** A reading time: a number of minutes, then "read". */
const READING_TIME = /^\d{1,3} ?(?:min|mins|minutes?)\.? read$/i

/** The longest such element (characters shown). */
const MAX_TIME = 20

/** The roots without an element whose whole text is a reading time. */
export const withoutReadingTimes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> =>
  withoutShortLines(page, roots, MAX_TIME, READING_TIME)
