/**
 * An entry's tags: a listing's cards (a blog's front page, a forum's index) each end with the
 * topics their post is filed under ("#webdev #ai"), in a block named `tags`. The name is weak
 * furniture (boilerplate.ts: an article's tag cloud under its text), but in a card of a group of
 * `MIN_CARDS` or more, each card holding its own, on a page that states no publication date (a
 * dated page's cards are an article's strip of other posts), the tags are part of what the page
 * lists (content.ts, step 1).
 *
 * An entry's title, in the same way: a job board's or a blog's cards each open with a block named
 * `header` (`listing__header`, and its title's heading and span named after it) holding the card's
 * heading, which links to the entry. The name is weak furniture (a page's or a section's header),
 * dropped as a block that does not read like prose: each entry lost its title. A block named as a
 * header, short (`MAX_TITLE`), that is, holds or sits in a heading linking to another page (not an
 * anchor of this page: an accordion's question) is the entry's title when its card is one of a
 * group of `MIN_ENTRIES` or more (a listing's page of results, not a service page's handful of
 * offers), on a page that states no publication date.
 */
import { siblingsOfShape } from "./cards.js"
import { outward } from "./credits.js"
import { isHeading } from "./edges.js"
import { type El, namesOf, type Page } from "./tree.js"

/** Names of a block of tags. */
const TAGS = /tag-?list|tags/i
/** The fewest cards of a group whose tags are entries' own. */
const MIN_CARDS = 4
/** How far above the tags their card is looked for. */
const CARD_LEVELS = 4

/** Whether `el` sits in a card of a group of `MIN_CARDS` cards or more, at most `levels` above it (read on a measured page). */
const inCard = (el: El, levels: number, least = MIN_CARDS): boolean => {
  let card: El | undefined = el.parent
  for (let up = 0; card?.parent !== undefined && up < levels; up++, card = card.parent) {
    const cards = siblingsOfShape(card.parent, card, 1)
    if (cards !== undefined && cards.length >= least) return true
  }
  return false
}

/** Whether `el`, named as tags, sits in a card of a group (`inCard`). */
const entryTags = (el: El): boolean => TAGS.test(namesOf(el)) && inCard(el, CARD_LEVELS)

/** Names of a card's header: the block around its title. */
const HEADER = /header/i
/** The longest text of a card's header read as its title (a title and a date: "Software engineer 18d"). */
const MAX_TITLE = 120
/** The fewest cards of a group whose headers are entries' titles. */
const MIN_ENTRIES = 8
/** How far above a card's header its card is looked for (a title's text in a span, in the heading, in the header). */
const HEADER_LEVELS = 6

/** Whether a heading is a link to its entry: inside such a link, or holding one with most of its text. */
const linkedHeading = (page: Page, h: El): boolean => {
  for (let p = h.parent; p !== undefined; p = p.parent) if (p.name === "a") return outward(p)
  for (let i = h.order + 1; i < h.end; i++) {
    const d = page.all[i]!
    if (d.name === "a" && outward(d) && d.text * 2 >= h.text) return true
  }
  return false
}

/** Whether a heading that links to its entry (`linkedHeading`) holds `el` or sits in its subtree. */
const byHeading = (page: Page, el: El): boolean => {
  for (let p: El | undefined = el; p !== undefined; p = p.parent) if (isHeading(p.name)) return linkedHeading(page, p)
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (isHeading(d.name) && linkedHeading(page, d)) return true
  }
  return false
}

/** Whether `el`, named as a header, is a card's title (a heading, in one or around one: `byHeading`) in a group (`inCard`). */
const entryTitle = (page: Page, el: El): boolean =>
  HEADER.test(namesOf(el)) && el.text <= MAX_TITLE && byHeading(page, el) && inCard(el, HEADER_LEVELS, MIN_ENTRIES)

/**
 * The blocks of tags and the titles of a listing's entries (`entryTags`, `entryTitle`) among the elements named as weak furniture,
 * found while the page is measured: the pass that drops furniture clears each element's figures as it goes.
 */
export const entriesTags = (page: Page): ReadonlySet<El> => {
  const out = new Set<El>()
  for (const el of page.all) {
    if (el.marks.furniture === 1 && !el.drop && (entryTags(el) || entryTitle(page, el))) out.add(el)
  }
  return out
}
