/**
 * Markdown of the chosen content: headings, paragraphs, lists, links (absolute), code blocks,
 * tables, block quotes and rules; dropped elements are left out. Text is kept verbatim
 * (whitespace collapsed, no emphasis marks); only what Markdown would read as syntax is
 * backslash-escaped, so a quote copied from the page matches as the gate's matcher reads the copy.
 * The walk is depth-capped: below `MAX_DEPTH` a subtree contributes its text only, gathered
 * without recursion, so no page can exhaust the stack.
 */
import { collapseWhitespace as collapse } from "../Quote.js"
import { markdownLink } from "./links.js"
import { BLOCKS, type El, type Node, textContent } from "./tree.js"

const MAX_DEPTH = 120

/** Deeper lists and quotes keep their text but add no further indentation or `>` (bounded output). */
const MAX_MARKED_NESTING = 8

interface Ctx {
  readonly base: URL | undefined
  /** Lists and quotes around this node; past `MAX_MARKED_NESTING` no more prefixes are added. */
  readonly nesting: number
}

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }

/**
 * Text at the start of a line that Markdown would read as syntax (a list marker, a heading or
 * quote mark, a table row, a fence, a thematic break or a setext underline): "1. Choose the pot"
 * as a paragraph would otherwise read "Choose the pot", and a quote of it would not verify.
 */
