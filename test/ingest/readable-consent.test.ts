/**
 * A cookie or consent banner known by its build (readable/consents.ts): named for cookies or
 * consent and built as a banner (a form or button to answer it, a dialog, a box fixed over the
 * window). A short blog post's copy is the post, never the banner's sentence about cookies, with
 * the post's title as its one title and without the blog's sidebar (content.ts `shortPost`); a
 * section of a page named for cookies that is built as no banner stays.
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://blog.example/2013/06/14/short/"
const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

/** The notice of a hosted blog's banner, as a German blog of that host writes it. */
const NOTICE = "Datenschutz &amp; Cookies: Diese Website verwendet Cookies. Wenn du die Website weiterhin nutzt, " +
  "stimmst du der Verwendung von Cookies zu. <br />Weitere Informationen, beispielsweise zur Kontrolle von " +
  "Cookies, findest du hier:"

/** The banner as that host's widget writes it: a form whose submit input accepts. */
const widget = `<div class="widget widget_eu_cookie_law_widget"><div class="hide-on-button" id="eu-cookie-law">` +
  `<form method="post"><input type="submit" value="Schließen und Akzeptieren" class="accept" /> ${NOTICE} ` +
  `<a href="https://cookies.example/policy">Cookie-Richtlinie</a></form></div></div>`

/** A post of three short lines under the blog's header, with a sidebar of archive links (`archives` lists). */
const post = (banner: string, archives = 3): string =>
  `<!doctype html><html lang="de"><head><title>Kurz gesagt | Ein Blog</title>` +
  `<meta property="article:published_time" content="2013-06-14T19:51:56+00:00"></head><body>` +
  `<div id="header"><h1><a href="https://blog.example/">Ein Blog</a></h1></div><div id="content">` +
  `<div class="post type-post hentry" id="post-406"><h2 class="posttitle"><a href="${URL_}">Kurz gesagt</a></h2>` +
  `<p>„Ich weiß, ich sollte das vielleicht nicht sagen…“</p><p>– „Dann sag es nicht.“</p><p>– „Ok.“</p>` +
  `<div class="sharedaddy"><h3>Teilen Sie dies mit:</h3><ul><li><a href="https://share.example/t">Twitter</a></li>` +
  `</ul></div></div><div id="comments-area" class="comment-respond"><h3>Kommentar verfassen</h3><form>` +
  `<textarea name="c"></textarea></form></div></div><div id="sidebar">` +
  Array.from({ length: archives }, (_, i) =>
    `<div class="widget widget_links"><h2>Archiv ${i}</h2><ul>` +
    Array.from({ length: 12 }, (_, j) =>
      `<li><a href="https://blog.example/${i}/${j}/">Monat ${j} im Jahr 20${i}0</a></li>`)
      .join("") +
    `</ul></div>`).join("") +
  `</div>${banner}</body></html>`

describe("readable copy: a cookie banner known by its build", () => {
  it("keeps a short post, not the banner, when the post is too short to score", () => {
    const text = copy(post(widget))
    expect(text).toContain("Dann sag es nicht.")
    expect(text).not.toContain("Diese Website verwendet Cookies")
  })

  it("leaves the banner out where it is a large share of a short page", () => {
    const text = copy(post(widget, 0))
    expect(text).toContain("Dann sag es nicht.")
    expect(text).not.toContain("Diese Website verwendet Cookies")
  })

  it("leaves out a banner drawn as a dialog or fixed over the window", () => {
    for (
      const open of [
        `<div id="cookie-consent" role="dialog">`,
        `<div class="gdpr-bar" aria-modal="true">`,
        `<div class="cookie-notice" style="position: fixed; bottom: 0">`
      ]
    ) {
      const text = copy(post(`${open}<p>${NOTICE}</p></div>`, 0))
      expect(text).toContain("Dann sag es nicht.")
      expect(text).not.toContain("Diese Website verwendet Cookies")
    }
  })

  it("titles a short post with the post's title alone and leaves the blog's sidebar out", () => {
    // With a sidebar of archive lists (which held most of the page's text) and without, banner or none.
    for (const html of [post(widget), post(widget, 0), post(""), post("", 0)]) {
      const md = htmlToMarkdown(html, URL_)
      expect(md.split("\n").filter((line) => /^#{1,6} /.test(line))).toEqual(["# Kurz gesagt"])
      expect(md).not.toContain("Monat 0 im Jahr 2000")
      const text = readerText(md)
      for (const line of ["„Ich weiß, ich sollte das vielleicht nicht sagen…“", "– „Dann sag es nicht.“", "– „Ok.“"]) {
        expect(text).toContain(line)
      }
      expect(text).not.toContain("Diese Website verwendet Cookies")
    }
  })

  it("keeps a page's section named for cookies that is built as no banner", () => {
    const policy = `<html><head><title>Cookie policy</title></head><body><main><h1>Cookie policy</h1>` +
      `<div class="cookie-policy"><p>We keep a cookie for your language and one for your session, ` +
      `and we set none for advertising; you can delete them in your browser at any time.</p></div></main></body></html>`
    expect(copy(policy)).toContain("We keep a cookie for your language")
  })
})
