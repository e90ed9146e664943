/**
 * The text a reader sees (spec README "Quote matching"), with a map back to the file's own text.
 *
 * - Markdown (a readable copy, any `.md` file): a link or image `[text](url)` counts as its
 *   text; heading marks, list markers, block-quote marks, table pipes and delimiter rows, code
 *   fences, thematic breaks, emphasis marks (`*`, `_`, `~~` runs that open and close as in
 *   CommonMark), code-span backticks and backslash escapes do not count. Text is otherwise kept as
 *   written: a readable copy is verbatim text, so no entity decoding is applied to Markdown.
 * - HTML/XHTML: the text content (tags and comments removed, character references decoded,
 *   `script`/`style`/`template` dropped, a block element's boundaries as whitespace).
 * - text/plain: the text itself.
 *
 * `sourceStart`/`sourceEnd` give, for each UTF-16 unit of the result, the range of the file's
 * text it came from (a decoded `&amp;` maps to all five characters; whitespace a block boundary
 * added maps to an empty range at the tag). `normalizeMapped` then applies the matcher's
 * normalization (NFC, whitespace runs to one space, trim) keeping the map. Every step is one
 * pass over the text (no step rescans what an earlier one consumed), so matching stays linear.
 */
import { Tokenizer } from "htmlparser2"

export type TextFormat = "markdown" | "html" | "xhtml" | "text"

/** The format a file is read in, from its name: `.md` Markdown, `.html`/`.htm`, `.xhtml`, anything else text. */
export const formatOfPath = (path: string): TextFormat => {
  const dot = path.lastIndexOf(".")
  const ext = dot < 0 || dot < path.lastIndexOf("/") ? "" : path.slice(dot + 1).toLowerCase()
  switch (ext) {
    case "md":
    case "markdown":
      return "markdown"
    case "html":
    case "htm":
      return "html"
    case "xhtml":
      return "xhtml"
    default:
      return "text"
  }
}

/**
 * A text with a map back to the source it was read from, kept as runs: run `k` covers units
 * `[at[k], at[k+1])` of `text`. A verbatim run (`end[k] === -1`) is the source's own text from
 * `src[k]`, unit for unit; any other run stands as a whole for the source range
 * `[src[k], end[k])` (a decoded character reference, whitespace at a tag, a collapsed run).
 */
export interface MappedText {
  readonly text: string
  readonly runs: number
  readonly at: Int32Array
  readonly src: Int32Array
  readonly end: Int32Array
}

/** The run holding unit `i` (binary search). */
const runOf = (m: MappedText, i: number): number => {
  let lo = 0
  let hi = m.runs - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (m.at[mid]! <= i) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** Where unit `i` of the text starts in the source. */
export const sourceStart = (m: MappedText, i: number): number => {
  const k = runOf(m, i)
  return m.end[k] === -1 ? m.src[k]! + (i - m.at[k]!) : m.src[k]!
}

/** Where unit `i` of the text ends in the source (exclusive). */
export const sourceEnd = (m: MappedText, i: number): number => {
  const k = runOf(m, i)
  return m.end[k] === -1 ? m.src[k]! + (i - m.at[k]!) + 1 : m.end[k]!
}

/** Appends pieces of text with their source ranges. */
class Builder {
  private readonly parts: Array<string> = []
  private n = 0
  private runs = 0
  private at = new Int32Array(64)
  private src = new Int32Array(64)
  private end = new Int32Array(64)

  private push(units: number, src: number, end: number): void {
    const k = this.runs
    // A verbatim piece that continues the previous one in the source extends it.
    if (end === -1 && k > 0 && this.end[k - 1] === -1 && this.src[k - 1]! + (this.n - this.at[k - 1]!) === src) {
      this.n += units
      return
    }
    if (k === this.at.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2)
        b.set(a)
        return b
      }
      this.at = grow(this.at)
      this.src = grow(this.src)
      this.end = grow(this.end)
    }
    this.at[k] = this.n
    this.src[k] = src
    this.end[k] = end
    this.runs = k + 1
    this.n += units
  }

  /** `piece` is the source's own text starting at `start`, unit for unit. */
  verbatim(piece: string, start: number): void {
    if (piece.length === 0) return
    this.parts.push(piece)
    this.push(piece.length, start, -1)
  }

  /** `piece` stands for the source range [start, end) as a whole. */
  mapped(piece: string, start: number, end: number): void {
    if (piece.length === 0) return
    this.parts.push(piece)
    this.push(piece.length, start, end)
  }

  /** Units [a, b) of an already mapped text, with their map. */
  copy(m: MappedText, a: number, b: number): void {
    if (b <= a) return
    this.parts.push(m.text.slice(a, b))
    for (let k = runOf(m, a); k < m.runs && m.at[k]! < b; k++) {
      const from = Math.max(a, m.at[k]!)
      const to = Math.min(b, k + 1 < m.runs ? m.at[k + 1]! : m.text.length)
      if (m.end[k] === -1) this.push(to - from, m.src[k]! + (from - m.at[k]!), -1)
      else this.push(to - from, m.src[k]!, m.end[k]!)
    }
  }

  done(): MappedText {
    return { text: this.parts.join(""), runs: this.runs, at: this.at, src: this.src, end: this.end }
  }
}

