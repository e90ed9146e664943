/**
 * The readable copy of a capture (pure, deterministic, total). HTML and XHTML become Markdown:
 * the title, headings, paragraphs, lists, links (made absolute), code blocks, tables and block
 * quotes; scripts, styles, navigation, forms and page furniture are dropped, and `main` /
 * `article` are preferred when the page has them. `text/plain` is kept as the text itself.
 *
 * Text is kept verbatim (whitespace collapsed, no Markdown escaping, no emphasis markers) so a
 * quote copied from the page matches the readable copy; only links add Markdown around text.
 * Parsing uses htmlparser2, the parser of cheerio's htmlparser2 entry point (fast, forgiving):
 * `htmlToMarkdown` streams its events; `htmlToMarkdownTree`, the reference, walks the tree cheerio
 * would build. The walk is depth-capped: below `MAX_DEPTH` a subtree contributes its text only,
 * gathered without recursion, so no page can exhaust the stack.
 */
import { load } from "cheerio/slim"
import { DomHandler } from "domhandler"
import { Parser } from "htmlparser2"
import { collapseWhitespace } from "./Quote.js"

export type ContentKind = "html" | "xhtml" | "text"

/** The node shape of domhandler (the tree cheerio builds), as far as this module reads it. */
interface DomNode {
  readonly type: string
  readonly name?: string
  readonly data?: string
  readonly attribs?: Record<string, string>
  readonly children?: ReadonlyArray<DomNode>
  readonly parent?: DomNode | null
}

const MAX_DEPTH = 120

/** Elements whose whole subtree is dropped. */
const DROP = new Set([
  "script", "style", "noscript", "template", "head", "title", "meta", "link", "base",
  "nav", "form", "button", "input", "select", "option", "textarea", "label", "fieldset", "datalist", "output",
  "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "canvas", "audio", "video", "source", "track",
  "picture", "img", "map", "area", "dialog", "menu", "aside", "slot"
])

/** Page furniture dropped outside `main`/`article`/`section`. */
const FURNITURE = new Set(["header", "footer"])

const DROP_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog", "menu", "menubar", "toolbar"])

const BOILERPLATE = /(?:^|[\s_-])(?:cookies?|consent|gdpr|advert|advertisement|ads|ad-slot|sponsored|newsletter|breadcrumbs?|sidebar|navbar|skip-link|share|social)(?:$|[\s_-])/i

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }

/** Elements rendered as blocks (they end the paragraph around them). */
const BLOCKS = new Set([
  "address", "article", "blockquote", "body", "center", "dd", "details", "div", "dl", "dt", "figcaption", "figure",
  "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "li", "main", "ol", "p", "pre",
  "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "caption", "listing", "xmp", "plaintext"
])

const CONTAINERS_KEEPING_FURNITURE = new Set(["main", "article", "section"])

interface Ctx {
  readonly base: URL | undefined
  readonly inContent: boolean
  /** Lists and quotes around this node; past `MAX_MARKED_NESTING` no more prefixes are added. */
  readonly nesting: number
}

/** Deeper lists and quotes keep their text but add no further indentation or `>` (bounded output). */
const MAX_MARKED_NESTING = 8

const attr = (node: DomNode, name: string): string | undefined => node.attribs?.[name]

const lower = (node: DomNode): string => (node.name ?? "").toLowerCase()

const isElement = (node: DomNode): boolean => node.type === "tag" || node.type === "script" || node.type === "style"

const dropped = (node: DomNode, ctx: Ctx): boolean =>
  node.type === "script" || node.type === "style" || droppedTag(lower(node), node.attribs, ctx)

/** Whether an element of this (lowercase) name and attributes is left out of the readable copy. */
const droppedTag = (name: string, attribs: Record<string, string> | undefined, ctx: Ctx): boolean => {
  if (DROP.has(name)) return true
  if (!ctx.inContent && FURNITURE.has(name)) return true
  if (attribs === undefined) return false
  if (attribs.hidden !== undefined) return true
  const ariaHidden = attribs["aria-hidden"]
  if (ariaHidden !== undefined && ariaHidden.toLowerCase() === "true") return true
  const role = attribs.role
  if (role !== undefined && DROP_ROLES.has(role.toLowerCase().trim())) return true
  const cls = attribs.class
  const id = attribs.id
  if (cls === undefined && id === undefined) return false
  const marks = `${cls ?? ""} ${id ?? ""}`
  return marks.length > 1 && BOILERPLATE.test(marks)
}

/** Text of a subtree without recursion (for the depth cap and for code blocks). */
const textOf = (root: DomNode, skipDropped: boolean, ctx: Ctx, spaced = true): string => {
  let out = ""
  const stack: Array<DomNode> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node.type === "text" || node.type === "cdata") {
      if (node.type === "text") out += node.data ?? ""
      else for (const c of node.children ?? []) if (c.type === "text") out += c.data ?? ""
      continue
    }
    if (!isElement(node) && node.type !== "root") continue
    if (node !== root && skipDropped && dropped(node, ctx)) continue
    if (lower(node) === "br") {
      out += "\n"
      continue
    }
    const kids = node.children ?? []
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!)
    if (spaced && BLOCKS.has(lower(node))) out += " "
  }
  return out
}

