/**
 * Content choice of the readable copy: one small page per failure class seen on real pages
 * (written here; no copy of any real page). Each page has a story of several paragraphs and the
 * furniture real pages put around or inside it.
 *
 * Over 400 lines: one small page per failure class, all built from the prose, story and link
 * helpers above; a file per class would repeat them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown, pageAsRead } from "../../src/domain/Readable.js"
import { textContent } from "../../src/domain/readable/tree.js"

const URL_ = "https://news.example/2026/12/river.html"

/** A paragraph of plain prose (commas, sentences) that scores as article text. */
const prose = (n: number): string =>
  `The river gauge at station ${n} rose by ${n % 7} centimetres overnight, the water board said, and the ` +
  `engineers on duty, who had expected less, opened the northern sluice before dawn. Residents were told, ` +
  `in a short notice, that the towpath would stay closed until the level fell again.`

const story = (from: number, count: number): string =>
  Array.from({ length: count }, (_, i) => `<p>${prose(from + i)}</p>`).join("\n")

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

const links = (label: string, n: number): string =>
  `<ul>${
    Array.from(
      { length: n },
      (_, i) => `<li><a href="/${label}/${i}">${label} headline number ${i} of the week</a></li>`
    ).join("")
  }</ul>`

describe("readable copy: choosing the content", () => {
  it("takes the scored story, not the first article element (a teaser card)", () => {
    const html = `<html><head><title>River</title></head><body>
      <article class="card"><h2><a href="/other">Other story of the day</a></h2><p>By Desk Editor</p></article>
      <div class="story-body">${story(1, 6)}</div>
    </body></html>`
    const text = copy(html)
    expect(text).toContain(prose(1))
    expect(text).toContain(prose(6))
    expect(text).not.toContain("Other story of the day")
    expect(text).not.toContain("By Desk Editor")
  })

  it("drops share bars, related links, comments, author boxes and cookie notices inside the story's container", () => {
    const html = `<html><body><main><div class="content">
      <div class="share-bar"><a href="/s/fb">Share on Facebook</a> <a href="/s/x">Share on X</a></div>
      ${story(1, 5)}
      <div class="author-box"><p>Jo Writer covers rivers and weather for the paper, and lives near the northern sluice with two cats.</p></div>
      <div class="related-articles"><h3>Related articles</h3>${links("related", 5)}</div>
      <section id="comments"><p>Great article, thanks, I walk the towpath every day and saw the engineers at work, it was impressive.</p></section>
      <div class="cookie-consent"><p>We use cookies to improve your experience, and by continuing you accept them.</p></div>
    </div></main></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
    for (
      const furniture of [
        "Share on Facebook",
        "Jo Writer covers",
        "Related articles",
        "related headline",
        "Great article",
        "We use cookies"
      ]
    ) {
      expect(text).not.toContain(furniture)
    }
  })

  it("takes in an article split over several containers", () => {
    const html = `<html><body><nav>${links("nav", 6)}</nav><div class="page">
      <div class="intro"><div class="lead">${story(1, 3)}</div></div>
      <div class="gallery-break"><div class="continued">${story(4, 3)}</div></div>
    </div><div class="sidebar-links">${links("more", 8)}</div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("more headline")
  })

  it("keeps a wrapper whose name says furniture when it holds most of the page, and an ASP.NET form around everything", () => {
    const html = `<html><body><form id="aspnetForm"><div class="layout has-sidebar"><div class="main-col">${
      story(1, 5)
    }</div></div></form></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
  })

  it("keeps prose in page-builder blocks named like widgets or headers", () => {
    const html = `<html><body><div class="builder">
      <div class="builder-widget builder-widget-text"><div class="widget-inner">${story(1, 2)}</div></div>
      <div class="section-header-text"><p>${prose(3)}</p></div>
      <div class="builder-widget builder-widget-text"><div class="widget-inner">${story(4, 2)}</div></div>
    </div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
  })

  it("drops a heading left with nothing under it, and short paragraphs that are only a link", () => {
    const html = `<html><body><div class="article-text">
      <h2>What happened</h2>${story(1, 4)}
      <p><a href="/elsewhere">Read also: the dam that was never built</a></p>
      ${story(5, 2)}
      <h3>More from the region</h3><div class="more">${links("region", 6)}</div>
    </div></body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md).toContain("## What happened")
    expect(md).toContain(prose(6))
    expect(md).not.toContain("More from the region")
    expect(md).not.toContain("Read also")
  })

  it("keeps a long section whose paragraphs link a lot", () => {
    const linked = (n: number) =>
      `<p>The <a href="/board">water board</a> said the gauge at <a href="/s/${n}">station ${n}</a> rose overnight, and the ` +
      `<a href="/eng">engineers</a> opened the sluice, as <a href="/log">the log</a> shows, before the towpath closed again.</p>`
    const html = `<html><body><div class="entry">${story(1, 3)}<div class="part">${
      [7, 8, 9, 10, 11].map(linked).join("")
    }</div></div></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(1))
    expect(text).toContain("The water board said the gauge at station 9 rose overnight")
  })

  it("finds the story in a page whose body content sits inside an unclosed head", () => {
    const html = `<html><head><title>River</title><meta charset="utf-8"><div class="text">${story(1, 4)}</div></html>`
    const text = copy(html)
    for (let i = 1; i <= 4; i++) expect(text).toContain(prose(i))
  })

  it("finds the story in the page's main when a banner or an aside left unclosed holds it", () => {
    for (const open of [`<header role="banner">`, `<aside class="rail">`, `<div role="complementary">`]) {
      const html = `<html><body>${open}<a href="/">Home of the paper</a>${links("nav", 4)}
        <main><h1>The northern sluice</h1>${story(1, 4)}</main>
        <footer><p>Copyright 2026 The Paper, all rights reserved, printed in the valley.</p></footer></body></html>`
      const text = copy(html)
      for (let i = 1; i <= 4; i++) expect(text).toContain(prose(i))
      expect(text).not.toContain("Copyright 2026")
    }
  })

  it("keeps the answers of an accordion styled with utility classes that clip overflow ('overflow-hidden')", () => {
    const faq = Array.from(
      { length: 2 },
      (_, i) =>
        `<div class="border-b"><h3 class="text-lg">Question ${i} about the sluice?</h3>` +
        `<div class="overflow-hidden transition-all md:overflow-y-hidden"><p>${prose(10 + i)}</p></div></div>`
    ).join("")
    const html = `<html><body><main><div class="mx-auto max-w-3xl">${story(1, 5)}
      <h2>Questions</h2>${faq}</div></main></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
    for (let i = 0; i < 2; i++) expect(text).toContain(prose(10 + i))
  })

  it("keeps blocks whose names hold 'hidden' only as a part (field--label-hidden, hidden-print), not one named hidden", () => {
    const block = (cls: string, from: number) => `<div class="${cls}">${story(from, 2)}</div>`
    const html = `<html><body><div class="article-body">${story(1, 3)}
      ${block("field field--label-hidden", 10)}${block("block hidden-print", 20)}${block("note hidden", 30)}
      </div></body></html>`
    const text = copy(html)
    for (const i of [1, 3, 10, 11, 20, 21]) expect(text).toContain(prose(i))
    expect(text).not.toContain(prose(30))
  })

  it("still leaves out a main hidden from readers, and a closed banner beside the page's main", () => {
    const html =
      `<html><body><header role="banner"><p>Banner line of the paper with a slogan, a date and a motto.</p></header>
      <div aria-hidden="true"><main><p>Hidden drawer text that no reader sees on the page at all.</p></main></div>
      <div class="story-body">${story(1, 4)}</div></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(4))
    expect(text).not.toContain("Banner line")
    expect(text).not.toContain("Hidden drawer text")
  })

  it("keeps a run of paragraphs inside the story whose wrapper has a negative name (banner, media, scroll)", () => {
    const html = `<html><body><div class="article-body"><div class="intro">${story(1, 2)}</div>
      <div class="banners-in-story"><div class="scrollblock">${story(3, 4)}</div></div>
      <div class="media-credit"><p>Photo: Archive</p></div>
    </div><div class="sidebar">${links("more", 6)}</div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("more headline")
  })

  it("keeps a forum's first post when it is named as a comment (no other content on the page)", () => {
    const html = `<html><body><nav>${links("nav", 5)}</nav><h1>Thread: the northern sluice</h1>
      <div class="thread"><div class="comment-item first"><div class="comment-author">user1</div><div class="comment-body">${
      story(1, 6)
    }</div></div>
      <div class="comment-form"><p>Log in to reply to this thread.</p></div></div>
      <div class="sidebar">${links("more", 45)}</div><div class="related">${links("related", 45)}</div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("more headline")
  })

  it("leaves out figure captions", () => {
    const html = `<html><body><div class="article">${
      story(1, 3)
    }<figure><img src="/a.jpg"><figcaption>The sluice at dawn. Photo: Archive</figcaption></figure>${
      story(4, 2)
    }</div></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(5))
    expect(text).not.toContain("The sluice at dawn")
  })

  it("keeps a sentence that crosses links, emphasis and entities verbatim (only link syntax around the text)", () => {
    const html = `<html><body><div class="article">${
      story(1, 3)
    }<p>Clients must read the <a href="/guide">migration guide</a> before the <em>removal</em> on June&nbsp;1.</p></div></body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md).toContain(
      "Clients must read the [migration guide](https://news.example/guide) before the removal on June 1."
    )
  })
})

