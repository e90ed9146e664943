import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { checkQuote, makeQuoteMatcher, normalizeForQuote } from "../../src/domain/Quote.js"
import { readableCopy } from "../../src/domain/Readable.js"
import {
  formatOfPath,
  normalizeMapped,
  sourceEnd,
  sourceStart,
  type TextFormat,
  visibleText
} from "../../src/domain/VisibleText.js"

/** The normalized text a reader sees in `text`. */
const seen = (format: TextFormat, text: string) => normalizeMapped(visibleText(format, text)).text

/** The passage a match reports, cut from the file's own text by its code-point offsets. */
const passage = (text: string, m: { start: number; end: number }) => [...text].slice(m.start, m.end).join("")

// A generated page: paragraphs of sentences whose words are wrapped in links and emphasis and
// spelled with character references, next to the plain text a reader sees.
const WORDS = [
  "clients",
  "must",
  "read",
  "the",
  "migration",
  "guide",
  "before",
  "removal",
  "on",
  "June",
  "rates",
  "rose",
  "by",
  "percent",
  "café",
  "naïve",
  "über",
  "data",
  "report",
  "2026"
]
const entityWord = fc.constantFrom(
  { html: "R&amp;D", text: "R&D" },
  { html: "don&#8217;t", text: "don\u2019t" },
  { html: "caf&eacute;", text: "café" },
  { html: "5&nbsp;%", text: "5\u00a0%" },
  { html: "&lt;tag&gt;", text: "<tag>" },
  { html: "&quot;quoted&quot;", text: "\"quoted\"" },
  { html: "x&#x2F;y", text: "x/y" }
)
const plainWord = fc.constantFrom(...WORDS).map((w) => ({ html: w, text: w }))
const word = fc.oneof({ weight: 4, arbitrary: plainWord }, { weight: 1, arbitrary: entityWord })
const wrap = fc.constantFrom("none", "a", "em", "strong", "b", "i", "span", "code", "inner-em")
const piece = fc.tuple(fc.array(word, { minLength: 1, maxLength: 3 }), wrap, fc.nat(99)).map(([ws, how, n]) => {
  const html = ws.map((w) => w.html).join(" ")
  const text = ws.map((w) => w.text).join(" ")
  switch (how) {
    case "none":
      return { html, text }
    case "a":
      return { html: `<a href="/page/${n}?q=${n}&amp;r=1">${html}</a>`, text }
    case "inner-em": {
      // Emphasis inside a word: mi<em>gra</em>tion reads as one word.
      const w = ws[0]!.text
      if (ws.length > 1 || w.length < 4 || w !== ws[0]!.html) return { html, text }
      return { html: `${w.slice(0, 1)}<em>${w.slice(1, 3)}</em>${w.slice(3)}`, text: w }
    }
    default:
      return { html: `<${how}>${html}</${how}>`, text }
  }
})
const sentence = fc.array(piece, { minLength: 5, maxLength: 12 }).map((ps) => ({
  html: ps.map((p) => p.html).join(" ") + ".",
  text: ps.map((p) => p.text).join(" ") + "."
}))
const page = fc.array(fc.array(sentence, { minLength: 2, maxLength: 4 }), { minLength: 2, maxLength: 5 }).map((
  paragraphs
) => ({
  html: `<!doctype html><html><head><title>Generated report</title><style>p { color: red }</style></head><body>` +
    `<article><h1>A generated <em>report</em></h1>${
      paragraphs.map((p) => `<p>${p.map((s) => s.html).join(" ")}</p>`).join("\n")
    }</article>` +
    `<script>var hidden = "not visible text at all";</script></body></html>`,
  sentences: paragraphs.flat().map((s) => s.text)
}))

