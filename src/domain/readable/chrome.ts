/**
 * A card's chrome: the controls and badges every card of a listing repeats ("Quick view",
 * "+ wishlist", "Add to cart", "Free shipping", "Fast apply", a "Brand name" label). They are the
 * same words in card after card, so a reader skims over them; the readable copy leaves them out
 * (`withoutCardChrome`), and so does a label every card reads to screen readers only ("Vendor:",
 * "Regular price", "Sale price"), which no one sees, a card's link to its item written twice
 * with the same text, a part every card hides with `d-none` (a template's data for a script), a
 * badge the shop pins on several cards ("New Arrival"), named so or laid over the card's picture
 * as the only text of its box (a smiley drawn as a picture in the text is no picture it is laid
 * over: a short post quoted further on), and a control that counts the card's other colours
 * ("+15"). What tells the cards apart (a title, a price, a summary) stays.
 */
import { SCREEN_READER, SHOWN_FROM } from "./boilerplate.js"
import { groupsUnder, outerGroups } from "./cards.js"
import { isHeading } from "./edges.js"
import { PRICE } from "./grids.js"
import { collapsedText, eachKept, type El, inside, type Page } from "./tree.js"

/** The fewest cards of a group whose repeated texts are read as chrome. */
const MIN_CHROME_CARDS = 4
/** The least share of a group's cards a text must appear in to be chrome. */
const CHROME_SHARE = 0.8
/** The longest text read as chrome (a button's, a badge's, a label's). */
const MAX_CHROME = 30

/** An element's text as cards are compared by it: whitespace collapsed, lowercased. */
const cardText = (page: Page, el: El): string => collapsedText(page, el).toLowerCase()

/**
 * Of the texts found in each card (`perCard`, one list per card of a group of `cards`), those that
 * stand in at least `CHROME_SHARE` of the cards, with their elements.
 */
const sharedTexts = (perCard: ReadonlyArray<ReadonlyArray<[El, string]>>, cards: number): Array<[El, string]> => {
  const cardsWith = new Map<string, number>()
  for (const t of perCard) for (const s of new Set(t.map(([, s]) => s))) cardsWith.set(s, (cardsWith.get(s) ?? 0) + 1)
  return perCard.flatMap((t) => t.filter(([, s]) => cardsWith.get(s)! >= CHROME_SHARE * cards))
}

/**
 * Each element of a card that shows text (`MAX_CHROME` characters at most) and is not inside
 * another such element, with its text; and inside each, the elements drawn as buttons with their
 * own text: a box that holds a card's price and its "Shop Now" button reads differently in each
 * card, the button the same.
 */
const shortTexts = (page: Page, card: El): Array<[El, string]> => {
  const out: Array<[El, string]> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    if (el.text === 0 || el.text > MAX_CHROME) return false
    const t = cardText(page, el)
    if (t.length > 0) out.push([el, t])
    eachKept(page.all, el.order + 1, el.end, (d) => {
      if (d.text === 0 || d.text === el.text || !drawnAsButton(d)) return false
      const b = cardText(page, d)
      if (b.length > 0) out.push([d, b])
      return true
    })
    return true
  })
  return out
}

/**
 * Each element of a card that only screen readers read (`SCREEN_READER`, `MAX_CHROME` characters
 * at most) with its text: a label before a value ("Vendor:", "Regular price", "Sale price").
 */
const spokenLabels = (page: Page, card: El): Array<[El, string]> => {
  const out: Array<[El, string]> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    if (el.text === 0 || !SCREEN_READER.test(el.attribs.class ?? "")) return false
    if (el.text <= MAX_CHROME) {
      out.push([el, cardText(page, el)])
    }
    return true
  })
  return out
}

/**
 * The most characters of paragraphs a card may hold for its repeated links to be left out: a card
 * that is a section of text links the same page again in its sentences, and a reader sees both.
 */
const MAX_CARD_PROSE = 200

/**
 * Each link of a card that repeats an earlier link of the card: the same address and text. Shop
 * themes write a card's title link twice (one drawn when the card has no picture, one when it has)
 * and style away the one that does not apply; the copy sees both.
 */
const repeatedLinks = (page: Page, card: El): Array<El> => {
  const said = new Set<string>()
  const out: Array<El> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    const href = el.attribs.href
    if (el.name !== "a" || href === undefined || el.text === 0) return false
    const t = href + "\u0000" + cardText(page, el)
    if (said.has(t)) out.push(el)
    said.add(t)
    return true
  })
  return out
}

/** Class names of an element drawn as a button. */
const BUTTON = /(?:^|[\s_-])(?:btn|button)(?:$|[\s_-])/i
/** The same in a camel-cased name (CSS modules, styled components): `shipMessageBtn_x1`, `AddToCartButton`. */
const CAMEL_BUTTON = /[a-z](?:Btn|Button)(?:$|[\s_-])/

/** Tailwind's class for an element the pointer clicks (`cursor-pointer`): a control drawn as a box of its own. */
const POINTER = /(?:^|\s)cursor-pointer(?:$|\s)/

