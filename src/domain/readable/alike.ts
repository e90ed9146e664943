/**
 * A listing's entry shaped like the entries beside it: a magazine's category page features an
 * entry in a wider column (`col-md-8` beside the others' `col-md-4`), built inside as every other
 * entry is (a picture, a linked title in a heading, a summary). The cleaning pass (content.ts,
 * step 4) drops a short block with more than a fifth of its text in links; the entries with a
 * summary of three sentences stay, the featured one with a summary of one line was dropped,
 * though it is the same kind of block. A block the cleaning would drop for its figures, holding a
 * heading linked whole (an entry's title), is kept whole when three siblings of its tag, each
 * with another class than its own, are built the same way inside (the same elements with the
 * same classes, in the same order) and are kept by the cleaning: it is one of the page's entries,
 * set apart. A block sharing its class with a sibling is left to the figures (a carousel's short
 * review among long ones, a strip of teasers is judged as it was), and so is a run of blocks the
 * cleaning drops every one of.
 *
 * `shortAmongKept`: a block the cleaning would drop only for being shorter than a paragraph, with
 * no link, is read with its siblings of its own tag and class when three or more of them are kept
 * (a product page's questions, each in an item of its own with its answer folded away: the one
 * short question among the longer ones went alone).
 */
import { isHeading } from "./edges.js"
import type { El, Page } from "./tree.js"

/** The most elements of a block read for its shape: a card's few parts, not a section's many. */
const MAX_SHAPE = 40

/** The fewest siblings built alike that the cleaning keeps: a run of entries, not a pair. */
const MIN_ALIKE = 3

/** The most children of its parent read beside a block (texts and elements): a listing's page of entries. */
const MAX_SIBLINGS = 200

/**
 * How `el` is built inside: the elements that show text, as tag and whole class, in document order
 * (`undefined` past `MAX_SHAPE`); not cards.ts `shapeOf`, a sibling's own tag and first class.
 */
const innerShape = (page: Page, el: El): string | undefined => {
  const parts: Array<string> = []
  for (let i = el.order + 1; i < el.end;) {
    const d = page.all[i]!
    if (d.drop || d.text === 0) {
      i = d.end
      continue
    }
    if (parts.length === MAX_SHAPE) return undefined
    parts.push(`${d.name}.${d.attribs.class ?? ""}`)
    i++
  }
  return parts.length === 0 ? undefined : parts.join(" ")
}

/** Whether `el` holds a heading whose text is a link: an entry's title. */
const linkedTitle = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (!d.drop && isHeading(d.name) && d.text > 0 && d.link === d.text) return true
  }
  return false
}

/**
 * Whether `el` has a sibling of its tag built the same way inside that `kept` says the cleaning
 * keeps: one of a run of entries, its own figures aside.
 */
export const likeKeptSibling = (page: Page, el: El, kept: (sibling: El) => boolean): boolean => {
  const parent = el.parent
  if (parent === undefined || !linkedTitle(page, el)) return false
  let shape: string | undefined | null = null
  let alike = 0
  let read = 0
  for (const s of parent.children) {
    // A bounded look: a page of thousands of siblings is not read once per sibling.
    if (++read > MAX_SIBLINGS) return false
    if (typeof s === "number" || s === el || s.drop || s.name !== el.name || s.text === 0) continue
    // An entry set apart by its own class (a wider column): one of a group's cards is judged with the group (cards.ts).
    if (s.attribs.class === el.attribs.class) return false
    if (shape === null) shape = innerShape(page, el)
    if (shape === undefined) return false
    if (innerShape(page, s) === shape && kept(s) && ++alike === MIN_ALIKE) return true
  }
  return false
}

/** The fewest siblings built alike that the cleaning keeps for `shortAmongKept`. */
const MIN_KEPT_ALIKE = 3

/**
 * Whether a short block with no link is one of a run of siblings of its tag and class of which
 * `kept` says the cleaning keeps `MIN_KEPT_ALIKE` or more: an item of a list of questions ("Q: Can
 * I track my order?") shorter than a paragraph where the others are longer, read with them.
 */
export const shortAmongKept = (el: El, kept: (sibling: El) => boolean): boolean => {
  const parent = el.parent
  if (parent === undefined || el.link > 0 || el.attribs.class === undefined) return false
  let alike = 0
  let read = 0
  for (const s of parent.children) {
    if (++read > MAX_SIBLINGS) return false
    if (typeof s === "number" || s === el || s.drop || s.text === 0) continue
    if (s.name !== el.name || s.attribs.class !== el.attribs.class || s.link > 0) continue
    if (kept(s) && ++alike === MIN_KEPT_ALIKE) return true
  }
  return false
}
