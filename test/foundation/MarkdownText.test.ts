import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { checkQuote, normalizeForQuote } from "../../src/domain/Quote.js"
import { normalizeMapped, sourceEnd, sourceStart, visibleText } from "../../src/domain/VisibleText.js"

/** The normalized text a reader sees in a Markdown file. */
const seen = (md: string) => normalizeMapped(visibleText("markdown", md)).text

/** The passage a match reports, cut from the file's own text by its code-point offsets. */
const passage = (text: string, m: { start: number; end: number }) => [...text].slice(m.start, m.end).join("")

describe("the text a reader sees in Markdown: raw HTML", () => {
  it.each([
    ["a <!-- hidden words --> b", "a b"],
    ["<!--\nhidden block\n\nwith a blank line\n-->\nafter", "after"],
    ["<!-- a comment --> then text on its line", "then text on its line"],
    ["para <!-- spans\nlines --> end", "para end"],
    ["> quoted <!-- spans\n> lines --> end", "quoted end"],
    ["empty <!--> and <!---> comments", "empty and comments"],
    ["para <!-- unclosed before the blank line\n\nnext -->", "para <!-- unclosed before the blank line next -->"],
    ["para <!-- not closed\n- before a list item -->", "para <!-- not closed before a list item -->"],
    ["para <!-- not closed\n## before a heading -->", "para <!-- not closed before a heading -->"],
    ["> para <!-- not closed\n> ```\n> in a fence -->\n> ```", "para <!-- not closed in a fence -->"],
    [`a <span class="x" data-y='1' hidden>text</span> b`, "a text b"],
    ["one</div>two<br/>three<br>four<em>five</em>six", "one two three fourfivesix"],
    ["a < b, x<y, <3, 1<2>0, <-> and a<b c", "a < b, x<y, <3, 1<2>0, <-> and a<b c"],
    [`<a href="x" title="unclosed>not a tag`, `<a href="x" title="unclosed>not a tag`],
    ["\\<span> is escaped and `<b>` is code", "<span> is escaped and <b> is code"],
    ["text <?php echo 1 ?> more <![CDATA[data]]> end", "text more end"],
    ["<!DOCTYPE html>\nafter the declaration", "after the declaration"]
  ])("%j reads as %j", (md, expected) => {
    expect(seen(md)).toBe(expected)
  })

  it.each([
    [
      `<div class="note">\n<p>Inside <b>bold</b></p>\n*not emphasis* here\n</div>\n\n*emphasis* again`,
      "Inside bold *not emphasis* here emphasis again"
    ],
    ["<script>\nvar hidden = 1\n</script>\nafter the script", "after the script"],
    ["<style type=\"text/css\">\np { color: red }\n</style>", ""],
    ["<pre>\nkept *as is* &amp; decoded\n</pre>", "kept *as is* & decoded"],
    ["<section>\n<p>one</p><p>two</p>\n</section>", "one two"],
    ["> <div>\n> quoted html\n> </div>", "quoted html"],
    ["<custom-tag>\ntext in a kind 7 block\n</custom-tag>", "text in a kind 7 block"],
    ["a paragraph\n<custom-tag>\nstill the paragraph", "a paragraph still the paragraph"],
    ["> <div>\n> inside\nafter \\& outside", "inside after & outside"],
    ["- <div>\n  inside\n\\& outside", "inside & outside"],
    ["[a]: /u\n<custom-el>\n[a]", "a"],
    ["<div>x<y z\n\nafter", "x after"],
    ["<div>\n<!-- never closed\n\nmore text", ""],
    ["before <script> hidden\n\nalso hidden", "before"]
  ])("HTML block %j reads as %j", (md, expected) => {
    expect(seen(md)).toBe(expected)
  })
})

