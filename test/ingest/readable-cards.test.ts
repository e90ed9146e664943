/**
 * Pages built of cards (listings, collections, product grids) and pages shown by a script that
 * removes an inline `display: none`: small pages written here (no copy of any real page), each
 * failing without the rule it tests (readable/cards.ts, readable/boilerplate.ts `concealing`,
 * readable/excerpts.ts `withoutExcerpts` (an excerpt edited a word apart too), readable/content.ts a
 * side menu's name, readable/paging.ts `pagedGrids`, readable/skipLinks.ts `withoutSkipLinks` and `withoutSpokenMenus`, readable/pictures.ts
 * `withoutPictureLinks`, readable/content.ts a footer and a header built as named boxes (not a box named by a state of the
 * layout, `NOT_STATE`), readable/cards.ts
 * a card's links drawn as controls, readable/reprises.ts `withoutRepeatedGrids`, readable/notices.ts
 * `withoutClosableBoxes`, readable/faqs.ts `declaredFaq`, `withDeclaredQuestions` and `withAskedButtons`, readable/content.ts
 * `linkedProse` and `titleLead` (its lead in a box of its own too, under a tagline, or a bare text run; the
 * title alone, `titleAlone`),
 * readable/repeats.ts `shared` and `retitled`, readable/ads.ts `withoutAdNotes` on a label alone,
 * readable/boilerplate.ts a hero named as a banner and a promotional price named so, readable/descriptions.ts
 * `categoryDescription`, readable/formNotes.ts a placeholder drawn over a field, readable/filterLabels.ts
 * `withoutFilterLabels` (a control only, never a term, a code block's name or a step), readable/skipLinks.ts
 * `withoutSkipLinks` on a jump past one block or back up, standing alone).
 * Over 400 lines: one small page per rule, each written out in full beside its test.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"
import { cardsToKeep, Keep } from "../../src/domain/readable/cards.js"
import { parsePage } from "../../src/domain/readable/tree.js"

const URL_ = "https://shop.example/chairs/mesh"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

const prose = (n: number): string =>
  `Mesh chair number ${n} suits long working days, the buyers said, and the backrest, which breathes, ` +
  `keeps its shape for years. Compare the seats, the arms and the tilt before you choose one.`

const card = (i: number): string =>
  `<li class="product-card"><a href="/p/${i}"><h3>Task chair model ${i}</h3></a>` +
  `<div class="price">${300 + i} dollars</div><div class="brand">Maker ${i % 4}</div></li>`

const shop = (cards: string, paragraphs = 2) =>
  `<html><head><title>Mesh chairs</title></head><body>
  <header class="site-header"><a href="/">Home of the Shop</a> <a href="/login">Sign in to your account</a></header>
  <main><div class="category"><h1>Mesh chairs</h1>${
    Array.from({ length: paragraphs }, (_, i) => `<p>${prose(i + 1)}</p>`).join("")
  }
  <ul class="grid">${cards}</ul></div></main>
  <footer><p>Copyright 2026 The Shop Company, all rights reserved, registered in the valley.</p></footer></body></html>`

describe("readable copy: pages built of cards", () => {
  it("keeps every card of a product grid beside the category's text, not only the text", () => {
    const text = copy(shop(Array.from({ length: 12 }, (_, i) => card(i)).join("")))
    expect(text).toContain(prose(1))
    for (let i = 0; i < 12; i++) {
      expect(text).toContain(`Task chair model ${i}`)
      expect(text).toContain(`${300 + i} dollars`)
    }
    expect(text).not.toContain("Sign in to your account")
    expect(text).not.toContain("Copyright 2026")
  })

  it("keeps a card the shop marks as sponsored, without its label", () => {
    const sponsored = (i: number) =>
      `<li class="product-card"><a href="/p/${i}"><h3>Task chair model ${i}</h3></a>` +
      `<div class="price">${300 + i} dollars</div><div class="note">Sponsored</div><div class="brand">Maker ${
        i % 4
      }</div></li>`
    const text = copy(shop(Array.from({ length: 12 }, (_, i) => i % 3 === 0 ? sponsored(i) : card(i)).join("")))
    for (let i = 0; i < 12; i++) expect(text).toContain(`Task chair model ${i}`)
    expect(text).toContain("300 dollars")
    expect(text).not.toContain("Sponsored")
  })

  it("keeps a card's promotional price, named so, with its former price and its code", () => {
    const onSale = (i: number) =>
      `<li class="product-card"><a href="/p/${i}"><h3>Task chair model ${i}</h3>` +
      `<div class="card__price card__price-promo"><div><span class="u-text-sr-only">Old price</span>` +
      `<s>${300 + i} dollars</s></div><div><span class="u-text-sr-only">New price</span>` +
      `<span>${240 + i} dollars</span></div><div class="card__price-note">with code SAVE20</div></div>` +
      `</a><div class="brand">Maker ${i % 4}</div></li>`
    const text = copy(shop(Array.from({ length: 12 }, (_, i) => i % 4 === 1 ? onSale(i) : card(i)).join("")))
    for (let i = 0; i < 12; i++) expect(text).toContain(`Task chair model ${i}`)
    expect(text).toContain("245 dollars")
    expect(text).toContain("305 dollars")
    expect(text).toContain("with code SAVE20")
  })

  it.prop("keeps each of 12 to 40 cards of any shape name, with their titles, prices and makers", [
    fc.integer({ min: 12, max: 40 }),
    fc.constantFrom("li", "div", "article", "section"),
    fc.constantFrom("card", "product", "tile", "result", "offer", "x7f3a9"),
    fc.integer({ min: 0, max: 999 })
  ], ([n, tag, name, suffix]) => {
    // Names that say furniture ("teaser", "related") are cleaned as before (next test).
    const cls = `${name}-${suffix} grid-cell`
    const cards = Array.from(
      { length: n },
      (_, i) =>
        `<${tag} class="${cls}"><a href="/p/${i}"><h3>Task chair model ${i} with mesh back</h3></a><div>${
          300 + i
        } dollars</div><div>Maker ${i}</div></${tag}>`
    ).join("")
    const text = copy(shop(`</ul><div class="cards">${cards}</div><ul>`))
    for (let i = 0; i < n; i++) {
      expect(text).toContain(`Task chair model ${i}`)
      expect(text).toContain(`${300 + i} dollars`)
      expect(text).toContain(`Maker ${i}`)
    }
  }, { fastCheck: { numRuns: 25 } })

  it("still drops a grid named as furniture ('teaser') and a minority of cards beside an article", () => {
    const story = Array.from({ length: 6 }, (_, i) => `<p>${prose(i + 1)}</p>`).join("")
    const more = (cls: string) =>
      `<div class="more">${
        Array.from(
          { length: 3 },
          (_, i) =>
            `<div class="${cls}"><a href="/o/${i}"><h3>Other chair story ${i}</h3></a><span>Read on</span></div>`
        ).join("")
      }</div>`
    for (const cls of ["teaser", "card"]) {
      const text = copy(`<html><body><main><div class="post">${story}${more(cls)}</div></main></body></html>`)
      expect(text).toContain(prose(6))
      expect(text).not.toContain("Other chair story")
    }
  })

  it("keeps no group in content that reads as one text (an article's paragraphs are not cards)", () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `<div class="para"><p>${prose(i)}</p></div>`).join("")
    const page = parsePage(`<html><body><div class="body">${paragraphs}</div></body></html>`)!
    const body = page.all.find((el) => el.attribs.class === "body")!
    expect(cardsToKeep(page.all, [body])).toBeUndefined()
  })

  it("cleans inside cards that are sections of text (a blog's posts), keeps the short cards of a grid whole", () => {
    const post = (i: number) =>
      `<div class="post"><h2>Post ${i} on chairs</h2>${
        Array.from({ length: 4 }, (_, k) => `<p>${prose(10 * i + k)}</p>`).join("")
      }<p><a href="/shop/book-${i}">Order the chair book ${i} now</a></p></div>`
    const text = copy(`<html><body><main><div class="posts">${[1, 2, 3].map(post).join("")}</div></main></body></html>`)
    for (const i of [1, 2, 3]) {
      expect(text).toContain(`Post ${i} on chairs`)
      expect(text).toContain(prose(10 * i + 3))
      expect(text).not.toContain(`Order the chair book ${i}`)
    }
  })

  it("marks the cards whole and what holds them, nothing else", () => {
    const page = parsePage(shop(Array.from({ length: 12 }, (_, i) => card(i)).join("")))!
    const content = page.all.find((el) => el.attribs.class === "category")!
    const keep = cardsToKeep(page.all, [content])!
    expect(keep).toBeDefined()
    for (const el of page.all) {
      const expected = el.attribs.class === "product-card"
        ? Keep.Card
        : el.attribs.class === "grid" || el === content || el.name === "main" || el.name === "body" ||
            el.name === "html" || el === page.root
        ? Keep.Holder
        : Keep.Judge
      expect([el.name, el.attribs.class, keep[el.order]]).toEqual([el.name, el.attribs.class, expected])
    }
  })
})

describe("readable copy: content a script shows by removing an inline display: none", () => {
  it("reads a product page whose description waits in a display: none block", () => {
    const html = `<html><head><title>Almond thins</title></head><body><p><a href="/sale">Sale on now</a></p>
      <div class="product-wrapper" style="display: none"><h1>Almond thins</h1>${
      Array.from({ length: 4 }, (_, i) => `<p>${prose(i)}</p>`).join("")
    }</div></body></html>`
    const text = copy(html)
    for (let i = 0; i < 4; i++) expect(text).toContain(prose(i))
  })

  it("still leaves out a display: none menu beside a visible article", () => {
    const html =
      `<html><body><div class="drawer" style="display:none"><p>Drawer entry with a long label for the mobile menu.</p></div>
      <article>${Array.from({ length: 5 }, (_, i) => `<p>${prose(i)}</p>`).join("")}</article></body></html>`
    const text = copy(html)
    expect(text).toContain(prose(4))
    expect(text).not.toContain("Drawer entry")
  })
})

const GUIDE_OPENING = "A good sheet starts with its fibre: long cotton staples spin into a yarn that stays " +
  "smooth for years, while short ones pill after a few washes and feel rough against the skin. The weave " +
  "decides the rest, percale crisp and cool, sateen smooth and warm."
const GUIDE_REST = "Wash new sheets once before the first night, and dry them at a low heat so that " +
  "the fibres keep their length."

/** A shop's guide under its grid: the opening written for three widths (inline runs) and the full text a click reveals. */
const guided = () =>
  `<html><head><title>All sheets</title></head><body>
  <header class="site-header"><a href="/">Sheets</a> <a href="/cart">Cart</a></header>
  <main><h1>All sheets</h1>
  <ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join("")}</ul>
  <section class="guide"><h2>Choosing your sheets</h2>
  <div class="guide-text"><span class="guide-copy">
  <span class="excerpt view-large">${GUIDE_OPENING}</span>
  <span class="excerpt view-medium">${GUIDE_OPENING}</span>
  <span class="excerpt view-small">${GUIDE_OPENING}</span>
  </span></div>
  <div class="guide-full"><p>${GUIDE_OPENING}</p><p>${GUIDE_REST}</p></div>
  </section></main>
  <footer><p>Copyright 2026 The Sheet Company, all rights reserved, woven in the valley.</p></footer>
  </body></html>`

