/**
 * Markdown as a reader sees it: a link or image `[text](url)`, `[text][id]`, `[text][]` or `[id]`
 * (when `id` is defined) counts as its text; heading marks, list markers, block-quote marks, table
 * pipes and delimiter rows, code fences, thematic breaks, emphasis marks (`*`, `_`, `~~` runs that
 * open and close as in CommonMark), code-span backticks, backslash escapes, link reference
 * definitions, HTML comments, processing instructions, declarations and raw HTML tags do not
 * count; the text between tags does (in an HTML block too, where `script`/`style` contents do
 * not). An autolink counts as its address; an entity or numeric character reference (`&amp;`,
 * `&#233;`) as the character it names, as CommonMark renders it, except in code. Where a block
 * element's tag or `<br>` stood, a reader sees a break: it counts as a space.
 * One pass marks every source unit (hidden, a space, literal, a decoded reference), a second
 * emits the runs.
 *
 * Over 400 lines on purpose: `markdownVisible` is one scanner whose block and inline passes share the
 * mark array, each line's container state and the forward-only finders as local state; split,
 * they would pass all of it back and forth for every line.
 */
import { Builder, type MappedText } from "./MappedText.js"

import { htmlVisible } from "./HtmlText.js"

const HIDE = 1
const AS_SPACE = 2
const LITERAL = 4
/** A character reference: its unit stands for the decoded text, the rest of it is hidden. */
const REFERENCE = 8

const SP = 0x20
const TAB = 0x09
const BACKSLASH = 0x5c
const BACKTICK = 0x60
const TILDE = 0x7e
const LBRACKET = 0x5b
const RBRACKET = 0x5d
const LPAREN = 0x28
const RPAREN = 0x29
const GT = 0x3e
const LT = 0x3c
const PIPE = 0x7c
const HASH = 0x23
const STAR = 0x2a
const UNDERSCORE = 0x5f
const BANG = 0x21
const DQUOTE = 0x22
const SQUOTE = 0x27
const AMP = 0x26
const SLASH = 0x2f
const EQUALS = 0x3d

const isAsciiPunct = (c: number): boolean =>
  (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e)

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

const WHITESPACE = /\s/
const PUNCTUATION = /[\p{P}\p{S}]/u
const isWhitespace = (ch: string): boolean => {
  const c = ch.charCodeAt(0)
  return c < 0x80 ? c === SP || (c >= 0x09 && c <= 0x0d) : WHITESPACE.test(ch)
}
const isPunctuation = (ch: string): boolean => {
  const c = ch.charCodeAt(0)
  return c < 0x80 ? isAsciiPunct(c) : PUNCTUATION.test(ch)
}

/** A thematic break from a position of the text to the end of its line (sticky, multiline). */
const THEMATIC_BREAK_AT = /(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})\r?$/my
/** Container marks (block quotes, list markers) read in front of one line; deeper ones are text. */
const MAX_CONTAINERS = 32
const SETEXT_EQUALS = /=+[ \t]*\r?$/my
const TABLE_DELIMITER_ROW = /\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\r?$/my
const AUTOLINK = /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/y
const EMAIL_AUTOLINK =
  /<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/y
/** An entity or numeric character reference as CommonMark reads one (the `;` is required). */
const REFERENCE_AT = /&(?:#[xX][0-9A-Fa-f]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/y

/** CommonMark's HTML blocks: kinds 1-5 end at the line holding their closer, 6 and 7 at a blank line. */
const HTML_BLOCK_RAW = /<(?:script|pre|style|textarea)(?:[ \t>]|\r?$)/imy
const HTML_BLOCK_NAMES = "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|" +
  "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|" +
  "iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|" +
  "tbody|td|tfoot|th|thead|title|tr|track|ul"
const HTML_BLOCK_TAG = new RegExp(`</?(?:${HTML_BLOCK_NAMES})(?:[ \\t>]|/>|\\r?$)`, "imy")
/**
 * The line break that ends a paragraph: before a blank line, or before a line that starts a block
 * interrupting it (a heading, a non-empty list item, a fence, a thematic break or setext line, an
 * HTML block of kinds 1-6), read behind any block-quote marks.
 */
const PARAGRAPH_END = new RegExp(
  "\\n(?=[ \\t]*\\r?(?:\\n|$)|[ \\t]{0,3}(?:>[ \\t]?)*(?:#{1,6}(?:[ \\t]|\\r?$)|[-*+][ \\t]+\\S|1[.)][ \\t]+\\S|" +
    "`{3}|~{3}|(?:(?:-[ \\t]*){3,}|(?:\\*[ \\t]*){3,}|(?:_[ \\t]*){3,}|=+[ \\t]*)\\r?$|" +
    "<(?:script|pre|style|textarea)(?:[ \\t>]|\\r?$)|<!--|<\\?|<![A-Za-z]|" +
    `</?(?:${HTML_BLOCK_NAMES})(?:[ \\t>]|/>|\\r?$)))`,
  "gim"
)
const RAW_CLOSER = /<\/(?:script|pre|style|textarea)>/i
/** The tags a browser lays out as a break (block elements, `<br>`): a reader sees whitespace there. */
const BREAK_TAGS = new Set([...HTML_BLOCK_NAMES.split("|"), "br", "pre"])

const isAlpha = (c: number): boolean => ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)
const isAttributeStart = (c: number): boolean => isAlpha(c) || c === UNDERSCORE || c === 0x3a
const isAttributeChar = (c: number): boolean => isAttributeStart(c) || isDigit(c) || c === 0x2e || c === 0x2d
const isUnquotedValue = (c: number): boolean =>
  c > SP && c !== DQUOTE && c !== SQUOTE && c !== EQUALS && c !== LT && c !== GT && c !== BACKTICK

