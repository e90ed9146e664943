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

/** A character `\s` matches (a link's target ends at the first). */
const SPACE = /\s/

/**
 * The links and code spans of the Markdown, inside which no sentence ends: `[start, end)` of each
 * match of `/!?\[[^\]\n]*\]\([^)\s]*\)|`[^`\n]*`/g`, found in one pass. The regex itself
 * scans from every `[` to the line's next `]` and fails there when no `(` follows, so a paragraph
 * of brackets a page wrote (`[[[[…`) cost the square of its length: minutes for a 2 MiB page,
 * with no deadline after the fetch. Here the `]` (or line end) a `[` reaches, and whether a
 * target follows it, are found once for every `[` before it (none of them can reach further).
 * test/ingest/readable-linear.test.ts compares the two on random Markdown.
 */
export const inlineSpans = (block: string): ReadonlyArray<readonly [number, number]> => {
  const spans: Array<readonly [number, number]> = []
  const n = block.length
  // The first `]` or line end at or after `closeFrom` is `close` (n when none): the same for every
  // start from `closeFrom` to `close`, which holds neither. Likewise the first `)` or space at or
  // after `stopFrom` is `stop`, where a target that starts from there up to `stop` ends.
  let closeFrom = -1
  let close = -1
  let stopFrom = -1
  let stop = -1
  /** The end of a link whose text starts at `from`, or -1. */
  const link = (from: number): number => {
    if (from < closeFrom || from > close) {
      closeFrom = from
      close = from
      while (close < n && block[close] !== "]" && block[close] !== "\n") close++
    }
    if (close >= n || block[close] !== "]" || block[close + 1] !== "(") return -1
    const target = close + 2
    if (target < stopFrom || target > stop) {
      stopFrom = target
      stop = target
      while (stop < n && block[stop] !== ")" && !SPACE.test(block[stop]!)) stop++
    }
    return stop < n && block[stop] === ")" ? stop + 1 : -1
  }
  // The next line end after the last code span's tick (n when none), found again only past it.
  let lineEnd = -1
  let i = 0
  while (i < n) {
    const c = block[i]
    let end = -1
    if (c === "!" && block[i + 1] === "[") end = link(i + 2)
    else if (c === "[") end = link(i + 1)
    else if (c === "`") {
      if (lineEnd <= i) {
        const at = block.indexOf("\n", i + 1)
        lineEnd = at < 0 ? n : at
      }
      const k = block.indexOf("`", i + 1)
      if (k >= 0 && k < lineEnd) end = k + 1
    }
    if (end < 0) {
      i++
      continue
    }
    spans.push([i, end])
    i = end
  }
  return spans
}

/** Markup that a cut may leave open: an unescaped emphasis mark, a code span's tick, a tag. */
const MARKUP = /(?<!\\)[*_`<]/

/** The words of a text, lower-cased, joined by one space. */
const wordsOf = (text: string): { readonly key: string; readonly count: number } => {
  const words = text.toLowerCase().match(WORD) ?? []
  return { key: words.join(" "), count: words.length }
}

/** The paragraph's sentences: `[start, textEnd, end)` each, the spaces after it up to `end`. */
const sentences = (block: string): ReadonlyArray<readonly [number, number, number]> => {
  const inside = inlineSpans(block)
  const out: Array<readonly [number, number, number]> = []
  let start = 0
  // Spans and sentence ends both come in order: one pointer finds the span an end may fall in
  // (the first that ends after it), so a paragraph of many links and sentences stays linear.
  let k = 0
  for (const m of block.matchAll(SENTENCE_END)) {
    const textEnd = m.index + 1
    while (k < inside.length && inside[k]![1] <= textEnd) k++
    if (k < inside.length && textEnd > inside[k]![0]) continue
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