describe("readable copy: a guide's excerpts beside its full text", () => {
  it("keeps the full text once, without the excerpts written for each screen width", () => {
    const text = copy(guided())
    expect(text.split("A good sheet starts with its fibre").length - 1).toBe(1)
    expect(text).toContain("Wash new sheets once before the first night")
  })

  it("leaves out an excerpt that differs from the full text's opening by a word edited since", () => {
    // The excerpts for each width and the full text a "more" control reveals are siblings; the full
    // text was edited after the excerpts were written: "starts" there, "start" here.
    const edited = GUIDE_OPENING.replace("A good sheet starts", "A good sheet start")
    const html = guided().replace(
      /<div class="guide-text">[\s\S]*<\/div>\n {2}<div class="guide-full">.*<\/div>/,
      `<div class="guide-text"><span class="guide-copy">
  <span class="excerpt view-large"><p>${GUIDE_OPENING}</p></span>
  <span class="excerpt view-medium">${GUIDE_OPENING}</span>
  <span class="excerpt view-small">${GUIDE_OPENING}</span>
  <span class="guide-full hidden"><p>${edited}</p><p>${GUIDE_REST}</p></span>
  </span></div>`
    )
    const text = copy(html)
    expect(text.split("its fibre: long cotton staples").length - 1).toBe(1)
    expect(text).toContain("A good sheet start with its fibre")
    expect(text).toContain("Wash new sheets once before the first night")
  })
})

const walletCard = (i: number): string =>
  `<div class="tile"><a href="/products/wallet-${i}">Slim wallet number ${i} in anodized aluminium $${70 + i}</a></div>`

/** A shop's page whose side menu (a script fills its levels: the items are not links yet) stands before the grid. */
const drawer = () =>
  `<html><head><title>Wallets</title></head><body>
  <div id="leftMenu" class="sidemenu-container"><ul class="sidemenu">
  ${
    ["NEW ARRIVALS", "WALLETS UP TO 40% OFF", "LUGGAGE AND BAGS", "PHONE CASES", "SHOP ALL"].map((t) =>
      `<li class="sidemenu-item"><span class="title">${t}</span><ul><li><span>Back</span></li></ul></li>`
    ).join("")
  }</ul></div>
  <div class="page"><h1>Wallets</h1><p>Metal wallets that carry cards and cash.</p>
  <div class="grid">${Array.from({ length: 12 }, (_, i) => walletCard(i)).join("")}</div></div>
  </body></html>`

describe("readable copy: a side menu laid over a shop's page", () => {
  it("leaves out a menu named as a side or drawer menu, whose items are not yet links", () => {
    const text = copy(drawer())
    expect(text).not.toContain("NEW ARRIVALS")
    expect(text).not.toContain("LUGGAGE AND BAGS")
    for (let i = 0; i < 12; i++) expect(text).toContain(`Slim wallet number ${i}`)
  })
})

const shirtCard = (i: number): string =>
  `<article class="product-card"><a href="/products/shirt-${i}"><h4>Training shirt ${i}</h4></a>` +
  `<p class="fit">slim fit</p><p class="colour">Colour ${i % 3}</p><span class="price">$${20 + i}</span></article>`

