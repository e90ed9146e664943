/**
 * A thread's controls drawn as links that go nowhere: `href="javascript:…"` runs a script on the
 * page. A forum repeats such a link on every post (a vote's arrows, "report", "reply"); its
 * text names the control, not a page a reader could open. Short ones whose text the page repeats
 * on at least `MIN_REPEATS` of them are left out of the copy (`withoutScriptLinks`); a lone
 * script link ("Show the table") stays, and so does one inside a sentence. Where the controls stood
 * around a number alone (a vote's arrows around the post's score), the number goes with them.
 * A post's links to the reply form ("Reply With Quote") repeated under posts go too
 * (`withoutReplyLinks`), and so does a toggle that opens a text in place ("Read more", "Show
 * less") leading to no other page, even once (`withoutExpandToggles`). On a product page, a call
 * to action's link standing alone ("Learn more", "View full details", "Shop now"), whose words name
 * a click and not what it leads to, is left out too (`withoutActionLinks`), and so is a button drawn
 * as a box named so whose text opens with such a label ("Add to cart" and its hover note:
 * `withoutButtonBoxes`). On any page, a link
 * standing alone that leads elsewhere than the text above it goes as well (`withoutElsewhereLinks`):
 * a map of the place ("Get directions"), an application ("Apply now"), a section's whole list
 * ("See all reviews", "More news"), a post's comments ("27 comments"). On a page that does not say
 * it shows one product, links to a shop on another site standing alone under a guide's picks
 * ("Buy on ExampleShop", "Buy now"), two or more, go too (`withoutBuyLinks`); so do the links
 * that step a carousel in place ("Previous", "Next" to the page's own anchor: `withoutSlideControls`).
 * The short label a tooltip's icon gives screen readers ("More information") goes on every page
 * (`withoutTooltipLabels`).
 * Over 400 lines: one pass per kind of control, each short; two share the standing-link test
 * (`withoutStandingLinks`) and several the patterns of a link's address, so they stay together.
 */
import { SCREEN_READER } from "./boilerplate.js"
import {
  collapsedText,
  eachKept,
  eachShortLine,
  type El,
  hasAncestorNamed,
  holdsLink,
  type Page,
  textContent,
  wordsNextTo
} from "./tree.js"

/** A script's address: `javascript:` and whatever follows. */
const SCRIPT_HREF = /^\s*javascript:/i
/** The longest text read as a control's label. */
const MAX_CONTROL = 20
/** The least share of a control's block inside links. */
const CONTROL_ROW_LINKS = 0.5
/** The fewest script links with one text that make a repeated control. */
const MIN_REPEATS = 3

/**
 * Whether the link stands among links, as controls do (a row of them, a vote's arrows around its
 * count): its block holds at least `CONTROL_ROW_LINKS` of its text in links. A script link inside a
 * sentence (a word that opens its dictionary entry) is part of what the sentence says.
 */
const amongLinks = (el: El): boolean => {
  const block = el.block ?? el
  return block.link >= CONTROL_ROW_LINKS * block.text
}

/** A number alone: a post's score, signed or not, with thousands written as `1.2k`. */
const COUNT = /^\s*[-+\u2212]?\d[\d,.]*\s*k?\s*$/i

/** The roots without the short links whose address is a script and whose text repeats. */
export const withoutScriptLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const byText = new Map<string, Array<El>>()
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      if (el.text > 0 && el.text <= MAX_CONTROL && SCRIPT_HREF.test(el.attribs.href ?? "") && amongLinks(el)) {
        const text = collapsedText(page, el).toLowerCase()
        const links = byText.get(text) ?? []
        links.push(el)
        byText.set(text, links)
      }
      return true
    })
  }
  const rows = new Set<El>()
  for (const links of byText.values()) {
    if (links.length < MIN_REPEATS) continue
    for (const el of links) {
      el.drop = true
      if (el.parent !== undefined) rows.add(el.parent)
    }
  }
  // The score a vote's arrows stood around, now a number alone between nothing.
  for (const row of rows) if (COUNT.test(textContent(page.texts, row, true, true))) row.drop = true
  return roots
}