describe("readable copy: boilerplate inside and around the story (issue 14)", () => {
  it("drops pseudo-headings ('More on this:', an all-bold line) that introduce nothing, keeps a bold closing sentence", () => {
    const html = `<html><body><div class="story">${story(1, 5)}
      <p><strong>Read next</strong></p><div class="more">${links("next", 5)}</div>
      <h2>The engineers</h2>${story(6, 2)}
      <p><strong>Thanks for reading the river report.</strong></p>
      <p>More on this topic:</p><ul class="more">${links("topic", 5)}</ul>
    </div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 7; i++) expect(text).toContain(prose(i))
    expect(text).toContain("Thanks for reading the river report.")
    expect(text).not.toContain("Read next")
    expect(text).not.toContain("More on this topic")
  })

  it("drops disclaimer, copyright, affiliate, call-to-action and rating blocks named as such", () => {
    const html = `<html><body><div class="story">${story(1, 5)}
      <p class="ad-disclosure">We may receive a commission when you buy through the links on this page, at no cost to you.</p>
      <div class="cta-box"><p>Enjoyed this story? Become a member today and support independent river reporting.</p></div>
      <div class="post-ratings"><p>Was this article helpful to you? Rate it now.</p></div>
      <div class="copyright"><p>© 2026 River News Ltd. All rights reserved.</p></div>
    </div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
    for (const furniture of ["commission", "Become a member", "Rate it now", "All rights reserved"]) {
      expect(text).not.toContain(furniture)
    }
  })

  it("drops blocks whose class names a furniture part even with a content word in it ('related-articles', 'author-box__content')", () => {
    const html = `<html><body><div class="story-body">${story(1, 5)}
      <div class="author-box__content"><p>Jo Writer covers rivers and weather for the paper, and lives near the northern sluice with two cats.</p></div>
      <div class="related-articles"><p>The dam that was never built, and why the valley still talks about it, twenty years on.</p></div>
    </div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("Jo Writer")
    expect(text).not.toContain("never built")
  })

  it("drops a teaser list's items inside the story's container", () => {
    const teaser = (n: number) =>
      `<li class="teaser"><a href="/t/${n}">Other story ${n}</a><p>A summary of other story ${n}, which is about something else, ` +
      `told at length, with commas, so that the list scores like prose, and a reader, skimming, might take it for the article, since it runs on, and on, over several lines of the page.</p></li>`
    const html = `<html><body><div class="story">${story(1, 6)}<ul class="teaser-item-list">${
      [1, 2, 3, 4].map(teaser).join("")
    }</ul></div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("summary of other story")
  })

  it("takes in the article's lead when it sits in the header beside the body", () => {
    const html = `<html><body><main><article><header><h1>The river rose</h1>
      <div class="wrap"><p class="article-lead">Engineers opened the northern sluice before dawn as the water kept rising through the night.</p></div></header>
      <div class="layout"><div class="col"><div class="body-text">${story(1, 6)}</div></div></div>
      <div class="sidebar-box"><p class="intro">A different box that is not the lead, placed after the story's body.</p></div>
    </article></main></body></html>`
    const text = copy(html)
    expect(text).toContain("Engineers opened the northern sluice before dawn")
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text.indexOf("Engineers opened")).toBeLessThan(text.indexOf(prose(1)))
  })

  it("takes a lead named 'teaser' above the article when it reads as text, not a teaser of links", () => {
    const html = `<html><body><div class="news"><div class="head"><h1>The river rose</h1>
      <div class="teaser-text">Engineers opened the northern sluice before dawn as the water kept rising through the night.</div>
      <div class="teaser-more"><a href="/a">Another story entirely</a> <a href="/b">And one more story here</a> and a few words</div></div>
      <div class="part"><div class="text">${story(1, 6)}</div></div></div></body></html>`
    const text = copy(html)
    expect(text).toContain("Engineers opened the northern sluice before dawn")
    expect(text).not.toContain("Another story entirely")
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
  })

  it("prefers the story inside the page's main element to prose elsewhere (an overlay)", () => {
    const overlay = `<div class="ie-overlay"><div class="box">${story(100, 4)}</div></div>`
    const html = `<html><body>${overlay}<main><section class="news"><p>${prose(1)}</p><p>${prose(2)}</p><p>${
      prose(3)
    }</p></section></main></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 3; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain(prose(100))
  })

  it("keeps paragraphs whose sentences carry a few links", () => {
    // A quarter of this block is link text: Readability's 0.2 would clean it out.
    const sentence = (n: number) =>
      `<p>The <a href="/board">water board of the northern district</a> said gauge ${n} rose by four centimetres overnight, and the engineers, who had ` +
      `<a href="/log">expected far less water this week</a>, opened the sluice before dawn.</p>`
    const linked = `${sentence(1)}${
      sentence(2)
    }<p>Residents were told, in a short notice from the water board, that the towpath would stay closed until the level fell again.</p>`
    const html = `<html><body><div class="story">${story(1, 4)}<div class="box">${linked}</div></div></body></html>`
    const text = copy(html)
    expect(text).toContain("The water board of the northern district said gauge 2 rose by four centimetres overnight")
    expect(text).toContain("that the towpath would stay closed until the level fell again")
  })

  it("keeps a recipe's ingredients: a list of short items without links, and a table named '…-header'", () => {
    const items = ["200 g flour", "100 g butter", "2 eggs", "1 pinch of salt", "50 ml milk"]
    const html = `<html><body><article class="recipe">${story(1, 4)}
      <div class="ingredients"><ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul></div>
      <table class="ingredients table-header"><tr><th>For the dough:</th></tr><tr><td>300 g</td><td>wheat flour</td></tr><tr><td>1 tsp</td><td>baking powder</td></tr></table>
      ${story(5, 2)}</article></body></html>`
    const text = copy(html)
    for (const i of items) expect(text).toContain(i)
    expect(text).toContain("wheat flour")
    expect(text).toContain("For the dough:")
  })

  it("drops italic notes at the very end of the story (disclosure, author's bio), keeps italics inside it", () => {
    const html = `<html><body><div class="story">${story(1, 3)}<p><em>${prose(4)}</em></p>${story(5, 2)}
      <p><em>Jo Writer covers rivers for the paper. This story first appeared in the Valley Weekly, whose permission we thank.</em></p></div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("Jo Writer")
  })

  it("leaves out ruby readings (annotations printed above the base text)", () => {
    const html = `<html><body><div class="article">${
      story(1, 3)
    }<p><ruby>法律<rp>(</rp><rt>ほうりつ</rt><rp>)</rp></ruby>ができて、親が子どもを教育するために、体罰をしてはいけないことになりました。</p></div></body></html>`
    const text = copy(html)
    expect(text).toContain("法律ができて、親が子どもを教育するために")
    expect(text).not.toContain("ほうりつ")
  })
})