/** Whether an element is drawn as a button: its class (`BUTTON`, `CAMEL_BUTTON`, `POINTER`), its role or its type. */
const drawnAsButton = (el: El): boolean => {
  const cls = el.attribs.class ?? ""
  return BUTTON.test(cls) || CAMEL_BUTTON.test(cls) || POINTER.test(cls) || el.attribs.role === "button" ||
    el.attribs.type === "button"
}

/**
 * Whether a card's short element is a control: a link of its own (not a part of a longer link, as
 * a card's title, maker and place are in a card made one link), or drawn as a button, or a box
 * whose whole text is a button's (a shipping line that opens a calculator, wrapped in its boxes).
 */
const control = (page: Page, el: El, card: El): boolean => {
  // A part of a heading (a topic linked in an entry's subtitle: "Tech conference in …") is no control.
  for (let p: El | undefined = el; p !== undefined && p !== card.parent; p = p.parent) {
    if (isHeading(p.name)) return false
  }
  for (let p: El | undefined = el; p !== undefined && p !== card.parent; p = p.parent) {
    if (drawnAsButton(p)) return true
    if (p.name === "a") return p.text <= MAX_CHROME
  }
  let button = false
  eachKept(page.all, el.order + 1, el.end, (d) => {
    if (button || isHeading(d.name) || d.text < el.text) return true
    button = drawnAsButton(d)
    return button
  })
  return button || (el.text > 0 && el.link >= el.text)
}

/**
 * The roots with each card's chrome dropped: in each group of at least `MIN_CHROME_CARDS` cards
 * (cards.ts `groupsUnder`, cards that are links all through included), an element of a card whose
 * whole text (`MAX_CHROME` characters at most) is the same as one in at least `CHROME_SHARE` of
 * the group's cards.
 */
export const withoutCardChrome = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    for (const g of outerGroups(groupsUnder(page.all, root, 0, 1))) {
      // A table's rows are data: a value repeated down a column is not a control.
      if (g.cards.length < MIN_CHROME_CARDS || g.cards[0]!.name === "tr") continue
      for (const [el] of sharedTexts(g.cards.map((c) => shortTexts(page, c)), g.cards.length)) {
        if (control(page, el, g.cards.find((c) => inside(el, c))!)) el.drop = true
      }
      // A badge the shop pins on several cards ("New Arrival", "Coming soon") is a label, not the entry.
      dropRepeatedBadges(g.cards.map((c) => badges(page, c)))
      // So is a label laid over the card's picture, whatever its name.
      dropRepeatedBadges(g.cards.map((c) => pictureLabels(page, c)))
      // "+15" over a card's swatches counts what the card's own page shows.
      for (const c of g.cards) for (const el of moreCounts(page, c)) el.drop = true
      // A link the card repeats, in card after card, is the theme's, not the entry's.
      dropInMostCards(g.cards.map((c) => c.prose < MAX_CARD_PROSE ? repeatedLinks(page, c) : []))
      // A part the framework's class hides, in card after card, is the template's data for a script.
      dropInMostCards(g.cards.map((c) => styledAway(page, c)))
      // A label read to screen readers only, the same in card after card, is not shown at all.
      for (const [el] of sharedTexts(g.cards.map((c) => spokenLabels(page, c)), g.cards.length)) el.drop = true
    }
  }
  return roots
}

/** A control's text that only counts what more a card has: "+15", "+ More", "+3 more", "4 More". */
const MORE = /^\s*(?:\+\s*\d+(?:\s*more)?|\+\s*more|\d+\s+more)\s*$/i

/** The longest such text. */
const MAX_MORE = 12

/**
 * Each control of a card (a link of its own, or drawn as a button: `control`) whose text only
 * counts what more the card has (`MORE`): a shop shows a few colour swatches under a card and a
 * link "+15" to the rest, which a reader takes for a control, not a part of the entry. It differs
 * from card to card, so the shared texts above miss it.
 */
const moreCounts = (page: Page, card: El): Array<El> => {
  const out: Array<El> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    if (el.text === 0 || el.text > MAX_MORE) return false
    if (MORE.test(collapsedText(page, el)) && control(page, el, card)) out.push(el)
    return true
  })
  return out
}

/** Class names of a badge: `badge` alone or as a part (`badge-brand`, `productBadge`, `pi__badge`). */
const BADGE = /badge/i

/** The fewest cards of a group that must show a badge's text for it to be a shop's label. */
const MIN_BADGE_CARDS = 2

/**
 * Each element of a card whose class names a badge (`BADGE`) and that shows text (`MAX_CHROME`
 * characters at most), not inside another such element, with its text.
 */
const badges = (page: Page, card: El): Array<[El, string]> => {
  const out: Array<[El, string]> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    if (el.text === 0 || el.text > MAX_CHROME || !BADGE.test(el.attribs.class ?? "")) return false
    out.push([el, cardText(page, el)])
    return true
  })
  return out
}