/** A collection page whose grid sits in the box of its pager, its buying guide under the grid scoring as the text. */
const paged = () =>
  `<html><head><title>Training shirts</title></head><body>
  <main><h1>Training shirts</h1>
  <div class="filtering-and-pagination_page"><div class="pagination_box">
  <div class="product-grid">${Array.from({ length: 12 }, (_, i) => shirtCard(i)).join("")}</div>
  <a href="?page=2">Load more</a></div></div>
  <div class="seo-text">${Array.from({ length: 5 }, (_, i) => `<p>${prose(i + 1)}</p>`).join("")}</div>
  </main>
  <footer><p>Copyright 2026 The Shirt Company, all rights reserved, sewn in the valley.</p></footer>
  </body></html>`

describe("readable copy: a shop's grid inside the box of its pager", () => {
  it("keeps the grid of priced cards that a wrapper named for the pagination holds", () => {
    const text = copy(paged())
    expect(text).toContain(prose(1))
    for (let i = 0; i < 12; i++) expect(text).toContain(`Training shirt ${i}`)
  })
})

/** A shop's short page, copied as its visible text, whose skip link (not named as one) opens its `main`. */
const skipped = () =>
  `<html><head><title>Mesh chairs</title></head><body>
  <main><a href="#results">Skip to search results</a>
  <h1>Mesh chairs</h1><p>Chairs for long days at the desk.</p>
  <ul id="results" class="grid">${Array.from({ length: 3 }, (_, i) => card(i)).join("")}</ul></main>
  </body></html>`

describe("readable copy: a skip link", () => {
  it("leaves out a link to an anchor that says it skips to the content", () => {
    const text = copy(skipped())
    expect(text).not.toContain("Skip to search results")
    expect(text).toContain("Chairs for long days at the desk.")
    for (let i = 0; i < 3; i++) expect(text).toContain(`Task chair model ${i}`)
  })
  it("leaves out a row of skip links, and keeps one said inside a sentence", () => {
    const row = `<p class="skips"><a href="#results">Skip to search results</a> | ` +
      `<a href="#filters">Skip to filters</a></p>`
    const tutorial = `<p>If you know the basics of seating, you may <a href="#fit">skip to the fitting ` +
      `guide</a> and measure your desk first.</p>`
    const text = copy(skipped().replace(`<a href="#results">Skip to search results</a>`, row + tutorial))
    expect(text).not.toContain("Skip to search results")
    expect(text).not.toContain("Skip to filters")
    expect(text).toContain("you may skip to the fitting guide and measure your desk first")
    expect(text).toContain("Chairs for long days at the desk.")
    // The row set straight in the page's wrapper, before its blocks; the sentence's link in a span.
    const bare = `<a href="#results">Skip to search results</a> <a href="#filters">Skip to filters</a>`
    const wrapped = tutorial.replace(`<a href="#fit">`, `<span><a href="#fit">`).replace(
      `guide</a>`,
      `guide</a></span>`
    )
    const loose = copy(skipped().replace(`<a href="#results">Skip to search results</a>`, bare + wrapped))
    expect(loose).not.toContain("Skip to search results")
    expect(loose).not.toContain("Skip to filters")
    expect(loose).toContain("you may skip to the fitting guide and measure your desk first")
  })
})

describe("readable copy: the separators left of a row left out", () => {
  it("writes no paragraph of separators only, and keeps a rule and a rating's stars", () => {
    const row = `<p class="skips"><a href="#results">Skip to search results</a> | ` +
      `<a href="#filters">Skip to filters</a></p><p>\u00b7 \u2014 /</p><hr><p>\u2605\u2605\u2605\u2605\u2605</p>`
    const md = htmlToMarkdown(skipped().replace(`<a href="#results">Skip to search results</a>`, row), URL_)
    const paragraphs = md.split("\n\n").map((b) => b.trim())
    expect(paragraphs).not.toContain("\\|")
    expect(paragraphs).not.toContain("\u00b7 \u2014 /")
    expect(paragraphs).toContain("---")
    expect(paragraphs).toContain("\u2605\u2605\u2605\u2605\u2605")
    expect(md).toContain("Chairs for long days at the desk.")
  })
})

/** A shop's short page, copied as its visible text, whose menu is written again for screen readers only. */
const spokenMenu = () =>
  `<html><head><title>Wool socks</title></head><body>
  <main><h1>Wool socks</h1><p>Socks for cold days on the trail.</p>
  <ul class="grid">${Array.from({ length: 3 }, (_, i) => card(i)).join("")}</ul>
  <div class="visually-hidden"><div><a href="/women">Women</a><div><a href="/women/socks">Socks for women</a>
  <a href="/women/ankle">Ankle socks</a><a href="/women/calf">Calf socks</a></div></div>
  <div><a href="/men">Men</a><div><a href="/men/socks">Socks for men</a><a href="/men/ankle">Ankle socks</a>
  <a href="/men/calf">Calf socks</a></div></div><div><a href="/kids">Kids</a><a href="/kids/socks">Socks for kids</a><a href="/gifts">Gift cards</a>
  <a href="/help">Help and returns</a></div></div>
  </main></body></html>`

describe("readable copy: a menu written for screen readers", () => {
  it("leaves out a block of links shown to screen readers only, not the page's cards", () => {
    const text = copy(spokenMenu())
    expect(text).not.toContain("Socks for women")
    expect(text).not.toContain("Gift cards")
    expect(text).toContain("Socks for cold days on the trail.")
    for (let i = 0; i < 3; i++) expect(text).toContain(`Task chair model ${i}`)
  })
})

/** A shop's short page, copied as its visible text, whose colours are a gallery: links to picture files around their thumbnails. */
const gallery = () =>
  `<html><head><title>Fanny packs</title></head><body>
  <main><h1>Fanny packs</h1><p>Packs for the trail and the town.</p>
  <div class="gallery">${
    ["Trail Green", "Sunset Orange", "Night Blue", "Desert Sand"].map((c, i) =>
      `<div class="gallery-col"><a class="lightbox" href="/uploads/pack-${i}-1152x1536.webp">` +
      `<img src="/uploads/pack-${i}-300x400.webp" alt=""><p>${c} colourway</p></a></div>`
    ).join("")
  }</div>
  <p>See <a href="/uploads/size-chart.png">the size chart</a> before you order.</p>
  <ul class="grid">${Array.from({ length: 3 }, (_, i) => card(i)).join("")}</ul></main>
  </body></html>`

describe("readable copy: a gallery's picture links", () => {
  it("leaves out the captions of links to picture files around their pictures, not a link in a sentence", () => {
    const text = copy(gallery())
    for (const c of ["Trail Green", "Sunset Orange", "Night Blue", "Desert Sand"]) expect(text).not.toContain(c)
    expect(text).toContain("Packs for the trail and the town.")
    expect(text).toContain("See the size chart before you order.")
    for (let i = 0; i < 3; i++) expect(text).toContain(`Task chair model ${i}`)
  })
})