/** A link label as CommonMark compares them: whitespace runs as one space, case folded. */
const labelKey = (label: string): string => label.replace(/[ \t\r\n]+/g, " ").trim().toLowerCase().toUpperCase()

/** References decoded before (a name's meaning never changes): up to this many are kept. */
const MAX_KNOWN_REFERENCES = 4096
const knownReferences = new Map<string, string | null>()
const SEPARATOR = "\u0001"

/** A numeric reference as CommonMark reads it: the code point, U+FFFD for 0, a surrogate or none. */
const numericReference = (ref: string): string => {
  const hex = ref.charCodeAt(2) === 0x78 || ref.charCodeAt(2) === 0x58
  const code = parseInt(ref.slice(hex ? 3 : 2, -1), hex ? 16 : 10)
  return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? "\ufffd" : String.fromCodePoint(code)
}

/**
 * What each character reference names, or null where it names nothing (`&notanentity;`): numeric
 * ones here, named ones in one pass of the HTML reader over all of them (a name counts only
 * whole, with its `;`: one that only starts with a legacy name, `&notit;`, decodes in part and is
 * no reference).
 */
const decodeReferences = (refs: ReadonlyArray<string>): Map<string, string | null> => {
  const out = new Map<string, string | null>()
  const unknown: Array<string> = []
  for (const r of refs) {
    if (out.has(r)) continue
    if (r.charCodeAt(1) === HASH) {
      out.set(r, numericReference(r))
      continue
    }
    const k = knownReferences.get(r)
    if (k === undefined) unknown.push(r)
    out.set(r, k ?? null)
  }
  if (unknown.length === 0) return out
  const texts = htmlVisible(unknown.join(SEPARATOR), false).text.split(SEPARATOR)
  for (let i = 0; i < unknown.length; i++) {
    const r = unknown[i]!
    const text = texts[i] ?? r
    const meaning = text === r || /[A-Za-z0-9];$/.test(text) ? null : text
    out.set(r, meaning)
    if (knownReferences.size < MAX_KNOWN_REFERENCES) knownReferences.set(r, meaning)
  }
  return out
}

interface Fence {
  readonly char: number
  readonly length: number
  /** Block-quote marks in front of the opening fence (stripped from the lines inside). */
  readonly quotes: number
}

/** An HTML block (CommonMark's kinds): where it ends. */
interface HtmlBlock {
  /** Kinds 1-5: the line holding this closer's next match ends it; kinds 6 and 7 (null): a blank line. */
  readonly closer: Finder | null
  /** Block-quote marks in front of its first line (stripped from the lines after). */
  readonly quotes: number
  /** In a list item: the columns its text is indented by, which the lines after must be. */
  readonly indent: number
}

/** A bracketed text that is a link if its label is defined somewhere in the document. */
interface Reference {
  readonly open: number
  readonly close: number
  readonly end: number
  /** Where `[text][label]`'s label starts (after its `[`), or -1 when the text is the label. */
  readonly label: number
}

/**
 * The next match of a global regex at or after a position, for queries that only move forward:
 * a search that found nothing before a position is not repeated, so every search of a document
 * together reads it once (lines without any syntax character cost nothing).
 */
class Finder {
  private from = -1
  private at = -1
  constructor(private readonly re: RegExp, private readonly text: string) {}
  next(from: number): number {
    if (from >= this.from && this.at >= from) return this.at
    this.re.lastIndex = from
    const m = this.re.exec(this.text)
    this.from = from
    this.at = m === null ? this.text.length : m.index
    return this.at
  }
}

