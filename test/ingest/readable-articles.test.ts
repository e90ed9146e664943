/**
 * Over 400 lines: one small page per rule, all built on the same article page and its helpers.
 *
 * Articles and what their themes put under or beside them: small pages written here (no copy of
 * any real page), each failing without the rule it tests (readable/teasers.ts, readable/authors.ts,
 * readable/boilerplate.ts: `embed` a weak name, readable/signups.ts, readable/tree.ts: documents
 * pasted whole into an article, readable/render.ts: a code block inside an inline element,
 * readable/introduced.ts (a list after a colon, a list of links after a paragraph of prose),
 * readable/dataTables.ts: a table of figures whose names are links,
 * readable/edges.ts: a list whose items are set as headings,
 * readable/anchors.ts, readable/frames.ts, readable/content.ts: a sentence linked whole;
 * readable/teasers.ts: teasers cut short under a short story; readable/edges.ts: list items set as
 * bold paragraphs, a label heading over a heading; readable/teasers.ts: teasers whose titles the
 * page never wrote, the label over a strip of teasers; readable/further.ts: further reading under
 * each entry of a ranked guide; readable/titledItems.ts: a roundup's items titled by a link, a
 * gallery's linked pictures each named by its link;
 * readable/teasers.ts: a strip of posts that lists the page itself, teasers cut short whose only
 * link the cleaning dropped).
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://journal.example/2026/11/orchard.html"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

/** A paragraph of the article: long, plain prose. */
const prose = (n: number): string =>
  `The orchard's ${n} rows of old pear trees were pruned in the frost, the keeper said, and the cuttings, ` +
  `stacked along the wall, will dry until spring. Visitors may walk the lower path, which stays open, ` +
  `while the upper terraces are netted against the birds.`

/** An article page that says when it was published, with `after` under its story. */
const article = (after: string, published = true): string =>
  `<html><head><title>Pruning the old orchard</title>${
    published ? `<meta property="article:published_time" content="2026-11-02T08:00:00Z">` : ""
  }</head><body><main>
  <h1>Pruning the old orchard</h1>
  ${Array.from({ length: 14 }, (_, i) => `<p>${prose(i + 1)}</p>`).join("\n")}
  ${after}
  </main></body></html>`

/**
 * A strip of `n` teasers: each a heading that is one link to another page, a summary long enough
 * that the links stay under a fifth of the teaser's text, and a date.
 */
const teasers = (n: number): string =>
  `<div class="strip">${
    Array.from({ length: n }, (_, i) =>
      `<div class="item"><a href="/2026/10/story-${i}.html"><img src="/t/${i}.jpg" alt=""></a>` +
      `<h3><a href="/2026/10/story-${i}.html">Another season in the walled garden, part ${i}</a></h3>` +
      `<p>The gardeners moved the beehives to the far meadow, repaired the broken panes of the glasshouse, ` +
      `cleared the long border of its nettles and brambles, and planted the beds again with the seedlings ` +
      `raised over the winter, a task that took the volunteers most of the month ${i}.</p>` +
      `<span>October ${i + 1}, 2026</span></div>`).join("")
  }</div>`

/** A "Popular" list beside the story: each post's title a bold link over its first words, cut short. */
const popular = (n: number): string =>
  `<div class="list"><h5>Popular</h5><ul>${
    Array.from({ length: n }, (_, i) =>
      `<li><strong><a href="/blogs/notes/post-${i}">Notes from the cider barn, number ${i}</a></strong>` +
      `<p>Did you know that the press in the old barn was built before the house itself, and that ${i}...</p></li>`)
      .join("")
  }</ul></div>`

describe("readable copy: teasers of other pages under an article", () => {
  it("leaves out a strip of teasers (a heading that is one link, a summary, a date) under the story", () => {
    const text = copy(article(teasers(5)))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    for (let i = 0; i < 5; i++) {
      expect(text).not.toContain(`Another season in the walled garden, part ${i}`)
      expect(text).not.toContain(`planted the beds again ${i}`)
    }
  })

  it("leaves out teasers whose summaries are cut short, on a page that gives no date", () => {
    const text = copy(article(popular(6), false))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("Notes from the cider barn, number 3")
    expect(text).not.toContain("built before the house itself")
  })

  it("keeps teasers cut short where they are the page (little prose beside them)", () => {
    const text = copy(
      `<html><head><title>Notes</title></head><body><main><h1>Notes</h1>${popular(6)}</main></body></html>`
    )
    expect(text).toContain("Notes from the cider barn, number 3")
  })

  it("keeps them on a page that does not say it was published (a listing, a front page)", () => {
    const text = copy(article(teasers(5), false))
    expect(text).toContain(prose(1))
    expect(text).toContain("Another season in the walled garden, part 4")
  })
})

