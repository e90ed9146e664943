/**
 * The elements of a page as htmlparser2's `Parser` reports them (the parser cheerio uses), driven
 * from its low-level `Tokenizer`: the same implied closes, void elements and foreign (SVG, MathML)
 * self-closing tags, so the tree is the one `Parser` gives. What `Parser` does and this does not:
 * it keeps its stack of open elements with `unshift`/`shift` (a cost per tag that grows with the
 * depth), and it builds every attribute's name and value as strings into an object per element;
 * here only the few attributes the readable copy reads (`Attribs`) are sliced out of the page,
 * into one fixed-shape object, and elements with none of them share `NO_ATTRIBS`.
 *
 * The tables below (`OPEN_IMPLIES_CLOSE`, `VOID`, `FOREIGN`, `HTML_INTEGRATION`) and the rules of
 * `openTag`, `closeTag` and `selfClosingTag` are copied from htmlparser2 10.1.0's `Parser.js`
 * (MIT licence, copyright 2010–2016 Chris Winberg and contributors).
 *
 * Over 400 lines: one tokenizer-driven builder whose implied-close tables and handlers must match
 * `Parser` together.
 */
import { loadEntityDecoders, tokenizeHtml } from "../HtmlText.js"

/** The attributes the readable copy reads (lowercase names; the first of duplicates wins, as in `Parser`). */
export interface Attribs {
  readonly class?: string | undefined
  readonly id?: string | undefined
  readonly itemprop?: string | undefined
  readonly role?: string | undefined
  readonly hidden?: string | undefined
  readonly "aria-hidden"?: string | undefined
  readonly style?: string | undefined
  readonly href?: string | undefined
  readonly start?: string | undefined
  /** Read for the front matter (meta.ts): `<meta>`, `<link rel=canonical>`, `<html lang>`, JSON-LD scripts. */
  readonly name?: string | undefined
  readonly property?: string | undefined
  readonly content?: string | undefined
  readonly "http-equiv"?: string | undefined
  readonly rel?: string | undefined
  readonly lang?: string | undefined
  readonly "xml:lang"?: string | undefined
  readonly type?: string | undefined
}

type AttribName = keyof Attribs

type KeptAttribs = { -readonly [K in AttribName]-?: string | undefined }

/**
 * One fixed shape for every element's attributes (reads of `attribs.x` stay monomorphic), made by
 * an object literal: V8 allocates a literal whose objects live on straight in the old generation.
 */
const keptAttribs = (): KeptAttribs => ({
  class: undefined,
  id: undefined,
  itemprop: undefined,
  role: undefined,
  hidden: undefined,
  "aria-hidden": undefined,
  style: undefined,
  href: undefined,
  start: undefined,
  name: undefined,
  property: undefined,
  content: undefined,
  "http-equiv": undefined,
  rel: undefined,
  lang: undefined,
  "xml:lang": undefined,
  type: undefined
})

/** The attributes of every element that has none of the kept ones: shared, never written. */
export const NO_ATTRIBS: Attribs = keptAttribs()

const KEPT: ReadonlySet<string> = new Set<AttribName>([
  "class",
  "id",
  "itemprop",
  "role",
  "hidden",
  "aria-hidden",
  "style",
  "href",
  "start",
  "name",
  "property",
  "content",
  "http-equiv",
  "rel",
  "lang",
  "xml:lang",
  "type"
])
/** Lengths of the kept names: an attribute of another length is never sliced out of the page. */
const KEPT_LENGTH = new Set([...KEPT].map((n) => n.length))

/** What the tree builder is told, in `Parser`'s order: `open` at the end of a start tag, `close` at each (implied) end. */
export interface TreeEvents {
  open(name: string, attribs: Attribs): void
  close(): void
  /** Text with references decoded (or joined), as a string. */
  text(data: string): void
  /** Text as written in the page, from `start` to `end` (nothing in it to decode). */
  textAt(start: number, end: number): void
}

const P = new Set(["p"])
const FORM = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"])
const TABLE_SECTION = new Set(["thead", "tbody"])
const DD_DT = new Set(["dd", "dt"])
const RT_RP = new Set(["rt", "rp"])

/** Open elements closed by opening this one. */
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["li", new Set(["li"])],
  ["p", P],
  ["h1", P],
  ["h2", P],
  ["h3", P],
  ["h4", P],
  ["h5", P],
  ["h6", P],
  ["select", FORM],
  ["input", FORM],
  ["output", FORM],
  ["button", FORM],
  ["datalist", FORM],
  ["textarea", FORM],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", DD_DT],
  ["dt", DD_DT],
  ["address", P],
  ["article", P],
  ["aside", P],
  ["blockquote", P],
  ["details", P],
  ["div", P],
  ["dl", P],
  ["fieldset", P],
  ["figcaption", P],
  ["figure", P],
  ["footer", P],
  ["form", P],
  ["header", P],
  ["hr", P],
  ["main", P],
  ["nav", P],
  ["ol", P],
  ["pre", P],
  ["section", P],
  ["table", P],
  ["ul", P],
  ["rt", RT_RP],
  ["rp", RT_RP],
  ["tbody", TABLE_SECTION],
  ["tfoot", TABLE_SECTION]
])