const collapse = collapseWhitespace

/** Normalize an inline run: collapse whitespace within lines, keep `<br>` line breaks. */
const finishInline = (s: string): string =>
  s.indexOf("\n") < 0
    ? collapse(s).trim()
    : s
        .split("\n")
        .map((line) => collapse(line).trim())
        .filter((line) => line.length > 0)
        .join("\n")

const absolute = (href: string, ctx: Ctx): string | undefined => resolveHref(href, ctx.base)

/**
 * The absolute form of a link (`href` already trimmed) against a base: http, https and mailto
 * only. Equal to `resolveHrefGeneric` (a property test compares them); the two shapes most links
 * have are written out without the URL parser, which took ~8% of an extraction:
 * - a path-absolute link (`/a/b.html`) against an http(s) base: the base's scheme, userinfo, host
 *   and port, then the path as it is;
 * - an http(s) link to a host of lowercase letters, digits and hyphens whose last label starts
 *   with a letter (never an IPv4 number, no `xn--` label to validate), without port or userinfo:
 *   as it is, with `/` for an empty path.
 * In both the path holds only characters the parser keeps as they are (no `%`, `\`, `?`, `#`, no
 * `.` or `..` segment, nothing it would encode). Anything else goes to the parser.
 */
export const resolveHref = (href: string, base: URL | undefined): string | undefined => {
  if (href.charCodeAt(0) === 47 /* / */) {
    if (base !== undefined && href.charCodeAt(1) !== 47 && isPlainPath(href)) {
      const prefix = prefixOf(base)
      if (prefix !== undefined) return prefix + href
    }
  } else if (href.startsWith("http")) {
    const m = PLAIN_ABSOLUTE.exec(href)
    if (m !== null && !m[2]!.includes("xn--") && (m[3] === undefined || isPlainPath(m[3]))) return m[3] === undefined ? `${href}/` : href
  }
  return resolveHrefGeneric(href, base)
}

/** `resolveHref` by the WHATWG URL parser alone. */
export const resolveHrefGeneric = (href: string, base: URL | undefined): string | undefined => {
  try {
    const u = base === undefined ? new URL(href) : new URL(href, base)
    return u.protocol === "http:" || u.protocol === "https:" || u.protocol === "mailto:" ? u.href : undefined
  } catch {
    return undefined
  }
}

const PLAIN_ABSOLUTE = /^(https?:\/\/)((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(\/.*)?$/
const PLAIN_PATH = /^(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@]*)+$/
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/
const isPlainPath = (path: string): boolean => PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)

/** What `new URL("/x", base).href` starts with before `/x`, for http(s) bases (cached per base). */
const prefixes = new WeakMap<URL, string | null>()
const prefixOf = (base: URL): string | undefined => {
  let prefix = prefixes.get(base)
  if (prefix === undefined) {
    prefix = base.protocol === "http:" || base.protocol === "https:" ? new URL("/", base).href.slice(0, -1) : null
    prefixes.set(base, prefix)
  }
  return prefix ?? undefined
}

const LINK_TARGET_ESCAPE = /[()\s]/

const linkTarget = (url: string): string =>
  LINK_TARGET_ESCAPE.test(url) ? url.replace(/[()\s]/g, (c) => encodeURIComponent(c)) : url

const escapeLinkText = (text: string): string =>
  text.indexOf("[") < 0 && text.indexOf("]") < 0 ? text : text.replace(/([[\]])/g, "\\$1")

/** Inline rendering of a node (text with links). `\n` marks a `<br>`. */
const inline = (node: DomNode, ctx: Ctx, depth: number): string => {
  if (node.type === "text") return collapse(node.data ?? "")
  if (node.type === "cdata") return collapse(textOf(node, false, ctx))
  if (!isElement(node) || dropped(node, ctx)) return ""
  if (depth > MAX_DEPTH) return collapse(textOf(node, true, ctx))
  const name = lower(node)
  if (name === "br") return "\n"
  let inner = ""
  for (const child of node.children ?? []) inner += inline(child, ctx, depth + 1)
  if (name === "a") {
    const text = oneLine(finishInline(inner))
    if (text.length === 0) return ""
    const href = attr(node, "href")
    const target = href === undefined ? undefined : absolute(href.trim(), ctx)
    return target === undefined ? text : `[${escapeLinkText(text)}](${linkTarget(target)})`
  }
  return BLOCKS.has(name) ? ` ${inner} ` : inner
}

const indent = (text: string, prefix: string, first: string): string =>
  text.indexOf("\n") < 0
    ? first + text
    : text
        .split("\n")
        .map((line, i) => (i === 0 ? first + line : line.length === 0 ? "" : prefix + line))
        .join("\n")

/** `<br>` breaks become spaces (headings, link texts, table cells). */
const oneLine = (s: string): string => (s.indexOf("\n") < 0 ? s : s.replace(/\n/g, " "))