describe("the text a reader sees in Markdown: references", () => {
  it.each([
    [
      "see [the text][id], [Other][] and [short]\n\n[id]: https://x.test/a \"Title\"\n[other]: <https://x.test/b>\n[SHORT]: /c\n  'a title on the next line'",
      "see the text, Other and short"
    ],
    ["use [before] it is defined\n\n[before]: /x", "use before it is defined"],
    ["![an image][pic]\n\n[pic]: /p.png", "an image"],
    ["[undefined][nope] and [plain] stay text", "[undefined][nope] and [plain] stay text"],
    ["a paragraph line\n[id]: /not-a-definition", "a paragraph line [id]: /not-a-definition"],
    ["[id]: /x 'title' and more text", "[id]: /x 'title' and more text"],
    ["[x]: /unbalanced)", "[x]: /unbalanced)"],
    ["[a][x](/u) is text, then a link", "[a]x is text, then a link"],
    ["-\n[a]: /u\n\nsee [a]", "see a"],
    ["[foo]:\n/url\n'the title'\n\nsee [foo]", "see foo"],
    ["[foo]:\n\n[foo]", "[foo]: [foo]"]
  ])("%j reads as %j", (md, expected) => {
    expect(seen(md)).toBe(expected)
  })

  it.each([
    ["<https://auto.test/x?a=1&amp;b> and <me@example.org>", "https://auto.test/x?a=1&amp;b and me@example.org"],
    ["&amp; &copy; &#233; &#x2F; &nbsp;x", "& © é / x"],
    ["&notanentity; AT&T &notit; &#; &amp", "&notanentity; AT&T &notit; &#; &amp"],
    ["`&amp;` in code and [a &amp; b](https://x.test/?a&amp;b)", "&amp; in code and a & b"],
    ["```\n&amp; in a fence\n```", "&amp; in a fence"]
  ])("%j reads as %j", (md, expected) => {
    expect(seen(md)).toBe(expected)
  })
})

describe("quotes against Markdown with HTML and references", () => {
  const md = [
    "# Notes",
    "",
    "<!-- draft: the migration is cancelled and nobody needs to act -->",
    "Clients must <span class=\"hl\">read the</span> [migration guide][guide] before R&amp;D <!-- not",
    "this --> removes the endpoint on June 1.",
    "",
    "[guide]: https://x.test/guide \"The guide\""
  ].join("\n")

  it("a sentence across tags, a comment and a reference link verifies, with offsets to the passage", () => {
    const r = checkQuote("Clients must read the migration guide before R&D removes the endpoint", md, "markdown")
    expect(r).toMatchObject({ matched: true })
    if (r.matched) {
      expect(passage(md, r)).toBe(
        "Clients must <span class=\"hl\">read the</span> [migration guide][guide] before R&amp;D <!-- not\nthis --> removes the endpoint"
      )
    }
  })

  it("words a reader does not see do not verify", () => {
    for (
      const quote of [
        "the migration is cancelled and nobody needs to act",
        "<span class=\"hl\">read the</span>",
        "https://x.test/guide \"The guide\"",
        "before R&amp;D <!-- not this --> removes",
        "migration guide][guide] before"
      ]
    ) expect(checkQuote(quote, md, "markdown").matched, quote).toBe(false)
  })

  it("a numeric reference is the code point it names (U+FFFD for none), whatever references follow it", () => {
    expect(visibleText("markdown", "&#1; &amp; &copy; &#128; &#0; &#x110000; &#xD800; &lt;").text).toBe(
      "\u0001 & © \u0080 \ufffd \ufffd \ufffd <"
    )
  })

  it("a decoded reference maps to the whole reference", () => {
    const m = visibleText("markdown", "x &copy; y")
    expect(m.text).toBe("x © y")
    expect([sourceStart(m, 2), sourceEnd(m, 2)]).toEqual([2, 8])
  })

  it("unclosed comments, tags and references in bulk are read in one pass", () => {
    const n = 100_000
    const hostile = [
      "<!--".repeat(n),
      "x <!--".repeat(n),
      "<".repeat(n),
      "<a x=\"".repeat(n),
      "<a x='1' ".repeat(n),
      "<?".repeat(n),
      "<!X".repeat(n),
      "<![CDATA[".repeat(n),
      "<div>\n<!--\n".repeat(n),
      "<script>".repeat(n),
      "&".repeat(n),
      "&amp".repeat(n),
      Array.from({ length: n }, (_, i) => `&a${i};`).join(""),
      "[a]".repeat(n) + "\n\n[a]: /x",
      "[".repeat(n) + "]".repeat(n) + "\n\n[a]: /x",
      "[a][".repeat(n),
      "[a]: <".repeat(n),
      "<div>\n" + "<a ".repeat(n),
      "<div>\n" + "x<y\n".repeat(n),
      "<div>\n" + "<a>\n\n<div>".repeat(n),
      "x <!--\n" + "-- -- -- x\n".repeat(n / 10),
      "x <!--\n<".repeat(n)
    ]
    for (const s of hostile) {
      const t = performance.now()
      visibleText("markdown", s)
      // Generous for a shared machine; a quadratic scan of these takes minutes.
      expect(performance.now() - t, s.slice(0, 12)).toBeLessThan(2_000)
    }
  })
})

