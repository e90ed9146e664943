/**
 * A product's short rows of facts. The cleaning of the chosen content (content.ts, step 4) drops a
 * block shorter than a paragraph that holds no heading ("Sold out", "Loading...", a button's
 * label); a shop writes each fact of its product as such a block: a label and its value side by
 * side ("Designer" / "Ines Berg", "Weight" / "3 kg"), which a reader reads as the product's
 * details. On a page that says it shows one product (meta.ts), a block made of two elements of
 * text and no link is such a row and stays, and so do its two sides when each is a block.
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