/** A shop's short page, copied as its visible text, whose script builds its footer as a box named so (no `footer` tag). */
const namedFooter = (tag = "div", name = "Footer-styled__Footer-sc-9f8e7d x1y2z3") =>
  `<html><head><title>Wool socks</title></head><body><div id="app">
  <div class="Collection-styled__Page-sc-1a2b3c"><h1>Wool socks</h1><p>Socks for cold days on the trail.</p>
  <ul class="grid">${Array.from({ length: 5 }, (_, i) => card(i)).join("")}</ul></div>
  <${tag} class="${name}"><p>Enter your email for ten percent off.</p>
  <p>Our happiness team is here to help.</p>
  <div><a href="/help">Get help</a> <a href="/about">About us</a></div></${tag}>
  </div></body></html>`

describe("readable copy: a footer built as a named box", () => {
  it("leaves out the page's footer named as one outside any section, not the page's cards", () => {
    for (
      const text of [
        copy(namedFooter()),
        copy(namedFooter("section", "footer row")),
        copy(namedFooter("div", "pageBottomFooter sprite-v1"))
      ]
    ) {
      expect(text).not.toContain("Enter your email")
      expect(text).not.toContain("happiness team")
      expect(text).toContain("Socks for cold days on the trail.")
      for (let i = 0; i < 5; i++) expect(text).toContain(`Task chair model ${i}`)
    }
  })
})

/**
 * The same page with a box whose name says what it has or lacks, not what it is (`has-footer`,
 * `noFooter`, `has-navbar-fixed-top`: a layout's state), holding the shop's own words.
 */
const stateNamed = (name: string) =>
  namedFooter().replace(
    `<ul class="grid">`,
    `<div class="${name}"><p>Knitted in our own mill since 1921, every pair is made from merino wool and nylon.</p></div><ul class="grid">`
  )

describe("readable copy: a box named by a state of the layout", () => {
  it("keeps a box whose name says it has or lacks a footer or a bar, and still leaves out the footer", () => {
    for (
      const name of [
        "story has-footer",
        "story page--no-footer",
        "story hasFooter",
        "story withoutFooter",
        "story has-navbar-fixed-top"
      ]
    ) {
      const text = copy(stateNamed(name))
      expect(text, name).toContain("Knitted in our own mill since 1921")
      expect(text, name).not.toContain("Enter your email")
      expect(text, name).toContain("Socks for cold days on the trail.")
    }
  })
})

/** The same kind of page whose script builds the site's header as a box named so (no `header` tag), beside a box named `header` around the page's title. */
const namedHeader = (tag = "div", name = "Header-styled__Header-sc-4d5e6f q7r8s9") =>
  `<html><head><title>Wool socks</title></head><body><div id="app">
  <${tag} class="${name}"><div>Free shipping over fifty dollars</div>
  <div><a href="/women">Women</a> <a href="/men">Men</a> <a href="/kids">Kids</a> <a href="/help">Help</a></div></${tag}>
  <div class="header"><h1>Wool socks</h1><p>Socks for cold days on the trail.</p></div>
  <ul class="grid">${Array.from({ length: 5 }, (_, i) => card(i)).join("")}</ul>
  </div></body></html>`

describe("readable copy: a site header built as a named box", () => {
  it("leaves out the site's header named as one, not a box so named around the page's title", () => {
    for (const text of [copy(namedHeader()), copy(namedHeader("section", "site-header"))]) {
      expect(text).not.toContain("Free shipping over fifty dollars")
      expect(text).not.toContain("Kids")
      expect(text).toContain("Wool socks")
      expect(text).toContain("Socks for cold days on the trail.")
      for (let i = 0; i < 5; i++) expect(text).toContain(`Task chair model ${i}`)
    }
  })
})

/** A dress shop's card: its title a link, its colour swatches links drawn as buttons, its price and colour count outside. */
const swatchCard = (i: number): string =>
  `<li class="tile"><a href="/products/dress-${i}"><h2>Striped linen midi dress number ${i}</h2></a>` +
  `<a role="button" href="/products/dress-${i}?colour=blue">Blue and white stripe</a>` +
  `<a href="#" class="compare">Compare</a><span class="count">2 Colors</span><span class="price">$${60 + i}</span></li>`

/** A category page whose long guide scores as the text, beside a grid of such cards. */
const swatchShop = () =>
  `<html><head><title>Casual dresses</title></head><body>
  <main><h1>Casual dresses</h1><div class="guide">${
    Array.from({ length: 8 }, (_, i) => `<p>${prose(i + 1)}</p>`).join("")
  }</div>
  <ul class="grid">${Array.from({ length: 8 }, (_, i) => swatchCard(i)).join("")}</ul></main>
  </body></html>`

describe("readable copy: cards whose links are controls", () => {
  it("reads a card's links drawn as controls as no pointer, so the grid joins the guide", () => {
    const text = copy(swatchShop())
    expect(text).toContain(prose(2))
    expect(text).not.toContain("Blue and white stripe")
    for (let i = 0; i < 8; i++) {
      expect(text).toContain(`Striped linen midi dress number ${i}`)
      expect(text).toContain(`$${60 + i}`)
    }
  })
})

/** A power-station shop's card, in its grid or in the carousel of best sellers under it. */
const stationCard = (i: number, cls: string, tag = "li"): string =>
  `<${tag} class="${cls}"><div class="label">Up to ${40 + i}% off</div>` +
  `<a href="/collections/stations/products/station-${i}">Weekender station model ${i}</a>` +
  `<div class="price">$${90 + i}.99</div></${tag}>`

/** A collection page whose best sellers, lower down, are the grid's own products again. */
const bestSellers = (others = false) =>
  `<html><head><title>Power stations</title></head><body>
  <main><h1>Power stations</h1><p>Power for the campsite and the kitchen when the grid goes down.</p>
  <ul class="grid">${Array.from({ length: 4 }, (_, i) => stationCard(i, "grid-item")).join("")}</ul>
  <h2>Compare and choose</h2><p>${prose(1)}</p>
  <section class="featured"><div class="slider">${
    Array.from({ length: 4 }, (_, i) => stationCard(others ? i + 10 : i, "slider-item", "div")).join("")
  }</div></section></main>
  </body></html>`

describe("readable copy: a grid shown again", () => {
  it("leaves out cards that lead only where the grid's cards led, not a carousel of other products", () => {
    const text = copy(bestSellers())
    for (let i = 0; i < 4; i++) {
      expect(text.split(`Weekender station model ${i}`).length - 1).toBe(1)
      expect(text.split(`$${90 + i}.99`).length - 1).toBe(1)
    }
    expect(text).toContain(prose(1))
    const others = copy(bestSellers(true))
    for (let i = 0; i < 4; i++) expect(others).toContain(`Weekender station model ${i + 10}`)
  })
})

/** A shop's homepage with its delivery terms in a lightbox that opens with its close control. */
const lightboxShop = () =>
  `<html><head><title>Home gyms</title></head><body>
  <main><h1>Home gyms</h1><p>${prose(1)}</p>
  <ul class="grid">${Array.from({ length: 12 }, (_, i) => card(i)).join("")}</ul><p>${prose(2)}</p>
  <div class="lightbox-wrap"><div class="panel"><div class="close-btn"><span>×</span></div>
  <h3>Shipping and delivery methods</h3><p>In-store pickup: your order waits at the local store of your choice until you call.</p></div></div>
  </main></body></html>`

