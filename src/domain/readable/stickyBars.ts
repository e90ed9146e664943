/**
 * A product page's sticky buy bar: a shop theme repeats the buy box in a bar that slides in at the
 * foot or the top of the window once the reader scrolls past the real one (the product's name,
 * its price, "Add to cart"), in a box whose class says so: a token holding `sticky` and a buy
 * control's word (`sticky-add-to-cart`, `addcartsticky`, `sticky-atc`, `sticky-cart`,
 * `sticky-product-actions`, `sticky-bar`). The copy wrote the name and the price a second time.
 * On a page that says it shows one product, such a box inside the content is left out
 * (`withoutStickyBuyBars`). A column that only stays in view (`product__column-sticky`,
 * `buy-box-sticky-container`: the real buy box, or the pictures) names no buy control and stays.
 */
import { type El, inside, measure, type Page } from "./tree.js"

/**
 * A class token of a sticky buy bar: `sticky` and, in the same token, a buy control's word:
 * `add-to-cart` (`addtocart`, `addcart`), `atc` as a word of its own (`sticky-atc`, not the
 * letters inside `sticky-watchlist`), `sticky-cart`, `product-actions` or `sticky-bar`.
 */
const STICKY_BUY =
  /^(?=[\w-]*sticky)[\w-]*(?:add-?to-?cart|addcart|(?:^|[-_])atc(?:$|[-_])|sticky-cart|product-actions|sticky-bar)[\w-]*$/i

const stickyBar = (el: El): boolean =>
  el.attribs.class !== undefined && el.attribs.class.split(/\s+/).some((t) => STICKY_BUY.test(t))

/** The content's roots with a product page's sticky buy bars left out. */
export const withoutStickyBuyBars = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (!product) return roots
  let dropped = false
  for (const root of roots) {
    for (let i = root.order + 1; i < root.end; i++) {
      const el = page.all[i]!
      if (el.drop || !stickyBar(el) || roots.some((r) => inside(r, el))) continue
      el.drop = true
      dropped = true
      i = el.end - 1
    }
  }
  if (dropped) measure(page)
  return roots
}