export const VOID = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr"
])
const FOREIGN = new Set(["math", "svg"])
const HTML_INTEGRATION = new Set(["mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignobject", "desc", "title"])

/**
 * What the rules above say about a tag name, looked up once per tag instead of once per rule.
 * A name is in a table only if it is in `KNOWN`, so an unknown name has all of them false.
 */
interface Tag {
  readonly name: string
  readonly isVoid: boolean
  readonly isForeign: boolean
  readonly isIntegration: boolean
  readonly implied: ReadonlySet<string> | undefined
}

const tagOf = (name: string): Tag => ({
  name,
  isVoid: VOID.has(name),
  isForeign: FOREIGN.has(name),
  isIntegration: HTML_INTEGRATION.has(name),
  implied: OPEN_IMPLIES_CLOSE.get(name)
})

/**
 * The tags a page is mostly made of, their names as constants: an element keeps its name for
 * as long as the tree lives, and a name sliced from the page would be copied through the young
 * generation with it.
 */
const KNOWN = new Map<string, Tag>()
for (
  const name of [
    ...VOID,
    ...FOREIGN,
    ...HTML_INTEGRATION,
    ...OPEN_IMPLIES_CLOSE.keys(),
    ...FORM,
    "a",
    "abbr",
    "b",
    "bdi",
    "bdo",
    "caption",
    "center",
    "cite",
    "code",
    "colgroup",
    "data",
    "dfn",
    "em",
    "font",
    "head",
    "html",
    "i",
    "ins",
    "kbd",
    "del",
    "label",
    "legend",
    "li",
    "mark",
    "menu",
    "noscript",
    "picture",
    "q",
    "s",
    "samp",
    "script",
    "small",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "template",
    "time",
    "u",
    "var",
    "video",
    "audio",
    "iframe",
    "canvas",
    "figure",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "dl",
    "dt",
    "dd",
    "hgroup",
    "search"
  ]
) KNOWN.set(name, tagOf(name))

const P_TAG = KNOWN.get("p")!

