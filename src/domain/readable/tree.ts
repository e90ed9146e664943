/**
 * The page as a tree of the elements htmlparser2's `Parser` (the parser cheerio uses; forgiving,
 * it closes what HTML implies) would report, read from its tokenizer (html.ts). Each element
 * carries the figures content scoring reads: visible characters and characters inside links (of
 * its subtree), and the text and commas of the runs it holds as the nearest block. They are summed
 * as each element closes; elements are also listed in document order, so after furniture is
 * dropped one backward pass sums them again, children into parents, without recursion.
 *
 * Over 400 lines: the tree and the figures summed as each element closes are one pass (with the
 * walks over its document order that every pass after it uses).
 */
import { collapseWhitespace, isWideSpace } from "../Quote.js"
import { concealing, droppedTag, framingOnly, type Marks, pageMarks } from "./boilerplate.js"
import { type Attribs, cdataAsComments, NO_ATTRIBS, readElements } from "./html.js"
import { MAY_ESCAPE_CODE } from "./inline.js"

/**
 * Pages whose elements nest deeper than this (in the parser's own stack of open elements) get a
 * text-only copy: the parser's cost per tag grows with the depth of that stack, so a hostile page
 * could otherwise stall the capture.
 */
export const MAX_PARSE_DEPTH = 512

/** Thrown out of the parser's callbacks when its stack of open elements passes `MAX_PARSE_DEPTH`. */
export class TooDeep {}

/** A child of an element: an element, or the number of a text node in the page's `Texts`. */
export type Node = El | number

/** The text nodes of a page, by number (a child list holds the number). */
export class Texts {
  private readonly all: Array<string> = []

  /** A new text node holding `text`. */
  string(text: string): number {
    this.all.push(text)
    return this.all.length - 1
  }

  /** Text node `k` replaced by `text`. */
  set(k: number, text: string): void {
    this.all[k] = text
  }

  /** The text of node `k`. */
  of(k: number): string {
    return this.all[k]!
  }
}

/** The characters of its own text a block needs to count as a paragraph. */
export const MIN_PARAGRAPH = 25

/**
 * The children of an element that has none: shared, never written. While the page is read, the
 * children of the open elements wait on one shared stack; each element gets an array of exactly
 * its children when it closes (a pushed-to array reserves room for sixteen, which on big pages
 * was most of the tree's memory and of the collector's copying).
 */
const NO_CHILDREN: Array<Node> = []

/** An element of the page. */
export interface El {
  readonly name: string
  readonly attribs: Attribs
  /** Its place in document order: its index in `Page.all`; its subtree is `Page.all[order, end)` (`end` set when it closes). */
  readonly order: number
  end: number
  readonly parent: El | undefined
  /** The nearest block element (itself, when it is one: `undefined`). */
  readonly block: El | undefined
  /** Set when the element closes (`parsePage`). */
  children: Array<Node>
  /** Left out of the copy (by its own tag or marks, or an ancestor's). */
  drop: boolean
  /** Visible characters (not whitespace) and commas of the element's own text children. */
  selfText: number
  selfCommas: number
  /**
   * Its own text children hold nothing the readable copy rewrites: no whitespace to collapse, no
   * character Markdown could read as inline syntax (render.ts writes them as they are). Left
   * false for text not looked at (under an element dropped by its tag) and for merged runs.
   */
  plainText: boolean
  /** Class and id marks (see boilerplate.ts): their weight, and whether they name page furniture (shared by elements with the same names; read again without reply names on a discussion page, content.ts). */
  marks: Marks
  /** Measured over what is not dropped (`measure`): visible characters of the subtree and those inside links, */
  text: number
  link: number
  /** and the characters and commas of the text runs whose nearest block element is this one. */
  own: number
  commas: number
  /** Line breaks (`<br>`) of the text runs whose nearest block element is this one. */
  breaks: number
  /** Commas of the whole subtree. */
  allCommas: number
  /** Characters of paragraph text outside links in the subtree (blocks with at least `MIN_PARAGRAPH` of their own). */
  prose: number
}

const element = (
  name: string,
  attribs: Attribs,
  order: number,
  parent: El | undefined,
  block: El | undefined,
  drop: boolean,
  marks: Marks
): El => ({
  name,
  attribs,
  order,
  end: order + 1,
  parent,
  block,
  children: NO_CHILDREN,
  drop,
  selfText: 0,
  selfCommas: 0,
  plainText: !drop,
  marks,
  text: 0,
  link: 0,
  own: 0,
  commas: 0,
  breaks: 0,
  allCommas: 0,
  prose: 0
})

