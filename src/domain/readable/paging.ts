/**
 * A shop's grid inside the box of its pager. Collection pages built as one component for the
 * product list and its page controls name the wrapper after the controls (`pagination`,
 * `filtering-and-pagination`): the name is strong furniture (a row of page numbers), so the grid
 * the box holds, the products the page lists, was dropped with it before scoring. A wrapper
 * named so that is mostly a grid of priced cards (grids.ts `pricedGrid`) is the listing, not its
 * controls: its names are read as none. Not on a product page, where priced grids are other
 * products (grids.ts `productGridCards`).
 */
import { groupsUnder } from "./cards.js"
import { pricedGrid } from "./grids.js"
import { type El, namesOf, type Page } from "./tree.js"

/** Names of a list's page controls. */
const PAGING = /paginat|pager|paging/i

/** The least share of a wrapper's text its grid must hold for the wrapper to be the grid's. */
const GRID_SHARE = 0.8

/** The least text of a grid read here (grids.ts reads the same). */
const MIN_GRID_TEXT = 200

/**
 * Clears the furniture names of the wrappers named after a pager (`PAGING`) that hold a grid of
 * priced cards making `GRID_SHARE` of their text or more (in place, before the content is scored).
 */
export const pagedGrids = (page: Page): void => {
  for (const g of groupsUnder(page.all, page.root, MIN_GRID_TEXT)) {
    if (!pricedGrid(page, g)) continue
    for (let p: El | undefined = g.parent; p !== undefined && g.text >= GRID_SHARE * p.text; p = p.parent) {
      if (p.marks.furniture === 0 && p.marks.weight >= 0) continue
      if (PAGING.test(namesOf(p))) p.marks = { weight: Math.max(0, p.marks.weight), furniture: 0 }
    }
  }
}
