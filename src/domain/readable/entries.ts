/**
 * A listing's entries beside the text that scores: a listing, a collection or a category page
 * often holds an intro, a buying guide or a short description that scores as the article, while
 * the cards it lists (a linked title and a line or two each) never score. When the scored choice
 * keeps under half of what the page shows, reads as no article, and the cards it leaves out hold
 * a good share of what it leaves out, the page's visible text is the copy (content.ts
 * `chooseContent`).
 */
import { groupsUnder } from "./cards.js"
import { type El, inside, measure, type Page, textContent } from "./tree.js"

/** The share of the page's visible text under which a scored choice may give way to the entries. */
const MAX_KEPT_SHARE = 0.5
/** The least share of what the choice leaves out that the entries it leaves out must hold. */
const MIN_CARDS_OUT = 0.3
/** The least text of a group of cards counted. */
const MIN_GROUP_TEXT = 200
/** The least share of a group's cards that hold a link (an entry links to its page). */
const LINKED_SHARE = 0.8
/**
 * Paragraph text (`El.prose`) from which the scored choice is an article's body, kept: more than
 * a paragraph or two (content.ts `PREFACE` reads a choice under 600 characters as a preface).
 */
const ARTICLE_BODY = 600
/** The characters at the start of the choice where an article shows its date. */
const DATE_WITHIN = 300

/** A date as a page shows it: 21.01.2022, 2022-01-21, 21/01/2022, 1/21/22, January 21, 2022, 21 January 2022. */
export const DATE = new RegExp(
  String.raw`\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|` +
    String.raw`\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}\b|` +
    String.raw`\b\d{1,2}\.?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}\b`,
  "i"
)

/** Whether `el` holds a `time` element (one not dropped): a date the page shows. */
const holdsTime = (page: Page, el: El): boolean => {
  for (let i = el.order; i < el.end; i++) if (page.all[i]!.name === "time" && !page.all[i]!.drop) return true
  return false
}

/**
 * Whether the choice is an article: the page says when it was published (`published`: its meta
 * tags or JSON-LD), or the choice shows a date near its start or a `time` element, or holds
 * `ARTICLE_BODY` characters of paragraphs, or sits in an `article` element.
 */
const article = (page: Page, roots: ReadonlyArray<El>, prose: number, published: boolean): boolean => {
  if (published || prose >= ARTICLE_BODY) return true
  for (const r of roots) {
    for (let p: El | undefined = r; p !== undefined; p = p.parent) if (p.name === "article") return true
    if (holdsTime(page, r)) return true
  }
  const start = roots.map((r) => textContent(page.texts, r, true, true)).join(" ").replace(/\s+/g, " ")
  return DATE.test(start.slice(0, DATE_WITHIN))
}

/**
 * Whether the scored choice (`roots`: `kept.text` characters, `kept.prose` of them paragraphs)
 * leaves out the page's entries: it keeps under `MAX_KEPT_SHARE` of the visible text (`shown`
 * characters of `fallback`, as the visible fallback's drops leave the page), it is no article
 * (`article`), and the groups of cards in `fallback` outside `roots` (cards.ts `groupsUnder`,
 * cards made links included) whose cards mostly hold a link (`LINKED_SHARE`) hold at least
 * `MIN_CARDS_OUT` of what it leaves out. A group whose cards mostly show a `time` element is
 * teasers of articles (a service page's "insights"), not a listing's entries.
 */
export const entriesLeftOut = (
  page: Page,
  roots: ReadonlyArray<El>,
  fallback: ReadonlyArray<El>,
  kept: { readonly text: number; readonly prose: number; readonly published: boolean },
  shown: number
): boolean => {
  if (kept.text >= MAX_KEPT_SHARE * shown) return false
  let entries = 0
  const counted: Array<El> = []
  for (const block of fallback) {
    for (const g of groupsUnder(page.all, block, MIN_GROUP_TEXT, 1)) {
      // A group nested in one counted (cards in a card) counts once.
      if (counted.some((o) => inside(g.parent, o))) continue
      if (g.cards.filter((c) => c.link > 0).length < LINKED_SHARE * g.cards.length) continue
      if (g.cards.filter((c) => holdsTime(page, c)).length >= LINKED_SHARE * g.cards.length) continue
      counted.push(g.parent)
      for (const c of g.cards) if (!roots.some((r) => inside(c, r) || inside(r, c))) entries += c.text
    }
  }
  return entries >= MIN_CARDS_OUT * (shown - kept.text) && !article(page, roots, kept.prose, kept.published)
}

