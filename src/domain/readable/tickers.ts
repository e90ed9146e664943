/**
 * A ticker's copies: a marquee that scrolls a phrase across the screen ("Book Now * Book Now *",
 * an announcement bar, a strip of clients' names) is built as the same element written again and
 * again side by side, so that the strip loops without a gap; a reader sees the phrase go by, the
 * copy wrote it a hundred times. What tells it is the build, not a class name: sibling elements in a
 * row whose text is the same. The first is kept, the copies after it are left out. Table cells are
 * not: a comparison table writes "Yes" in a row for each plan.
 */
import { collapseWhitespace as collapse } from "../Quote.js"
import { eachKept, type El, type Page, textContent } from "./tree.js"

/** The fewest siblings of the same text in a row that make a ticker: two may be a phrase said twice. */
const MIN_COPIES = 3

/** The fewest characters of the phrase (a price's "$" or a separator repeat by chance). */
const MIN_PHRASE = 4

/** The most characters of the phrase: a paragraph written in each of a page's tabs is no ticker. */
const MAX_PHRASE = 80

/** Elements whose siblings may hold the same text in their own right: a table's cells and rows. */
const CELLS = new Set(["td", "th", "tr", "tbody", "thead", "col", "option"])

/**
 * The phrase an element shows, with the addresses it links to (two entries of a listing may read
 * the same and link to two pages), or "" when it is too short or too long to be a ticker's.
 */
const phraseOf = (page: Page, el: El): string => {
  if (CELLS.has(el.name) || el.text === 0) return ""
  const text = collapse(textContent(page.texts, el)).trim().toLowerCase()
  if (text.length < MIN_PHRASE || text.length > MAX_PHRASE) return ""
  let links = ""
  for (let i = el.order; i < el.end; i++) {
    const href = page.all[i]!.name === "a" ? page.all[i]!.attribs.href : undefined
    if (href !== undefined) links += ` ${href}`
  }
  return `${text}${links}`
}

/** Whether `parent` holds words of its own beside its elements: a sentence, whose words are never a ticker's copies. */
const holdsOwnText = (page: Page, parent: El): boolean =>
  parent.children.some((c) => typeof c === "number" && page.texts.of(c).trim().length > 0)

/**
 * Leave out the copies after the first of each run of `MIN_COPIES` or more kept siblings of one
 * text under `parent`; not in a sentence ("the <em>river</em> <em>river</em> <em>river</em> rose"
 * says its words as written, and a quote of it must still be found).
 */
const dropCopies = (page: Page, parent: El): boolean => {
  if (holdsOwnText(page, parent)) return false
  let dropped = false
  let run: Array<El> = []
  let phrase = ""
  const close = () => {
    if (run.length >= MIN_COPIES) {
      for (const el of run.slice(1)) el.drop = true
      dropped = true
    }
  }
  for (const c of parent.children) {
    if (typeof c === "number") {
      if (page.texts.of(c).trim().length === 0) continue
      close()
      run = []
      phrase = ""
      continue
    }
    if (c.drop) continue
    const text = phraseOf(page, c)
    if (text.length > 0 && text === phrase) {
      run.push(c)
      continue
    }
    close()
    run = text.length > 0 ? [c] : []
    phrase = text
  }
  close()
  return dropped
}

/** The roots with the copies of each ticker's phrase after the first left out. */
export const withoutTickerCopies = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.children.length < MIN_COPIES) return false
      dropCopies(page, el)
      return false
    })
  }
  return roots
}
