/**
 * Text no reader reads, whichever part of the page it sits in:
 * - a theme's placeholder left on the page ("Lorem ipsum dolor sit amet…", misspelled or not: the
 *   Latin filler a template shows in a block its owner never filled: a feature column, a tab, a
 *   sample list),
 *   and a cookie notice ("We use cookies…", "iFixit uses cookies…") whose names do not say it is
 *   a banner (`gdpr-banner` is known by its name: content.ts `BANNER`), or that holds most of what
 *   a page rendered by scripts shows (`withoutPlaceholderText`);
 * - one word written over and over ("word word word …"), as scripts that measure the page's
 *   fonts leave it in the saved page (`withoutFillers`);
 * - the word "Icon" in a box named as an icon, standing alone, where the style sheet draws a
 *   glyph (`withoutIconWords`), and an icon font's ligature name outside tables (`withoutLigatureIcons`);
 * - "Loading…" standing alone after the page's text, where a script puts what it fetches, or
 *   anywhere in a box marked as loading (`aria-busy="true"`) (`withoutLoadingNotes`);
 * - a loader's stand-in: a box named as a loader (`product-suggest__loader`) that a script shows
 *   until it has fetched a strip, of 80 characters or less (the strip's title over an empty box of
 *   items) (`withoutLoaderBoxes`).
 */
import {
  eachKept,
  type El,
  hasAncestorNamed,
  type Node,
  type Page,
  textContent,
  withoutEach,
  wordsNextTo
} from "./tree.js"

/**
 * The opening words of such a block: the filler ("Lorem" and a word: "ipsum", or as a theme's
 * designer mistyped it, "ispum"; "lorem" is no word of any language a page is written in), or who
 * uses cookies (one word: "we", a site's name, "this site").
 */
const PLACEHOLDER = /^\s*(?:lorem \p{L}+\b|(?:we|this (?:site|website)|[\p{L}\p{N}.]+) uses? cookies\b)/iu

/** Whether a block's own first words (in it or in its inline runs) are the filler (`PLACEHOLDER`). */
const placeholder = (page: Page, el: El): boolean => {
  if (el.block !== undefined || el.own === 0) return false
  const stack: Array<Node> = [...el.children].reverse()
  while (stack.length > 0) {
    const c = stack.pop()!
    if (typeof c === "number") {
      const text = page.texts.of(c)
      if (text.trim().length > 0) return PLACEHOLDER.test(text)
    } else if (c.block !== undefined && !c.drop) {
      for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]!)
    }
  }
  return false
}

/** The roots with each block inside them that opens with placeholder text or a cookie notice dropped. */
export const withoutPlaceholderText = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (!placeholder(page, el)) return false
      el.drop = true
      return true
    })
  }
  return roots
}

/** The fewest times one word is written in a row for a text to be filler. */
const MIN_REPEATS = 20

/** One word, then the same word at least `MIN_REPEATS - 1` more times, and nothing else. */
const FILLER = new RegExp(`^\\s*(\\S+)(?:\\s+\\1){${MIN_REPEATS - 1},}\\s*$`, "u")

/** The roots without each element that holds text only, all of it one word repeated (`FILLER`). */
export const withoutFillers = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (el.text < 2 * MIN_REPEATS || el.children.some((c) => typeof c !== "number")) return false
      el.drop = FILLER.test(textContent(page.texts, el))
      return el.drop
    })
  }
  return roots
}

/**
 * Whether an inline element stands beside words: the nearest sibling with text on either side is a
 * text or an inline element ("The section's <span>Icon</span> is drawn…" is a sentence's word).
 */
const besideWords = (page: Page, el: El): boolean => wordsNextTo(page, el, -1) || wordsNextTo(page, el, 1)

/** A name that calls an element an icon: `icon` alone or as a part (`card__icon`, `icon-news`, `navIcon`). */
const ICON_NAME = /icon/i

/**
 * The roots without each element named as an icon whose whole text is the word "icon": the label
 * a theme writes in the box its style sheet draws a glyph over (a news card's `card__icon`), which
 * the reader sees as a picture, never as the word.
 */
export const withoutIconWords = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text !== 4 || !ICON_NAME.test(el.attribs.class ?? "") || besideWords(page, el)) return false
      el.drop = textContent(page.texts, el).trim().toLowerCase() === "icon"
      return el.drop
    })
  }
  return roots
}

