/**
 * A product's short rows of facts. The cleaning of the chosen content (content.ts, step 4) drops a
 * block shorter than a paragraph that holds no heading ("Sold out", "Loading...", a button's
 * label); a shop writes each fact of its product as such a block: a label and its value side by
 * side ("Designer" / "Ines Berg", "Weight" / "3 kg"), which a reader reads as the product's
 * details. On a page that says it shows one product (meta.ts), a block made of two elements of
 * text and no link is such a row and stays, and so do its two sides when each is a block; a
 * description list of one term and its value stays with the boxes that wrap it and its two sides.
 */
import { collapsedText, type El, endsAsSentence, MIN_PARAGRAPH, type Page } from "./tree.js"

/** Whether a block is a label and its value: two elements of text (not dropped), nothing else of text, no link. */
export const factRow = (el: El): boolean => {
  if (el.link > 0) return false
  let parts = 0
  for (const c of el.children) {
    if (typeof c === "number" || c.drop || c.text === 0) continue
    if (++parts > 2) return false
  }
  return parts === 2
}

/**
 * Whether a short block is one side of such a row: a row shorter than a paragraph whose two
 * parts are blocks of their own (`<div><div>Diameter</div><div>24 in</div></div>`), each of
 * which the cleaning judges, and would drop, after keeping the row.
 */
export const factPart = (el: El): boolean =>
  el.link === 0 && el.parent !== undefined && el.parent.text < MIN_PARAGRAPH && factRow(el.parent)

/** How many boxes, each holding nothing else of text, may wrap a description list's pair (`wrappedFactRow`, `wrappedFactPart`). */
const WRAP_LEVELS = 2

/** The one element of text `box` holds (kept, no other beside it, no loose text), if it holds just one. */
const onlyPart = (box: El): El | undefined => {
  let only: El | undefined
  for (const c of box.children) {
    if (typeof c === "number" || c.drop || c.text === 0) continue
    if (only !== undefined) return undefined
    only = c
  }
  return only !== undefined && only.text === box.text ? only : undefined
}

/**
 * Whether a block holds nothing of text but a description list of one term and its value (a `dl`
 * that is a row of facts), inside up to `WRAP_LEVELS` boxes: a marketplace's grid of item
 * specifics puts each `dl` ("Certification" / "Uncertified") alone in a column's box, which the
 * cleaning judges, and would drop, before the list.
 */
export const wrappedFactRow = (el: El): boolean => {
  let box = el
  for (let level = 0; level <= WRAP_LEVELS && box.link === 0; level++) {
    const only = onlyPart(box)
    if (only === undefined) return false
    if (factRow(only)) return only.name === "dl"
    box = only
  }
  return false
}

/**
 * Whether a short block is all that the term or the value of such a description list holds,
 * inside up to `WRAP_LEVELS` boxes (`<dd><div><span>Uncertified</span></div></dd>`): the pair's
 * own text, which the cleaning judges box by box after keeping the `dd`.
 */
export const wrappedFactPart = (el: El): boolean => {
  let box = el
  for (let level = 0; level <= WRAP_LEVELS && box.parent !== undefined && box.link === 0; level++) {
    if (factPart(box)) return level > 0 && box.parent.name === "dl"
    if (onlyPart(box.parent) !== box) return false
    box = box.parent
  }
  return false
}

/**
 * Whether a short block titles the paragraph beside it: a page builder writes a feature's title as
 * a block of text, not a heading (`<div><div>Glide without limits</div><div>From rain to …
 * smoothly.</div></div>`). The block is the first of its parent's two parts (the row of facts'
 * shape, no link), does not end a sentence itself, and the other part is a paragraph that does.
 */
export const titlePart = (page: Page, el: El): boolean => {
  const parent = el.parent
  if (el.link > 0 || parent === undefined || !factRow(parent)) return false
  let first = true
  for (const c of parent.children) {
    if (typeof c === "number" || c.drop || c.text === 0) continue
    if (first) {
      if (c !== el) return false
      first = false
    } else {
      return c.text >= MIN_PARAGRAPH && endsAsSentence(collapsedText(page, c)) &&
        !/[.!?:]$/.test(collapsedText(page, el))
    }
  }
  return false
}