/**
 * A post's reply controls: boards close every post with a link to the reply form that quotes it
 * ("Reply", "Quote", "Reply With Quote", "Multi-Quote"), an address a reader could open but a
 * control all the same: it opens an empty form. Where the content holds the same such link
 * `MIN_REPEATS` times or more, each is left out (`withoutReplyLinks`); a lone "Reply" link, or
 * the word in a sentence, stays.
 */
const REPLY_CONTROL =
  /^(?:reply|quote|reply with quote|multi-?quote(?: this message)?|quick reply|reply to this (?:post|comment|topic|thread))$/i

/** The roots without the reply links the content repeats under its posts. */
export const withoutReplyLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const byText = new Map<string, Array<El>>()
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a" && el.name !== "button") return false
      if (el.text > 0 && el.text <= MAX_CONTROL) {
        const text = collapsedText(page, el).toLowerCase()
        if (REPLY_CONTROL.test(text)) byText.set(text, [...(byText.get(text) ?? []), el])
      }
      return true
    })
  }
  for (const links of byText.values()) {
    if (links.length < MIN_REPEATS) continue
    for (const el of links) el.drop = true
  }
  return roots
}

/**
 * A toggle's label: "Read more", "Show less", "See more", "View more", with a mark after it or
 * not ("Read more…", "Show more ›"). Its whole text is the control's name.
 */
export const TOGGLE = /^(?:read|show|see|view) (?:more|less)\s*[.\u2026\u00bb\u203a\u2192+]*$/i

/** The longest text read as a toggle's label. */
const MAX_TOGGLE = 16

/** An address that leads nowhere but to a script: `#` alone, or `javascript:`. */
const NOWHERE = /^\s*(?:#\s*$|javascript:)/i

/**
 * Whether an inline element opens a run of text: a word or an inline element with text right
 * after it ("<b>Read more</b>: a link" is a sentence's label, not a control). A toggle ends its
 * run: the clamped text it opens comes before it.
 */
const inRun = (page: Page, el: El): boolean => wordsNextTo(page, el, 1)

/** Whether `el`, a link inside it or a link around it leads to another page (an address that is no script, no `#` alone). */
const leadsElsewhere = (page: Page, el: El): boolean => {
  const leads = (a: El) => a.name === "a" && a.attribs.href !== undefined && !NOWHERE.test(a.attribs.href)
  for (let p: El | undefined = el; p !== undefined; p = p.parent) if (leads(p)) return true
  for (let i = el.order + 1; i < el.end; i++) if (leads(page.all[i]!)) return true
  return false
}

/**
 * The roots without the toggles that open or close a text in place: an element whose whole text is
 * a toggle's label (`TOGGLE`) and that leads to no other page (no link, or a link to a script or to
 * `#`). A clamped intro's "Read more", a description's "READ MORE" a script expands, a card's
 * "Read More" the card's own script follows: in the copy, the text is there whole, and the label
 * names a click that does nothing. A "Read more" link to the full article stays.
 */
export const withoutExpandToggles = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_TOGGLE, (el, text) => {
    if (TOGGLE.test(text) && !leadsElsewhere(page, el) && !inRun(page, el)) el.drop = true
    return true
  })
  return roots
}

/**
 * A call to action's label: words that name a click and not what it leads to ("Learn more", "Shop
 * now", "Get started", "View full details", "Free trial", "Contact us"), or a shop's own button
 * written as a link ("Add to cart" under an add-on, "Print" beside the product), with a mark after
 * it or not ("Learn more ›"). "Read more" and its kin are the toggles' (`TOGGLE`): a "Read more" link to
 * a full article stays.
 */