const identity = (text: string): MappedText => {
  const b = new Builder()
  b.verbatim(text, 0)
  return b.done()
}

// ---------------------------------------------------------------------------------------------
// HTML / XHTML

/** Elements whose text a reader never sees. */
const HIDDEN_ELEMENTS = new Set(["script", "style", "template"])

/** Elements whose start and end separate words (rendered as blocks, cells, line breaks). */
const BLOCK_ELEMENTS = new Set([
  "address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd", "details", "dialog", "dir",
  "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frameset", "h1", "h2", "h3", "h4", "h5",
  "h6", "head", "header", "hgroup", "hr", "html", "legend", "li", "listing", "main", "menu", "nav", "ol", "optgroup",
  "option", "p", "plaintext", "pre", "search", "section", "select", "summary", "table", "tbody", "td", "textarea",
  "tfoot", "th", "thead", "title", "tr", "ul", "xmp", "iframe", "noscript", "img", "input", "button"
])

/**
 * htmlparser2's tokenizer alone (its parser's stack of open elements costs more per tag the
 * deeper a page nests): text and character references come with their source indices; hidden
 * elements are counted by name, since no tree is needed to know whether text is inside one.
 */
const htmlVisible = (html: string, xhtml: boolean): MappedText => {
  const b = new Builder()
  const open = new Map<string, number>()
  let hidden = 0
  let current = ""
  /** Whitespace at a tag: an empty range just before its name (its `<`). */
  const boundary = (nameStart: number) => {
    const at = Math.max(0, Math.min(nameStart - 1, html.length))
    b.mapped(" ", at, at)
  }
  const close = (name: string) => {
    const n = open.get(name) ?? 0
    if (n > 0) {
      open.set(name, n - 1)
      hidden--
    }
  }
  const nameAt = (start: number, end: number) => html.slice(start, end).toLowerCase()
  const noop = () => {}
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, {
    ontext(start, end) {
      // Clamped: at the end of the input the tokenizer can report a section it never opened.
      const a = Math.max(0, start)
      if (hidden === 0 && end > a) b.verbatim(html.slice(a, end), a)
    },
    ontextentity(cp, end) {
      if (hidden > 0) return
      // A reference starts at its `&` (it holds no other) and ends at `end`.
      const start = Math.max(0, html.lastIndexOf("&", end - 1))
      b.mapped(String.fromCodePoint(cp), start, Math.min(end, html.length))
    },
    onopentagname(start, end) {
      current = nameAt(start, end)
      if (HIDDEN_ELEMENTS.has(current)) {
        open.set(current, (open.get(current) ?? 0) + 1)
        hidden++
      } else if (hidden === 0 && BLOCK_ELEMENTS.has(current)) boundary(start)
    },
    onselfclosingtag() {
      // The tokenizer reads no raw text after a self-closed `<script/>`; XHTML closes any element so.
      if (HIDDEN_ELEMENTS.has(current) && (xhtml || current !== "template")) close(current)
    },
    onclosetag(start, end) {
      const name = nameAt(start, end)
      if (HIDDEN_ELEMENTS.has(name)) close(name)
      else if (hidden === 0 && BLOCK_ELEMENTS.has(name)) boundary(start - 1)
    },
    oncdata(start, end, offset) {
      // CDATA is text in XHTML; in HTML it is a bogus comment.
      const a = Math.max(0, start)
      if (xhtml && hidden === 0) b.verbatim(html.slice(a, Math.max(a, end - offset)), a)
    },
    onattribdata: noop,
    onattribentity: noop,
    onattribend: noop,
    onattribname: noop,
    oncomment: noop,
    ondeclaration: noop,
    onend: noop,
    onopentagend: noop,
    onprocessinginstruction: noop
  })
  tokenizer.write(html)
  tokenizer.end()
  return b.done()
}

