/**
 * Content choice of the readable copy: one small page per failure class seen on real pages
 * (written here; no copy of any real page). Each page has a story of several paragraphs and the
 * furniture real pages put around or inside it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { htmlToMarkdown } from "../../src/domain/Readable.js"
import { readerText } from "../../bench/readerText.js"

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
  `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/${label}/${i}">${label} headline number ${i} of the week</a></li>`).join("")}</ul>`

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
    for (const furniture of ["Share on Facebook", "Jo Writer covers", "Related articles", "related headline", "Great article", "We use cookies"]) {
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
    const html = `<html><body><form id="aspnetForm"><div class="layout has-sidebar"><div class="main-col">${story(1, 5)}</div></div></form></body></html>`
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
    const html = `<html><body><div class="entry">${story(1, 3)}<div class="part">${[7, 8, 9, 10, 11].map(linked).join("")}</div></div></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(1))
    expect(text).toContain("The water board said the gauge at station 9 rose overnight")
  })

  it("finds the story in a page whose body content sits inside an unclosed head", () => {
    const html = `<html><head><title>River</title><meta charset="utf-8"><div class="text">${story(1, 4)}</div></html>`
    const text = copy(html)
    for (let i = 1; i <= 4; i++) expect(text).toContain(prose(i))
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
      <div class="thread"><div class="comment-item first"><div class="comment-author">user1</div><div class="comment-body">${story(1, 6)}</div></div>
      <div class="comment-form"><p>Log in to reply to this thread.</p></div></div>
      <div class="sidebar">${links("more", 45)}</div><div class="related">${links("related", 45)}</div></body></html>`
    const text = copy(html)
    for (let i = 1; i <= 6; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("more headline")
  })

  it("leaves out figure captions", () => {
    const html = `<html><body><div class="article">${story(1, 3)}<figure><img src="/a.jpg"><figcaption>The sluice at dawn. Photo: Archive</figcaption></figure>${story(4, 2)}</div></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(5))
    expect(text).not.toContain("The sluice at dawn")
  })

  it("keeps a sentence that crosses links, emphasis and entities verbatim (only link syntax around the text)", () => {
    const html = `<html><body><div class="article">${story(1, 3)}<p>Clients must read the <a href="/guide">migration guide</a> before the <em>removal</em> on June&nbsp;1.</p></div></body></html>`
    const md = htmlToMarkdown(html, URL_)
    expect(md).toContain("Clients must read the [migration guide](https://news.example/guide) before the removal on June 1.")
  })
})

describe("readable copy: quotes stay verbatim", () => {
  const word = fc.constantFrom("river", "gauge", "rose", "the", "board", "sluice", "a", "towpath", "level", "engineers", "5", "%", "night", "dawn", "Zürich", "naïve")
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

  it.prop("every sentence of a generated article is in the copy as a reader sees it", [fc.array(sentence, { minLength: 4, maxLength: 12 })], ([sentences]) => {
    const html = `<html><body><nav><a href="/">Home</a></nav><div class="article-body">${story(1, 2)}${sentences.map((s) => `<p>${s.html}</p>`).join("")}</div><footer>Site footer</footer></body></html>`
    const text = copy(html).replace(/\s+/g, " ")
    for (const s of sentences) expect(text).toContain(s.text)
    expect(text).not.toContain("Site footer")
  }, { fastCheck: { numRuns: 200 } })
})

describe("readable copy: link edges", () => {
  it("keeps the spaces at the edges of a link's text outside the link", () => {
    const md = htmlToMarkdown(`<p>started the<a href="/fund"> Go Fund Me </a>page, and <a href="/x">more</a>.</p>`, URL_)
    expect(md).toBe("started the [Go Fund Me](https://news.example/fund) page, and [more](https://news.example/x).\n")
    expect(readerText(md)).toContain("started the Go Fund Me page, and more.")
  })
})
