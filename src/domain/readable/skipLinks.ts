/**
 * Navigation for keyboards and screen readers only, which a sighted reader never meets:
 *
 * - Skip links: the first links of an accessible page ("Skip to content", "Skip to main content",
 *   "Skip to search results") jump past its menus to an anchor further down. A style sheet keeps
 *   them off the screen until a keyboard reaches them, which the copy does not read, and themes
 *   that do not name them (`skip-link`: content.ts `BANNER`) leave them in the copy's first line.
 *   A link to an anchor (its address holds a `#`) whose short text says "skip to" is left out
 *   (`withoutSkipLinks`), and so is one whose whole text is a way back up the page ("Back to
 *   navigation", "Back to the menu", "Back to top": `BACK`), the skip link's return jump that
 *   closes a section for keyboards; "Back to posts" (a link to another page) is no such jump. A jump
 *   past one block ("Skip this section", "Skip the carousel": `PAST`) to an anchor of the page goes too.
 *   Both only when the link stands alone (`standsAlone`): a tutorial's "If you have Git already, skip
 *   this section." or "then go back to the menu and save" says it inside a sentence, which is the
 *   reader's text. A "skip to" link goes when it stands alone or only beside other skip links
 *   (`amongSkipLinks`: they often sit several in a row); "you may skip to chapter 2" stays.
 * - A menu written again for screen readers: shops whose menus open on hover or from a script
 *   write the whole menu a second time, as plain links in a block a style sheet clips to nothing
 *   (`visually-hidden`, `sr-only`, `screen-reader-text`), so that screen readers can walk it. No
 *   name marks it as navigation, and on a page copied as its visible text it opened the copy with
 *   every department of the shop. Such a block holding `MIN_MENU` characters or more, at least
 *   `MENU_LINKS` of them in links, is left out (`withoutSpokenMenus`); a label for screen readers
 *   ("Sale price", "4.7 out of 5 stars") is short and no link, and stays as chrome.ts reads it.
 */
import { SCREEN_READER } from "./boilerplate.js"
import { eachKept, type El, type Page, textContent, withoutEach } from "./tree.js"

/** A skip link's words. */
const SKIP = /^\s*skip\s+(?:to|navigation)\b/i

/**
 * A jump past one block's whole text: "Skip this section", "Skip the carousel", "Skip slider",
 * "Skip gallery", which a shop sets before each strip of its page (a carousel of brands, a grid of
 * videos) for keyboards, linking the anchor right after it. Only these words, the whole link: "Skip
 * the tutorial" (a step the reader may pass) names no block of the page.
 */
const PAST = /^\s*skip\s+(?:(?:this|the)\s+)?(?:section|carousel|slider|gallery)\s*$/i

/**
 * Whether `el`, an inline element, is all of its line but for what `beside` allows: walking from
 * `el` and from each inline element around it up to its nearest block, each way along its siblings
 * to the next block, every text holds no `word` and every shown element is one `beside` names.
 */
const aloneBut = (page: Page, el: El, word: RegExp, beside: (k: El) => boolean): boolean => {
  for (let at: El | undefined = el; at !== undefined && at.block !== undefined; at = at.parent) {
    const kids = at.parent?.children ?? []
    const i = kids.indexOf(at)
    for (const step of [-1, 1]) {
      for (let j = i + step; j >= 0 && j < kids.length; j += step) {
        const k = kids[j]!
        if (typeof k === "number") {
          if (word.test(page.texts.of(k))) return false
          continue
        }
        if (k.drop || k.text === 0) continue
        // A block ends the line.
        if (k.block === undefined) break
        if (!beside(k)) return false
      }
    }
  }
  return true
}

/** Anything but spaces: a word, or a separator, beside a jump link keeps it in its sentence. */
const SHOWN = /\S/

/**
 * Whether `el`, an inline element, is all of its line: no text (but spaces) and no shown inline
 * element beside it, nor beside any inline element around it, up to its nearest block. "Skip this
 * section" alone in its box stands alone; "<a>Skip this section</a> if Git is installed" does not.
 */
const standsAlone = (page: Page, el: El): boolean => aloneBut(page, el, SHOWN, () => false)

/** A letter or a digit: a word. */
const WORDED = /[\p{L}\p{N}]/u

/** Whether `k` is a link whose text says "skip to" (`SKIP`). */
const isSkipLink = (page: Page, k: El): boolean => k.name === "a" && SKIP.test(textContent(page.texts, k))

/**
 * Whether `el`, an inline element, stands in a row of skip links (`SKIP`) and nothing else: beside
 * it, and beside each inline element around it up to its nearest block, only other skip links,
 * separators and spaces up to the next block ("Skip to content | Skip to navigation" at the top of
 * a page's wrapper). "You may skip to chapter 2 now" has words beside it.
 */
const amongSkipLinks = (page: Page, el: El): boolean => aloneBut(page, el, WORDED, (k) => isSkipLink(page, k))

/** A return jump's whole text: "back to" the navigation, the menu or the top, nothing else. */
const BACK = /^\s*back\s+to\s+(?:the\s+)?(?:navigation|menu|top)\s*$/i

/** The most text of a skip link ("Skip to main content and primary navigation"). */
const MAX_SKIP = 60

/**
 * The roots without each link to an anchor whose text says "skip to" (`SKIP`) standing alone or
 * among skip links only (`amongSkipLinks`), or is a way back up (`BACK`) or a jump past a block
 * (`PAST`) standing alone (`standsAlone`).
 */
export const withoutSkipLinks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.name !== "a") return false
      const href = el.attribs.href
      if (href !== undefined && href.includes("#") && el.text <= MAX_SKIP) {
        const text = textContent(page.texts, el)
        // A way back up jumps within the page (`#top`), not to another page's anchor (`/menu#starters`);
        // a jump past a block links an anchor of this page (`#brand-carousel-section`) too. Either is all
        // of its line: inside a sentence the words are the reader's.
        const here = href.trimStart().startsWith("#")
        const jump = here && (BACK.test(text) || PAST.test(text)) && standsAlone(page, el)
        const skip = SKIP.test(text) && (standsAlone(page, el) || amongSkipLinks(page, el))
        if (skip || jump) el.drop = true
      }
      return true
    })
  }
  return roots
}

/** The least text of a menu written for screen readers (a few departments, not a label). */
const MIN_MENU = 100

/** The least share of its text in links. */
const MENU_LINKS = 0.5

/** The roots without each block for screen readers only that is a menu (`SCREEN_READER`, `MIN_MENU`, `MENU_LINKS`). */
export const withoutSpokenMenus = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el) => {
    const cls = el.attribs.class
    return cls !== undefined && el.text >= MIN_MENU && el.link >= MENU_LINKS * el.text && SCREEN_READER.test(cls)
  })
}