describe("readable copy: quotes stay verbatim", () => {
  const word = fc.constantFrom(
    "river",
    "gauge",
    "rose",
    "the",
    "board",
    "sluice",
    "a",
    "towpath",
    "level",
    "engineers",
    "5",
    "%",
    "night",
    "dawn",
    "Zürich",
    "naïve"
  )
  const piece = fc.oneof(
    { weight: 6, arbitrary: word.map((w) => ({ html: w, text: w })) },
    { weight: 1, arbitrary: word.map((w) => ({ html: `<a href="/w/${w}">${w}</a>`, text: w })) },
    { weight: 1, arbitrary: word.map((w) => ({ html: `<em>${w}</em>`, text: w })) },
    { weight: 1, arbitrary: fc.constant({ html: "&amp;", text: "&" }) }
  )
  const sentence = fc.array(piece, { minLength: 6, maxLength: 30 }).map((ps) => ({
    html: `${ps.map((p) => p.html).join(" ")}, and more.`,
    text: `${ps.map((p) => p.text).join(" ")}, and more.`
  }))

  it.prop("every sentence of a generated article is in the copy as a reader sees it", [
    fc.array(sentence, { minLength: 4, maxLength: 12 })
  ], ([sentences]) => {
    const html = `<html><body><nav><a href="/">Home</a></nav><div class="article-body">${story(1, 2)}${
      sentences.map((s) => `<p>${s.html}</p>`).join("")
    }</div><footer>Site footer</footer></body></html>`
    const text = copy(html).replace(/\s+/g, " ")
    for (const s of sentences) expect(text).toContain(s.text)
    expect(text).not.toContain("Site footer")
  }, { fastCheck: { numRuns: 200 } })
})

