/**
 * Strips a page labels as advertising. A shop's carousels of sponsored products, an article's
 * boxes of paid links: the page says so in words the reader sees ("Sponsored", "Advertisement"),
 * as advertising rules ask, while their classes are generated and their cards are links. The
 * label is a short element of its own; the strip it marks is the largest block around it that is
 * mostly links (half or more of its text), holds a run of items (three siblings or more of one
 * shape: the carousel's cards), holds no first-level heading and stays under a quarter of the
 * page's text: not the product or the article it sits beside (an article marked as sponsored is
 * prose, not links), nor one post of a thread that a board's advertisement stands in.
 */
import { MIN_CARDS, runsOfShape } from "./cards.js"
import { collapsedText, type El, h1Within, type Page, withoutShortLines } from "./tree.js"

/** What a label of advertising says, alone in its element. */
const AD_LABEL = /^(?:sponsored|advertisement|promoted|sponsored (?:products?|items?|links?|content|stories))$/i

/** The longest text of such a label. */
const MAX_LABEL = 30
/** The largest share of the page's text a strip holds. */
const MAX_SHARE = 0.25
/** The least share of a strip's text in links. */
const MIN_LINKS = 0.5

/** Whether `el` holds a run of items: three siblings or more of one shape (cards.ts `siblingsOfShape`), links or not. */
const holdsRun = (page: Page, el: El): boolean => {
  for (let i = el.order; i < el.end; i++) {
    const p = page.all[i]!
    if (p.drop || p.children.length < MIN_CARDS) continue
    if (runsOfShape(p, 1).next().done !== true) return true
  }
  return false
}

/** The strips a label calls advertising (see above), outermost only. */
export const sponsoredStrips = (page: Page): Array<El> => {
  const cap = MAX_SHARE * page.root.text
  const out: Array<El> = []
  for (const el of page.all) {
    if (el.drop || el.text === 0 || el.text > MAX_LABEL) continue
    if (out.some((s) => el.order >= s.order && el.order < s.end)) continue
    if (!AD_LABEL.test(collapsedText(page, el))) continue
    let strip: El | undefined
    for (let a = el.parent; a !== undefined && a.parent !== undefined && a.text <= cap; a = a.parent) {
      if (a.name === "body" || a.name === "main" || h1Within(page, a.order, a.end)) break
      if (a.link >= MIN_LINKS * a.text && holdsRun(page, a)) strip = a
    }
    if (strip !== undefined) out.push(strip)
  }
  return out
}

/**
 * An advertisement's label with a note: a slot in a thread or an article says what it is and why
 * ("Advertisement - Members don't see this ad", "Advertisement (gone after registration)",
 * "Advertisement - Page continues below", "Advertisement: New AI Book!"), a line of its own beside
 * the ad. Such an element (the word, then a dash, a colon or a bracket and at most `MAX_NOTE`
 * characters) is left out (`withoutAdNotes`); a sentence about advertising holds more.
 */
const AD_NOTE = /^advertisement\s*(?:[-\u2013\u2014:]|\()\s*\S/i
/** The longest label and note (visible characters). */
const MAX_NOTE = 60

/**
 * A label of advertising alone on its line ("Sponsored" under a card's price, above a paid box)
 * that marks no strip (`sponsoredStrips`: a card among the shop's own, a box of prose) says what
 * the item is, not what it says: the item stays, its label is left out too.
 */
const AD_LINE = new RegExp(`${AD_NOTE.source}|${AD_LABEL.source}`, "i")

/** The roots without the labels of advertisements written with a note or alone. */
export const withoutAdNotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> =>
  withoutShortLines(page, roots, MAX_NOTE, AD_LINE)
