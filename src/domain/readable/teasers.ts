/**
 * Teasers of other pages beside an article: a run of siblings of one shape, each a heading that is
 * all one link to another page with a line or two of its summary (and a date, a picture) — the
 * "more stories", "latest posts" and "you may also like" strips a theme puts under or beside an
 * article. Each of them says little and links away; together they may outweigh the article's last
 * sections and were chosen with it. When an article's content holds prose of its own beside them
 * (far more than the teasers' text), the teasers are left out (`withoutTeasers`). A page made of
 * teasers (a listing, a blog's front page: no date of publication, or little prose beside them)
 * keeps them: they are its content. A teaser's linked heading counts even where the cleaning pass
 * dropped it (a header of links: category, title, byline) and left its summary alone. A teaser
 * whose summary is cut short (ending with an ellipsis: the first words of the other post) says
 * what it is without the page's date: a sidebar's "Popular" list of a shop's blog, whose posts
 * carry no date in their markup. A theme that writes a teaser's title as a paragraph all one link
 * (no heading) over a byline with a date builds the same teaser (`linkedTitleOverDate`). A strip
 * whose every summary is cut short is left out beside an article holding as much prose as its
 * text (not twice): a short news story under which the theme lists six posts of the day, each a
 * title, a date and the first words of the post cut off. A teaser whose title link the theme left
 * empty (filled in by script) beside its picture linked to the same address is one too, dated page
 * or not (`emptyTitleBesidePicture`): a "Trending stories" strip of lines and pictures. A strip
 * left out takes with it the short label right over it, set as a paragraph (`labelOver`). A strip
 * one of whose cards' linked heading goes to the page itself (`headingToPage`: the site's latest
 * posts, this one among them) is teasers on a page that gives no date, and goes beside as much
 * prose as its text, as a strip cut short does: a listing never lists itself.
 *
 * A strip of cards that each open with the kind of publication they link to ("Whitepaper",
 * "Case study", "Blog" over a title and a call to action) is the site's resources under a service
 * page's own text; it is left out on any page that is no product's and no discussion, when it holds
 * a small share of the content (`withoutLabelledTeasers`).
 */
import { MIN_CARDS, runsOfShape } from "./cards.js"
import { isHeading } from "./edges.js"
import { DATE } from "./entries.js"
import { resolveHref } from "./links.js"
import type { PageMeta } from "./meta.js"
import { eachKept, type El, firstShown, type Page, parsedText, textContent } from "./tree.js"

/** The most text outside links a teaser holds: its summary, a date, a label. */
const MAX_SUMMARY = 400
/** The least share of a heading's text inside one link for it to be a link to another page. */
const HEADING_LINKED = 0.9
/** The least share of a group's siblings that are teasers. */
const TEASER_SHARE = 0.8
/** How many times the teasers' text the rest of the content must hold for it to be an article beside them. */
const ARTICLE_BESIDE = 2
/** The same for a group whose every teaser's summary is cut short. */
const CUT_BESIDE = 1

/**
 * Whether `card` holds a heading (`h2`–`h6`) that is all one link, shown or not: the cleaning pass
 * drops a heading that is nothing but a link, and the card was built with it all the same.
 */
const linkedHeading = (page: Page, card: El): boolean => {
  for (let i = card.order + 1; i < card.end; i++) {
    const el = page.all[i]!
    if (isHeading(el.name) && el.name !== "h1" && allOneLink(page, el)) return true
  }
  return false
}

/** Whether `el`'s text, shown or not (`linkShare` when dropped), is all one link (`oneLink`): a teaser's title. */
const allOneLink = (page: Page, el: El): boolean => {
  const [text, link] = el.drop ? linkShare(page, el) : [el.text, el.link]
  return text > 0 && link >= HEADING_LINKED * text && oneLink(page, el)
}

/** The visible characters of a dropped element's subtree and those inside its links, as the parse counted them. */
const linkShare = (page: Page, el: El): [number, number] => {
  let link = 0
  for (let i = el.order; i < el.end;) {
    const d = page.all[i]!
    if (d.name === "a") {
      link += parsedText(page, d)
      i = d.end
    } else i++
  }
  return [parsedText(page, el), link]
}