/** Elements rendered as blocks (they end the paragraph around them). */
export const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "center",
  "dd",
  "details",
  "dialog",
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
  "li",
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
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "caption",
  "listing",
  "xmp",
  "plaintext"
])

export interface Page {
  readonly root: El
  /** Every element in document order (`root` first). */
  readonly all: ReadonlyArray<El>
  /** The `main` (and `role=main`) elements, in document order. */
  readonly mains: ReadonlyArray<El>
  readonly title: string
  readonly baseHref: string | undefined
  readonly texts: Texts
  /** Whether `noscript` and `hidden` elements were kept (`parsePage`'s `reveal`). */
  readonly revealed: boolean
  /** Visible characters inside `noscript` and `hidden` elements that were dropped (0 when revealed). */
  readonly concealed: number
  /**
   * Elements (by `order`) kept although their landmark drops them (`parsePage`'s `spared`), and the
   * sections inside the `main` drawn as banners (`bannerInMain`).
   */
  readonly spared: ReadonlySet<number>
  /**
   * Elements (by `order`) dropped only for their landmark (boilerplate.ts `framingOnly`) that hold
   * the page's `main`: a header or an aside left unclosed. Parse again sparing them (`unframed`).
   */
  readonly framingMain: ReadonlyArray<number>
}

const NONE_SPARED: ReadonlySet<number> = new Set()

/** Whether an element is left out by its own tag and attributes (`droppedTag`), on this page. */
export const dropsItself = (page: Page, el: El): boolean =>
  !page.spared.has(el.order) && droppedTag(el.name, el.attribs, page.revealed)

/**
 * A page whose `main` sits inside an element dropped only for its landmark (a banner or an aside
 * that was never closed and so holds the rest of the page), parsed again keeping those elements:
 * the page's own `main` is never furniture. Else the page itself.
 */
export const unframed = (source: string, page: Page): Page => {
  if (page.framingMain.length === 0) return page
  return parsePage(source, page.revealed, new Set(page.framingMain)) ?? page
}

const isComma = (c: number): boolean =>
  c === 44 || c === 0xff0c || c === 0x3001 || c === 0x060c || c === 0xfe50 || c === 0xfe10 || c === 0xfe11 ||
  c === 0x2e41 || c === 0x2e34 || c === 0x2e32

