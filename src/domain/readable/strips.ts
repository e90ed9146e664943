/**
 * Sections of a product page that its heading calls other products: "Similar items", "Customers
 * also bought", "Frequently bought together", "Recommended accessories", "You may also like". A
 * shop names the strip in words the reader sees even where its classes are generated
 * (`sc-3b556a84-1`) and its cards are links or images that no grid rule reads as priced cards; the
 * heading and the block it opens are furniture there, as the strips named by their classes are
 * (content.ts `productNames`). Only on a page that says it shows one product.
 *
 * On a page that states no date and is no discussion, a section whose heading, or label (a short
 * element of text alone: `<span class="caps">Related content</span>`), is only the name of a strip
 * of the site's related pages or posts ("Related services", "Latest insights") is furniture the same way
 * (content.ts `customerReviews`).
 */
import { holdsHeading, isHeading, rankOf } from "./edges.js"
import { eachKept, type El, firstShown, type Page, textContent } from "./tree.js"

/**
 * Headings that name a strip of other products (or other stories beside one product). "Complete",
 * "Shop" or "Get the look" heads a strip of the things a room or an outfit is styled with, each a
 * product of its own (a furniture shop's "Get the look", its cards filled by a script).
 */
const OTHER_PRODUCTS = new RegExp(
  [
    String
      .raw`\b(?:similar|related|recommended|sponsored|suggested)\s+(?:items?|products?|accessories|brands?|stories|articles|searches)\b`,
    String.raw`\balso\s+(?:viewed|bought|purchased|liked?|loved?)\b`,
    String.raw`\bfrequently\s+bought\b`,
    String.raw`\byou\s+(?:may|might)\s+(?:also\s+)?(?:like|love|need|want)\b`,
    String.raw`\b(?:complete|get|shop)\s+the\s+look\b`,
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

/** An element holding only its own text, no element inside it: a section's name styled as a label (`<span class="caps">`). */
const label = (el: El): boolean => el.children.every((c) => typeof c === "number")

/**
 * The elements that make the sections a heading calls other products (`OTHER_PRODUCTS`): the
 * largest block the heading opens (its first text, under `MAX_SHARE` of the page's text), or, when
 * the heading sits among its section's blocks, the heading and the siblings after it up to the
 * next heading of its level or above.
 */
export const otherProductSections = (page: Page, aboveTitle = false): Array<El> =>
  headedSections(page, OTHER_PRODUCTS, false, aboveTitle)

/**
 * Headings that are only the name of a strip of the site's other pages: "Related services",
 * "Related content", "Related resources", or of its latest posts: "Latest insights", "Featured
 * insights", "From our blog". A service page closes with such a strip of cards, each a link to
 * another of the firm's pages with its line of pitch; the heading says what it is.
 */
const RELATED_PAGES =
  /^\s*(?:related\s+(?:services|solutions|content|resources|insights|posts|articles|reading|topics|pages|links)|(?:latest|featured|recent)\s+(?:insights|posts|articles|news|stories)|from\s+(?:our|the)\s+blog)\s*:?\s*$/i

/** The sections a heading names as the site's related pages (`RELATED_PAGES`), found as `otherProductSections` finds its own. */
export const relatedPageSections = (page: Page): Array<El> => headedSections(page, RELATED_PAGES, true)

/**
 * With `aboveTitle` (a page that shows one product), a heading above the page's first-level
 * heading counts too, when there is one, if it opens a box holding more than itself: a strip of
 * other products set above the product's own title ("People who viewed this item also viewed"
 * over a carousel, before the item's `h1`) is no part of the product's text, which starts at its
 * title. Its box never takes in the box that holds the title (the product's own wrapper). Product
 * groups (a collection's grid) are left out by the caller.
 */
const headedSections = (page: Page, names: RegExp, labels = false, aboveTitle = false): Array<El> => {
  const out: Array<El> = []
  const cap = MAX_SHARE * page.root.text
  let titled = false
  let title: El | undefined
  let before = 0
  const headings: Array<El> = []
  const above: Array<El> = []
  eachKept(page.all, page.root.order, page.root.end, (el) => {
    if (el.name === "a") return true
    if (el.name === "h1" && el.text > 0 && !titled) {
      titled = true
      title = el
    }
    if (titled) before += el.selfText
    if (
      aboveTitle && !titled && isHeading(el.name) && el.text > 0 && el.text <= MAX_NAME &&
      names.test(textContent(page.texts, el))
    ) above.push(el)
    if (
      before >= MIN_BEFORE && (isHeading(el.name) || (labels && label(el))) && el.text > 0 && el.text <= MAX_NAME &&
      names.test(textContent(page.texts, el))
    ) headings.push(el)
    return false
  })
  for (const el of titled ? headings.concat(above) : headings) {
    let section = el
    const aboveIt = above.includes(el)
    for (let p = el.parent; p !== undefined; p = p.parent) {
      if (p.name === "body" || p.name === "main" || p.text > cap || firstShown(p) !== section) break
      // A strip above the title never takes in the box that holds the title (the product's own wrapper).
      if (aboveIt && title !== undefined && p.order < title.order && title.order < p.end) break
      section = p
    }
    // A label alone is no section: only the block it opens is.
    if (section === el && !isHeading(el.name)) continue
    // Above the title, only a box opened by the heading and holding more (the strip's cards) is
    // read as a strip: a heading alone in its box says nothing of what follows it.
    if (aboveIt && (section === el || section.text <= el.text)) continue
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