/** Whether the links in a heading all go to one address (other than the page's own fragment). */
const oneLink = (page: Page, heading: El): boolean => {
  const hrefs = new Set<string>()
  for (let i = heading.order; i < heading.end; i++) {
    const el = page.all[i]!
    if (el.name === "a" && parsedText(page, el) > 0) hrefs.add(el.attribs.href ?? "")
  }
  const [href] = hrefs
  return hrefs.size === 1 && href !== undefined && href.length > 0 && !href.startsWith("#")
}

/** A summary cut short: text that ends with an ellipsis (three dots or the character). */
const CUT_SHORT = /(?:\.\.\.|\u2026)\s*$/

/** The most elements a teaser is built of (a picture, a title, a summary, a date: a few dozen at most). */
const MAX_TEASER_ELEMENTS = 60

/** The least characters of a block that ends cut short for it to be a summary (not "Read more..."). */
const MIN_CUT_SUMMARY = 40

/**
 * Whether `card` links to another page and holds a summary cut short: a block of its own text
 * ending with an ellipsis. A theme writes the first words of each other post and cuts them off
 * ("Did you know that 60% of travelers value great coffee at..."); an article's own paragraphs are
 * whole. The link counts shown or not: a card whose title is plain text leads away by a button
 * ("Explore", "Read more") that the cleaning drops before the teasers are weighed.
 */
const cutShortSummary = (page: Page, card: El): boolean => {
  if (card.end - card.order > MAX_TEASER_ELEMENTS) return false
  let linked = false
  let cut = false
  // A link the cleaning dropped ("Explore", a call to action) still says where the card leads.
  for (let i = card.order + 1; i < card.end && !linked; i++) {
    const el = page.all[i]!
    const href = el.name === "a" ? el.attribs.href ?? "" : ""
    if (href.length > 0 && !href.startsWith("#") && parsedText(page, el) > 0) linked = true
  }
  eachKept(page.all, card.order, card.end, (el) => {
    if (el.name === "a") return true
    if (!cut && el.selfText > 0 && el.text >= MIN_CUT_SUMMARY && el.link === 0) cut = endsCutShort(page, el)
    return false
  })
  return linked && cut
}

/** Whether an element's last text of its own ends with an ellipsis. */
const endsCutShort = (page: Page, el: El): boolean => {
  for (let k = el.children.length - 1; k >= 0; k--) {
    const c = el.children[k]!
    if (typeof c !== "number") continue
    const t = page.texts.of(c)
    if (t.trim().length > 0) return CUT_SHORT.test(t)
  }
  return false
}

/**
 * Whether `card` opens with a title written as a paragraph that is all one link (no heading) and
 * shows a date outside its links (a `time` element or a date in its byline): a post's teaser
 * whose theme writes its title as `<p><a>…</a></p>` over "Written by … on August 7, 2025".
 */
const linkedTitleOverDate = (page: Page, card: El): boolean => {
  if (card.end - card.order > MAX_TEASER_ELEMENTS) return false
  let first: El | undefined
  for (let i = card.order + 1; i < card.end; i++) {
    const el = page.all[i]!
    if (el.text > 0 && (el.name === "p" || isHeading(el.name))) {
      first = el
      break
    }
  }
  if (first === undefined || !allOneLink(page, first)) return false
  for (let i = first.end; i < card.end; i++) if (page.all[i]!.name === "time" && !page.all[i]!.drop) return true
  const rest = textContent(page.texts, card, true, true).slice(textContent(page.texts, first, true, true).length)
  return DATE.test(rest)
}

/**
 * Whether `card` holds a title link left empty (no child at all: the theme fills it in by script)
 * beside a picture linking to the same address: a teaser whose title the page never wrote, over
 * its summary ("Trending stories": an empty `<a href="/post">` and the post's picture linked).
 */
const emptyTitleBesidePicture = (page: Page, card: El): boolean => {
  if (card.end - card.order > MAX_TEASER_ELEMENTS) return false
  const empty = new Set<string>()
  const pictured = new Set<string>()
  for (let i = card.order + 1; i < card.end; i++) {
    const el = page.all[i]!
    if (el.name !== "a") continue
    const href = el.attribs.href ?? ""
    if (href.length === 0 || href.startsWith("#")) continue
    if (el.children.length === 0) empty.add(href)
    else if (parsedText(page, el) === 0) {
      for (let j = el.order + 1; j < el.end; j++) if (page.all[j]!.name === "img") pictured.add(href)
    }
  }
  for (const href of empty) if (pictured.has(href)) return true
  return false
}

