/**
 * A roundup's items titled by a link: a news site's list of the month's deals sets each as a
 * paragraph all one link to the source ("Examplecorp acquires Samplesoft") over a paragraph of prose
 * that tells it ("Identity solutions provider Examplecorp has bought … Samplesoft."). The cleaning
 * drops a short paragraph that is all links as a pointer elsewhere ("Read also: …"); a title is
 * the item's name, and its prose says it again. A paragraph all one link, ending as no sentence,
 * right over a paragraph of prose (`MIN_PROSE` characters, under a fifth of it linked) that holds
 * most of its longer words (`SHARED`, words of `MIN_WORD` letters or more, two at least), beside
 * at least `MIN_ITEMS - 1` siblings built the same way, is such a title and stays
 * (`titleOverItem`). A pointer's title names another page and its words are not the next
 * paragraph's. A gallery of other posts ("the projects of my friends") sets each as a paragraph
 * holding only a picture linked to the post, over a short paragraph all one link to the same
 * address naming it: that name stays too (`captions`), `MIN_ITEMS` such under one parent.
 */
import { collapsedText, type El, endsAsSentence, type Page, shownChildren, wordsOf } from "./tree.js"

/** The fewest titled items under one parent. */
const MIN_ITEMS = 3
/** The least prose of the item under its title. */
const MIN_PROSE = 80
/** The least share of the title's longer words the item's prose holds. */
const SHARED = 0.6
/** The fewest letters of a word counted. */
const MIN_WORD = 4
/** The longest linked name under a picture. */
const MAX_CAPTION = 80

/** Whether `el`, a paragraph all one link, titles `next`, the paragraph of prose right after it. */
const titles = (page: Page, el: El, next: El | undefined): boolean => {
  if (el.name !== "p" || el.text === 0 || el.link < el.text) return false
  if (next === undefined || next.name !== "p" || next.prose < MIN_PROSE || next.link >= 0.2 * next.text) return false
  const text = collapsedText(page, el)
  if (endsAsSentence(text)) return false
  const words = wordsOf(text).filter((w) => w.length >= MIN_WORD)
  if (words.length < 2) return false
  const after = new Set(wordsOf(collapsedText(page, next)))
  return words.filter((w) => after.has(w)).length >= SHARED * words.length
}

/** The one address `el`'s links go to, if they all go to one. */
const onlyHref = (page: Page, el: El): string | undefined => {
  const hrefs = new Set<string>()
  for (let i = el.order + 1; i < el.end; i++) {
    const a = page.all[i]!
    if (a.name === "a") hrefs.add((a.attribs.href ?? "").trim())
  }
  const [href] = hrefs
  return hrefs.size === 1 && href !== undefined && href.length > 0 && !href.startsWith("#") ? href : undefined
}

/**
 * Whether `el`, a short paragraph all one link, names the picture right before it (`before`: a
 * paragraph of no text holding a picture linked to the same address): a gallery of other posts
 * ("the projects of my friends") each a linked picture over its linked name.
 */
const captions = (page: Page, el: El, before: El): boolean => {
  if (el.name !== "p" || before.name !== "p" || el.text === 0 || el.link < el.text || before.text > 0) return false
  if (el.text > MAX_CAPTION) return false
  const href = onlyHref(page, el)
  if (href === undefined || onlyHref(page, before) !== href) return false
  for (let i = before.order + 1; i < before.end; i++) if (page.all[i]!.name === "img") return true
  return false
}

/** The titles among a parent's children (`titles`), read once in one pass. */
const titledIn = new WeakMap<El, ReadonlySet<El>>()

const titlesOf = (page: Page, parent: El): ReadonlySet<El> => {
  const known = titledIn.get(parent)
  if (known !== undefined) return known
  const shown = shownChildren(parent)
  const found = new Set<El>()
  for (let i = 0; i + 1 < shown.length; i++) if (titles(page, shown[i]!, shown[i + 1])) found.add(shown[i]!)
  let before: El | undefined
  for (const c of parent.children) {
    if (typeof c === "number" || c.drop) continue
    if (before !== undefined && captions(page, c, before)) found.add(c)
    before = c
  }
  titledIn.set(parent, found)
  return found
}

/** Whether `el` is a roundup item's linked title (`titles`), with enough siblings titled the same way. */
export const titleOverItem = (page: Page, el: El): boolean => {
  const parent = el.parent
  if (parent === undefined || el.name !== "p" || el.link < el.text) return false
  const found = titlesOf(page, parent)
  return found.size >= MIN_ITEMS && found.has(el)
}