const codeLanguage = (pre: DomNode): string => {
  const classes = [attr(pre, "class") ?? ""]
  for (const c of pre.children ?? []) if (lower(c) === "code") classes.push(attr(c, "class") ?? "")
  for (const cls of classes) {
    const m = /(?:^|\s)(?:language|lang)-([A-Za-z0-9_+#.-]{1,32})(?:\s|$)/.exec(cls)
    if (m !== null) return m[1]!
  }
  return ""
}

const codeBlock = (pre: DomNode, ctx: Ctx): string => {
  const code = textOf(pre, false, ctx, false).replace(/\r\n?/g, "\n").replace(/^\n/, "").replace(/\s+$/, "")
  let fence = "```"
  while (code.includes(fence)) fence += "`"
  return `${fence}${codeLanguage(pre)}\n${code}\n${fence}`
}

const cellText = (cell: DomNode, ctx: Ctx, depth: number): string =>
  oneLine(finishInline(inline(cell, ctx, depth))).replace(/\|/g, "\\|")

const table = (node: DomNode, ctx: Ctx, depth: number): string => {
  if (depth > MAX_DEPTH) return finishInline(collapse(textOf(node, true, ctx)))
  const rows: Array<Array<string>> = []
  // Rows of this table only (not of nested tables), in document order.
  const collect = (el: DomNode, level: number) => {
    for (const child of el.children ?? []) {
      const name = lower(child)
      if (name === "tr") {
        const cells: Array<string> = []
        for (const cell of child.children ?? []) {
          const cn = lower(cell)
          if (cn === "td" || cn === "th") cells.push(cellText(cell, ctx, depth + 2))
        }
        rows.push(cells)
      } else if ((name === "thead" || name === "tbody" || name === "tfoot") && level < 2) {
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

/** The entries of a list being rendered (by `list()`, or by the streaming renderer as they close). */
interface ListEntries {
  readonly ordered: boolean
  next: number
  readonly marked: boolean
  readonly entries: Array<string>
}

/** The first marker number of a list (`start`, when it is a sane integer). */
const listStart = (start: string | undefined): number => {
  const n = Number.parseInt(start ?? "1", 10)
  return Number.isFinite(n) && Math.abs(n) < 1e9 ? n : 1
}

const listEntries = (name: string, start: string | undefined, ctx: Ctx): ListEntries => ({
  ordered: name === "ol",
  next: listStart(start),
  marked: ctx.nesting < MAX_MARKED_NESTING,
  entries: []
})

/** An entry of a list: a nested list is indented, anything else gets the next marker. */
const addEntry = (list: ListEntries, content: string, nested: boolean): void => {
  if (content.length === 0) return
  if (nested) {
    list.entries.push(list.marked ? indent(content, "  ", "  ") : content)
    return
  }
  const marker = list.ordered ? `${list.next}. ` : "- "
  list.next++
  list.entries.push(indent(content, list.marked ? " ".repeat(marker.length) : "", marker))
}

/** A block quote of the blocks `inner`; past `MAX_MARKED_NESTING` (of the quote's own context) no `>` is added. */
const quoted = (inner: string, nesting: number): string =>
  nesting < MAX_MARKED_NESTING ? inner.split("\n").map((l) => (l.length === 0 ? ">" : `> ${l}`)).join("\n") : inner

const heading = (level: number, text: string): string => `${"#".repeat(level)} ${text}`

const list = (node: DomNode, ctx: Ctx, depth: number): string => {
  if (depth > MAX_DEPTH) return finishInline(collapse(textOf(node, true, ctx)))
  const entries = listEntries(lower(node), attr(node, "start"), ctx)
  const inner: Ctx = { ...ctx, nesting: ctx.nesting + 1 }
  for (const child of node.children ?? []) {
    if (!isElement(child) || dropped(child, ctx)) continue
    const name = lower(child)
    if (name === "ul" || name === "ol") addEntry(entries, list(child, inner, depth + 1), true)
    else if (name === "li") addEntry(entries, blocks(child.children ?? [], inner, depth + 1).join("\n"), false)
    else addEntry(entries, finishInline(inline(child, inner, depth + 1)), false)
  }
  return entries.entries.join("\n")
}

const block = (node: DomNode, ctx: Ctx, depth: number): ReadonlyArray<string> => {
  const name = lower(node)
  if (depth > MAX_DEPTH) {
    const text = finishInline(collapse(textOf(node, true, ctx)))
    return text.length === 0 ? [] : [text]
  }
  const level = HEADINGS[name]
  if (level !== undefined) {
    const text = oneLine(finishInline(inline(node, ctx, depth)))
    return text.length === 0 ? [] : [heading(level, text)]
  }
  switch (name) {
    case "p":
    case "dt":
    case "dd":
    case "summary":
    case "figcaption":
    case "caption":
    case "address": {
      const text = finishInline(inline(node, ctx, depth))
      return text.length === 0 ? [] : [text]
    }
    case "pre":
    case "listing":
    case "xmp":
    case "plaintext":
      return [codeBlock(node, ctx)]
    case "hr":
      return ["---"]
    case "ul":
    case "ol": {
      const text = list(node, ctx, depth)
      return text.length === 0 ? [] : [text]
    }
    case "table": {
      const text = table(node, ctx, depth)
      return text.length === 0 ? [] : [text]
    }
    case "blockquote": {
      const inner = blocks(node.children ?? [], { ...ctx, nesting: ctx.nesting + 1 }, depth + 1).join("\n\n")
      return inner.length === 0 ? [] : [quoted(inner, ctx.nesting)]
    }
    default: {
      const inContent = ctx.inContent || CONTAINERS_KEEPING_FURNITURE.has(name)
      return blocks(node.children ?? [], inContent === ctx.inContent ? ctx : { ...ctx, inContent }, depth + 1)
    }
  }
}

/** Render a sequence of sibling nodes as Markdown blocks. */
const blocks = (nodes: ReadonlyArray<DomNode>, ctx: Ctx, depth: number): Array<string> => {
  const out: Array<string> = []
  let run = ""
  const flush = () => {
    const text = finishInline(run)
    if (text.length > 0) out.push(text)
    run = ""
  }
  for (const node of nodes) {
    if (node.type === "text" || node.type === "cdata") {
      run += inline(node, ctx, depth)
      continue
    }
    if (!isElement(node) || dropped(node, ctx)) continue
    if (BLOCKS.has(lower(node))) {
      flush()
      for (const b of block(node, ctx, depth)) out.push(b)
    } else {
      run += inline(node, ctx, depth)
    }
  }
  flush()
  return out
}

const baseOf = (baseEl: DomNode | undefined, pageUrl: string): URL | undefined => {
  let page: URL | undefined
  try {
    page = new URL(pageUrl)
  } catch {
    page = undefined
  }
  if (baseEl !== undefined) {
    try {
      const u = page === undefined ? new URL(attr(baseEl, "href")!) : new URL(attr(baseEl, "href")!, page)
      if (u.protocol === "http:" || u.protocol === "https:") return u
    } catch {
      // an unusable <base> is ignored
    }
  }
  return page
}

const RAW_TEXT = new Set(["script", "style", "template", "noscript", "textarea", "title", "xmp", "iframe", "noembed", "noframes"])

/**
 * Visit the tags of a page in one linear pass (no regular expression that could backtrack):
 * `onText` gets the text between tags, `onTag` each tag's lowercased name, whether it closes,
 * whether it is self-closing. Comments and raw-text elements (script, style…) are skipped.
 */
const isNameChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 58

const rawTextEnd = new Map<string, RegExp>()

const scanTags = (
  html: string,
  onTag: (name: string, closing: boolean, selfClosing: boolean) => void,
  onText: (text: string) => void
): void => {
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf("<", i)
    if (lt < 0) break
    if (lt > i) onText(html.slice(i, lt))
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4)
      if (end < 0) return
      i = end + 3
      continue
    }
    const gt = html.indexOf(">", lt + 1)
    if (gt < 0) {
      onText(html.slice(lt))
      return
    }
    const closing = html.charCodeAt(lt + 1) === 47 /* / */
    let j = closing ? lt + 2 : lt + 1
    const nameStart = j
    while (j < gt && isNameChar(html.charCodeAt(j))) j++
    i = gt + 1
    const first = html.charCodeAt(nameStart) | 0x20
    if (j === nameStart || first < 97 || first > 122) {
      onText(" ")
      continue
    }
    const name = html.slice(nameStart, j).toLowerCase()
    onTag(name, closing, html.charCodeAt(gt - 1) === 47)
    if (!closing && RAW_TEXT.has(name)) {
      let end = rawTextEnd.get(name)
      if (end === undefined) {
        end = new RegExp(`</${name}`, "gi")
        rawTextEnd.set(name, end)
      }
      end.lastIndex = i
      const m = end.exec(html)
      if (m === null) return
      i = m.index
    }
  }
  if (i < html.length) onText(html.slice(i))
}

/**
 * Pages whose elements nest deeper than this (in the parser's own stack of open elements) get a
 * text-only copy: the parser's cost per tag grows with the depth of that stack, so a hostile page
 * could otherwise stall the capture. Both renderers stop parsing as soon as the stack passes it.
 */
export const MAX_PARSE_DEPTH = 512

/** Thrown out of the parser's callbacks when its stack of open elements passes `MAX_PARSE_DEPTH`. */
class TooDeep {}

/** The page's tree (htmlparser2's DomHandler, as cheerio builds it), or `undefined` past `MAX_PARSE_DEPTH`. */
class DepthCappedHandler extends DomHandler {
  private open = 0
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.open > MAX_PARSE_DEPTH) throw new TooDeep()
    super.onopentag(name, attribs)
  }
  override onclosetag(): void {
    this.open--
    super.onclosetag()
  }
}

const parseTree = (html: string): DomNode | undefined => {
  const handler = new DepthCappedHandler()
  try {
    new Parser(handler).end(html)
  } catch (e) {
    if (e instanceof TooDeep) return undefined
    throw e
  }
  return handler.root as unknown as DomNode
}

/** Text-only copy of a page too deeply nested to parse into a tree (linear time). */
const flatText = (html: string): string => {
  const parts: Array<string> = []
  scanTags(
    html,
    (name) => parts.push(BLOCKS.has(name) || name === "br" ? "\n" : " "),
    (text) => parts.push(text.replace(/</g, "&lt;"))
  )
  // Decode character references with the same parser (a tag-free body parses in linear time).
  const $ = load(`<pre>${parts.join("")}</pre>`)
  return $("pre")
    .text()
    .split("\n")
    .map((line) => collapse(line).trim())
    .filter((line) => line.length > 0)
    .join("\n\n")
}

/**
 * The reference rendering: cheerio builds the whole tree, then one walk renders it. The streaming
 * renderer below gives the same Markdown (a property test compares them on generated pages) and
 * falls back to this one for the few layouts it cannot stream.
 */
export const htmlToMarkdownTree = (html: string, pageUrl: string): string => joinBlocks(treeBlocks(html, pageUrl))

const treeBlocks = (html: string, pageUrl: string): ReadonlyArray<string> => {
  const root = parseTree(html)
  if (root === undefined) return flatBlocks(html)
  // One pass for what the page declares: its title, <base>, first main, whether it has articles.
  let titleEl: DomNode | undefined
  let baseEl: DomNode | undefined
  let mainEl: DomNode | undefined
  let hasArticle = false
  const stack: Array<DomNode> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node !== root && isElement(node)) {
      const name = lower(node)
      if (name === "title") titleEl ??= node
      else if (name === "base" && attr(node, "href") !== undefined) baseEl ??= node
      else if (name === "article") hasArticle = true
      if (mainEl === undefined && (name === "main" || (attr(node, "role") ?? "").toLowerCase() === "main")) mainEl = node
    }
    const kids = node.children ?? []
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!)
  }
  const base = baseOf(baseEl, pageUrl)
  const ctx: Ctx = { base, inContent: false, nesting: 0 }

  const title = titleEl === undefined ? "" : finishInline(collapse(textOf(titleEl, false, ctx))).replace(/\n/g, " ")

  const contentRoots: ReadonlyArray<DomNode> = mainEl !== undefined ? [mainEl] : hasArticle ? outermost(root, "article") : [root]

  const body: Array<string> = []
  for (const r of contentRoots) {
    const isContent = r !== root
    const rctx: Ctx = isContent ? { base, inContent: true, nesting: 0 } : ctx
    for (const b of blocks(r.children ?? [], rctx, 1)) body.push(b)
  }
  return assemble(title, body)
}

