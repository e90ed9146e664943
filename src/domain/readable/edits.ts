/**
 * A post's edit note: forum software writes under a post its author changed after posting who
 * changed it and when ("Last edited by Ann on Sun Feb 22, 2026 2:08 am, edited 2 times in
 * total."; "Last edited by Ann; 12-03-2024 at 10:12 AM."; "Last edited: Mar 3, 2024"; "Edited
 * June 19, 2024 by Ann", when and then who). It is the board's bookkeeping, not what the post
 * says, and reads in the copy as a line between posts. An element whose whole text is such a note
 * is left out (`withoutEditNotes`); a sentence of a post that starts with the same words holds
 * more and stays.
 */
import { collapsedText, eachKept, type El, type Page } from "./tree.js"

/** An edit note: "Last edited" and who or when, with a date or a time in it; or "Edited", a date, then "by" and who. */
const NOTE = /^(?:last edited\s*(?:by\b|:|on\b)(?=.*\d)|edited\s+(?:on\s+)?\S*\s*\d.{0,60}\bby\b)/i
/** The longest note (visible characters). */
const MAX_NOTE = 200

/** The roots without the elements whose whole text is a post's edit note (`NOTE`, at most `MAX_NOTE` characters). */
export const withoutEditNotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text === 0) return true
      if (el.text > MAX_NOTE) return false
      if (!NOTE.test(collapsedText(page, el))) return false
      el.drop = true
      return true
    })
  }
  return roots
}
