/**
 * The readable copy's tree builder (src/domain/readable/html.ts) reads a page with htmlparser2's
 * `Parser`: on any input it must report the same elements, attributes (the kept ones), closes and
 * text, in the same order, as `Parser` does, and leave what the page leaves open to the tree.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { Parser } from "htmlparser2"
import { collapseWhitespace } from "../../src/domain/Quote.js"
import { type Attribs, readElements } from "../../src/domain/readable/html.js"
import { escapeInline } from "../../src/domain/readable/inline.js"
import { type El, parsePage, textContent } from "../../src/domain/readable/tree.js"

const KEPT = ["class", "id", "itemprop", "role", "hidden", "aria-hidden", "style", "href", "start"] as const

type Event = readonly ["open", string, Record<string, string>] | readonly ["close"] | readonly ["text", string]

/** Adjacent text events as one (both builders' trees join them). */
const push = (events: Array<Event>, e: Event) => {
  const last = events[events.length - 1]
  if (e[0] === "text" && last !== undefined && last[0] === "text") events[events.length - 1] = ["text", last[1] + e[1]]
  else events.push(e)
}

const kept = (attribs: Attribs | Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const k of KEPT) {
    const v = (attribs as Record<string, string | undefined>)[k]
    if (v !== undefined) out[k] = v
  }
  return out
}

/** The reference: htmlparser2's own `Parser`. */
const byParser = (html: string): Array<Event> => {
  const events: Array<Event> = []
  let ended = false
  const parser = new Parser({
    onopentag: (name, attribs) => push(events, ["open", name, kept(attribs)]),
    onclosetag: () => {
      if (!ended) push(events, ["close"])
    },
    ontext: (data) => push(events, ["text", data]),
    onend: () => {}
  })
  parser.write(html)
  // `end` reports the text left at the end, then closes what is still open: the tree builder
  // closes those itself, after the last event.
  ended = true
  parser.end()
  return events
}

const byTokenizer = (html: string): Array<Event> => {
  const events: Array<Event> = []
  readElements(html, {
    open: (name, attribs) => push(events, ["open", name, kept(attribs)]),
    close: () => push(events, ["close"]),
    text: (data) => push(events, ["text", data])
  })
  return events
}

const TAGS = [
  "p",
  "P",
  "div",
  "li",
  "ul",
  "ol",
  "a",
  "br",
  "BR",
  "hr",
  "img",
  "table",
  "tr",
  "td",
  "th",
  "thead",
  "tbody",
  "tfoot",
  "svg",
  "math",
  "path",
  "title",
  "desc",
  "mi",
  "foreignObject",
  "select",
  "option",
  "optgroup",
  "input",
  "button",
  "textarea",
  "dd",
  "dt",
  "rt",
  "rp",
  "h1",
  "h6",
  "body",
  "head",
  "script",
  "style",
  "pre",
  "span",
  "section",
  "custom-el",
  "x:y"
]
const ATTRS = [
  "",
  " href=\"?a=1&copy=2&amp;b\"",
  " href='&notin'",
  " class=&amp;x",
  " href=\"&notin\"",
  " id=\"&am\"",
  " href=&not",
  " class=\"&#65&#x42;&#\"",
  " class=\"c\"",
  " CLASS='a b'",
  " id=x",
  " href=\"/a?b=1&amp;c\"",
  " href",
  " hidden",
  " aria-hidden=\"true\"",
  " style=\"display:none\"",
  " role=main",
  " start=3",
  " class=a class=b",
  " data-x=\"1\"",
  " itemprop=articleBody",
  " href=\"&lt;&#x41;\""
]
const tag = fc.constantFrom(...TAGS)
const piece = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(tag, fc.constantFrom(...ATTRS), fc.boolean()).map(([t, a, self]) =>
      `<${t}${a}${self ? "/" : ""}>`
    )
  },
  { weight: 3, arbitrary: tag.map((t) => `</${t}>`) },
  { weight: 3, arbitrary: fc.string({ maxLength: 10 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "&amp;",
      "&nbsp;",
      "&#128512;",
      "&bogus;",
      "<!-- c -->",
      "<![CDATA[x]]>",
      "<!doctype html>",
      "<?xml x?>",
      "<",
      ">",
      "</",
      "<a",
      "<div class=\"x",
      "&"
    )
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "&amp",
      "&notin",
      "&noti",
      "&not",
      "&#65",
      "&#x41",
      "&#",
      "&#x",
      "&ampx",
      "&am",
      "&NotEqualTilde;",
      "&#xD800;",
      "&#0;",
      "<title>",
      "</title>",
      "<textarea>",
      "</textarea>",
      "<xmp>",
      "</xmp>",
      "<script>",
      "</script>",
      "<style>",
      "</&",
      "<!&",
      "<?&",
      "< &amp;"
    )
  }
)
const soup = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(""))

