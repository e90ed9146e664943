/**
 * HTML and XHTML as a reader sees them: the text content (tags and comments removed, character
 * references decoded, `script`/`style`/`template` dropped, a block element's boundaries as
 * whitespace), mapped to the source. `tokenizeHtml` is htmlparser2's tokenizer with no-op callbacks for every event a caller does not handle (SourceFollow's
 * block cutter uses it too).
 */
import type { Parser, Tokenizer } from "htmlparser2"
import { createRequire } from "node:module"
import { Builder, type MappedText } from "./MappedText.js"

/**
 * htmlparser2 is loaded at the first HTML text, not when the library is imported: the gate's and
 * the monitor's layers import this module, and an embedding program over the in-memory layers
 * (or one that only matches Markdown) should not load the HTML parser (bench/library.ts checks).
 * The CLI's build replaces the loader below by a require of the bundled copy
 * (`htmlparserBundled` in scripts/build.mjs): loading it from node_modules cost a fresh
 * `ingest --file` its code cache for those modules and their resolution.
 */
const requireHtmlparser2 = (): typeof import("htmlparser2") => createRequire(import.meta.url)("htmlparser2")

/** htmlparser2's `Parser`: the elements of a page with its implied closes (the readable copy's tree). */
export const htmlParser = (): typeof Parser => requireHtmlparser2().Parser

/** htmlparser2's low-level `Tokenizer` (the visible text's and the source blocks' reader). */
const htmlTokenizer = (): typeof Tokenizer => requireHtmlparser2().Tokenizer

type Callbacks = ConstructorParameters<typeof Tokenizer>[1]

const noop = () => {}
const NO_CALLBACKS: Callbacks = {
  onattribdata: noop,
  onattribentity: noop,
  onattribend: noop,
  onattribname: noop,
  oncdata: noop,
  onclosetag: noop,
  oncomment: noop,
  ondeclaration: noop,
  onend: noop,
  onopentagend: noop,
  onopentagname: noop,
  onprocessinginstruction: noop,
  onselfclosingtag: noop,
  ontext: noop,
  ontextentity: noop
}

/**
 * Run htmlparser2's tokenizer (HTML mode) over `html` with these callbacks; `decodeEntities`
 * false reports text and attribute values as they are written.
 */
export const tokenizeHtml = (html: string, callbacks: Partial<Callbacks>, decodeEntities = true): void => {
  const tokenizer = new (htmlTokenizer())({ xmlMode: false, decodeEntities }, { ...NO_CALLBACKS, ...callbacks })
  tokenizer.write(html)
  tokenizer.end()
}

/** Elements whose text a reader never sees. */
const HIDDEN_ELEMENTS = new Set(["script", "style", "template"])

/** Elements whose start and end separate words (rendered as blocks, cells, line breaks). */
const BLOCK_ELEMENTS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "br",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "frameset",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "head",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "optgroup",
  "option",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "select",
  "summary",
  "table",
  "tbody",
  "td",
  "textarea",
  "tfoot",
  "th",
  "thead",
  "title",
  "tr",
  "ul",
  "xmp",
  "iframe",
  "noscript",
  "img",
  "input",
  "button"
])

/**
 * htmlparser2's tokenizer alone (its parser's stack of open elements costs more per tag the
 * deeper a page nests): text and character references come with their source indices; hidden
 * elements are counted by name, since no tree is needed to know whether text is inside one.
 */
export const htmlVisible = (html: string, xhtml: boolean): MappedText => {
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
  tokenizeHtml(html, {
    ontext(start, end) {
      // At the end of the input the tokenizer reports the rest of a tag left open after its `/`
      // (`word<a/`) as a section it never opened (start -1); a browser drops such a tag.
      if (start < 0) return
      if (hidden === 0 && end > start) b.verbatim(html.slice(start, end), start)
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
    }
  })
  return b.done()
}
