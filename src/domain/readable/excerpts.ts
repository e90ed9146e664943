/**
 * Excerpts written beside their full text: a "read more" block writes the opening of a text (often
 * once for each screen width, under classes the page's style sheet shows one of at a time) and,
 * beside it, the whole text a click reveals (a shop's buying guide under its grid). A reader sees
 * one copy. The renderer drops blocks repeated whole (repeats.ts `withoutRepeats`), but an excerpt
 * is not equal to its full text, and copies written as inline runs of one block render as one line
 * that no block repeats. So, among an element's children, each one is left out whose text is
 * (`withoutExcerpts`):
 * - the opening of a longer sibling's text, the sibling of another class (an excerpt beside its
 *   full text; siblings of one class are items of one kind, as a tutorial's code grown a step),
 *   up to a word or two inflected in place (`nearOpening`: the excerpt written apart from the full
 *   text and edited once since, "starts" there and "start" here);
 * - or, for an inline run, the whole of an earlier inline sibling's text, of another class (the
 *   copies for each width inside one block). Equal blocks are `withoutRepeats`'s to judge.
 */
import { collapsedText, eachKept, type El, type Page } from "./tree.js"

/** The least text of an excerpt left out: shorter siblings ("Price", a label) may recur in any text. */
const MIN_EXCERPT = 200

/** Tags of code: a tutorial writes its example again, grown a step, under the last (the earlier one is no excerpt). */
const CODE = new Set(["pre", "code", "samp"])

/** Whether `el` holds code (`CODE`). */
const holdsCode = (page: Page, el: El): boolean => {
  for (let i = el.order; i < el.end; i++) if (CODE.has(page.all[i]!.name)) return true
  return false
}

/** The most words of an excerpt that may be inflected apart from its full text's opening: one in `WORDS_PER_EDIT`, `MAX_EDITS` at most. */
const MAX_EDITS = 2
const WORDS_PER_EDIT = 40

/**
 * Whether two words are one word inflected: both hold a letter and one opens the other ("start",
 * "starts"). Numbers and other words are no edit of the excerpt: siblings written from one
 * template ("station 3", "station 10") differ there and are items of their own.
 */
const inflected = (x: string, y: string): boolean => {
  const a = x.toLowerCase()
  const b = y.toLowerCase()
  return /\p{L}/u.test(a) && /\p{L}/u.test(b) && (a.startsWith(b) || b.startsWith(a))
}

/**
 * Whether `t` is the opening of `o` word for word, but for a few words inflected in place (none
 * added or left out, `inflected`): an excerpt edited apart from its full text. Same words in the
 * same places, so two texts that merely share a theme or an opening sentence are no such pair.
 */
const nearOpening = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => {
  if (b.length <= a.length) return false
  const most = Math.min(MAX_EDITS, Math.floor(a.length / WORDS_PER_EDIT))
  let edits = 0
  for (let k = 0; k < a.length; k++) {
    if (a[k] !== b[k] && (!inflected(a[k]!, b[k]!) || ++edits > most)) return false
  }
  return true
}

/** Whether `long[i]` (its text `texts[i]`, its words `words[i]`) is an excerpt of its sibling `long[j]`. */
const excerptOf = (
  long: ReadonlyArray<El>,
  texts: ReadonlyArray<string>,
  words: ReadonlyArray<ReadonlyArray<string>>,
  i: number,
  j: number
): boolean => {
  const c = long[i]!
  const s = long[j]!
  const t = texts[i]!
  const o = texts[j]!
  if (j === i || s.drop || s.attribs.class === c.attribs.class) return false
  if (o.length > t.length) return o.startsWith(t) || nearOpening(words[i]!, words[j]!)
  return o === t && j < i && c.block !== undefined && s.block !== undefined
}

/** The roots with each element that is an excerpt of a sibling (`excerptOf`) dropped. */
export const withoutExcerpts = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order, root.end, (el) => {
      // Code is looked for only where two long children stand side by side: a chain of wrappers,
      // each with one long child, would otherwise scan the page's depth times over.
      const wide = el.children.filter((c): c is El => typeof c !== "number" && !c.drop && c.text >= MIN_EXCERPT)
      if (wide.length < 2) return false
      const long = wide.filter((c) => !holdsCode(page, c))
      if (long.length < 2) return false
      const texts = long.map((c) => collapsedText(page, c))
      const words = texts.map((t) => t.split(/\s+/))
      long.forEach((c, i) => {
        if (texts[i]!.length >= MIN_EXCERPT) c.drop = texts.some((_, j) => excerptOf(long, texts, words, i, j))
      })
      return false
    })
  }
  return roots
}
