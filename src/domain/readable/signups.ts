/**
 * A sign-up box inside the content: a heading or a line that asks the reader to subscribe ("Stay in
 * the loop", "Get the latest in your inbox") over a form whose field is an email address. Themes
 * put it under or inside an article; it is a form to fill, not the page's text
 * (`withoutSignUps`). The form's controls are dropped by their tags; its words stayed. On a page
 * that says when it was published or who wrote it (an article), any such box; on any other page
 * only a box whose words name a newsletter or an inbox (a listing's or a shop's own form may be
 * what its page offers: "email me jobs like these"). Only after half of the content (a hero's
 * "start with your email" opens a page), and never in one of a group of cards (a product card's
 * "notify me" field).
 */
import { siblingsOfShape } from "./cards.js"
import type { PageMeta } from "./meta.js"
import { collapsedText, eachKept, type El, type Page } from "./tree.js"

/** The most characters a sign-up box shows: a heading, a line or two, a button's label. */
const MAX_BOX = 400

/** The least share of the content's text before a sign-up box: it closes the content, it does not open it. */
const AFTER = 0.5

/** The characters shown in `root` before `el` begins. */
const textBefore = (page: Page, root: El, el: El): number => {
  let n = 0
  eachKept(page.all, root.order + 1, el.order, (d) => {
    if (d.end > el.order) return false
    n += d.text
    return true
  })
  return n
}

/**
 * Words of a box that say its form sends news by email: on a page that says neither when it was
 * published nor who wrote it, only such a box is read as a sign-up box.
 */
const SENDS_NEWS = /\bnewsletters?\b|\binbox\b/i

/** Whether an element is a field for an email address. */
const emailField = (el: El): boolean => el.name === "input" && (el.attribs.type ?? "").toLowerCase() === "email"

/**
 * The roots with each sign-up box left out: from each email field inside them, the largest of its
 * ancestors (below the root) that shows at most `MAX_BOX` characters, when at least `AFTER` of the
 * root's text comes before it and it is no card, on a page that says when it was published or who
 * wrote it, or else whose words name a newsletter or an inbox.
 */
export const withoutSignUps = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: Partial<Pick<PageMeta, "published" | "author">> = {}
): ReadonlyArray<El> => {
  const undated = says.published === undefined && says.author === undefined
  for (const root of roots) {
    for (let i = root.order + 1; i < root.end; i++) {
      if (!emailField(page.all[i]!)) continue
      let box: El | undefined
      for (let up = page.all[i]!.parent; up !== undefined && up !== root && up.text <= MAX_BOX; up = up.parent) {
        box = up
      }
      if (box === undefined || box.text === 0 || textBefore(page, root, box) < AFTER * root.text) continue
      if (undated && !SENDS_NEWS.test(collapsedText(page, box))) continue
      // One of a group of cards (a product's "notify me" field) is the card's, not a sign-up box.
      if (box.parent !== undefined && siblingsOfShape(box.parent, box, 1) !== undefined) continue
      box.drop = true
    }
  }
  return roots
}
