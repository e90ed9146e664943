/**
 * Our port of htmlparser2's tokenizer (src/domain/HtmlTokenizer.ts, HTML mode without decoding)
 * must report every callback htmlparser2's own `Tokenizer` reports there, with the same
 * arguments, in the same order, on any input.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { Tokenizer } from "htmlparser2"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { bigPage } from "../../bench/ingest.js"
import { type TokenizerCallbacks, tokenizeUndecoded } from "../../src/domain/HtmlTokenizer.js"

type Call = ReadonlyArray<string | number>

const NAMES = [
  "onattribdata", "onattribentity", "onattribend", "onattribname", "oncdata", "onclosetag", "oncomment",
  "ondeclaration", "onend", "onopentagend", "onopentagname", "onprocessinginstruction", "onselfclosingtag", "ontext",
  "ontextentity"
] as const

/** Callbacks that record each call with its arguments. */
const recorder = (calls: Array<Call>): TokenizerCallbacks => {
  const cbs: Record<string, (...args: Array<number>) => void> = {}
  for (const name of NAMES) cbs[name] = (...args) => calls.push([name, ...args])
  return cbs as unknown as TokenizerCallbacks
}

/** The reference: htmlparser2's tokenizer, HTML mode, no decoding, one write then end. */
const byHtmlparser2 = (html: string): Array<Call> => {
  const calls: Array<Call> = []
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: false }, recorder(calls))
  tokenizer.write(html)
  tokenizer.end()
  return calls
}

const byPort = (html: string): Array<Call> => {
  const calls: Array<Call> = []
  tokenizeUndecoded(html, recorder(calls))
  return calls
}

/** Single characters that change the tokenizer's state, whitespace of every kind, and ones that match only by `| 0x20`. */
const CHARS = [
  "<", ">", "/", "!", "?", "-", "[", "]", "=", "\"", "'", "&", ";", " ", "\t", "\n", "\f", "\r", "\v", "\u001c",
  "\u000f", "\u0000", "a", "B", "c", "s", "S", "t", "T", "x", "X", "i", "e", "m", "p", "r", "0", "é", "😀"
]
const NAMES_OF_TAGS = [
  "script", "SCRIPT", "Script", "style", "STYLE", "title", "Title", "textarea", "TEXTAREA", "xmp", "XMP", "xitle", "tmp",
  "xextarea", "scrip", "scripts", "styl", "s", "t", "x", "a", "A", "p", "div", "svg", "x:y", "custom-el", "sc\u001cript"
]
const ATTRS = [
  "", " a", " a=b", " a=\"b\"", " a='b'", " a = \"b\"", " a=b/", " =x", " a=>", " a=\"\"", " \"x\"", " a\"b", " a=b c=d",
  " A='x y'", "\ta\n=\fb", " a/", " / ", "/", " a='", " a=\"", " a=", " a=b'c", " a='<'", " a=\">\"", " a=&amp;", "/x"
]
const SNIPPETS = [
  "<", "</", "<!", "<!-", "<!--", "-->", "--", "->", "--->", "--!>", "<!-->", "<!--->", "<![CDATA[", "<![cdata[", "<![CDAT",
  "<![", "]]>", "]]", "]]]>", "<?", "?>", "<?xml x?>", "<!doctype html>", "<!DOCTYPE", "<!x>", "<!>", ">", "/>", "< ",
  "<<", "</>", "</ >", "</ x>", "</1>", "</&", "<!&", "<?&", "<1", "<é", "</scrip", "</script x>", "</script\t>",
  "</script/>", "</script", "</SCRIPT>", "<</script>", "\u001c\u000fscript>", "\u001c/style>", "</styl>", "</style >",
  "</title >", "</TITLE>", "</textarea\n>", "</xmp>", "</xmp", "</tmp>", "</xitle>", "</a b>", "</a", "</a/>", "&amp;"
]

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...NAMES_OF_TAGS), fc.array(fc.constantFrom(...ATTRS), { maxLength: 3 }), fc.constantFrom("", "/", " /", "/ "), fc.constantFrom(">", "", " >")).map(([t, a, s, e]) => `<${t}${a.join("")}${s}${e}`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...NAMES_OF_TAGS), fc.constantFrom(">", " >", "\t>", "/>", " x>", "", "\f>")).map(([t, e]) => `</${t}${e}`) },
  { weight: 3, arbitrary: fc.constantFrom(...SNIPPETS) },
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...CHARS), { maxLength: 8 }).map((cs) => cs.join("")) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }
)
const soup = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""))