describe("readable copy: tree builder", () => {
  it.prop("reports what htmlparser2's Parser reports", [soup], ([html]) => {
    expect(byTokenizer(html)).toEqual(byParser(html))
  }, { fastCheck: { numRuns: 5000 } })

  it("implied closes, void and foreign self-closing tags, </p> and </br>", () => {
    const cases = [
      "<p>a<div>b</div><li>c<li>d</ul>",
      "<table><tr><td>1<td>2<tr><th>3</table>",
      "<svg><path/><g>x</g></svg><div/>after",
      "</p></br><br/>x",
      "<select><option>a<option>b</select>",
      "<a HREF='/x' href='/y' Class=k>t</a>"
    ]
    for (const html of cases) expect(byTokenizer(html)).toEqual(byParser(html))
  })

  // Text pieces around what render rewrites: whitespace runs and kinds, Markdown syntax, entities.
  const textPiece = fc.constantFrom(
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u00a0",
    "\u2003",
    "\u3000",
    "\ufeff",
    "*",
    "`",
    "_x",
    "x_",
    "~",
    "~~",
    "\\",
    "\\*",
    "]",
    "](",
    "<",
    "<b",
    "&lt;",
    "&amp;",
    "&nbsp;",
    "&#x2003;",
    "a",
    "b c",
    "日本、",
    ",",
    "\u0001"
  )
  const textSoup = fc.array(fc.oneof(piece, textPiece, textPiece), { maxLength: 60 }).map((parts) => parts.join(""))

  it.prop("text the tree marks plain is what collapsing and escaping leave as it is", [textSoup], ([html]) => {
    const page = parsePage(html)
    if (page === undefined) return
    for (const el of page.all) {
      if (!el.plainText) continue
      for (const c of el.children) {
        if (typeof c !== "number") continue
        const text = page.texts.of(c)
        expect(escapeInline(collapseWhitespace(text))).toBe(text)
      }
    }
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("the tree's text nodes (ranges of the page, decoded strings, joined runs) hold the text Parser reports", [
    soup
  ], ([html]) => {
    const page = parsePage(html)
    if (page === undefined) return
    let expected = ""
    for (const e of byParser(html)) {
      if (e[0] === "text") expected += e[1]
      else if (e[0] === "open" && e[1] === "br") expected += "\n"
    }
    expect(textContent(page.texts, page.root, false)).toBe(expected)
  }, { fastCheck: { numRuns: 2000 } })

  it("a page with more text nodes than its tags suggest keeps every one (decoded references)", () => {
    // A `&` after the last `>` makes the tokenizer decode: each reference is a text event of its
    // own and each joined run a new text node, far past the store's first estimate.
    const html = `<p>${"a&amp;b ".repeat(2000)}</p>&`
    const page = parsePage(html)!
    expect(textContent(page.texts, page.root, false)).toBe(`${"a&b ".repeat(2000)}&`)
  })

  it.prop("each element's subtree is Page.all from its order to its end", [soup], ([html]) => {
    const page = parsePage(html)
    if (page === undefined) return
    for (const el of page.all) {
      let end = el.order + 1
      while (end < page.all.length && isInside(page.all[end]!, el)) end++
      expect(el.end).toBe(end)
    }
  }, { fastCheck: { numRuns: 1000 } })
})

const isInside = (el: El, ancestor: El): boolean => {
  for (let p = el.parent; p !== undefined; p = p.parent) if (p === ancestor) return true
  return false
}
