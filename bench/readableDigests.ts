/**
 * Byte-identity check for changes that must not change the readable copy (speedups): the SHA-256
 * of the readable copy of every development-set page (`../shared/extraction/`), of the ingest
 * bench's 2 MiB page, of deep and seeded random tag-soup pages, and of the WARC records of a fixed
 * two-hop fetch. `node scripts/run-ts.mjs bench/readableDigests.ts <file> write` stores them;
 * `node scripts/run-ts.mjs bench/readableDigests.ts <file>` compares and exits 1 on a difference.
 * Not part of `npm run bench`.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { htmlToMarkdown, readableCopyBytes } from "../src/domain/Readable.js"
import { warcRecords } from "../src/domain/Warc.js"
import { bigPage } from "./ingest.js"

const SET = path.resolve("../shared/extraction")
const out: Record<string, string> = {}
const sha = (b: string | Uint8Array) => createHash("sha256").update(b).digest("hex")
const add = (name: string, html: string, url: string) => {
  const md = htmlToMarkdown(html, url)
  const bytes = readableCopyBytes("html", html, url)
  if (!Buffer.from(md, "utf8").equals(bytes)) throw new Error(`bytes differ from string for ${name}`)
  out[name] = sha(bytes)
}
const index = JSON.parse(fs.readFileSync(path.join(SET, "cases.json"), "utf8")) as Record<string, { page: string }>
for (const [url, c] of Object.entries(index)) {
  add(c.page, new TextDecoder("utf-8").decode(zlib.gunzipSync(fs.readFileSync(path.join(SET, "pages", c.page)))), url)
}
add("bigPage", bigPage(), "http://bench.test:1/article")
add("deep600", "<div>".repeat(600) + "deep text, with commas, here" + "</div>".repeat(600), "https://e.org/")
add(
  "deep511",
  "<body>" + "<div>".repeat(509) + "<p>deep text, with commas, here and some more to be a paragraph</p>" +
    "</div>".repeat(509),
  "https://e.org/"
)
add(
  "deepInline",
  "<p>" + "<span>".repeat(400) + "x, y, z ".repeat(40) + "<a href='/q'>link</a>" + "</span>".repeat(400),
  "https://e.org/"
)
// Seeded random pages over a tag soup.
let seed = 12345
const rnd = (n: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed % n
}
const TAGS = [
  "div",
  "p",
  "a",
  "span",
  "em",
  "ul",
  "li",
  "ol",
  "table",
  "tr",
  "td",
  "th",
  "pre",
  "code",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "br",
  "hr",
  "section",
  "article",
  "main",
  "nav",
  "footer",
  "header",
  "aside",
  "script",
  "style",
  "img",
  "b",
  "i",
  "dl",
  "dt",
  "dd",
  "tbody",
  "thead",
  "form",
  "title",
  "base",
  "figure",
  "figcaption"
]
const ATTRS = [
  " class=\"content\"",
  " class=\"sidebar\"",
  " id=\"main\"",
  " href=\"/x?y=1\"",
  " href=\"https://o.example/a b\"",
  " href=\"javascript:x\"",
  " hidden",
  " style=\"display:none\"",
  " role=\"navigation\"",
  " class=\"byline\"",
  " class=\"language-js\"",
  " start=\"3\"",
  " href=\"../up\"",
  " class=\"comment\"",
  " itemprop=\"articleBody\"",
  ""
]
const WORDS = [
  "alpha",
  "beta,",
  "gamma.",
  "&amp;",
  "&nbsp;",
  "&lt;x&gt;",
  "  \n ",
  "Ünïcode",
  "日本語、",
  "[brackets]",
  "|pipe|",
  "`tick`",
  "```",
  "*star*",
  "\t",
  "long sentence of prose that goes on, and on, with commas, to count as a paragraph."
]
for (let k = 0; k < 3000; k++) {
  let s = rnd(3) === 0 ? "<!doctype html><html><head><title>T " + k + "</title></head><body>" : ""
  const n = 5 + rnd(200)
  for (let i = 0; i < n; i++) {
    const r = rnd(10)
    if (r < 4) s += `<${TAGS[rnd(TAGS.length)]}${ATTRS[rnd(ATTRS.length)]}>`
    else if (r < 6) s += `</${TAGS[rnd(TAGS.length)]}>`
    else s += WORDS[rnd(WORDS.length)] + " "
  }
  add(`random${k}`, s, k % 7 === 0 ? "not a url" : "https://e.example/dir/page")
}
// WARC records with fixed ids.
let id = 0
const enc = (s: string) => Buffer.from(s, "latin1")
const recs = warcRecords({
  software: "dossier/test",
  newId: () => `<urn:uuid:00000000-0000-0000-0000-${String(id++).padStart(12, "0")}>`,
  exchanges: [
    {
      url: "http://a.example/",
      address: "127.0.0.1",
      requestedAt: new Date(1e12),
      request: enc("GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
      response: enc("HTTP/1.1 301 Moved\r\nLocation: /b\r\n\r\n"),
      payload: new Uint8Array(),
      truncated: false
    },
    {
      url: "http://a.example/b",
      address: "127.0.0.1",
      requestedAt: new Date(1e12 + 5),
      request: enc("GET /b HTTP/1.1\r\nHost: a\r\n\r\n"),
      response: enc("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"),
      payload: enc("hello"),
      truncated: true
    }
  ]
})
out["warc"] = sha(Buffer.concat(recs))
const file = process.argv[2]!
if (process.argv[3] === "write") {
  fs.writeFileSync(file, JSON.stringify(out, null, 0))
  console.log(`wrote ${Object.keys(out).length} digests`)
} else {
  const old = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>
  let diff = 0
  for (const [k, v] of Object.entries(old)) {
    if (out[k] !== v) {
      diff++
      if (diff < 20) console.log("DIFF", k)
    }
  }
  console.log(`${Object.keys(old).length} compared, ${diff} differ`)
  if (diff > 0) process.exit(1)
}
