/**
 * Exact source follow (spec agents.md): find a remembered, possibly clipped excerpt in a file and
 * give the whole passage around it. Pure.
 *
 * - The excerpt is split at `…` and `...` into pieces (an ellipsis at either end only says it
 *   was clipped there). Each piece is normalized as the shared quote matcher normalizes a quote
 *   (NFC, whitespace runs to one space, trimmed) and searched in the text a reader sees
 *   (src/domain/VisibleText.ts), normalized the same way: exactly what the gate matches against.
 * - One piece: it must have at least 20 characters and is found wherever it occurs (as the gate
 *   finds it). Several pieces: together at least 20 characters, each found after the one
 *   before, all inside one block — a paragraph, list item, table row, quote block or heading.
 * - A match answers its offsets in the file's own text (code points, end exclusive, as the
 *   matcher reports), its 1-based line, the block's text as a reader sees it, and the nearest
 *   heading above it (null when there is none).
 */
import * as Either from "effect/Either"
import { tokenizeHtml } from "./HtmlText.js"
import { codePointOffsets, countBelow, MIN_QUOTE_LENGTH, normalizeForQuote, withoutBom } from "./Quote.js"
import {
  type MappedText,
  normalizeMapped,
  sourceEnd,
  sourceStart,
  type TextFormat,
  visibleText
} from "./VisibleText.js"

export interface FollowMatch {
  readonly start: number
  readonly end: number
  readonly line: number
  readonly paragraph: string
  readonly section: string | null
}

/** The pieces of an excerpt, normalized; or why it cannot be followed. */
export const excerptPieces = (excerpt: string): Either.Either<ReadonlyArray<string>, string> => {
  const pieces = excerpt.split(/\u2026|\.\.\./).map(normalizeForQuote).filter((p) => p.length > 0)
  const length = pieces.reduce((n, p) => n + [...p].length, 0)
  if (pieces.length === 0) return Either.left("the excerpt holds no text")
  if (length < MIN_QUOTE_LENGTH) {
    return Either.left(`an excerpt needs at least ${MIN_QUOTE_LENGTH} characters besides its ellipses (got ${length})`)
  }
  return Either.right(pieces)
}

/** A block of the file: its range in the file's text (UTF-16 units) and whether it is a heading. */
interface Block {
  readonly start: number
  readonly end: number
  readonly heading: boolean
}

const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/
const TABLE_ROW = /^[ \t]*\|/
const QUOTE = /^ {0,3}>/
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/
const BLANK = /^[ \t]*\r?$/

/** Lines of a text: [start, end) without the line break. */
const linesOf = (text: string): Array<readonly [number, number]> => {
  const out: Array<readonly [number, number]> = []
  let at = 0
  for (;;) {
    const nl = text.indexOf("\n", at)
    if (nl < 0) {
      out.push([at, text.length])
      return out
    }
    out.push([at, nl])
    at = nl + 1
  }
}

/** Paragraphs separated by blank lines (text/plain). */
const plainBlocks = (text: string): Array<Block> => {
  const blocks: Array<Block> = []
  let open: [number, number] | undefined
  for (const [a, b] of linesOf(text)) {
    if (BLANK.test(text.slice(a, b))) {
      if (open) blocks.push({ start: open[0], end: open[1], heading: false })
      open = undefined
    } else if (open) open[1] = b
    else open = [a, b]
  }
  if (open) blocks.push({ start: open[0], end: open[1], heading: false })
  return blocks
}

/** Markdown blocks: headings, list items, table rows, quote blocks, fenced code, paragraphs. */
const markdownBlocks = (text: string): Array<Block> => {
  const blocks: Array<Block> = []
  let open: { start: number; end: number; kind: "para" | "item" | "quote" | "fence"; fence?: string } | undefined
  const close = () => {
    if (open) blocks.push({ start: open.start, end: open.end, heading: false })
    open = undefined
  }
  for (const [a, b] of linesOf(text)) {
    const line = text.slice(a, b)
    if (open?.kind === "fence") {
      open.end = b
      if (line.trim().startsWith(open.fence!)) close()
      continue
    }
    if (BLANK.test(line)) {
      close()
      continue
    }
    const fence = FENCE.exec(line)
    if (fence) {
      close()
      open = { start: a, end: b, kind: "fence", fence: fence[1]! }
      continue
    }
    if (HEADING.test(line)) {
      close()
      blocks.push({ start: a, end: b, heading: true })
      continue
    }
    if (open?.kind === "para" && SETEXT.test(line)) {
      // The paragraph above was a heading.
      blocks.push({ start: open.start, end: b, heading: true })
      open = undefined
      continue
    }
    if (TABLE_ROW.test(line)) {
      close()
      blocks.push({ start: a, end: b, heading: false })
      continue
    }
    if (LIST_ITEM.test(line)) {
      close()
      open = { start: a, end: b, kind: "item" }
      continue
    }
    if (QUOTE.test(line)) {
      if (open?.kind !== "quote") close()
      if (open) open.end = b
      else open = { start: a, end: b, kind: "quote" }
      continue
    }
    if (open) open.end = b
    else open = { start: a, end: b, kind: "para" }
  }
  close()
  return blocks
}

/** Elements that end one block and begin another (a table row is one block: cells do not split it). */
const HTML_BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "tfoot",
  "thead",
  "title",
  "tr",
  "ul",
  "xmp"
])
const HTML_HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"])

