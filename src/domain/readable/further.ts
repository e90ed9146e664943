/**
 * Further reading under each entry of a ranked or hub page: a guide to many schools, places or
 * tools sets each as a card of its own (a heading, a paragraph, a line of facts, a link to its own
 * page) and closes every card with a short heading over a list of links to the site's other pages
 * on that entry ("More on …:", "Read next"). The lists are pointers elsewhere, one per card, not
 * what the page says; the cards' own text is. When a run of at least `MIN_CARDS` siblings of one
 * shape (tag and class) each ends with such a block (a heading of `MAX_LABEL` characters at most
 * right over a list of nothing but links, of `MIN_ITEMS` items or more, together or in a box of
 * their own) and holds text outside links beside it (`MIN_OWN` characters), the blocks are left out
 * (`withoutFurtherReading`). An index whose sections are each a heading over their links holds no
 * text beside them and keeps them; a card with one such block is no run.
 */
import { isHeading, isList } from "./edges.js"
import { eachKept, type El, type Page, shownChildren } from "./tree.js"

/** The fewest cards of one shape that make a run. */
const MIN_CARDS = 3
/** The longest heading read as the label of a card's further reading. */
const MAX_LABEL = 60
/** The fewest links the list holds. */
const MIN_ITEMS = 2
/** The least text outside links a card keeps beside its further reading. */
const MIN_OWN = 80
/** The least share of a list's text inside links. */
const LINK_LIST = 0.9

const linksOnly = (el: El): boolean =>
  isList(el) && el.text > 0 && el.link >= LINK_LIST * el.text && shownChildren(el).length >= MIN_ITEMS

const label = (el: El): boolean => isHeading(el.name) && el.text <= MAX_LABEL && el.link === 0

/** The blocks closing a card that are its further reading (a label over a list of links), or none. */
const furtherOf = (card: El): ReadonlyArray<El> => {
  const kids = shownChildren(card)
  if (kids.length < 2) return []
  const last = kids[kids.length - 1]!
  if (linksOnly(last) && label(kids[kids.length - 2]!)) return [kids[kids.length - 2]!, last]
  const inner = shownChildren(last)
  if (inner.length === 2 && label(inner[0]!) && linksOnly(inner[1]!) && last.text === inner[0]!.text + inner[1]!.text) {
    return [last]
  }
  return []
}

/** The roots without the further reading that closes each card of a run. */
export const withoutFurtherReading = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      const groups = new Map<string, Array<ReadonlyArray<El>>>()
      for (const card of shownChildren(el)) {
        const further = furtherOf(card)
        if (further.length === 0) continue
        let text = 0
        let link = 0
        for (const f of further) {
          text += f.text
          link += f.link
        }
        if (card.text - text - (card.link - link) < MIN_OWN) continue
        const shape = `${card.name}.${card.attribs.class ?? ""}`
        const group = groups.get(shape) ?? []
        group.push(further)
        groups.set(shape, group)
      }
      for (const group of groups.values()) {
        if (group.length < MIN_CARDS) continue
        for (const further of group) for (const f of further) f.drop = true
      }
      return false
    })
  }
  return roots
}