describe("readable copy: a box that opens with its close control", () => {
  it("leaves out a lightbox's text, not the page's cards and text", () => {
    const text = copy(lightboxShop())
    expect(text).not.toContain("Shipping and delivery methods")
    expect(text).not.toContain("In-store pickup")
    expect(text).toContain(prose(2))
    for (let i = 0; i < 12; i++) expect(text).toContain(`Task chair model ${i}`)
  })
})

/** A question of the shop's FAQ, as an accordion: the question a button, the answer hidden until it is clicked. */
const faqItem = (i: number) =>
  `<div class="accordion"><h3 class="accordion__header"><button aria-expanded="false" aria-controls="a${i}">` +
  `<span>Question ${i}: how long does mesh chair ${i} last?</span></button></h3>` +
  `<div class="accordion__content" id="a${i}" aria-hidden="true"><p>Answer ${i}: the mesh keeps its spring for ` +
  `ten years of daily sitting, and the seat can be changed.</p></div></div>`

const faqLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"FAQPage","mainEntity":[${
  [1, 2, 3].map((i) =>
    `{"@type":"Question","name":"Question ${i}: how long does mesh chair ${i} last?","acceptedAnswer":` +
    `{"@type":"Answer","text":"Answer ${i}"}}`
  ).join(",")
}]}</script>`

/** The shop's category page with its FAQ in a section of its own after the `main`; `ld` declares it. */
const faqShop = (ld: string) =>
  shop(Array.from({ length: 6 }, (_, i) => card(i)).join("")).replace("<title>", `${ld}<title>`).replace(
    "</main>",
    `</main><section class="questions"><h2>Questions about mesh chairs</h2><div class="accordion-group">${
      [1, 2, 3].map(faqItem).join("")
    }</div></section>`
  )

describe("readable copy: questions the page declares it answers", () => {
  it("joins the block of the questions its schema.org data names, with their answers", () => {
    const text = copy(faqShop(faqLd))
    expect(text).toContain("keeps its shape for years")
    expect(text).toContain("Questions about mesh chairs")
    expect(text).toContain("Question 2: how long does mesh chair 2 last?")
    expect(text).toContain("the mesh keeps its spring for ten years")
  })

  it("leaves them out where the page declares no questions", () => {
    const text = copy(faqShop(""))
    expect(text).toContain("keeps its shape for years")
    expect(text).not.toContain("the mesh keeps its spring for ten years")
  })
})

/** A guide's section of the shop's category as an accordion, each guide's summary hidden until its title is clicked. */
const guideItem = (i: number) =>
  `<div class="accordion"><h3 class="accordion__header"><button aria-expanded="false" aria-controls="g${i}">` +
  `<span>Guide ${i}: how to choose a task chair</span></button></h3>` +
  `<div class="accordion__content" id="g${i}" aria-hidden="true"><p>Summary ${i}: sit on it for ten minutes, ` +
  `set the seat's height first, then the arms, and check the tilt's tension.</p>` +
  `<p><a href="/advice/${i}">Read full article</a></p></div></div>`

/** A guide's closed accordion of three items, then a box of related searches (put after a shop's `main`). */
const guideAndSearches =
  `<div class="advice-section"><h2>Related advice articles</h2><div class="accordion-group">${
    [1, 2, 3].map(guideItem).join("")
  }</div></div><div class="searches"><h2>Related searches</h2><ul><li><a href="/s/1">Mesh chairs: deals</a></li>` +
  `<li><a href="/s/2">Drafting chairs</a></li><li><a href="/s/3">Kneeling chairs</a></li></ul></div>`

/** The FAQ shop with a guide's closed accordion and a box of related searches between its `main` and its questions. */
const guidedShop = () =>
  faqShop(faqLd).replace(
    "</main>",
    `</main>${guideAndSearches}`
  )

describe("readable copy: a guide's accordion before the questions the page declares", () => {
  it("joins the closed accordion between the content and the declared questions, not the searches", () => {
    const text = copy(guidedShop())
    expect(text).toContain("Question 2: how long does mesh chair 2 last?")
    expect(text).toContain("Related advice articles")
    expect(text).toContain("Summary 2: sit on it for ten minutes")
    expect(text).not.toContain("Kneeling chairs")
  })
})

/** The shop's category page with a guide's closed accordion right after its `main`, then related searches, no questions. */
const guideAfterShop = () =>
  shop(Array.from({ length: 6 }, (_, i) => card(i)).join("")).replace(
    "</main>",
    `</main>${guideAndSearches}`
  )

describe("readable copy: a guide's accordion right after the content", () => {
  it("joins the closed accordion that follows the content on a page that declares no questions", () => {
    const text = copy(guideAfterShop())
    expect(text).toContain("keeps its shape for years")
    expect(text).toContain("Related advice articles")
    expect(text).toContain("Summary 3: sit on it for ten minutes")
    expect(text).not.toContain("Kneeling chairs")
  })
})

/** A question of the shop's FAQ written as the button that opens it, its answer shown right after it. */
const askedItem = (i: number) =>
  `<div class="faq"><button><span>Question ${i}: how long does mesh chair ${i} last?</span><span class="icon"></span>` +
  `</button><div class="faq-answer"><p>Answer ${i}: the mesh keeps its spring for ten years of daily sitting, ` +
  `and the seat can be changed.</p></div></div>`

/** The shop's category page whose content holds its FAQ, its questions buttons; `ld` declares them. */
const askedShop = (ld: string) =>
  shop(Array.from({ length: 6 }, (_, i) => card(i)).join("")).replace("<title>", `${ld}<title>`).replace(
    "</ul></div></main>",
    `</ul><div class="questions">${[1, 2, 3].map(askedItem).join("")}</div></div></main>`
  )

describe("readable copy: declared questions written as buttons in the content", () => {
  it("shows each such question over its answer", () => {
    const text = copy(askedShop(faqLd))
    expect(text).toContain("the mesh keeps its spring for ten years")
    expect(text).toContain("Question 2: how long does mesh chair 2 last?")
  })

  it("leaves the buttons out where the page declares no questions", () => {
    const text = copy(askedShop(""))
    expect(text).toContain("the mesh keeps its spring for ten years")
    expect(text).not.toContain("how long does mesh chair 2 last?")
  })
})

/** A question and its answer, the answer one sentence that links two of its products by name. */
const linkedAnswer = (i: number) =>
  `<div class="faq-item"><div class="faq-question">What kinds of chair ${i} does the shop sell?</div>` +
  `<div class="faq-answer"><p>The shop sells mesh and leather task chairs in four widths, with fixed or ` +
  `moving arms and a choice of wheels, including <a href="/c/${i}/mesh">mesh task chairs</a> and ` +
  `<a href="/c/${i}/stools">drafting stools</a>.</p></div></div>`

/** A box whose sentences are calls made of links: support the shop, give it your tax share. */
const plea = `<div class="box"><p>You are reading a new kind of guide on our site, short and plain, written ` +
  `each week for the readers who write to us with their questions about seats and who follow ` +
  `<a href="/topics">our priorities</a>. ` +
  `<a href="/donate">Support us with a gift</a> or ` +
  `<a href="/tax">give us one percent of your tax</a>.</p></div>`

describe("readable copy: a short answer whose sentence links a few words", () => {
  it("keeps the answer past the bar of short blocks, not a box of sentences made of links", () => {
    const text = copy(
      shop(Array.from({ length: 6 }, (_, i) => card(i)).join("")).replace(
        "<ul class=\"grid\">",
        `<div class="faq">${[1, 2].map(linkedAnswer).join("")}</div>${plea}<ul class="grid">`
      )
    )
    expect(text).toContain("keeps its shape for years")
    expect(text).toContain("What kinds of chair 2 does the shop sell?")
    expect(text).toContain(
      "with fixed or moving arms and a choice of wheels, including mesh task chairs and drafting stools."
    )
    expect(text).not.toContain("Support us with a gift")
  })
})

/** A category page whose title and its lead stand in a hero above the part that scores (its guide). */
const heroShop = (lead: string, title = "<h1>Task chairs</h1>", head = "", named = "Task chairs and stools") =>
  `<html><head><title>${named} | The Shop</title>${head}</head><body>
  <div id="content"><div class="landing-hero"><div class="hero-box">${title}${lead}</div>
  <ul class="hero-links"><li><a href="/c/mesh">Mesh chairs</a></li><li><a href="/c/stools">Stools</a></li></ul></div>
  <section class="guide"><div class="row"><div class="col"><h2>How to choose</h2><p>${prose(1)}</p><p>${prose(2)}</p>
  <p>${prose(3)}</p></div></div></section>
  <div class="support"><h2>Support</h2>${
    Array.from({ length: 40 }, (_, i) => `<div class="cell"><a href="/s/${i}">Help with chair part ${i}</a></div>`)
      .join("")
  }</div></div></body></html>`

describe("readable copy: the title and its lead above the content", () => {
  it("keeps the page's h1 and the paragraph right after it, in a hero before the chosen part", () => {
    const text = copy(
      heroShop(
        `<p class="hero-text">The shop sells task chairs for every desk, each one tried for a full week by our own staff at their desks before it is listed here.</p>`
      )
    )
    expect(text).toContain("Task chairs\n")
    expect(text).toContain("tried for a full week by our own staff at their desks before it is listed here.")
    expect(text).toContain(prose(3))
  })

  it("leaves a line after the title out when it links elsewhere", () => {
    const text = copy(
      heroShop(
        `<p class="hero-text">The shop sells task chairs for every desk, each one tried by our own staff at their desks; <a href="/tried">see how they try them</a> before it is listed.</p>`
      )
    )
    expect(text).not.toContain("see how they try them")
    expect(text).toContain(prose(3))
  })

  /** The title in a box of its own, the lead a paragraph in a description's box beside a control. */
  const wrappedLead = `<div class="category-description"><p class="description-text">The shop sells task chairs ` +
    `for every desk, each one tried for a full week by our own staff at their desks before it is listed here.</p>` +
    `<button class="description-more"></button></div>`

  it("writes the page's h1 as the copy's title when no lead follows it and the document's title says otherwise", () => {
    const text = copy(heroShop(`<div class="hero-count">24 chairs</div>`, undefined, "", "Seats for every desk"))
    expect(text).toContain("Task chairs\n")
    expect(text).not.toContain("Seats for every desk\n")
    expect(text).toContain(prose(3))
  })

  it("writes the page's h1 as the copy's title when the document's title only adds the site's name after it", () => {
    const shop = heroShop(
      `<div class="hero-count">24 chairs</div>`,
      undefined,
      "",
      "Task chairs - The Chair Company - Online seating"
    )
      .replace(
        "<title>Task chairs - The Chair Company - Online seating | The Shop</title>",
        "<title>Task chairs - The Chair Company - Online seating</title>"
      )
    const text = copy(shop)
    expect(text).toContain("Task chairs\n")
    expect(text).not.toContain("Online seating\n")
    expect(text).toContain(prose(3))
  })

  it("keeps the paragraph a box holds under the title, each in a box of its own", () => {
    const text = copy(heroShop(wrappedLead, `<div class="category-title"><h1>Task chairs</h1></div>`))
    expect(text).toContain("Task chairs\n")
    expect(text).toContain("tried for a full week by our own staff at their desks before it is listed here.")
    expect(text).toContain(prose(3))
  })

  it("keeps a short heading between the title and its lead (a hero's tagline)", () => {
    const text = copy(
      heroShop(
        `<p class="hero-text">The shop sells task chairs for every desk, each one tried for a full week by our own staff at their desks before it is listed here.</p>`,
        `<h1>Task chairs</h1><h2 class="hero-tagline">No aches. No guesswork. Seats that work.</h2>`
      )
    )
    expect(text).toContain("Task chairs\n")
    expect(text).toContain("No aches. No guesswork. Seats that work.")
    expect(text).toContain("tried for a full week by our own staff at their desks before it is listed here.")
    expect(text).toContain(prose(3))
  })

  it("keeps a lead written as a bare text run after the title's box, in a box of the two alone", () => {
    const text = copy(
      heroShop(
        `The shop sells task chairs for every desk, each one tried for a full week by our own staff at their desks before it is listed here.`,
        `<div class="category-title"><h1>Task chairs</h1></div>`
      )
    )
    expect(text).toContain("Task chairs")
    expect(text).toContain("tried for a full week by our own staff at their desks before it is listed here.")
    expect(text).toContain(prose(3))
  })

  it("leaves such a boxed paragraph out under a dated page's title (an article's deck)", () => {
    const text = copy(
      heroShop(
        wrappedLead,
        `<div class="category-title"><h1>Task chairs</h1></div>`,
        `<meta property="article:published_time" content="2025-03-02T10:00:00Z">`
      )
    )
    expect(text).not.toContain("tried for a full week by our own staff")
    expect(text).toContain(prose(3))
  })
})

/** A monitor arm's card: its name, its figures as labelled fields, the line a range's cards share, its price. */
const armCard = (i: number, range: boolean) =>
  `<div class="product-item"><a href="/arms/${i}"><img alt="Arm ${i}" src="/arm-${i}.png"></a>` +
  `<div class="details"><p class="title">Monitor arm model ${i}</p><div class="figures">` +
  `<p class="figure">For Monitors: ${2 + i}-${20 + i} lbs</p><p class="figure">Screen Size: Up to ${30 + i}"</p>${
    range ? `<p class="figure">Flex: a rail system that holds up to six monitors on a single post</p>` : ""
  }<p class="figure">Starting at $${400 + i}</p></div></div></div>`

describe("readable copy: a line several cards share", () => {
  it("keeps the line in each card between other values of the card's fields", () => {
    const text = copy(
      `<html><head><title>Monitor arms</title></head><body><main><h1>Monitor arms</h1>` +
        `<h2>Choose the right arm for your desk</h2><div class="grid">${
          [1, 2, 3, 4, 5, 6].map((i) => armCard(i, i > 2)).join("")
        }</div></main></body></html>`
    )
    expect(text.split("holds up to six monitors on a single post").length - 1).toBe(4)
    expect(text).toContain("Screen Size: Up to 36\"")
  })

  it("leaves a block written again with what stood beside it out", () => {
    const text = copy(
      `<html><head><title>Monitor arms</title></head><body><main><h1>Monitor arms</h1>` +
        `<div class="grid">${[1, 2, 3, 4].map((i) => armCard(i, i === 3)).join("")}</div>` +
        `<div class="again">${armCard(3, true)}</div></main></body></html>`
    )
    expect(text.split("holds up to six monitors on a single post").length - 1).toBe(1)
  })
})

/** A shop's section of selling points, drawn once for each screen width (each copy shown at one width only). */
const pointsFor = (width: string) =>
  `<div class="${width}"><h2>Made to last</h2><p>Our materials are chosen with care and tested by the people ` +
  `who carry them every day, so that each chair keeps its shape for years.</p><div class="points">` +
  `<p>Lifetime warranty</p><p>Free shipping</p><p>Ninety day trial</p></div></div>`

describe("readable copy: a section written again for another screen width", () => {
  it("keeps the section once, its short lines too, under its one title", () => {
    const text = copy(
      `<html><head><title>Mesh chairs</title></head><body><main><div class="category"><h1>Mesh chairs</h1>` +
        `<p>${prose(1)}</p><p>${prose(2)}</p>${pointsFor("desktop")}${pointsFor("tablet")}${pointsFor("mobile")}` +
        `</div></main></body></html>`
    )
    expect(text.split("Made to last").length - 1).toBe(1)
    expect(text.split("Lifetime warranty").length - 1).toBe(1)
    expect(text.split("Ninety day trial").length - 1).toBe(1)
  })

  it("keeps two plans' equal lines under titles of their own", () => {
    const plan = (price: number) =>
      `<div class="plan"><h2>Plus</h2><p>Every plan watches your accounts, your cards and your credit ` +
      `reports, and tells you at once when something changes.</p><p>Safe browsing</p>` +
      `<p>Password manager</p><p>${price} dollars a month</p></div>`
    const text = copy(
      `<html><head><title>Plans</title></head><body><main><h1>Plans</h1><p>${prose(1)}</p>` +
        `${plan(9)}${plan(12)}</main></body></html>`
    )
    expect(text.split("Password manager").length - 1).toBe(2)
  })
})

/** A home page's hero, named as the page builder's hero banner: a kicker, a title, a line and a link. */
const heroBanner = (kicker: string, title: string, line: string) =>
  `<div class="experience-component experience-commerce_assets-heroBanner"><div class="hero">` +
  `<div class="hero-text"><div class="hero-subtitle"><p>${kicker}</p></div>` +
  `<div class="hero-title"><p>${title}</p></div><p>${line}</p><a href="/shop">Explore</a></div></div></div>`

describe("readable copy: a home page built of heroes named as banners", () => {
  it("keeps each hero's kicker, title and line", () => {
    const text = copy(
      `<html><head><title>Watches</title></head><body><main><div class="region">` +
        heroBanner(
          "A legacy of boldness",
          "One hundred and fifty years",
          "For one hundred and fifty years the house has kept to its three pillars: invention, " +
            "precision and a bold design, from its first workshop in the city to the moon."
        ) +
        heroBanner("Archive series", "Ocean GMT automatic", "A fourth hand sets a second time zone.") +
        heroBanner("Ladies collection", "Dazzle with bold pieces", "Sophisticated timepieces for the evening.") +
        heroBanner("Vintage appeal", "The archive series", "Our oldest models, made again with modern parts.") +
        `</div></main></body></html>`
    )
    expect(text).toContain("Ocean GMT automatic")
    expect(text).toContain("A fourth hand sets a second time zone.")
    expect(text).toContain("Dazzle with bold pieces")
  })
})

/**
 * A shop's category page: a header box (weakly named as one) holding the title, a slider of
 * sub-categories and the category's description in a box named so; the grid; the buying guide.
 */
const describedCategory = () =>
  `<html><head><title>Gas grills | ExampleShop</title></head><body>
  <header class="site-header"><a href="/">ExampleShop</a> <a href="/cart">Cart</a></header>
  <main><div id="product-list-header" class="listing-heading">
  <h1>Gas grills</h1>
  <ul class="slider">${
    ["Small grills", "Grills with a griddle", "Built-in grills", "Grill covers"].map((t, i) =>
      `<li><a href="/c/${i}"><h2>${t}</h2></a></li>`
    ).join("")
  }</ul>
  <div class="row"><div id="category-description" class="listing__desc">
  <p>Find every gas grill we stock at a fair price, from the <a href="/c/1">grills with a griddle</a> to the
  small ones for a balcony: two, three or four burners, with or without a warming rack.</p>
  <p>Delivery is free from 250 euros, and you may pay in three or four instalments.</p>
  </div></div></div>
  <ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join("")}</ul>
  <section class="guide"><h2>Choosing your gas grill</h2>
  <p>${prose(1)}</p><p>${prose(2)}</p><p>${prose(3)}</p><p>${prose(4)}</p></section></main>
  <footer><p>Copyright 2026 ExampleShop, all rights reserved.</p></footer>
  </body></html>`

describe("readable copy: a category's description in a box named so", () => {
  it("keeps the description above the grid with the guide the page is scored by", () => {
    const text = copy(describedCategory())
    expect(text).toContain("Find every gas grill we stock at a fair price")
    expect(text).toContain("Delivery is free from 250 euros")
    expect(text).toContain(prose(4))
    expect(text).not.toContain("Cart")
  })
})

describe("readable copy: a placeholder drawn over a search field", () => {
  it("leaves out the hint laid over the field of a small page copied as its visible text", () => {
    const tile = (i: number) =>
      `<div><div class="flex flex-col"><p class="font-medium">Balm ${i}</p><p>${20 + i} euros</p></div></div>`
    const field = `<div class="module"><div class="relative w-full pt-4">` +
      `<label class="sr-only" for="filter">Search products</label>` +
      `<input class="w-full rounded-lg border" id="filter" name="filter" type="text" value="">` +
      `<div class="pointer-events-none absolute left-4 top-1/2"><div class="flex items-center gap-1">` +
      `Type to search products</div></div></div></div>`
    const text = copy(
      `<html><head><title>ExampleShop</title></head><body><div class="w-full">${field}` +
        `<div class="grid grid-cols-2 gap-4">${Array.from({ length: 4 }, (_, i) => tile(i)).join("")}</div>` +
        `<a href="https://shop.example/">View more on ExampleShop</a></div></body></html>`
    )
    expect(text).not.toContain("Type to search products")
    for (let i = 0; i < 4; i++) expect(text).toContain(`Balm ${i}`)
    expect(text).toContain("23 euros")
  })
})

/**
 * A store's game card: its title, its line, then its tags under a label, as links side by side
 * with nothing between them (the style sheet draws them as chips).
 */
const gameCard = (title: string, line: string, tags: ReadonlyArray<string>) =>
  `<div class="game"><a href="/app/${title.replace(/\W+/g, "-")}">${title}</a><div class="body">` +
  `<div class="short">${line}</div><div class="tag-block"><div class="tag-title">Tags</div><div class="tag-box">` +
  tags.map((t) => `<a href="/tags/${encodeURIComponent(t)}" class="tag">${t}</a>`).join("") +
  `</div></div><div class="dates"><div>Release date: <span>Mar 5, 2026</span></div>` +
  `<div>Developed By:<span>Other Studio</span></div></div></div></div>`

describe("readable copy: tag chips written side by side", () => {
  it("writes two links to two addresses apart, and a link cut in parts to one address as one word", () => {
    const text = copy(
      `<html><head><title>Co-operative games</title></head><body><main><h1>Co-operative games</h1>` +
        gameCard(
          "Brand Game 41",
          "Build a base with your friends, survive the long nights and explore a world " +
            "that changes every time you play it.",
          ["Indie", "2D", "PvP", "Action", "eSports", "story"]
        ) +
        gameCard(
          "Other Game 7",
          "Four friends, one ship and a galaxy of pirates: plan each jump together or " +
            "lose the crew you started with.",
          ["PvE", "3D", "Survival"]
        ) +
        gameCard(
          "Third Game",
          "A card game of towers and traps, where every run deals a new deck and the " +
            "last boss learns from you.",
          ["Fantasy", "RPG", "Co-op"]
        ) +
        `<ul><li>Order the booklets, the <a href="/booklets">order of cer</a><a href="/booklets">e</a>` +
        `<a href="/booklets">mony</a> and the place cards a month before the day.</li></ul></main></body></html>`
    )
    expect(text).toContain("Indie 2D PvP Action eSports story")
    expect(text).toContain("PvE 3D Survival")
    expect(text).toContain("order of ceremony")
  })
})

describe("readable copy: a grid's filter and sort labels", () => {
  it("leaves out a filter or sort control's label standing alone, and keeps it in a sentence or a list", () => {
    const tile = (i: number) =>
      `<div><div class="flex flex-col"><p class="font-medium">Balm ${i}</p><p>${20 + i} euros</p></div></div>`
    const text = copy(
      `<html><head><title>ExampleShop</title></head><body><div class="w-full">` +
        `<div class="flex justify-between"><button class="font-bold">Filter &amp; Sort</button><p>4 products</p></div>` +
        `<div class="filter-button flex"><strong>Filter</strong> <span>+</span></div>` +
        `<div class="flex"><span class="font-bold">Sort By:</span><select><option>Featured</option></select></div>` +
        `<div class="grid grid-cols-2 gap-4">${Array.from({ length: 4 }, (_, i) => tile(i)).join("")}</div>` +
        `<p>Sort by price to see the cheapest balms first.</p>` +
        `<ul><li>Filter</li><li>Sort</li><li>Compare</li></ul>` +
        `<a href="https://shop.example/">View more on ExampleShop</a></div></body></html>`
    )
    for (let i = 0; i < 4; i++) expect(text).toContain(`Balm ${i}`)
    expect(text).toContain("4 products")
    expect(text).not.toContain("Filter & Sort")
    expect(text).not.toMatch(/(?:^|\n)\s*Filter \+/)
    expect(text).not.toContain("Sort By:")
    expect(text).toContain("Sort by price to see the cheapest balms first.")
    expect(text).toMatch(/Filter\s+Sort\s+Compare/)
  })

  it("keeps a lone bracket, \"Refine\" alone and \"Filters by\"", () => {
    const text = copy(
      `<html><head><title>ExampleShop</title></head><body><main><h1>Mesh chairs</h1><p>${prose(1)}</p>` +
        `<p>[Filter</p><p>${prose(2)}</p><p>${prose(3)}</p>` +
        `<p>Refine</p><p>${prose(4)}</p><p>Filters by</p><p>${prose(5)}</p></main></body></html>`
    )
    expect(text).toContain(prose(5))
    expect(text).toContain("[Filter")
    expect(text).toMatch(/\bRefine\b/)
    expect(text).toContain("Filters by")
  })

  it("keeps the same words where no control is: a glossary's terms, a code block's name, a recipe's step", () => {
    const text = copy(
      `<html><head><title>ExampleShop</title></head><body><main><h1>Text tools</h1><p>${prose(1)}</p>` +
        `<dl><dt>sort</dt><dd>Sort the lines of a text file by the first field.</dd>` +
        `<dt>filter</dt><dd>Keep the lines that match a pattern, drop the rest.</dd></dl>` +
        `<h2>Commands</h2><p>sort</p><pre>sort -k2 names.txt</pre><p>refine by</p><pre>grep -v draft notes.txt</pre>` +
        `<h2>Brewing</h2><p>Filter:</p><p>Pour the brew through a paper cloth into the ExampleShop jug.</p>` +
        `<p>${prose(2)}</p></main></body></html>`
    )
    expect(text).toContain(prose(2))
    expect(text).toMatch(/(?:^|\n)\s*sort\s*\n/)
    expect(text).toMatch(/(?:^|\n)\s*filter\s*\n/)
    expect(text).toContain("refine by")
    expect(text).toContain("Filter:")
  })
})

describe("readable copy: a jump past a strip for keyboards", () => {
  it("leaves out a link that skips a section to the anchor after it, and keeps one that names no block", () => {
    const text = copy(
      `<html><head><title>Mesh chairs</title></head><body><main><div class="category"><h1>Mesh chairs</h1>` +
        `<p>${prose(1)}</p><p>${prose(2)}</p>` +
        `<div id="brands-section"><a class="button button--skip" href="#grid-section">Skip this section</a>` +
        `<h2>Our brands</h2><p>ExampleShop and OtherShop make the seats we sell, each tested for a year.</p></div>` +
        `<div id="grid-section"><h2>Choosing a chair</h2><p>${prose(3)}</p>` +
        `<p><a href="#setup">Skip the tutorial</a> if you have built a chair before.</p><p>${prose(4)}</p></div>` +
        `<h2 id="setup">Setting up</h2><p>${prose(5)}</p></div></main></body></html>`
    )
    expect(text).toContain(prose(5))
    expect(text).toContain("ExampleShop and OtherShop make the seats")
    expect(text).not.toContain("Skip this section")
    expect(text).toContain("Skip the tutorial")
  })

  it("keeps such words, and a way back up, when the link is part of a sentence, before, after or inside its words", () => {
    const text = copy(
      `<html><head><title>Installing ExampleTool</title></head><body><main><article><h1>Installing ExampleTool</h1>` +
        `<p>${prose(1)}</p>` +
        `<p>If you have ExampleTool already, <a href="#configure">skip this section</a>.</p>` +
        `<p><a href="#configure">Skip this section</a> if ExampleTool is installed on your machine already.</p>` +
        `<p>Readers who know it may <em><a href="#configure">skip the section</a></em> on downloads.</p>` +
        `<p>When the download ends, go <a href="#top">back to the menu</a> and pick the installer.</p>` +
        `<div id="gallery"><a href="#configure">Skip gallery</a><ul><li>Screenshot one of the installer</li></ul></div>` +
        `<p>${prose(2)}</p><h2 id="configure">Configuring</h2><p>${prose(3)}</p></article></main></body></html>`
    )
    expect(text).toContain("If you have ExampleTool already, skip this section.")
    expect(text).toContain("Skip this section if ExampleTool is installed on your machine already.")
    expect(text).toContain("Readers who know it may skip the section on downloads.")
    expect(text).toContain("When the download ends, go back to the menu and pick the installer.")
    expect(text).not.toContain("Skip gallery")
    expect(text).toContain(prose(3))
  })
})
