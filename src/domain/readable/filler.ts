/**
 * A theme's placeholder text left on the page: "Lorem ipsum dolor sit amet…", the Latin filler a
 * template shows in a block its owner never filled (a feature column, a tab, a sample list). It
 * says nothing of the page, whichever part of it scores.
 */
import { eachKept, type El, type Node, type Page } from "./tree.js"

const FILLER = /^\s*lorem ipsum\b/i

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

/** The roots with each block inside them that opens with placeholder text dropped. */
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
