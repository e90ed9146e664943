/**
 * Cards: the repeated siblings listings, collections, product grids, forum threads and link-card
 * documentation pages are built of. A card group is an element whose element children share one
 * shape (tag and first class name: `li.product-card`, `article.post`, plain `li`) at least
 * `MIN_CARDS` times. On such pages each card is short, says little outside its links and scores
 * like furniture; together the cards are the page. When card groups hold most of the chosen
 * content, the cleaning pass (content.ts, step 4) keeps them whole and what holds them, instead of
 * dropping each card as a short, linked or negatively scored block (`cardsToKeep`).
 */
import { eachKept, type El, inside } from "./tree.js"

/** The fewest siblings of one shape that make a group of cards. */
export const MIN_CARDS = 3
/** Above this share of their text inside links, repeated siblings are a menu, not cards. */
const MAX_CARD_LINKS = 0.75
/** The least share of the content's text the card groups must hold for the cleaning pass to keep them. */
const CARDS_SHARE = 0.4
/** A group kept beside the largest must hold at least this share of the content's text. */
const GROUP_SHARE = 0.1
/** The largest share of a group's text one card may hold. */
const MAX_CARD_SHARE = 0.5
/** Paragraph text (`El.prose`) from which a card is a section of text (`section`). */
const SECTION_PROSE = 600
/** The least share of a section's text that is paragraphs. */
const SECTION_SHARE = 0.8
/** The largest share of a section's text inside links (more, and it is a card made a link). */
const SECTION_LINKS = 0.25

/** Tags a card is built as (paragraphs, headings and inline runs repeat in any text: they are not cards). */
const CARD_TAGS = new Set(["li", "article", "div", "section", "tr", "dl", "figure"])

/** The shape siblings share: tag and first class name. */
export const shapeOf = (el: El): string => {
  const cls = el.attribs.class
  if (cls === undefined) return el.name
  const first = cls.trim().split(/\s+/, 1)[0] ?? ""
  return first.length === 0 ? el.name : `${el.name}.${first}`
}

const shown = (el: El): boolean => !el.drop && el.text > 0

/**
 * The children of `parent` that share `el`'s shape (`el` among them), when there are at least
 * `MIN_CARDS` of them with visible text and they are not mostly links (at most `maxLinks` of their
 * text); else `undefined`.
 */
export const siblingsOfShape = (parent: El, el: El, maxLinks = MAX_CARD_LINKS): Array<El> | undefined => {
  if (!CARD_TAGS.has(el.name)) return undefined
  const shape = shapeOf(el)
  const same: Array<El> = []
  let text = 0
  let link = 0
  for (const c of parent.children) {
    if (typeof c === "number" || !shown(c) || c.name !== el.name || shapeOf(c) !== shape) continue
    same.push(c)
    text += c.text
    link += c.link
  }
  if (same.length < MIN_CARDS) return undefined
  if (link <= maxLinks * text) return same
  // A link that is a control (`role="button"`, an address that goes nowhere: "Add to Compare",
  // "Quick view") points nowhere: it does not make the cards a menu.
  for (const c of same) link -= controlLinkText(c)
  return link <= maxLinks * text ? same : undefined
}

/**
 * Each run of shown siblings of one shape among `el`'s children (`siblingsOfShape`), in order;
 * each shape is looked at once (a table's thousands of rows).
 */
export function* runsOfShape(el: El, maxLinks = MAX_CARD_LINKS): Generator<Array<El>> {
  const seen = new Set<string>()
  for (const c of el.children) {
    if (typeof c === "number" || !shown(c)) continue
    const shape = shapeOf(c)
    if (seen.has(shape)) continue
    seen.add(shape)
    const cards = siblingsOfShape(el, c, maxLinks)
    if (cards !== undefined) yield cards
  }
}

