/**
 * A passage written again inside one paragraph. A catalogue's field can join the same record's
 * text several times over (a book's press quotes, one after the other, then all of them again
 * after a comma), and a feed's body can hold its story pasted after itself: the page shows one
 * block of text, and the copy wrote each passage as often as the field holds it. A reader reads it
 * once. `withoutRepeatedPassages` reads each plain paragraph (not a heading, a list, a quote, a
 * table or code: inline.ts `opensBlock`) as sentences, and leaves out each run of sentences that
 * each say, word for word (case and punctuation aside, as `WORD` reads words), a sentence of the
 * same paragraph written before it, when the run holds `MIN_PASSAGE` words or more. A sentence or
 * two said again (a slogan, a line quoted back, a refrain) stays: only a whole passage goes. The
 * run is cut where the text leaves off repeating (the comma that joins the second copy makes its
 * first sentence a new one, which stays). Blocks repeated whole are repeats.ts's; this reads
 * inside one block.
 */
import { opensBlock } from "./inline.js"

/** The least words of a run of sentences said again that is left out: a passage, not a line quoted back. */
const MIN_PASSAGE = 100

/** A word as the copy's words are compared: letters, digits and marks, case aside. */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu

/** The end of a sentence: a full stop, a question or exclamation mark, an ellipsis or a closing quote, then spaces. */
const SENTENCE_END = /[.!?\u2026"\u201d](\s+)/g

/** A link or a code span of the Markdown, inside which no sentence ends. */
const INLINE_SPAN = /!?\[[^\]\n]*\]\([^)\s]*\)|`[^`\n]*`/g

/** Markup that a cut may leave open: an unescaped emphasis mark, a code span's tick, a tag. */
const MARKUP = /(?<!\\)[*_`<]/

/** The words of a text, lower-cased, joined by one space. */
const wordsOf = (text: string): { readonly key: string; readonly count: number } => {
  const words = text.toLowerCase().match(WORD) ?? []
  return { key: words.join(" "), count: words.length }
}

/** The paragraph's sentences: `[start, textEnd, end)` each, the spaces after it up to `end`. */
const sentences = (block: string): ReadonlyArray<readonly [number, number, number]> => {
  const inside: Array<readonly [number, number]> = []
  for (const m of block.matchAll(INLINE_SPAN)) inside.push([m.index, m.index + m[0].length])
  const out: Array<readonly [number, number, number]> = []
  let start = 0
  for (const m of block.matchAll(SENTENCE_END)) {
    const textEnd = m.index + 1
    if (inside.some(([a, b]) => textEnd > a && textEnd < b)) continue
    out.push([start, textEnd, textEnd + m[1]!.length])
    start = textEnd + m[1]!.length
  }
  if (start < block.length) out.push([start, block.length, block.length])
  return out
}

/** One plain paragraph without the runs of sentences it said before (`withoutRepeatedPassages`). */
const withoutPassagesSaidAgain = (block: string): string => {
  const parts = sentences(block)
  if (parts.length < 2) return block
  const said = new Set<string>()
  // Per sentence: its word count, and whether it repeats an earlier sentence (or holds no word).
  const words = parts.map(([a, b]) => wordsOf(block.slice(a, b)))
  const again = words.map(({ count, key }) => {
    if (count === 0 || said.has(key)) return true
    said.add(key)
    return false
  })
  const cuts: Array<readonly [number, number]> = []
  for (let i = 1; i < parts.length;) {
    if (!again[i] || words[i]!.count === 0) {
      i++
      continue
    }
    let j = i
    let count = 0
    while (j < parts.length && again[j]) count += words[j++]!.count
    // From the end of the sentence before the run to the end of the run's last sentence: what
    // follows keeps the spaces it had before it (a line stays a line).
    const from = parts[i - 1]![1]
    const to = parts[j - 1]![1]
    if (count >= MIN_PASSAGE && !MARKUP.test(block.slice(from, to))) cuts.push([from, to])
    i = j
  }
  if (cuts.length === 0) return block
  let out = ""
  let at = 0
  for (const [from, to] of cuts) {
    out += block.slice(at, from)
    at = to
  }
  return out + block.slice(at)
}

/** The blocks, each plain paragraph without the passages it wrote again (module comment). */
export const withoutRepeatedPassages = (blocks: ReadonlyArray<string>): ReadonlyArray<string> =>
  blocks.map((block) => (opensBlock(block) ? block : withoutPassagesSaidAgain(block)))