const ACTION = new RegExp(
  String
    .raw`^(?:(?:learn|find out|discover) more|more (?:info|information|details)|(?:see|view) (?:all |full )?details|read full details|(?:shop|buy|order|join) now|buy|get started(?: now| (?:for )?free)?|(?:start (?:your |a )?)?free trial|try (?:it )?(?:(?:for )?free|now)|(?:free )?download(?: now)?|sign up(?: now| (?:for )?free)?|contact us|(?:book|request|get|schedule) a demo|explore(?: more)?|watch (?:the )?video|see how it works|add to (?:cart|bag|basket)|print)\s*(?:[.\u2026\u00bb\u203a\u2192>+]*)$`,
  "i"
)

/** The longest text read as a call to action's label. */
const MAX_ACTION = 28

/**
 * Whether `el` is a link, holds one or sits in one that shows no more text than it: the label is
 * the link's whole text. A card drawn as one link ("Audit … Find out more") says what it leads to.
 */
const wholeLink = (page: Page, el: El): boolean => {
  for (let p: El | undefined = el; p !== undefined; p = p.parent) if (p.name === "a") return p.text === el.text
  return holdsLink(page, el)
}

/**
 * Whether `el`, whose whole text is `label`, is a link standing alone that `pattern` names: the
 * link's whole text (`wholeLink`), and no word of a run beside it (a line of its own, not a
 * sentence's "contact us").
 */
const standingLink = (page: Page, el: El, label: string, pattern: RegExp): boolean =>
  pattern.test(label) && wholeLink(page, el) && !inRun(page, el) && !wordsNextTo(page, el, -1)

/**
 * The roots without the calls to action that stand alone, on a page that says it shows one product:
 * an element whose whole text is a call to action's label (`ACTION`) and a link standing alone
 * (`standingLink`), in no table's cell. A shop's "View full details" under its buy box, its warranty's
 * "Learn more", its story's "Learn More": the button names a click; the product or the promise it
 * stands under is the text. On other pages such labels are left as they are: a service's offers
 * and its plans' table write them where their references keep some.
 */
export const withoutActionLinks = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> =>
  product
    ? withoutStandingLinks(page, withoutStandingLinks(page, roots, [ACTION]), [LEARN_ABOUT], MAX_LEARN_ABOUT)
    : roots

/**
 * "Learn more about …" with what it leads to ("Learn more about cloud-connected features", "Learn
 * More about Total Coverage"): on a product page a button under a feature or a warranty
 * note naming the page it opens, as "Learn more" alone does under the same note. A sentence (a stop
 * inside it or at its end: "Learn more about how the camera works." closing an FAQ's answer, which
 * the answer's text reads on from) is not read so.
 */
const LEARN_ABOUT = /^(?:learn|find out|discover) more (?:about|on) [^.!?]+[\u2026\u00bb\u203a\u2192>+]*$/i

/** The longest text read as a "Learn more about …" label. */
const MAX_LEARN_ABOUT = 60

/** A call to action's label opening a longer text ("Add to cart Select a colour first"): `ACTION` with a space after it. */
const ACTION_OPENING = new RegExp(ACTION.source.replace(/\$$/, "(?:\\s|$)"), "i")

/** A class word naming a button: `btn`, `button`, or one of their parts (`btn-primary`, `add-to-cart-button`, `c-button__label`). */
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button)(?:$|[\s_-])/i

/** The longest text of a button drawn as a box: its label and the note it shows on hover. */
const MAX_BUTTON = 80

/**
 * The roots without the buttons a shop draws as boxes, on a page that says it shows one product: an
 * element that is no link and not a link's whole text, named as a button by its class (`btn`, `button`), whose
 * text (80 characters or less) opens with a call to action's label ("Add to cart", with the
 * note it shows on hover while no option is picked: "Select a colour to add to cart"). A
 * `button` is dropped by its tag; a `div` drawn as one was kept, label and note.
 */
export const withoutButtonBoxes = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (!product) return roots
  eachShortLine(page, roots, MAX_BUTTON, (el, text) => {
    if (el.name === "a" || !BUTTON_CLASS.test(el.attribs.class ?? "")) return false
    if (!ACTION_OPENING.test(text.trim()) || wholeLink(page, el)) return false
    el.drop = true
    return true
  })
  return roots
}

