/**
 * Words written twice in one line, once for the eye and once for screen readers: a shop's label
 * ("Seller's other items") followed, inside the same inline run, by an element that says it again
 * or says it at more length ("See all details" then "See all details on coverage"), which a style
 * sheet clips to nothing on screen. The saved page does not say it is clipped, and the class that
 * does differs from one site to the next; what tells it is the build: the element's text repeats
 * the text written just before it. A shop theme's title written again under the page's `h1` as a
 * link to the page itself is left out too (`withoutTitleLinks`).
 */
import { collapseWhitespace as collapse } from "../Quote.js"
import { collapsedText, eachKept, type El, nextSibling, type Page, textContent } from "./tree.js"

/** The fewest characters of a label whose echo is left out (a price's "$" or a "/" repeat by chance). */
const MIN_ECHOED = 4

const words = (s: string): string => collapse(s).trim().toLowerCase()

/**
 * Whether a `span` with a class (the class a style sheet clips it by), inline and with no element
 * inside it, repeats the text written just before it in its parent: the same words, or those words
 * and more. Not a link nor emphasis: prose may say a word twice ("night, <em>night</em>").
 */
const echo = (page: Page, el: El): boolean => {
  const parent = el.parent
  if (el.name !== "span" || el.attribs.class === undefined || el.block === undefined || parent === undefined) {
    return false
  }
  if (el.children.some((c) => typeof c !== "number")) return false
  const at = parent.children.indexOf(el)
  let before = ""
  for (let i = at - 1; i >= 0 && before.length === 0; i--) {
    const c = parent.children[i]!
    if (typeof c !== "number") return false
    before = words(page.texts.of(c))
  }
  if (before.length < MIN_ECHOED) return false
  const mine = words(textContent(page.texts, el))
  return mine === before || mine.startsWith(`${before} `)
}

/** The roots with each inline element that echoes the text before it (`echo`) left out. */
export const withoutEchoes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text === 0 || !echo(page, el)) return false
      el.drop = true
      return true
    })
  }
  return roots
}

/** An address's host and path (no `www.`, no query, fragment or closing `/`), read against `base`. */
const placeOf = (href: string, base: string): string | undefined => {
  try {
    const url = new URL(href, base)
    return `${url.hostname.toLowerCase().replace(/^www\./, "")}${url.pathname.replace(/\/+$/, "")}`
  } catch {
    return undefined
  }
}

/**
 * The roots without the link to the page itself that says its title again right after it: a shop
 * theme writes the product's title as the page's `h1` and, beside it, as a heading inside a link to
 * the product (`<h1>Steel kettle</h1><a href="/products/steel-kettle"><h2>Steel kettle</h2></a>`), the
 * second for its quick-view window, which its style sheet hides on the product's own page. The copy
 * wrote the title twice, the second as a link. An `a` that is the `h1`'s next sibling, whose text is
 * the title's and whose address is the page's own, is left out.
 */
export const withoutTitleLinks = (page: Page, roots: ReadonlyArray<El>, pageUrl: string): ReadonlyArray<El> => {
  const here = placeOf(pageUrl, pageUrl)
  if (here === undefined) return roots
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.name !== "h1") return false
      const next = nextSibling(page, el)
      if (next === undefined || next.name !== "a" || next.drop || next.text === 0) return true
      const title = words(collapsedText(page, el))
      if (
        title.length > 0 && words(collapsedText(page, next)) === title &&
        placeOf(next.attribs.href ?? "", pageUrl) === here
      ) {
        next.drop = true
      }
      return true
    })
  }
  return roots
}
