/**
 * The readable copy as a pure function: what it renders of each element, how it resolves links,
 * its front matter and title.
 *
 * Over 400 lines: each case is a page written out in full beside what it must render, and those
 * pages are most of its length.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { readerText } from "../../bench/readerText.js"
import { normalizeForQuote, quoteMatches } from "../../src/domain/Quote.js"
import {
  htmlToMarkdown,
  MAX_PARSE_DEPTH,
  readableCopy,
  readableCopyBytes,
  resolveHref
} from "../../src/domain/Readable.js"
import { linkTarget } from "../../src/domain/readable/links.js"

const URL_ = "https://example.com/articles/one.html"

describe("readable copy (pure)", () => {
  it("renders title, headings, paragraphs, lists, absolute links, code, tables and quotes", () => {
    const html = `<!doctype html><html><head><title>  The  Title </title><style>p{}</style></head><body>
      <header><a href="/">Site</a> <nav>Menu</nav></header>
      <div class="cookie-banner">We use cookies</div>
      <article>
        <h1>The Title</h1>
        <p>First   paragraph with a <a href="../about?x=1">relative link</a> and <em>emphasis</em>.<br>Second line.</p>
        <h2>Lists</h2>
        <ul><li>alpha</li><li>beta<ul><li>nested</li></ul></li></ul>
        <ol start="3"><li>three</li><li>four</li></ol>
        <pre><code class="language-ts">const a = 1
if (a) {
  log("\`\`\` fence")
}</code></pre>
        <table><thead><tr><th>k</th><th>v</th></tr></thead><tbody><tr><td>a|b</td><td>2</td></tr><tr><td>c</td></tr></tbody></table>
        <blockquote><p>Quoted words.</p><p>More.</p></blockquote>
        <form><input name="q"><button>Go</button></form>
        <script>alert(1)</script>
        <a href="javascript:alert(1)">not a link</a>
      </article>
      <footer>Copyright</footer>
    </body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md).toBe(
      [
        "---",
        "title: \"The Title\"",
        "---",
        "",
        "# The Title",
        "",
        "First paragraph with a [relative link](https://example.com/about?x=1) and emphasis.",
        "Second line.",
        "",
        "## Lists",
        "",
        "- alpha",
        "- beta",
        "  - nested",
        "",
        "3. three",
        "4. four",
        "",
        "````ts",
        "const a = 1",
        "if (a) {",
        "  log(\"``` fence\")",
        "}",
        "````",
        "",
        "| k | v |",
        "| --- | --- |",
        "| a\\|b | 2 |",
        "| c |",
        "",
        "> Quoted words.",
        ">",
        "> More.",
        "",
        "not a link",
        ""
      ].join("\n")
    )
  })

  it("prefers main over the rest of the page and drops navigation, forms, asides and hidden parts", () => {
    const html =
      `<html><body><div>outside text</div><main><p>inside</p><aside>aside</aside><div hidden>hidden</div><div role="navigation">roles</div></main></body></html>`
    expect(htmlToMarkdown(html, URL_)).toBe("inside\n")
  })

  it("keeps several articles in order and honours <base href>", () => {
    const html =
      `<html><head><base href="https://other.example/dir/"></head><body><p>lead</p><article><p>one <a href="x">x</a></p></article><article><p>two</p></article></body></html>`
    expect(htmlToMarkdown(html, URL_)).toBe("one [x](https://other.example/dir/x)\n\ntwo\n")
  })

  it("keeps text verbatim, escaping only what Markdown would read as syntax, so quotes copied from the page verify", () => {
    const html = `<p>a * b _c_ [d] <b>bold</b> &amp; &lt;tag&gt; snake_case</p>`
    expect(htmlToMarkdown(html, URL_)).toBe("a \\* b \\_c\\_ [d] bold & \\<tag> snake_case\n")
    // Each of these paragraphs lost characters to the gate's matcher when written unescaped.
    const paragraphs = [
      "a * b _c_ [d] bold & <tag>",
      "1. Choose the right pot before planting",
      "Leser*innen und Autor*innen lesen mit",
      "- a dash that opens the paragraph",
      "# not a heading but text of the page",
      "> not a quote either, only text",
      "| a pipe that opens a line",
      "__init__ and ~~struck~~ and `code` as text",
      "a literal [link](https://x.example/) in text",
      "a path C:\\*.txt and <https://x.example/> as text",
      "a page that shows <!-- this --> and </div> and <br/> as text",
      "references shown as written: &amp; and &#233; and &copy; here",
      "an address <me@example.org> and <?php ?> shown as text",
      "[1]: https://x.example/notes",
      "see [1] for the notes on this page"
    ]
    const md = htmlToMarkdown(
      `<div>${paragraphs.map((p) => `<p>${p.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</p>`).join("")}</div>`,
      URL_
    )
    for (const p of paragraphs) expect(quoteMatches(p, md, "markdown"), p).toBe(true)
  })

  it.prop(
    "a paragraph's text verifies against the copy whatever Markdown syntax characters it holds",
    [fc.array(
      fc.constantFrom(
        "a",
        "b",
        "1",
        "9",
        " ",
        ".",
        ")",
        "*",
        "_",
        "~",
        "`",
        "#",
        ">",
        "-",
        "+",
        "|",
        "=",
        "[",
        "]",
        "(",
        "<",
        "h:",
        "\\",
        "!",
        "é"
      ),
      { minLength: 20, maxLength: 60 }
    )],
    ([chars]) => {
      const text = chars.join("")
      fc.pre(normalizeForQuote(text).length >= 20)
      const md = htmlToMarkdown(`<p>${text.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</p>`, URL_)
      expect(quoteMatches(normalizeForQuote(text), md, "markdown")).toBe(true)
    }
  )

  it("text/plain is kept as the text itself", () => {
    expect(readableCopy("text", "  line one\n\nline two\t\n", URL_)).toBe("  line one\n\nline two\t\n")
  })

  it("survives pathological nesting without exhausting the stack", () => {
    const depth = 50_000
    const html = "<div>".repeat(depth) + "<p>deep text</p>" + "</div>".repeat(depth) + "<ul>".repeat(5000) + "<li>x" +
      "</ul>".repeat(5000)
    const md = htmlToMarkdown(html, URL_)
    expect(md).toContain("deep text")
    expect(md).toContain("x")
  })

  // One test per shape: each is a long synchronous run, and a worker that yields between them
  // keeps answering vitest on a loaded machine (nine in one test once ran past the timeout there).
  const size = 2 * 1024 * 1024
  const hostileShapes: ReadonlyArray<readonly [string, () => string]> = [
    ["open divs", () => "<div>".repeat(size / 5)],
    ["bare <", () => "<".repeat(size)],
    ["open comments", () => "<!--".repeat(size / 4)],
    ["open scripts", () => "<script>".repeat(size / 8)],
    ["open attributes", () => "<a ".repeat(size / 3)],
    ["articles", () => "<article>x".repeat(size / 10)],
    [
      "a table of one column, then one row",
      () => "<table>" + "<tr><td>x</td></tr>".repeat(size / 40) + "<tr>" + "<td>y</td>".repeat(size / 40) + "</table>"
    ],
    // Just under the depth limit: every stray end tag and every implied close scans the parser's stack.
    ["stray end tags under the depth limit", () => "<div>".repeat(MAX_PARSE_DEPTH - 1) + "</x>".repeat(size / 4)],
    ["implied closes under the depth limit", () => "<b>".repeat(MAX_PARSE_DEPTH - 1) + "<p>x".repeat(size / 4)]
  ]
  it.each(hostileShapes)("hostile 2 MiB shape finishes: %s (quadratic in a naive extractor)", (_, html) => {
    expect(typeof htmlToMarkdown(html(), URL_)).toBe("string")
  })

  it("deep lists and quotes keep their text but stop adding prefixes (bounded output)", () => {
    const quotes = "<blockquote>".repeat(30) + "<p>q</p>" + "</blockquote>".repeat(30)
    expect(htmlToMarkdown(quotes, URL_)).toBe(`${"> ".repeat(8)}q\n`)
    const lists = "<ul><li>item".repeat(30) + "</li></ul>".repeat(30)
    const lines = htmlToMarkdown(lists, URL_).trimEnd().split("\n")
    expect(lines.length).toBe(30)
    expect(lines.every((l) => l.trim() === "- item")).toBe(true)
    expect(Math.max(...lines.map((l) => l.length))).toBe(2 * 8 + "- item".length)
  })

  it("a page too deeply nested to parse still yields its text, decoded", () => {
    const html = "<div>".repeat(MAX_PARSE_DEPTH + 1) + "<p>deep &amp; text</p><script>hidden()</script>" +
      "</div>".repeat(10)
    expect(htmlToMarkdown(html, URL_)).toBe("deep & text\n")
    // At the limit the page is still parsed: its title is found (the text-only copy has none).
    const fits = "<div>".repeat(MAX_PARSE_DEPTH - 1) + "<title>T</title><p>deep &amp; text</p>"
    expect(htmlToMarkdown(fits, URL_)).toBe("---\ntitle: \"T\"\n---\n\n# T\n\ndeep & text\n")
    expect(htmlToMarkdown("<div>" + fits, URL_)).toBe("deep & text\n")
  })

  it.prop(
    "never throws and is deterministic on arbitrary input",
    [fc.string({ maxLength: 2000 }), fc.webUrl()],
    ([s, url]) => {
      const a = htmlToMarkdown(s, url)
      const b = htmlToMarkdown(s, url)
      return typeof a === "string" && a === b
    }
  )

  const tag = fc.constantFrom(
    "p",
    "div",
    "a",
    "ul",
    "ol",
    "li",
    "pre",
    "code",
    "table",
    "tr",
    "td",
    "th",
    "blockquote",
    "h1",
    "h3",
    "main",
    "article",
    "nav",
    "script",
    "br",
    "hr",
    "base",
    "title",
    "header",
    "footer",
    "b"
  )
  const attr = fc.constantFrom(
    "",
    " href=\"/x\"",
    " href=\"javascript:x\"",
    " href=\"http://[bad\"",
    " class=\"language-js\"",
    " hidden",
    " role=\"main\"",
    " start=\"-3\"",
    " start=\"99999999999999\"",
    " href=\"https://e.example/a b(c)\""
  )
  const htmlish = fc.array(
    fc.oneof(
      fc.tuple(tag, attr).map(([t, a]) => `<${t}${a}>`),
      tag.map((t) => `</${t}>`),
      fc.string({ maxLength: 12 }),
      fc.constantFrom("```", "|", "\n", "&amp;", "&#0;", "<!--", "-->", "<![CDATA[x]]>", "\u0000", "\ud800")
    ),
    { maxLength: 200 }
  ).map((parts) => parts.join(""))

  it.prop("never throws and is deterministic on tag soup", [htmlish], ([s]) => {
    const a = htmlToMarkdown(s, URL_)
    return a === htmlToMarkdown(s, URL_) && (a === "" || a.endsWith("\n"))
  }, { fastCheck: { numRuns: 500 } })

  // Tag soup covering content-root changes (main after articles, role=main, main inside dropped
  // furniture), <base> before and after links, titles, nested lists/quotes/tables, code, comments, entities.
  const soupTag = fc.constantFrom(
    "p",
    "div",
    "span",
    "a",
    "ul",
    "ol",
    "li",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "blockquote",
    "h1",
    "h2",
    "main",
    "article",
    "section",
    "nav",
    "header",
    "footer",
    "aside",
    "script",
    "style",
    "br",
    "hr",
    "base",
    "title",
    "head",
    "body",
    "html",
    "dl",
    "dt",
    "dd",
    "details",
    "summary",
    "figure",
    "figcaption",
    "em",
    "form",
    "template",
    "svg",
    "textarea"
  )
  const soupAttr = fc.constantFrom(
    "",
    "",
    "",
    " href=\"/x\"",
    " href=\"../y?q=1\"",
    " href=\"javascript:x\"",
    " href=\"http://[bad\"",
    " href=\"https://other.example/p\"",
    " class=\"language-js\"",
    " class=\"cookie-banner\"",
    " id=\"sidebar\"",
    " hidden",
    " aria-hidden=\"true\"",
    " role=\"main\"",
    " role=\"MAIN\"",
    " role=\"navigation\"",
    " start=\"3\"",
    " href=\"https://e.example/a b(c)\""
  )
  const soup = fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.tuple(soupTag, soupAttr).map(([t, a]) => `<${t}${a}>`) },
      { weight: 3, arbitrary: soupTag.map((t) => `</${t}>`) },
      { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "```",
          "|",
          "\n",
          "  ",
          "\t",
          "&amp;",
          "&lt;p&gt;",
          "&nbsp;",
          "\u00a0",
          "<!-- c -->",
          "<![CDATA[x]]>",
          "<!doctype html>",
          "[",
          "]",
          "# "
        )
      }
    ),
    { maxLength: 250 }
  ).map((parts) => parts.join(""))

  it.prop("the retained bytes are the readable copy encoded as UTF-8", [
    fc.oneof(soup, fc.string({ unit: "grapheme", maxLength: 200 })),
    fc.constantFrom("html" as const, "text" as const)
  ], ([s, kind]) => {
    expect(readableCopyBytes(kind, s, URL_).equals(Buffer.from(readableCopy(kind, s, URL_), "utf8"))).toBe(true)
  }, { fastCheck: { numRuns: 500 } })

  it.prop("never throws on tag soup below the depth limit either", [htmlish], ([s]) => {
    const deep = "<div>".repeat(MAX_PARSE_DEPTH + 1) + s
    const a = htmlToMarkdown(deep, URL_)
    return a === htmlToMarkdown(deep, URL_)
  }, { fastCheck: { numRuns: 100 } })
})

describe("link resolution", () => {
  it("resolves against the base with the URL parser: http(s) and mailto only", () => {
    const b = new URL("https://u@h.example:8443/dir/page")
    expect(resolveHref("/a/b.html", b)).toBe("https://u@h.example:8443/a/b.html")
    expect(resolveHref("x?y=1", b)).toBe("https://u@h.example:8443/dir/x?y=1")
    expect(resolveHref("https://example.org", b)).toBe("https://example.org/")
    expect(resolveHref("https://example.org/x/../y", b)).toBe("https://example.org/y")
    expect(resolveHref("/a/%2e%2e/b", b)).toBe("https://u@h.example:8443/b")
    expect(resolveHref("http://0x7f.1/", b)).toBe("http://127.0.0.1/")
    expect(resolveHref("mailto:a@b.example", b)).toBe("mailto:a@b.example")
    expect(resolveHref("javascript:alert(1)", b)).toBeUndefined()
    expect(resolveHref("http://[bad", b)).toBeUndefined()
    expect(resolveHref("/x", undefined)).toBeUndefined()
  })

  it("a link target has its parentheses and whitespace percent-encoded, nothing else", () => {
    expect(linkTarget("https://e.example/a (b)\tc\u00a0d")).toBe("https://e.example/a%20%28b%29%09c%C2%A0d")
    expect(linkTarget("https://e.example/plain/[x]")).toBe("https://e.example/plain/[x]")
    // An unbalanced parenthesis stays inside the link.
    expect(
      htmlToMarkdown("<main><p>See <a href=\"/wiki/A)b\">this page</a> for more of the text here.</p></main>", URL_)
    )
      .toContain("(https://example.com/wiki/A%29b)")
  })
})

describe("readable copy: front matter, one title, code spans, permalinks", () => {
  const sentence =
    "The river gauge at station one rose by four centimetres overnight, the water board said, and the engineers opened the sluice."
  const page = `<!doctype html><html lang="en-GB"><head><title>River rose - The Valley News</title>
    <meta property="og:site_name" content="The Valley News"><meta property="og:title" content="Ignored: JSON-LD names the headline first">
    <link rel="canonical" href="/2026/12/river.html">
    <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Valley"},
      {"@type":"NewsArticle","headline":"River rose","datePublished":"2026-12-01T08:00:00Z","author":[{"@type":"Person","name":"Jo Writer"},{"name":"Al Second"}]}]}</script>
    </head><body><article><h1>River rose</h1><p>${sentence}</p>
    <h2 id="install">Install<a class="headerlink" href="#install" title="Permalink to this heading">¶</a></h2>
    <p>Run <code>npm run *build*</code> once, then <code>dossier ingest</code> for each page you read.</p></article></body></html>`

  it("puts the page's metadata (JSON-LD first, then meta tags) in front matter, and one title", () => {
    const md = htmlToMarkdown(page, URL_)
    expect(md.startsWith(
      [
        "---",
        "title: \"River rose\"",
        "author: \"Jo Writer, Al Second\"",
        "published: \"2026-12-01T08:00:00Z\"",
        "site: \"The Valley News\"",
        "canonical: \"https://example.com/2026/12/river.html\"",
        "language: \"en-GB\"",
        "---",
        "",
        "# River rose",
        ""
      ].join("\n")
    )).toBe(true)
    expect(md.match(/^# /gm)).toHaveLength(1)
    expect(md).not.toContain("The Valley News\n\n# ")
  })

  it("takes the author and date from meta tags when the page has no JSON-LD, and skips an author that is a link", () => {
    const html = `<html><head><title>Notes</title><meta property="article:author" content="https://social.example/jo">
      <meta name="author" content="Jo Writer"><meta property="article:published_time" content="2026-11-30"></head>
      <body><p>${sentence}</p></body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md).toContain("author: \"Jo Writer\"")
    expect(md).toContain("published: \"2026-11-30\"")
    expect(md).toContain("# Notes")
  })

  it("ignores JSON-LD that does not parse", () => {
    const html =
      `<html><head><title>Notes</title><script type="application/ld+json">{"headline": broken</script></head><body><p>${sentence}</p></body></html>`
    expect(htmlToMarkdown(html, URL_).startsWith("---\ntitle: \"Notes\"\n---\n\n# Notes\n")).toBe(true)
  })

  it("drops a heading's permalink mark and keeps inline code as code spans", () => {
    const md = htmlToMarkdown(page, URL_)
    expect(md).toContain("\n## Install\n")
    expect(md).not.toContain("¶")
    expect(md).toContain("Run `npm run *build*` once, then `dossier ingest` for each page you read.")
  })

  it("quotes across code spans and the title still verify against the text a reader sees", () => {
    const seen = readerText(htmlToMarkdown(page, URL_))
    expect(seen).toContain(sentence)
    expect(seen).toContain("Run npm run *build* once, then dossier ingest for each page you read.")
    expect(seen).toContain("River rose")
  })
})
