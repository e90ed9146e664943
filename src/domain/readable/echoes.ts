/**
 * Words written twice in one line, once for the eye and once for screen readers: a shop's label
 * ("Seller's other items") followed, inside the same inline run, by an element that says it again
 * or says it at more length ("See all details" then "See all details on coverage"), which a style
 * sheet clips to nothing on screen. The saved page does not say it is clipped, and the class that
 * does differs from one site to the next; what tells it is the build: the element's text repeats
 * the text written just before it.
 */
import { collapseWhitespace as collapse } from "../Quote.js"
import { type El, type Page, textContent, withoutEach } from "./tree.js"

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
  return withoutEach(page, roots, (el) => el.text > 0 && echo(page, el))
}