/** The page's tree, or `undefined` past `MAX_PARSE_DEPTH`; `reveal` keeps `noscript` and `hidden` elements (boilerplate.ts `concealing`). */
export const parsePage = (
  source: string,
  reveal = false,
  spared: ReadonlySet<number> = NONE_SPARED
): Page | undefined => {
  const html = cdataAsComments(source)
  const root = element("#root", NO_ATTRIBS, 0, undefined, undefined, false, { weight: 0, furniture: 0 })
  const all: Array<El> = [root]
  let top = root
  let depth = 0
  let title: El | undefined
  let baseHref: string | undefined
  const marksOf = pageMarks()
  const mains: Array<El> = []
  const framingMain: Array<number> = []
  const kept = new Set(spared)
  /** The `main` elements open at this point of the parse (outermost first). */
  const openMains: Array<El> = []
  /**
   * Whether an element is a section the page's `main` holds drawn as a banner (`role="banner"`: a
   * page builder's hero or feature block, a picture beside a heading and its paragraph) and left
   * out for that role alone: the site's banner frames the `main`, it does not sit inside it.
   */
  const bannerInMain = (name: string, attribs: Attribs): boolean =>
    openMains.length > 0 && attribs.role?.toLowerCase().trim() === "banner" && framingOnly(name, attribs, reveal)
  /** Whether the element about to open (number `all.length`) is left out by its own tag and attributes. */
  const dropsHere = (name: string, attribs: Attribs): boolean => {
    if (kept.has(all.length) || !droppedTag(name, attribs, reveal)) return false
    if (!bannerInMain(name, attribs)) return true
    kept.add(all.length)
    return false
  }
  /** The elements dropped only for their landmark that hold `el`, when nothing else drops it. */
  const framers = (el: El): Array<number> => {
    const out: Array<number> = []
    if (!el.drop || droppedTag(el.name, el.attribs, reveal)) return out
    for (let p = el.parent; p !== undefined && p.drop; p = p.parent) {
      if (!droppedTag(p.name, p.attribs, reveal)) continue
      if (!framingOnly(p.name, p.attribs, reveal)) return []
      out.push(p.order)
    }
    return out
  }
  /** The outermost open `noscript` or `hidden` element that was dropped, and the visible characters counted inside it. */
  let concealer: El | undefined
  let concealed = 0
  const countConcealed = (s: string, from: number, to: number) => {
    if (top.name === "script" || top.name === "style" || top.name === "template") return
    for (let i = from; i < to; i++) if (s.charCodeAt(i) > 32) concealed++
  }
  /**
   * The children of the open elements so far (the first `pendingSize`), outermost first;
   * `starts[k]` is where those of the k-th open element begin. Entries past `pendingSize` are
   * stale (overwritten, never read): shrinking the array's length would cost a runtime call per element.
   */
  const texts = new Texts()
  const pending: Array<Node> = []
  let pendingSize = 0
  const starts: Array<number> = [0]
  /** Where in `pending` the element on top's last child is, when that child is a text (the next text joins it); else -1. */
  const lastText = (): number => {
    const last = pendingSize - 1
    return last >= starts[starts.length - 1]! && typeof pending[last] === "number" ? last : -1
  }
  /** The text at `pending[at]` with `data` after it, as one text node (no longer text the tree left plain). */
  const joinText = (at: number, data: string) => {
    texts.set(pending[at] as number, texts.of(pending[at] as number) + data)
    top.plainText = false
  }
  /** Count the visible characters and commas of `s` from `from` to `to` as text of the element on top, and whether it stays plain. */
  const measureText = (s: string, from: number, to: number) => {
    let plain = top.plainText
    let n = 0
    let commas = 0
    let space = false
    for (let i = from; i < to; i++) {
      const c = s.charCodeAt(i)
      if (c > 32 && c !== 160) {
        n++
        if (c < 128) {
          if (c === 44) commas++
          else if (MAY_ESCAPE_CODE[c] === 1) plain = false
        } else if (c > 0x600) {
          if (isComma(c)) commas++
          else if (isWideSpace(c)) plain = false
        }
        space = false
      } else {
        // Whitespace other than one space at a time is collapsed.
        if (c !== 32 || space) plain = false
        space = true
      }
    }
    top.selfText += n
    top.selfCommas += commas
    top.plainText = plain
  }
  /** A text node (joined to the one before it when the element on top's last child is a text). */
  const onText = (data: string) => {
    const at = lastText()
    if (at >= 0) joinText(at, data)
    else pending[pendingSize++] = texts.string(data)
    if (!top.drop) measureText(data, 0, data.length)
    else if (concealer !== undefined) countConcealed(data, 0, data.length)
  }
  /** The element on top takes its children off the shared stack. */
  const closeTop = () => {
    const start = starts.pop()!
    const n = pendingSize - start
    top.end = all.length
    if (n > 0) {
      top.children = pending.slice(start, pendingSize)
      pendingSize = start
    }
    sumUp(top)
  }
  /**
   * For each element `Parser` has open, whether the tree holds it: a document pasted whole into
   * another (a CMS's block with its own `<html><body>`) is read as a browser reads it, an `html`
   * tag inside an open element and a `body` tag inside an open `body` being no elements (what they
   * hold stays where it is). The page has one `body`, and the content may grow past the pasted ones.
   */
  const held: Array<boolean> = []
  let bodies = 0
  try {
    readElements(html, {
      open(name, attribs) {
        const pasted = name === "html" ? held.length > 0 : name === "body" && bodies > 0
        held.push(!pasted)
        if (pasted) return
        if (name === "body") bodies++
        if (++depth > MAX_PARSE_DEPTH) throw new TooDeep()
        if (name === "base" && baseHref === undefined && attribs.href !== undefined) baseHref = attribs.href
        const isBlock = BLOCKS.has(name)
        const el = element(
          name,
          attribs,
          all.length,
          top,
          isBlock ? undefined : (top.block ?? top),
          top.drop || dropsHere(name, attribs),
          marksOf(name, attribs)
        )
        if (!top.drop && el.drop && concealing(name, attribs)) concealer = el
        if (name === "title" && title === undefined) title = el
        if (name === "main" || (attribs.role !== undefined && attribs.role.toLowerCase() === "main")) {
          mains.push(el)
          openMains.push(el)
          for (const f of framers(el)) if (!framingMain.includes(f)) framingMain.push(f)
        }
        pending[pendingSize++] = el
        starts.push(pendingSize)
        all.push(el)
        top = el
      },
      text: onText,
      close() {
        if (!(held.pop() ?? true)) return
        if (top.name === "body") bodies--
        depth--
        if (top === concealer) concealer = undefined
        if (top === openMains[openMains.length - 1]) openMains.pop()
        if (top.parent !== undefined) {
          closeTop()
          top = top.parent
        }
      }
    })
    // What the page left open is closed at its end.
    for (; top.parent !== undefined; top = top.parent) closeTop()
    closeTop()
  } catch (e) {
    if (e instanceof TooDeep) return undefined
    throw e
  }
  return {
    root,
    all,
    mains,
    title: title === undefined ? "" : textContent(texts, title),
    baseHref,
    texts,
    revealed: reveal,
    concealed,
    spared: kept,
    framingMain
  }
}

