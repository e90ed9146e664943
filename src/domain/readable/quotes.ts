/**
 * Quoted replies: a forum post that answers an earlier one quotes it ("Ann said: … Click to
 * expand…"), so a thread's copy would hold each quoted post twice or more. A quote whose words
 * are, for the most part, already in the copy before it repeats what the reader has just read: it
 * is left out (`dropRepeatedQuotes`). A quote of text the copy does not hold before it (a post on an
 * earlier page of the thread, a quotation in an article) stays. A reply may instead show the post
 * it answers as a preview clamped to a line or two by its class (`line-clamp-1`, `text-truncate`,
 * `-webkit-line-clamp`): the page holds the whole post there, the reader sees its first words;
 * such a preview of what the copy already holds is left out the same way.
 * A quoted post drawn as an aside (Discourse's `aside.quote`, which the tag's rule no longer drops:
 * boilerplate.ts `QUOTE_BOX`) stays when it holds a paragraph; one of fewer than `MIN_ASIDE_WORDS`
 * words (a line picked out of the post just answered, a link's preview cut to its first word) goes.
 * A quote that stays may end in its control: a link drawn as a button, with no address, that
 * unfolds the quote ("Click to expand…"); a script's button, not the quoted text, it is left out.
 */
import { type El, type Page, wordsOf } from "./tree.js"

/** Words in a run compared at once: a quote repeats earlier text when its runs of this many words were seen. */
const RUN = 8
/** The least share of a quote's runs of words seen before it for the quote to be a repetition. */
const SEEN_SHARE = 0.5

/** The fewest words of a quoted post drawn as an aside for it to stay. */
const MIN_ASIDE_WORDS = 30

/** A class name that names a quote as a word of its own: `quote`, `bbcode_quote`, `bbCodeBlock--quote`, `quote-box` (not `js-selectToQuote`). */
const QUOTE_NAME = /(?:^|\s|[-_])quote(?:$|\s|[-_])/i

/** A class that clamps an element's text to its first line(s): `line-clamp-2`, Bootstrap's `text-truncate`. */
const CLAMP_NAME = /(?:^|\s)(?:[\w-]*:)?(?:line-clamp-\d|text-truncate)(?:$|\s)/
/** An inline style that clamps an element's text to its first line(s). */
const CLAMP_STYLE = /line-clamp\s*:\s*\d/i

/** A quote: a `blockquote`, an element whose class names a quote, or a preview clamped to its first lines. */
const isQuote = (el: El): boolean => {
  if (el.name === "blockquote") return true
  const cls = el.attribs.class
  if (cls !== undefined && (QUOTE_NAME.test(cls) || CLAMP_NAME.test(cls))) return true
  return el.attribs.style !== undefined && CLAMP_STYLE.test(el.attribs.style)
}

/** Whether an element's subtree holds a quote (dropped ones may count: the check only saves work). */
const holdsQuote = (all: ReadonlyArray<El>, root: El): boolean => {
  for (let i = root.order; i < root.end; i++) if (isQuote(all[i]!)) return true
  return false
}

/** A link drawn as a button that goes nowhere: a script's control (a quote's "Click to expand…"). */
const quoteControl = (el: El): boolean =>
  el.name === "a" && el.attribs.href === undefined && el.attribs.role?.trim().toLowerCase() === "button"

/** Whether `el` sits inside a quote below `root`. */
const insideQuote = (el: El, root: El): boolean => {
  for (let p = el.parent; p !== undefined && p !== root.parent; p = p.parent) if (isQuote(p)) return true
  return false
}

/** The runs of `RUN` words of a list of words, each as one string. */
const runs = (words: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i + RUN <= words.length; i++) out.push(words.slice(i, i + RUN).join(" "))
  return out
}

/**
 * Quotes in the roots' subtrees (not dropped) whose runs of words mostly appear earlier in the
 * copy are dropped. Pages without a quote in what is kept are not read at all.
 */
export const dropRepeatedQuotes = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const all = page.all
  if (!roots.some((r) => holdsQuote(all, r))) return roots
  const seen = new Set<string>()
  // The last words read, to make runs across text nodes.
  let tail: Array<string> = []
  const read = (text: string, into: Array<string>): void => {
    for (const w of wordsOf(text)) into.push(w)
  }
  const remember = (words: ReadonlyArray<string>): void => {
    const joined = [...tail, ...words]
    for (const r of runs(joined)) seen.add(r)
    tail = joined.slice(-(RUN - 1))
  }
  for (const root of roots) {
    // Document order over elements and text nodes, skipping what is dropped.
    const stack: Array<El | number> = [root]
    while (stack.length > 0) {
      const node = stack.pop()!
      if (typeof node === "number") {
        const words: Array<string> = []
        read(page.texts.of(node), words)
        remember(words)
        continue
      }
      if (node.drop) continue
      if (quoteControl(node) && insideQuote(node, root)) {
        node.drop = true
        continue
      }
      if (isQuote(node) && node !== root) {
        const words: Array<string> = []
        textOf(page, node, words, read)
        const quoted = runs(words)
        // A quote box drawn as an aside (boilerplate.ts `QUOTE_BOX`) that holds a line or two.
        if (node.name === "aside" && words.length < MIN_ASIDE_WORDS) {
          node.drop = true
          continue
        }
        if (quoted.length > 0 && quoted.filter((r) => seen.has(r)).length >= SEEN_SHARE * quoted.length) {
          node.drop = true
          continue
        }
      }
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!)
    }
  }
  return roots
}

/** The words of an element's subtree (not dropped), in document order. */
const textOf = (page: Page, el: El, into: Array<string>, read: (text: string, into: Array<string>) => void): void => {
  const stack: Array<El | number> = [el]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (typeof node === "number") read(page.texts.of(node), into)
    else if (!node.drop) { for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!) }
  }
}
