/**
 * Skip links: the first links of an accessible page ("Skip to content", "Skip to main content",
 * "Skip to search results") jump past its menus to an anchor further down. A style sheet keeps
 * them off the screen until a keyboard reaches them, which the copy does not read, and themes
 * that do not name them (`skip-link`: content.ts `BANNER`) leave them in the copy's first line.
 * A link to an anchor (its address holds a `#`) whose short text says "skip to" is left out.
 */
import { eachKept, type El, type Page, textContent } from "./tree.js"

/** A skip link's words. */
const SKIP = /^\s*skip\s+(?:to|navigation)\b/i

/** The most text of a skip link ("Skip to main content and primary navigation"). */
const MAX_SKIP = 60

/** The roots without each link to an anchor whose text says "skip to" (`SKIP`). */
export const withoutSkipLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      const href = el.attribs.href
      if (href !== undefined && href.includes("#") && el.text <= MAX_SKIP && SKIP.test(textContent(page.texts, el))) {
        el.drop = true
      }
      return true
    })
  }
  return roots
}