/**
 * A strip of `n` teasers whose title sits in a header with a category link and a byline: the
 * cleaning pass drops that header as links, leaving each teaser's summary alone under the story.
 */
const headedTeasers = (n: number): string =>
  `<div class="loop">${
    Array.from({ length: n }, (_, i) =>
      `<article class="entry"><header class="entry-header"><a href="/category/garden/">Garden</a>` +
      `<h3 class="entry-title"><a href="/2026/10/story-${i}.html">Another season in the walled garden, part ${i}</a></h3>` +
      `<div class="entry-meta">By <a href="/author/ann/">Ann Rowe</a> <time>October ${
        i + 1
      }, 2026</time></div></header>` +
      `<div class="entry-summary"><p>The gardeners moved the beehives to the far meadow, repaired the broken panes ` +
      `of the glasshouse and planted the beds again with the seedlings raised over the winter ${i}.</p></div>` +
      `<footer><a href="/2026/10/story-${i}.html">Read more</a></footer></article>`).join("")
  }</div>`

describe("readable copy: teasers whose linked titles the cleaning dropped", () => {
  it("leaves out their summaries too: the card was built with a heading that is one link", () => {
    const text = copy(article(headedTeasers(5)))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    for (let i = 0; i < 5; i++) expect(text).not.toContain(`raised over the winter ${i}.`)
  })
})

/** The author's box under the story: a heading, the author's name opening a sentence about them, a link to their page. */
const authorBox = (name: string): string =>
  `<section class="box"><h3>About the writer</h3><div class="bio"><p>${name} is the keeper of the county's ` +
  `orchards and writes about fruit trees, old varieties and the people who graft them, from the valley ` +
  `where she was born.</p><a href="/authors/ada-wren/">All stories by ${name}</a></div></section>`

/** The article page with its author declared in the page's metadata. */
const authored = (after: string): string =>
  article(after).replace("<title>", `<meta name="author" content="Ada Wren"><title>`)

describe("readable copy: the author's box under an article", () => {
  it("leaves out a box that opens with the page's author and links to the author's page", () => {
    const text = copy(authored(authorBox("Ada Wren")))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("is the keeper of the county's orchards")
  })

  it("keeps a box about someone else (a person the story quotes)", () => {
    const text = copy(authored(authorBox("Tom Birch")))
    expect(text).toContain("Tom Birch is the keeper of the county's orchards")
  })

  it("leaves out a box built like it beside it (the reviewer's) that links to an author's page", () => {
    const reviewer = authorBox("Tom Birch").replace("About the writer", "About the reviewer")
      .replace("/authors/ada-wren/", "/authors/tom-birch/")
    const text = copy(authored(`${authorBox("Ada Wren")}${reviewer}`))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("is the keeper of the county's orchards")
  })
})

/** A table of figures pasted into the article as HTML, in the box a site builder wraps it in (`cls`). */
const pastedTable = (cls: string): string =>
  `<div class="${cls}"><table><tr><th>Variety</th><th>Rows</th><th>Harvest</th><th>Keeper's note</th></tr>${
    ["Conference", "Williams", "Comice", "Concorde", "Beth"].map((v, i) =>
      `<tr><td>${v}</td><td>${i + 3}</td><td>week ${i + 36}</td><td>stored in the cool barn until the ${
        i + 2
      }nd frost</td></tr>`
    ).join("")
  }</table></div>`

describe("readable copy: what an author pastes into an article as HTML", () => {
  it("keeps a table in a box named `embed` (a weak name: it reads like the article)", () => {
    const text = copy(article(`${pastedTable("w-embed")}<p>${prose(20)}</p>`))
    expect(text).toContain(prose(1))
    expect(text).toContain("stored in the cool barn until the 4nd frost")
  })

  it("still leaves out a box a longer word names (`embedded-…`)", () => {
    const text = copy(article(`${pastedTable("embedded-widget")}<p>${prose(20)}</p>`))
    expect(text).toContain(prose(20))
    expect(text).not.toContain("stored in the cool barn")
  })
})

/** A box asking the reader to subscribe: a heading, a line, and a form whose one field is an email address. */
const signUp = `<div class="box"><h3>Stay in the loop</h3>
  <p>Send me the orchard's seasonal notes, a letter a month, straight to my inbox.</p>
  <form action="/join"><input type="email" name="address" placeholder="Email"><button>Join</button></form></div>`

describe("readable copy: a sign-up box under an article", () => {
  it("leaves out the box whose form asks for an email address", () => {
    const text = copy(article(signUp))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("Stay in the loop")
    expect(text).not.toContain("a letter a month")
  })

  it("keeps a line above the article that asks for an email (a page's opening offer)", () => {
    const html = article("").replace("<h1>Pruning the old orchard</h1>", `<h1>Pruning the old orchard</h1>${signUp}`)
    expect(copy(html)).toContain("a letter a month")
  })

  it("leaves it out on a page that names its author but no date of publication", () => {
    const html = article(signUp, false).replace(
      "</title>",
      `</title><meta name="author" content="Ada Fieldfare">`
    )
    const text = copy(html)
    expect(text).toContain(prose(14))
    expect(text).not.toContain("a letter a month")
  })
})

