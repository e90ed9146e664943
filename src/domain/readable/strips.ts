/**
 * Sections of a product page that its heading calls other products: "Similar items", "Customers
 * also bought", "Frequently bought together", "Recommended accessories", "You may also like". A
 * shop names the strip in words the reader sees even where its classes are generated
 * (`sc-3b556a84-1`) and its cards are links or images that no grid rule reads as priced cards; the
 * heading and the block it opens are furniture there, as the strips named by their classes are
 * (content.ts `productNames`). Only on a page that says it shows one product.
 */
import { isHeading, rankOf } from "./edges.js"
import { eachKept, type El, type Page, textContent } from "./tree.js"

/** Headings that name a strip of other products (or other stories beside one product). */
const OTHER_PRODUCTS = new RegExp(
  [
    String
      .raw`\b(?:similar|related|recommended|sponsored|suggested)\s+(?:items?|products?|accessories|brands?|stories|articles|searches)\b`,
    String.raw`\balso\s+(?:viewed|bought|purchased|liked?|loved?)\b`,
    String.raw`\bfrequently\s+bought\b`,
    String.raw`\byou\s+(?:may|might)\s+(?:also\s+)?(?:like|love|need|want)\b`,
    String.raw`\bcomplete\s+the\s+look\b`,
    String.raw`\bpairs?\s+(?:well|perfectly)\s+with\b`,
    String.raw`\brecently\s+viewed\b`
  ].join("|"),
  "i"
)

/** The longest heading read as a strip's name (a longer one is a sentence of the description). */
const MAX_NAME = 80
/** The largest share of the page's text the section of such a heading may hold. */
const MAX_SHARE = 0.25
/** The least text outside links after the page's first-level heading and before the strip's heading (the product's own). */
const MIN_BEFORE = 200

/** The first child of `el` with visible text, if an element. */
const firstShown = (el: El): El | undefined => {
  for (const c of el.children) {
    if (typeof c === "number") continue
    if (!c.drop && c.text > 0) return c
  }
  return undefined
}

const holdsHeading = (page: Page, el: El, level: number): boolean => {
  for (let i = el.order; i < el.end; i++) {
    const d = page.all[i]!
    if (!d.drop && isHeading(d.name) && rankOf(d) <= level) return true
  }
  return false
}

/**
 * The elements that make the sections a heading calls other products (`OTHER_PRODUCTS`): the
 * largest block the heading opens (its first text, under `MAX_SHARE` of the page's text), or, when
 * the heading sits among its section's blocks, the heading and the siblings after it up to the
 * next heading of its level or above.
 */
export const otherProductSections = (page: Page): Array<El> => {
  const out: Array<El> = []
  const cap = MAX_SHARE * page.root.text
  let titled = false
  let before = 0
  const headings: Array<El> = []
  eachKept(page.all, page.root.order, page.root.end, (el) => {
    if (el.name === "a") return true
    if (el.name === "h1" && el.text > 0) titled = true
    if (titled) before += el.selfText
    if (
      before >= MIN_BEFORE && isHeading(el.name) && el.text > 0 && el.text <= MAX_NAME &&
      OTHER_PRODUCTS.test(textContent(page.texts, el))
    ) headings.push(el)
    return false
  })
  for (const el of headings) {
    let section = el
    for (let p = el.parent; p !== undefined; p = p.parent) {
      if (p.name === "body" || p.name === "main" || p.text > cap || firstShown(p) !== section) break
      section = p
    }
    out.push(section)
    if (section !== el || el.parent === undefined) continue
    const level = rankOf(el)
    const kids = el.parent.children
    for (let i = kids.indexOf(el) + 1; i < kids.length; i++) {
      const k = kids[i]!
      if (typeof k === "number" || k.drop) continue
      if (holdsHeading(page, k, level)) break
      out.push(k)
    }
  }
  return out
}