/**
 * Add an element's own figures to its nearest block and its subtree's to its parent: once every
 * element below it has been summed (children before parents). Dropped elements add nothing.
 */
const sumUp = (el: El): void => {
  if (el.drop) return
  el.text += el.selfText
  const block = el.block ?? el
  block.own += el.selfText
  block.commas += el.selfCommas
  if (el.name === "br") block.breaks++
  el.allCommas += el.selfCommas
  // An element that says it is a link (`role="link"`: a span a script makes clickable) is one.
  if (el.name === "a" || el.attribs.role?.toLowerCase().trim() === "link") el.link = el.text
  if (el.block === undefined && el.own >= MIN_PARAGRAPH) el.prose += Math.max(0, el.own - el.link)
  const p = el.parent
  if (p === undefined) return
  p.text += el.text
  p.link += el.link
  p.allCommas += el.allCommas
  p.prose += el.prose
}

/**
 * Sum the figures of what is not dropped, children into parents (one backward pass over document
 * order). `parsePage` leaves a page measured as parsed (it sums each element as it closes).
 */
export const measure = (page: Page): void => {
  for (const el of page.all) unmeasure(el)
  sumAll(page)
}

/** Clear an element's measured figures (a pass that decides what is dropped clears them as it goes, then calls `sumAll`). */
export const unmeasure = (el: El): void => {
  el.text =
    el.link =
    el.own =
    el.commas =
    el.allCommas =
    el.prose =
    el.breaks =
      0
}

/** Sum the figures of a page whose elements are all `unmeasure`d. */
export const sumAll = (page: Page): void => {
  const all = page.all
  for (let i = all.length - 1; i >= 0; i--) sumUp(all[i]!)
}

/** The visible characters of `el`'s subtree as the parse counted them (`selfText`), dropped or not. */
export const parsedText = (page: Page, el: El): number => {
  let n = 0
  for (let i = el.order; i < el.end; i++) n += page.all[i]!.selfText
  return n
}

/**
 * The text of a subtree without recursion (`spaced`: block boundaries and `<br>` as whitespace;
 * `skip`: `true` leaves out the elements the cleaning dropped, a function the elements it names).
 */
export const textContent = (
  texts: Texts,
  root: El,
  spaced = true,
  skip: boolean | ((el: El) => boolean) = false
): string => {
  let out = ""
  const stack: Array<Node> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (typeof node === "number") {
      out += texts.of(node)
      continue
    }
    if (node !== root && (skip === true ? node.drop : skip !== false && skip(node))) continue
    if (node.name === "br") {
      out += "\n"
      continue
    }
    const kids = node.children
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!)
    if (spaced && BLOCKS.has(node.name)) out += " "
  }
  return out
}

/** A word as the rules count them: a run of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu

/** The words of a text, lowercase, in order. */
export const wordsOf = (text: string): Array<string> => text.toLowerCase().match(WORD) ?? []

/** A sentence's end: a full stop, an exclamation or a question mark, then closing quotes or brackets. */
const SENTENCE_END = /[.!?]["'\u201d\u2019)]*$/

/** Whether a text ends as a sentence does (`SENTENCE_END`), not as a label, a count or a title. */
export const endsAsSentence = (text: string): boolean => SENTENCE_END.test(text)

/** Whether `el` is `root` or inside its subtree (elements are numbered in document order). */
export const inside = (el: El, root: El): boolean => el.order >= root.order && el.order < root.end

/**
 * The text a reader reads in `el`: what is not dropped (`skip`, as `textContent` reads it), each
 * run of whitespace one space, trimmed.
 */
export const collapsedText = (page: Page, el: El, skip: boolean | ((el: El) => boolean) = true): string =>
  collapseWhitespace(textContent(page.texts, el, true, skip)).trim()

/** Whether `el` and each of its ancestors up to `root` are kept (`root` too): the copy keeps `el`. */
export const keptUnder = (el: El, root: El): boolean => {
  for (let at: El | undefined = el; at !== undefined && at !== root; at = at.parent) if (at.drop) return false
  return !root.drop
}

/** Whether an element inside `el` (not `el` itself) is a link (`a`). */
export const holdsLink = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (page.all[i]!.name === "a") return true
  return false
}

/** Whether elements `from` to `to` (exclusive) of `page.all`, in document order, include an `h1`. */
export const h1Within = (page: Page, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (page.all[i]!.name === "h1") return true
  return false
}