const RAW_TEXT = ["script", "SCRIPT", "Script", "style", "STYLE", "title", "TITLE", "textarea", "xmp", "xitle", "tmp"]
/**
 * A near-miss of an end tag: `<` and `/` as written or as U+001C and U+000F (equal to them
 * under `| 0x20`, as the tokenizer compares), a raw-text element's name whole, cut short or
 * cased otherwise, and what follows it.
 */
const nearEndTag = fc.tuple(
  fc.constantFrom("<", "\u001c", "<<", "<\u001c", "\u001c<", "x", ""),
  fc.constantFrom("/", "\u000f", "", "//"),
  fc.constantFrom(...RAW_TEXT).chain((name) => fc.nat({ max: name.length }).map((n) => name.slice(0, name.length - n))),
  fc.constantFrom(">", " >", "\t", "\n", "", "x>", "/>", "\f>", "\r>")
).map((parts) => parts.join(""))
/** A raw-text element's start tag and a body dense in near-miss end tags. */
const rawText = fc.tuple(
  fc.constantFrom(...RAW_TEXT),
  fc.constantFrom("", " a=b", " a='>'", "/", " /"),
  fc.array(fc.oneof(nearEndTag, fc.constantFrom(...CHARS)), { maxLength: 12 })
).map(([t, a, body]) => `<${t}${a}>${body.join("")}`)

/** The development set's pages, when this clone sits beside it (a user's clone does not). */
const PAGES = path.resolve("../shared/extraction/pages")

describe("HTML tokenizer port", () => {
  it.prop("reports htmlparser2's tokenizer's callbacks and arguments", [soup], ([html]) => {
    expect(byPort(html)).toEqual(byHtmlparser2(html))
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("in raw-text elements (script, style, title, textarea, xmp) with near-miss end tags", [fc.array(fc.oneof(rawText, soup), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""))], ([html]) => {
    expect(byPort(html)).toEqual(byHtmlparser2(html))
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("on any string of tokenizer-significant characters", [fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }).map((cs) => cs.join(""))], ([html]) => {
    expect(byPort(html)).toEqual(byHtmlparser2(html))
  }, { fastCheck: { numRuns: 2000 } })

  it("on the ends of inputs: every prefix of a page with each construct", () => {
    const html = "<!doctype html><?pi x?><html lang=en><head><title>T &amp; <b></title><style>a</s</style>" +
      "<script type='x'>if (a </script) {}</SCRIPT ></head><body class=\"c d\" hidden a=b/><!-- c --><![CDATA[d]]>" +
      "<textarea>x</textarea ><xmp>y</xmp></a b><p/><br / ><!--->x<!x y>z</ >w</>v<</p >"
    for (let n = 0; n <= html.length; n++) expect(byPort(html.slice(0, n))).toEqual(byHtmlparser2(html.slice(0, n)))
  })

  it("on the ingest bench's 2 MiB page", () => {
    const html = bigPage()
    expect(byPort(html)).toEqual(byHtmlparser2(html))
  })

  // Skipped when the development set is not there (a user's clone has no ../shared).
  it.skipIf(!fs.existsSync(PAGES))("on every page of the development set", () => {
    const decoder = new TextDecoder("utf-8")
    const pages = fs.readdirSync(PAGES).filter((f) => f.endsWith(".html.gz")).sort()
    expect(pages.length).toBeGreaterThan(0)
    for (const page of pages) {
      const html = decoder.decode(zlib.gunzipSync(fs.readFileSync(path.join(PAGES, page))))
      const port = byPort(html)
      const reference = byHtmlparser2(html)
      // One comparison per page, its name in the message (a deep diff of 10⁵ calls is slow to print).
      expect(port.length, page).toBe(reference.length)
      for (let k = 0; k < port.length; k++) {
        if (port[k]!.join() !== reference[k]!.join()) expect([page, k, port[k]]).toEqual([page, k, reference[k]])
      }
    }
  }, 120_000)
})