const INLINE_SYNTAX = /[\\`[\]<&]/g
const HTML_SYNTAX = /[<&]/g
const EMPHASIS_SYNTAX = /[*_~]/g
const BACKTICKS = /`/g

export const markdownVisible = (md: string): MappedText => {
  const n = md.length
  // Padded to whole 32-bit words, so unmarked stretches are skipped four units at a time.
  const mask = new Uint8Array((n + 3) & ~3)
  const words = new Uint32Array(mask.buffer)
  const inlineSyntax = new Finder(new RegExp(INLINE_SYNTAX.source, "g"), md)
  const emphasisSyntax = new Finder(new RegExp(EMPHASIS_SYNTAX.source, "g"), md)
  const backticks = new Finder(new RegExp(BACKTICKS.source, "g"), md)
  const htmlSyntax = new Finder(new RegExp(HTML_SYNTAX.source, "g"), md)
  const commentClose = new Finder(/-->/g, md)
  const instructionClose = new Finder(/\?>/g, md)
  const cdataClose = new Finder(/\]\]>/g, md)
  const greaterThan = new Finder(/>/g, md)
  const doubleQuotes = new Finder(/"/g, md)
  const singleQuotes = new Finder(/'/g, md)
  const scriptClose = new Finder(/<\/script\s*>/gi, md)
  const styleClose = new Finder(/<\/style\s*>/gi, md)
  /** Where an HTML block (kinds 6 and 7) ends at the latest: the line break before the next blank line. */
  const blankLine = new Finder(/\n[ \t]*\r?(?:\n|$)/g, md)
  const paragraphEnd = new Finder(new RegExp(PARAGRAPH_END.source, "gim"), md)
  /** Character references, by position: where each ends (decoded once the pass is done). */
  const references = new Map<number, number>()
  /** Bracketed texts that are links if their label is defined; the labels defined. */
  const linkCandidates: Array<Reference> = []
  const defined = new Set<string>()
  /** The end of a comment (or script, CDATA…) that runs past its line: the lines up to it are hidden. */
  let carry = -1
  const rawClose = new Finder(new RegExp(RAW_CLOSER.source, "gi"), md)
  const hide = (a: number, b: number) => mask.fill(HIDE, a, b)
  const isBlank = (a: number, b: number) => {
    for (let i = a; i < b; i++) {
      const c = md.charCodeAt(i)
      if (c !== SP && c !== TAB) return false
    }
    return true
  }
  const skipSpaces = (i: number, e: number) => {
    while (i < e && (md.charCodeAt(i) === SP || md.charCodeAt(i) === TAB)) i++
    return i
  }

  /** The character a delimiter run sees beside it (a line edge or a table pipe counts as whitespace). */
  const charAt = (
    i: number,
    s: number,
    e: number
  ): string => (i < s || i >= e || (mask[i]! & AS_SPACE) !== 0 ? " " : md[i]!)

  const emphasis = (s: number, e: number) => {
    if (emphasisSyntax.next(s) >= e) return
    const stars: Array<{ pos: number; len: number }> = []
    const underscores: Array<{ pos: number; len: number }> = []
    const tildes: Array<{ pos: number; len: number }> = []
    let i = s
    while (i < e) {
      i = emphasisSyntax.next(i)
      if (i >= e) break
      const c = md.charCodeAt(i)
      if (mask[i] !== 0) {
        i++
        continue
      }
      let j = i + 1
      while (j < e && md.charCodeAt(j) === c && mask[j] === 0) j++
      let pos = i
      let len = j - i
      i = j
      if (c === TILDE && len !== 2) continue
      const before = charAt(pos - 1, s, e)
      const after = charAt(j, s, e)
      const beforeWs = isWhitespace(before)
      const afterWs = isWhitespace(after)
      const beforeP = isPunctuation(before)
      const afterP = isPunctuation(after)
      const left = !afterWs && (!afterP || beforeWs || beforeP)
      const right = !beforeWs && (!beforeP || afterWs || afterP)
      const canOpen = c === UNDERSCORE ? left && (!right || beforeP) : left
      const canClose = c === UNDERSCORE ? right && (!left || afterP) : right
      const stack = c === STAR ? stars : c === UNDERSCORE ? underscores : tildes
      if (canClose) {
        while (len > 0 && stack.length > 0) {
          const o = stack[stack.length - 1]!
          if (c === TILDE && o.len !== len) break
          const m = Math.min(o.len, len)
          hide(o.pos + o.len - m, o.pos + o.len)
          hide(pos, pos + m)
          o.len -= m
          pos += m
          len -= m
          if (o.len === 0) stack.pop()
        }
      }
      if (len > 0 && canOpen) stack.push({ pos, len })
    }
  }

  /** The end of the open or closing tag at `i` (a `<`) within the line, or -1 (CommonMark's raw HTML). */
  const tagEnd = (i: number, e: number): number => {
    let p = i + 1
    const closing = md.charCodeAt(p) === SLASH
    if (closing) p++
    if (!isAlpha(md.charCodeAt(p))) return -1
    p++
    for (let c = md.charCodeAt(p); p < e && (isAlpha(c) || isDigit(c) || c === 0x2d); c = md.charCodeAt(++p));
    if (closing) {
      p = skipSpaces(p, e)
      return p < e && md.charCodeAt(p) === GT ? p + 1 : -1
    }
    for (;;) {
      const at = skipSpaces(p, e)
      if (at >= e) return -1
      const c = md.charCodeAt(at)
      if (c === GT) return at + 1
      if (c === SLASH) return at + 1 < e && md.charCodeAt(at + 1) === GT ? at + 2 : -1
      if (at === p || !isAttributeStart(c)) return -1
      p = at + 1
      while (p < e && isAttributeChar(md.charCodeAt(p))) p++
      const eq = skipSpaces(p, e)
      if (eq >= e || md.charCodeAt(eq) !== EQUALS) continue
      let q = skipSpaces(eq + 1, e)
      const v = md.charCodeAt(q)
      if (q >= e) return -1
      if (v === DQUOTE || v === SQUOTE) {
        const close = (v === DQUOTE ? doubleQuotes : singleQuotes).next(q + 1)
        if (close >= e) return -1
        p = close + 1
      } else {
        const from = q
        while (q < e && isUnquotedValue(md.charCodeAt(q))) q++
        if (q === from) return -1
        p = q
      }
    }
  }

  /** The end of `closer` found from `from`, if it ends by `far`; else -1. */
  const closedBy = (f: Finder, from: number, length: number, far: number): number => {
    const at = f.next(from)
    return at + length <= far ? at + length : -1
  }

  /**
   * Hides the raw HTML at `i` (a `<`): a comment, processing instruction, declaration or CDATA
   * section (these may run to `far`), or a tag within the line (a `script`/`style` element with
   * its contents, up to its closing tag or the file's end). A block element's tag or `<br>` reads
   * as a space.
   * Returns the end of what it hid, or -1 when no HTML starts there (`a < b`, `x<y`).
   */
  const markup = (i: number, e: number, far: number): number => {
    const c = md.charCodeAt(i + 1)
    let end: number
    if (c === BANG) {
      if (md.startsWith("<!--", i)) {
        end = md.startsWith(">", i + 4)
          ? i + 5
          : md.startsWith("->", i + 4)
          ? i + 6
          : closedBy(commentClose, i + 4, 3, far)
      } else if (md.startsWith("<![CDATA[", i)) end = closedBy(cdataClose, i + 9, 3, far)
      else end = isAlpha(md.charCodeAt(i + 2)) ? closedBy(greaterThan, i + 3, 1, far) : -1
      if (end >= 0) hide(i, end)
      return end
    }
    if (c === 0x3f) {
      end = closedBy(instructionClose, i + 2, 2, far)
      if (end >= 0) hide(i, end)
      return end
    }
    end = tagEnd(i, e)
    if (end < 0) return -1
    hide(i, end)
    const from = c === SLASH ? i + 2 : i + 1
    let to = from
    while (to < end && to - from <= 10 && (isAlpha(md.charCodeAt(to)) || isDigit(md.charCodeAt(to)))) to++
    const name = md.slice(from, to).toLowerCase()
    if (BREAK_TAGS.has(name)) mask[i] = AS_SPACE
    if (c !== SLASH && (name === "script" || name === "style")) {
      // A browser reads all up to the closing tag (or the end of the file) as the element's contents.
      const close = (name === "script" ? scriptClose : styleClose).next(end)
      const stop = close < n ? md.indexOf(">", close) + 1 : n
      hide(end, stop)
      return stop
    }
    return end
  }

  /** Notes the character reference at `i` (a `&`) to decode; its end, or -1 when none is there. */
  const reference = (i: number, e: number): number => {
    REFERENCE_AT.lastIndex = i
    const m = REFERENCE_AT.exec(md)
    if (m === null || i + m[0].length > e) return -1
    const end = i + m[0].length
    mask[i] = REFERENCE
    hide(i + 1, end)
    references.set(i, end)
    return end
  }

  /**
   * Markup that CommonMark does not call HTML but a browser does, in an HTML block (passed to it as
   * written): an unclosed comment runs to the end of the file; a `<` before a letter, `/`, `!` or
   * `?` opens a tag (or a bogus comment) up to the next `>`, or to the block's end (the renderer's
   * next tag closes it). Hidden; returns its end, or -1 (`a < b`).
   */
  const looseMarkup = (i: number, e: number): number => {
    const c = md.charCodeAt(i + 1)
    let end: number
    if (md.startsWith("<!--", i)) end = n
    else if (isAlpha(c) || c === SLASH || c === BANG || c === 0x3f) {
      const gt = greaterThan.next(i + 1)
      // The block ends on this line when its closer is here (`html` is then already null).
      const far = html === null ? e : blankLine.next(i)
      end = gt < far ? gt + 1 : far
    } else return -1
    hide(i, end)
    return end
  }

  /** One line of an HTML block: tags, comments and hidden contents are markup, references decode. */
  const htmlLine = (s: number, e: number) => {
    let i = s
    while (i < e) {
      i = htmlSyntax.next(i)
      if (i >= e) break
      if (mask[i] !== 0) {
        i++
        continue
      }
      let end = md.charCodeAt(i) === LT ? markup(i, e, n) : reference(i, e)
      if (end < 0 && md.charCodeAt(i) === LT) end = looseMarkup(i, e)
      if (end > e) {
        carry = end
        return
      }
      i = end < 0 ? i + 1 : end
    }
  }

  /** Links, images, code spans, autolinks and escapes of one line's inline content, then emphasis. */
  const inline = (s: number, e: number) => {
    if (inlineSyntax.next(s) >= e) return emphasis(s, e)
    // Backtick runs of the line by length, so a code span's closer is found without rescanning.
    const runs = new Map<number, { list: Array<number>; next: number }>()
    for (let i = backticks.next(s); i < e; i = backticks.next(i)) {
      let j = i + 1
      while (j < e && md.charCodeAt(j) === BACKTICK) j++
      let r = runs.get(j - i)
      if (r === undefined) runs.set(j - i, r = { list: [], next: 0 })
      r.list.push(i)
      i = j
    }
    const closingRun = (len: number, from: number): number => {
      const r = runs.get(len)
      if (r === undefined) return -1
      while (r.next < r.list.length && r.list[r.next]! < from) r.next++
      return r.next < r.list.length ? r.list[r.next]! : -1
    }
    // A title scan that found no closer proves that none follows: later scans for it stop at once.
    const noCloserFrom: Record<number, number> = {}
    const titleEnd = (p: number, close: number): number => {
      const known = noCloserFrom[close]
      if (known !== undefined && known <= p) return -1
      for (let q = p; q < e; q++) {
        const c = md.charCodeAt(q)
        if (c === BACKSLASH) q++
        else if (c === close) return q
      }
      noCloserFrom[close] = p
      return -1
    }
    /** The `)` closing a link destination that starts at `p` (after `(`), or -1. */
    const linkEnd = (p: number): number => {
      p = skipSpaces(p, e)
      if (md.charCodeAt(p) === LT) {
        let q = p + 1
        while (q < e) {
          const c = md.charCodeAt(q)
          if (c === GT || c === LT) break
          q += c === BACKSLASH ? 2 : 1
        }
        if (md.charCodeAt(q) !== GT) return -1
        p = q + 1
      } else {
        let depth = 0
        while (p < e) {
          const c = md.charCodeAt(p)
          if (c <= SP) break
          if (c === BACKSLASH) {
            p += 2
            continue
          }
          if (c === LPAREN) {
            if (++depth > 1) return -1
          } else if (c === RPAREN) {
            if (depth === 0) break
            depth--
          }
          p++
        }
        if (depth !== 0) return -1
      }
      const afterDest = p
      p = skipSpaces(p, e)
      const t = md.charCodeAt(p)
      if (p > afterDest && (t === DQUOTE || t === SQUOTE || t === LPAREN)) {
        const q = titleEnd(p + 1, t === LPAREN ? RPAREN : t)
        if (q < 0) return -1
        p = skipSpaces(q + 1, e)
      }
      return p < e && md.charCodeAt(p) === RPAREN ? p : -1
    }
    const brackets: Array<number> = []
    let lastBracket = -1
    let i = s
    while (i < e) {
      i = inlineSyntax.next(i)
      if (i >= e) break
      if (mask[i] !== 0) {
        i++
        continue
      }
      const c = md.charCodeAt(i)
      if (c === BACKSLASH && i + 1 < e && isAsciiPunct(md.charCodeAt(i + 1))) {
        mask[i] = HIDE
        if (mask[i + 1] === 0) mask[i + 1] = LITERAL
        i += 2
      } else if (c === BACKTICK) {
        let j = i + 1
        while (j < e && md.charCodeAt(j) === BACKTICK) j++
        const close = closingRun(j - i, j)
        if (close >= 0) {
          hide(i, j)
          for (let k = j; k < close; k++) if (mask[k] === 0) mask[k] = LITERAL
          hide(close, close + (j - i))
          i = close + (j - i)
        } else {
          mask.fill(LITERAL, i, j)
          i = j
        }
      } else if (c === LBRACKET) {
        brackets.push(i)
        lastBracket = i
        i++
      } else if (c === RBRACKET) {
        const open = brackets.pop()
        // A label holds no bracket and at most 999 characters: only such a text can be `[label]`.
        const plain = open !== undefined && lastBracket === open && i - open <= 1000
        lastBracket = i
        if (open === undefined) {
          i++
          continue
        }
        if (i + 1 < e && md.charCodeAt(i + 1) === LPAREN) {
          const close = linkEnd(i + 2)
          if (close >= 0) {
            mask[open] = HIDE
            if (open > s && md.charCodeAt(open - 1) === BANG && mask[open - 1] === 0) mask[open - 1] = HIDE
            hide(i, close + 1)
            i = close + 1
            continue
          }
        }
        if (i + 1 < e && md.charCodeAt(i + 1) === LBRACKET) {
          // `[text][label]` or `[text][]`: a link if the label is defined, text as written otherwise.
          const close = labelEnd(i + 2, e)
          // Read on from the label's `[`: should `[label](url)` be a link, `[text]` stays text.
          if (close >= 0 && (close > i + 2 || plain)) {
            linkCandidates.push({ open, close: i, end: close + 1, label: close > i + 2 ? i + 2 : -1 })
            i++
            continue
          }
        }
        if (plain) linkCandidates.push({ open, close: i, end: i + 1, label: -1 })
        i++
      } else if (c === LT) {
        AUTOLINK.lastIndex = i
        let m = AUTOLINK.exec(md)
        if (m === null) {
          EMAIL_AUTOLINK.lastIndex = i
          m = EMAIL_AUTOLINK.exec(md)
        }
        if (m !== null && i + m[0].length <= e) {
          mask[i] = HIDE
          for (let k = i + 1; k < i + m[0].length - 1; k++) mask[k] = LITERAL
          mask[i + m[0].length - 1] = HIDE
          i += m[0].length
          continue
        }
        const end = markup(i, e, paragraphEnd.next(i))
        if (end > e) {
          carry = end
          break
        }
        i = end < 0 ? i + 1 : end
      } else if (c === AMP) {
        const end = reference(i, e)
        i = end < 0 ? i + 1 : end
      } else i++
    }
    emphasis(s, e)
  }

  /** The `]` closing a link label whose text starts at `p` (no unescaped bracket, at most 999 characters), or -1. */
  const labelEnd = (p: number, e: number): number => {
    for (let q = p; q < e && q - p <= 999; q++) {
      const c = md.charCodeAt(q)
      if (c === BACKSLASH) q++
      else if (c === LBRACKET) return -1
      else if (c === RBRACKET) return q
    }
    return -1
  }

  /** The line's end (before `\r\n`) of the line from `pos` that ends at `eol`. */
  const lineEnd = (pos: number, eol: number) => (eol > pos && md.charCodeAt(eol - 1) === 0x0d ? eol - 1 : eol)

  /** The end of the title that starts at `p` (its quote), or -1. */
  const titleEnd = (p: number, e: number): number => {
    const t = md.charCodeAt(p)
    const close = t === LPAREN ? RPAREN : t
    if (t !== DQUOTE && t !== SQUOTE && t !== LPAREN) return -1
    for (let q = p + 1; q < e; q++) {
      const c = md.charCodeAt(q)
      if (c === BACKSLASH) q++
      else if (c === close) return q + 1
      else if (c === LPAREN && close === RPAREN) return -1
    }
    return -1
  }

  /**
   * A link reference definition at `k` (`[label]: destination "title"`, the destination on this
   * line or the next, the title on the destination's line or the next): its label is noted. Returns where it ends (this line's end, or the next line's when
   * the title is there), or -1 when no definition starts here.
   */
  const definition = (k: number, end: number, eol: number): number => {
    const close = labelEnd(k + 1, end)
    if (close < 0 || md.charCodeAt(close + 1) !== 0x3a) return -1
    const key = labelKey(md.slice(k + 1, close))
    if (key === "") return -1
    let p = skipSpaces(close + 2, end)
    if (p >= end) {
      // The destination may start the next line.
      if (eol >= n) return -1
      const from = eol + 1
      eol = md.indexOf("\n", from)
      if (eol < 0) eol = n
      end = lineEnd(from, eol)
      p = skipSpaces(from, end)
      if (p >= end) return -1
    }
    if (md.charCodeAt(p) === LT) {
      let q = p + 1
      while (q < end) {
        const c = md.charCodeAt(q)
        if (c === GT || c === LT) break
        q += c === BACKSLASH ? 2 : 1
      }
      if (q >= end || md.charCodeAt(q) !== GT) return -1
      p = q + 1
    } else {
      const from = p
      let depth = 0
      for (let c = md.charCodeAt(p); p < end && c > SP; c = md.charCodeAt(p)) {
        if (c === BACKSLASH) p++
        else if (c === LPAREN) depth++
        else if (c === RPAREN && --depth < 0) return -1
        p++
      }
      if (p === from || depth !== 0) return -1
    }
    const afterDestination = p
    p = skipSpaces(p, end)
    if (p < end) {
      const t = p > afterDestination ? titleEnd(p, end) : -1
      if (t < 0 || !isBlank(t, end)) return -1
      defined.add(key)
      return end
    }
    defined.add(key)
    // A title alone on the next line belongs to the definition.
    if (eol >= n) return end
    let next = md.indexOf("\n", eol + 1)
    if (next < 0) next = n
    const nextEnd = lineEnd(eol + 1, next)
    const t = titleEnd(skipSpaces(eol + 1, nextEnd), nextEnd)
    return t >= 0 && isBlank(t, nextEnd) ? nextEnd : end
  }

  /** The HTML block that starts at `k` (a `<`), by CommonMark's start conditions, or null. */
  const htmlBlockAt = (
    k: number,
    end: number,
    quotes: number,
    indent: number,
    afterText: boolean
  ): HtmlBlock | null => {
    const at = (re: RegExp) => {
      re.lastIndex = k
      return re.test(md)
    }
    if (at(HTML_BLOCK_RAW)) return { closer: rawClose, quotes, indent }
    if (md.startsWith("<!--", k)) return { closer: commentClose, quotes, indent }
    if (md.startsWith("<?", k)) return { closer: instructionClose, quotes, indent }
    if (md.startsWith("<![CDATA[", k)) return { closer: cdataClose, quotes, indent }
    if (md.startsWith("<!", k) && isAlpha(md.charCodeAt(k + 2))) return { closer: greaterThan, quotes, indent }
    if (at(HTML_BLOCK_TAG)) return { closer: null, quotes, indent }
    if (afterText) return null
    const t = tagEnd(k, end)
    return t >= 0 && isBlank(t, end) ? { closer: null, quotes, indent } : null
  }

  let fence: Fence | null = null
  let html: HtmlBlock | null = null
  let previousBlank = true
  /**
   * What the previous line was: a paragraph's text (a definition cannot interrupt one), or that or
   * a definition (CommonMark reads definitions out of a paragraph: a kind-7 HTML block cannot
   * interrupt either).
   */
  let paragraph = false
  let afterText = false
  let pos = 0
  while (pos <= n) {
    let eol = md.indexOf("\n", pos)
    if (eol < 0) eol = n
    const end = eol > pos && md.charCodeAt(eol - 1) === 0x0d ? eol - 1 : eol
    if (carry > pos) {
      // A comment (script, CDATA…) begun on an earlier line is hidden up to its end; the rest of
      // its last line reads as the block it sits in.
      if (carry <= end) {
        const from = carry
        carry = -1
        if (html !== null) {
          if (html.closer !== null && html.closer.next(pos) < end) html = null
          htmlLine(from, end)
        } else inline(from, end)
      }
      previousBlank = false
      pos = eol + 1
      continue
    }
    const blank = isBlank(pos, end)
    let k = pos
    let inParagraph = false
    let definitionLine = false
    if (html !== null && !blank) {
      // The block goes on only inside the block quotes and the list item it started in.
      let q = 0
      for (; q < html.quotes; q++) {
        const at = skipSpaces(k, end)
        if (md.charCodeAt(at) !== GT) break
        mask[at] = HIDE
        k = at + 1
        if (md.charCodeAt(k) === SP) k++
      }
      if (q < html.quotes || skipSpaces(k, end) - k < html.indent) {
        mask.fill(0, pos, k)
        k = pos
        html = null
      }
    }
    if (html !== null) {
      if (html.closer === null && isBlank(k, end)) html = null
      else {
        if (html.closer !== null && html.closer.next(k) < end) html = null
        htmlLine(k, end)
      }
    } else if (fence !== null) {
      // Inside a fence: the block-quote marks it sits in are syntax; the rest is the code itself.
      for (let q = 0; q < fence.quotes; q++) {
        const at = skipSpaces(k, end)
        if (md.charCodeAt(at) !== GT) break
        mask[at] = HIDE
        k = at + 1
        if (md.charCodeAt(k) === SP) k++
      }
      const at = skipSpaces(k, end)
      let j = at
      while (j < end && md.charCodeAt(j) === fence.char) j++
      if (j - at >= fence.length && isBlank(j, end)) {
        hide(k, end)
        fence = null
      }
    } else if (!blank) {
      // A thematic break holds only `-`, `*`, `_` and blanks from its start to the line's end:
      // where that tail begins bounds where one can start (so it is only tested where it could match).
      let tail = end
      while (tail > k) {
        const c = md.charCodeAt(tail - 1)
        if (c !== 0x2d && c !== STAR && c !== UNDERSCORE && c !== SP && c !== TAB) break
        tail--
      }
      let quotes = 0
      let marker = false
      let afterQuotes = pos
      for (let containers = 0; containers < MAX_CONTAINERS; containers++) {
        k = skipSpaces(k, end)
        const c = md.charCodeAt(k)
        if (c === GT) {
          mask[k] = HIDE
          k++
          if (md.charCodeAt(k) === SP) k++
          quotes++
          afterQuotes = k
          continue
        }
        if (k >= tail) {
          THEMATIC_BREAK_AT.lastIndex = k
          if (THEMATIC_BREAK_AT.test(md)) break
        }
        const next = md.charCodeAt(k + 1)
        if ((c === 0x2d || c === STAR || c === 0x2b) && (k + 1 >= end || next === SP || next === TAB)) {
          mask[k] = HIDE
          k++
          marker = true
          continue
        }
        if (isDigit(c)) {
          let j = k
          while (j < end && j - k < 9 && isDigit(md.charCodeAt(j))) j++
          const d = md.charCodeAt(j)
          const after = md.charCodeAt(j + 1)
          if ((d === 0x2e || d === RPAREN) && (j + 1 >= end || after === SP || after === TAB)) {
            hide(k, j + 1)
            k = j + 1
            marker = true
            continue
          }
        }
        break
      }
      const c = md.charCodeAt(k)
      const test = (re: RegExp) => {
        re.lastIndex = k
        return re.test(md)
      }
      if (c === BACKTICK || c === TILDE) {
        let j = k
        while (j < end && md.charCodeAt(j) === c) j++
        if (j - k >= 3 && !(c === BACKTICK && backticks.next(j) < end)) {
          hide(k, end)
          fence = { char: c, length: j - k, quotes }
        }
      }
      let block: HtmlBlock | null
      let definitionEnd: number
      if (fence !== null) {
        // The fence's own line is hidden.
      } else if (c === LT && (block = htmlBlockAt(k, end, quotes, marker ? k - afterQuotes : 0, afterText)) !== null) {
        html = block.closer !== null && block.closer.next(k) < end ? null : block
        htmlLine(k, end)
      } else if (c === LBRACKET && !paragraph && (definitionEnd = definition(k, end, eol)) >= 0) {
        hide(k, definitionEnd)
        definitionLine = true
        if (definitionEnd > end) {
          eol = md.indexOf("\n", definitionEnd)
          if (eol < 0) eol = n
        }
      } else {
        inParagraph = true
        if (
          (k >= tail && test(THEMATIC_BREAK_AT)) ||
          (c === 0x3d && !previousBlank && !marker && quotes === 0 && test(SETEXT_EQUALS))
        ) {
          hide(k, end)
          inParagraph = false
        } else if (c === HASH) {
          let j = k
          while (j < end && md.charCodeAt(j) === HASH) j++
          if (j - k <= 6 && (j >= end || md.charCodeAt(j) === SP || md.charCodeAt(j) === TAB)) {
            hide(k, j)
            inParagraph = false
          }
          inline(j, end)
        } else if (c === PIPE) {
          if (test(TABLE_DELIMITER_ROW)) hide(k, end)
          else {
            mask[k] = HIDE
            for (let j = k + 1; j < end; j++) {
              const d = md.charCodeAt(j)
              if (d === BACKSLASH) j++
              else if (d === PIPE) mask[j] = AS_SPACE
            }
            inline(k + 1, end)
          }
        } else {
          // An empty list item is no paragraph: a definition may follow it.
          if (k >= end) inParagraph = false
          inline(k, end)
        }
      }
    }
    previousBlank = blank
    paragraph = inParagraph
    afterText = inParagraph || definitionLine
    pos = eol + 1
  }

  // Character references decode as one batch; bracketed texts whose label is defined are links.
  const meanings = new Map<number, string>()
  if (references.size > 0) {
    const texts = decodeReferences(Array.from(references, ([at, end]) => md.slice(at, end)))
    for (const [at, end] of references) {
      if (mask[at] !== REFERENCE) continue
      const meaning = texts.get(md.slice(at, end))
      if (meaning === null || meaning === undefined) mask.fill(0, at, end)
      else meanings.set(at, meaning)
    }
  }
  if (defined.size > 0) {
    for (const r of linkCandidates) {
      if (r.end > r.close + 1 && mask[r.close + 1] !== 0) continue
      if (!defined.has(labelKey(r.label < 0 ? md.slice(r.open + 1, r.close) : md.slice(r.label, r.end - 1)))) continue
      mask[r.open] = HIDE
      if (r.open > 0 && md.charCodeAt(r.open - 1) === BANG && mask[r.open - 1] === 0) mask[r.open - 1] = HIDE
      hide(r.close, r.end)
    }
  }

  const b = new Builder()
  let i = 0
  while (i < n) {
    const m = mask[i]!
    if ((m & HIDE) !== 0) {
      i++
      continue
    }
    if ((m & AS_SPACE) !== 0) {
      b.mapped(" ", i, i + 1)
      i++
      continue
    }
    if ((m & REFERENCE) !== 0) {
      const end = references.get(i)!
      b.mapped(meanings.get(i)!, i, end)
      i = end
      continue
    }
    let j = i + 1
    while (j < n && (j & 3) !== 0 && mask[j] === 0) j++
    while (j < n && (j & 3) === 0 && words[j >> 2] === 0) j += 4
    while (j < n && (mask[j]! & (HIDE | AS_SPACE | REFERENCE)) === 0) j++
    if (j > n) j = n
    b.verbatim(md.slice(i, j), i)
    i = j
  }
  return b.done()
}
