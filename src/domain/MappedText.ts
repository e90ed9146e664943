/**
 * A text with a map back to the source it was read from (what `VisibleText` produces), the
 * builder that appends pieces with their source ranges, and the matcher's normalization (NFC,
 * whitespace runs to one space, trim) applied with the map kept. Each step is one pass.
 */

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
export class Builder {
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

export const identity = (text: string): MappedText => {
  const b = new Builder()
  b.verbatim(text, 0)
  return b.done()
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
export const WHITESPACE_TO_COLLAPSE =
  /\s{2,}|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g

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

const SP = 0x20

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
