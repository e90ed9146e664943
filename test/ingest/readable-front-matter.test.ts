/**
 * The readable copy's front matter read from JSON-LD as sites write it: a graph whose article
 * names its author by reference (`{"@id": …}`, as SEO plugins write every post), and text
 * values holding HTML (a line-break hint `<wbr>` in a product's name, `&amp;` in a name); the date
 * and author a page gives only as schema.org microdata; and the one title over the body when the
 * page's own heading says part of its document title.
 */
import { describe, expect, it } from "@effect/vitest"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://example.com/2018/11/cheap-fixes/"
const sentence =
  "Any car owner would agree that nothing hurts more than spending big money on fixing the vehicle, the mechanic said."

const pageWith = (ld: string): string =>
  `<!doctype html><html lang="en-US"><head><title>Cheap fixes</title>
  <script type="application/ld+json">${ld}</script></head>
  <body><article><h1>Cheap fixes</h1><p>${sentence}</p><p>${sentence}</p></article></body></html>`

const frontMatterOf = (md: string): string => md.slice(0, md.indexOf("\n---\n", 3) + 5)

describe("readable copy: front matter from JSON-LD as sites write it", () => {
  it("follows an author given by reference to a person elsewhere in the graph", () => {
    const md = htmlToMarkdown(
      pageWith(JSON.stringify({
        "@context": "https://schema.org",
        "@graph": [
          {
            "@type": "Article",
            "@id": `${URL_}#article`,
            headline: "Cheap fixes",
            datePublished: "2018-11-22T14:30:24+00:00",
            author: { "@id": "https://example.com/#/schema/person/aa0d" },
            publisher: { "@id": "https://example.com/#organization" }
          },
          { "@type": "Organization", "@id": "https://example.com/#organization", name: "Motor Ward" },
          { "@type": "Person", "@id": "https://example.com/#/schema/person/aa0d", name: "Albert Swann" }
        ]
      })),
      URL_
    )
    expect(frontMatterOf(md)).toContain("author: \"Albert Swann\"\n")
    expect(frontMatterOf(md)).toContain("site: \"Motor Ward\"\n")
  })

  it("follows references across the page's JSON-LD blocks, and in a list of authors", () => {
    const html = pageWith(JSON.stringify({
      "@type": "BlogPosting",
      headline: "Cheap fixes",
      author: [{ "@id": "#jo" }, { "@type": "Person", name: "Al Second" }]
    })).replace(
      "</head>",
      `<script type="application/ld+json">${
        JSON.stringify({ "@type": "Person", "@id": "#jo", name: "Jo Writer" })
      }</script></head>`
    )
    expect(frontMatterOf(htmlToMarkdown(html, URL_))).toContain("author: \"Jo Writer, Al Second\"\n")
  })

  it("reads a name's HTML as the text a reader sees: no tags, character references decoded", () => {
    const md = htmlToMarkdown(
      pageWith(JSON.stringify({
        "@type": "NewsArticle",
        headline: "Vacuum cleaner accessories, 24 parts: brushes and filters for the B402<wbr/>HW",
        author: { "@type": "Person", name: "Ann &amp; Bob Writer" },
        publisher: { "@type": "Organization", name: "Black &amp; White<br>News" }
      })),
      URL_
    )
    const fm = frontMatterOf(md)
    expect(fm).toContain("title: \"Vacuum cleaner accessories, 24 parts: brushes and filters for the B402HW\"\n")
    expect(fm).toContain("author: \"Ann & Bob Writer\"\n")
    expect(fm).toContain("site: \"Black & White News\"\n")
  })

  it("keeps a '<' that opens no tag, or another element's name, as written", () => {
    const md = htmlToMarkdown(pageWith(JSON.stringify({ "@type": "Article", headline: "When a < b and b > c" })), URL_)
    expect(frontMatterOf(md)).toContain("title: \"When a < b and b > c\"\n")
    const element = htmlToMarkdown(
      pageWith(JSON.stringify({ "@type": "Article", headline: "The <template> element" })),
      URL_
    )
    expect(frontMatterOf(element)).toContain("title: \"The <template> element\"\n")
  })

  it("takes the first of a list of values, and an author without the byline's 'By'", () => {
    const md = htmlToMarkdown(
      pageWith(JSON.stringify({
        "@type": "BlogPosting",
        headline: ["Cheap fixes", "Cheap fixes for old cars"],
        datePublished: ["2021-03-04"],
        author: "  By Jo Writer "
      })),
      URL_
    )
    const fm = frontMatterOf(md)
    expect(fm).toContain("title: \"Cheap fixes\"\n")
    expect(fm).toContain("published: \"2021-03-04\"\n")
    expect(fm).toContain("author: \"Jo Writer\"\n")
  })

  it("decodes a meta tag escaped twice, as some themes write them", () => {
    const html =
      `<html><head><title>Notes</title><meta property="og:title" content="Notes &amp;amp; Queries &amp;#8211; Part 2">
      <meta name="author" content="Jo &amp;amp; Al"><meta property="og:site_name" content="Black &amp;amp; White">
      </head><body><article><p>${sentence}</p><p>${sentence}</p></article></body></html>`
    const fm = frontMatterOf(htmlToMarkdown(html, URL_))
    expect(fm).toContain("title: \"Notes & Queries \u2013 Part 2\"\n")
    expect(fm).toContain("author: \"Jo & Al\"\n")
    expect(fm).toContain("site: \"Black & White\"\n")
  })
})

