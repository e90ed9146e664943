/**
 * A post's attached files as a board lists them: under the post, a box labelled "Attachments",
 * each file its name (a link to download it) over its size and how often it was fetched ("(95.79
 * KiB) Downloaded 478 times", "(46.32 KiB) Viewed 453 times"). The count is the board's, not the
 * post's, and the box repeats what the post says it attached; no reference of the development set
 * keeps it. An element whose whole text is such a size and count (`MAX_STATS` characters at most)
 * is left out with the file's entry around it (the smallest ancestor holding more, when what it
 * holds beside the line is one link), and a box whose files all went goes with its label
 * (`withoutAttachmentBoxes`). A sentence that says how often a file was downloaded holds more and
 * stays.
 */
import { collapsedText, eachShortLine, type El, type Page } from "./tree.js"

/** A file's size, then how often it was fetched. */
const STATS = /^\(?\s*\d[\d.,]*\s*(?:[kmg]i?b|bytes)\s*\)?\s*(?:downloaded|viewed)\s+\d[\d,]*\s+times?\.?$/i
/** The longest such line (characters). */
const MAX_STATS = 60
/** The label of the box that lists a post's files. */
const LABEL = /^attachments?:?$/i
/** The longest file entry (characters: a name and its line). */
const MAX_ENTRY = 200

/** The element of `el`'s chain to drop: the entry that holds the line and one link beside it. */
const entryOf = (el: El): El => {
  const p = el.parent
  if (p === undefined || p.text > MAX_ENTRY || p.link === 0 || p.text - el.text > p.link) return el
  return p
}

/** Whether `el`'s visible text, what is not dropped, is only the box's label. */
const onlyLabel = (page: Page, el: El): boolean => el.text > 0 && LABEL.test(collapsedText(page, el))

/** The roots without the files a board lists under a post, with their sizes and counts. */
export const withoutAttachmentBoxes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const entries: Array<El> = []
  eachShortLine(page, roots, MAX_STATS, (el, text) => {
    if (!STATS.test(text)) return false
    entries.push(el)
    return true
  })
  for (const el of entries) {
    const entry = entryOf(el)
    entry.drop = true
    // The box, when its files all went: what is left of it is its label.
    for (let p = entry.parent; p !== undefined && p.text <= MAX_ENTRY * entries.length; p = p.parent) {
      if (!onlyLabel(page, p)) continue
      p.drop = true
      break
    }
  }
  return roots
}