/**
 * The roots without the elements whose whole text is a link standing alone that one of `patterns`
 * names (`standingLink`), in no table's cell: a table's cell keeps its place in the row ("Try it
 * for free" under each plan compared).
 */
const withoutStandingLinks = (
  page: Page,
  roots: ReadonlyArray<El>,
  patterns: ReadonlyArray<RegExp>,
  max = MAX_ACTION
): ReadonlyArray<El> => {
  eachShortLine(page, roots, max, (el, text) => {
    if (el.name === "td" || el.name === "th") return true
    const label = text.trim()
    if (patterns.some((pattern) => standingLink(page, el, label, pattern))) {
      el.drop = true
      return true
    }
    return false
  })
  return roots
}

/**
 * A card's link to the customer's story: "Read case study", "Read their story", "Read the success
 * story", "See customer story". Its words name a click; the card's quote or summary says what the
 * story is. "Read the full story" under a story's excerpt leads to the rest of the same text, as a
 * "Read more" does, and is not read so.
 */
const STORY_ACTION = new RegExp(
  String
    .raw`^(?:read|see|view|watch) (?:the |their |our |customer |this )*(?:case stud(?:y|ies)|(?:success |customer )?stor(?:y|ies))\s*(?:[.\u2026\u00bb\u203a\u2192>+]*)$`,
  "i"
)

/** How many cards must repeat one label for it to be the cards' button, not the page's one call. */
const MIN_STORY_LINKS = 3

/**
 * The roots without the links to customers' stories that every card of a strip repeats
 * (`STORY_ACTION`): a link's whole text on a line of its own (as `withoutActionLinks` reads a
 * call to action), written the same at least `MIN_STORY_LINKS` times in the copy ("Read case
 * study" under each customer's quote, "Read Success Story" under each project's summary), on a
 * page that does not say it shows one product (whose calls `withoutActionLinks` reads). A single
 * such link stays, and so does one in a table's cell.
 */
export const withoutStoryLinks = (page: Page, roots: ReadonlyArray<El>, product: boolean): ReadonlyArray<El> => {
  if (product) return roots
  const byLabel = new Map<string, Array<El>>()
  eachShortLine(page, roots, MAX_ACTION, (el, text) => {
    if (el.name === "td" || el.name === "th") return true
    const label = text.trim()
    if (standingLink(page, el, label, STORY_ACTION)) {
      const key = label.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()
      byLabel.set(key, [...(byLabel.get(key) ?? []), el])
      return true
    }
    return false
  })
  for (const els of byLabel.values()) {
    if (els.length < MIN_STORY_LINKS) continue
    for (const el of els) el.drop = true
  }
  return roots
}

/**
 * A link's label that opens a map or a route to a place: "View map", "View on map", "View Google
 * Map", "View Interactive Map", "Get directions", "Directions". The place it stands under (a
 * trail's card, a store's address, a venue's entry) is the text; the map is a click away.
 */
const MAP_ACTION = new RegExp(
  String
    .raw`^(?:(?:view|visit|see|show|open)(?: (?:on|in))?(?: (?:the|a))?(?: [\p{L}\p{N}'\u2019-]+){0,2} maps?|(?:get |driving )?directions)\s*(?:[.\u2026\u00bb\u203a\u2192>+]*)$`,
  "iu"
)

/**
 * A link's label that asks the reader to apply: "Apply now", "Apply today", "Apply online", "Apply
 * here", with up to three words of a note the button carries under its label ("Apply now Canada
 * only": where the job is open, which the entry above it says too).
 */
const APPLY_ACTION = new RegExp(
  String.raw`^apply (?:now|today|online|here)(?: [\p{L}\p{N}'\u2019-]+){0,3}\s*(?:[.!\u2026\u00bb\u203a\u2192>+]*)$`,
  "iu"
)

