/**
 * Markdown of the chosen content: headings, paragraphs, lists, links (absolute), code blocks,
 * tables, block quotes and rules; dropped elements are left out. Text is kept verbatim
 * (whitespace collapsed, no emphasis marks); only what Markdown would read as syntax is
 * backslash-escaped, so a quote copied from the page matches as the gate's matcher reads the copy.
 * The walk is depth-capped: below `MAX_DEPTH` a subtree contributes its text only, gathered
 * without recursion, so no page can exhaust the stack.
 * Over 400 lines: one recursive walk (blocks, inline runs, lists, tables), whose parts call each other.
 */
import { collapseWhitespace as collapse } from "../Quote.js"
import { escapeInline, finishInline, oneLine, opensBlock, Run } from "./inline.js"
import { markdownLink, resolveHref } from "./links.js"
import { noteMarks } from "./noteMarks.js"
import { BLOCKS, type El, type Node, textContent, type Texts } from "./tree.js"

const MAX_DEPTH = 120

/** Deeper lists and quotes keep their text but add no further indentation or `>` (bounded output). */
const MAX_MARKED_NESTING = 8

interface Ctx {
  readonly texts: Texts
  readonly base: URL | undefined
  /** Lists and quotes around this node; past `MAX_MARKED_NESTING` no more prefixes are added. */
  readonly nesting: number
  /** Whether the node is inside a link (its own links are text: `inline`). */
  readonly inLink?: boolean
  /** The raised numbers of the content, when they are a series of notes (`noteMarks`). */
  readonly notes?: ReadonlySet<El>
  /** The page shows one product: its web components' blocks are laid out as blocks (`componentBlocks`). */
  readonly components?: boolean
}

/** The context inside a list or a quote. */
const nested = (ctx: Ctx): Ctx => ({
  texts: ctx.texts,
  base: ctx.base,
  nesting: ctx.nesting + 1,
  ...(ctx.inLink === true ? { inLink: true } : {}),
  ...(ctx.notes === undefined ? {} : { notes: ctx.notes }),
  ...(ctx.components === true ? { components: true } : {})
})

/** Write text node `k` into `run`: as it is when the tree found nothing in its element's text to rewrite (`plain`). */
const writeText = (run: Run, ctx: Ctx, k: number, plain: boolean): void => {
  if (plain) run.piece(ctx.texts.of(k))
  else run.textNode(ctx.texts.of(k))
}

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }

/** Whether an element is rendered as a block (`BLOCKS`; the tree marks them: no nearest block above). */
const isBlock = (el: El): boolean => el.block === undefined && el.parent !== undefined

const flatText = (ctx: Ctx, node: El): string => finishInline(collapse(textContent(ctx.texts, node, true, true)))

/**
 * Whether a dropped element held a separator: signs or a space and no letter or digit ("\u00b7",
 * "|", "/" between a post's date and its reading time, hidden from screen readers), or is a drawn
 * icon (`svg`). A browser shows it, so the words on either side stay apart; a dropped word (a ruby
 * reading, a label) joins nothing.
 */
const showedText = (ctx: Ctx, node: El): boolean => {
  // A ruby's fallback parentheses show only where ruby is not drawn.
  if (node.name === "rp") return false
  // A drawn icon (an `svg`: a chevron after a rating's label, an arrow between two values) takes
  // room between the words on either side: "Windproof", a chevron, "5/6" read as two words.
  if (node.name === "svg") return true
  const text = textContent(ctx.texts, node, false)
  return text.length > 0 && !/[\p{L}\p{N}]/u.test(text)
}