/** A URL's address without its query, fragment and closing slash: the page it names. */
const addressOf = (url: string): string | undefined => {
  try {
    const u = new URL(url)
    return `${u.host}${u.pathname.replace(/\/+$/, "")}`.toLowerCase()
  } catch {
    return undefined
  }
}

/**
 * Whether `card`'s heading all one link goes to the page itself (`own`: the page's address and its
 * canonical one, `addressOf`): a strip of the site's posts that lists the post it sits under among
 * the others ("Blog": the latest six, this one among them). A listing never lists itself.
 */
const headingToPage = (page: Page, card: El, base: URL | undefined, own: ReadonlySet<string>): boolean => {
  if (own.size === 0 || card.end - card.order > MAX_TEASER_ELEMENTS) return false
  for (let i = card.order + 1; i < card.end; i++) {
    const el = page.all[i]!
    if (!isHeading(el.name) || el.name === "h1" || !allOneLink(page, el)) continue
    for (let j = el.order + 1; j < el.end; j++) {
      const a = page.all[j]!
      if (a.name !== "a") continue
      const url = resolveHref((a.attribs.href ?? "").trim(), base)
      const address = url === undefined ? undefined : addressOf(url)
      if (address !== undefined && own.has(address)) return true
    }
    return false
  }
  return false
}

/**
 * A teaser: little text outside links, and a heading all one link (or a title paragraph all one
 * link over a date) or a link beside a summary cut short, or an empty title link beside its
 * picture; on a page that does not say when it was published (`dated` false), only the last two.
 */
const teaser = (page: Page, card: El, dated: boolean): boolean =>
  card.text - card.link <= MAX_SUMMARY &&
  ((dated && (linkedHeading(page, card) || linkedTitleOverDate(page, card))) || cutShortSummary(page, card) ||
    emptyTitleBesidePicture(page, card))

/**
 * The roots with each group of teasers left out, on a page that is not a product's (meta.ts), when
 * the rest of the content is an article beside them: its prose at least `ARTICLE_BESIDE` times the
 * teasers' text (`CUT_BESIDE` times for a group whose every summary is cut short or that lists the
 * page itself). Teasers whose summaries are cut short count on any page; those known by their
 * linked headings alone only on a page that says when it was published, or in a group one of whose
 * headings links to the page itself (`pageUrl` or the canonical address, links resolved against
 * `base`).
 */
export const withoutTeasers = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: Partial<Pick<PageMeta, "product" | "published" | "canonical">> = {},
  pageUrl?: string,
  base?: URL
): ReadonlyArray<El> => {
  if (says.product === true) return roots
  const dated = says.published !== undefined
  const own = new Set<string>()
  for (const url of [pageUrl, says.canonical]) {
    const address = url === undefined ? undefined : addressOf(url)
    if (address !== undefined) own.add(address)
  }
  const prose = roots.reduce((n, r) => n + r.prose, 0)
  const groups: Array<Array<El>> = []
  const cutGroups = new Set<Array<El>>()
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      // Siblings of one shape are one group.
      let grouped = false
      for (const cards of runsOfShape(el, 1)) {
        // A strip that lists the page itself among its cards is the site's posts beside it, dated page or not.
        const self = cards.some((k) => headingToPage(page, k, base, own))
        if (cards.filter((k) => teaser(page, k, dated || self)).length >= TEASER_SHARE * cards.length) {
          groups.push(cards)
          if (self || cards.every((k) => cutShortSummary(page, k))) cutGroups.add(cards)
          grouped = true
        }
      }
      return grouped
    })
  }
  const teased = groups.reduce((n, g) => n + g.reduce((m, k) => m + k.text, 0), 0)
  // What the article's prose must outweigh: each group's text, twice unless every summary is cut short.
  const weighed = groups.reduce(
    (n, g) => n + (cutGroups.has(g) ? CUT_BESIDE : ARTICLE_BESIDE) * g.reduce((m, k) => m + k.text, 0),
    0
  )
  const teasedProse = groups.reduce((n, g) => n + g.reduce((m, k) => m + k.prose, 0), 0)
  if (teased === 0 || prose - teasedProse < weighed) return roots
  for (const g of groups) {
    for (const k of g) k.drop = true
    const label = labelOver(page, g)
    if (label !== undefined) label.drop = true
  }
  return roots
}