/** An element's names as the rules read them: its class and its id, one space between. */
export const namesOf = (el: El): string => `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`

/** Whether an ancestor of `el` has one of the tags `names`. */
export const hasAncestorNamed = (el: El, ...names: ReadonlyArray<string>): boolean => {
  for (let p = el.parent; p !== undefined; p = p.parent) if (names.includes(p.name)) return true
  return false
}

/**
 * Visit the elements of `all` from `from` to `to` (an element's `order` and `end`: its subtree) in
 * document order, but for dropped ones and what is inside them. `visit` returns true to pass over
 * the element's subtree (it dropped the element, or read the whole subtree itself).
 */
export const eachKept = (all: ReadonlyArray<El>, from: number, to: number, visit: (el: El) => boolean): void => {
  for (let i = from; i < to;) {
    const el = all[i]!
    i = el.drop || visit(el) ? el.end : i + 1
  }
}

/**
 * The roots without each element inside them (kept, outermost first) that `drops` says goes, with
 * what it holds: the walk of the rules that leave out a kind of box. An element `drops` keeps is
 * read on into its children; `root` is the root it stands in.
 */
export const withoutEach = (
  page: Page,
  roots: ReadonlyArray<El>,
  drops: (el: El, root: El) => boolean
): ReadonlyArray<El> => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (!drops(el, root)) return false
      el.drop = true
      return true
    })
  }
  return roots
}

/**
 * Visit, in each of `roots`, the elements a reader sees whole in a short line: kept, with visible
 * text, at most `max` characters of it, outermost first, each with its collapsed text. `take`
 * returns true when it took the element (what is inside is then passed over); false goes on into
 * its children. The walk of the rules that look for a short line by its words (a post's edit
 * note, a poster's facts, an advertisement's label).
 */
export const eachShortLine = (
  page: Page,
  roots: ReadonlyArray<El>,
  max: number,
  take: (el: El, text: string) => boolean
): void => {
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (el.text === 0) return true
      if (el.text > max) return false
      return take(el, collapsedText(page, el))
    })
  }
}

/**
 * The roots without each element a reader sees whole in a short line (`eachShortLine`, at most
 * `max` characters) whose text `pattern` matches: a label that is all its line says ("3 min read",
 * "Advertisement - Page continues below").
 */
export const withoutShortLines = (
  page: Page,
  roots: ReadonlyArray<El>,
  max: number,
  pattern: RegExp
): ReadonlyArray<El> => {
  eachShortLine(page, roots, max, (el, text) => {
    if (!pattern.test(text)) return false
    el.drop = true
    return true
  })
  return roots
}

/**
 * The first child element of `el` that shows text, when no text comes before it (`undefined`
 * otherwise): what a block opens with (a label, a link), read one level at a time.
 */
export const leadingChild = (page: Page, el: El): El | undefined => {
  for (const k of el.children) {
    if (typeof k === "number") {
      if (/\S/.test(page.texts.of(k))) return undefined
      continue
    }
    if (k.drop || k.text === 0) continue
    return k
  }
  return undefined
}

/**
 * Whether the nearest sibling of `el` that shows text, going `step` (−1 before it, 1 after it), is
 * a word of its run: a text, or an inline element (`block` set). A block is in no run.
 */
export const wordsNextTo = (page: Page, el: El, step: -1 | 1): boolean => {
  const parent = el.parent
  if (el.block === undefined || parent === undefined) return false
  const kids = parent.children
  for (let i = kids.indexOf(el) + step; i >= 0 && i < kids.length; i += step) {
    const k = kids[i]!
    if (typeof k === "number") {
      if (/\S/.test(page.texts.of(k))) return true
      continue
    }
    if (k.drop || k.text === 0) continue
    return k.block !== undefined
  }
  return false
}

/** The children of `el` that are elements with visible text, in order. */
export const shownChildren = (el: El): Array<El> => {
  const out: Array<El> = []
  for (const c of el.children) if (typeof c !== "number" && !c.drop && c.text > 0) out.push(c)
  return out
}

/** The first child of `el` with visible text, if an element. */
export const firstShown = (el: El): El | undefined => {
  for (const c of el.children) {
    if (typeof c === "number") continue
    if (!c.drop && c.text > 0) return c
  }
  return undefined
}

/**
 * The element right after `el` among its parent's children, if any: the first element after
 * `el`'s subtree in document order, when it has the same parent.
 */
export const nextSibling = (page: Page, el: El): El | undefined => {
  const next = page.all[el.end]
  return next !== undefined && next.parent === el.parent ? next : undefined
}