// ---------------------------------------------------------------------------------------------
// Markdown

const HIDE = 1
const AS_SPACE = 2
const LITERAL = 4

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

interface Fence {
  readonly char: number
  readonly length: number
  /** Block-quote marks in front of the opening fence (stripped from the lines inside). */
  readonly quotes: number
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

const INLINE_SYNTAX = /[\\`[\]<]/g
const EMPHASIS_SYNTAX = /[*_~]/g
const BACKTICKS = /`/g

const markdownVisible = (md: string): MappedText => {
  const n = md.length
  // Padded to whole 32-bit words, so unmarked stretches are skipped four units at a time.
  const mask = new Uint8Array((n + 3) & ~3)
  const words = new Uint32Array(mask.buffer)
  const inlineSyntax = new Finder(new RegExp(INLINE_SYNTAX.source, "g"), md)
  const emphasisSyntax = new Finder(new RegExp(EMPHASIS_SYNTAX.source, "g"), md)
  const backticks = new Finder(new RegExp(BACKTICKS.source, "g"), md)
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
  const charAt = (i: number, s: number, e: number): string => (i < s || i >= e || (mask[i]! & AS_SPACE) !== 0 ? " " : md[i]!)

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

  /** Links, images, code spans, autolinks and escapes of one line's inline content, then emphasis. */
  const inline = (s: number, e: number) => {
    if (inlineSyntax.next(s) >= e) return emphasis(s, e)
    // Backtick runs of the line by length, so a code span's closer is found without rescanning.
    const runs = new Map<number, { list: Array<number>; next: number }>()
    for (let i = backticks.next(s); i < e; i = backticks.next(i)) {
      let j = i + 1
      while (j < e && md.charCodeAt(j) === BACKTICK) j++
      let r = runs.get(j - i)
      if (r === undefined) runs.set(j - i, (r = { list: [], next: 0 }))
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
        i++
      } else if (c === RBRACKET) {
        const open = brackets.pop()
        if (open !== undefined && i + 1 < e && md.charCodeAt(i + 1) === LPAREN) {
          const close = linkEnd(i + 2)
          if (close >= 0) {
            mask[open] = HIDE
            if (open > s && md.charCodeAt(open - 1) === BANG && mask[open - 1] === 0) mask[open - 1] = HIDE
            hide(i, close + 1)
            i = close + 1
            continue
          }
        }
        i++
      } else if (c === LT) {
        AUTOLINK.lastIndex = i
        const m = AUTOLINK.exec(md)
        if (m !== null && i + m[0].length <= e) {
          mask[i] = HIDE
          for (let k = i + 1; k < i + m[0].length - 1; k++) mask[k] = LITERAL
          mask[i + m[0].length - 1] = HIDE
          i += m[0].length
        } else i++
      } else i++
    }
    emphasis(s, e)
  }

  let fence: Fence | null = null
  let previousBlank = true
  let pos = 0
  while (pos <= n) {
    let eol = md.indexOf("\n", pos)
    if (eol < 0) eol = n
    const end = eol > pos && md.charCodeAt(eol - 1) === 0x0d ? eol - 1 : eol
    const blank = isBlank(pos, end)
    let k = pos
    if (fence !== null) {
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
      for (let containers = 0; containers < MAX_CONTAINERS; containers++) {
        k = skipSpaces(k, end)
        const c = md.charCodeAt(k)
        if (c === GT) {
          mask[k] = HIDE
          k++
          if (md.charCodeAt(k) === SP) k++
          quotes++
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
      if (fence === null) {
        if ((k >= tail && test(THEMATIC_BREAK_AT)) || (c === 0x3d && !previousBlank && !marker && quotes === 0 && test(SETEXT_EQUALS))) {
          hide(k, end)
        } else if (c === HASH) {
          let j = k
          while (j < end && md.charCodeAt(j) === HASH) j++
          if (j - k <= 6 && (j >= end || md.charCodeAt(j) === SP || md.charCodeAt(j) === TAB)) hide(k, j)
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
        } else inline(k, end)
      }
    }
    previousBlank = blank
    pos = eol + 1
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
    let j = i + 1
    while (j < n && (j & 3) !== 0 && mask[j] === 0) j++
    while (j < n && (j & 3) === 0 && words[j >> 2] === 0) j += 4
    while (j < n && (mask[j]! & (HIDE | AS_SPACE)) === 0) j++
    if (j > n) j = n
    b.verbatim(md.slice(i, j), i)
    i = j
  }
  return b.done()
}

/** The text a reader sees in a file of this format, mapped to the file's own text. */
export const visibleText = (format: TextFormat, text: string): MappedText => {
  switch (format) {
    case "markdown":
      return markdownVisible(text)
    case "html":
      return htmlVisible(text, false)
    case "xhtml":
      return htmlVisible(text, true)
    case "text":
      return identity(text)
  }
}

// ---------------------------------------------------------------------------------------------
// Normalization with the map kept

/**
 * A base with its combining marks (Hangul vowel and final jamo count as marks: they compose with
 * what precedes them), or one character from U+0300 up. NFC never looks across the boundary of
 * such a cluster, so normalizing cluster by cluster equals normalizing the whole (a property test
 * checks it), and a changed cluster maps to its whole source.
 */
const CLUSTER = /[^\p{M}\u1160-\u11ff]?[\p{M}\u1160-\u11ff]+|[^\x00-\u02ff]/gu

const nfcMapped = (m: MappedText): MappedText => {
  const t = m.text
  if (!/[^\x00-\u02ff]/.test(t) || t.normalize("NFC") === t) return m
  const b = new Builder()
  let last = 0
  CLUSTER.lastIndex = 0
  for (let match = CLUSTER.exec(t); match !== null; match = CLUSTER.exec(t)) {
    const seg = match[0]
    const normalized = seg.normalize("NFC")
    if (normalized === seg) continue
    const a = match.index
    const z = a + seg.length
    b.copy(m, last, a)
    b.mapped(normalized, sourceStart(m, a), sourceEnd(m, z - 1))
    last = z
  }
  b.copy(m, last, t.length)
  return b.done()
}

/**
 * The whitespace the matcher collapses: runs of two or more whitespace characters (as `\s`
 * defines them) and single ones that are not a space, so text with ordinary single spaces is
 * left alone. Shared with `Quote.collapseWhitespace` (each user makes its own global copy).
 */
export const WHITESPACE_TO_COLLAPSE = /\s{2,}|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g

const COLLAPSE = new RegExp(WHITESPACE_TO_COLLAPSE.source, "g")

const collapseMapped = (m: MappedText): MappedText => {
  const t = m.text
  const b = new Builder()
  let last = 0
  COLLAPSE.lastIndex = 0
  for (let match = COLLAPSE.exec(t); match !== null; match = COLLAPSE.exec(t)) {
    const a = match.index
    b.copy(m, last, a)
    b.mapped(" ", sourceStart(m, a), sourceEnd(m, a))
    last = a + match[0].length
  }
  if (last === 0) return trimMapped(m)
  b.copy(m, last, t.length)
  return trimMapped(b.done())
}

const trimMapped = (m: MappedText): MappedText => {
  const t = m.text
  let a = 0
  let z = t.length
  if (a < z && t.charCodeAt(a) === SP) a++
  if (z > a && t.charCodeAt(z - 1) === SP) z--
  if (a === 0 && z === t.length) return m
  const b = new Builder()
  b.copy(m, a, z)
  return b.done()
}

/** NFC, whitespace runs to one space, trimmed: `Quote.normalizeForQuote`, with the map kept. */
export const normalizeMapped = (m: MappedText): MappedText => collapseMapped(nfcMapped(m))