describe("quotes that cross markup", () => {
  it.prop(
    "every sentence of a generated page verifies against the HTML original and the readable copy, with offsets to the passage",
    [page],
    ([p]) => {
      const md = readableCopy("html", p.html, "https://example.org/report")
      const inHtml = makeQuoteMatcher(p.html, "html")
      const inMd = makeQuoteMatcher(md, "markdown")
      for (const s of p.sentences) {
        const q = normalizeForQuote(s)
        if ([...q].length < 20) continue
        for (const [format, text, match] of [["html", p.html, inHtml], ["markdown", md, inMd]] as const) {
          const r = match(s)
          expect(r, `${format}: ${s}`).toMatchObject({ matched: true })
          if (!r.matched) continue
          // The reported offsets hold exactly the visible characters of the sentence (the page has
          // no characters outside the BMP, so code points and UTF-16 units agree here).
          const v = normalizeMapped(visibleText(format, text))
          let inside = ""
          for (let i = 0; i < v.text.length; i++) {
            if (sourceStart(v, i) >= r.start && sourceEnd(v, i) <= r.end) {
              inside += v.text[i]
            }
          }
          expect(inside.trim()).toBe(q)
        }
      }
    },
    { fastCheck: { numRuns: 150 } }
  )

  it("regression: a sentence across a link verifies against both retained files (it did not before)", () => {
    const html =
      `<html><body><article><h1>Deprecation</h1><p>Clients must read the <a href="/docs/migration">migration guide</a> before the removal on June 1. The old endpoint answers 410 afterwards.</p></article></body></html>`
    const md = readableCopy("html", html, "https://api.example.org/news/deprecation")
    expect(md).toContain("[migration guide](https://api.example.org/docs/migration)")
    const quote = "Clients must read the migration guide before the removal on June 1."
    const h = checkQuote(quote, html, "html")
    const m = checkQuote(quote, md, "markdown")
    expect(h).toMatchObject({ matched: true })
    expect(m).toMatchObject({ matched: true })
    if (h.matched) {
      expect(passage(html, h)).toBe(
        `Clients must read the <a href="/docs/migration">migration guide</a> before the removal on June 1.`
      )
    }
    if (m.matched) {
      expect(passage(md, m)).toBe(
        "Clients must read the [migration guide](https://api.example.org/docs/migration) before the removal on June 1."
      )
    }
    // Read as plain text (the old matcher), neither file holds the sentence.
    expect(checkQuote(quote, html).matched).toBe(false)
    expect(checkQuote(quote, md).matched).toBe(false)
  })

  it("regression: a character reference (5&nbsp;%) in the original reads as the character", () => {
    const html = `<html><body><p>Inflation fell to 5&nbsp;% in the third quarter of the year.</p></body></html>`
    for (
      const quote of ["Inflation fell to 5\u00a0% in the third quarter", "Inflation fell to 5 % in the third quarter"]
    ) {
      const r = checkQuote(quote, html, "html")
      expect(r).toMatchObject({ matched: true })
      if (r.matched) expect(passage(html, r)).toBe("Inflation fell to 5&nbsp;% in the third quarter")
      expect(checkQuote(quote, html).matched).toBe(false)
    }
  })

  it("offsets count code points of the file's text", () => {
    const text = "😀 emoji first, then the sentence that is quoted here."
    const r = checkQuote("the sentence that is quoted", text)
    // 21 UTF-16 units precede the passage, but 20 code points.
    expect(r).toEqual({ matched: true, start: 20, end: 47 })
    if (r.matched) expect(passage(text, r)).toBe("the sentence that is quoted")
  })
})

describe("the text a reader sees: HTML", () => {
  it("drops scripts, styles, templates and comments; block boundaries separate words, inline ones do not", () => {
    const html =
      `<p>one</p><p>two</p><div>three<br>four</div><b>fi</b>ve<!-- six --><script>seven</script><style>eight{}</style><template><p>nine</p></template><td>ten</td><td>eleven</td>`
    expect(seen("html", html)).toBe("one two three four five ten eleven")
  })

  it("decodes character references, named and numeric", () => {
    expect(seen("html", "<p>a &amp; b &lt;c&gt; &#233;t&#xE9; &copy; &notanentity;</p>")).toBe(
      "a & b <c> été © ¬anentity;"
    )
  })

  it("XHTML: CDATA is text and self-closing elements close", () => {
    expect(
      seen("xhtml", `<html><body><p>a <![CDATA[b & c]]> d</p><script src="x"/><p>after the script</p></body></html>`)
    ).toBe("a b & c d after the script")
  })
})

describe("the text a reader sees: Markdown", () => {
  it.each([
    ["# Heading one\n\n## Two ##", "Heading one Two ##"],
    ["- item one\n- item two\n  1. nested\n10) ten", "item one item two nested ten"],
    ["> quoted\n> > twice", "quoted twice"],
    ["| a \\| b | c |\n| --- | :---: |\n| 1 | 2 |", "a | b c 1 2"],
    ["```js\nconst *x* = [a](b)\n```\nafter", "const *x* = [a](b) after"],
    ["> ```\n> > kept\n> ```", "> kept"],
    [
      "a [link](https://x.test/a_(b)) and ![an image](i.png \"title\") and <https://auto.test/x>",
      "a link and an image and https://auto.test/x"
    ],
    ["*em* **strong** ***both*** _under_ __dunder__ ~~struck~~", "em strong both under dunder struck"],
    [
      "snake_case_name, 5 * 3 * 2, a_b, 2*3, **unclosed and _open",
      "snake_case_name, 5 * 3 * 2, a_b, 2*3, **unclosed and _open"
    ],
    ["`code *not em*` and ``a ` b``", "code *not em* and a ` b"],
    ["\\*literal\\* and \\[brackets\\] and C:\\path", "*literal* and [brackets] and C:\\path"],
    ["Title\n=====\n\n---\n\n* * *\nSub\n---", "Title Sub"],
    ["[not a link] (space) and [x](unclosed", "[not a link] (space) and [x](unclosed"]
  ])("%j reads as %j", (md, expected) => {
    expect(seen("markdown", md)).toBe(expected)
  })

  it("a readable copy's own syntax is never text", () => {
    const html =
      `<html><body><article><h2>Section</h2><ul><li>first <a href="/a">point</a></li></ul><blockquote><p>a quote</p></blockquote><table><tr><th>k|ey</th><th>value</th></tr><tr><td>x</td><td>y</td></tr></table><pre>code [x](y)</pre></article></body></html>`
    const md = readableCopy("html", html, "https://example.org/")
    expect(seen("markdown", md)).toBe(seen("html", html.replace(/<pre>.*<\/pre>/, "")) + " code [x](y)")
  })
})