const flatBlocks = (html: string): ReadonlyArray<string> => {
  const text = flatText(html)
  return text.length === 0 ? [] : [text]
}

/** The document's blocks: the title as a first-level heading (else the first `# ` heading), then the body. */
const assemble = (pageTitle: string, body: ReadonlyArray<string>): ReadonlyArray<string> => {
  let title = pageTitle
  if (title.length === 0) {
    const h1 = body.find((b) => b.startsWith("# "))
    if (h1 !== undefined) title = h1.slice(2)
  }
  const head = title.length > 0 ? `# ${title}` : undefined
  const rest = head !== undefined && body[0] === head ? body.slice(1) : body
  if (head === undefined) return rest
  const all: Array<string> = [head]
  for (const block of rest) all.push(block)
  return all
}

/** Markdown text of a document's blocks: separated by a blank line, ending with a newline. */
const joinBlocks = (blocks: ReadonlyArray<string>): string => (blocks.length === 0 ? "" : `${blocks.join("\n\n")}\n`)

const NON_ASCII = /[^\x00-\x7f]/

/** The same text as `joinBlocks`, encoded as UTF-8 straight into one buffer (no joined string). */
const encodeBlocks = (blocks: ReadonlyArray<string>): Buffer => {
  if (blocks.length === 0) return Buffer.alloc(0)
  // ASCII blocks (most of them) are copied as Latin-1, which is the same bytes and skips transcoding.
  const ascii = blocks.map((b) => !NON_ASCII.test(b))
  let size = 2 * blocks.length - 1
  for (let i = 0; i < blocks.length; i++) size += ascii[i] ? blocks[i]!.length : Buffer.byteLength(blocks[i]!, "utf8")
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (let i = 0; i < blocks.length; i++) {
    if (i > 0) {
      out[at++] = 0x0a
      out[at++] = 0x0a
    }
    at += out.write(blocks[i]!, at, ascii[i] ? "latin1" : "utf8")
  }
  out[at] = 0x0a
  return out
}

