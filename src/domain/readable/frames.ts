/**
 * A wide table's frame: themes wrap a table that may scroll sideways in a box named for it
 * (`table-scroll`, `scroll-container`, `scrollbar`), and `scroll` is one of Readability's negative
 * names (a news ticker's). A box so named whose text is almost all a table's it holds (a
 * comparison, a spec sheet) is the table's frame: the cleaning pass (content.ts step 4) reads it
 * without its names; its links and its length are judged as before.
 *
 * A section drawn as the page scrolls: a service page's "scroller" pins a picture while its copy
 * scrolls past it (`scroller`, `scrolling-copy`), and the copy is the page's own text: headings
 * over paragraphs and lists, few links. A box named for scrolling only whose text holds a heading
 * and is almost all unlinked (`scrolledCopy`) is read without its names too, on a page that does
 * not say it shows a product (a shop's scrolled sections show off its app or its features, which
 * the product's copy leaves out). A news ticker's box is its links; a row that scrolls sideways
 * (`overflow-x-auto`, `[scrollbar-width:none]`: cards side by side) is a carousel, not the copy.
 */
import { negativeForScrollOnly } from "./boilerplate.js"
import { isHeading, linkDensity } from "./edges.js"
import { type El, namesOf } from "./tree.js"

/** The least share of the box's text inside its tables. */
const TABLE_SHARE = 0.8

/** The characters inside the tables `el` holds (outermost ones). */
const tableText = (el: El): number => {
  let n = 0
  const stack: Array<El> = [el]
  while (stack.length > 0) {
    const e = stack.pop()!
    for (const k of e.children) {
      if (typeof k === "number" || k.drop) continue
      if (k.name === "table") n += k.text
      else stack.push(k)
    }
  }
  return n
}

/** Whether `el` is a box named for scrolling (and nothing else negative) around a table holding most of its text. */
export const tableFrame = (el: El): boolean =>
  el.text > 0 && negativeForScrollOnly(namesOf(el)) && tableText(el) >= TABLE_SHARE * el.text

/** The most of a scrolled section's text in links. */
const SCROLLED_LINKS = 0.1

/** The least text of a scrolled section. */
const SCROLLED_TEXT = 200

/** The most elements a scrolled section's search for a heading reads (no search is quadratic in nested boxes). */
const HEADING_SEARCH = 200

/** Whether `el` holds a heading (kept) within the first `HEADING_SEARCH` elements of its subtree. */
const headingWithin = (el: El): boolean => {
  const stack: Array<El> = [el]
  let read = 0
  while (stack.length > 0 && read++ < HEADING_SEARCH) {
    const e = stack.pop()!
    for (const k of e.children) {
      if (typeof k === "number" || k.drop) continue
      if (isHeading(k.name)) return true
      stack.push(k)
    }
  }
  return false
}

/** Names of a row that scrolls sideways. */
const SIDEWAYS = /scrollbar|overflow-x|scroll-x|horizontal/i

/** Whether `el` is a box named for scrolling (and nothing else negative) around headed copy with few links. */
export const scrolledCopy = (el: El): boolean => {
  if (el.text < SCROLLED_TEXT || linkDensity(el) > SCROLLED_LINKS) return false
  const names = namesOf(el)
  return negativeForScrollOnly(names) && !SIDEWAYS.test(names) && headingWithin(el)
}
