/**
 * Markdown as a reader sees it: a link or image `[text](url)` counts as its text; heading marks,
 * list markers, block-quote marks, table pipes and delimiter rows, code fences, thematic breaks,
 * emphasis marks (`*`, `_`, `~~` runs that open and close as in CommonMark), code-span backticks
 * and backslash escapes do not count. Text is otherwise kept as written (no entity decoding).
 * One pass marks every source unit (hidden, a space, literal), a second emits the runs.
 *
 * Over 400 lines on purpose: `markdownVisible` is one scanner whose block and inline passes share the
 * mark array, each line's container state and the forward-only finders as local state; split,
 * they would pass all of it back and forth for every line.
 */
import { Builder, type MappedText } from "./MappedText.js"

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

export const markdownVisible = (md: string): MappedText => {
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
        if (
          (k >= tail && test(THEMATIC_BREAK_AT)) ||
          (c === 0x3d && !previousBlank && !marker && quotes === 0 && test(SETEXT_EQUALS))
        ) {
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