describe("readable copy: link edges", () => {
  it("keeps the spaces at the edges of a link's text outside the link", () => {
    const md = htmlToMarkdown(
      `<p>started the<a href="/fund"> Go Fund Me </a>page, and <a href="/x">more</a>.</p>`,
      URL_
    )
    expect(md).toBe("started the [Go Fund Me](https://news.example/fund) page, and [more](https://news.example/x).\n")
    expect(readerText(md)).toContain("started the Go Fund Me page, and more.")
  })
})

describe("readable copy: many leads above the story", () => {
  const page = (cls: string, n: number): string =>
    `<html><body><div class="news"><div class="head"><h1>The river rose</h1>` +
    Array.from(
      { length: n },
      (_, i) => `<div class="${cls}">Engineers opened sluice number ${i} before dawn as the water kept rising.</div>`
    ).join("") +
    `</div><div class="part"><div class="text">${story(1, 6)}</div></div></div></body></html>`

  it("takes in thousands of 'teaser' leads above the story, the first and the last", () => {
    // Each lead named as furniture is measured again once kept (edges.ts, `leads`), found by its
    // place in document order (its cost on such pages is measured in docs/performance.md).
    const n = 5_000
    const hostile = copy(page("teaser", n))
    expect(hostile).toContain("sluice number 0 before dawn")
    expect(hostile).toContain(`sluice number ${n - 1} before dawn`)
    expect(hostile).toContain(prose(6))
  })
})