// A generated document: paragraphs of pieces next to the text a reader sees in each.
const WORDS = ["clients", "must", "read", "the", "guide", "before", "June", "report", "café", "2026"]
const word = fc.constantFrom(...WORDS)
const piece = fc.oneof(
  { weight: 4, arbitrary: word.map((w) => ({ md: w, text: w })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `[${w}](https://x.test/${w})`, text: w })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `[${w}][ref]`, text: w })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `*${w}*`, text: w })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `<span class="c-${w}">${w}</span>`, text: w })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `<!-- SECRET ${w}\nSECRET -->`, text: "" })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `<b title='SECRET'>${w}</b>`, text: w })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { md: "&amp;", text: "&" },
      { md: "&copy;", text: "©" },
      { md: "&#233;", text: "é" },
      { md: "a < b", text: "a < b" },
      { md: "1<2", text: "1<2" },
      { md: "<https://auto.test/p>", text: "https://auto.test/p" },
      { md: "`<b>&amp;`", text: "<b>&amp;" },
      { md: "AT&T", text: "AT&T" }
    )
  }
)
// A paragraph starts with a word: a line that starts with a comment starts an HTML block, whose
// text (`[w][ref]` too) is not Markdown.
const paragraph = fc.tuple(word, fc.array(piece, { maxLength: 12 })).map(([w, ps]) => ({
  md: [w, ...ps.map((p) => p.md)].join(" "),
  text: [w, ...ps.map((p) => p.text)].join(" ")
}))
const block = fc.oneof(
  { weight: 4, arbitrary: paragraph },
  { weight: 1, arbitrary: paragraph.map((p) => ({ md: `> ${p.md.replace(/\n/g, "\n> ")}`, text: p.text })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `<!--\nSECRET\n\nSECRET ${w}\n-->`, text: "" })) },
  { weight: 1, arbitrary: word.map((w) => ({ md: `<div class="SECRET">\n<p>${w}</p>\n</div>`, text: w })) }
)
const documents = fc.array(block, { minLength: 1, maxLength: 6 }).map((bs) => ({
  md: bs.map((b) => b.md).join("\n\n") + "\n\n[ref]: https://x.test/SECRET \"SECRET\"\n",
  text: bs.map((b) => b.text).join(" ")
}))

describe("generated Markdown", () => {
  it.prop(
    "reads as the text of its pieces; nothing hidden shows, and quotes of what shows verify",
    [documents],
    ([d]) => {
      const v = seen(d.md)
      expect(v).toBe(normalizeForQuote(d.text))
      expect(v).not.toContain("SECRET")
      expect(v).not.toContain("<!--")
      const cps = [...v]
      if (cps.length >= 20) {
        const from = Math.floor(cps.length / 3)
        const quote = cps.slice(from, Math.max(from + 20, cps.length - 1)).join("")
        if (normalizeForQuote(quote).length >= 20) {
          expect(checkQuote(quote, d.md, "markdown")).toMatchObject({
            matched: true
          })
        }
      }
    },
    { fastCheck: { numRuns: 300 } }
  )
})
