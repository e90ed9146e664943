/**
 * A summary of a product's reviews written by a model. Marketplaces now open their reviews with a
 * paragraph a language model wrote from them ("Customers find this book to be a great practical
 * guide …", "Customers praise this product's comfort …"), under a heading ("Customers say") and
 * over a line that says so ("AI-generated from customer reviews", "AI Generated from the text of
 * customer reviews"). It says what the reviews say, not what the page says of the product, and
 * the copy leaves the reviews themselves out of a product page. The marketplaces' pages that
 * write it do not all say they show a product, so the rule holds on every page: an element of
 * `MAX_DISCLAIMER` characters or less whose whole text is such a line (`DISCLAIMER`) is left out
 * with the box it closes (its nearest ancestor holding other text, when the line ends it and it
 * holds `MAX_SUMMARY` characters or less), else with the block just before it (the summary,
 * `MAX_SUMMARY` characters or less, the line opening a box of its own after the summary's) and a
 * heading right before that (`withoutReviewSummaries`).
 */
import { holdsHeading } from "./edges.js"
import { eachShortLine, type El, type Page, shownChildren } from "./tree.js"

/** The line under the summary: "AI-generated from customer reviews", "AI Generated from the text of customer reviews". */
const DISCLAIMER = /^ai[\s-]*generated\s+from\s+(?:the\s+text\s+of\s+)?(?:the\s+)?customer\s+reviews\.?$/i

/** The most visible characters of the line. */
const MAX_DISCLAIMER = 60

/** The most visible characters of the box around the summary and its line. */
const MAX_SUMMARY = 1200

/** The roots without each model-written summary of the reviews and its line. */
export const withoutReviewSummaries = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_DISCLAIMER, (el, text) => {
    if (!DISCLAIMER.test(text.trim())) return false
    el.drop = true
    let line = el
    while (line.parent !== undefined && line.parent.text === el.text && !roots.includes(line.parent)) line = line.parent
    const box = line.parent
    if (box === undefined || roots.includes(box)) return true
    if (box.text <= MAX_SUMMARY && closes(box, line)) {
      box.drop = true
      return true
    }
    // A box that goes on past the summary (the reviews' topics): the summary just before the line
    // (the line may open a box of its own that follows the summary's), and its heading.
    let before = shownBefore(box, line)
    for (let outer = box; before.length === 0 && outer.parent !== undefined && !roots.includes(outer);) {
      before = shownBefore(outer.parent, outer)
      outer = outer.parent
    }
    const summary = before.pop()
    if (summary === undefined || summary.text > MAX_SUMMARY) return true
    summary.drop = true
    const heading = before.pop()
    if (heading !== undefined && heading.text <= MAX_HEADING && holdsHeading(page, heading)) heading.drop = true
    return true
  })
  return roots
}

/** The most visible characters of the summary's heading ("Customers say"). */
const MAX_HEADING = 40

/** The kept children of `box` with text that come before `child`, in order. */
const shownBefore = (box: El, child: El): Array<El> => shownChildren(box).filter((node) => node.order < child.order)

/** Whether `child` is the last kept child of `box` with text (the line closes the box). */
const closes = (box: El, child: El): boolean => shownChildren(box).at(-1) === child
