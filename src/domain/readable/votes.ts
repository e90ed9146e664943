/**
 * A post's vote count: a question-and-answer thread shows beside each post a block holding only a
 * number (its score between the up and down arrows, the arrows being buttons the copy drops). It
 * counts the readers' clicks, it is not what anyone wrote; on a page that says it is a discussion
 * (meta.ts) such a block is left out (`withoutVoteCounts`).
 */
import type { PageMeta } from "./meta.js"
import { eachKept, type El, type Page, textContent } from "./tree.js"

/** A number alone: a score, signed or not, with thousands written as `1.2k`. */
const COUNT = /^\s*[-+\u2212]?\d[\d,.]*\s*k?\s*$/i

/** The roots without the blocks, on a discussion's page, whose whole text is one number. */
export const withoutVoteCounts = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: Partial<Pick<PageMeta, "discussion">> = {}
): ReadonlyArray<El> => {
  if (says.discussion !== true) return roots
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.block !== undefined || el.text === 0 || el.text > 8 || el.link > 0) return false
      if (!COUNT.test(textContent(page.texts, el, true, true))) return false
      el.drop = true
      return true
    })
  }
  return roots
}