/** The longest label read as the name of a strip of teasers ("Trending stories in world travel"). */
const MAX_STRIP_LABEL = 60

/**
 * The label over a group of teasers that fills its parent: the element right before that parent,
 * of its own short text alone (no link, no sentence's end) — a strip's name set as a paragraph,
 * which the headings' pass does not weigh.
 */
const labelOver = (page: Page, cards: ReadonlyArray<El>): El | undefined => {
  const parent = cards[0]!.parent
  if (parent === undefined || parent.parent === undefined) return undefined
  if (firstShown(parent) !== undefined) return undefined
  const siblings = parent.parent.children
  let before: El | undefined
  for (const c of siblings) {
    if (c === parent) break
    if (typeof c !== "number" && !c.drop && c.text > 0) before = c
  }
  if (before === undefined || before.text > MAX_STRIP_LABEL || before.link > 0) return undefined
  if (!before.children.every((c) => typeof c === "number")) return undefined
  const text = textContent(page.texts, before).trim()
  return text.length > 0 && !/[.!?]$/.test(text) ? before : undefined
}

/**
 * A label that names what kind of publication a card links to: a resource hub's "Whitepaper",
 * "Case study", "Blog", "Webinar" over each card's title.
 */
const KIND_LABEL =
  /^\s*(?:(?:research\s+|analyst\s+)?reports?|white\s*papers?|e-?books?|case\s+stud(?:y|ies)|(?:customer|success)\s+stor(?:y|ies)|blog(?:\s+posts?)?|articles?|guides?|(?:on-demand\s+)?webinars?|videos?|podcasts?|(?:product|solution)\s+briefs?|data\s*sheets?|infographics?|press\s+releases?|news|announcements?|perspectives?|research|toolkits?|checklists?)\s*$/i

/** The least share of a run's cards that open with such a label (a strip may mix in a card of the pricing or a guide). */
const LABELLED_CARDS = 0.5
/** The longest label read as a publication's kind. */
const MAX_KIND_LABEL = 30
/** The largest share of the content's text the labelled cards may hold (more, and they are its content: a resource hub). */
const MAX_LABELLED_SHARE = 0.4

/** The first element with text of its own in `card`, kept. */
const firstOwnText = (page: Page, card: El): El | undefined => {
  for (let i = card.order + 1; i < card.end;) {
    const el = page.all[i]!
    if (el.drop || el.text === 0) {
      i = el.end
      continue
    }
    if (el.selfText > 0) return el
    i++
  }
  return undefined
}

/**
 * Whether `card` opens with a label naming a kind of publication (`KIND_LABEL`: an element of its
 * own text alone) and holds more text after it (the publication's title).
 */
const labelledTeaser = (page: Page, card: El): boolean => {
  const first = firstOwnText(page, card)
  if (first === undefined || first.text > MAX_KIND_LABEL || first.text >= card.text) return false
  if (!first.children.every((c) => typeof c === "number")) return false
  return KIND_LABEL.test(textContent(page.texts, first))
}

/**
 * The roots without each run of cards that open with the kind of publication they link to
 * ("Whitepaper", "Case study", "Blog" over a title and its line): the strip of the site's
 * resources a service page closes with, on a page that is neither a product's nor a discussion.
 * `MIN_CARDS` cards and half the run at least must open so, and the runs must hold under
 * `MAX_LABELLED_SHARE` of the content's text (a page of such cards is a resource hub: they are its
 * content).
 */
export const withoutLabelledTeasers = (
  page: Page,
  roots: ReadonlyArray<El>,
  says: Partial<Pick<PageMeta, "product" | "discussion">> = {}
): ReadonlyArray<El> => {
  if (says.product === true || says.discussion === true) return roots
  const total = roots.reduce((n, r) => n + r.text, 0)
  const groups: Array<Array<El>> = []
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      let grouped = false
      for (const cards of runsOfShape(el, 1)) {
        const count = cards.filter((k) => labelledTeaser(page, k)).length
        if (count >= MIN_CARDS && count >= LABELLED_CARDS * cards.length) {
          groups.push(cards)
          grouped = true
        }
      }
      return grouped
    })
  }
  const labelled = groups.reduce((n, g) => n + g.reduce((m, k) => m + k.text, 0), 0)
  if (labelled === 0 || labelled >= MAX_LABELLED_SHARE * total) return roots
  for (const g of groups) for (const k of g) k.drop = true
  return roots
}
