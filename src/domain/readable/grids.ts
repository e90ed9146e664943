/**
 * A shop's grid of products beside the text that scores: a category or collection page often
 * holds a long text of its own (a buying guide under the grid) that scores as the article, while
 * its cards (a title and a price each) never score. The cards are what the page lists, so a grid
 * of priced cards outside the chosen content joins it (`priceGrids`). A product page is left
 * alone: there the grids beside the product are other products (`productGridCards`: content.ts
 * reads them as furniture).
 */
import { markOf } from "./boilerplate.js"
import { type Group, groupsUnder, MIN_CARDS } from "./cards.js"
import { type El, inside, namesOf, type Page, textContent } from "./tree.js"

/** The fewest cards of a grid that joins the content. */
const MIN_GRID = Math.max(MIN_CARDS, 4)
/** The least text of a grid that joins the content. */
const MIN_GRID_TEXT = 200
/** The least share of a grid's cards that show a price. */
const PRICED_SHARE = 0.5

/** A price as cards write it: a currency sign (dollar, euro, pound, yen, rupee) or code next to a number. */
export const PRICE =
  /[$\u20ac\u00a3\u00a5\u20b9]\s?\d|\d(?:[.,]\d+)?\s?(?:[\u20ac\u00a3\u00a5\u20b9]|kr\b|z\u0142|USD\b|EUR\b|GBP\b|CHF\b)/

/**
 * Whether a group of cards is a shop's grid: at least `MIN_GRID` cards holding `MIN_GRID_TEXT`
 * characters, at least `PRICED_SHARE` of them showing a price. The cleaning pass keeps such a
 * grid whole inside the content even when the text beside it is longer (content.ts `clean`).
 */
export const pricedGrid = (page: Page, g: Group): boolean => {
  if (g.cards.length < MIN_GRID || g.text < MIN_GRID_TEXT) return false
  const priced = g.cards.filter((c) => PRICE.test(textContent(page.texts, c, true, true))).length
  return priced >= PRICED_SHARE * g.cards.length
}

/**
 * On a product page, the cards of each grid of priced cards (`pricedGrid`; a card may be one link
 * all through): strips of other products ("you may also like", "complete the look", a shop's
 * bestsellers under the product), whatever their names say. The product's own offer is one price,
 * not a grid of cards. Not a grid of longer blocks (over `MAX_PRODUCT_CARD` characters, or without
 * a link — with text, or laid over the card with a label only: `holdsLink` — the page's own
 * sections beside a price), nor one holding `MAX_STRIP_SHARE` of the page.
 */
export const productGridCards = (page: Page): Array<El> =>
  groupsUnder(page.all, page.root, MIN_GRID_TEXT, 1).filter((g) =>
    g.text < MAX_STRIP_SHARE * page.root.text && g.cards.every((c) =>
      c.text <= MAX_PRODUCT_CARD && holdsLink(page, c)
    ) &&
    pricedGrid(page, g)
  ).flatMap((g) => [...g.cards, ...strayCards(page, g)])

/** Siblings of a strip's cards of their tag but another class (a carousel's first or active slide), short, priced, with a link. */
const strayCards = (page: Page, g: Group): Array<El> => {
  const tag = g.cards[0]!.name
  const out: Array<El> = []
  for (const c of g.parent.children) {
    if (typeof c === "number" || c.name !== tag || c.drop || c.text === 0 || g.cards.includes(c)) continue
    if (c.text <= MAX_PRODUCT_CARD && holdsLink(page, c) && PRICE.test(textContent(page.texts, c, true, true))) {
      out.push(c)
    }
  }
  return out
}

/** Whether a card holds a link: one with text, or one laid over the card with no text of its own (a label only). */
const holdsLink = (page: Page, card: El): boolean => {
  if (card.link > 0) return true
  for (let i = card.order + 1; i < card.end; i++) {
    const d = page.all[i]!
    if (d.name === "a" && d.attribs.href !== undefined) return true
  }
  return false
}

/**
 * The largest share of the page's text a strip of other products holds: a larger grid is what
 * the page lists (a category page whose schema.org data names its products).
 */
const MAX_STRIP_SHARE = 0.25

/** The most text of a card of another product (a name, a price, a rating): longer siblings are the page's own sections. */
const MAX_PRODUCT_CARD = 400

/**
 * The content's roots with each grid of priced cards outside them added, in document order: a
 * group of at least `MIN_GRID` cards (cards.ts `groupsUnder`: siblings of one shape, most of two
 * text blocks or more, not named as furniture, not mostly links) holding `MIN_GRID_TEXT`
 * characters, where at least `PRICED_SHARE` of the cards show a price; only in the page's `main`
 * when it declares one, and never on a product page (`product`: content.ts passes false for a page
 * that declares a group of products, `product.group`, whose grid is what it lists).
 */
export const priceGrids = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (product || roots.length === 0) return roots
  const scope = page.mains.find((el) => !el.drop) ?? page.root
  const grids: Array<El> = []
  for (const g of groupsUnder(page.all, scope, MIN_GRID_TEXT)) {
    if (roots.some((r) => inside(g.parent, r) || inside(r, g.parent))) continue
    if (grids.some((o) => inside(g.parent, o) || inside(o, g.parent))) continue
    if (pricedGrid(page, g)) grids.push(g.parent)
  }
  if (grids.length === 0) return roots
  return [...roots, ...grids].sort((a, b) => a.order - b.order)
}

/** The name of a promotion, as one part of a class or id (`promo-carousel`, `homePromo`). */
const PROMO = /promo/i

/**
 * Whether an element named as furniture for a promotion alone (`promo`, strong furniture: a
 * promotion's banner, a newsletter's pitch) holds a grid of priced cards (`pricedGrid`), on a page
 * that does not show one product (`product`): a shop's homepage builds each offer as a promotion's
 * box, its pitch beside a carousel of the products on sale, and the products are what the page
 * lists. With the promotion's name taken out the element must name no furniture (a `promo` in a
 * `sidebar` stays furniture). On a product page such strips are other products and stay dropped.
 */
export const promotedGrid = (page: Page, el: El, product: boolean): boolean => {
  if (product || el.text < MIN_GRID_TEXT) return false
  const names = namesOf(el)
  if (!PROMO.test(names)) return false
  const rest = names.split(/\s+/).filter((token) => !PROMO.test(token)).join(" ")
  if (markOf(el.name, { class: rest }).furniture !== 0) return false
  return groupsUnder(page.all, el, MIN_GRID_TEXT).some((g) => pricedGrid(page, g))
}
