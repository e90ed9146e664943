/**
 * A grid shown again: a shop's category page lists its products, then, lower down, a carousel of
 * its "best sellers" or "featured" products holds the same cards again (the same few products,
 * each a link to the page the grid's card already leads to). The reader has read them; the copy
 * wrote the list twice. A run of cards (siblings of one shape: cards.ts `siblingsOfShape`, cards
 * that are links all through included, whatever their names), half of them or more priced (grids.ts
 * `PRICE`), each of whose cards leads only where links earlier in the content lead, to at least
 * `MIN_PLACES` places, and holds no paragraph of its own (`El.prose`: a name, a price, a label),
 * is left out; a grid of other products, a run that leads somewhere new once, or cards that say
 * more than the first list (a description under each name) stay.
 */
import { runsOfShape } from "./cards.js"
import { PRICE } from "./grids.js"
import { eachKept, type El, type Page, textContent } from "./tree.js"

/** An address that leads nowhere but to a script. */
const NOWHERE = /^\s*(?:#|javascript:)/i

/** The fewest places the repeated cards must lead to (fewer, and it is a row of shared links). */
const MIN_PLACES = 3

/** The place a link leads to: its address without the origin, the query and the fragment. */
const placeOf = (href: string): string => {
  const h = href.trim().replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/^\/\/[^/]*/, "")
  return h.replace(/[?#].*$/, "").replace(/\/+$/, "").toLowerCase()
}

/** The places the kept links in `el`'s subtree lead to (`#` and script links lead nowhere). */
const placesIn = (page: Page, el: El): Array<string> => {
  const out: Array<string> = []
  eachKept(page.all, el.order, el.end, (d) => {
    if (d.name !== "a") return false
    const href = d.attribs.href
    if (href === undefined || NOWHERE.test(href)) return false
    const place = placeOf(href)
    if (place.length > 0) out.push(place)
    return false
  })
  return out
}

/** Runs of cards in the roots, in document order: at least three shown siblings of one shape (cards.ts `siblingsOfShape`, links included), names not read. */
const runsIn = (page: Page, roots: ReadonlyArray<El>): Array<{ parent: El; cards: Array<El> }> => {
  const out: Array<{ parent: El; cards: Array<El> }> = []
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      for (const cards of runsOfShape(el, 1)) out.push({ parent: el, cards })
      return false
    })
  }
  return out.sort((a, b) => a.parent.order - b.parent.order)
}

/** The places the kept links before `at` in the roots lead to. */
const placesBefore = (page: Page, roots: ReadonlyArray<El>, at: number): Set<string> => {
  const before = new Set<string>()
  for (const root of roots) {
    if (root.order >= at) continue
    eachKept(page.all, root.order, Math.min(root.end, at), (d) => {
      if (d.name !== "a") return false
      const href = d.attribs.href
      if (href !== undefined && !NOWHERE.test(href)) before.add(placeOf(href))
      return false
    })
  }
  return before
}

/** The roots without each run of cards that leads only where the content already led. */
export const withoutRepeatedGrids = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const runs = runsIn(page, roots)
  if (runs.length < 2) return roots
  for (const g of runs) {
    if (g.cards.some((c) => c.drop)) continue
    const before = placesBefore(page, roots, g.parent.order)
    if (before.size < MIN_PLACES) continue
    const places = new Set<string>()
    let repeated = true
    for (const c of g.cards) {
      const own = placesIn(page, c)
      if (c.prose > 0 || own.length === 0 || own.some((p) => !before.has(p))) {
        repeated = false
        break
      }
      for (const p of own) places.add(p)
    }
    if (!repeated || places.size < MIN_PLACES) continue
    // The products shown again: most cards show a price (grids.ts `PRICE`).
    const priced = g.cards.filter((c) => PRICE.test(textContent(page.texts, c, true, true))).length
    if (2 * priced >= g.cards.length) { for (const c of g.cards) c.drop = true }
  }
  return roots
}