/** The outermost elements of a name, in document order (not descending into a match). */
const outermost = (root: DomNode, name: string): Array<DomNode> => {
  const out: Array<DomNode> = []
  const stack: Array<DomNode> = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node !== root && isElement(node) && lower(node) === name) {
      out.push(node)
      continue
    }
    const kids = node.children ?? []
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!)
  }
  return out
}

/** Block elements whose rendering is just their children's blocks (`block`'s default case). */
const STREAMED = new Set([
  "article", "body", "center", "details", "div", "dl", "figure", "footer", "header", "hgroup", "html", "li", "main",
  "section", "tbody", "td", "tfoot", "th", "thead", "tr"
])

/** Block elements rendered as one paragraph of inline text. */
const PARAGRAPHS = new Set(["p", "dt", "dd", "summary", "figcaption", "caption", "address"])

/** An element the streaming renderer keeps as a subtree (rendered with the tree functions when it closes). */
interface Kept extends DomNode {
  readonly type: string
  readonly name: string
  readonly attribs: Record<string, string>
  readonly children: Array<DomNode>
}

/**
 * The open elements of the streaming renderer. Each mirrors one function of the tree renderer and
 * hands its result to its parent when it closes, so nothing of the page is kept once rendered:
 * - `stream` is `blocks()` over a container's children: a plain container, a content root, a list
 *   item (its blocks joined by a line break) or a block quote (prefixed with `>`);
 * - `inline` is `inline()`: text gathered as it arrives; used as a heading, a paragraph, text in
 *   the surrounding run, or a list entry;
 * - `list` is `list()`: entries gathered as they close;
 * - `keep` builds the subtree for what is rendered whole (code blocks, tables, rules, the title,
 *   anything past `MAX_DEPTH`) and renders it with the tree functions;
 * - `skip` is dropped, or outside the content being rendered.
 */
