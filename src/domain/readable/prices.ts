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
 * only the badge that holds. The labels the block writes for screen readers only ("Regular
 * price", `visually-hidden`) are left out of it too: a reader sees the price alone.
 */
import { SCREEN_READER } from "./boilerplate.js"
import { eachKept, type El, type Page, textContent } from "./tree.js"

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

/** The most characters of a price's label for screen readers ("Regular price", "Unit price"). */
const MAX_SPOKEN_LABEL = 40

/**
 * Whether `el` is a price's label that only screen readers read: an element whose class says so
 * (boilerplate.ts `SCREEN_READER`: the theme's `visually-hidden`) holding a short text and no
 * digit ("Regular price", "Sale price", "Unit price", "per"). A browser shows the price alone; the
 * copy wrote "Regular price $19.99". A spoken figure ("$19.99 per 100 g") keeps its digits and stays.
 */
const spokenLabel = (page: Page, el: El): boolean => {
  if (el.text === 0 || el.text > MAX_SPOKEN_LABEL || !SCREEN_READER.test(el.attribs.class ?? "")) return false
  return !/\d/.test(textContent(page.texts, el))
}

/**
 * The roots without the parts of each price block that its state hides, and without the labels
 * of its prices that only screen readers read (`spokenLabel`), on a product page.
 */
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
      eachKept(page.all, block.order + 1, block.end, (el) => {
        if (!spokenLabel(page, el)) return false
        el.drop = true
        return true
      })
      return true
    })
  }
  return roots
}
