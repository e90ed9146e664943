/**
 * Links that are cards: a service page's offers, a homepage's features, built as one link around
 * a heading and a line or two under it (`<a href><h3>Offer</h3><p>What it does…</p></a>`). The
 * whole card is clickable, but its text is read, not followed: it is no pointer elsewhere as a
 * menu's or a teaser list's links are, where the link holds a name and nothing under it. A card
 * that carries a date (a `time`, a `date` name) is a teaser of another article, not an offer.
 */
import { isHeading } from "./edges.js"
import { eachKept, type El, type Page } from "./tree.js"

/** The fewest characters of text under a card link's heading (a line of its own, not a label). */
const MIN_UNDER_HEADING = 40

/** Names of a teaser's date. */
const DATED = /date|time/i

const dated = (el: El): boolean => el.name === "time" || DATED.test(el.attribs.class ?? "")

/**
 * Whether the link `a` is a card: it holds a heading and, after it, a block (not a heading) with
 * `MIN_UNDER_HEADING` characters or more of text, and no date.
 */
export const blockLink = (page: Page, a: El): boolean => {
  if (a.name !== "a") return false
  let heading = false
  let card = false
  let date = false
  eachKept(page.all, a.order + 1, a.end, (el) => {
    if (date || dated(el)) {
      date = true
      return true
    }
    if (!heading) {
      heading = isHeading(el.name)
      return heading
    }
    if (el.block === undefined && !isHeading(el.name) && el.text >= MIN_UNDER_HEADING) card = true
    return false
  })
  return card && !date
}