describe("readable copy: pages that are not articles (listings, app shells, streamed pages)", () => {
  const furniture =
    `<header class="site-header"><a href="/">Home of the Shop</a> <a href="/login">Sign in to your account</a></header>
    <nav>${links("nav", 6)}</nav>`
  const footer =
    `<footer><p>Copyright 2026 The Shop Company, all rights reserved, registered in the valley.</p></footer>
    <div class="cookie-banner"><p>We use cookies to make this site work, accept them to continue.</p></div>`

  it("keeps a listing of short cards as the page's visible text, without header, navigation, footer and cookie banner", () => {
    const cards = Array.from(
      { length: 12 },
      (_, i) =>
        `<div class="card teaser"><a href="/item/${i}"><h3>Walking boot model ${i}</h3></a><span>From ${
          20 + i
        } euros</span></div>`
    ).join("")
    const html = `<html><head><title>Boots</title></head><body>${furniture}
      <div class="grid"><h1>Walking boots</h1>${cards}</div>${footer}</body></html>`
    const text = copy(html)
    for (let i = 0; i < 12; i++) {
      expect(text).toContain(`Walking boot model ${i}`)
      expect(text).toContain(`From ${20 + i} euros`)
    }
    for (const f of ["Sign in to your account", "nav headline", "Copyright 2026", "We use cookies"]) {
      expect(text).not.toContain(f)
    }
  })

  it("keeps a thread whose posts are all named as comments, and every post of it", () => {
    const posts = Array.from(
      { length: 4 },
      (_, i) =>
        `<div class="comment-item"><div class="comment-author">member${i}</div><div class="comment-body">${`<p>${
          prose(i)
        }</p>`}</div></div>`
    ).join("")
    const html =
      `<html><head><title>Thread</title></head><body>${furniture}<div id="comments-list">${posts}</div>${footer}</body></html>`
    const text = copy(html)
    for (let i = 0; i < 4; i++) expect(text).toContain(prose(i))
  })

  it("keeps a thread's replies named as comments when the page says it is a discussion (schema.org), not an article's comments", () => {
    const replies = Array.from(
      { length: 3 },
      (_, i) => `<div class="comment"><div class="comment-text"><p>${prose(20 + i)}</p></div></div>`
    ).join("")
    const page = (ld: string) =>
      `<html><head><title>Thread</title>${ld}</head><body>${furniture}<div class="thread"><h1>Sluice question</h1>
      <div class="post-body">${story(1, 4)}</div><div class="comments">${replies}</div></div>${footer}</body></html>`
    const thread = copy(page(`<script type="application/ld+json">{"@context":"https://schema.org",
      "@type":"DiscussionForumPosting","headline":"Sluice question"}</script>`))
    for (let i = 1; i <= 4; i++) expect(thread).toContain(prose(i))
    for (let i = 0; i < 3; i++) expect(thread).toContain(prose(20 + i))
    const article = copy(page(""))
    expect(article).toContain(prose(4))
    expect(article).not.toContain(prose(20))
  })

  it("leaves out a reply's quote of an earlier post of the thread, keeps a quote of text not shown before it", () => {
    const post = (i: number, body: string) =>
      `<article class="message"><div class="user">member${i}</div><div class="body">${body}</div></article>`
    const quote = (who: string, text: string) =>
      `<blockquote class="bbCodeBlock--quote"><div><a href="/goto/1">${who} said:</a></div><div>${text}</div><div><a>Click to expand...</a></div></blockquote>`
    const notice = "Ferry crossings resume on Monday morning once divers have checked every mooring chain twice."
    const html = `<html><head><title>Thread</title></head><body>${furniture}<div class="thread">
      ${post(0, `<p>${prose(1)}</p><p>${prose(2)}</p>`)}
      ${post(1, `${quote("member0", prose(2))}<p>${prose(3)}</p>`)}
      ${post(2, `${quote("the water board", notice)}<p>${prose(4)}</p>`)}
      ${post(3, `<blockquote>${prose(1)} ${prose(3)}</blockquote><p>${prose(5)}</p>`)}
    </div>${footer}</body></html>`
    const text = copy(html)
    const count = (s: string) => text.split(s).length - 1
    for (let i = 1; i <= 5; i++) expect(count(prose(i))).toBe(1)
    // A quote of words the copy does not hold before it stays.
    expect(count(notice)).toBe(1)
  })

  it("leaves out a reply's clamped preview of the post it answers, keeps a clamped line not shown before it", () => {
    const post = (i: number, body: string) =>
      `<li class="post"><div class="user">member${i}</div><div class="content">${body}</div></li>`
    // The page holds the whole parent post in the preview; a style sheet shows its first line only.
    const preview = (text: string, clamp: string) =>
      `<div class="post-parent"><a href="/user/member0">member0</a><div ${clamp}><p>${text}</p></div></div>`
    const teaser = "Ferry crossings resume on Monday morning once divers have checked every mooring chain twice."
    const html = `<html><head><title>Thread</title></head><body>${furniture}<ul class="posts">
      ${post(0, `<p>${prose(1)}</p><p>${prose(2)}</p>`)}
      ${post(1, `${preview(`${prose(1)} ${prose(2)}`, `class="text-muted line-clamp-1"`)}<p>${prose(3)}</p>`)}
      ${post(2, `${preview(prose(3), `style="-webkit-line-clamp: 2"`)}<p>${prose(4)}</p>`)}
      ${post(3, `${preview(teaser, `class="text-truncate"`)}<p>${prose(5)}</p>`)}
    </ul>${footer}</body></html>`
    const text = copy(html)
    const count = (s: string) => text.split(s).length - 1
    for (let i = 1; i <= 5; i++) expect(count(prose(i))).toBe(1)
    // A clamped line of words the copy does not hold before it stays.
    expect(count(teaser)).toBe(1)
  })

  it("leaves out each post's poster panel (title, banner, counts) and signature, keeps the posts", () => {
    const posts = Array.from(
      { length: 4 },
      (_, i) =>
        `<article class="message"><div class="message-user"><div class="message-userDetails"><h4>member${i}</h4>
        <h5 class="userTitle message-userTitle">Senior sluice keeper of the northern district</h5>
        <div class="message-userExtras"><dl><dt>Joined</dt><dd>March ${i + 1}, 2019</dd><dt>Messages</dt><dd>${
          1000 + i
        }</dd></dl></div></div></div>
        <div class="message-userContent"><div class="bbWrapper"><p>${prose(i)}</p></div>
        <div class="message-signature">Keeper of lock ${i}, thirty years on the canal, ask me anything about gates.</div></div></article>`
    ).join("")
    const html =
      `<html><head><title>Thread</title></head><body>${furniture}<div class="thread">${posts}</div>${footer}</body></html>`
    const text = copy(html)
    for (let i = 0; i < 4; i++) {
      expect(text).toContain(prose(i))
      expect(text).not.toContain(`Keeper of lock ${i}`)
      expect(text).not.toContain(`${1000 + i}`)
    }
    expect(text).not.toContain("Senior sluice keeper")
  })

  it("keeps a card's title once when a link over the whole card repeats it before its heading", () => {
    const cards = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="story"><a href="/post/${i}" class="story__overlay-link">Notes on sluice gate ${i}</a>
        <div class="story__meta"><a href="/u/${i}">keeper${i}</a> <span>March ${i + 1}</span></div>
        <h2><a href="/post/${i}">Notes on sluice gate ${i}</a></h2>
        <p>How the gate at lock ${i} was opened before dawn, and what the engineers on duty wrote down.</p></div>`
    ).join("")
    const html = `<html><head><title>Posts</title></head><body>${furniture}
      <main><h1>Posts</h1>${cards}<p>${prose(1)}</p></main>
      ${footer}</body></html>`
    const text = copy(html)
    const count = (s: string) => text.split(s).length - 1
    for (let i = 0; i < 8; i++) expect(count(`Notes on sluice gate ${i}`)).toBe(1)
    for (let i = 0; i < 8; i++) expect(text).toContain(`How the gate at lock ${i} was opened`)
  })

  it("keeps the entries of a category page (lists of links in its main), not the lists of links around it", () => {
    // The intro scores; the 200 members (all links, in lists by letter) are most of what the page shows.
    const letters = Array.from(
      { length: 8 },
      (_, k) =>
        `<h3>Letter ${k}</h3><ul>${
          Array.from({ length: 25 }, (_, i) => `<li><a href="/wiki/Gauge_${k}_${i}">Gauge language ${k}-${i}</a></li>`)
            .join("")
        }</ul>`
    ).join("")
    const tools = `<ul>${
      ["Edit page", "View history", "Talk page"].map((t, i) => `<li><a href="/tool/${i}">${t}</a></li>`).join("")
    }</ul>`
    const html = `<html><head><title>Category</title></head><body>${furniture}
      <div class="portal">${links("portal", 12)}</div>
      <main><h1>Category: Gauge languages</h1>${tools}<p>${prose(1)}</p>${letters}</main>
      ${footer}</body></html>`
    const text = copy(html)
    expect(text).toContain(prose(1))
    for (let k = 0; k < 8; k++) for (let i = 0; i < 25; i++) expect(text).toContain(`Gauge language ${k}-${i}`)
    for (const f of ["portal headline", "Edit page", "Sign in to your account", "Copyright 2026"]) {
      expect(text).not.toContain(f)
    }
  })

  it("reads an app shell's crawler copy in noscript when the page shows almost nothing else", () => {
    const html = `<html><head><title>Thread</title><script>boot()</script></head><body>
      <div id="app"><p>Loading…</p></div>
      <noscript><div id="main-outlet" role="main"><h1>Sluice question</h1>${story(1, 4)}</div></noscript></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 4; i++) expect(text).toContain(prose(i))
  })

  it("hands the benches the page as the copy reads it: an app shell's noscript copy revealed", () => {
    // bench/wcxbCost.ts, wcxbCeiling.ts and wcxbWidth.ts score the page's elements against the
    // copy; parsed apart from it, such a page showed them no text and its choice read as a fallback.
    const html = `<html><head><title>Thread</title><script>boot()</script></head><body>
      <div id="app"><p>Loading…</p></div>
      <noscript><div id="main-outlet" role="main"><h1>Sluice question</h1>${story(1, 4)}</div></noscript></body></html>`
    const { page } = pageAsRead(html, "https://example.org/t/1")
    expect(page).toBeDefined()
    const shown = textContent(page!.texts, page!.root, true, true)
    for (let i = 1; i <= 4; i++) expect(shown).toContain(prose(i))
  })

  it("reads an article streamed into a hidden container that a script moves in place", () => {
    const html = `<html><head><title>River</title></head><body>${furniture}
      <main><template id="B:0"></template><p>Loading the story</p></main>${footer}
      <div hidden id="S:0"><article><h1>The river rose</h1>${story(1, 5)}</article></div>
      <script>$RC("B:0","S:0")</script></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 5; i++) expect(text).toContain(prose(i))
  })

  it("still leaves out a hidden menu and a noscript notice beside a visible article", () => {
    const html =
      `<html><body><div hidden class="mobile-drawer"><p>Drawer entry with a long label for the mobile menu of the site.</p></div>
      <noscript><p>Please enable JavaScript to see the comments and the interactive map of the river.</p></noscript>
      <article>${story(1, 5)}</article></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(5))
    expect(text).not.toContain("Drawer entry")
    expect(text).not.toContain("Please enable JavaScript")
  })
  it("reads a stray CDATA opener in the body as a browser does: a bogus comment ending at the first '>'", () => {
    // htmlparser2 reads `<![CDATA[` to a `]]>` that never comes, which swallowed the whole thread.
    const posts = Array.from(
      { length: 3 },
      (_, i) => `<article class="message-body"><div class="bbWrapper">${prose(i)}</div></article>`
    ).join("")
    const html = `<html><head><title>Thread</title></head><body class="forum">
      <![CDATA[
      <div id="jumpToTop"></div><div class="p-body"><h1>Sluice question</h1>${posts}</div></body></html>`
    const text = copy(html)
    for (let i = 0; i < 3; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("CDATA")
  })

  it("gives the page's description when the page shows no text of its own (a script renders it)", () => {
    const html = `<html><head><title>Sluice question</title>
      <meta name="description" content="Which sluice opens first when the river gauge rises overnight, and who decides it?">
      <script src="/app.js"></script></head><body><div id="app"></div></body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(readerText(md)).toContain(
      "Which sluice opens first when the river gauge rises overnight, and who decides it?"
    )
  })

  it("keeps a service page's short offers when the scored paragraph is a small part of what it shows, without its bare link lists", () => {
    // One paragraph scores; the rest of the page is short blocks that never score (a price table
    // of cards): the scored choice keeps under a twentieth of the visible text.
    const offers = Array.from(
      { length: 80 },
      (_, i) =>
        `<div class="offer"><div class="name">Sluice inspection plan ${i}</div><div class="price">${
          100 + i
        } euros a year</div><div class="term">Monthly visit ${i}</div><div class="extra">Report within ${
          i + 2
        } days</div></div>`
    ).join("")
    const menu = `<ul class="quick">${
      Array.from({ length: 8 }, (_, i) => `<li><a href="/q/${i}">Quick link to section ${i}</a></li>`).join("")
    }</ul>`
    const html = `<html><head><title>Plans</title></head><body>${furniture}${menu}
      <div class="intro"><p>${prose(1)}</p></div><div class="offers">${offers}</div>${footer}</body></html>`
    const text = copy(html)
    expect(text).toContain(prose(1))
    for (let i = 0; i < 80; i++) {
      expect(text).toContain(`Sluice inspection plan ${i}`)
      expect(text).toContain(`${100 + i} euros a year`)
    }
    expect(text).not.toContain("Quick link to section")
    for (const f of ["Sign in to your account", "Copyright 2026", "We use cookies"]) expect(text).not.toContain(f)
  })
  const courses = (n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `<div class="row"><div class="name">Sluice course ${i}</div><div class="when">Starts week ${
          i + 1
        }</div><div class="fee">${40 + i} euros</div></div>`
    ).join("")

  it("keeps what a page lists when the scored choice is only its preface (one paragraph, under a tenth of what it shows)", () => {
    // The intro paragraph scores; the 90 entries under it never do and hold over nine tenths of the text.
    const html = `<html><head><title>Courses</title></head><body>${furniture}
      <div class="intro"><p>${prose(1)}</p></div><div class="list">${courses(90)}</div>${footer}</body></html>`
    const text = copy(html)
    expect(text).toContain(prose(1))
    for (let i = 0; i < 90; i++) expect(text).toContain(`Sluice course ${i}`)
    for (const f of ["Sign in to your account", "Copyright 2026", "We use cookies"]) expect(text).not.toContain(f)
  })

  it("keeps a service page's feature blocks under their headings when the scored part is a minority of its unlinked text", () => {
    // The hero's three paragraphs score; thirty feature blocks and a FAQ (a heading and a short
    // line each) never do, and together hold most of the text a reader reads rather than follows.
    const features = Array.from(
      { length: 30 },
      (_, i) => `<div class="feature"><h3>Gauge feature ${i}</h3><div>Every ${i + 5} minutes.</div></div>`
    ).join("")
    const faq = Array.from(
      { length: 10 },
      (_, i) => `<h4>Question about station ${i}?</h4><div>Yes, at station ${i}.</div>`
    ).join("")
    const html = `<html><head><title>Gauges</title></head><body>${furniture}
      <div class="hero">${story(1, 3)}</div><section class="features">${features}</section>
      <section class="faq">${faq}</section>${footer}</body></html>`
    const text = copy(html)
    expect(text).toContain(prose(3))
    for (let i = 0; i < 30; i++) {
      expect(text).toContain(`Gauge feature ${i}`)
      expect(text).toContain(`Every ${i + 5} minutes.`)
    }
    for (let i = 0; i < 10; i++) expect(text).toContain(`Yes, at station ${i}.`)
    for (const f of ["Sign in to your account", "nav headline", "Copyright 2026", "We use cookies"]) {
      expect(text).not.toContain(f)
    }
  })

  it("keeps only the article of a few paragraphs beside the same entries (more than a preface)", () => {
    const html = `<html><head><title>Courses</title></head><body>${furniture}
      <div class="story-body">${story(1, 3)}</div><div class="list">${courses(90)}</div>${footer}</body></html>`
    const text = copy(html)
    expect(text).toContain(prose(3))
    expect(text).not.toContain("Sluice course")
  })
})

/** A shop's article about garden shears, `extra` after its two paragraphs. */
const shears = (extra: string) =>
  `<html><head><title>Garden shears</title></head><body><main><article>
      <h1>Garden shears</h1>
      <p>These shears cut branches up to two centimetres thick with one hand, and their blades come apart ` +
  `for sharpening, so that one pair lasts a gardener's whole life, season after season.</p>
      <p>The handles are of ash, oiled rather than varnished, and the spring is of steel wire that can be ` +
  `changed in a minute with the small key that comes in the box.</p>
      ${extra}
      </article></main></body></html>`

describe("readable copy: a theme's placeholder text", () => {
  it("leaves out blocks that open with lorem ipsum, in their inline runs too", () => {
    const page = shears(
      `<div class="feature"><h3>Feature three</h3><p><span style="color: #333">Lorem ipsum dolor sit amet, ` +
        `consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</span></p></div>
      <p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, ut enim ad minim veniam, quis nostrud exercitation.</p>`
    )
    const text = copy(page)
    expect(text).toContain("their blades come apart for sharpening")
    expect(text).toContain("changed in a minute")
    expect(text).not.toContain("Lorem ipsum")
  })

  it("leaves out blocks that open with the filler misspelled, as a theme's designer typed it", () => {
    const page = shears(
      `<div class="feature"><h3>Built to last</h3><p>LOREM ISPUM DOLOR ET AL YADA YADA, THE SECOND LINE OF ` +
        `A FEATURE COLUMN THAT NOBODY FILLED IN</p></div>
      <p>Lorem ipsom dolor sit amet, consectetur adipiscing elit, ut enim ad minim veniam, quis nostrud.</p>`
    )
    const text = copy(page)
    expect(text).toContain("changed in a minute")
    expect(text).not.toMatch(/ISPUM|ipsom/)
  })
})

describe("readable copy: a cookie notice", () => {
  it("leaves out a block that opens by saying who uses cookies", () => {
    const page = shears(
      `<div class="notice-x2"><p>Shearshop uses cookies to remember your basket and to measure visits; by using ` +
        `our site you agree to our use of cookies.</p></div>`
    )
    const text = copy(page)
    expect(text).toContain("changed in a minute")
    expect(text).not.toContain("uses cookies")
  })

  it("keeps a sentence about cookies that does not open that way", () => {
    const page = `<html><head><title>Baking</title></head><body><main><article><h1>Baking</h1>
      <p>Most recipes for oat biscuits ask for too much butter, and the biscuits spread into one sheet on the tray, ` +
      `which is why this one uses half as much and rests the dough for an hour in the cold before baking.</p>
      <p>The cookies use brown sugar, which keeps them soft in the middle for a day or two after baking.</p>
      </article></main></body></html>`
    expect(copy(page)).toContain("The cookies use brown sugar")
  })
})
