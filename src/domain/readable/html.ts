/**
 * The elements of a page as htmlparser2's `Parser` reports them (the parser cheerio uses): its
 * implied closes, void elements and foreign (SVG, MathML) self-closing tags, its decoding of
 * character references. Of each element's attributes the tree keeps the few the readable copy
 * reads (`Attribs`), in one shape; elements with none of them share `NO_ATTRIBS`.
 */
import { htmlParser, tokenizeHtml } from "../HtmlText.js"

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
  /** Read for a link that repeats another for the mouse (chrome.ts). */
  readonly tabindex?: string | undefined
  /** Read for an accordion's control and the panel it opens (accordions.ts). */
  readonly "aria-controls"?: string | undefined
  readonly "aria-expanded"?: string | undefined
  /** Read for a control that opens a menu or a list to pick from, not a panel (faqs.ts). */
  readonly "aria-haspopup"?: string | undefined
  /** Read for a panel that names the control opening it (accordions.ts). */
  readonly "aria-labelledby"?: string | undefined
  /** Read for a control that dismisses a notice, named only for screen readers (notices.ts). */
  readonly "aria-label"?: string | undefined
  /** Read for a box a script has not filled yet (fillers.ts). */
  readonly "aria-busy"?: string | undefined
  /** Read for a status message a script shows as the reader acts (notices.ts). */
  readonly "aria-live"?: string | undefined
  /** Read for a consent banner drawn as a modal dialog (consents.ts). */
  readonly "aria-modal"?: string | undefined
  /** Read for a picture that is a smiley in a line of text (chrome.ts). */
  readonly alt?: string | undefined
  /** Read for the front matter (meta.ts): `<meta>`, `<link rel=canonical>`, `<html lang>`, JSON-LD scripts. */
  readonly name?: string | undefined
  readonly property?: string | undefined
  readonly content?: string | undefined
  readonly "http-equiv"?: string | undefined
  readonly rel?: string | undefined
  readonly lang?: string | undefined
  readonly "xml:lang"?: string | undefined
  readonly type?: string | undefined
  /** Read for the front matter's microdata (meta.ts): an item's scope and type, a date's machine form, an `abbr`'s full date. */
  readonly itemscope?: string | undefined
  readonly itemtype?: string | undefined
  readonly datetime?: string | undefined
  readonly title?: string | undefined
  /** Read for a box a template shows only once a state flag is set (notices.ts). */
  readonly "v-if"?: string | undefined
  readonly "v-show"?: string | undefined
  readonly "x-show"?: string | undefined
}

type AttribName = keyof Attribs

type KeptAttribs = { -readonly [K in AttribName]-?: string | undefined }

/** One shape for every element's kept attributes. */
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
  tabindex: undefined,
  "aria-controls": undefined,
  "aria-expanded": undefined,
  "aria-haspopup": undefined,
  "aria-labelledby": undefined,
  "aria-label": undefined,
  "aria-busy": undefined,
  "aria-live": undefined,
  "aria-modal": undefined,
  alt: undefined,
  name: undefined,
  property: undefined,
  content: undefined,
  "http-equiv": undefined,
  rel: undefined,
  lang: undefined,
  "xml:lang": undefined,
  type: undefined,
  itemscope: undefined,
  itemtype: undefined,
  datetime: undefined,
  title: undefined,
  "v-if": undefined,
  "v-show": undefined,
  "x-show": undefined
})

/** The attributes of every element that has none of the kept ones: shared, never written. */
export const NO_ATTRIBS: Attribs = keptAttribs()

/** The names `keptAttribs` has a place for. */
const KEPT: ReadonlySet<string> = new Set(Object.keys(keptAttribs()))

/** What the tree builder is told, in `Parser`'s order: `open` at the end of a start tag, `close` at each (implied) end. */
export interface TreeEvents {
  open(name: string, attribs: Attribs): void
  close(): void
  /** Text with references decoded; adjacent texts may come in several calls. */
  text(data: string): void
}

/** The kept attributes of an element, as `Parser` reports them (names lowercased, the first of duplicates). */
const keptOf = (attributes: Record<string, string>): Attribs => {
  let kept: KeptAttribs | undefined
  for (const name in attributes) {
    if (KEPT.has(name)) (kept ??= keptAttribs())[name as AttribName] = attributes[name]
  }
  return kept ?? NO_ATTRIBS
}

/** Parse `html` with htmlparser2's `Parser`, telling `events` its elements and text. */
export const readElements = (html: string, events: TreeEvents): void => {
  /** What the page leaves open at its end is closed by the tree builder itself, not by `Parser`'s end. */
  let ended = false
  const parser = new (htmlParser())({
    onopentag(name, attributes) {
      events.open(name, keptOf(attributes))
    },
    onclosetag() {
      if (!ended) events.close()
    },
    ontext(data) {
      events.text(data)
    }
  })
  parser.write(html)
  ended = true
  // Reports the text the page ends with.
  parser.end()
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
