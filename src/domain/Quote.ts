/**
 * The one quote matcher (spec README "Quote matching"), shared by the gate and the monitor:
 * after Unicode NFC and collapsing every whitespace run to one space (in both), the quote must be
 * a substring of the text and at least 20 characters long. Otherwise exact.
 *
 * The text is the text a reader sees in the file (src/domain/VisibleText.ts: Markdown link
 * syntax counts as its text, HTML as its text content), and a match reports where it is in the
 * file's own text: `start`/`end` are offsets in Unicode code points of the text as decoded
 * (end exclusive), so `[...text].slice(start, end)` is the passage, markup included. A leading
 * byte-order mark (U+FEFF) is a code point of the file's text, counted by the offsets as
 * `fs.readFileSync(path, "utf8")` and Python's `open(path, encoding="utf-8")` count it, but never
 * part of what a reader sees (`withoutBom`).
 */
import {
  formatOfPath,
  normalizeMapped,
  sourceEnd,
  sourceStart,
  type TextFormat,
  visibleText,
  WHITESPACE_TO_COLLAPSE
} from "./VisibleText.js"

export { formatOfPath, type TextFormat } from "./VisibleText.js"

export const MIN_QUOTE_LENGTH = 20

/**
 * A file's text without its leading byte-order mark, and how many code points that removed (0
 * or 1): the visible text is read from the rest (so `\uFEFF# Title` is a heading, as an editor
 * shows it), and offsets into the rest add `bom` to be offsets into the file's text.
 */
export const withoutBom = (text: string): { readonly body: string; readonly bom: 0 | 1 } =>
  text.charCodeAt(0) === 0xfeff ? { body: text.slice(1), bom: 1 } : { body: text, bom: 0 }

/**
 * Replaces exactly what `/\s+/g → " "` replaces, but touches only runs of two or more whitespace
 * characters and single non-space ones, so text with ordinary single spaces is not rebuilt
 * (several times faster on large sources; a property test checks the equivalence).
 */
const COLLAPSE = new RegExp(WHITESPACE_TO_COLLAPSE.source, "g")

/**
 * Every run of whitespace (as `\s` defines it) becomes one space. Most text (the text nodes of a
 * page) has nothing to collapse; one scan of its character codes says so faster than the regular
 * expression does.
 */
export const collapseWhitespace = (text: string): string => (needsCollapse(text) ? text.replace(COLLAPSE, " ") : text)

/** Whether `text` holds a match of `WHITESPACE_TO_COLLAPSE`: two whitespace characters in a row, or one that is not a space. */
const needsCollapse = (text: string): boolean => {
  let space = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 32) {
      if (space) return true
      space = true
    } else if (c < 128 ? c >= 9 && c <= 13 : isWideSpace(c)) return true
    else space = false
  }
  return false
}

/** The characters of `\s` beyond ASCII. */
export const isWideSpace = (c: number): boolean =>
  c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f ||
  c === 0x205f || c === 0x3000 || c === 0xfeff

/** NFC, then every run of whitespace becomes one space; leading/trailing whitespace trimmed. */
export const normalizeForQuote = (text: string): string => text.normalize("NFC").replace(COLLAPSE, " ").trim()

export type QuoteCheck =
  | {
    readonly matched: true
    /** Offset (code points) in the file's text where the matched passage starts. */
    readonly start: number
    /** Offset (code points, exclusive) where it ends. */
    readonly end: number
  }
  | { readonly matched: false; readonly reason: "quote-too-short" | "quote-not-found" }

/** Length in characters (code points) of the normalized quote. */
const charLength = (s: string): number => [...s].length

const SURROGATE = /[\ud800-\udfff]/

/**
 * Code points before a UTF-16 index of `text`, for as many indexes as asked: the surrogate pairs
 * are found once, and each index then costs a binary search (counting from the text's start for
 * every match of a frequent excerpt, or every quote checked against one file, would rescan it each
 * time).
 */
export const codePointOffsets = (text: string): (i: number) => number => {
  // The index of each pair's low surrogate, in order.
  const lows: Array<number> = []
  for (let k = 0; k < text.length - 1; k++) {
    const c = text.charCodeAt(k)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(k + 1)
      if (d >= 0xdc00 && d <= 0xdfff) lows.push(++k)
    }
  }
  return (i) => i - countBelow(lows, i)
}

/** How many of the ascending `sorted` are below `x`. */
export const countBelow = (sorted: ReadonlyArray<number>, x: number): number => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * A matcher over one file's text, read in `format` (default `text`: the text as it is). The
 * visible text is built and normalized once; each quote is then one substring search.
 */
export const makeQuoteMatcher = (file: string, format: TextFormat = "text") => {
  const { body: text, bom } = withoutBom(file)
  const visible = normalizeMapped(visibleText(format, text))
  const astral = SURROGATE.test(text)
  // Made at the first match in a text that needs it (most texts have no astral character).
  let points: ((i: number) => number) | undefined
  const offset = (i: number) => bom + (astral ? (points ??= codePointOffsets(text))(i) : i)
  return (quote: string): QuoteCheck => {
    const q = normalizeForQuote(quote)
    if (charLength(q) < MIN_QUOTE_LENGTH) return { matched: false, reason: "quote-too-short" }
    const at = visible.text.indexOf(q)
    if (at < 0) return { matched: false, reason: "quote-not-found" }
    return {
      matched: true,
      start: offset(sourceStart(visible, at)),
      end: offset(sourceEnd(visible, at + q.length - 1))
    }
  }
}

/** A matcher for a file, read in the format its name says (`formatOfPath`). */
export const makeFileQuoteMatcher = (path: string, text: string) => makeQuoteMatcher(text, formatOfPath(path))

export const checkQuote = (quote: string, text: string, format: TextFormat = "text"): QuoteCheck =>
  makeQuoteMatcher(text, format)(quote)

export const quoteMatches = (quote: string, text: string, format: TextFormat = "text"): boolean =>
  checkQuote(quote, text, format).matched
