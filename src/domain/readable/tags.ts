/**
 * An entry's tags: a listing's cards (a blog's front page, a forum's index) each end with the
 * topics their post is filed under ("#webdev #ai"), in a block named `tags`. The name is weak
 * furniture (boilerplate.ts: an article's tag cloud under its text), but in a card of a group of
 * `MIN_CARDS` or more, each card holding its own, on a page that states no publication date (a
 * dated page's cards are an article's strip of other posts), the tags are part of what the page
 * lists (content.ts, step 1).
 */
import { siblingsOfShape } from "./cards.js"
import { type El, namesOf, type Page } from "./tree.js"

/** Names of a block of tags. */
const TAGS = /tag-?list|tags/i
/** The fewest cards of a group whose tags are entries' own. */
const MIN_CARDS = 4
/** How far above the tags their card is looked for. */
const CARD_LEVELS = 4

/** Whether `el`, named as tags, sits in a card of a group of `MIN_CARDS` cards or more (read on a measured page). */
const entryTags = (el: El): boolean => {
  if (!TAGS.test(namesOf(el))) return false
  let card: El | undefined = el.parent
  for (let up = 0; card?.parent !== undefined && up < CARD_LEVELS; up++, card = card.parent) {
    const cards = siblingsOfShape(card.parent, card, 1)
    if (cards !== undefined && cards.length >= MIN_CARDS) return true
  }
  return false
}

/**
 * The blocks of tags of a listing's entries (`entryTags`) among the elements named as weak furniture,
 * found while the page is measured: the pass that drops furniture clears each element's figures as it goes.
 */
export const entriesTags = (page: Page): ReadonlySet<El> => {
  const out = new Set<El>()
  for (const el of page.all) if (el.marks.furniture === 1 && !el.drop && entryTags(el)) out.add(el)
  return out
}
