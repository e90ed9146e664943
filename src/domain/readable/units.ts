/**
 * A measure written in both unit systems: a map's or a recipe's site writes each length, height or
 * weight twice, side by side, once in a box named `imperial` and once in a box named `metric`, and
 * a style sheet shows one of them at a time (the reader's setting). The copy read both ("9.4 mi
 * 15.2 km"), so every measure stood twice. Where an element named for one system comes right
 * after a sibling named for the other (whitespace between them at most), the second is left out
 * (`withoutSecondUnits`): the page's first-written system is the one it shows by default.
 */
import { eachKept, type El, type Page } from "./tree.js"

/** A unit system's name among an element's classes. */
const SYSTEM = /(?:^|\s)(metric|imperial)(?:\s|$)/i
/** The longest measure (visible characters): a value and its unit, not a paragraph. */
const MAX_MEASURE = 40

const systemOf = (el: El): string | undefined => SYSTEM.exec(el.attribs.class ?? "")?.[1]?.toLowerCase()

/** The roots without the second of each pair of sibling measures named for the two unit systems. */
export const withoutSecondUnits = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      const system = systemOf(el)
      if (system === undefined || el.text > MAX_MEASURE || el.parent === undefined) return false
      const siblings = el.parent.children
      const at = siblings.indexOf(el)
      for (let i = at - 1; i >= 0; i--) {
        const c = siblings[i]!
        if (typeof c === "number") {
          if (page.texts.of(c).trim().length > 0) break
          continue
        }
        if (c.drop) continue
        const other = systemOf(c)
        if (other !== undefined && other !== system && c.text <= MAX_MEASURE) el.drop = true
        break
      }
      return true
    })
  }
  return roots
}
