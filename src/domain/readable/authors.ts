/**
 * The author's box under an article: a short block that names the page's author (meta.ts: the
 * `author` the page declares), says who they are in a sentence or two, and links to the author's
 * page ("See full bio", "More from …"). It describes the writer, not the subject; the readable
 * copy leaves it out (`withoutAuthorBox`), with the boxes built the same way beside it that link to
 * an author's page too (a second author's, the reviewer's). A byline (the name, a date, no
 * sentences) is not one.
 */
import { collapseWhitespace as collapse } from "../Quote.js"
import { shapeOf } from "./cards.js"
import { isHeading } from "./edges.js"
import type { PageMeta } from "./meta.js"
import { collapsedText, eachKept, type El, type Page, textContent } from "./tree.js"

/** The most characters an author's box holds. */
const MAX_BOX = 1200
/** The least characters outside links the box holds: a sentence or two about the author. */
const MIN_BIO = 100
/** How far into the box's text (after a heading over it) the author's name must begin. */
const NAME_WITHIN = 3

/** A link to an author's page: `/author/name`, `/authors/name`, `/contributors/name`, `/people/name`. */
const AUTHOR_PAGE = /\/(?:authors?|contributors?|writers?|people|staff)\/[^/?#]/i

const BOXES = new Set(["div", "section", "aside", "footer", "li"])

/**
 * Whether a subtree holds a link to an author's page, shown or not (the cleaning pass may have
 * dropped a short row of links under the bio: the page built the box with it all the same).
 */
const linksAuthor = (page: Page, el: El): boolean => {
  for (let i = el.order; i < el.end; i++) {
    const d = page.all[i]!
    if (d.name === "a" && AUTHOR_PAGE.test(d.attribs.href ?? "")) return true
  }
  return false
}

/** The box's text after a heading that opens it ("About the author"), whitespace collapsed. */
const textAfterHeading = (page: Page, el: El): string => {
  let skip = ""
  eachKept(page.all, el.order + 1, el.end, (d) => {
    if (skip.length === 0 && isHeading(d.name) && d.text > 0) skip = textContent(page.texts, d, true, true)
    return true
  })
  const text = collapsedText(page, el)
  const head = collapse(skip).trim()
  return head.length > 0 && text.startsWith(head) ? text.slice(head.length).trim() : text
}

/**
 * The boxes beside an author's box built the same way (tag and first class name) that link to an
 * author's page: a second author's, the reviewer's ("About the reviewer"). Left out with it.
 */
const fellowBoxes = (page: Page, box: El): void => {
  const parent = box.parent
  if (parent === undefined) return
  for (const c of parent.children) {
    if (typeof c === "number" || c === box || c.drop || c.name !== box.name || shapeOf(c) !== shapeOf(box)) continue
    if (c.text <= MAX_BOX && c.text - c.link >= MIN_BIO && linksAuthor(page, c)) c.drop = true
  }
}

/**
 * The roots without the author's box: the outermost block (`BOXES`) of at most `MAX_BOX`
 * characters, `MIN_BIO` of them outside links, that links to an author's page and whose text
 * (after a heading over it) begins with the name the page gives as its author.
 */
export const withoutAuthorBox = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: Partial<Pick<PageMeta, "author">> = {}
): ReadonlyArray<El> => {
  const author = says.author === undefined ? undefined : collapse(says.author).trim().toLowerCase()
  if (author === undefined || author.length < 3) return roots
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text > MAX_BOX || !BOXES.has(el.name)) return false
      if (el.text - el.link < MIN_BIO) return true
      const at = textAfterHeading(page, el).toLowerCase().indexOf(author)
      if (at < 0 || at > NAME_WITHIN || !linksAuthor(page, el)) return false
      el.drop = true
      fellowBoxes(page, el)
      return true
    })
  }
  return roots
}