/**
 * A smiley's text in place of its picture: a code between colons (`:smile:`), a face typed in
 * signs (`:D`, `;)`, `:-P`), or an emoji.
 */
const SMILEY =
  /^(?::[\w+-]+:|[:;=][-']?[\w()[\]/\\|*@$]{1,2}|\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\ufe0f|\u200d\p{Extended_Pictographic})*)$/u

/**
 * Whether a picture (`img`, dropped by its tag) lies in `el`'s subtree. A smiley (its text, `alt`,
 * a smiley's: `SMILEY`) is a word of the line it stands in, not a picture a label is laid over:
 * a short post's line ending in one stays the post's.
 */
const holdsPicture = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (d.name === "img" && !SMILEY.test(d.attribs.alt?.trim() ?? "")) return true
  }
  return false
}

/**
 * Each element of a card laid over its picture: the only text (`MAX_CHROME` characters at most,
 * no price, no heading) of a box that holds the card's `img`, the box no link (a link holding a
 * picture and one text is a title made a link), with its text.
 */
const pictureLabels = (page: Page, card: El): Array<[El, string]> => {
  const out: Array<[El, string]> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    if (isHeading(el.name)) return true
    const box = el.parent
    if (el.text === 0 || el.text > MAX_CHROME || box === undefined || box === card || box.text !== el.text) return false
    // A link holding the picture and one text is a card's title made a link.
    if (el.name === "a" || box.name === "a") return false
    if (!holdsPicture(page, box)) return false
    const text = cardText(page, el)
    if (PRICE.test(text) || hasHeading(page, el)) return true
    out.push([el, text])
    return true
  })
  return out
}

/** Whether a heading lies in `el`'s subtree. */
const hasHeading = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (isHeading(page.all[i]!.name)) return true
  return false
}

/**
 * Drops the badges found in each card (`perCard`, one list per card) whose text stands in at
 * least `MIN_BADGE_CARDS` cards: a shop pins the same few labels on some of its cards ("New
 * Arrival", "Lifetime Guarantee", "Coming soon"), drawn over the picture; a reader takes them for
 * marks, and they do not tell the entries apart. A badge of one card's own ("Save 30%") stays.
 */
const dropRepeatedBadges = (perCard: ReadonlyArray<ReadonlyArray<[El, string]>>): void => {
  const cardsWith = new Map<string, number>()
  for (const found of perCard) {
    for (const t of new Set(found.map(([, t]) => t))) cardsWith.set(t, (cardsWith.get(t) ?? 0) + 1)
  }
  for (const found of perCard) for (const [el, t] of found) if (cardsWith.get(t)! >= MIN_BADGE_CARDS) el.drop = true
}

/** Drops the elements found in each card (`perCard`, one list per card) when at least `CHROME_SHARE` of the cards hold one. */
const dropInMostCards = (perCard: ReadonlyArray<ReadonlyArray<El>>): void => {
  if (perCard.filter((found) => found.length > 0).length < CHROME_SHARE * perCard.length) return
  for (const found of perCard) for (const el of found) el.drop = true
}

/** Bootstrap's class that hides an element at every width (`display: none`). */
const HIDE_CLASS = /(?:^|\s)d-none(?:$|\s)/
/**
 * Each part of a card hidden by `d-none` at every width (the outermost, with text): a shop
 * template's data for its scripts (a product's name, a sentence about its options and price, its
 * address as text, read by a quick-view script), which no reader sees. Only when at least
 * `CHROME_SHARE` of a group's cards hold one (how the cards are built, not one card's tab or a
 * variant a script shows); a page that hides its content so as a whole is not a card's part.
 */
const styledAway = (page: Page, card: El): Array<El> => {
  const out: Array<El> = []
  eachKept(page.all, card.order + 1, card.end, (el) => {
    const cls = el.attribs.class
    if (
      el.text === 0 || cls === undefined || !HIDE_CLASS.test(cls) || cls.split(/\s+/).some((w) => SHOWN_FROM.test(w))
    ) return false
    out.push(el)
    return true
  })
  return out
}

/** How many links back a link taken out of the keyboard order may repeat. */
const REPEAT_WITHIN = 3

/**
 * The roots without each link that repeats one just before it for the mouse: a link taken out of
 * the keyboard order (`tabindex="-1"`) whose address is that of one of the `REPEAT_WITHIN` links
 * shown before it (a card's second link to its item: over its picture, over its details).
 * Keyboard and screen-reader users meet the first link only, and so does the copy.
 */
export const withoutMouseRepeats = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    const recent: Array<string> = []
    eachKept(page.all, root.order, root.end, (el) => {
      const href = el.attribs.href
      if (el.name !== "a" || href === undefined) return false
      if (el.attribs.tabindex?.trim() === "-1" && recent.includes(href)) {
        el.drop = true
        return true
      }
      if (el.text > 0) {
        recent.push(href)
        if (recent.length > REPEAT_WITHIN) recent.shift()
      }
      return false
    })
  }
  return roots
}