/** Run the tokenizer over `html`, telling `events` the elements and text `Parser` would report. */
export const readElements = (html: string, events: TreeEvents): void => {
  /** Open elements' tags, innermost last. */
  const stack: Array<Tag> = []
  /** Whether a self-closing tag closes its element here (SVG, MathML), innermost last. */
  const foreign: Array<boolean> = [false]
  /** Tags of names not in `KNOWN` met on this page. */
  const unknown = new Map<string, Tag>()
  let tag = P_TAG
  let attribs: KeptAttribs | undefined
  /** The kept attribute being read (`undefined`: one that is not kept), and its value so far. */
  let attribName: AttribName | undefined
  let attribValue = ""

  const closeTop = () => {
    stack.pop()
    events.close()
  }
  const openTag = (t: Tag) => {
    const implied = t.implied
    if (implied !== undefined) { while (stack.length > 0 && implied.has(stack[stack.length - 1]!.name)) closeTop() }
    if (!t.isVoid) {
      stack.push(t)
      if (t.isForeign) foreign.push(true)
      else if (t.isIntegration) foreign.push(false)
    }
    tag = t
    attribs = undefined
  }
  const endOpenTag = () => {
    events.open(tag.name, attribs ?? NO_ATTRIBS)
    attribs = undefined
    if (tag.isVoid) events.close()
  }
  /** The element just opened is closed too (a self-closing foreign tag, or `</p>` with no `p` open). */
  const closeCurrent = () => {
    const name = tag.name
    endOpenTag()
    if (stack[stack.length - 1]?.name === name) closeTop()
  }
  const tagAt = (start: number, end: number): Tag => {
    let raw = html.slice(start, end)
    let t = KNOWN.get(raw) ?? KNOWN.get(raw = raw.toLowerCase()) ?? unknown.get(raw)
    if (t === undefined) {
      t = tagOf(raw)
      unknown.set(raw, t)
    }
    return t
  }
  /** The tag an end tag names: most close the innermost open element, written as it was opened. */
  const closingTagAt = (start: number, end: number): Tag => {
    const top = stack[stack.length - 1]
    if (top !== undefined && top.name.length === end - start && html.startsWith(top.name, start)) return top
    return tagAt(start, end)
  }

  // The tokenizer reports text and attribute values as written (it skips through text faster
  // so); they are decoded here as it decodes them: by the same decoder, which sees the same next
  // character (a value's closing quote, the `<` after text). Text inside `script`, `style`,
  // `textarea` and `xmp` is never decoded; a `title`'s is decoded by the tokenizer itself. What
  // the page leaves unfinished at its end (`<!x`, `</&`…) is reported as text, undecoded: a page
  // with a `&` after its last `>` is tokenized with decoding instead.
  /** Whether the tokenizer runs without decoding (and this decodes what it reports). */
  const undecoded = html.indexOf("&", html.lastIndexOf(">") + 1) < 0
  const decode = loadEntityDecoders()
  /** The raw-text element the tokenizer is inside (its text ends at its end tag), if any. */
  let special: "title" | "raw" | undefined
  /** Where the attribute value being read ends in the page (the character after it ends it). */
  let attribEnd = 0
  /** The first `&` at or after `from` (the page's length if none); texts come in page order, so it is looked for again only once passed. */
  const amp = (from: number): number => {
    const at = html.indexOf("&", from)
    return at < 0 ? html.length : at
  }
  let nextAmp = -1
  /** `s` (written in the page up to `end`) decoded with what follows it there. */
  const decodedAt = (s: string, end: number, decoder: (s: string) => string): string =>
    end < html.length ? decoder(s + html[end]!).slice(0, -1) : decoder(s)
  tokenizeHtml(html, {
    ontext(start, end) {
      if (nextAmp < start) nextAmp = amp(start)
      if (!undecoded || special === "raw" || nextAmp >= end) {
        // (What the tokenizer reports at the page's end can lie outside it: kept as the slice it gives.)
        return start >= 0 && start <= end && end <= html.length
          ? events.textAt(start, end)
          : events.text(html.slice(start, end))
      }
      const data = html.slice(start, end)
      // In a title, a `<` changes how the tokenizer reads what follows it (a possible end tag).
      events.text(
        special === "title" && data.indexOf("<") >= 0 ? decodedTitle(data) : decodedAt(data, end, decode.text)
      )
    },
    ontextentity(cp) {
      events.text(String.fromCodePoint(cp))
    },
    onopentagname(start, end) {
      openTag(tagAt(start, end))
    },
    onattribname(start, end) {
      attribName = undefined
      attribValue = ""
      if (!KEPT_LENGTH.has(end - start)) return
      const written = html.slice(start, end)
      const name = KEPT.has(written) ? written : written.toLowerCase()
      if (KEPT.has(name) && (attribs === undefined || attribs[name as AttribName] === undefined)) {
        attribName = name as AttribName
      }
    },
    onattribdata(start, end) {
      if (attribName === undefined) return
      attribValue += html.slice(start, end)
      attribEnd = end
    },
    onattribentity(cp) {
      if (attribName !== undefined) attribValue += String.fromCodePoint(cp)
    },
    onattribend() {
      if (attribName === undefined) return
      attribs ??= keptAttribs()
      attribs[attribName] = undecoded && attribValue.indexOf("&") >= 0
        ? decodedAt(attribValue, attribEnd, decode.attribute)
        : attribValue
      attribName = undefined
      attribValue = ""
    },
    onopentagend() {
      endOpenTag()
      const name = tag.name
      if (name === "title") special = "title"
      else if (name === "script" || name === "style" || name === "textarea" || name === "xmp") special = "raw"
    },
    onselfclosingtag() {
      if (foreign[foreign.length - 1] === true) closeCurrent()
      else endOpenTag()
    },
    onclosetag(start, end) {
      special = undefined
      const t = closingTagAt(start, end)
      const name = t.name
      if (t.isForeign || t.isIntegration) foreign.pop()
      if (!t.isVoid) {
        let at = stack.length - 1
        while (at >= 0 && stack[at]!.name !== name) at--
        if (at >= 0) { while (stack.length > at) closeTop() }
        else if (name === "p") {
          // `</p>` with no `p` open is an empty paragraph.
          openTag(P_TAG)
          closeCurrent()
        }
      } else if (name === "br") {
        // `</br>` is a line break.
        events.open("br", NO_ATTRIBS)
        events.close()
      }
    }
  }, !undecoded)
}

/**
 * The page with each CDATA section the tokenizer would meet in HTML content (outside raw text)
 * made a bogus comment, as a browser reads it (HTML's "CDATA in HTML content" parse error): it
 * ends at the first `>`, not at `]]>`. htmlparser2 reads it as CDATA to `]]>`, so a stray
 * `<![CDATA[` at the top of a body (a template's leftover) swallowed the whole page. `<![` becomes
 * `<?[` (a processing instruction to htmlparser2, which also ends at the first `>`): the same
 * length, so every offset stays. Only CDATA inside SVG or MathML is real CDATA, and those are dropped.
 */
export const cdataAsComments = (html: string): string => {
  if (html.indexOf("<![CDATA[") < 0) return html
  const at: Array<number> = []
  tokenizeHtml(html, {
    oncdata(start) {
      at.push(start - "<![CDATA[".length)
    }
  }, false)
  if (at.length === 0) return html
  let out = ""
  let from = 0
  for (const i of at) {
    out += `${html.slice(from, i)}<?`
    from = i + 2
  }
  return out + html.slice(from)
}

/** A title's text decoded by the tokenizer itself, inside a title as on the page (its rules there differ slightly from text's). */
const decodedTitle = (data: string): string => {
  const html = `<title>${data}</title>`
  let out = ""
  tokenizeHtml(html, {
    ontext(start, end) {
      out += html.slice(start, end)
    },
    ontextentity(cp) {
      out += String.fromCodePoint(cp)
    }
  })
  return out
}