/** Write the inline rendering of a node (text with links) into `run`. */
const inline = (node: Node, ctx: Ctx, depth: number, run: Run): void => {
  if (typeof node === "number") return run.textNode(ctx.texts.of(node))
  if (node.drop) {
    if (showedText(ctx, node)) run.gap()
    return
  }
  if (depth > MAX_DEPTH) return run.piece(collapse(textContent(ctx.texts, node, true, true)))
  if (node.name === "br") return run.lineBreak()
  if (node.name === "code") return codeSpan(node, ctx, run)
  if (node.name === "a" && ctx.inLink !== true) {
    const inner = new Run(true)
    // A link inside a link (a shop card's colour swatches inside the card's link) is its text: a
    // browser ends the outer link where the inner one starts, and a link's text holds no link.
    children(node, { ...ctx, inLink: true }, depth + 1, inner)
    const ownAnchor = samePageAnchor(node.attribs.href, ctx.base)
    // A heading's permalink ("¶", "#", "🔗" to its own anchor) is a control, not text.
    if (ownAnchor && !/[\p{L}\p{N}]/u.test(inner.text())) return
    // A heading whose whole text links to its own anchor (a documentation generator's headings) is its text.
    if (ownAnchor && wholeHeading(node, ctx, inner.text())) {
      return children(node, { ...ctx, inLink: true }, depth + 1, run)
    }
    // Whitespace at the edges of a link's text stays outside the link, so "the<a> guide </a>page"
    // still reads "the guide page".
    const link = markdownLink(inner.text(), node.attribs.href, ctx.base)
    if (link.length === 0) {
      if (inner.wrote) run.piece(" ")
      return
    }
    if (inner.lead) run.piece(" ")
    run.piece(link, inner.text())
    if (inner.trail) run.piece(" ")
    return
  }
  const block = isBlock(node)
  if (block) run.piece(" ")
  // An inline element named as a title is set on a line of its own by the page's style sheet: its
  // words and those around it stay apart ("Frame Sync" over "The display waits …", not "SyncThe").
  const titled = !block && TITLE_CLASS.test(node.attribs.class ?? "")
  if (titled) run.gap()
  if (ctx.notes?.has(node) === true) run.noteMark()
  children(node, ctx, depth + 1, run)
  if (block) run.piece(" ")
  if (titled) run.gap()
}

/**
 * Class names that call an inline element a title (`title`, `item-title`, `card_heading`): a
 * feature's name in an `em` or a `span` opening its text, a label before its value.
 */
const TITLE_CLASS = /(?:^|[\s_-])(?:title|heading)(?:$|[\s_-])/i

/**
 * Whether a link goes to an anchor of the page itself: `#id`, or the page's own address (as the
 * page's base resolves it: `/docs/page#id`, `https://host/docs/page#id`) with an anchor, as
 * documentation themes write their headings' permalinks.
 */
const samePageAnchor = (href: string | undefined, base: URL | undefined): boolean => {
  if (href === undefined) return false
  if (href.startsWith("#")) return true
  if (base === undefined || !href.includes("#")) return false
  const target = resolveHref(href, base)
  return target !== undefined && target.split("#")[0] === base.href.split("#")[0]
}

/** A heading's text, read once however many links it holds (`wholeHeading`). */
const headingTexts = new WeakMap<El, string>()

/** Whether a link's text is the whole text of the heading it stands in. */
const wholeHeading = (a: El, ctx: Ctx, text: string): boolean => {
  let heading: El | undefined = a.parent
  while (heading !== undefined && !/^h[1-6]$/.test(heading.name) && !isBlock(heading)) heading = heading.parent
  if (heading === undefined || !/^h[1-6]$/.test(heading.name)) return false
  let whole = headingTexts.get(heading)
  if (whole === undefined) {
    whole = collapse(textContent(ctx.texts, heading, true, true)).trim()
    headingTexts.set(heading, whole)
  }
  const own = collapse(text).trim()
  return own.length > 0 && own === whole
}

/**
 * Inline `<code>` as a code span: its text as written (Markdown reads no escapes inside a span),
 * between enough backticks, which the gate's matcher does not count; whitespace at its edges
 * stays outside, as for a link.
 */