/** The least share of a `main`'s text inside links for `entriesBeside` (a list of entries). */
const MAIN_LINKS = 0.5
/** The fewest `article` elements read as a listing's entries by `entriesBeside` (`entryBlocks`). */
const MIN_ARTICLES = 8
/** Paragraph text under which a `main` holds no text of its own, only entries (content.ts `declaredMain`). */
const MAIN_PROSE = 200

/**
 * The choice with the page's `main` beside it, when `main` holds only entries and the choice
 * leaves them out: a theme that puts a category's description before its `main` and the entries
 * (linked titles, each alone in its card) in it, which score nothing and are cleaned away. The
 * visible fallback (`fallback`, the page's one `main`) shows the entries alone, the choice the
 * description alone; both are the page. A theme with no `main` that builds each entry as an
 * `article` (`MIN_ARTICLES` or more, the visible fallback's outermost articles) is read the same
 * way, the articles together as the `main` (`entryBlocks`). The blocks must hold `MIN_GROUP_TEXT`
 * characters, at least `MAIN_LINKS` of them in links and under `MAIN_PROSE` of paragraphs, the
 * choice (`chosen`: the drops it left, by element number) must keep under half of them, and be no
 * dated article (`article`, without the bar on paragraphs); what the choice keeps of a block it
 * holds is read past the subtrees its cleaning dropped (a list of entries dropped whole inside the
 * `main`). The choice is shown as scoring left it, the blocks as the visible fallback shows them.
 */
export const entriesBeside = (
  page: Page,
  roots: ReadonlyArray<El>,
  chosen: ReadonlyArray<boolean>,
  fallback: ReadonlyArray<El>,
  published: boolean
): ReadonlyArray<El> | undefined => {
  const all = page.all
  const blocks = entryBlocks(page, fallback)
  if (blocks === undefined) return undefined
  const text = blocks.reduce((n, b) => n + b.text, 0)
  if (text < MIN_GROUP_TEXT) return undefined
  if (blocks.reduce((n, b) => n + b.link, 0) < MAIN_LINKS * text) return undefined
  if (blocks.reduce((n, b) => n + b.prose, 0) >= MAIN_PROSE) return undefined
  if (roots.some((r) => blocks.some((b) => inside(r, b)))) return undefined
  const within = (el: El): boolean => blocks.some((b) => inside(el, b))
  let kept = 0
  for (const main of blocks) {
    // The choice's cleaning marks the elements it drops, not what they hold: a dropped element's
    // subtree, or a dropped ancestor's, keeps nothing.
    let between = false
    for (let p: El | undefined = main; p !== undefined && roots.some((r) => inside(p!, r)); p = p.parent) {
      if (chosen[p.order]) between = true
    }
    if (!roots.some((r) => inside(main, r)) || between) continue
    for (let i = main.order; i < main.end;) {
      if (chosen[i]) {
        i = all[i]!.end
        continue
      }
      if (!all[i]!.drop) kept += all[i]!.selfText
      i++
    }
  }
  if (2 * kept >= text || article(page, roots, 0, published)) return undefined
  for (const r of roots) for (let i = r.order; i < r.end; i++) if (!within(all[i]!)) all[i]!.drop = chosen[i]!
  for (const main of blocks) {
    for (let p = main.parent; p !== undefined && roots.some((r) => inside(p!, r)); p = p.parent) p.drop = false
  }
  measure(page)
  const beside = blocks.filter((b) => !roots.some((r) => inside(b, r)))
  return beside.length === 0 ? roots : [...roots, ...beside].sort((a, b) => a.order - b.order)
}

/**
 * The blocks of the visible fallback that may be a listing's entries: the page's one `main`, or
 * `MIN_ARTICLES` or more `article` elements (a theme that builds each entry of a category as an
 * `article` holding its linked title, with no `main` around them).
 */
const entryBlocks = (page: Page, fallback: ReadonlyArray<El>): ReadonlyArray<El> | undefined => {
  if (fallback.length === 1 && page.mains.includes(fallback[0]!)) return fallback
  if (fallback.length >= MIN_ARTICLES && fallback.every((b) => b.name === "article")) return fallback
  return undefined
}