/** HTML blocks: the stretches between block elements' tags; headings are the h1–h6 elements. */
const htmlBlocks = (html: string): Array<Block> => {
  const cuts: Array<{ at: number; heading: "open" | "close" | null }> = [{ at: 0, heading: null }]
  const nameAt = (a: number, b: number) => html.slice(a, b).toLowerCase()
  tokenizeHtml(html, {
    onopentagname(a, b) {
      const name = nameAt(a, b)
      if (HTML_BLOCKS.has(name)) cuts.push({ at: Math.max(0, a - 1), heading: HTML_HEADINGS.has(name) ? "open" : null })
    },
    onclosetag(a, b) {
      const name = nameAt(a, b)
      if (HTML_BLOCKS.has(name)) {
        cuts.push({ at: Math.max(0, a - 2), heading: HTML_HEADINGS.has(name) ? "close" : null })
      }
    }
  })
  cuts.push({ at: html.length, heading: null })
  const blocks: Array<Block> = []
  for (let i = 0; i + 1 < cuts.length; i++) {
    const a = cuts[i]!
    const b = cuts[i + 1]!
    if (b.at > a.at) blocks.push({ start: a.at, end: b.at, heading: a.heading === "open" })
  }
  return blocks
}

const blocksOf = (format: TextFormat, text: string): Array<Block> =>
  format === "markdown"
    ? markdownBlocks(text)
    : format === "html" || format === "xhtml"
    ? htmlBlocks(text)
    : plainBlocks(text)

/** The first unit of the normalized text whose source starts at or after `offset`. */
const unitAtOrAfter = (m: MappedText, offset: number): number => {
  let lo = 0
  let hi = m.text.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sourceStart(m, mid) < offset) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** What a reader sees of a stretch of the file, normalized. */
const readerText = (format: TextFormat, text: string, a: number, b: number) =>
  normalizeMapped(visibleText(format, text.slice(a, b))).text

/**
 * Every place the excerpt's pieces occur in `text` (read in `format`), in order. Linear in the
 * file's length however often they occur: a match's line, code-point offsets, block and section
 * are looked up (binary searches over tables made in one pass), never counted from the start.
 */
export const follow = (file: string, format: TextFormat, pieces: ReadonlyArray<string>): ReadonlyArray<FollowMatch> => {
  // Read without a leading byte-order mark; offsets count it (src/domain/Quote.ts, withoutBom).
  const { body: text, bom } = withoutBom(file)
  const visible = normalizeMapped(visibleText(format, text))
  const blocks = blocksOf(format, text)
  const astral = /[\ud800-\udfff]/.test(text)
  const points = astral ? codePointOffsets(text) : undefined
  const cp = (i: number) => bom + (points === undefined ? i : points(i))
  const newlines: Array<number> = []
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) newlines.push(i)
  // The nearest heading at or before each block (-1: none).
  const headings: Array<number> = []
  blocks.forEach((b, k) => headings.push(b.heading ? k : k > 0 ? headings[k - 1]! : -1))
  const seen = new Map<number, string>()
  const blockText = (k: number): string => {
    let t = seen.get(k)
    if (t === undefined) {
      t = readerText(format, text, blocks[k]!.start, blocks[k]!.end)
      seen.set(k, t)
    }
    return t
  }
  /** The block holding source unit `i` (the last block starting at or before it). */
  const blockAt = (i: number): number => {
    let lo = 0
    let hi = blocks.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (blocks[mid]!.start <= i) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }
  const answer = (s: number, e: number): FollowMatch => {
    const first = Math.max(0, blockAt(s))
    const last = Math.max(first, blockAt(Math.max(s, e - 1)))
    // The nearest heading above the match: a heading that holds it is not its own section.
    const above = first - (blocks[first]?.heading === true ? 1 : 0)
    const heading = above >= 0 && above < headings.length ? headings[above]! : -1
    const section = heading < 0 ? null : blockText(heading) || null
    const paragraph = blocks.length === 0
      ? readerText(format, text, 0, text.length)
      : blocks.slice(first, last + 1).map((_, k) => blockText(first + k)).filter((t) => t.length > 0).join("\n\n")
    return { start: cp(s), end: cp(e), line: 1 + countBelow(newlines, s), paragraph, section }
  }
  const out: Array<FollowMatch> = []
  if (pieces.length === 1) {
    const q = pieces[0]!
    if ([...q].length < MIN_QUOTE_LENGTH) return out
    for (let at = visible.text.indexOf(q); at >= 0; at = visible.text.indexOf(q, at + 1)) {
      out.push(answer(sourceStart(visible, at), sourceEnd(visible, at + q.length - 1)))
    }
    return out
  }
  // Several pieces: in order, inside one block (the first place in each block). Each block is
  // searched on its own: a piece missing from it is not looked for in the rest of the file.
  for (const block of blocks) {
    const from = unitAtOrAfter(visible, block.start)
    const within = visible.text.slice(from, unitAtOrAfter(visible, block.end))
    let at = 0
    let first = -1
    let lastEnd = -1
    for (const piece of pieces) {
      const i = within.indexOf(piece, at)
      if (i < 0) {
        first = -1
        break
      }
      if (first < 0) first = i
      lastEnd = i + piece.length
      at = lastEnd
    }
    if (first >= 0) out.push(answer(sourceStart(visible, from + first), sourceEnd(visible, from + lastEnd - 1)))
  }
  return out
}