const LINE_SYNTAX = /^(?:[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|#{1,6}(?:[ \t]|$)|[>|]|=+[ \t]*$|`{3}|~{3}|(?:[-*_][ \t]*){3,}$)/

/** A line with a leading backslash escape where its start would read as syntax (`1\. …`, `\- …`). */
const escapeLineStart = (line: string): string => {
  if (!LINE_SYNTAX.test(line)) return line
  let i = 0
  while (i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57) i++
  return `${line.slice(0, i)}\\${line.slice(i)}`
}

/**
 * Characters of a text run that Markdown reads as inline syntax, backslash-escaped: every `*`
 * (it opens emphasis even inside a word: "Leser*innen und Autor*innen"), every backtick, `_` at a
 * word's edge (inside a word, as in `snake_case`, it never opens emphasis), `~` next to another,
 * a backslash before punctuation, `]` before `(` (a link) and `<` before a scheme (an autolink).
 */
const INLINE_SYNTAX = /[*`]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|~(?=~)|(?<=~)~|\\(?=[!-/:-@[-`{-~])|\](?=\()|<(?=[A-Za-z][A-Za-z0-9+.-]{1,31}:)/gu
const MAYBE_INLINE_SYNTAX = /[*`_~\\\]<]/

const escapeInline = (text: string): string => (MAYBE_INLINE_SYNTAX.test(text) ? text.replace(INLINE_SYNTAX, "\\$&") : text)

/**
 * Normalize an inline run: collapse whitespace within lines, keep `<br>` line breaks; lines that
 * start a block (`atLineStart`: not a heading's, a link's or a table cell's text) get their start
 * escaped.
 */
const finishInline = (s: string, atLineStart = true): string => {
  const finish = atLineStart ? (line: string) => escapeLineStart(collapse(line).trim()) : (line: string) => collapse(line).trim()
  return s.indexOf("\n") < 0
    ? finish(s)
    : s
        .split("\n")
        .map(finish)
        .filter((line) => line.length > 0)
        .join("\n")
}

/** `<br>` breaks become spaces (headings, link texts, table cells). */
const oneLine = (s: string): string => (s.indexOf("\n") < 0 ? s : s.replace(/\n/g, " "))

const flatText = (node: El): string => finishInline(collapse(textContent(node, true, true)))

/** Inline rendering of a node (text with links). `\n` marks a `<br>`. */
const inline = (node: Node, ctx: Ctx, depth: number): string => {
  if (typeof node === "string") return escapeInline(collapse(node))
  if (node.drop) return ""
  if (depth > MAX_DEPTH) return collapse(textContent(node, true, true))
  if (node.name === "br") return "\n"
  let inner = ""
  for (const child of node.children) inner += inline(child, ctx, depth + 1)
  if (node.name === "a") {
    // Whitespace at the edges of a link's text stays outside the link, so "the<a> guide </a>page"
    // still reads "the guide page".
    const link = markdownLink(oneLine(finishInline(inner, false)), node.attribs.href, ctx.base)
    if (link.length === 0) return /\s/.test(inner) ? " " : ""
    return (/^\s/.test(inner) ? " " : "") + link + (/\s$/.test(inner) ? " " : "")
  }
  return BLOCKS.has(node.name) ? ` ${inner} ` : inner
}

const indent = (text: string, prefix: string, first: string): string =>
  text.indexOf("\n") < 0
    ? first + text
    : text
        .split("\n")
        .map((line, i) => (i === 0 ? first + line : line.length === 0 ? "" : prefix + line))
        .join("\n")

const codeLanguage = (pre: El): string => {
  const classes = [pre.attribs.class ?? ""]
  for (const c of pre.children) if (typeof c !== "string" && c.name === "code") classes.push(c.attribs.class ?? "")
  for (const cls of classes) {
    const m = /(?:^|\s)(?:language|lang)-([A-Za-z0-9_+#.-]{1,32})(?:\s|$)/.exec(cls)
    if (m !== null) return m[1]!
  }
  return ""
}

const codeBlock = (pre: El): string => {
  const code = textContent(pre, false).replace(/\r\n?/g, "\n").replace(/^\n/, "").replace(/\s+$/, "")
  let fence = "```"
  while (code.includes(fence)) fence += "`"
  return `${fence}${codeLanguage(pre)}\n${code}\n${fence}`
}

const cellText = (cell: El, ctx: Ctx, depth: number): string => oneLine(finishInline(inline(cell, ctx, depth), false)).replace(/\|/g, "\\|")

const table = (node: El, ctx: Ctx, depth: number): string => {
  if (depth > MAX_DEPTH) return flatText(node)
  const rows: Array<Array<string>> = []
  // Rows of this table only (not of nested tables), in document order.
  const collect = (el: El, level: number) => {
    for (const child of el.children) {
      if (typeof child === "string" || child.drop) continue
      if (child.name === "tr") {
        const cells: Array<string> = []
        for (const cell of child.children) {
          if (typeof cell !== "string" && !cell.drop && (cell.name === "td" || cell.name === "th")) cells.push(cellText(cell, ctx, depth + 2))
        }
        rows.push(cells)
      } else if ((child.name === "thead" || child.name === "tbody" || child.name === "tfoot") && level < 2) {
        collect(child, level + 1)
      }
    }
  }
  collect(node, 0)
  let width = 0
  for (const r of rows) if (r.length > width) width = r.length
  if (width === 0) return ""
  // Rows keep their own cells (no padding: a ragged table cannot blow up the output).
  const line = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`
  const [head, ...body] = rows
  return [line(head!), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n")
}

/** The first marker number of a list (`start`, when it is a sane integer). */
const listStart = (start: string | undefined): number => {
  const n = Number.parseInt(start ?? "1", 10)
  return Number.isFinite(n) && Math.abs(n) < 1e9 ? n : 1
}

const list = (node: El, ctx: Ctx, depth: number): string => {
  if (depth > MAX_DEPTH) return flatText(node)
  const ordered = node.name === "ol"
  const marked = ctx.nesting < MAX_MARKED_NESTING
  let next = listStart(node.attribs.start)
  const entries: Array<string> = []
  /** An entry of the list: a nested list is indented, anything else gets the next marker. */
  const add = (content: string, nested: boolean) => {
    if (content.length === 0) return
    if (nested) {
      entries.push(marked ? indent(content, "  ", "  ") : content)
      return
    }
    const marker = ordered ? `${next}. ` : "- "
    next++
    entries.push(indent(content, marked ? " ".repeat(marker.length) : "", marker))
  }
  const inner: Ctx = { ...ctx, nesting: ctx.nesting + 1 }
  for (const child of node.children) {
    if (typeof child === "string" || child.drop) continue
    if (child.name === "ul" || child.name === "ol") add(list(child, inner, depth + 1), true)
    else if (child.name === "li") add(blocks(child.children, inner, depth + 1).join("\n"), false)
    else add(finishInline(inline(child, inner, depth + 1)), false)
  }
  return entries.join("\n")
}

/** A block quote of the blocks `inner`; past `MAX_MARKED_NESTING` (of the quote's own context) no `>` is added. */
const quoted = (inner: string, nesting: number): string =>
  nesting < MAX_MARKED_NESTING ? inner.split("\n").map((l) => (l.length === 0 ? ">" : `> ${l}`)).join("\n") : inner

const nonEmpty = (text: string): ReadonlyArray<string> => (text.length === 0 ? [] : [text])

const block = (node: El, ctx: Ctx, depth: number): ReadonlyArray<string> => {
  const name = node.name
  if (depth > MAX_DEPTH) return nonEmpty(flatText(node))
  const level = HEADINGS[name]
  if (level !== undefined) {
    const text = oneLine(finishInline(inline(node, ctx, depth), false))
    return text.length === 0 ? [] : [`${"#".repeat(level)} ${text}`]
  }
  switch (name) {
    case "p":
    case "dt":
    case "dd":
    case "summary":
    case "figcaption":
    case "caption":
    case "address":
      return nonEmpty(finishInline(inline(node, ctx, depth)))
    case "pre":
    case "listing":
    case "xmp":
    case "plaintext":
      return [codeBlock(node)]
    case "hr":
      return ["---"]
    case "ul":
    case "ol":
      return nonEmpty(list(node, ctx, depth))
    case "table":
      return nonEmpty(table(node, ctx, depth))
    case "blockquote": {
      const inner = blocks(node.children, { ...ctx, nesting: ctx.nesting + 1 }, depth + 1).join("\n\n")
      return inner.length === 0 ? [] : [quoted(inner, ctx.nesting)]
    }
    default:
      return blocks(node.children, ctx, depth + 1)
  }
}

/** Render a sequence of sibling nodes as Markdown blocks. */
const blocks = (nodes: ReadonlyArray<Node>, ctx: Ctx, depth: number): Array<string> => {
  const out: Array<string> = []
  let run = ""
  const flush = () => {
    const text = finishInline(run)
    if (text.length > 0) out.push(text)
    run = ""
  }
  for (const node of nodes) {
    if (typeof node === "string") run += escapeInline(collapse(node))
    else if (node.drop) continue
    else if (BLOCKS.has(node.name)) {
      flush()
      for (const b of block(node, ctx, depth)) out.push(b)
    } else run += inline(node, ctx, depth)
  }
  flush()
  return out
}

/** The Markdown blocks of the content roots (each rendered as its children, in order). */
export const renderBlocks = (roots: ReadonlyArray<El>, base: URL | undefined): Array<string> => {
  const ctx: Ctx = { base, nesting: 0 }
  const out: Array<string> = []
  for (const root of roots) {
    const own = root.name === "#root" || !BLOCKS.has(root.name) ? blocks(root.children, ctx, 1) : block(root, ctx, 1)
    for (const b of own) out.push(b)
  }
  return out
}

/** A one-line text (the title): whitespace collapsed, `<br>`s as spaces. */
export const oneLineText = (s: string): string => oneLine(finishInline(escapeInline(collapse(s)), false))