/** An article whose editor pasted each part as a document of its own (`<html><body>` inside the page). */
const pastedDocuments = `<html><head><title>Pruning the old orchard</title></head><body>
  <nav><a href="/">Home</a> <a href="/garden">Garden</a></nav>
  <div class="page"><div class="story">
  <html><body><div class="text"><p>${prose(1)}</p><p>${prose(2)}</p></div></body></html>
  <html><body><div class="text"><h2>The lower rows</h2>${
  Array.from({ length: 6 }, (_, i) => `<p>${prose(i + 3)}</p>`).join("")
}</div></body></html>
  <html><body><div class="text"><h2>The terraces</h2>${
  Array.from({ length: 4 }, (_, i) => `<p>${prose(i + 9)}</p>`).join("")
}</div></body></html>
  </div><div class="links"><a href="/a">Another page</a></div></div>
  </body></html>`

describe("readable copy: documents pasted whole into an article", () => {
  it("reads a nested `<html><body>` as a browser does (no element), so the article is whole", () => {
    const text = copy(pastedDocuments)
    for (let i = 1; i <= 12; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("Another page")
  })
})

/**
 * An article with a code block inside a custom element (inline, as every unknown tag is) beside
 * its copy button, its highlighter naming each span by what it holds.
 */
const wrappedCode = article(
  `<copyable-code><button>Copy</button><pre><code class="language-bash hljs">` +
    `<span class="hljs-comment"># water the cuttings at dusk</span>
water --rows <span class="hljs-number">14</span>
<span class="hljs-comment"># cover the terraces before the frost</span>
net --upper</code></pre></copyable-code>`
)

describe("readable copy: a code block inside an inline element", () => {
  it("is a code block still, line by line, its comments kept", () => {
    const md = htmlToMarkdown(wrappedCode, URL_)
    expect(md).toContain(
      "```bash\n# water the cuttings at dusk\nwater --rows 14\n# cover the terraces before the frost\nnet --upper\n```"
    )
  })
})

/** A list of links a sentence of the article introduces, with the article going on after it. */
const courses = `<ul>${
  ["Grafting for beginners", "Pruning stone fruit", "Orchard pests and their friends", "Cider from windfalls"]
    .map((t, i) => `<li><a href="https://school.example/course/${i}">${t}</a></li>`).join("")
}</ul>`

/** The orchard article with `between` after its seventh paragraph. */
const withList = (between: string, end = ""): string =>
  article("").replace(`<p>${prose(7)}</p>`, `<p>${prose(7)}</p>${between}`).replace("</main>", `${end}</main>`)

describe("readable copy: a list the article's sentence introduces", () => {
  it("keeps a list of links after a paragraph that ends with a colon, the text going on after it", () => {
    const text = copy(withList(`<p>The keepers teach four courses each winter, all of them free:</p>${courses}`))
    expect(text).toContain("Grafting for beginners")
    expect(text).toContain("Cider from windfalls")
    expect(text).toContain(prose(14))
  })

  it("still leaves out such a list at the end of the story (other posts) and one a label introduces", () => {
    const end = `<p>If you liked this story you might also like:</p>${courses}`
    expect(copy(withList("", end))).not.toContain("Grafting for beginners")
    expect(copy(withList(`<p>Courses:</p>${courses}`))).not.toContain("Grafting for beginners")
  })
})

/** The same courses, each linked with a note of its own after the link (its length, its rating). */
const notedCourses = `<ul>${
  ["Grafting for beginners", "Pruning stone fruit", "Orchard pests and their friends", "Cider from windfalls"]
    .map((t, i) => `<li><a href="https://school.example/course/${i}">${t}</a> (${i + 2} hours) ★★★★☆</li>`).join("")
}</ul>`

describe("readable copy: a list of links after a paragraph of the article's prose", () => {
  const told =
    "<p>The keepers teach four courses each winter, and each of them ends with a certificate of completion.</p>"

  it("keeps a list whose items each open with a link, right after a paragraph ending as a sentence", () => {
    const text = copy(withList(`${told}${notedCourses}`))
    expect(text).toContain("Grafting for beginners (2 hours)")
    expect(text).toContain("Cider from windfalls (5 hours)")
    expect(text).toContain(prose(14))
  })

  it("still leaves out a table of contents, pointers that open with a label, and such a list at the story's end", () => {
    const contents = `<ul>${
      ["Grafting", "Pruning", "Pests"].map((t) => `<li><a href="#${t.toLowerCase()}">${t} in the orchard</a></li>`)
        .join("")
    }</ul>`
    expect(copy(withList(`${told}${contents}`))).not.toContain("Grafting in the orchard")
    const pointers = `<ul>${
      ["Grafting for beginners", "Pruning stone fruit", "Cider from windfalls"]
        .map((t, i) => `<li>See also: <a href="https://school.example/course/${i}">${t}</a></li>`).join("")
    }</ul>`
    expect(copy(withList(`${told}${pointers}`))).not.toContain("Pruning stone fruit")
    expect(copy(withList("", `${told}${notedCourses}`))).not.toContain("Pruning stone fruit")
  })
})

/** A ranking of nurseries with their sales, each nursery linked to its site, pasted into a builder's box. */
const ranking = (head: boolean): string =>
  `<div class="w-embed"><div class="table-scroll"><table>${
    head ? "<thead><tr><th>Nursery</th><th>Trees sold</th></tr></thead>" : ""
  }<tbody>${
    ["Fieldfare Trees", "Old Mill Orchards", "Quince and Medlar", "Hillside Grafts"]
      .map((t, i) => `<tr><td><a href="https://nursery${i}.example/">${t}</a></td><td>${(9 - i) * 110}</td></tr>`)
      .join("")
  }</tbody></table></div></div>`

describe("readable copy: a table of figures whose names are links", () => {
  it("keeps a table with a header row whose every row holds a figure unlinked, and its builder's box", () => {
    const text = copy(withList(ranking(true)))
    expect(text).toContain("Fieldfare Trees")
    expect(text).toContain("Hillside Grafts")
    expect(text).toContain("660")
  })

  it("still leaves out such a table without a header row naming its columns", () => {
    expect(copy(withList(ranking(false)))).not.toContain("Fieldfare Trees")
  })
})

/** A list of facts: each item a bold label with its colon, then a link (the article's own sources). */
const facts = `<ul>
  <li><strong>Nursery</strong>: <a href="https://nursery.example/">Fieldfare Trees</a></li>
  <li><strong>Best pruning saw:</strong> <a href="https://tools.example/saw">Silky Gomboy</a></li>
  <li><strong>Guide we used</strong>: <a href="https://books.example/pruning">The Pruning Book</a></li>
</ul>`

describe("readable copy: a list of labelled facts", () => {
  it("keeps a list whose items each open with a bold label and a colon, links or not", () => {
    const text = copy(withList(facts))
    expect(text).toContain("Fieldfare Trees")
    expect(text).toContain("The Pruning Book")
  })
})

/**
 * An article whose later sections a server streams after the frame (React's Suspense): the frame
 * holds a boundary's placeholder and its fallback, the sections come hidden at the end of the body
 * (one of them with a placeholder of its own), each moved in place by a script.
 */
const streamedArticle = `<html><head><title>Pruning the old orchard</title>
  <meta property="article:published_time" content="2026-11-02T08:00:00Z"></head><body>
  <header><a href="/">Orchard Journal</a></header>
  <main><article><h1>Pruning the old orchard</h1>
  ${Array.from({ length: 6 }, (_, i) => `<p>${prose(i + 1)}</p>`).join("\n")}
  <!--$?--><template id="B:0"></template><div>Loading paragraph...</div><!--/$-->
  </article></main>
  <footer><p>Orchard Journal, since 1911</p></footer>
  <div hidden id="S:0"><h2>The terraces</h2><p>${prose(7)}</p><p>${prose(8)}</p><template id="P:1"></template></div>
  <script>$RC("B:0","S:0")</script>
  <div hidden id="S:1"><p>${prose(9)}</p><p>${prose(10)}</p></div>
  <script>$RS("S:1","P:1")</script>
  </body></html>`

describe("readable copy: sections streamed after the page's frame", () => {
  it("reads each streamed section in its placeholder's place, without the fallback", () => {
    const text = copy(streamedArticle)
    for (let i = 1; i <= 10; i++) expect(text).toContain(prose(i))
    expect(text.indexOf(prose(6))).toBeLessThan(text.indexOf("The terraces"))
    expect(text.indexOf(prose(8))).toBeLessThan(text.indexOf(prose(9)))
    expect(text).not.toContain("Loading paragraph")
  })
})

/**
 * A tools guide: each section's picks a list under a line of its own (a directory's lists, kept
 * by directories.ts), every item set as a heading (a theme's large type for each pick).
 */
const headedPicks = (tools: ReadonlyArray<string>): string =>
  article("").replace(
    `<p>${prose(7)}</p>`,
    `<p>${prose(7)}</p>${
      tools.map((tool, i) =>
        `<h3>Tool ${i + 1}</h3><p>${prose(20 + i)}</p><h4>Our picks:</h4><ul>` +
        `<li><h2><a href="https://tools.example/${i}/a">${tool} Standard</a></h2></li>` +
        `<li><h2><a href="https://tools.example/${i}/b">${tool} Deluxe</a></h2></li></ul>`
      ).join("")
    }`
  )

describe("readable copy: a list whose items are set as headings", () => {
  it("keeps every item and the line over them, on a page that says when it was published", () => {
    const text = copy(headedPicks(["Silky saw", "Felco secateurs", "Wolf loppers", "Haws can"]))
    expect(text).toContain("Silky saw Standard")
    expect(text).toContain("Haws can Deluxe")
    expect(text).toContain("Our picks:")
  })
})

/**
 * A guide whose table of contents links to its sections by `id`, each section named for the
 * script that scrolls to it (`scroll-target`: Readability's negative `scroll`); the first is short.
 */
const contentsGuide = (linked: boolean): string =>
  article("").replace(
    `<p>${prose(1)}</p>`,
    `<ul class="toc"><li><a href="${linked ? "#why" : "/why"}">Why prune</a></li>` +
      `<li><a href="${linked ? "#when" : "/when"}">When to prune</a></li></ul>` +
      `<div class="guide"><div id="why" class="section scroll-target"><h2>Why prune</h2>` +
      `<p>Old pear trees crop better with light let into their crowns.</p></div>` +
      `<div id="when" class="section scroll-target"><h2>When to prune</h2>` +
      Array.from({ length: 5 }, (_, i) => `<p>${prose(30 + i)}</p>`).join("") +
      `</div></div>`
  )

describe("readable copy: sections the page's table of contents links to", () => {
  it("keeps a short section named for a scrolling script when an in-page link names it", () => {
    expect(copy(contentsGuide(true))).toContain("Old pear trees crop better")
  })

  it("still judges it by its name when no link of the page names it", () => {
    expect(copy(contentsGuide(false))).not.toContain("Old pear trees crop better")
  })
})

/** A comparison table in a box named for its sideways scrolling (`scroll`: Readability's negative name). */
const framedTable = (frame: string): string =>
  article("").replace(
    `<p>${prose(7)}</p>`,
    `<p>${prose(7)}</p><div class="${frame}"><table>` +
      `<tr><th>Saw</th><th>Blade</th><th>Weight</th></tr>` +
      `<tr><td>Silky Gomboy</td><td>240 mm</td><td>290 g</td></tr>` +
      `<tr><td>Bahco folding</td><td>190 mm</td><td>205 g</td></tr></table></div>`
  )

describe("readable copy: a table's scrolling frame", () => {
  it("keeps a table whose box is named for scrolling alone", () => {
    expect(copy(framedTable("table-scroll-container"))).toContain("Silky Gomboy")
  })

  it("still leaves out a box named as furniture for more than scrolling", () => {
    expect(copy(framedTable("related-scroll-container"))).not.toContain("Silky Gomboy")
  })
})

describe("readable copy: a sentence of the article linked whole", () => {
  it("keeps a paragraph that is one linked sentence ending with a full stop", () => {
    const linked =
      `<p><a href="https://survey.example/pears">Old pear trees crop better with light let into their crowns, the growers' survey found.</a></p>`
    expect(copy(withList(linked))).toContain("Old pear trees crop better")
  })

  it("still leaves out a short pointer to another page, its title linked", () => {
    const pointer =
      `<p>Read also: <a href="/2026/10/walled-garden.html">Another season in the walled garden of the old abbey</a></p>`
    expect(copy(withList(pointer))).not.toContain("Another season in the walled garden")
  })
})

/**
 * A strip of `n` teasers under the story, each a heading that is one link, the first words of the
 * other post cut short, and a date: long enough that the story holds less than twice their text.
 */
const cutTeasers = (n: number): string =>
  `<div class="more">${
    Array.from({ length: n }, (_, i) =>
      `<div class="card"><h3><a href="/2026/10/walk-${i}.html">A winter walk along the orchard wall, ${i}</a></h3>` +
      `<p>Before the snow came the keeper walked the length of the wall with a notebook, counting the espaliered ` +
      `trees that had lost their ties, the stones the frost had loosened and the places where the ivy was ` +
      `creeping back over the coping, and by the time she reached the gate ${i}...</p>` +
      `<span>October ${i + 1}, 2026</span></div>`).join("")
  }</div>`

describe("readable copy: teasers cut short under a short story", () => {
  it("leaves them out when the story holds as much prose as their text", () => {
    const text = copy(article(cutTeasers(8)))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    for (let i = 0; i < 8; i++) expect(text).not.toContain(`by the time she reached the gate ${i}`)
  })

  it("keeps them where they outweigh the story", () => {
    expect(copy(article(cutTeasers(14)))).toContain("by the time she reached the gate 3")
  })
})

/** A review's facts: a heading over a list, then pros and cons, each item one bold paragraph. */
const prosAndCons = `<h3>Specification:</h3><ul><li><p><strong>Blade: 240 mm, pruning teeth</strong></p></li>` +
  `<li><p><strong>Weight: 290 g</strong></p></li></ul>` +
  `<h4>Pros:</h4><ul><li><p><strong>Cuts green wood cleanly</strong></p></li>` +
  `<li><p><strong>Folds safely into the handle</strong></p></li></ul>` +
  `<h4>Cons:</h4><ul><li><p><strong>The lock wears loose after a season</strong></p></li></ul>` +
  `<h3>Review</h3><p>${prose(15)}</p>`

describe("readable copy: list items set as bold paragraphs", () => {
  it("keeps each item: a bold paragraph that is a whole list item is the list's text, not a heading", () => {
    const text = copy(article(prosAndCons))
    for (
      const item of ["Weight: 290 g", "Folds safely into the handle", "The lock wears loose after a season"]
    ) expect(text).toContain(item)
    expect(text).toContain(prose(15))
  })
})

/** A guide's steps: each a label heading ending with a colon right over the step's own title. */
const steps = `${
  [1, 2].map((n) =>
    `<h3>Step ${n}:</h3><h2>Choose the ${n === 1 ? "saw" : "ladder"} for the old trees</h2><p>${prose(14 + n)}</p>`
  ).join("")
}`

describe("readable copy: a label heading over a heading", () => {
  it("keeps a heading ending with a colon that titles the heading right after it", () => {
    const text = copy(article(steps))
    expect(text).toContain("Step 1:")
    expect(text).toContain("Step 2:")
    expect(text).toContain("Choose the ladder for the old trees")
  })

  it("still leaves out such a heading when what it titled was dropped", () => {
    const links = `<h3>More from the garden:</h3><ul>${
      [1, 2, 3].map((n) => `<li><a href="/2026/10/walk-${n}.html">A walk in the garden ${n}</a></li>`).join("")
    }</ul>`
    expect(copy(article(`${links}${steps}`))).not.toContain("More from the garden")
  })
})

/** A strip of `n` teasers whose titles the theme fills in by script: an empty link, a line, a linked picture. */
const scriptedTeasers = (n: number): string =>
  `<div class="trending"><p>Trending stories</p>${
    Array.from({ length: n }, (_, i) =>
      `<div class="item"><a href="/category/garden"></a><a href="/2026/10/hedge-${i}"></a>` +
      `<p>The hedge along the lane was laid again this autumn by the volunteers, stake by stake ${i}.</p>` +
      `<a href="/2026/10/hedge-${i}"><img src="/t/hedge-${i}.jpg" alt=""></a></div>`).join("")
  }</div>`

describe("readable copy: teasers whose titles the page never wrote", () => {
  it("leaves them out under a story, on a page that gives no date", () => {
    const text = copy(article(scriptedTeasers(5), false))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    for (let i = 0; i < 5; i++) expect(text).not.toContain(`stake by stake ${i}`)
  })

  it("keeps them where they are the page (little prose beside them)", () => {
    const text = copy(
      `<html><head><title>Hedges</title></head><body><main><h1>Hedges</h1>${scriptedTeasers(6)}</main></body></html>`
    )
    expect(text).toContain("stake by stake 3")
  })
})

describe("readable copy: the label over a strip of teasers", () => {
  it("leaves out a short paragraph that names the strip, with the strip", () => {
    const text = copy(article(`<div><p>More stories from the garden</p>${teasers(5)}</div>`))
    expect(text).toContain(prose(14))
    expect(text).not.toContain("Another season in the walled garden, part 2")
    expect(text).not.toContain("More stories from the garden")
  })

  it("keeps a sentence before the strip", () => {
    const text = copy(article(`<div><p>The keeper wrote about the garden all year.</p>${teasers(5)}</div>`))
    expect(text).toContain("The keeper wrote about the garden all year.")
  })
})

/** A ranked guide's card for garden `n`: its name, a paragraph, and a label over links to the site's other pages on it. */
const gardenCard = (n: number, further = true): string =>
  `<div class="guide-item"><div class="guide-item__body"><h2>${n}. <a href="/gardens/garden-${n}/">Walled garden ${n}</a></h2>` +
  `<p>${prose(20 + n)}</p></div>${
    further
      ? `<div class="guide-item__links"><h4>More on garden ${n}:</h4><ul>${
        [1, 2, 3].map((k) => `<li><a href="/gardens/garden-${n}/page-${k}/">Visiting garden ${n}, part ${k}</a></li>`)
          .join("")
      }</ul></div>`
      : ""
  }</div>`

/** A ranked guide (no date): an introduction over `cards`. */
const guide = (cards: string): string =>
  `<html><head><title>The best walled gardens</title></head><body><main><h1>The best walled gardens</h1>` +
  `<p>${prose(1)}</p>${cards}</main></body></html>`

describe("readable copy: further reading under each entry of a ranked guide", () => {
  it("leaves out the label and the links that close every card of a run", () => {
    const text = copy(guide([1, 2, 3, 4].map((n) => gardenCard(n)).join("")))
    for (let n = 1; n <= 4; n++) {
      expect(text).toContain(prose(20 + n))
      expect(text).toContain(`Walled garden ${n}`)
      expect(text).not.toContain(`More on garden ${n}:`)
      expect(text).not.toContain(`Visiting garden ${n}, part 2`)
    }
  })

  it("keeps them under fewer cards than a run", () => {
    const text = copy(guide([1, 2, 3, 4].map((n) => gardenCard(n, n <= 2)).join("")))
    expect(text).toContain("More on garden 2:")
    expect(text).toContain("Visiting garden 2, part 2")
  })
})

/** A roundup's item `n`: a paragraph all one link to its source over the paragraph that tells it. */
const roundupItem = (n: number): string =>
  `<p><a href="https://wire.example/${n}">Greenhouse trust buys orchard ${n}</a></p>` +
  `<p>The greenhouse trust has bought orchard ${n} from the county, with its walls, its sheds and the old ` +
  `pear trees, and will open it to visitors next spring after the pruning.</p>`

describe("readable copy: a roundup's items titled by a link", () => {
  it("keeps each title that its item's prose says again", () => {
    const text = copy(article([1, 2, 3, 4].map(roundupItem).join("")))
    for (let n = 1; n <= 4; n++) expect(text).toContain(`Greenhouse trust buys orchard ${n}`)
  })

  it("still leaves out a pointer to another page over unrelated prose", () => {
    const pointers = [1, 2, 3, 4].map((n) =>
      `<p><a href="/2026/10/walk-${n}.html">A walk in the lavender fields ${n}</a></p><p>${prose(30 + n)}</p>`
    ).join("")
    expect(copy(article(pointers))).not.toContain("A walk in the lavender fields 2")
  })
})

/** A gallery's item `n`: a paragraph holding a picture linked to another post, over its name linked the same. */
const galleryItem = (n: number, same = true): string =>
  `<p><a href="https://friend${n}.example/shed-${n}/"><img src="/img/shed-${n}.jpg" alt=""></a></p>` +
  `<p style="text-align:center"><a href="https://friend${n}.example/${
    same ? `shed-${n}/` : "about/"
  }">Cedar potting shed ${n}</a></p>`

describe("readable copy: a gallery of linked pictures each named by its link", () => {
  it("keeps each name under its picture", () => {
    const text = copy(article(`<p>${prose(20)}</p>${[1, 2, 3, 4].map((n) => galleryItem(n)).join("")}`))
    for (let n = 1; n <= 4; n++) expect(text).toContain(`Cedar potting shed ${n}`)
  })

  it("still leaves out links that go elsewhere than the picture above them", () => {
    const text = copy(article(`<p>${prose(20)}</p>${[1, 2, 3, 4].map((n) => galleryItem(n, false)).join("")}`))
    expect(text).not.toContain("Cedar potting shed 2")
  })
})

/** A story whose table of contents, in a box of its own, stands between its lead and its sections. */
const withContents = (box: string): string =>
  `<html><head><title>Pruning the old orchard</title>` +
  `<meta property="article:published_time" content="2026-11-02T08:00:00Z"></head><body><main>` +
  `<h1>Pruning the old orchard</h1><p>${prose(1)}</p>${box}<p>${prose(2)}</p>` +
  [3, 4, 5].map((n) => `<h2 id="part-${n}">Terrace ${n}</h2><p>${prose(n)}</p><p>${prose(n + 10)}</p>`).join("") +
  `</main></body></html>`

const contentsLinks = [3, 4, 5].map((n) => `<li><a href="#part-${n}">Terrace ${n} and its walls</a></li>`).join("")

describe("readable copy: the name of a table of contents left alone", () => {
  it("leaves out the heading whose box held only the list of in-page links", () => {
    const text = copy(
      withContents(`<div class="toc-block"><h2>Table of Contents</h2><nav><ul>${contentsLinks}</ul></nav></div>`)
    )
    expect(text).toContain(prose(2))
    expect(text).toContain("Terrace 4")
    expect(text).not.toContain("Table of Contents")
  })

  it("leaves out a details' summary over such a list", () => {
    const text = copy(
      withContents(`<details><summary>Contents</summary><nav><ul>${contentsLinks}</ul></nav></details>`)
    )
    expect(text).toContain(prose(2))
    expect(text).not.toMatch(/^\s*Contents\s*$/m)
  })

  it("keeps the name over a table of contents written as plain text", () => {
    const list = [3, 4, 5].map((n) => `<li>The terraces of row ${n}</li>`).join("")
    const text = copy(withContents(`<div class="toc-block"><h2>Table of Contents</h2><ul>${list}</ul></div>`))
    expect(text).toContain("Table of Contents")
    expect(text).toContain("The terraces of row 4")
  })
})

/** A strip of the blog's latest posts, `self` among them a card linking to the page itself (with a query). */
const latestPosts = (self: boolean): string =>
  `<section><h2>Blog.</h2><div class="carousel">${
    Array.from({ length: 6 }, (_, i) => {
      const href = self && i === 2 ? "/2026/11/orchard.html?ref=strip" : `/2026/10/story-${i}.html`
      return `<div class="slide"><div class="post"><figure><a href="${href}"><img src="/t/${i}.jpg" alt=""></a></figure>` +
        `<h3><a href="${href}">Another season in the walled garden, part ${i}</a></h3>` +
        `<div>The gardeners moved the beehives to the far meadow, repaired the broken panes of the glasshouse, ` +
        `cleared the long border of its nettles and brambles, and planted the beds again with the seedlings ` +
        `raised over the winter, a task that took the volunteers most of the month ${i}.</div>` +
        `<div>Oct ${i + 1}, 2026</div></div></div>`
    }).join("")
  }</div></section>`

describe("readable copy: a strip of posts that lists the page itself", () => {
  it("leaves out the strip under a story that gives no date", () => {
    const text = copy(article(latestPosts(true), false))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    for (let i = 0; i < 6; i++) expect(text).not.toContain(`Another season in the walled garden, part ${i}`)
    expect(text).not.toContain("took the volunteers most of the month 4")
  })

  it("keeps the strip that lists only other pages on a page that gives no date", () => {
    const text = copy(article(latestPosts(false), false))
    expect(text).toContain("Another season in the walled garden, part 4")
  })
})

/** A carousel of the site's stories: each a plain title, its first words cut short and a "Read more" button. */
const carousel = (n: number): string =>
  `<div class="carousel">${
    Array.from({ length: n }, (_, i) =>
      `<div class="item"><div class="row"><div class="col"><img src="/t/${i}.jpg" alt=""></div><div class="col">` +
      `<h3>Notes from the cider barn, number ${i}</h3>` +
      `<p>Did you know that the press in the old barn was built before the house itself, and that ${i}...</p>` +
      `<div class="button"><a href="/blogs/notes/post-${i}">Read more <i class="icon"></i></a></div>` +
      `</div></div></div>`).join("")
  }</div>`

describe("readable copy: teasers cut short whose only link the cleaning dropped", () => {
  it("leaves out the carousel whose cards lead away by a button", () => {
    const text = copy(article(carousel(4), false))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    expect(text).not.toContain("Notes from the cider barn, number 2")
    expect(text).not.toContain("built before the house itself")
  })

  it("keeps the carousel where it is the page (little prose beside it)", () => {
    const text = copy(
      `<html><head><title>Notes</title></head><body><main><h1>Notes</h1>${carousel(4)}</main></body></html>`
    )
    expect(text).toContain("Notes from the cider barn, number 2")
  })
})

/** A guide's `n` picks, each a heading, a paragraph of what the guide says of it and `close(i)` under it. */
const picks = (n: number, close: (i: number) => string): string =>
  Array.from(
    { length: n },
    (_, i) => `<h2>${i + 1}. The Fieldcraft pruning saw, model ${i}</h2><p>${prose(i + 20)}</p>${close(i)}`
  ).join("\n")

describe("readable copy: a shop's link that closes each pick of a guide", () => {
  /** Under each pick, its picture linked to a shop elsewhere, then the shop's link alone. */
  const buy = (i: number) =>
    `<p><a href="https://shop.example/dp/saw-${i}"><img src="/s${i}.jpg" alt="The saw"></a></p>` +
    `<p><a class="buy-button" href="https://shop.example/dp/saw-${i}">Buy on Shopmart</a></p>`

  it("leaves out the links to a shop elsewhere under the picks", () => {
    const text = copy(article(picks(3, buy)))
    for (let i = 1; i <= 14; i++) expect(text).toContain(prose(i))
    expect(text).toContain("The Fieldcraft pruning saw, model 2")
    expect(text).not.toContain("Buy on Shopmart")
  })

  it("keeps the site's own shop links under the picks", () => {
    const own = (i: number) =>
      `<p><a href="/shop/saw-${i}"><img src="/s${i}.jpg" alt="The saw"></a></p>` +
      `<p><a class="buy-button" href="/shop/saw-${i}">Shop now</a></p>`
    expect(copy(article(picks(3, own)))).toContain("Shop now")
  })
})
