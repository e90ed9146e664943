/**
 * A post's reading time standing alone: cards and article headers write how long the text takes to
 * read ("3 min read", "7 minute read") in an element of its own beside the date. It is the site's
 * estimate, not the post's words, and most references of the development set leave it out. An
 * element whose whole text is such an estimate is left out (`withoutReadingTimes`); one written
 * inside a sentence or a run of other words ("a 5 min read on …") holds more than the estimate
 * and stays.
 */
import { eachShortLine, type El, type Page } from "./tree.js"

/** A reading time: a number of minutes, then "read". */
const READING_TIME = /^\d{1,3} ?(?:min|mins|minutes?)\.? read$/i

/** The longest such element (characters shown). */
const MAX_TIME = 20

/** The roots without an element whose whole text is a reading time. */
export const withoutReadingTimes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_TIME, (el, text) => {
    if (!READING_TIME.test(text)) return false
    el.drop = true
    return true
  })
  return roots
}