const codeSpan = (node: El, ctx: Ctx, run: Run): void => {
  const raw = collapse(oneLine(textContent(ctx.texts, node, true, true)))
  const code = raw.trim()
  if (code.length === 0) {
    if (raw.length > 0) run.piece(" ")
    return
  }
  let longest = 0
  for (const m of code.match(/`+/g) ?? []) longest = Math.max(longest, m.length)
  const fence = "`".repeat(longest + 1)
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : ""
  if (raw.startsWith(" ")) run.piece(" ")
  run.piece(`${fence}${pad}${code}${pad}${fence}`)
  if (raw.endsWith(" ")) run.piece(" ")
}

/**
 * Whether a child of `parent` stands side by side with the sibling `before` it, nothing between
 * them in the page (`Run.joint`). Not as a paragraph's own children: there two elements side by
 * side are one word a page marked up in parts ("<b>Mc</b><b>Donald</b>"), not boxes its style
 * sheet sets apart.
 */
const sideBySide = (parent: El, before: Node | undefined): before is El =>
  parent.name !== "p" && before !== undefined && typeof before !== "number"

/**
 * Two sibling links side by side (`sideBySide`) that lead to two addresses: tag chips, written
 * apart whatever their letters. Not two links to one address: an editor's one link cut in parts
 * ("order of cer" "e" "mony"), one word.
 */
const linksMeet = (el: El, before: El): boolean =>
  el.name === "a" && before.name === "a" && el.attribs.href !== undefined && before.attribs.href !== undefined &&
  el.attribs.href !== before.attribs.href

/**
 * Two sibling elements side by side (`sideBySide`) that are the whole of their block's text, no
 * link, each with a class and the two classes not the same: a label and its value in a row of facts
 * (`<span class="details_name">Language</span><span class="details_value">English</span>`).
 */
const factMeet = (parent: El, el: El, before: El): boolean => {
  const a = before.attribs.class
  const b = el.attribs.class
  return a !== undefined && b !== undefined && a !== b && parent.link === 0 && parent.text === before.text + el.text
}

/** Where `node` stands side by side with the sibling `before` it, the run is told so (`Run.joint`). */
const meet = (run: Run, parent: El, node: El, before: Node | undefined): void => {
  if (sideBySide(parent, before)) run.joint(linksMeet(node, before), factMeet(parent, node, before))
}

/** Write the children of an element inline (its text as it is when the tree found nothing in it to rewrite). */
const children = (el: El, ctx: Ctx, depth: number, run: Run): void => {
  const kids = el.children
  const plain = el.plainText
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!
    if (typeof kid !== "number") {
      meet(run, el, kid, kids[i - 1])
      inline(kid, ctx, depth, run)
    } else writeText(run, ctx, kid, plain)
  }
}

/** The text of a node rendered inline on one line, no line start escaped (headings, table cells). */
const oneLineOf = (node: El, ctx: Ctx, depth: number): string => {
  const run = new Run(true)
  inline(node, ctx, depth, run)
  return run.text()
}

/** `text` with `first` before its first line and `width` spaces before each later non-empty one. */
const indent = (text: string, first: string, width: number): string => {
  if (text.indexOf("\n") < 0) return first + text
  const prefix = " ".repeat(width)
  return text
    .split("\n")
    .map((line, i) => (i === 0 ? first + line : line.length === 0 ? "" : prefix + line))
    .join("\n")
}

const codeLanguage = (pre: El): string => {
  const classes = [pre.attribs.class ?? ""]
  for (const c of pre.children) if (typeof c !== "number" && c.name === "code") classes.push(c.attribs.class ?? "")
  for (const cls of classes) {
    const m = /(?:^|\s)(?:language|lang)-([A-Za-z0-9_+#.-]{1,32})(?:\s|$)/.exec(cls)
    if (m !== null) return m[1]!
  }
  return ""
}

/** The longest run of backticks in a text (one pass). */
const longestTickRun = (text: string): number => {
  let longest = 0
  let run = 0
  for (let i = text.indexOf("`"); i >= 0; i = text.indexOf("`", i + 1)) {
    run = i > 0 && text[i - 1] === "`" ? run + 1 : 1
    if (run > longest) longest = run
  }
  return longest
}

/**
 * A `pre` as a fenced block: its fence one backtick longer than any run of them inside (at least
 * three). Both the trailing space and the fence are found in one pass: `/\s+$/` tries again from
 * every space of a long run that text follows, and growing the fence a tick at a time while the
 * code holds it searched the code once per tick; either took minutes on a page's `pre` of a
 * million spaces or backticks.
 */
const codeBlock = (ctx: Ctx, pre: El): string => {
  const code = textContent(ctx.texts, pre, false).replace(/\r\n?/g, "\n").replace(/^\n/, "").trimEnd()
  const fence = "`".repeat(Math.max(3, longestTickRun(code) + 1))
  return `${fence}${codeLanguage(pre)}\n${code}\n${fence}`
}

const cellText = (cell: El, ctx: Ctx, depth: number): string => oneLineOf(cell, ctx, depth).replace(/\|/g, "\\|")

/** Rows a table must have before it can be read as hollow. */
const HOLLOW_MIN_ROWS = 4

/**
 * A table left hollow: of its rows that held text in the page (four or more), at most a quarter
 * still hold any once the rules have run, every other row's cells empty (a spec table whose values
 * a script fills per variant, written with its cells hidden, or one whose cells other rules
 * dropped). What is left is a grid of bars around a stray value or two, not a table to read. A
 * table whose rows keep their labels beside empty (icon) cells is not hollow, and rows that held
 * nothing in the page itself (a spacer row, `<td></td>`) are not counted.
 */
const hollow = (rows: ReadonlyArray<ReadonlyArray<string>>, held: ReadonlyArray<boolean>): boolean => {
  let written = 0
  let filled = 0
  for (let i = 0; i < rows.length; i++) {
    if (!held[i]) continue
    written++
    if (rows[i]!.some((cell) => cell.trim() !== "")) filled++
  }
  return written >= HOLLOW_MIN_ROWS && filled * 4 <= written
}

/**
 * Whether a row held anything in the page, dropped or hidden or not: text of its own cells, or an
 * element inside a cell (a hidden paragraph, a picture). A spacer row's cells hold nothing.
 */
const heldInPage = (row: El): boolean => {
  for (const cell of row.children) {
    if (typeof cell === "number") continue
    if (cell.selfText > 0 || cell.children.some((c) => typeof c !== "number")) return true
  }
  return false
}

const table = (node: El, ctx: Ctx, depth: number): string => {
  if (depth > MAX_DEPTH) return flatText(ctx, node)
  const rows: Array<Array<string>> = []
  /** Whether each row held text in the page (`hollow`). */
  const held: Array<boolean> = []
  // Rows of this table only (not of nested tables), in document order.
  const collect = (el: El, level: number) => {
    for (const child of el.children) {
      if (typeof child === "number" || child.drop) continue
      if (child.name === "tr") {
        const cells: Array<string> = []
        for (const cell of child.children) {
          if (typeof cell !== "number" && !cell.drop && (cell.name === "td" || cell.name === "th")) {
            cells.push(cellText(cell, ctx, depth + 2))
          }
        }
        rows.push(cells)
        held.push(heldInPage(child))
      } else if ((child.name === "thead" || child.name === "tbody" || child.name === "tfoot") && level < 2) {
        collect(child, level + 1)
      }
    }
  }
  collect(node, 0)
  let width = 0
  for (const r of rows) if (r.length > width) width = r.length
  if (width === 0) return ""
  if (hollow(rows, held)) return ""
  // Rows keep their own cells (no padding: a ragged table cannot blow up the output).
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const [head, ...body] = rows
  return [line(head!), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n")
}

/** The fewest name/value pairs a description list holds to be written as a table (`pairsTable`). */
const MIN_PAIRS = 2
/** The most characters of a name or a value in a description list written as a table or one line. */
const MAX_PAIR_CELL = 200

/** A value that reads as a sentence (four words or more, then a full stop): a glossary's definition, not a value. */
const SENTENCE = /^(?:\S+\s+){3,}\S*[.!?]$/

/** A name that ends with its own mark ("Lining:", "Is it washable?"): its value follows after a space alone. */
const NAME_CLOSED = /[:\uff1a.?!]$/

/**
 * A description list of name/value pairs (a product's details: `<dt>Material</dt><dd>Steel</dd>`,
 * each pair or not in a `div` of its own, as HTML allows) as a table of two columns, one row a
 * pair, in the page's order: each name stays beside its value, where paragraphs set each name
 * apart from it. Written so only when every kept child is a `dt` followed by one `dd`, at least
 * `MIN_PAIRS` of them, each written as one line of at most `MAX_PAIR_CELL` characters, no value
 * a sentence (`SENTENCE`: a glossary's definitions stay paragraphs); else `undefined`. A list of
 * one such pair is one line, the name, a colon (none after a name that ends with its own mark:
 * `NAME_CLOSED`) and the value ("Material: Stainless steel"): a table of one row would set the
 * pair as its header.
 */
const pairsTable = (node: El, ctx: Ctx, depth: number): string | undefined => {
  const terms: Array<El> = []
  const add = (el: El, level: number): boolean => {
    for (const child of el.children) {
      if (typeof child === "number") {
        if (WORDED.test(ctx.texts.of(child))) return false
        continue
      }
      if (child.drop) continue
      if (child.name === "div" && level === 0) {
        if (!add(child, 1)) return false
      } else if (child.name === "dt" || child.name === "dd") {
        if ((child.name === "dt") !== (terms.length % 2 === 0)) return false
        terms.push(child)
      } else return false
    }
    return true
  }
  if (!add(node, 0) || terms.length % 2 !== 0 || terms.length === 0) return undefined
  const cells = terms.map((t) => cellText(t, ctx, depth + 2))
  if (cells.some((c, i) => c.length === 0 || c.length > MAX_PAIR_CELL || (i % 2 === 1 && SENTENCE.test(c)))) {
    return undefined
  }
  if (terms.length < 2 * MIN_PAIRS) {
    // The name opens the line: escaped as a paragraph's start ("1\\. Size"), on one line.
    const run = new Run(false)
    inline(terms[0]!, ctx, depth + 2, run)
    const name = run.text()
    if (name.includes("\n")) return undefined
    return `${name}${NAME_CLOSED.test(name) ? " " : ": "}${oneLineOf(terms[1]!, ctx, depth + 2)}`
  }
  const rows: Array<string> = []
  for (let i = 0; i < cells.length; i += 2) rows.push(`| ${cells[i]} | ${cells[i + 1]} |`)
  return [rows[0], "| --- | --- |", ...rows.slice(1)].join("\n")
}

/** The first marker number of a list (`start`, when it is a sane integer). */
const listStart = (start: string | undefined): number => {
  const n = Number.parseInt(start ?? "1", 10)
  return Number.isFinite(n) && Math.abs(n) < 1e9 ? n : 1
}

/** A text that holds a word (a letter): not a separator between a menu's items ("|", "/", "›"). */
const WORDED = /\p{L}/u

/**
 * Whether words may run on after an entry's Markdown `entry`: its last line is plain text, not the
 * close of a code block, a line of a quote or a table, a heading, or an item of a list inside it
 * (inline.ts `opensBlock`), which words written after them would join (a fence with words after it
 * never closes).
 */
const endsAsText = (entry: string): boolean => !opensBlock(entry.slice(entry.lastIndexOf("\n") + 1).trimStart())

/**
 * The words of text node `k`, set straight inside a list right after one of its kept items,
 * collapsed; "" when it holds no letter. A page whose item's label opens its bold before the item
 * (`<b><li>Seat angle.</b> Adjust with the paddle …</li>`) has the label's end close the item with it
 * (the parser closes what the bold's end implies), and the rest of the item's text stands in the
 * list itself, which a browser shows under the item. A run of signs between items (a breadcrumb's
 * "/") is no text of them. `list` asks only when the child before the words was an item it wrote
 * whose last line is plain text (`endsAsText`): after an item left out or empty, or a list nested
 * in the list, the words stay out.
 */
const strayWords = (ctx: Ctx, k: number): string => {
  if (!WORDED.test(ctx.texts.of(k))) return ""
  const run = new Run(false)
  writeText(run, ctx, k, false)
  return run.text()
}

const list = (node: El, ctx: Ctx, depth: number): string => {
  if (depth > MAX_DEPTH) return flatText(ctx, node)
  const ordered = node.name === "ol"
  const marked = ctx.nesting < MAX_MARKED_NESTING
  let next = listStart(node.attribs.start)
  const entries: Array<string> = []
  const inner = nested(ctx)
  const kids = node.children
  // Whether the last element child was an item written here whose last line is plain text (`strayWords`).
  let afterItem = false
  for (let i = 0; i < kids.length; i++) {
    const child = kids[i]!
    if (typeof child === "number") {
      // Words set straight in the list after an item are written on with it (`strayWords`).
      const stray = afterItem ? strayWords(ctx, child) : ""
      if (stray.length > 0) entries[entries.length - 1] += ` ${stray}`
      continue
    }
    afterItem = false
    if (child.drop) continue
    // An entry of the list: a nested list is indented, anything else gets the next marker.
    if (child.name === "ul" || child.name === "ol") {
      const content = list(child, inner, depth + 1)
      if (content.length > 0) entries.push(marked ? indent(content, "  ", 2) : content)
      continue
    }
    let content: string
    if (child.name === "li") {
      const item: Array<string> = []
      blocks(child, inner, depth + 1, item)
      content = item.length === 1 ? item[0]! : item.join("\n")
    } else {
      const run = new Run(false)
      inline(child, inner, depth + 1, run)
      content = run.text()
    }
    if (content.length === 0) continue
    const marker = ordered ? `${next}. ` : "- "
    next++
    entries.push(indent(content, marker, marked ? marker.length : 0))
    afterItem = endsAsText(content)
  }
  return entries.join("\n")
}

/** A block quote of the blocks `inner`; past `MAX_MARKED_NESTING` (of the quote's own context) no `>` is added. */
const quoted = (inner: string, nesting: number): string =>
  nesting < MAX_MARKED_NESTING ? inner.split("\n").map((l) => (l.length === 0 ? ">" : `> ${l}`)).join("\n") : inner

const pushNonEmpty = (out: Array<string>, text: string): void => {
  if (text.length > 0) out.push(text)
}

/**
 * A paragraph of separators only: what is left of a row of links or labels the copy left out
 * ("Skip to content | Skip to navigation", a breadcrumb's "Home › Shop" hidden) when the signs
 * between them were text of their own: "|", "/", "·", "•", "›", "»", "–", "—", "-", ":", ";",
 * ",", "<", ">", as the writer escapes them ("\|", "\-"), and spaces. No word, nothing to read.
 * A rule the writer draws ("---") and any sign not listed (a rating's "★★★★★") are no such
 * paragraph.
 */
const BARE_SEPARATORS = /^(?:\\?[|/\u00b7\u2022\u203a\u00bb\u2039\u00ab\u2013\u2014:;,<>-]\s*)+$/

/** A paragraph's text pushed unless empty or separators only (`BARE_SEPARATORS`). */
const pushParagraph = (out: Array<string>, text: string): void => {
  if (text.length > 0 && !BARE_SEPARATORS.test(text)) out.push(text)
}

/** Render a block element as Markdown blocks, appended to `out`. */
const block = (node: El, ctx: Ctx, depth: number, out: Array<string>): void => {
  const name = node.name
  if (depth > MAX_DEPTH) return pushParagraph(out, flatText(ctx, node))
  const level = HEADINGS[name]
  if (level !== undefined) {
    const text = oneLineOf(node, ctx, depth)
    if (text.length > 0) out.push(`${"#".repeat(level)} ${text}`)
    return
  }
  switch (name) {
    case "p":
    case "dt":
    case "dd":
    case "summary":
    case "figcaption":
    case "caption":
    case "address": {
      const run = new Run(false)
      inline(node, ctx, depth, run)
      return pushParagraph(out, run.text())
    }
    case "pre":
    case "listing":
    case "xmp":
    case "plaintext":
      out.push(codeBlock(ctx, node))
      return
    case "hr":
      out.push("---")
      return
    case "ul":
    case "ol":
      return pushNonEmpty(out, list(node, ctx, depth))
    case "table":
      return pushNonEmpty(out, table(node, ctx, depth))
    case "dl": {
      const pairs = depth > MAX_DEPTH - 2 ? undefined : pairsTable(node, ctx, depth)
      return pairs === undefined ? blocks(node, ctx, depth + 1, out) : pushNonEmpty(out, pairs)
    }
    case "blockquote": {
      const inner: Array<string> = []
      blocks(node, nested(ctx), depth + 1, inner)
      if (inner.length > 0) out.push(quoted(inner.join("\n\n"), ctx.nesting))
      return
    }
    default:
      return blocks(node, ctx, depth + 1, out)
  }
}

/** How deep inside inline elements a block is looked for (`holdsCodeBlock`, `componentBlocks`). */
const INLINE_WRAP_DEPTH = 3

/**
 * Whether an inline element (not a link, not code) holds an element `found` names, itself or
 * inside inline elements of its own (down to `INLINE_WRAP_DEPTH`).
 */
const inlineHolds = (el: El, level: number, found: (k: El) => boolean): boolean => {
  if (el.name === "a" || el.name === "code" || isBlock(el) || level >= INLINE_WRAP_DEPTH) return false
  for (const k of el.children) {
    if (typeof k === "number" || k.drop) continue
    if (found(k) || inlineHolds(k, level + 1, found)) return true
  }
  return false
}

/**
 * Whether an inline element holds a code block: a custom element a site wraps its code blocks in
 * (`<copyable-code>` with its copy button) is inline, but a browser still shows the `pre` inside
 * it as a block. Such an element is rendered as blocks, so the code stays a code block, line by
 * line, as written.
 */
const holdsCodeBlock = (el: El): boolean => inlineHolds(el, 0, (k) => k.name === "pre")

/**
 * Whether a web component (a custom element, its tag a name with a hyphen: `product-info`,
 * `media-gallery`), itself or through inline elements of its own, holds a shown block with text.
 * The tree reads an unknown tag as inline, so the blocks inside ran on as one paragraph (a shop
 * theme's whole buy box: title, price, description, features and details on one line); a browser
 * lays them out as blocks. Read so on a page that shows one product, whose theme builds the page
 * of such components (the rule on every page lowered a service page built of a design system's
 * elements, whose reference reads them otherwise).
 */
const componentBlocks = (el: El): boolean =>
  el.name.includes("-") && inlineHolds(el, 0, (k) => isBlock(k) && k.text > 0)

/** Render the children of an element as Markdown blocks, appended to `out`. */
const blocks = (parent: El, ctx: Ctx, depth: number, out: Array<string>): void => {
  const nodes = parent.children
  const plain = parent.plainText
  // The inline run between block children (one paragraph), made at its first piece.
  let run: Run | undefined
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!
    if (typeof node === "number") {
      run ??= new Run(false)
      writeText(run, ctx, node, plain)
    } else if (node.drop) {
      if (run !== undefined && !BLOCKS.has(node.name) && showedText(ctx, node)) run.gap()
      continue
    } else if (isBlock(node) || holdsCodeBlock(node) || (ctx.components === true && componentBlocks(node))) {
      if (run !== undefined) {
        pushParagraph(out, run.text())
        run.reset()
      }
      block(node, ctx, depth, out)
    } else {
      run ??= new Run(false)
      meet(run, parent, node, nodes[i - 1])
      inline(node, ctx, depth, run)
    }
  }
  if (run !== undefined) pushParagraph(out, run.text())
}

/** The Markdown blocks of the content roots (each rendered as its children, in order). */
export const renderBlocks = (
  texts: Texts,
  roots: ReadonlyArray<El>,
  base: URL | undefined,
  product = false
): Array<string> => {
  const notes = noteMarks(texts, roots)
  const ctx: Ctx = {
    texts,
    base,
    nesting: 0,
    ...(notes === undefined ? {} : { notes }),
    ...(product ? { components: true } : {})
  }
  const out: Array<string> = []
  for (const root of roots) {
    if (isBlock(root)) block(root, ctx, 1, out)
    else blocks(root, ctx, 1, out)
  }
  return out
}

/** A one-line text (the title): whitespace collapsed, `<br>`s as spaces. */
export const oneLineText = (s: string): string => oneLine(finishInline(escapeInline(collapse(s)), false))

/** `s` as one paragraph of Markdown (collapsed, escaped, never read as a heading or list). */
export const paragraphText = (s: string): string => oneLine(finishInline(escapeInline(collapse(s))))