/**
 * Class names of an icon font that draws a ligature: the Material Icons (`material-icons`,
 * `material-icons-outlined`, `-round`, `-sharp`, `-two-tone`) and Material Symbols
 * (`material-symbols-outlined`, `-rounded`, `-sharp`). The element's text is the icon's name
 * (`close`, `chevron_right`), which the font draws as one glyph.
 */
const LIGATURE_FONT = /(?:^|\s)material-(?:icons|symbols)(?:-[a-z-]+)?(?:$|\s)/i

/** An icon's name as such a font reads it: lowercase letters, digits and underscores, one word. */
const LIGATURE_NAME = /^[a-z0-9_]+$/

/**
 * The roots without each element of an icon font's ligature (`LIGATURE_FONT`) whose whole text is
 * an icon's name (`LIGATURE_NAME`), outside tables: the reader sees a glyph (a card's "close"
 * cross, a menu's "expand_more" arrow), never the word. In a table's cell the icon is the cell's
 * value (a comparison's "check" for a feature a plan has) and stays.
 */
export const withoutLigatureIcons = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el) => {
    if (el.text === 0 || el.text > 40 || !LIGATURE_FONT.test(el.attribs.class ?? "")) return false
    return LIGATURE_NAME.test(textContent(page.texts, el).trim()) && !hasAncestorNamed(el, "td", "th")
  })
}

/**
 * A loading note's whole text: "Loading" (and what loads, in a word or two; or "Checking",
 * "Fetching", "Retrieving" and what a script looks up: "Checking payment options..."), "Working"
 * or "Please wait", with a running ellipsis ("Loading...", "Loading posts…", "Working...").
 */
const LOADING =
  /^(?:(?:loading|checking|fetching|retrieving)(?:\s+\p{L}+){0,2}|working|please wait)\s*(?:\.{2,3}|\u2026)$/iu

/** The most visible characters a loading note holds. */
const MAX_LOADING = 32

/** The characters of text the copy holds before a loading note for it to stand after the page's text. */
const MIN_TEXT_BEFORE = 200

/** How many ancestors up an element may be from the box that says it is loading (`busy`). */
const BUSY_WITHIN = 4

/**
 * Whether an element, or one of its nearest ancestors, says it is still loading (`aria-busy="true"`,
 * the ARIA mark of a live region a script has not filled yet): its text is the script's stand-in.
 */
const busy = (el: El): boolean => {
  let at: El | undefined = el
  for (let i = 0; at !== undefined && i <= BUSY_WITHIN; i++, at = at.parent) {
    if (at.attribs["aria-busy"]?.trim().toLowerCase() === "true") return true
  }
  return false
}

/**
 * The roots without each element whose whole text is a loading note ("Loading...", `LOADING`),
 * standing alone (no words beside it) after `MIN_TEXT_BEFORE` characters of the copy's text: the
 * note a page's script shows in a box it fills with what it fetches (more entries at a list's end,
 * a chart, a panel), which the saved page keeps unfilled. A page whose whole text is loading says
 * so before anything else, and keeps the note; a note in a box marked as loading (`busy`: a
 * shop's payment options being checked under the price) is left out wherever it stands.
 */
export const withoutLoadingNotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  let before = 0
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      if (
        el.text < 8 || el.text > MAX_LOADING || (before < MIN_TEXT_BEFORE && !busy(el)) || besideWords(page, el)
      ) {
        before += el.own
        return false
      }
      el.drop = LOADING.test(textContent(page.texts, el).trim())
      if (!el.drop) before += el.own
      return el.drop
    })
  }
  return roots
}

/**
 * A class that names its box a loader: a class token that is the word `loader`, or a BEM element
 * named so (`product-suggest__loader`); not `uploader`, `preloader`, nor a wrapper that loads its
 * content lazily (`lazy-loader`, `content-loader`), nor a token that goes on after it (`loader-items`).
 */
const LOADER = /(?:^|\s|__)loader(?=\s|$)/i

/** The most visible characters a loader's stand-in holds (a strip's title, not a section). */
const MAX_LOADER_TEXT = 80

/**
 * The roots without each box named as a loader (`LOADER`) whose text is one short line or less: a
 * script shows it, a strip's title over an empty box of items ("Most Popular Accessories & Related
 * Items"), until it has fetched the strip, which the saved page never got; the title names
 * nothing on the page.
 */
export const withoutLoaderBoxes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  return withoutEach(page, roots, (el) => {
    const cls = el.attribs.class
    return cls !== undefined && el.text > 0 && el.text <= MAX_LOADER_TEXT && LOADER.test(cls)
  })
}