/** An address that leads nowhere but to a script: `#` alone, or `javascript:`. */
const NOWHERE = /^\s*(?:#\s*$|javascript:)/i

/** Visible characters of the links in `card` drawn as controls: `role="button"`, or an address that goes nowhere. */
const controlLinkText = (card: El): number => {
  let n = 0
  const stack: Array<El> = [card]
  while (stack.length > 0) {
    const e = stack.pop()!
    if (e.drop) continue
    if (e.name === "a") {
      const href = e.attribs.href
      if (e.attribs.role?.trim().toLowerCase() === "button" || (href !== undefined && NOWHERE.test(href))) n += e.text
      continue
    }
    for (const c of e.children) if (typeof c !== "number") stack.push(c)
  }
  return n
}

/** Text blocks (elements with text of their own) in an element's subtree, counted up to `at`. */
const textBlocks = (all: ReadonlyArray<El>, el: El, at: number): number => {
  let n = 0
  for (let i = el.order; i < el.end && n < at;) {
    const d = all[i]!
    if (d.drop) {
      i = d.end
      continue
    }
    if (d.selfText > 0) n++
    i++
  }
  return n
}

/**
 * Whether siblings of one shape read as cards to keep whole: not named as furniture (a "teaser"
 * or "related" list; neither the cards nor their parent weigh negative), none holding half of the
 * group's text (not a page's columns), and most of them made of more than one text block (a title
 * and a price, a heading and a summary: not one paragraph each, as an article's paragraphs are).
 */
const readAsCards = (all: ReadonlyArray<El>, parent: El, cards: ReadonlyArray<El>, text: number): boolean => {
  if (parent.marks.weight < 0 || cards[0]!.marks.weight < 0) return false
  let built = 0
  for (const c of cards) {
    if (c.text > MAX_CARD_SHARE * text) return false
    if (textBlocks(all, c, 2) >= 2) built++
  }
  return 2 * built >= cards.length
}

export interface Group {
  readonly parent: El
  readonly cards: Array<El>
  readonly text: number
}

/** The groups not nested in another group's card (cards in a card count once, in the outer group). */
export const outerGroups = (groups: ReadonlyArray<Group>): Array<Group> =>
  groups.filter((g) => !groups.some((o) => o !== g && o.cards.some((c) => inside(g.parent, c))))

/** The groups of cards under `root` holding at least `least` characters (`maxLinks`: the largest share of their text in links). */
export const groupsUnder = (
  all: ReadonlyArray<El>,
  root: El,
  least: number,
  maxLinks = MAX_CARD_LINKS
): Array<Group> => {
  const groups: Array<Group> = []
  eachKept(all, root.order, root.end, (el) => {
    if (el.text < least || el.children.length < MIN_CARDS) return false
    for (const cards of runsOfShape(el, maxLinks)) {
      const text = cards.reduce((n, k) => n + k.text, 0)
      if (text >= least && readAsCards(all, el, cards, text)) groups.push({ parent: el, cards, text })
    }
    return false
  })
  return groups
}

/**
 * A card that is a section of text: `SECTION_PROSE` characters of paragraphs, most of what it
 * holds (a blog's posts on its front page, an article built of repeated section blocks, a long
 * forum post). Cards are kept whole so that their short parts (a title, a price, a maker) survive
 * the cleaning pass; in a section of text the short parts are its own furniture (an ad's label,
 * "order the book", "more articles") and the pass judges them as in any article.
 */
const section = (card: El): boolean =>
  card.prose >= SECTION_PROSE && card.prose >= SECTION_SHARE * card.text && card.link < SECTION_LINKS * card.text

/** The most elements of the kept cards read for their parts. */
const MAX_PARTS = 4000

/** The parts the cards are built of that show text: tag and whole class, for those with a class. */
const partsOf = (all: ReadonlyArray<El>, cards: ReadonlyArray<El>): ReadonlySet<string> => {
  const parts = new Set<string>()
  let read = 0
  for (const c of cards) {
    for (let i = c.order + 1; i < c.end && read < MAX_PARTS; i++, read++) {
      const d = all[i]!
      if (!d.drop && d.text > 0 && d.attribs.class !== undefined) parts.add(`${d.name}.${d.attribs.class}`)
    }
  }
  return parts
}

/** Whether `card` holds a part, showing text, that `parts` names. */
const holdsPart = (all: ReadonlyArray<El>, card: El, parts: ReadonlySet<string>): boolean => {
  for (let i = card.order + 1; i < card.end; i++) {
    const d = all[i]!
    if (!d.drop && d.text > 0 && d.attribs.class !== undefined && parts.has(`${d.name}.${d.attribs.class}`)) return true
  }
  return false
}

/**
 * The other runs of cards (`runsOfShape`, read as cards: `readAsCards`) under the parent of a
 * group the cleaning keeps, however little text they hold: an awards page lists each category as
 * a box of its winner and honorees and, between those boxes, boxes of another build holding its
 * top tier's winners side by side, too few characters for a group of their own (under
 * `GROUP_SHARE`), each a short block with a fifth of its text in links, which the pass dropped.
 * Siblings of the kept cards, several of one build, standing between them and each holding a part
 * built as the kept cards' are (an element of the same tag and class that shows text: the same
 * card inside), are more of the same list. Not beside cards that are sections of text (an
 * article's parts), nor boxes without a class (a page's own sections).
 */
const runsBeside = (all: ReadonlyArray<El>, kept: ReadonlyArray<Group>): Array<Group> => {
  const runs: Array<Group> = []
  for (const g of kept) {
    // Cards that are sections of text are an article's parts: what stands between them is its own.
    if (g.cards.some(section)) continue
    let parts: ReadonlySet<string> | undefined
    const first = g.cards[0]!.order
    const last = g.cards[g.cards.length - 1]!.order
    for (const cards of runsOfShape(g.parent)) {
      // Between the kept cards, not before or after them: a list's own entries, not a strip beside it.
      if (cards[0]!.order <= first || cards[cards.length - 1]!.order >= last) continue
      // Boxes named by a class: plain `div`s between cards are the page's own sections.
      if (shapeOf(cards[0]!) === cards[0]!.name) continue
      const text = cards.reduce((n, k) => n + k.text, 0)
      if (!readAsCards(all, g.parent, cards, text)) continue
      if (parts === undefined) parts = partsOf(all, g.cards)
      if (cards.every((c) => holdsPart(all, c, parts!))) runs.push({ parent: g.parent, cards, text })
    }
  }
  return runs
}

/** What the cleaning pass does with an element of content made of cards (`cardsToKeep`). */
export const Keep = {
  /** Judged as before. */
  Judge: 0,
  /** Kept, and what it holds judged (it holds cards). */
  Holder: 1,
  /** Kept whole (a card). */
  Card: 2
} as const

/**
 * What the cleaning pass keeps in content made of cards, by element number (`El.order`): the
 * groups holding at least `GROUP_SHARE` of the roots' text, when together they hold at least
 * `CARDS_SHARE` of it, are kept whole (cards that are sections of text are kept and cleaned
 * inside: `section`), and the elements holding them are kept; when they hold less, only the
 * groups `always` keeps (a shop's grid of priced cards above its buying guide); `undefined` for
 * content that reads as one text (an article's list of related stories stays a minority and is
 * cleaned as before).
 */
export const cardsToKeep = (
  all: ReadonlyArray<El>,
  roots: ReadonlyArray<El>,
  always?: (group: Group) => boolean
): Uint8Array | undefined => {
  const total = roots.reduce((n, r) => n + r.text, 0)
  if (total === 0) return undefined
  const groups = roots.flatMap((r) => groupsUnder(all, r, GROUP_SHARE * total))
  let outer = outerGroups(groups)
  if (outer.reduce((n, g) => n + g.text, 0) < CARDS_SHARE * total) {
    // Fewer cards than that are an article's minority, unless they are what the page lists (`always`: grids.ts).
    outer = always === undefined ? [] : outer.filter(always)
    if (outer.length === 0) return undefined
  }
  const keep = new Uint8Array(all.length)
  // Only where the page says what it lists (`always`: never on a product page), and not beside a
  // shop's grid of priced cards (the groups `always` keeps): the tiles between its products are its promotions.
  const beside = always === undefined ? [] : runsBeside(all, outer.filter((g) => !always(g)))
  for (const g of [...outer, ...beside]) {
    for (const c of g.cards) keep[c.order] = section(c) ? Keep.Holder : Keep.Card
    for (let p: El | undefined = g.parent; p !== undefined && keep[p.order] === Keep.Judge; p = p.parent) {
      keep[p.order] = Keep.Holder
    }
  }
  return keep
}