interface StreamFrame {
  readonly kind: "stream"
  ctx: Ctx
  /** The depth its children are rendered at (`blocks(children, ctx, depth)`). */
  readonly depth: number
  run: string
  /** Where its blocks go: its parent's list for a plain container, its own for an item or a quote. */
  readonly target: Array<string>
  readonly role: "container" | "root" | "article-root" | "item" | "quote"
  readonly parent: Frame | undefined
}
interface InlineFrame {
  readonly kind: "inline"
  ctx: Ctx
  /** The element's own depth (`inline(node, ctx, depth)`); its children are one deeper. */
  readonly depth: number
  readonly name: string
  readonly href: string | undefined
  text: string
  /** Heading level 1–6, `PARAGRAPH`, or `INLINE` (text for the parent's run or entry). */
  readonly use: number
  readonly parent: Frame
}
interface ListFrame extends ListEntries {
  readonly kind: "list"
  ctx: Ctx
  inner: Ctx
  readonly depth: number
  readonly parent: Frame
}
interface KeepFrame {
  readonly kind: "keep"
  readonly node: Kept
  readonly parent: Frame
  readonly title: boolean
}
interface SkipFrame {
  readonly kind: "skip"
}
type Frame = StreamFrame | InlineFrame | ListFrame | KeepFrame | SkipFrame

const SKIP: SkipFrame = { kind: "skip" }
const INLINE = 0
const PARAGRAPH = 7

/** The streaming renderer met a layout it does not stream (a `<base>` after a link, content inside the title). */
class Unstreamable {}

const spaceForNewline = (s: string): string => (s.indexOf("\n") < 0 ? s : s.replace(/\n/g, " "))

const flush = (f: StreamFrame): void => {
  if (f.run.length === 0) return
  const text = finishInline(f.run)
  if (text.length > 0) f.target.push(text)
  f.run = ""
}

/** What `inline()` returns for an element whose inner text is `f.text`. */
const inlineResult = (f: InlineFrame): string => {
  if (f.name === "br") return "\n"
  if (f.name === "a") {
    const text = oneLine(finishInline(f.text))
    if (text.length === 0) return ""
    const target = f.href === undefined ? undefined : absolute(f.href.trim(), f.ctx)
    return target === undefined ? text : `[${escapeLinkText(text)}](${linkTarget(target)})`
  }
  return BLOCKS.has(f.name) ? ` ${f.text} ` : f.text
}

/** A closed element's inline text reaches its parent. */
const deliverInline = (f: InlineFrame): void => {
  const parent = f.parent
  const result = inlineResult(f)
  if (parent.kind === "inline") parent.text += result
  else if (parent.kind === "list") addEntry(parent, finishInline(result), false)
  else if (parent.kind === "stream") {
    if (f.use === INLINE) parent.run += result
    else if (f.use === PARAGRAPH) {
      const text = finishInline(result)
      if (text.length > 0) parent.target.push(text)
    } else {
      const text = oneLine(finishInline(result))
      if (text.length > 0) parent.target.push(heading(f.use, text))
    }
  }
}

/** A kept subtree reaches its parent, rendered as the tree renderer renders it there. */
const deliverKept = (node: Kept, parent: Frame): void => {
  switch (parent.kind) {
    case "stream":
      if (BLOCKS.has(node.name)) for (const b of block(node, parent.ctx, parent.depth)) parent.target.push(b)
      else parent.run += inline(node, parent.ctx, parent.depth)
      return
    case "inline":
      parent.text += inline(node, parent.ctx, parent.depth + 1)
      return
    case "list":
      if (node.name === "ul" || node.name === "ol") addEntry(parent, list(node, parent.inner, parent.depth + 1), true)
      else addEntry(parent, finishInline(inline(node, parent.inner, parent.depth + 1)), false)
      return
    default:
      return
  }
}