/**
 * A section's link to the whole of its list: "See all", "View all", "Browse all" and up to two
 * words ("See all reviews", "View all playlists", "Browse All Categories"), or "More" and the
 * kind of entry a news front page lists ("More news", "More articles", "More podcasts"). The
 * entries above it are the text; the rest of the list is a click away.
 */
const LIST_ACTION = new RegExp(
  String
    .raw`^(?:(?:see|view|browse) all(?: [\p{L}\p{N}'\u2019-]+){0,2}|more (?:news|articles|stories|posts|podcasts|presentations|guides|videos))\s*(?:[.\u2026\u00bb\u203a\u2192>+]*)$`,
  "iu"
)

/**
 * A card's link to its comments: a count of them and the word ("27 comments", "1 comment",
 * "1.2k comments"), or a call to write one ("Add Comment", "Leave a comment", "Post a comment").
 * The card's title and summary are the text; the link is a click to the thread under the post. A
 * heading that counts the comments below it ("5 Comments" over a thread) is no link and stays.
 */
const COMMENT_COUNT = /^(?:\d[\d,.]*k? comments?|(?:add|leave|post|write) (?:a )?comment)$/i

/**
 * The roots without the links standing alone that lead elsewhere than the text above them, on
 * every page, in one walk: a link's whole text on a line of its own (`standingLink`), in no table's
 * cell, that opens a map of the place its card or entry names (`MAP_ACTION`: a trail directory's
 * "View Trail Map" under each trail's length and steward, a venue's "Get directions" under its
 * address), asks the reader to apply (`APPLY_ACTION`: a job's "Apply now" under its title and
 * salary, a programme's "Apply Today" under its summary), opens the whole list a section shows the
 * first entries of (`LIST_ACTION`: a review site's "See all reviews" under each category's three
 * picks, a news front page's "More news" under its latest stories) or counts a post's comments
 * (`COMMENT_COUNT`: a developer community's "27 comments" under each post's reactions, or its
 * "Add Comment" under a post that has none yet). The button
 * names a click; the place, the job, the entries or the post are written above it.
 */
export const withoutElsewhereLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> =>
  withoutStandingLinks(page, roots, [MAP_ACTION, APPLY_ACTION, LIST_ACTION, COMMENT_COUNT])

/**
 * A shop's link under a pick: "Buy on ExampleShop", "Buy now", "Buy now at ExampleShop", "Buy it here",
 * "Shop now". The pick's heading and what the guide says of it are the text; the link names a
 * purchase a click away.
 */
const BUY_ACTION = new RegExp(
  String
    .raw`^(?:buy|shop)(?: (?:it|now|here))?(?: (?:on|at|from|via)(?: [\p{L}\p{N}.&'\u2019-]+){1,3})?\s*(?:[.!\u2026\u00bb\u203a\u2192>+]*)$`,
  "iu"
)

/** The longest text read as a shop's link under a pick. */
const MAX_BUY = 40

/** A list's item and a table's cells, where a shop's link is the pick's own list or the row's value. */
const ITEM_OR_CELL = ["li", "td", "th"]

/** How many picks must each close with a shop's link for the links to be the guide's buttons. */
const MIN_BUY_LINKS = 2

/** The host of an address without its `www.`, read against `base`; undefined when it does not parse. */
const hostOf = (href: string, base: string): string | undefined => {
  try {
    return new URL(href, base).hostname.toLowerCase().replace(/^www\./, "")
  } catch {
    return undefined
  }
}

/** Whether each link in or around `el` leads to another site than `pageUrl`'s (a shop elsewhere). */
const toOtherSite = (page: Page, el: El, pageUrl: string): boolean => {
  const own = hostOf(pageUrl, pageUrl)
  const links: Array<El> = []
  for (let p: El | undefined = el; p !== undefined; p = p.parent) if (p.name === "a") links.push(p)
  for (let i = el.order + 1; i < el.end; i++) if (page.all[i]!.name === "a") links.push(page.all[i]!)
  return links.length > 0 && links.every((a) => {
    const host = hostOf(a.attribs.href ?? "", pageUrl)
    return host !== undefined && own !== undefined && host !== own
  })
}

