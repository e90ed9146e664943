/**
 * A section introduced before its links: a catalogue's page is built as sections, each a heading
 * and a paragraph saying what the section offers ("For students: dive into our free resources…")
 * in a part of their own, then the section's links (a few linked tiles, a button). Measured whole,
 * such a section is short and much of it links, and the cleaning pass (content.ts, step 4)
 * dropped it as a strip of links, its heading and paragraph with it. A block the cleaning would
 * drop whose first parts, before any link, are a section heading (`h2` to `h6`, no link) and then
 * a paragraph of `MIN_INTRO` characters or more without links, both inside a part that holds no
 * link, is judged part by part instead: the heading and the paragraph stay, and the links after
 * them are judged on their own figures. Where the heading, the paragraph and the links sit side
 * by side in one block (a promotion's title, pitch and button), it is judged whole as before. */
import { isHeading } from "./edges.js"
import type { El, Page } from "./tree.js"

/** The fewest characters of the paragraph under the heading: a sentence or two, not a label. */
const MIN_INTRO = 100

/** Whether a block opens, before any link, with a section heading and then an unlinked paragraph. */
export const introducedSection = (page: Page, el: El): boolean => {
  let heading: El | undefined
  for (let i = el.order + 1; i < el.end;) {
    const d = page.all[i]!
    if (d.drop) {
      i = d.end
      continue
    }
    if (d.name === "a") return false
    if (isHeading(d.name)) {
      if (d.name === "h1" || d.link > 0) return false
      heading = d
      i = d.end
      continue
    }
    if (d.name === "p") {
      if (heading === undefined) return false
      if (d.link > 0 || d.text < MIN_INTRO) return false
      // The heading and the paragraph sit in a part of their own that holds no link.
      let part: El | undefined
      for (let a = d.parent; a !== undefined && a !== el && a.link === 0; a = a.parent) part = a
      return part !== undefined && heading.order >= part.order && heading.order < part.end
    }
    i++
  }
  return false
}
