/**
 * A product page's sticky buy bar: a shop theme repeats the buy box in a bar that slides in at the
 * foot or the top of the window once the reader scrolls past the real one (the product's name,
 * its price, "Add to cart"), in a box whose class says so: a token holding `sticky` and a buy
 * control's word (`sticky-add-to-cart`, `addcartsticky`, `sticky-atc`, `sticky-cart`,
 * `sticky-product-actions`). The copy wrote the name and the price a second time.
 * On a page that says it shows one product, such a box inside the content is left out
 * (`withoutStickyBuyBars`). A column that only stays in view (`product__column-sticky`,
 * `buy-box-sticky-container`: the real buy box, or the pictures) names no buy control and stays.
 */
import { type El, type Page, withoutEach } from "./tree.js"

/**
 * A class token of a sticky buy bar: `sticky` and, in the same token, a buy control's word ending
 * there or at a joint: `add-to-cart` (`addtocart`, `addcart`, `addcartsticky`), `atc` as a word of
 * its own (`sticky-atc`, not the letters inside `sticky-watchlist`), `sticky-cart` (not
 * `sticky-cartography`) or `product-actions`. A bar that names no buy control (`sticky-bar`, a
 * header's) is none.
 */
const STICKY_BUY =
  /^(?=[\w-]*sticky)[\w-]*(?:add-?to-?cart|addcart|(?:^|[-_])atc|sticky-cart|product-actions)(?=$|[-_]|sticky)[\w-]*$/i

/** The most visible characters of a sticky bar: the product's name, its price and a button, not a section. */
const MAX_BAR_TEXT = 300

const stickyBar = (el: El): boolean =>
  el.text <= MAX_BAR_TEXT && el.attribs.class !== undefined &&
  el.attribs.class.split(/\s+/).some((t) => STICKY_BUY.test(t))

/** The content's roots with a product page's sticky buy bars left out (`product`: the page shows one product). */
export const withoutStickyBuyBars = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (!product) return roots
  return withoutEach(page, roots, stickyBar)
}