describe("readable copy: front matter from schema.org microdata", () => {
  const post = (head: string, inner: string, type = "http://schema.org/BlogPosting"): string =>
    `<!doctype html><html lang="en"><head><title>Cheap fixes</title>${head}</head><body>` +
    `<div class="post" itemscope itemtype="${type}"><h1 itemprop="headline">Cheap fixes</h1>${inner}` +
    `<div itemprop="articleBody"><p>${sentence}</p><p>${sentence}</p></div></div></body></html>`
  const byline = `<span itemprop="author" itemscope itemtype="http://schema.org/Person">by ` +
    `<a href="/jo"><span itemprop="name">Jo Writer</span></a></span>`

  it("reads a time's datetime and a person's nested name inside an article's item", () => {
    const fm = frontMatterOf(
      htmlToMarkdown(post("", `${byline} <time itemprop="datePublished" datetime="2021-11-04">4 Nov</time>`), URL_)
    )
    expect(fm).toContain("published: \"2021-11-04\"\n")
    expect(fm).toContain("author: \"Jo Writer\"\n")
  })

  it("reads a meta's content, an abbr's machine date in its title, and an author written as text", () => {
    const meta = frontMatterOf(htmlToMarkdown(
      post("", `<meta itemprop="datePublished" content="2020-02-08"><span itemprop="author">By Al Second</span>`),
      URL_
    ))
    expect(meta).toContain("published: \"2020-02-08\"\n")
    expect(meta).toContain("author: \"Al Second\"\n")
    const abbr = frontMatterOf(htmlToMarkdown(
      post("", `<abbr class="published" itemprop="datePublished" title="2017-09-09T10:52:00+02:00">10:52</abbr>`),
      URL_
    ))
    expect(abbr).toContain("published: \"2017-09-09T10:52:00+02:00\"\n")
  })

  it("lets the meta tags and JSON-LD win, and reads no item that is not writing", () => {
    const inner = `${byline} <time itemprop="datePublished" datetime="2021-11-04">4 Nov</time>`
    const tagged = frontMatterOf(htmlToMarkdown(
      post(
        `<meta name="author" content="Meta Name"><meta property="article:published_time" content="2022-01-01">`,
        inner
      ),
      URL_
    ))
    expect(tagged).toContain("author: \"Meta Name\"\n")
    expect(tagged).toContain("published: \"2022-01-01\"\n")
    const other = frontMatterOf(htmlToMarkdown(post("", inner, "http://schema.org/Event"), URL_))
    expect(other).not.toContain("author:")
    expect(other).not.toContain("published:")
  })

  it("joins the co-authors of one byline, not a teaser's author further down the item", () => {
    const person = (name: string) =>
      `<span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">${name}</span></span>`
    const html = `<html><head><title>Cheap fixes</title></head><body itemscope itemtype="http://schema.org/Article">` +
      `<h1>Cheap fixes</h1><p class="byline">by ${person("Jo Writer")}, and ${person("Al Second")}</p>` +
      `<p>${sentence}</p><p>${sentence}</p><aside><h3>Related</h3><p>Older fixes, by ${person("Other Writer")}</p>` +
      `</aside></body></html>`
    expect(frontMatterOf(htmlToMarkdown(html, URL_))).toContain("author: \"Jo Writer, Al Second\"\n")
  })

  it("reads nothing from a front page of several posts", () => {
    const one = `<div itemscope itemtype="http://schema.org/BlogPosting">${byline}` +
      `<time itemprop="datePublished" datetime="2021-11-04">4 Nov</time><p>${sentence}</p></div>`
    const html = `<html><head><title>Blog</title></head><body>${one}${
      one.replace("2021-11-04", "2021-10-01")
    }</body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md).not.toContain("published:")
    expect(md).not.toContain("author:")
  })
})

describe("readable copy: one title when the page's heading says part of its document title", () => {
  const book = (heading: string): string =>
    `<html><head><title>Defining Traits - The Book of Rust</title></head><body><main>` +
    `<h2 id="t">${heading}</h2><p>${sentence}</p><h2>Default implementations</h2><p>${sentence}</p></main></body></html>`

  it("writes the part the heading says once, as the title", () => {
    const md = htmlToMarkdown(book("Defining Traits"), "https://docs.example/book/traits.html")
    expect(md).toContain("title: \"Defining Traits - The Book of Rust\"\n")
    expect(md.match(/^#+ .*$/gm)).toEqual(["# Defining Traits", "## Default implementations"])
  })

  it("keeps the whole title when no heading says a part of it", () => {
    const md = htmlToMarkdown(book("Traits in general"), "https://docs.example/book/traits.html")
    expect(md.match(/^#+ .*$/gm)).toEqual([
      "# Defining Traits - The Book of Rust",
      "## Traits in general",
      "## Default implementations"
    ])
  })
})
