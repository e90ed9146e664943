/**
 * Documentation pages: small pages written here (no copy of any real page), each failing without
 * the rule it tests (readable/versions.ts `withoutVersionSwitchers`; readable/boilerplate.ts: a
 * heading's scroll utilities, a heading named a header; readable/callouts.ts `labelledNote`;
 * readable/content.ts `namedForItsLink`; readable/render.ts: a heading's permalink written with the
 * page's own address, a heading whose whole text links to its own anchor).
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://manual.example/docs/current/backups.html"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

const PROSE = "A backup is only as good as the last time it was restored. Take a base copy of the data " +
  "directory while the server runs, keep the write-ahead log it produces from then on, and restore both on " +
  "a spare machine once a month to see that the copy can be read and that the log replays to the minute."

/** A manual's chapter with a line linking the same chapter in the software's other releases above it. */
const chapter = (): string =>
  `<html><head><title>Chapter 9. Backups</title></head><body><main>` +
  `<p class="versions">Releases: <a href="/docs/current/backups.html">Current</a> (` +
  `<a href="/docs/18/backups.html">18</a>) / <a href="/docs/17/backups.html">17</a> / ` +
  `<a href="/docs/16/backups.html">16</a> / <a href="/docs/15/backups.html">15</a> / ` +
  `<a href="/docs/14/backups.html">14</a></p>` +
  `<h1>Chapter 9. Backups</h1><p>${PROSE}</p>` +
  `<p>Release 16 changed the format of the log: read <a href="/docs/16/backups.html">the chapter for ` +
  `release 16</a> before you restore an older copy with the tools of this one.</p></main></body></html>`

describe("readable copy: a manual's version switcher", () => {
  it("leaves out the line of links to the same page in other releases, keeping a sentence that links one", () => {
    const text = copy(chapter())
    expect(text).toContain(PROSE)
    expect(text).not.toContain("Releases:")
    expect(text).toContain("Release 16 changed the format of the log")
  })
})

/** A manual's page whose headings carry the utility class that sets where a link to their anchor stops. */
const anchored = (): string =>
  `<html><head><title>Networking</title></head><body><main><article class="prose">` +
  `<h1>Networking</h1><p>${PROSE}</p>` +
  `<h2 class="scroll-mt-20 flex items-center" id="custom"><a href="#custom">Specify custom networks</a></h2>` +
  `<p>${PROSE.replace("A backup", "A network")}</p>` +
  `<h2 class="scroll-mt-20 flex items-center" id="existing"><a href="#existing">Use an existing network</a></h2>` +
  `<p>${PROSE.replace("A backup", "A bridge")}</p></article></main></body></html>`

describe("readable copy: a heading's scroll margin", () => {
  it("keeps headings whose class sets where the page scrolls to them", () => {
    const text = copy(anchored())
    expect(text).toContain("Specify custom networks")
    expect(text).toContain("Use an existing network")
  })
})

/** An API reference whose section titles and signatures are headings named for being headers. */
const reference = (): string =>
  `<html><head><title>Queue</title></head><body><main><section class="content">` +
  `<h1>Struct Queue</h1><p>${PROSE}</p>` +
  `<h2 class="section-header" id="implementations">Implementations</h2>` +
  `<h4 class="code-header">pub fn push(&amp;mut self, item: T)</h4>` +
  `<p>${PROSE.replace("A backup", "A push")}</p>` +
  `<h4 class="code-header">pub fn pop(&amp;mut self) -&gt; Option&lt;T&gt;</h4>` +
  `<p>${PROSE.replace("A backup", "A pop")}</p></section></main></body></html>`

describe("readable copy: a heading named a header", () => {
  it("keeps a reference's section titles and signatures", () => {
    const text = copy(reference())
    expect(text).toContain("Implementations")
    expect(text).toContain("pub fn push(&mut self, item: T)")
    expect(text).toContain("pub fn pop(&mut self) -> Option<T>")
  })
})

/** A manual's page with a "See also" note boxed between its paragraphs, its sentence linking two pages. */
const noted = (): string =>
  `<html><head><title>Fields</title></head><body><main><article>` +
  `<h1>Fields</h1><p>${PROSE}</p>` +
  `<div class="note"><p class="note-title">See also</p><p><a href="/docs/current/fields.html#key">Key ` +
  `fields</a> accept extra arguments, which are explained in <a href="/docs/current/fields.html">the ` +
  `field reference</a>.</p></div>` +
  `<p>${PROSE.replace("A backup", "A field")}</p></article></main></body></html>`

