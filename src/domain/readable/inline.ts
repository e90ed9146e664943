/**
 * Inline text of the readable copy: the escapes Markdown needs (render.ts says where they apply)
 * and `Run`, which normalizes an inline run while it is written instead of after: the walk writes
 * each node's piece into the run of the block it belongs to, and the run keeps the text finished
 * as `finishInline` would finish the pieces' concatenation (no string per element, no re-split).
 */
import { collapseWhitespace as collapse } from "../Quote.js"

/**
 * Text at the start of a line that Markdown would read as syntax (a list marker, a heading or
 * quote mark, a table row, a fence, a thematic break or a setext underline): "1. Choose the pot"
 * as a paragraph would otherwise read "Choose the pot", and a quote of it would not verify.
 */
const LINE_SYNTAX =
  /^(?:[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|[>|]|=+[ \t]*$|`{3}|~{3}|(?:[-*_][ \t]*){3,}$)/

/** A heading block as the copy writes it: its marks (`#` to `######`), a space, then its text. */
export const HEADING = /^#{1,6} /

/** A line of indented code. */
const INDENTED_CODE = /^(?: {4}|\t)/

/**
 * Whether a line of the copy opens a block of its own: Markdown syntax at its start (`LINE_SYNTAX`:
 * a heading, a list's item, a quote, a table's row, a fence, a rule; the copy escapes plain text
 * that would read so, `escapeLineStart`) or code indented by four spaces or a tab. What the block
 * rules that read the written copy call "not a plain paragraph".
 */
export const opensBlock = (line: string): boolean => INDENTED_CODE.test(line) || LINE_SYNTAX.test(line)

/** Whether a line starting with this character code can match `LINE_SYNTAX` (`-*+#>|=`~_` and digits). */
const mayStartSyntax = (c: number): boolean =>
  (c >= 48 && c <= 57) || c === 45 || c === 42 || c === 43 || c === 35 || c === 62 || c === 124 || c === 61 ||
  c === 96 || c === 126 || c === 95

/** A line that would read as a link reference definition (`[1]: https://…`): hidden, and `[1]` a link. */
const DEFINITION_START = /^\[(?:[^\\\]]|\\.)+\]:/

/** A line with a leading backslash escape where its start would read as syntax (`1\. …`, `\- …`, `\[1]: …`). */
export const escapeLineStart = (line: string): string => {
  if (line.charCodeAt(0) === 91 && DEFINITION_START.test(line)) return `\\${line}`
  if (!mayStartSyntax(line.charCodeAt(0)) || !LINE_SYNTAX.test(line)) return line
  let i = 0
  while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++
  return `${line.slice(0, i)}\\${line.slice(i)}`
}

/**
 * Characters of a text run that Markdown reads as inline syntax, backslash-escaped: every `*`
 * (it opens emphasis even inside a word: "Leser*innen und Autor*innen"), every backtick, `_` at a
 * word's edge (inside a word, as in `snake_case`, it never opens emphasis), `~` next to another,
 * a backslash before punctuation, `]` before `(` (a link), `<` where a tag, a comment or an
 * autolink could start (`<b>`, `</p>`, `<!--`, `<https:…>`, `<a@b.org>`: the reader hides markup)
 * and `&` that starts a character reference (`&amp;` reads as `&`).
 */
const INLINE_SYNTAX =
  /[*`]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|~(?=~)|(?<=~)~|\\(?=[!-/:-@[-`{-~])|\](?=\()|<(?=[A-Za-z/!?]|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@)|&(?=#[xX][0-9A-Fa-f]{1,6};|#[0-9]{1,7};|[A-Za-z][A-Za-z0-9]{1,31};)/gu
/** The characters `INLINE_SYNTAX` can escape: text without any of them is left as it is. */
const MAY_ESCAPE = "*`_~\\]<&"
const MAYBE_INLINE_SYNTAX = new RegExp(`[${MAY_ESCAPE.replace(/[\\\]]/g, "\\$&")}]`)

/** The same characters by code (all ASCII), for a scan that reads codes (tree.ts marks plain text with it). */
export const MAY_ESCAPE_CODE = new Uint8Array(128)
for (const c of MAY_ESCAPE) MAY_ESCAPE_CODE[c.charCodeAt(0)] = 1

export const escapeInline = (
  text: string
): string => (MAYBE_INLINE_SYNTAX.test(text) ? text.replace(INLINE_SYNTAX, "\\$&") : text)

/**
 * Normalize an inline run: collapse whitespace within lines, keep `<br>` line breaks; lines that
 * start a block (`atLineStart`: not a heading's, a link's or a table cell's text) get their start
 * escaped.
 */
export const finishInline = (s: string, atLineStart = true): string => {
  const finish = atLineStart
    ? (line: string) => escapeLineStart(collapse(line).trim())
    : (line: string) => collapse(line).trim()
  return s.indexOf("\n") < 0
    ? finish(s)
    : s
      .split("\n")
      .map(finish)
      .filter((line) => line.length > 0)
      .join("\n")
}

/** `<br>` breaks become spaces (headings, link texts, table cells). */
export const oneLine = (s: string): string => (s.indexOf("\n") < 0 ? s : s.replace(/\n/g, " "))

/** A word's last and first characters: where a separator left out keeps two words apart (`Run.gap`). */
const WORD_END = /[\p{L}\p{N}]$/u
const WORD_START = /^[\p{L}\p{N}]/u
/** A word's last letter (lowercase) or digit, then a capital: two words that would run on as one. */
const RUNS_ON = /[\p{Ll}\p{Nd}]$/u
const CAPITAL = /^\p{Lu}/u
const runsOn = (last: string, next: string): boolean => RUNS_ON.test(last) && CAPITAL.test(next)
/**
 * Two capitals (an acronym's end), then a capital and a small letter: a word after an acronym
 * ("Made in the USA" "In Stock", a brand "NEMO" and its product's name). An acronym split over two
 * elements ("NA" "SA") has a capital after the joint, and stays whole.
 */
const ACRONYM_END = /\p{Lu}\p{Lu}$/u
const WORD_CAPITAL = /^\p{Lu}\p{Ll}/u
const capitalsMeet = (last: string, next: string): boolean => ACRONYM_END.test(last) && WORD_CAPITAL.test(next)
/**
 * A figure alone (two digits or more, all its piece: a year, a count in a cell of its own), then a
 * digit: two figures side by side ("2026" "1h 54m") that would read as one number. A figure drawn
 * one digit to an element (a counter) has one digit before each joint and stays whole; a date
 * ("April 2, 2024") or a price ("$549") is no figure alone.
 */
const FIGURE_ALONE = /^\p{Nd}{2,}$/u
const DIGIT = /^\p{Nd}/u
/** A word's last letter: where a footnote's raised number would run on into it (`Run.noteMark`). */
const LETTER_END = /\p{L}$/u
const figuresMeet = (lastPiece: string, next: string): boolean =>
  FIGURE_ALONE.test(lastPiece.trim()) && DIGIT.test(next)

/**
 * An inline run being written. Its pieces are collapsed text (whitespace only as single spaces:
 * text nodes, links, spaces around inline blocks) and line breaks (`<br>`); `text()` is what
 * `finishInline` gives for their concatenation (`oneLine` of it for a run `inOneLine`): the
 * words of each line joined by one space, empty lines left out. The run also knows what a link
 * needs of its text's raw concatenation: whether it was empty, began or ended with whitespace.
 */
export class Run {
  /** Finished lines, joined by "\n". */
  private done = ""
  /** The current line, trimmed at its start; `lineSpace`: it ends with one space (to trim). */
  private line = ""
  private lineSpace = false
  /** A sibling element starts here with nothing between it and the one before (`joint`). */
  private joined = false
  /** The two siblings that meet there are links to two addresses (`joint(true)`). */
  private linksMeet = false
  /** The two siblings that meet there are a label and its value (`joint(false, true)`). */
  private factMeet = false
  /** The last visible characters written on the current line (of a link, its text's, not its address's). */
  private last = ""
  /** The last piece's visible text, whole (`figuresMeet`). */
  private lastPiece = ""
  /** Whether any non-empty piece was written; whether the first began, and the last ended, with whitespace. */
  wrote = false
  lead = false
  trail = false
  /** A dropped element that showed text stood here: the words on either side are not one word (`gap`). */
  private gapped = false
  /** A footnote's raised number starts here (`noteMark`). */
  private marked = false

  /** `inOneLine`: breaks are spaces and no line start is escaped (headings, link texts, cells). */
  constructor(private readonly inOneLine: boolean) {}

  /** A text node's text. */
  textNode(text: string): void {
    this.piece(escapeInline(collapse(text)))
  }

  /**
   * Two sibling elements meet here with nothing between them in the page (`<span>Publisher</span>
   * <span>Northwind</span>`, tag links side by side): the page's style sheet sets them apart (cells
   * of a row, chips), as a reader sees them. Where a word would run on into a capital
   * ("PublisherNorthwind", "$19.95Was"), an acronym into a word ("USAIn Stock", `capitalsMeet`)
   * or a figure alone into a figure ("20261h 54m", `figuresMeet`), the next piece starts with a space.
   * Where the two are links to two addresses (`links`, render.ts `linksMeet`: a card's tag chips
   * "PvP" "Action", "Indie" "2D"), always: a reader clicks them apart, whatever letters meet.
   * Where they are a label and its value, the two parts of a row of facts (`fact`, render.ts
   * `factMeet`: "Number of Pages" "240 Pages", "ISBN-10" "0000000000"), a letter or a digit into a
   * digit too.
   */
  joint(links = false, fact = false): void {
    this.joined = true
    this.linksMeet = links
    this.factMeet = fact
  }

  /** A collapsed piece (no whitespace but single spaces); `visible`: the text a reader sees of it (a link's). */
  piece(p: string, visible = p): void {
    if (p.length === 0) return
    if (this.gapped || this.joined || this.marked) {
      const gapped = this.gapped
      const joined = this.joined
      const marked = this.marked
      const linksMeet = this.linksMeet
      const factMeet = this.factMeet
      this.gapped = this.joined = false
      this.marked = this.linksMeet = this.factMeet = false
      // Tested on what a reader sees: a link's text, not its Markdown ("[text](address)").
      if (gapped && WORD_END.test(this.last) && WORD_START.test(visible)) p = ` ${p}`
      else if (marked && LETTER_END.test(this.last) && DIGIT.test(visible)) p = ` ${p}`
      else if (
        joined && !this.lineSpace && this.line.length > 0 &&
        (linksMeet || runsOn(this.last, visible) || figuresMeet(this.lastPiece, visible) ||
          capitalsMeet(this.last, visible) || (factMeet && WORD_END.test(this.last) && DIGIT.test(visible)))
      ) p = ` ${p}`
    }
    if (visible.length > 0) {
      this.last = visible.slice(-2)
      this.lastPiece = visible
    }
    const n = p.length
    const startsSpace = p.charCodeAt(0) === 32
    if (!this.wrote) {
      this.wrote = true
      this.lead = startsSpace
    }
    this.trail = p.charCodeAt(n - 1) === 32
    if (startsSpace && (this.lineSpace || this.line.length === 0)) {
      if (n === 1) return
      p = p.slice(1)
    }
    this.line += p
    this.lineSpace = this.trail
  }

  /**
   * Where an element that showed text was left out (a separator "\u00b7" hidden from screen
   * readers, a control): the next piece, when it starts a word right after one, is written apart.
   */
  gap(): void {
    if (this.line.length > 0) this.gapped = true
  }

  /**
   * A footnote's number set above the line starts here ("performance<sup>1</sup>"): after a
   * word's letter it is written apart, a word and its note's number, not one word. After a digit
   * it stays joined: a price's raised cents ("$549<sup>00</sup>") are part of the figure.
   */
  noteMark(): void {
    if (this.line.length > 0) this.marked = true
  }

  /** A `<br>`. */
  lineBreak(): void {
    if (this.inOneLine) return this.piece(" ")
    if (!this.wrote) {
      this.wrote = true
      this.lead = true
    }
    this.trail = true
    this.endLine()
  }

  private endLine(): void {
    let line = this.line
    if (line.length === 0) return
    if (this.lineSpace) line = line.slice(0, -1)
    if (!this.inOneLine) line = escapeLineStart(line)
    this.done = this.done.length === 0 ? line : `${this.done}\n${line}`
    this.line = this.last = this.lastPiece = ""
    this.lineSpace = false
  }

  /** The finished text (the run can be written on afterwards only after `reset`). */
  text(): string {
    this.endLine()
    return this.done
  }

  reset(): void {
    this.done =
      this.line =
      this.last =
      this.lastPiece =
        ""
    this.gapped =
      this.marked =
      this.lineSpace =
      this.joined =
      this.linksMeet =
      this.factMeet =
      this.wrote =
      this.lead =
      this.trail =
        false
  }
}
