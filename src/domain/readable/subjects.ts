/**
 * A reply's subject line: forum software gives every post a subject, and a reply's defaults to the
 * thread's own with "Re:" before it, shown over each post ("Re: Turning off the LEDs", with the
 * post's number before it on some boards). Read in the copy it is the thread's title said again over
 * every reply, which says nothing the thread does not. Where at least two blocks of the copy are
 * such a line with the same subject, they are left out (`withoutReplySubjects`); a reply that
 * renamed its subject, and a lone "Re:" line (a mail's title), stay.
 */
import { eachShortLine, type El, type Page } from "./tree.js"

/**
 * A reply's subject: a post's number ("3.", "#3") at most, then "Re:" (and the reply prefixes of
 * other languages' mail: "Aw:", "Sv:", "Antw:", "Odp:"), then the subject.
 */
const SUBJECT = /^(?:#?\d{1,6}\.?\s*)?(?:re|aw|sv|antw|odp)(?:\s*\[\d+\])?\s*:\s*(\S.*)$/i
/** The longest line read as a subject (characters not whitespace). */
const MAX_SUBJECT = 200
/** The fewest lines with the same subject that make a thread's replies. */
const MIN_REPLIES = 2

/**
 * The roots without the lines that repeat the thread's subject after "Re:" over its replies: every
 * element whose whole text is such a line (`SUBJECT`) is a candidate, and those whose subject is
 * the same in `MIN_REPLIES` of them are left out. An element that holds such a line and more (the
 * line and the post's date: its "subject" then differs from post to post) is not the line, and
 * one holding another candidate with a different subject stays for the same reason.
 */
export const withoutReplySubjects = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const found: Array<[El, string]> = []
  const count = new Map<string, number>()
  eachShortLine(page, roots, MAX_SUBJECT, (el, text) => {
    const m = SUBJECT.exec(text)
    if (m === null) return false
    const subject = m[1]!.toLowerCase()
    // The same line again inside the element that holds it (a heading's link) is one line.
    const last = found[found.length - 1]
    if (last === undefined || last[0].end <= el.order || last[1] !== subject) {
      count.set(subject, (count.get(subject) ?? 0) + 1)
    }
    found.push([el, subject])
    return false
  })
  for (let i = 0; i < found.length; i++) {
    const [el, subject] = found[i]!
    if (count.get(subject)! < MIN_REPLIES) continue
    const next = found[i + 1]
    if (next !== undefined && next[0].order < el.end && next[1] !== subject) continue
    el.drop = true
  }
  return roots
}