describe("readable copy: a note boxed inside the text", () => {
  it("keeps a box that opens with a label over a sentence linking other pages", () => {
    const text = copy(noted())
    expect(text).toContain("See also")
    expect(text).toContain("accept extra arguments, which are explained in the field reference.")
  })
})

/** A manual's page whose table of contents links its sections by ids made of their titles, one of them "cookies". */
const sectioned = (): string =>
  `<html><head><title>Requests</title></head><body><main><article>` +
  `<h1>Requests</h1><ul class="toc"><li><a href="#forms">Forms</a></li><li><a href="#cookies">Cookies</a></li>` +
  `<li><a href="#files">Files</a></li></ul>` +
  `<section id="forms"><h2>Forms</h2><p>${PROSE.replace("A backup", "A form")}</p></section>` +
  `<section id="cookies"><h2>Cookies</h2><p>To read the cookies a client sent, use the request's cookies ` +
  `attribute; to set one, call the response's set_cookie method before the response is returned.</p></section>` +
  `<section id="files"><h2>Files</h2><p>${PROSE.replace("A backup", "A file")}</p></section>` +
  `</article></main></body></html>`

describe("readable copy: a section its table of contents links to by a furniture name", () => {
  it("keeps a section whose id alone names furniture", () => {
    const text = copy(sectioned())
    expect(text).toContain("To read the cookies a client sent")
    expect(text).toContain("A file is only as good")
  })
})

describe("readable copy: a documentation heading's links to its own anchor", () => {
  const page = `<html><head><title>Backups</title></head><body><main><h1>Backups</h1><p>${PROSE}</p>` +
    `<h2 id="base">Base copy <a class="anchor" href="${URL_}#base">#</a></h2><p>${PROSE}</p>` +
    `<h2 id="log">Write-ahead log<a class="headerlink" href="/docs/current/backups.html#log">¶</a></h2><p>${PROSE}</p>` +
    `<h2 id="restore"><a class="header" href="#restore">Restore once a month</a></h2><p>${PROSE}</p>` +
    `<h2 id="other">Read <a href="#restore">the restore section</a> first</h2><p>${PROSE}</p>` +
    `<p>Before a restore, read again how <a href="/docs/current/backups.html#log">the log</a> is kept, and mind ` +
    `that its format changed in <a href="/docs/16/backups.html#log">release 16</a>, so an older copy needs the tools of its own release.</p>` +
    `</main></body></html>`

  it("drops a permalink mark written with the page's own address, absolute or from the root", () => {
    const md = htmlToMarkdown(page, URL_)
    expect(md).toContain("\n## Base copy\n")
    expect(md).toContain("\n## Write-ahead log\n")
    expect(md).not.toContain("¶")
    expect(md).not.toContain("[#]")
  })

  it("writes a heading whose whole text links to its own anchor as its text, and keeps other links", () => {
    const md = htmlToMarkdown(page, URL_)
    expect(md).toContain("\n## Restore once a month\n")
    expect(md).toContain(
      "\n## Read [the restore section](https://manual.example/docs/current/backups.html#restore) first\n"
    )
    expect(md).toContain("read again how [the log](https://manual.example/docs/current/backups.html#log) is kept")
    expect(md).toContain("changed in [release 16](https://manual.example/docs/16/backups.html#log), so")
    expect(copy(page)).toContain("Restore once a month")
  })

  it("reads a heading's text once however many links to its own anchors it holds (linear)", () => {
    const links = Array.from({ length: 10_000 }, (_, i) => `<a href="#s">w${i}</a>`).join(" ")
    const html = `<html><body><main><p>${PROSE}</p><h2 id="s">${links}</h2><p>${PROSE}</p></main></body></html>`
    const started = Date.now()
    expect(htmlToMarkdown(html, URL_)).toContain("[w9999](https://manual.example/docs/current/backups.html#s)")
    // Linear, this page takes a second or two on a loaded machine; reading the heading again for
    // each of its links took minutes.
    expect(Date.now() - started).toBeLessThan(30_000)
  })
})