/**
 * The roots without the shop's links that close the picks of a guide, on a page that does not say
 * it shows one product (whose calls `withoutActionLinks` reads): a link's whole text on a line of
 * its own (`standingLink`) that names a purchase (`BUY_ACTION`) at another site than the page's,
 * in no list's item nor table's cell, at least `MIN_BUY_LINKS` of them on the page ("Buy on ExampleShop"
 * under each pair of headphones a guide ranks). A list of shops under a pick (each item "Buy on
 * …") is the pick's own list and stays; so does a single such link, and a shop's own "Shop now"
 * to its own pages (a collection's banners).
 */
export const withoutBuyLinks = (
  page: Page,
  roots: ReadonlyArray<El>,
  product: boolean,
  pageUrl: string
): ReadonlyArray<El> => {
  if (product) return roots
  const links: Array<El> = []
  eachShortLine(page, roots, MAX_BUY, (el, text) => {
    if (ITEM_OR_CELL.includes(el.name) || hasAncestorNamed(el, ...ITEM_OR_CELL)) return true
    if (!standingLink(page, el, text.trim(), BUY_ACTION)) return false
    if (toOtherSite(page, el, pageUrl)) links.push(el)
    return true
  })
  if (links.length >= MIN_BUY_LINKS) { for (const el of links) el.drop = true }
  return roots
}

/** A tooltip's trigger, by its tag (a custom `tool-tip`) or its class (`tooltip`, `tool-tip`, `has-tooltip`). */
const TOOLTIP = /(?:^|[\s_-])tool-?tip(?:$|[\s_])/i
/** The longest label of a tooltip's trigger (`withoutTooltipLabels`), and its most words. */
const MAX_TOOLTIP_LABEL = 24
const MAX_TOOLTIP_WORDS = 3

/**
 * The roots without the label a tooltip's trigger gives screen readers: a short text shown to
 * screen readers only (`SCREEN_READER`: "More information", "Info") right inside an element named
 * as a tooltip, the icon beside each label of a shop's specifications that shows a note on hover.
 * The note itself is furniture already (boilerplate.ts); its trigger's label names the control,
 * not the product. A longer hidden text in a trigger is the note written for screen readers (a
 * comparison table's "Every provider listed here is licensed in …") and stays.
 */
export const withoutTooltipLabels = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      const parent = el.parent
      if (el.attribs.class === undefined || !SCREEN_READER.test(el.attribs.class) || parent === undefined) return false
      if (!TOOLTIP.test(parent.name) && !TOOLTIP.test(parent.attribs.class ?? "")) return true
      const text = collapsedText(page, el)
      if (text.length > 0 && text.length <= MAX_TOOLTIP_LABEL && text.split(" ").length <= MAX_TOOLTIP_WORDS) {
        el.drop = true
      }
      return true
    })
  }
  return roots
}

/** A slider's step control's label: "Previous", "Prev" or "Next", with "slide" after it or not. */
const SLIDE_STEP = /^(?:prev(?:ious)?|next)(?: slide)?$/i

/** The longest text read as a step control's label. */
const MAX_STEP = 16

/** An address inside the page: an anchor (`#` and a name, or `#` alone) or a script. */
const IN_PAGE = /^\s*(?:#|javascript:)/i

/**
 * The roots without the links that step a slider or a carousel in place: a link whose whole text
 * is "Previous" or "Next" (`SLIDE_STEP`; a theme's carousel writes them for screen readers beside
 * its arrows) and whose address stays on the page (`IN_PAGE`: the carousel's own anchor). The copy
 * shows every slide; the label names a click that only moves them. A "Next" link to the list's next
 * page leads elsewhere and stays.
 */
export const withoutSlideControls = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      const href = el.attribs.href
      if (
        el.text > 0 && el.text <= MAX_STEP && href !== undefined && IN_PAGE.test(href) &&
        SLIDE_STEP.test(collapsedText(page, el))
      ) el.drop = true
      return true
    })
  }
  return roots
}
