/**
 * Other threads offered under a thread: forum software closes a topic's page with a block of the
 * board's other threads on the same subject, under a heading that says so ("Similar threads",
 * "Similar Threads", "Related topics", "Suggested topics"), each a title and its counts ("Replies:
 * 28", "Last Post: 09-12-2021", "Views 5K"). The cleaning drops the titles as links, but their
 * counts and dates stay as lines after the last post. The heading is the board's word, not a
 * post's: a heading whose whole text is such a name (`MAX_NAME` characters at most) is left out,
 * with the largest block it opens (its first text, up to the chosen content and under
 * `MAX_SHARE` of it), or, when it sits among its section's blocks, with the blocks after it up to
 * the next heading of its level or above (`withoutSimilarThreads`). A post that names similar
 * threads in a sentence is no heading and stays.
 */
import { holdsHeading, isHeading, rankOf } from "./edges.js"
import { collapsedText, eachKept, type El, firstShown, type Page } from "./tree.js"

/** The heading: the board's other threads, its whole text. */
const SIMILAR = /^(?:similar|related|suggested|more)\s+(?:threads|topics|discussions)\s*:?$/i
/** The longest heading read as such a name. */
const MAX_NAME = 40
/** The largest share of the chosen content the block may hold. */
const MAX_SHARE = 0.5

/** The roots without the block of other threads a heading names, and the heading. */
export const withoutSimilarThreads = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    const headings: Array<El> = []
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text === 0) return true
      if (!isHeading(el.name)) return false
      if (el.text <= MAX_NAME && SIMILAR.test(collapsedText(page, el))) headings.push(el)
      return true
    })
    const cap = MAX_SHARE * root.text
    for (const el of headings) {
      let section = el
      for (let p = el.parent; p !== undefined && p !== root; p = p.parent) {
        if (p.text > cap || firstShown(p) !== section) break
        section = p
      }
      section.drop = true
      if (section !== el || el.parent === undefined) continue
      const level = rankOf(el)
      const kids = el.parent.children
      const after: Array<El> = []
      let shown = 0
      for (let i = kids.indexOf(el) + 1; i < kids.length; i++) {
        const k = kids[i]!
        if (typeof k === "number" || k.drop) continue
        if (holdsHeading(page, k, level)) break
        after.push(k)
        shown += k.text
      }
      if (shown <= cap) { for (const k of after) k.drop = true }
    }
  }
  return roots
}
