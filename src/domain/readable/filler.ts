/**
 * Text no page is about, whichever part of it scores: a theme's placeholder left on the page
 * ("Lorem ipsum dolor sit amet…", the Latin filler a template shows in a block its owner never
 * filled: a feature column, a tab, a sample list), and a cookie notice ("We use cookies…",
 * "iFixit uses cookies…") whose names do not say it is a banner (`gdpr-banner` is known by its
 * name: content.ts `BANNER`), or that holds most of what a page rendered by scripts shows.
 */
import { eachKept, type El, type Node, type Page } from "./tree.js"

/** The opening words of such a block: the filler, or who uses cookies (one word: "we", a site's name, "this site"). */
const FILLER = /^\s*(?:lorem ipsum\b|(?:we|this (?:site|website)|[\p{L}\p{N}.]+) uses? cookies\b)/iu

/** Whether a block's own first words (in it or in its inline runs) are the filler (`FILLER`). */
const filler = (page: Page, el: El): boolean => {
  if (el.block !== undefined || el.own === 0) return false
  const stack: Array<Node> = [...el.children].reverse()
  while (stack.length > 0) {
    const c = stack.pop()!
    if (typeof c === "number") {
      const text = page.texts.of(c)
      if (text.trim().length > 0) return FILLER.test(text)
    } else if (c.block !== undefined && !c.drop) {
      for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]!)
    }
  }
  return false
}

/** The roots with each block inside them that opens with placeholder text or a cookie notice dropped. */
export const withoutFiller = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (!filler(page, el)) return false
      el.drop = true
      return true
    })
  }
  return roots
}