describe("the map and the normalization", () => {
  const anyText = fc.string({
    unit: fc.oneof(
      fc.constantFrom(
        " ",
        "\n",
        "\t",
        "\u00a0",
        "\u3000",
        "e",
        "a",
        "Z",
        ".",
        "\u0301",
        "\u0323",
        "\u0308",
        "\u1100",
        "\u1161",
        "\u11a8",
        "\uac00",
        "\u212b",
        "\uf900",
        "\u0344",
        "😀",
        "\u0ddd",
        "\u0dca",
        "\u0dcf"
      ),
      fc.string({ minLength: 1, maxLength: 1 })
    ),
    maxLength: 60
  })

  it.prop("normalizing with the map gives exactly normalizeForQuote's text", [anyText], ([s]) => {
    expect(normalizeMapped(visibleText("text", s)).text).toBe(normalizeForQuote(s))
  }, { fastCheck: { numRuns: 3000 } })

  const markupText = fc.string({
    unit: fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          "[",
          "]",
          "(",
          ")",
          "*",
          "_",
          "~",
          "`",
          "\\",
          "|",
          "#",
          ">",
          "-",
          "1.",
          "<",
          "&amp;",
          "&",
          ";",
          "<p>",
          "</p>",
          "<a href=x>",
          "</a>",
          "<script>",
          "</script>",
          "<![CDATA[",
          "]]>",
          "<!--",
          "-->",
          "\n",
          " ",
          "```",
          "!"
        )
      },
      { weight: 2, arbitrary: fc.constantFrom("word", "é", "e\u0301", "😀") },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 2 }) }
    ),
    maxLength: 80
  })

  it.prop("never throws; every unit maps to a range of the file, in file order", [
    markupText,
    fc.constantFrom<TextFormat>("markdown", "html", "xhtml", "text")
  ], ([s, format]) => {
    for (const m of [visibleText(format, s), normalizeMapped(visibleText(format, s))]) {
      for (let i = 0; i < m.text.length; i++) {
        expect(sourceStart(m, i)).toBeGreaterThanOrEqual(i === 0 ? 0 : sourceStart(m, i - 1))
        expect(sourceEnd(m, i)).toBeGreaterThanOrEqual(sourceStart(m, i))
        expect(sourceEnd(m, i)).toBeLessThanOrEqual(s.length)
      }
    }
  }, { fastCheck: { numRuns: 2000 } })

  it("hostile Markdown and HTML are read in one pass (each finishes well within the test's time)", () => {
    const n = 100_000
    const hostile = [
      "[](".repeat(n),
      "[a](x \"".repeat(n),
      "[a](x (".repeat(n),
      "[a](<".repeat(n),
      "*a".repeat(n) + "_b".repeat(n),
      "- ".repeat(n) + "x",
      "> ".repeat(n) + "x",
      Array.from({ length: 2000 }, (_, i) => "`".repeat(i + 1)).join("x"),
      "<a>".repeat(n) + "text"
    ]
    for (const s of hostile) {
      expect(() => visibleText("markdown", s)).not.toThrow()
      expect(() => visibleText("html", s)).not.toThrow()
    }
  })

  it("regression: an unterminated tag at the end maps inside the file", () => {
    for (const format of ["html", "xhtml"] as const) {
      const m = visibleText(format, "<word/")
      for (let i = 0; i < m.text.length; i++) expect(sourceStart(m, i)).toBeGreaterThanOrEqual(0)
      // The text before such a tag is read once, and the open tag is dropped as a browser drops it.
      expect(visibleText(format, "word<A/").text).toBe("word")
      expect(visibleText(format, "a <b c=d/").text).toBe("a ")
    }
  })

  it("a file's format follows from its name", () => {
    expect(formatOfPath("research/sources/a-0123456789ab.md")).toBe("markdown")
    expect(formatOfPath("research/sources/a.HTML")).toBe("html")
    expect(formatOfPath("research/sources/a.htm")).toBe("html")
    expect(formatOfPath("research/sources/a.xhtml")).toBe("xhtml")
    expect(formatOfPath("research/sources/a.txt")).toBe("text")
    expect(formatOfPath("research/sources.md/notes")).toBe("text")
  })
})
