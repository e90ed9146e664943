/**
 * A product's description tab. A shop's product page often sets its text in a row of tabs under
 * the buy box: "Description", "Additional information", "Reviews" (WAI-ARIA's tabs: a `tablist`
 * of `tab`s, each naming its `tabpanel`). The scorer climbs from the description to the box that
 * holds the whole product (the buy box's price, options and form, the other tabs' attribute tables
 * and reviews, the site's wrapper on some themes), and the copy then holds all of it; what the
 * page says of its product is the description's panel. On a page that shows one product
 * (content.ts `chooseContent`), when the chosen content holds, below its roots, one panel with the
 * role `tabpanel` named as the description — by its label (`aria-labelledby`: the tab's text, or
 * `aria-label`: "Description", "Product description") or by its id ("tab-description",
 * "description") — that panel, shown and holding `MIN_TEXT` characters or more, is the content.
 */
import type { El, Page } from "./tree.js"
import { eachKept, namesOf, textContent } from "./tree.js"

/** A name that says "the description": the tab's text, or a token of the panel's id. */
const LABEL = /^\s*(?:product\s+)?description\s*$/i
const ID = /(?:^|[-_])description(?:$|[-_])/i

/** A class or id token that names the product's description box. */
const BOX = /^product[-_]*(?:single[-_]*)?desc(?:ription)?$/i

/** The least share of the chosen roots' text a description box must hold. */
const MIN_SHARE = 1 / 3

/** The least text the panel must hold (visible characters): a description, not an empty tab. */
const MIN_TEXT = 200

const named = (page: Page, el: El, byId: ReadonlyMap<string, El>): boolean => {
  const { "aria-label": label, "aria-labelledby": by, id } = el.attribs
  if (label !== undefined && LABEL.test(label)) return true
  const labels = (by ?? "").split(/\s+/).filter((l) => l.length > 0).map((l) => byId.get(l))
  if (labels.length > 0 && labels.every((l) => l !== undefined)) {
    return LABEL.test(labels.map((l) => textContent(page.texts, l!, true)).join(" "))
  }
  return id !== undefined && ID.test(id)
}

/**
 * The one shown panel (`role="tabpanel"`) below `roots` named as the product's description, holding
 * `MIN_TEXT` characters or more; undefined when there is none or more than one.
 */
export const descriptionPanel = (page: Page, roots: ReadonlyArray<El>): El | undefined => {
  const panels: Array<El> = []
  for (const root of roots) {
    for (let i = root.order + 1; i < root.end; i++) {
      const el = page.all[i]!
      if (el.drop || el.attribs.role?.toLowerCase().trim() !== "tabpanel") continue
      panels.push(el)
      i = el.end - 1
    }
  }
  if (panels.length === 0) return undefined
  const byId = new Map<string, El>()
  for (const el of page.all) {
    const id = el.attribs.id
    if (id !== undefined && !byId.has(id)) byId.set(id, el)
  }
  const found = panels.filter((p) => p.text >= MIN_TEXT && named(page, p, byId))
  return found.length === 1 ? found[0] : undefined
}

/**
 * The one shown box below `roots` whose class or id names the product's description (`BOX`),
 * holding `MIN_TEXT` characters or more and `MIN_SHARE` of the roots' text; undefined when there
 * is none or more than one. A box inside another such box counts once, as the outer one.
 */
export const descriptionBox = (page: Page, roots: ReadonlyArray<El>): El | undefined => {
  const boxes: Array<El> = []
  let total = 0
  for (const root of roots) {
    total += root.text
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (!namesOf(el).split(/\s+/).some((n) => BOX.test(n))) return false
      boxes.push(el)
      return true
    })
  }
  const found = boxes.filter((b) => b.text >= MIN_TEXT && b.text >= MIN_SHARE * total)
  return found.length === 1 ? found[0] : undefined
}