/**
 * Markdown of an HTML (or XHTML) page, links resolved against `pageUrl`.
 *
 * Streams the parser's events (htmlparser2, cheerio's parser) instead of building the page's tree:
 * containers render their children as each one closes, and only small subtrees (a paragraph, a
 * list, a table) are kept. The content roots are chosen as the tree renderer chooses them — the
 * first `main` (or `role=main`) element, else the outermost `article`s, else the whole page —
 * by restarting the output when a better root appears. The result equals `htmlToMarkdownTree`.
 */
export const htmlToMarkdown = (html: string, pageUrl: string): string => joinBlocks(markdownBlocks(html, pageUrl))

const markdownBlocks = (html: string, pageUrl: string): ReadonlyArray<string> => {
  try {
    return streamBlocks(html, pageUrl)
  } catch (e) {
    if (e instanceof TooDeep) return flatBlocks(html)
    if (e instanceof Unstreamable) return treeBlocks(html, pageUrl)
    throw e
  }
}

const streamBlocks = (html: string, pageUrl: string): ReadonlyArray<string> => {
  let base = baseOf(undefined, pageUrl)
  let baseSeen = false
  let linkSeen = false
  let mode: "page" | "articles" | "main" = "page"
  let openArticleRoots = 0
  let titleNode: Kept | undefined
  let titleDone = false
  const out: Array<string> = []
  const root: StreamFrame = {
    kind: "stream", ctx: { base, inContent: false, nesting: 0 }, depth: 1, run: "", target: out, role: "root", parent: undefined
  }
  const stack: Array<Frame> = [root]

  /** A better content root appeared: what was rendered so far no longer counts. */
  const restart = () => {
    if (titleNode !== undefined && !titleDone) throw new Unstreamable()
    out.length = 0
    for (let i = 0; i < stack.length; i++) stack[i] = SKIP
  }
  const contentRoot = (role: "root" | "article-root"): StreamFrame => ({
    kind: "stream", ctx: { base, inContent: true, nesting: 0 }, depth: 1, run: "", target: out, role, parent: undefined
  })
  const keep = (name: string, attribs: Record<string, string>, parent: Frame, title: boolean): KeepFrame => {
    const node: Kept = { type: name === "script" ? "script" : name === "style" ? "style" : "tag", name, attribs, children: [] }
    if (title) titleNode = node
    if (parent.kind === "keep") parent.node.children.push(node)
    return { kind: "keep", node, parent, title }
  }
  const inlineFrame = (name: string, attribs: Record<string, string>, ctx: Ctx, depth: number, use: number, parent: Frame): InlineFrame =>
    ({ kind: "inline", ctx, depth, name, href: name === "a" ? attribs.href : undefined, text: "", use, parent })
  // Spelled out (not spread from `listEntries`): every list frame gets the same shape, with
  // `kind` first like the other frames; a spread made the frame accesses polymorphic (measured: 120 ms instead of 73 ms on the 2 MiB bench page).
  const listFrame = (name: string, attribs: Record<string, string>, ctx: Ctx, depth: number, parent: Frame): ListFrame => ({
    kind: "list",
    ctx,
    inner: { ...ctx, nesting: ctx.nesting + 1 },
    depth,
    ordered: name === "ol",
    next: listStart(attribs.start),
    marked: ctx.nesting < MAX_MARKED_NESTING,
    entries: [],
    parent
  })

  /** The frame of an element opening under `parent` (neither skipped nor kept by an ancestor). */
  const open = (name: string, attribs: Record<string, string>, parent: StreamFrame | InlineFrame | ListFrame): Frame => {
    if (parent.kind === "inline") {
      const depth = parent.depth + 1
      return depth > MAX_DEPTH ? keep(name, attribs, parent, false) : inlineFrame(name, attribs, parent.ctx, depth, INLINE, parent)
    }
    if (parent.kind === "list") {
      const depth = parent.depth + 1
      if (name === "li") return { kind: "stream", ctx: parent.inner, depth, run: "", target: [], role: "item", parent }
      if (depth > MAX_DEPTH) return keep(name, attribs, parent, false)
      if (name === "ul" || name === "ol") return listFrame(name, attribs, parent.inner, depth, parent)
      return inlineFrame(name, attribs, parent.inner, depth, INLINE, parent)
    }
    const depth = parent.depth
    if (!BLOCKS.has(name)) {
      return depth > MAX_DEPTH ? keep(name, attribs, parent, false) : inlineFrame(name, attribs, parent.ctx, depth, INLINE, parent)
    }
    flush(parent)
    if (depth > MAX_DEPTH) return keep(name, attribs, parent, false)
    const level = HEADINGS[name]
    if (level !== undefined) return inlineFrame(name, attribs, parent.ctx, depth, level, parent)
    if (PARAGRAPHS.has(name)) return inlineFrame(name, attribs, parent.ctx, depth, PARAGRAPH, parent)
    if (name === "ul" || name === "ol") return listFrame(name, attribs, parent.ctx, depth, parent)
    if (name === "blockquote") {
      const ctx = { ...parent.ctx, nesting: parent.ctx.nesting + 1 }
      return { kind: "stream", ctx, depth: depth + 1, run: "", target: [], role: "quote", parent }
    }
    if (STREAMED.has(name)) {
      const inContent = parent.ctx.inContent || CONTAINERS_KEEPING_FURNITURE.has(name)
      const ctx = inContent === parent.ctx.inContent ? parent.ctx : { ...parent.ctx, inContent }
      return { kind: "stream", ctx, depth: depth + 1, run: "", target: parent.target, role: "container", parent }
    }
    return keep(name, attribs, parent, false)
  }

  let depth = 0
  const parser = new Parser({
    onopentag(name, attribs) {
      if (++depth > MAX_PARSE_DEPTH) throw new TooDeep()
      if (name === "base" && !baseSeen && attribs.href !== undefined) {
        baseSeen = true
        if (linkSeen) throw new Unstreamable()
        base = baseOf({ type: "tag", name, attribs }, pageUrl)
        for (const f of stack) {
          if (f.kind === "stream" || f.kind === "inline") f.ctx = { ...f.ctx, base }
          else if (f.kind === "list") {
            f.ctx = { ...f.ctx, base }
            f.inner = { ...f.inner, base }
          }
        }
      }
      if (name === "a" && attribs.href !== undefined) linkSeen = true
      const isTitle = name === "title" && titleNode === undefined
      if (mode !== "main" && (name === "main" || (attribs.role ?? "").toLowerCase() === "main")) {
        if (isTitle) throw new Unstreamable()
        mode = "main"
        restart()
        stack.push(contentRoot("root"))
        return
      }
      if (name === "article" && mode !== "main" && openArticleRoots === 0) {
        if (mode === "page") {
          mode = "articles"
          restart()
        }
        openArticleRoots++
        stack.push(contentRoot("article-root"))
        return
      }
      const parent = stack[stack.length - 1]!
      if (parent.kind === "keep") stack.push(keep(name, attribs, parent, isTitle))
      else if (parent.kind === "skip" || droppedTag(name, attribs, parent.ctx)) stack.push(isTitle ? keep(name, attribs, SKIP, true) : SKIP)
      else stack.push(open(name, attribs, parent))
    },
    ontext(data) {
      // Runs and inline text are collapsed once, when finished (`finishInline`); until then only a
      // source line break must not pass for a `<br>`.
      const top = stack[stack.length - 1]!
      if (top.kind === "stream") top.run += spaceForNewline(data)
      else if (top.kind === "inline") top.text += spaceForNewline(data)
      else if (top.kind === "keep") {
        const kids = top.node.children
        const last = kids[kids.length - 1]
        if (last !== undefined && last.type === "text") kids[kids.length - 1] = { type: "text", data: (last.data ?? "") + data }
        else kids.push({ type: "text", data })
      }
    },
    onclosetag() {
      depth--
      const f = stack.pop()!
      switch (f.kind) {
        case "skip":
          return
        case "keep":
          if (f.title) titleDone = true
          deliverKept(f.node, f.parent)
          return
        case "inline":
          deliverInline(f)
          return
        case "list": {
          const text = f.entries.join("\n")
          if (f.parent.kind === "list") addEntry(f.parent, text, true)
          else if (f.parent.kind === "stream" && text.length > 0) f.parent.target.push(text)
          return
        }
        case "stream": {
          flush(f)
          if (f.role === "article-root") openArticleRoots--
          else if (f.role === "item" && f.parent?.kind === "list") addEntry(f.parent, f.target.join("\n"), false)
          else if (f.role === "quote" && f.parent?.kind === "stream") {
            const inner = f.target.join("\n\n")
            if (inner.length === 0) return
            f.parent.target.push(quoted(inner, f.parent.ctx.nesting))
          }
          return
        }
      }
    }
  })
  parser.end(html)
  if (stack[0] === root) flush(root)
  const ctx: Ctx = { base, inContent: false, nesting: 0 }
  const title = titleNode === undefined ? "" : oneLine(finishInline(collapse(textOf(titleNode, false, ctx))))
  return assemble(title, out)
}

/** The readable copy of a decoded body. */
export const readableCopy = (kind: ContentKind, text: string, pageUrl: string): string =>
  kind === "text" ? text : htmlToMarkdown(text, pageUrl)

/** The readable copy as the UTF-8 bytes that are retained (`readableCopy`, encoded). */
export const readableCopyBytes = (kind: ContentKind, text: string, pageUrl: string): Buffer =>
  kind === "text" ? Buffer.from(text, "utf8") : encodeBlocks(markdownBlocks(text, pageUrl))
