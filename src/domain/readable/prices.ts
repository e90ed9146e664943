/**
 * A price block's states. Shopify's reference theme (Dawn, and the many themes built on it) writes
 * every state of a product's price into one block and lets its stylesheet show the one that
 * holds: `<div class="price price--on-sale">` around a regular price (`price__regular`), a sale
 * price (`price__sale`: the struck-through regular price with its "Regular price" / "Sale price"
 * labels) and two badges ("Sale": `price__badge-sale`, "Sold out": `price__badge-sold-out`). Only
 * the block's own state marks (`price--on-sale`, `price--sold-out`) show the sale price and the
 * badges; on sale, the regular price gives way to the sale price. The copy wrote every state
 * ("Regular price $19.99 Regular price Sale price $19.99 Sale Sold out" for a product in stock at
 * its regular price). In a block whose class is `price` with at least one of those parts, the
 * parts its state hides are left out (`withoutHiddenPriceStates`): a reader sees one price and
 * only the badge that holds.
 */
import { eachKept, type El, type Page } from "./tree.js"

/** The class tokens of an element. */
const classes = (el: El): ReadonlyArray<string> => (el.attribs.class ?? "").trim().split(/\s+/)

/** The parts of a price block that its state shows or hides. */
const PARTS = new Set(["price__regular", "price__sale", "price__badge-sale", "price__badge-sold-out"])

/** Whether a part is hidden in a block on sale (`onSale`) or sold out (`soldOut`), or in neither state. */
const hiddenPart = (part: string, onSale: boolean, soldOut: boolean): boolean => {
  switch (part) {
    case "price__regular":
      return onSale
    case "price__sale":
      return !onSale
    case "price__badge-sale":
      return !onSale || soldOut
    case "price__badge-sold-out":
      return !soldOut
    default:
      return false
  }
}

/** The roots without the parts of each price block that its state hides, on a product page. */
export const withoutHiddenPriceStates = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (!product) return roots
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (block) => {
      const own = classes(block)
      if (!own.includes("price")) return false
      const onSale = own.includes("price--on-sale")
      const soldOut = own.includes("price--sold-out")
      const hidden: Array<El> = []
      let parts = 0
      eachKept(page.all, block.order + 1, block.end, (el) => {
        const part = classes(el).find((c) => PARTS.has(c))
        if (part === undefined) return false
        parts++
        if (hiddenPart(part, onSale, soldOut)) hidden.push(el)
        return true
      })
      if (parts === 0) return false
      for (const el of hidden) el.drop = true
      return true
    })
  }
  return roots
}
