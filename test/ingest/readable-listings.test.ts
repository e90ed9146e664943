/**
 * Over 400 lines: one small page per rule, each written out in full beside its test.
 *
 * Listings whose cards repeat their controls or whose intro scores: small pages written here (no copy of any real
 * page), each failing without the rule it tests: readable/chrome.ts `withoutCardChrome` (a button's class in
 * camel case, a box around a button, a button in a short box beside a price, a badge pinned on several cards, a
 * label laid over several cards' pictures, a
 * card's count of its other colours, a link every card repeats inside a heading), `withoutMouseRepeats`, a card's
 * part hidden by `d-none`, a control in a card's list of one link (content.ts, the choice measured again);
 * readable/entries.ts `entriesLeftOut`, `entriesBeside` (a `main` the choice holds, articles with no `main`); readable/render.ts, a link
 * inside a link; readable/content.ts, a rating said in words; readable/popups.ts `withoutPopupMenus`;
 * readable/fillers.ts `withoutFillers`; readable/tree.ts, `role="link"` counted as a link; readable/boilerplate.ts,
 * WordPress's `status-publish` on a list item; readable/tags.ts `entriesTags` (an entry's tags, an entry's title in
 * a block named as a header); readable/credits.ts `entriesCredits`, an entry's author line; readable/repeats.ts, a
 * block written three times in a row, a card written again for another screen width, a card's subtitle every card
 * writes alike; readable/edges.ts `dropEmptyHeadings`, a sentence set in a heading's type under the page's title;
 * readable/render.ts and inline.ts `Run.gap`, a separator hidden from screen readers keeps two words apart (beside a link too);
 * readable/directories.ts, a directory's lists of links under headings; readable/intros.ts, a section's heading and
 * paragraph before its links; readable/edits.ts `withoutSectionEditLinks`, a wiki section's edit link beside its
 * heading; readable/units.ts `withoutSecondUnits`, a measure written in both unit systems; readable/content.ts
 * `namedFooter`, a site footer's credits named after it, and `namedNavBar`, a box named as the site's navigation bar;
 * readable/controls.ts `withoutExpandToggles`, a toggle that opens a text in place; readable/fillers.ts
 * `withoutIconWords`, an icon's word; readable/chrome.ts, a control drawn with the pointer's class; readable/fillers.ts
 * `withoutLoadingNotes`, a loading note after the page's text; readable/phoneCopies.ts `withoutPhoneRowCopies`, a table
 * row written for two screen widths; readable/alike.ts `likeKeptSibling`, a listing's featured entry; readable/anchors.ts
 * `linkedSections`, a heading the page's own index links to; readable/inline.ts `Run.joint`, figures side by
 * side and a word after an acronym; readable/controls.ts `withoutElsewhereLinks`, a card's link to a map
 * and a job's link to apply; readable/prompts.ts `withoutAccountBoxes`, a box asking a guest to log in; readable/readingTimes.ts
 * `withoutReadingTimes`, a post's reading time; readable/controls.ts `withoutElsewhereLinks` too, a section's link to its whole
 * list, and a card's link to its comments; readable/signups.ts `withoutSignUps`, a newsletter's sign-up box on a
 * page with no date or author; readable/content.ts `wikiFooter`, a wiki's print footer and category links;
 * readable/content.ts `holdsTitleLead`, the page's title and lead in a box a breadcrumb's links weigh down, and
 * `shortLead`, a one-sentence lead under the title above a list chosen apart; readable/controls.ts
 * `withoutElsewhereLinks`, a card's link to write the first comment and a link to apply with a note under its
 * label; readable/fillers.ts `withoutLigatureIcons`, an icon font's ligature name outside a table's cells;
 * readable/cards.ts `cardsToKeep` (`runsBeside`), boxes of another build standing between a listing's cards;
 * readable/controls.ts `withoutSlideControls`, a carousel's step links; readable/credits.ts `entriesCredits`, a long
 * author line beside the short ones of its shape; readable/content.ts `articleHeader`, an article's own header
 * holding its linked title on an undated front page.
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://jobs.example/remote"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

const count = (text: string, part: string): number => text.split(part).length - 1

const job = (i: number): string =>
  `<li class="job"><a href="/jobs/${i}"><div class="btn btn-quickview">Quick view</div>` +
  `<h3>Backend engineer number ${i}</h3><span class="kind">Full-time</span></a>` +
  `<p>Team ${i} builds the billing services in Go and Postgres, and pairs every week.</p>` +
  `<a class="save" href="/save/${i}">Save this job</a> <a href="/company/${i}">Company ${i} profile</a></li>`

const board = (rows: string) =>
  `<html><head><title>Remote jobs</title></head><body>
  <header class="site-header"><a href="/">Jobs board</a> <a href="/login">Sign in to your account</a></header>
  <main><h1>Remote backend jobs</h1>
  <p>Every job here can be done from anywhere; the list is refreshed each morning by the editors.</p>
  <ul class="jobs">${rows}</ul></main>
  <footer><p>Copyright 2026 The Jobs Board Company, all rights reserved, registered in the valley.</p></footer>
  </body></html>`

describe("readable copy: a card's controls", () => {
  it("leaves out the links and buttons every card repeats, keeps what tells the cards apart", () => {
    const text = copy(board(Array.from({ length: 8 }, (_, i) => job(i)).join("")))
    for (let i = 0; i < 8; i++) {
      expect(text).toContain(`Backend engineer number ${i}`)
      expect(text).toContain(`Team ${i} builds the billing services`)
      expect(text).toContain(`Company ${i} profile`)
    }
    expect(text).not.toContain("Quick view")
    expect(text).not.toContain("Save this job")
    // A value repeated inside the card's longer link is a part of the entry, not a control.
    expect(count(text, "Full-time")).toBe(8)
  })

  it("keeps a link only some cards show, and a table's repeated cells", () => {
    const rows = Array.from({ length: 8 }, (_, i) => job(i).replace("Save this job", i < 3 ? "Apply now" : `Job ${i}`))
    expect(count(copy(board(rows.join(""))), "Apply now")).toBe(3)
    const table = `<table><tbody>${
      Array.from({ length: 8 }, (_, i) =>
        `<tr><td>Lecture ${i} on sums of squares and their use</td><td><a href="/v/${i}">video</a></td></tr>`).join("")
    }</tbody></table>`
    const html = board("").replace(`<ul class="jobs"></ul>`, table)
    expect(count(copy(html), "video")).toBe(8)
  })
})

describe("readable copy: a card's control named in camel case", () => {
  it("leaves out a control every card repeats whose class names a button in camel case", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a class="save" href="/save/${i}">Save this job</a>`,
        `<div class="salaryNote_x1">Salary ${
          40 + i
        } thousand</div><div class="shipMessageBtn_k2">Ask about relocation</div>`
      )).join("")
    const text = copy(board(rows))
    expect(text).not.toContain("Ask about relocation")
    for (let i = 0; i < 8; i++) expect(text).toContain(`Salary ${40 + i} thousand`)
  })
})

describe("readable copy: a card's control wrapped in a box", () => {
  it("leaves out a box every card repeats whose whole text is a button's", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a class="save" href="/save/${i}">Save this job</a>`,
        `<div class="salary">Salary ${40 + i} thousand</div>` +
          `<div class="shipping"><span><span class="btn-link">Ask about relocation</span></span></div>`
      )).join("")
    const text = copy(board(rows))
    expect(text).not.toContain("Ask about relocation")
    for (let i = 0; i < 8; i++) expect(text).toContain(`Salary ${40 + i} thousand`)
  })
})

describe("readable copy: a card's button in a short box beside its price", () => {
  it("leaves out a button every card repeats inside a short box whose other text differs", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a class="save" href="/save/${i}">Save this job</a>`,
        `<div class="pay"><div class="amount">$${
          40 + i
        }k</div><a class="btn btn-primary" href="/apply/${i}">Apply now</a></div>`
      )).join("")
    const text = copy(board(rows))
    expect(text).not.toContain("Apply now")
    for (let i = 0; i < 8; i++) expect(text).toContain(`$${40 + i}k`)
  })
})

describe("readable copy: a badge pinned on several cards", () => {
  it("leaves out a badge whose text stands in two cards or more, keeps one card's own", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a class="save" href="/save/${i}">Save this job</a>`,
        i === 2 || i === 5
          ? `<span class="job-badge">Newly listed</span>`
          : i === 6
          ? `<span class="job-badge">Closing tomorrow</span>`
          : ""
      )).join("")
    const text = copy(board(rows))
    expect(text).not.toContain("Newly listed")
    expect(text).toContain("Closing tomorrow")
    for (let i = 0; i < 8; i++) expect(text).toContain(`Backend engineer number ${i}`)
  })
})

describe("readable copy: a label laid over several cards' pictures", () => {
  it("leaves out the only text of a card's picture box when two cards or more show it, keeps one card's own", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a class="save" href="/save/${i}">Save this job</a>`,
        `<div class="media"><img src="/logo/${i}.png" alt=""><strong class="flare">${
          i === 2 || i === 5 ? "Hiring fast" : i === 6 ? "Four day week" : ""
        }</strong></div>`
      )).join("")
    const text = copy(board(rows))
    expect(text).not.toContain("Hiring fast")
    expect(text).toContain("Four day week")
    for (let i = 0; i < 8; i++) expect(text).toContain(`Backend engineer number ${i}`)
  })

  it("reads such a label inside the card's link too, not the link's own title beside its picture", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a href="/jobs/${i}">`,
        `<a href="/jobs/${i}"><div class="media"><img src="/logo/${i}.png" alt=""><strong class="flare">${
          i === 2 || i === 5 ? "Hiring fast" : ""
        }</strong></div>`
      ).replace(
        `<a href="/company/${i}">Company ${i} profile</a>`,
        `<a href="/company/${i}"><img src="/c/${i}.png" alt="">Company ${i % 2} profile</a>`
      )).join("")
    const text = copy(board(rows))
    expect(text).not.toContain("Hiring fast")
    expect(count(text, "Company 1 profile")).toBe(4)
    for (let i = 0; i < 8; i++) expect(text).toContain(`Backend engineer number ${i}`)
  })
})

describe("readable copy: a card's count of its other colours", () => {
  it("leaves out a card's link that only counts what more it has, keeps a count in its text", () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      job(i).replace(
        `<a class="save" href="/save/${i}">Save this job</a>`,
        `<a href="/jobs/${i}#teams">+${i + 2}</a><span class="openings">Openings: +${i + 2} seats</span>`
      )).join("")
    const text = copy(board(rows))
    for (let i = 0; i < 8; i++) {
      expect(count(text, `+${i + 2}`)).toBe(1)
      expect(text).toContain(`Openings: +${i + 2} seats`)
    }
  })
})

const shoe = (i: number, tabindex: string): string =>
  `<article class="shoe"><a href="/p/${i}">Runner ${i}, grey, on sale for ${80 + i} dollars</a>` +
  `<a${tabindex} href="/p/${i}"><dl><dt>Maker</dt><dd>Brand ${i}</dd><dt>Model</dt><dd>Runner ${i}</dd></dl></a></article>`

const item = (i: number): string =>
  `<li class="card"><h3><a href="/products/${i}">Headphones model ${i} with open backs</a></h3>` +
  `<span class="visually-hidden">Vendor:</span><div class="vendor">Maker ${i}</div>` +
  `<div class="price"><span class="visually-hidden">Regular price</span><span>$${100 + i}.95</span></div>` +
  `<p class="score">${4 + i / 10} stars <span class="sr-only">${20 + i} total reviews</span></p></li>`

describe("readable copy: a card's labels for screen readers", () => {
  it("leaves out the hidden label every card repeats, keeps the values and a hidden text of its own", () => {
    const text = copy(board(Array.from({ length: 6 }, (_, i) => item(i)).join("")))
    for (let i = 0; i < 6; i++) {
      expect(text).toContain(`Headphones model ${i} with open backs`)
      expect(text).toContain(`Maker ${i}`)
      expect(text).toContain(`$${100 + i}.95`)
      expect(text).toContain(`${20 + i} total reviews`)
    }
    expect(text).not.toContain("Regular price")
    expect(text).not.toContain("Vendor:")
  })
})

const bag = (i: number, cls: string): string =>
  `<div class="product-tile"><h3><a href="/bags/${i}">Carry-on spinner ${i}</a></h3>` +
  `<div class="price">$${120 + i}.99</div>` +
  `<dl class="${cls}"><dt>Product details</dt><dd>Spinner ${i} is available in 4 different options</dd>` +
  `<dd>/luggage/spinner-${i}.html?color=blue</dd></dl></div>`

describe("readable copy: a card's part hidden by its class", () => {
  it("leaves out what every card hides with d-none, keeps it where a wider screen shows it", () => {
    const html = (cls: (i: number) => string) => board(Array.from({ length: 6 }, (_, i) => bag(i, cls(i))).join(""))
    const text = copy(html(() => "d-none"))
    for (let i = 0; i < 6; i++) {
      expect(text).toContain(`Carry-on spinner ${i}`)
      expect(text).toContain(`$${120 + i}.99`)
    }
    expect(text).not.toContain("different options")
    expect(text).not.toContain("/luggage/")
    expect(count(copy(html(() => "d-none d-md-block")), "different options")).toBe(6)
    // Hidden in two cards of six: no part of how the cards are built.
    expect(count(copy(html((i) => (i < 2 ? "d-none" : "specs"))), "different options")).toBe(6)
  })
})

const lens = (i: number): string =>
  `<div class="lens"><h3><a href="/lenses/${i}">Wide zoom lens number ${i}</a></h3>` +
  `<p>Lens ${i} covers 14 to 30 millimetres and weighs ${400 + i} grams, sealed against rain and dust.</p>` +
  `<div class="cost">$${
    900 + i
  }.00</div><ul class="save"><li><a href="/rewards/${i}">Get reward points</a></li></ul></div>`

describe("readable copy: a card's control in a list of one link", () => {
  it("leaves out the control every card repeats in a list of its own, as the copy shows the list", () => {
    const text = copy(board(Array.from({ length: 6 }, (_, i) => lens(i)).join("")))
    for (let i = 0; i < 6; i++) {
      expect(text).toContain(`Wide zoom lens number ${i}`)
      expect(text).toContain(`$${900 + i}.00`)
    }
    expect(text).not.toContain("Get reward points")
  })
})

const tile = (i: number, twice: boolean): string =>
  `<li class="tile"><div class="inner"><h3><a href="/products/${i}">Walnut desk lamp number ${i}</a></h3></div>` +
  `<div class="content"><div class="maker">Lamp maker ${i}</div>` +
  (twice ? `<h3><a href="/products/${i}">Walnut desk lamp number ${i}</a></h3>` : "") +
  `<div class="cost">${40 + i} euros</div></div></li>`

describe("readable copy: a card's link repeated in the card", () => {
  it("leaves out the second link to the item with the same text, when the cards repeat it", () => {
    const html = (twice: (i: number) => boolean) =>
      board(Array.from({ length: 6 }, (_, i) => tile(i, twice(i))).join(""))
    const text = copy(html(() => true))
    for (let i = 0; i < 6; i++) {
      expect(count(text, `Walnut desk lamp number ${i}`)).toBe(1)
      expect(text).toContain(`Lamp maker ${i}`)
      expect(text).toContain(`${40 + i} euros`)
    }
    // A link repeated in two cards of six is no part of how the cards are built: kept.
    expect(count(copy(html((i) => i < 2)), "Walnut desk lamp number 1")).toBe(2)
  })
})

const cup = (i: number): string =>
  `<li class="product"><a href="/product/cup-${i}"><h2>Travel cup number ${i}</h2><div class="swatches">` +
  ["Amber", "Sage", "Lilac"].map((c) => `<a href="/product/cup-${i}/?colour=${c.toLowerCase()}">${c}</a>`).join("") +
  `</div><span class="price">${20 + i} dollars</span></a></li>`

describe("readable copy: a link inside a link", () => {
  it("writes the inner link as text inside the outer one: no address among the words", () => {
    const md = htmlToMarkdown(board(Array.from({ length: 5 }, (_, i) => cup(i)).join("")), URL_)
    const text = readerText(md)
    for (let i = 0; i < 5; i++) {
      expect(text).toContain(`Travel cup number ${i}`)
      expect(text).toContain(`${20 + i} dollars`)
    }
    expect(count(text, "Lilac")).toBe(5)
    expect(text).not.toContain("colour=")
    expect(md).not.toContain("\\[")
  })
})

const boot = (i: number): string =>
  `<li class="tile"><a href="/p/boot-${i}">Trail boot number ${i}, waterproof</a><div class="price">${
    90 + i
  } dollars</div>` +
  `<div class="product-rating"><div class="stars"></div><span aria-hidden="true">(${10 + i})</span>` +
  `<span class="product-rating__caption">${
    10 + i
  } reviews with an average rating of 4.${i} out of 5 stars</span></div>` +
  `<div class="attrs">Heel to toe drop: ${i + 4} mm</div><div class="rating-widget">Rate this boot</div></li>`

describe("readable copy: a rating said in words", () => {
  it("keeps an element named as a rating when it says the rating, leaves out other rating furniture", () => {
    const text = copy(board(Array.from({ length: 5 }, (_, i) => boot(i)).join("")))
    for (let i = 0; i < 5; i++) {
      expect(text).toContain(`Trail boot number ${i}, waterproof`)
      expect(text).toContain(`Heel to toe drop: ${i + 4} mm`)
      expect(text).toContain(`${10 + i} reviews with an average rating of 4.${i} out of 5 stars`)
    }
    expect(text).not.toContain("Rate this boot")
  })
})

const languages = ["Deutsch", "Español", "Français", "Italiano", "Nederlands", "Polski"]
const categoryPage = (switchRole: string) =>
  `<html><head><title>Category: Programming languages</title></head><body><main>
  <header><h1>Category: Programming languages</h1><div class="dropdown">
  <input type="checkbox" id="lang-toggle"${switchRole} aria-label="Go to this page in another language">
  <label for="lang-toggle">6 languages</label><div class="dropdown-content"><ul>${
    languages.map((l) => `<li><a href="https://${l.slice(0, 2).toLowerCase()}.example/wiki/x">${l}</a></li>`).join("")
  }</ul></div></div></header>
  <p>This category lists programming languages, with their subcategories, sorted by the first letter of their name.</p>
  <ul>${
    Array.from({ length: 8 }, (_, i) => `<li><a href="/wiki/Lang_${i}">Programming language number ${i}</a></li>`).join(
      ""
    )
  }</ul></main></body></html>`

describe("readable copy: a menu a checkbox opens", () => {
  it("leaves out the links after a checkbox drawn as a button, keeps the page's own list", () => {
    const text = copy(categoryPage(` role="button"`))
    for (let i = 0; i < 8; i++) expect(text).toContain(`Programming language number ${i}`)
    expect(text).not.toContain("Nederlands")
    // A plain checkbox (a form's) opens nothing: what follows it stays.
    expect(copy(categoryPage(""))).toContain("Nederlands")
  })
})

describe("readable copy: filler text", () => {
  it("leaves out a text that is one word written over and over, keeps a short repeat", () => {
    const rows = Array.from({ length: 6 }, (_, i) => job(i)).join("")
    const html = board(rows).replace("</main>", `</main><div>${"word ".repeat(60)}</div><p>Go go go go, team.</p>`)
    const text = copy(html)
    expect(text).toContain("Backend engineer number 5")
    expect(text).not.toContain("word word")
    expect(copy(board(rows).replace("</ul>", `</ul><p>${"tick ".repeat(8)}went the clock on the wall.</p>`)))
      .toContain("tick tick tick")
  })
})

describe("readable copy: a card's second link for the mouse", () => {
  it("leaves out a link out of the keyboard order that repeats the card's link", () => {
    const html = (tabindex: string) =>
      board("").replace(`<ul class="jobs"></ul>`, Array.from({ length: 6 }, (_, i) => shoe(i, tabindex)).join(""))
    const text = copy(html(` tabindex="-1"`))
    for (let i = 0; i < 6; i++) expect(text).toContain(`Runner ${i}, grey, on sale for ${80 + i} dollars`)
    expect(text).not.toContain("Brand 3")
    // The same link in the keyboard order is a link of its own: kept.
    expect(copy(html(""))).toContain("Brand 3")
  })
})

const recipe = (i: number): string =>
  `<li class="recipe-card"><a href="/recipes/${i}"><img src="/img/${i}.jpg" alt=""><h3>Crispy dish number ${i}</h3></a>` +
  `<span class="time">${10 + i} minutes</span></li>`

/** The food blog's header and footer around its category pages. */
const kitchenHeader =
  `<header class="site-header"><a href="/">Home kitchen</a> <a href="/about">About the cook</a></header>`
const kitchenFooter =
  `<footer><p>Copyright 2026 Home kitchen, all rights reserved, written and photographed by the cook.</p></footer>`

const category = (head: string) =>
  `<html><head><title>Air fryer recipes</title>${head}</head><body>
  ${kitchenHeader}
  <main><div class="cat-desc"><h1>Air fryer recipes</h1>
  <p>I love a meal with crispiness and crunch, and these recipes deliver it, every one of them tested at home, twice.
  The air fryer is a weeknight dinner hero: it heats fast, cleans up in a minute, and needs only a spoon of oil.</p>
  <p>Below are the recipes, newest first; each says how long it takes, from the first chop to the plate.</p></div>
  <ul class="recipes">${Array.from({ length: 12 }, (_, i) => recipe(i)).join("")}</ul></main>
  ${kitchenFooter}
  </body></html>`

describe("readable copy: a listing's entries beside its intro", () => {
  it("keeps the entries a scored intro leaves out, on a page that is no article", () => {
    const text = copy(category(""))
    expect(text).toContain("I love a meal with crispiness and crunch")
    for (let i = 0; i < 12; i++) expect(text).toContain(`Crispy dish number ${i}`)
  })

  it("keeps only the text of a page that says when it was published (teasers beside a short article)", () => {
    const text = copy(category(`<meta property="article:published_time" content="2026-01-02T08:00:00Z">`))
    expect(text).toContain("I love a meal with crispiness and crunch")
    expect(text).not.toContain("Crispy dish number 4")
    // A date shown at the start of the text says so too.
    const dated = copy(
      category("").replace("<h1>Air fryer recipes</h1>", "<h1>Air fryer recipes</h1><p>21.01.2026</p>")
    )
    expect(dated).not.toContain("Crispy dish number 4")
  })
})

const archive = (head: string) =>
  `<html><head><title>Soup recipes</title>${head}</head><body>
  ${kitchenHeader}
  <div class="archive-description"><h1>Soup recipes</h1>
  <p>Soups for every season, from a quick weeknight broth to a slow Sunday stew, all tested twice at home.
  Most freeze well, and every one of them says how long it keeps, in the fridge and in the freezer.</p>
  <p>Start with the stocks: a good stock is half of every soup here, and it takes an afternoon, a big pot
  and whatever bones and peels the week left over. Then pick by the season, by the time you have, or by
  what waits in the vegetable drawer.</p></div>
  <main class="content">${
    Array.from({ length: 10 }, (_, i) =>
      `<article class="post"><header class="entry-header"><h2 class="entry-title">` +
      `<a href="/soup/${i}">Warming winter soup of the week, number ${i}</a></h2></header><div class="entry-content"></div></article>`)
      .join("")
  }</main>
  ${kitchenFooter}
  </body></html>`

describe("readable copy: a listing's entries in its main, its intro outside", () => {
  it("keeps the intro that scores and the linked titles the page's main lists", () => {
    const text = copy(archive(""))
    expect(text).toContain("Soups for every season")
    for (let i = 0; i < 10; i++) expect(text).toContain(`Warming winter soup of the week, number ${i}`)
  })

  it("keeps only the text of a page that says when it was published", () => {
    const text = copy(archive(`<meta property="article:published_time" content="2026-01-02T08:00:00Z">`))
    expect(text).toContain("Soups for every season")
    expect(text).not.toContain("Warming winter soup of the week, number 4")
  })
})

describe("readable copy: a listing's entries as articles, no main around them", () => {
  const unwrapped = (head: string) =>
    archive(head).replace(`<main class="content">`, `<div class="content">`).replace("</main>", "</div>")

  it("keeps the intro that scores and the linked titles of eight articles or more", () => {
    const text = copy(unwrapped(""))
    expect(text).toContain("Soups for every season")
    for (let i = 0; i < 10; i++) expect(text).toContain(`Warming winter soup of the week, number ${i}`)
  })

  it("keeps only the text of a page that says when it was published", () => {
    const text = copy(unwrapped(`<meta property="article:published_time" content="2026-01-02T08:00:00Z">`))
    expect(text).toContain("Soups for every season")
    expect(text).not.toContain("Warming winter soup of the week, number 4")
  })
})

describe("readable copy: an element that says it is a link", () => {
  it("counts the text of `role=\"link\"` as links: a row of such items is a menu, not the content", () => {
    const menu = ["Careers", "Contact us", "Cookie settings", "Help centre", "Privacy", "Terms of service"]
      .map((t) => `<span class="item" role="link">${t}</span>`).join(" ")
    const html = board(Array.from({ length: 6 }, (_, i) => job(i)).join("")).replace(
      "</ul>",
      `</ul><div class="site-links">${menu}</div>`
    )
    const text = copy(html)
    expect(text).toContain("Backend engineer number 5")
    expect(text).not.toContain("Cookie settings")
  })
})

const wrapped = () =>
  `<html><head><title>Bread recipes</title></head><body>
  ${kitchenHeader}
  <div class="page"><div class="intro"><h1>Bread recipes</h1>
  <p>Breads for every day of the week, from a quick soda bread that is ready before the soup is to a slow
  sourdough that takes the whole weekend, all of them tested twice at home by the two of us, in a small oven.</p>
  <p>Most of them freeze well once baked and cooled, and every one of them says how long it keeps in a tin,
  in a bag or in the freezer, and how to bring a loaf back to life in a hot oven after a day or two.</p></div>
  <main>${
    Array.from(
      { length: 10 },
      (_, i) =>
        `<article class="post"><h2><a href="/bread/${i}">Crusty loaf of the week, number ${i}</a></h2></article>`
    )
      .join("")
  }</main>
  <div class="outro"><p>Start with the flour: a strong white flour is half of every loaf here, and it pays to buy
  it in a big sack from a mill, then keep it dry and cool in a tin with a lid that closes well and tight.</p>
  <p>Then pick by the season, by the time you have, or by what waits in the cupboard: seeds, oats, a last
  handful of raisins, a spoon of honey, or the end of a jar of olives that nobody wanted to finish on its own.</p></div></div>
  ${kitchenFooter}
  </body></html>`

describe("readable copy: a listing's entries in a main the choice holds", () => {
  it("keeps the linked titles the choice's cleaning dropped inside the main it holds", () => {
    const text = copy(wrapped())
    expect(text).toContain("Breads for every day of the week")
    expect(text).toContain("Start with the flour")
    for (let i = 0; i < 10; i++) expect(text).toContain(`Crusty loaf of the week, number ${i}`)
  })
})

const cupCard = (i: number, status: string): string =>
  `<li class="product type-product post-${i} ${status} instock has-post-thumbnail">` +
  `<a class="woocommerce-LoopProduct-link" href="/product/cup-${i}/"><h2 class="woocommerce-loop-product__title">` +
  `Glass cup number ${i}</h2><span class="colours">Amber, army green, black, blue, sand, lilac</span><span class="price">$${
    20 + i
  }.95</span></a></li>`

const shop = (status: string) =>
  `<html><head><title>Shop</title><meta property="article:published_time" content="2019-06-06T11:51:03+10:00">
  </head><body>
  <header class="site-header"><a href="/">Cups</a> <a href="/cart">Cart</a></header>
  <div id="page-content"><h1>Shop</h1><p>Every cup here is made of tempered glass with a cork band, and every
  lid of a plastic that holds no taste, so that a coffee tastes of coffee and a tea of tea, for years.
  Pick a size, then a colour: each cup is sold alone, and a sleeve and a spare lid can be added in the cart.</p>
  <p class="result-count">Showing all 12 results</p>
  <ul class="products columns-4">${Array.from({ length: 12 }, (_, i) => cupCard(i, status)).join("")}</ul></div>
  <footer><p>Copyright 2026 The Cup Company, all rights reserved, made of glass and cork.</p></footer>
  </body></html>`

describe("readable copy: WordPress's post status on a shop's list items", () => {
  it("keeps the products whose list items carry `status-publish`: no byline", () => {
    const text = copy(shop("status-publish"))
    for (let i = 0; i < 12; i++) {
      expect(text).toContain(`Glass cup number ${i}`)
      expect(text).toContain(`$${20 + i}.95`)
    }
  })
})

const story = (i: number): string =>
  `<div class="story"><h2><a href="/posts/${i}">Notes from week ${i} of building a small compiler</a></h2>` +
  `<p class="story-meta"><a href="/u/ann${i}">Ann Writer ${i}</a> wrote this on a quiet evening at home</p>` +
  `<div class="story-tags"><a href="/t/rust${i}">#rust${i}</a> <a href="/t/parsing${i}">#parsing${i}</a>` +
  ` <a href="/t/tooling${i}">#tooling${i}</a></div></div>`

const frontPage = (published: string) =>
  `<html><head><title>Posts</title>${published}</head><body>
  <header class="site-header"><a href="/">The community</a> <a href="/enter">Sign in</a></header>
  <main><h1>Posts</h1>
  <div class="feed">${Array.from({ length: 8 }, (_, i) => story(i)).join("")}</div>
  <div class="tags"><a href="/t/all">#all</a> <a href="/t/popular">#popular</a> <a href="/t/cloud">#cloudy</a></div>
  </main>
  <footer><p>Copyright 2026 The Community Company, all rights reserved, written by its members.</p></footer>
  </body></html>`

describe("readable copy: an entry's tags", () => {
  it("keeps the tags each card of a listing holds, not a tag cloud beside the cards", () => {
    const text = copy(frontPage(""))
    for (let i = 0; i < 8; i++) {
      expect(text).toContain(`Notes from week ${i} of building a small compiler`)
      expect(text).toContain(`#parsing${i}`)
    }
    expect(text).not.toContain("#cloudy")
  })

  it("leaves a dated page's tags as the name says (an article's strip of other posts)", () => {
    const text = copy(frontPage(`<meta property="article:published_time" content="2026-03-07T10:00:00Z">`))
    expect(text).toContain("Notes from week 0 of building a small compiler")
    expect(text).not.toContain("#parsing0")
  })
})

const post = (i: number): string =>
  `<div class="post"><h2><a href="/p/${i}">A field report from the harbour, part ${i}</a></h2>` +
  `<p>What the divers found under pier ${i} this spring, and what it says about the water there.</p>` +
  [" d-sm", " d-md", " d-lg"].map((w) => `<div class="when${w}">${i + 1}d ago</div>`).join("") + `</div>`

describe("readable copy: a block written once per screen width", () => {
  it("keeps once a card's line written three times in a row", () => {
    const text = copy(
      `<html><head><title>Field reports</title></head><body><main><h1>Field reports</h1>${
        Array.from({ length: 6 }, (_, i) => post(i)).join("")
      }</main></body></html>`
    )
    for (let i = 0; i < 6; i++) {
      expect(text).toContain(`A field report from the harbour, part ${i}`)
      expect(count(text, `${i + 1}d ago`)).toBe(1)
    }
  })
})

const preview = (i: number): string =>
  `<article class="preview"><h2><a href="/p/${i}">Notes on tuning the cache of service ${i}</a></h2>` +
  `<p>What we measured on the read path of service ${i}, and the two settings that mattered most.</p>` +
  `<div class="meta"><span>${i + 1}d ago</span><span aria-hidden="true">\u00b7</span><span>${i + 3} comments</span>` +
  `<span aria-hidden="true"> </span><span>Team ${i}</span></div></article>`

describe("readable copy: a separator hidden from screen readers", () => {
  it("keeps the words on either side of it apart, and joins nothing where a hidden word stood", () => {
    const text = copy(
      `<html><head><title>Engineering notes</title></head><body><main><h1>Engineering notes</h1>${
        Array.from({ length: 5 }, (_, i) => preview(i)).join("")
      }<p>The cach<span aria-hidden="true">e</span>e is warm.</p>` +
        `<p>Kept by <a href="/teams/platform">Platform</a><span aria-hidden="true">\u00b7</span>` +
        `<a href="/teams/storage">Storage</a><span aria-hidden="true">\u00b7</span>Reviewed weekly</p></main></body></html>`
    )
    for (let i = 0; i < 5; i++) expect(text).toContain(`${i + 1}d ago ${i + 3} comments Team ${i}`)
    expect(text).toContain("The cache is warm.")
    // Around a link, what counts is its text, not its Markdown.
    expect(text).toContain("Kept by Platform Storage Reviewed weekly")
  })
})

const tramStory = (i: number): string =>
  `<div class="story"><a href="/s/${i}">How the night shift keeps the trams of line ${i} running</a>` +
  `<div class="facts">${
    i + 2
  } comments</div><p>Crews on line ${i} swap worn rails in the hours the city sleeps.</p></div>`

describe("readable copy: a card written again for another screen width", () => {
  it("leaves out the card's lines that come again with its title, keeps a line two cards share", () => {
    const cards = Array.from({ length: 5 }, (_, i) => tramStory(i)).join("")
    const text = copy(
      `<html><head><title>Night shifts</title></head><body><main><h1>Night shifts</h1>` +
        `<div class="wide">${cards}</div><div class="narrow">${cards}</div>` +
        `<p><a href="/s/9">How the night shift keeps the trams of line 9 running</a></p><p>Updated daily</p>` +
        `<p><a href="/s/9">How the night shift keeps the trams of line 9 running</a></p><p>Updated hourly</p>` +
        `</main></body></html>`
    )
    for (let i = 0; i < 5; i++) {
      expect(count(text, `How the night shift keeps the trams of line ${i} running`)).toBe(1)
      expect(count(text, `${i + 2} comments`)).toBe(1)
      expect(count(text, `Crews on line ${i} swap worn rails`)).toBe(1)
    }
    expect(text).toContain("Updated hourly")
  })
})

const meetup = (i: number, city: string): string =>
  `<div class="event"><h2><a href="/events/${i}">Meetup of the builders, edition ${i}</a></h2>` +
  `<h3><a href="/tech">Tech</a> conference in <a href="/${city}">${city}</a>, <a href="/us">United States</a></h3>` +
  `<p>${i + 10} March</p></div>`

describe("readable copy: a card's subtitle every card writes alike", () => {
  it("keeps the subtitle under each card's own title, leaves out a whole card written again", () => {
    const cards = [1, 2, 3, 4].map((i) => meetup(i, i % 2 === 0 ? "Chicago" : "Austin")).join("")
    const text = copy(
      `<html><head><title>Conferences</title></head><body><main><h1>Tech conferences in the Americas</h1>` +
        `<div class="list">${cards}</div><div class="again">${meetup(4, "Chicago")}</div></main></body></html>`
    )
    expect(count(text, "Tech conference in Chicago, United States")).toBe(2)
    expect(count(text, "Tech conference in Austin, United States")).toBe(2)
    expect(count(text, "Meetup of the builders, edition 4")).toBe(1)
  })
})

const rentalsPage = (head: string): string =>
  `<html><head><title>Party rentals</title>${head}</head><body><div class="page"><div class="hero"><h1>Party tents</h1>` +
  `<h2>Find all party tent rentals in the city and the valley in one place.</h2>` +
  `<h3>Whether you need a small canopy or a tent for three hundred guests, you are in the right place.</h3></div>` +
  `<h2>Popular tents</h2><h2>Why rent from us</h2>` +
  `<p>Every vendor here is local, vetted and insured, and each one delivers, sets up and takes down the tent, ` +
  `so the only thing left for you to do on the day is to enjoy the party with your guests.</p>` +
  `<p>Prices are set by the vendors themselves, with no fee added on top, and every quote you ask for is free.</p>` +
  `</div></body></html>`

describe("readable copy: a sentence set in a heading's type under the page's title", () => {
  it("keeps a hero's lines that are sentences, drops a heading left with nothing under it", () => {
    const text = copy(rentalsPage(""))
    expect(text).toContain("Find all party tent rentals in the city and the valley in one place.")
    expect(text).toContain("Whether you need a small canopy or a tent for three hundred guests")
    expect(text).not.toContain("Popular tents")
    expect(text).toContain("Why rent from us")
  })
})

const formSection = (topic: string): string =>
  `<h3>${topic}</h3><ul>${
    [1, 2, 3].map((i) => `<li><a href="/forms/${topic.toLowerCase()}-${i}">${topic} form number ${i}</a></li>`).join("")
  }</ul>`

const formsPage = (sections: ReadonlyArray<string>): string =>
  `<html><head><title>Court forms</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Court forms</h1>` +
  `<p>These forms are free to use for anyone who files in the district courts, and each one opens as an interview ` +
  `that asks a few plain questions, then builds the document for you to print, sign and file.</p>` +
  `<p>Talk to a lawyer before you go to court on your own, when you can: the clinic answers calls on weekdays, ` +
  `and the chat in the corner of the page takes messages at night, so no question waits for long.</p>` +
  sections.map(formSection).join("") + `</article></main></body></html>`

describe("readable copy: a directory of links under headings", () => {
  it("keeps the lists of links each under a heading of its own, when there are four or more", () => {
    const text = copy(formsPage(["Divorce", "Custody", "Housing", "Benefits"]))
    for (const topic of ["Divorce", "Custody", "Housing", "Benefits"]) expect(text).toContain(`${topic} form number 2`)
  })

  it("leaves one list of links under a heading as the cleaning judges it (an article's related links)", () => {
    const text = copy(formsPage(["Related"]))
    expect(text).toContain("These forms are free to use")
    expect(text).not.toContain("Related form number 2")
  })
})

const posting = (i: number): string =>
  `<li class="posting"><a href="/jobs/${i}"><div class="posting__header">` +
  `<h3 class="posting__header__title"><span class="posting__header__title__text">Platform engineer for team ${i}</span></h3>` +
  `<p class="posting__header__date">${i + 1}d</p></div>` +
  `<p class="posting__company">Company number ${i}</p><p class="posting__kind">Full-Time</p></a></li>`

const postings = (n: number): string =>
  `<html><head><title>Jobs</title></head><body><header class="site-header"><a href="/">Jobs</a></header>` +
  `<main><h1>Remote platform jobs</h1><ul class="postings">` +
  Array.from({ length: n }, (_, i) => posting(i)).join("") + `</ul></main></body></html>`

describe("readable copy: an entry's title in a block named as a header", () => {
  it("keeps each card's header around its linked heading, on a listing of eight entries or more", () => {
    const text = copy(postings(10))
    for (let i = 0; i < 10; i++) {
      expect(text).toContain(`Platform engineer for team ${i}`)
      expect(text).toContain(`Company number ${i}`)
    }
  })
})

const blogEntry = (i: number, credit: string): string =>
  `<p class="entry-title"><a href="/blog/post-${i}">Notes on the garbage collector, part ${i}</a>, ` +
  `<span class="date">${i + 1} March 2026</span><br><span class="author">${credit}</span></p>` +
  `<p class="entry-summary">What changed in the collector this time, and how to measure it in your own programs.</p>`

const blogIndex = (credit: (i: number) => string): string =>
  `<html><head><title>The blog</title></head><body><header class="site-header"><a href="/">Home</a></header>` +
  `<main><h1>The blog</h1><div class="index">` +
  Array.from({ length: 10 }, (_, i) => blogEntry(i, credit(i))).join("") + `</div></main></body></html>`

describe("readable copy: an entry's author line", () => {
  it("keeps the author line under each entry's linked title, on a listing of eight entries or more", () => {
    const text = copy(blogIndex((i) => `Writer number ${i} and the runtime team`))
    for (let i = 0; i < 10; i++) {
      expect(text).toContain(`Notes on the garbage collector, part ${i}`)
      expect(text).toContain(`Writer number ${i} and the runtime team`)
    }
  })

  it("keeps a long author line (a paper's many authors) beside the short ones of its shape", () => {
    const many = Array.from({ length: 12 }, (_, k) => `Coauthor Number ${k}`).join(", ")
    const text = copy(blogIndex((i) => (i === 4 ? many : `Writer number ${i} and the runtime team`)))
    expect(text).toContain("Writer number 3 and the runtime team")
    expect(text).toContain("Coauthor Number 11")
  })

  it("leaves out a line named as an author that every entry repeats (a label, no one's name)", () => {
    const text = copy(blogIndex(() => "Filed under runtime notes"))
    expect(text).toContain("Notes on the garbage collector, part 3")
    expect(text).not.toContain("Filed under runtime notes")
  })
})

const conference = (i: number): string =>
  `<div class="event"><time>Mar ${i + 1}</time><h2><a href="/conferences/${i}">Data day number ${i}</a></h2>` +
  `<h3 class="subtitle"><a href="/topics/tech">Tech</a> conference in <a href="/cities/${i}">City ${i}</a>, ` +
  `<a href="/regions/lakes">Lakes</a>, North America</h3><p>Talks on pipelines and dashboards, then a meetup.</p></div>`

describe("readable copy: a link every card repeats inside a heading", () => {
  it("keeps a topic linked in each entry's subtitle: a part of the heading, no control", () => {
    const text = copy(
      `<html><head><title>Conferences</title></head><body><main><h1>Tech conferences</h1><div class="events">` +
        Array.from({ length: 6 }, (_, i) => conference(i)).join("") + `</div></main></body></html>`
    )
    for (let i = 0; i < 6; i++) {
      expect(text).toContain(`Data day number ${i}`)
      expect(text).toContain(`Tech conference in City ${i}, Lakes, North America`)
    }
  })
})

const course = (audience: string, i: number): string =>
  `<div class="tile"><a href="/courses/${audience}/${i}"><p class="label">3 courses</p>` +
  `<h3>${audience} course ${i}</h3><span>7 hours</span></a></div>`

const audienceSection = (audience: string, intro: string): string =>
  `<div class="band"><div class="band-inner"><div class="band-text"><h2>For ${audience}</h2><p>${intro}</p></div></div>` +
  `<div class="band-cards">` + Array.from({ length: 2 }, (_, i) => course(audience, i)).join("") + `</div></div>`

describe("readable copy: a section introduced before its links", () => {
  it("keeps a catalogue section's heading and paragraph, in a part of their own, over its linked tiles", () => {
    const text = copy(
      `<html><head><title>Data science</title></head><body><main><h1>Data science</h1>` +
        `<p>Everyone creates data with every search and every app they open. What happens to it, and how do ` +
        `companies use it to grow? Explore these questions in our free courses, at your own pace.</p>` +
        audienceSection(
          "students",
          "Dive into our free resources and learn what data science is and how it is used in different " +
            "industries, like music and streaming."
        ) +
        audienceSection(
          "teachers",
          "Use these resources to plan lessons with your class: the curriculum map lays out goals, standards, " +
            "activities and the time each one takes."
        ) +
        `</main></body></html>`
    )
    expect(text).toContain("For students")
    expect(text).toContain("Dive into our free resources and learn what data science is")
    expect(text).toContain("For teachers")
    expect(text).toContain("Use these resources to plan lessons with your class")
  })
})

const letterSection = (letter: string): string =>
  `<h2><span class="headline" id="${letter}">${letter}</span><span class="wiki-editsection">` +
  `<span class="bracket">[</span><a href="/w/index.php?title=List_of_languages&amp;action=edit&amp;section=${letter}" ` +
  `title="Edit section: ${letter}">edit</a><span class="bracket">]</span></span></h2>` +
  `<ul>` + Array.from({ length: 6 }, (_, i) => `<li><a href="/wiki/${letter}${i}">${letter}-language ${i}</a></li>`)
    .join("") +
  `</ul>`

describe("readable copy: a wiki section's edit link", () => {
  it("leaves out the edit link in each heading of a list page, with its brackets, and keeps the entries", () => {
    const text = copy(
      `<html><head><title>List of languages</title></head><body><main><h1>List of languages</h1>` +
        `<p>This is an index of notable languages, in current or historical use; dialects that have a page of ` +
        `their own are not included, and neither are the languages only a single project ever used.</p>` +
        ["A", "B", "C", "D", "E"].map(letterSection).join("") +
        `<p>Editing guide: <a href="/wiki/Help:Edit">edit</a> any page you can improve, and say why in the summary.</p>` +
        `</main></body></html>`
    )
    expect(text).not.toContain("[edit]")
    expect(text).not.toContain("action=edit")
    expect(text).toContain("Editing guide: edit any page")
    for (const letter of ["A", "B", "C", "D", "E"]) {
      expect(text).toMatch(new RegExp(`^#* *${letter}$`, "m"))
      expect(text).toContain(`${letter}-language 5`)
    }
  })
})

const trail = (i: number): string =>
  `<tr class="trail-row"><td><span class="imperial">${i}.5 <span class="units">mi</span></span>\n` +
  `<span class="metric">${i * 16 % 10}.${i}8 <span class="units">km</span></span></td>` +
  `<td><a href="/trail/${i}">Creek loop number ${i}</a></td><td>Intermediate</td><td>Spring, Texas</td></tr>`

describe("readable copy: a measure written in both unit systems", () => {
  it("keeps the first-written system of each pair of measures, and a measure written once", () => {
    const text = copy(
      `<html><head><title>Trails near the city</title></head><body><main><h1>Trails near the city</h1>` +
        `<p>Every trail within an hour of the city, with its length and difficulty, as riders logged them over ` +
        `the last ten years; the list is sorted by how often each trail was ridden last season.</p>` +
        `<table><tbody>${Array.from({ length: 6 }, (_, i) => trail(i + 1)).join("")}</tbody></table>` +
        `<p>Longest loop: <span class="metric">42 km</span> of gravel and sand along the creek.</p>` +
        `</main></body></html>`
    )
    for (let i = 1; i <= 6; i++) {
      expect(text).toContain(`${i}.5 mi`)
      expect(text).not.toContain(`.${i}8 km`)
      expect(text).toContain(`Creek loop number ${i}`)
    }
    expect(text).toContain("42 km")
  })
})

const mower = (i: number): string =>
  `<div class="product-tile"><a href="/mowers/kr${i}"><h4>KR${i}</h4>` +
  `<p>Robotic lawn mower for ${i} acres of grass</p><span class="price">$ ${i},099.99</span></a></div>`

describe("readable copy: a site footer's part named after it", () => {
  it("leaves out the credits line set after the footer, and keeps the grid", () => {
    const text = copy(
      `<html><head><title>Robotic mowers</title></head><body><h1>Robotic mowers</h1>` +
        `<div class="grid">${Array.from({ length: 6 }, (_, i) => mower(i + 1)).join("")}</div>` +
        `<footer class="site-footer"><a href="/about">About us</a> <a href="/stores">Stores</a></footer>` +
        `<div class="footer-credits row"><p>©2026 Mower Group Ltd. Mower® is a registered trademark of the group.</p>` +
        `<p><a href="/privacy">Privacy Policy</a> | <a href="/terms">Terms and conditions</a></p></div>` +
        `</body></html>`
    )
    for (let i = 1; i <= 6; i++) expect(text).toContain(`Robotic lawn mower for ${i} acres`)
    expect(text).not.toContain("registered trademark")
    expect(text).not.toContain("Privacy Policy")
  })
})

const topicStory = (i: number): string =>
  `<li class="teaser-item"><div class="teaser"><span class="age">${i} days ago</span> ` +
  `<a href="/news/story-${i}">Rental cars story number ${i}</a><p class="summary">Day ${i} on the roads with the fleets</p></div></li>`

describe("readable copy: a site's navigation bar named so", () => {
  it("leaves out a box named as the navigation bar, with its weather, when the copy is the page's visible text", () => {
    const text = copy(
      `<html><head><title>Topic: car rental</title></head><body>` +
        `<div class="NavBar-module_container__Ks8" id="navbar"><a href="/">News</a> <a href="/weather">Weather</a> ` +
        `<a href="/sports">Sports</a> <a href="/weather"><p>Now</p><p>40</p><p>Thu</p><p>57</p></a></div>` +
        `<div class="column"><div class="title">CAR RENTAL</div>` +
        `<ul class="teaser-list">${Array.from({ length: 6 }, (_, i) => topicStory(i + 1)).join("")}</ul></div>` +
        `</body></html>`
    )
    for (let i = 1; i <= 6; i++) expect(text).toContain(`Rental cars story number ${i}`)
    expect(text).not.toContain("Sports")
    expect(text).not.toContain("Thu")
  })
})

describe("readable copy: a toggle that opens a text in place", () => {
  it("leaves out a clamped intro's \"Read more\" going nowhere, keeps a label in a sentence and a link to a page", () => {
    const text = copy(
      `<html><head><title>Rankings</title></head><body><main><h1>Computer science rankings</h1>` +
        `<div class="intro"><div class="limit-to-four-lines"><p>Over eight hundred universities were ranked this year ` +
        `for computer science; the top three are in the same country, and ten countries have one in the top fifty.</p>` +
        `<p>The highest new entrant debuts at joint 175th, the fourth best in its country for the subject.</p></div>` +
        `<a href="javascript:void(0)" class="read-more-click">Read more</a>` +
        `<p><b>Read more</b>: the method is published each spring with the data behind every score.</p>` +
        `<p>Every table of this year's results is on the news page, country by country. ` +
        `<a href="/news/rankings-2026">Read more</a></p></div></main></body></html>`
    )
    expect(text).toContain("debuts at joint 175th")
    expect(text).not.toMatch(/^Read more$/m)
    expect(text).toContain("Read more: the method is published")
    expect(text).toContain("country by country. Read more")
  })
})

const trending = (i: number): string =>
  `<li class="news"><div class="card__content"><span class="card__icon">Icon</span><div class="card__data">` +
  `<h5 class="card__title"><a href="/news/story-${i}">Trending story number ${i}</a></h5></div></div></li>`

describe("readable copy: an icon's word", () => {
  it("leaves out the word \"Icon\" in a box named as an icon, and keeps the word elsewhere", () => {
    const text = copy(
      `<html><head><title>News</title></head><body><main><h1>Software news</h1>` +
        `<p>The stories our readers opened most this week, with the icon of each story's section beside it.</p>` +
        `<ol class="cards">${Array.from({ length: 6 }, (_, i) => trending(i + 1)).join("")}</ol>` +
        `<p>The section's <span class="icon-label">Icon</span> is drawn from the site's own glyph font.</p>` +
        `</main></body></html>`
    )
    for (let i = 1; i <= 6; i++) expect(text).toContain(`Trending story number ${i}`)
    expect(text).not.toMatch(/^\s*Icon$/m)
    expect(text).toContain("The section's Icon is drawn")
  })
})

const tool = (i: number): string =>
  `<div class="row flex"><div class="rank">${i}</div><div><a href="/tools/tool-${i}">Learning tool number ${i}</a>` +
  `<p>Score ${90 - i} of 100 from ${i * 7} reviews by data teams.</p></div>` +
  `<div class="flex items-center cursor-pointer"><svg width="16" height="16"><rect width="16" height="16"></rect></svg>` +
  `<span class="text-sm">Compare</span></div></div>`

describe("readable copy: a control drawn with the pointer's class", () => {
  it("leaves out a checkbox drawn as a clickable box in every row of a ranking, and keeps the rows", () => {
    const text = copy(
      `<html><head><title>Rankings</title></head><body><main><h1>Top learning tools</h1>` +
        `<p>The tools data teams rate highest this year, by their reviews; tick two or more to compare them.</p>` +
        `<div class="rows">${Array.from({ length: 8 }, (_, i) => tool(i + 1)).join("")}</div></main></body></html>`
    )
    for (let i = 1; i <= 8; i++) expect(text).toContain(`Learning tool number ${i}`)
    expect(text).not.toContain("Compare")
  })
})

const quickDish = (i: number): string =>
  `<div class="recipe-tile"><a href="/recipes/${i}"><h4>Weeknight recipe ${i}</h4>` +
  `<p>Dinner for two in ${i + 20} minutes</p><span class="rating">${i + 10} reviews</span></a></div>`

describe("readable copy: a loading note", () => {
  it("leaves out \"Loading...\" standing alone after the page's text, and keeps it where the page says nothing else", () => {
    const text = copy(
      `<html><head><title>Quick recipes</title></head><body><h1>Quick recipes</h1>` +
        `<div class="grid">${Array.from({ length: 6 }, (_, i) => quickDish(i + 1)).join("")}</div>` +
        `<div class="more-results"><span class="spin"></span> Loading... </div>` +
        `<p>Loading... the next page of recipes takes a moment.</p></body></html>`
    )
    for (let i = 1; i <= 6; i++) expect(text).toContain(`Weeknight recipe ${i}`)
    expect(text).not.toMatch(/^\s*Loading\.\.\.$/m)
    expect(text).toContain("Loading... the next page")
    const waiting = copy(
      `<html><head><title>One moment</title></head><body><main><h1>Checking your browser</h1>` +
        `<p>Loading...</p><p>This site checks each visitor before it shows its pages, which takes a few seconds ` +
        `on most computers and a little longer on older phones.</p></main></body></html>`
    )
    expect(waiting).toMatch(/^Loading\.\.\.$/m)
  })
})

const trailRow = (i: number): string =>
  `<tr><td><a href="/trails/${i}"><strong>Ridge loop number ${i}</strong></a>` +
  `<div class="hidden-md-up small">Intermediate <span>Greenwood, TX</span></div></td>` +
  `<td class="hidden-sm-down">Intermediate</td><td class="hidden-sm-down">Greenwood, TX</td>` +
  `<td class="hidden-sm-down">${i * 3} votes</td></tr>`

describe("readable copy: a table row written for two screen widths", () => {
  it("leaves out a row's box for phones that its other cells say again, and keeps one that says more", () => {
    const text = copy(
      `<html><head><title>Trails</title></head><body><main><h1>Trails near the city</h1>` +
        `<p>Every trail within an hour of the city, with its difficulty and the town it starts from, as riders ` +
        `logged them over the last ten years; the list is sorted by how often each trail was ridden.</p>` +
        `<table><tbody>${Array.from({ length: 6 }, (_, i) => trailRow(i + 1)).join("")}` +
        `<tr><td><a href="/trails/9">Creek path</a><div class="d-md-none">Closed for repairs until May</div></td>` +
        `<td>Easy</td><td>Greenwood, TX</td><td>2 votes</td></tr></tbody></table></main></body></html>`
    )
    for (let i = 1; i <= 6; i++) expect(text).toContain(`Ridge loop number ${i}`)
    expect(count(text, "Intermediate")).toBe(6)
    expect(count(text, "Greenwood, TX")).toBe(7)
    expect(text).toContain("Closed for repairs until May")
  })
})

const projectCard = (column: string, i: number, summary: string): string =>
  `<div class="${column} mb-4"><div class="card"><div class="card-body">` +
  `<a href="/projects/${i}"><img class="card-img-top" src="/p${i}.jpg" alt=""></a>` +
  `<h4 class="card-title"><a href="/projects/${i}">Build a weather station in a jam jar, part ${i}</a></h4>` +
  `<p class="card-text">${summary}</p></div></div></div>`

const longSummary = (i: number): string =>
  `A sensor board, a jar and an afternoon: step ${i} of the series wires the humidity sensor, writes the readings ` +
  `to a card every minute and draws them as a chart you can open in any browser at home.`

describe("readable copy: a listing's featured entry", () => {
  it("keeps an entry set apart by its class and built as the entries beside it, whose summary is shorter", () => {
    const text = copy(
      `<html><head><title>Projects</title></head><body><h1>Gadget projects</h1><div class="row">` +
        projectCard("col-md-8", 1, "Solder it in minutes, with nothing but an iron and a browser!") +
        Array.from({ length: 4 }, (_, i) => projectCard("col-md-4", i + 2, longSummary(i + 2))).join("") +
        `</div></body></html>`
    )
    for (let i = 2; i <= 5; i++) expect(text).toContain(`part ${i}`)
    expect(text).toContain("Build a weather station in a jam jar, part 1")
    expect(text).toContain("Solder it in minutes, with nothing but an iron and a browser!")
  })
})

const award = (category: string, slug: string, i: number): string =>
  `<div class="award-group"><h3 class="wp-block-heading" id="${slug}">${category}</h3><ul>` +
  Array.from({ length: 3 }, (_, k) =>
    `<li class="award-card"><p class="type">${k === 0 ? "Winner" : "Honoree"}</p>` +
    `<a href="/awards/${i}-${k}"><h4>Project ${i}-${k} of the year</h4></a>` +
    `<p class="excerpt">Studio number ${i}${k} and partners, architects of the building</p></li>`).join("") +
  `</ul></div>`

describe("readable copy: a heading the page's own index links to", () => {
  it("keeps a heading whose id, the anchor of its link, holds a furniture name", () => {
    const categories = [["Apartment", "apartment"], ["Bar/Social Club", "bar-social-club"], [
      "Beach House",
      "beach-house"
    ]]
    const text = copy(
      `<html><head><title>Awards</title></head><body><h1>Best of the year awards</h1>` +
        `<p>The winners and honorees of this year's awards, chosen by the jury among more than a thousand ` +
        `projects entered from forty countries, in every category of the competition.</p>` +
        `<div class="filter"><ul>${
          categories.map(([c, s]) => `<li><a href="#${s}">${c}</a></li>`).join("")
        }</ul></div>` +
        `<div class="award-list">${categories.map(([c, s], i) => award(c!, s!, i)).join("")}</div></body></html>`
    )
    expect(text).toMatch(/^\s*Bar\/Social Club$/m)
    expect(text).toMatch(/^\s*Beach House$/m)
    expect(text).toContain("Project 1-0 of the year")
  })
})

const film = (i: number): string =>
  `<li class="chart-item"><div class="chart-title"><a href="/title/${i}"><h3>Film number ${i}</h3></a></div>` +
  `<div class="chart-meta"><span class="chart-meta-item">${2020 + i}</span>` +
  `<span class="chart-meta-item">${i}h 4${i}m</span><span class="chart-meta-item">PG</span></div>` +
  `<p>A story of ${i} friends who cross the mountains in winter, told by the youngest of them.</p></li>`

describe("readable copy: figures side by side", () => {
  it("writes a figure alone in its element apart from the figure after it, and keeps a counter's digits whole", () => {
    const text = copy(
      `<html><head><title>Chart</title></head><body><main><h1>Most popular films</h1>` +
        `<div class="counter"><span class="digit">1</span><span class="digit">2</span><span class="digit">8</span>` +
        ` films this week, ranked by how many readers looked them up.</div><ul class="chart">${
          Array.from({ length: 5 }, (_, i) => film(i + 1)).join("")
        }</ul></main></body></html>`
    )
    expect(text).toContain("2021 1h 41m")
    expect(text).toContain("2025 5h 45m")
    expect(text).not.toContain("20211h")
    expect(text).toContain("128 films this week")
  })
})

const stone = (i: number): string =>
  `<li class="product"><a href="/stones/${i}"><h3>Water stone of grit ${i}000</h3></a>` +
  `<div class="product-meta"><span class="origin">Made in the USA</span><span class="stock">In Stock</span></div>` +
  `<div class="maker"><span class="maker-name">NA</span><span class="maker-name">SA</span> grade abrasives</div>` +
  `<p>A stone of grit ${i}000 that brings a kitchen knife's edge back in a few minutes, soaked or splashed.</p></li>`

describe("readable copy: a word after an acronym", () => {
  it("writes a capitalized word apart from the acronym before it, and keeps an acronym's parts whole", () => {
    const text = copy(
      `<html><head><title>Stones</title></head><body><main><h1>Water stones</h1><ul class="products">${
        Array.from({ length: 5 }, (_, i) => stone(i + 1)).join("")
      }</ul></main></body></html>`
    )
    expect(count(text, "Made in the USA In Stock")).toBe(5)
    expect(text).not.toContain("USAIn")
    expect(text).toContain("NASA grade abrasives")
  })
})

const mapCard = (i: number): string =>
  `<div class="cta"><div class="cta__bg" role="img" aria-label="trail ${i}"></div><div class="cta__content">` +
  `<h2 class="cta__title">Creek trail ${i}</h2><div class="cta__description">Difficulty: beginner<br>` +
  `Length: ${i} miles<br>Trail steward: volunteer crew ${i}</div><div class="cta__button-wrapper">` +
  `<a class="cta__button button" href="https://maps.example/trail-${i}">${
    i % 2 === 0 ? "View Trail Map" : "Get directions"
  }</a></div></div></div>`

describe("readable copy: a card's link to a map", () => {
  it("leaves out a link standing alone that opens a map of the card's place, and keeps one inside a sentence", () => {
    const text = copy(
      `<html><head><title>Trails</title></head><body><main><h1>Trails</h1>` +
        `<p>The club builds and rides the trails around town; <a href="https://maps.example/all">view the map</a>` +
        ` of all of them before you go.</p>${Array.from({ length: 4 }, (_, i) => mapCard(i + 1)).join("")}` +
        `</main></body></html>`
    )
    expect(text).toContain("Length: 3 miles")
    expect(text).toContain("Trail steward: volunteer crew 4")
    expect(text).not.toContain("View Trail Map")
    expect(text).not.toContain("Get directions")
    expect(text).toContain("view the map of all of them")
  })
})

const opening = (i: number): string =>
  `<div class="job-card"><h3><a href="/jobs/${i}">Platform engineer, team ${i}</a></h3>` +
  `<p>Remote, ${3 + i} days a week; the team runs the build farm and its caches.</p>` +
  `<div class="job-card__actions"><a class="btn btn-primary" href="/jobs/${i}/apply">${
    i % 2 === 0 ? "Apply now" : "Apply Today \u2192"
  }</a></div></div>`

describe("readable copy: a link to apply", () => {
  it("leaves out a link standing alone that asks the reader to apply, and keeps one inside a sentence", () => {
    const text = copy(
      `<html><head><title>Jobs</title></head><body><main><h1>Open roles</h1>` +
        `<p>Every role below is open to anyone in Europe; <a href="/apply">apply now</a> or write to us first.</p>${
          Array.from({ length: 4 }, (_, i) => opening(i + 1)).join("")
        }</main></body></html>`
    )
    expect(text).toContain("Platform engineer, team 3")
    expect(text).toContain("Remote, 7 days a week")
    expect(text).not.toContain("Apply now")
    expect(text).not.toContain("Apply Today")
    expect(text).toContain("apply now or write to us first")
  })
})

const route = (i: number): string =>
  `<div class="route"><h3><a href="/routes/${i}">River loop ${i}</a></h3>` +
  `<p>${4 + i}.2 mi, ${30 + i} ft up and down, along the creek and back through the park.</p></div>`

describe("readable copy: a box asking a guest to log in", () => {
  it("leaves out a box asking whether the reader has an account, and keeps the question inside a sentence", () => {
    const text = copy(
      `<html><head><title>Routes</title></head><body><main><h1>Routes near town</h1>` +
        `<div class="panel"><h2>Join the club! It's free</h2><p>Save your routes and follow the riders you know.</p>` +
        `<a class="btn" href="/login">Log in</a><h3>Don't have an account?</h3>` +
        `<a class="btn" href="/register">Register</a></div>` +
        `<p>Anyone may add a route, even if you don't have an account yet; the club checks each one.</p>${
          Array.from({ length: 4 }, (_, i) => route(i + 1)).join("")
        }</main></body></html>`
    )
    expect(text).toContain("River loop 3")
    expect(text).toContain("6.2 mi, 32 ft up and down")
    expect(text).toContain("even if you don't have an account yet")
    expect(text).not.toContain("Don't have an account?")
    expect(text).not.toContain("Join the club")
    expect(text).not.toContain("Save your routes")
  })
})

const timedPost = (i: number): string =>
  `<div class="post-card"><h3><a href="/posts/${i}">Notes on caching, part ${i}</a></h3>` +
  `<div class="post-card__meta"><span>Mar ${i + 2}</span><span>${i + 3} min read</span></div>` +
  `<p>What the build farm learned about its caches in week ${i}.</p></div>`

describe("readable copy: a post's reading time", () => {
  it("leaves out a reading time standing alone, and keeps one inside a sentence", () => {
    const text = copy(
      `<html><head><title>Blog</title></head><body><main><h1>Engineering notes</h1>` +
        `<p>Each post below is a 5 min read on how the team builds and ships.</p>${
          Array.from({ length: 4 }, (_, i) => timedPost(i + 1)).join("")
        }</main></body></html>`
    )
    expect(text).toContain("Notes on caching, part 3")
    expect(text).toContain("Mar 5")
    expect(text).toContain("in week 3")
    expect(text).not.toContain("6 min read")
    expect(text).not.toContain("4 min read")
    expect(text).toContain("a 5 min read on how the team")
  })
})

const pick = (section: number, i: number): string =>
  `<li class="pick"><h3><a href="/reviews/${section}-${i}">Best desk lamp ${section}.${i}</a></h3>` +
  `<p>Updated March ${i + 1}; our pick after ${10 + i} hours of testing under the bench.</p></li>`

const shelf = (section: number, label: string): string =>
  `<section class="shelf"><h2>Lighting, shelf ${section}</h2><ul>${
    Array.from({ length: 3 }, (_, i) => pick(section, i + 1)).join("")
  }</ul><div class="shelf__more"><a class="button" href="/reviews/shelf-${section}">${label}</a></div></section>`

describe("readable copy: a section's link to its whole list", () => {
  it("leaves out a link standing alone that opens the whole list, and keeps one inside a sentence", () => {
    const text = copy(
      `<html><head><title>Reviews</title></head><body><main><h1>Lighting reviews</h1>` +
        `<p>Each shelf shows its three newest picks; <a href="/reviews">see all reviews</a> in the archive.</p>` +
        `${shelf(1, "See all reviews")}${shelf(2, "View all \u203a")}${shelf(3, "More articles")}` +
        `</main></body></html>`
    )
    expect(text).toContain("Best desk lamp 2.3")
    expect(text).toContain("after 12 hours of testing")
    expect(text).not.toContain("See all reviews")
    expect(text).not.toContain("View all")
    expect(text).not.toContain("More articles")
    expect(text).toContain("see all reviews in the archive")
  })
})

const discussedPost = (i: number): string =>
  `<div class="story"><h3><a href="/posts/${i}">Shipping a cache layer, week ${i}</a></h3>` +
  `<p>How the build farm kept its hit rate over ${80 + i} percent.</p><div class="story__details">` +
  `<a class="btn btn--ghost" href="/posts/${i}#comments"><svg role="img"><title>Comments</title></svg>` +
  `${i * 9}<span class="hidden s:inline">&nbsp;comments</span></a></div></div>`

describe("readable copy: a card's link to its comments", () => {
  it("leaves out a link standing alone that counts a post's comments, and keeps a heading that counts them", () => {
    const text = copy(
      `<html><head><title>Posts</title></head><body><main><h1>Latest posts</h1>${
        Array.from({ length: 4 }, (_, i) => discussedPost(i + 1)).join("")
      }<section><h2>5 Comments</h2><p>Readers ask how the cache layer handles a cold start.</p></section>` +
        `</main></body></html>`
    )
    expect(text).toContain("Shipping a cache layer, week 3")
    expect(text).toContain("over 83 percent")
    expect(text).not.toContain("27 comments")
    expect(text).not.toContain("18 comments")
    expect(text).toContain("5 Comments")
  })
})

const listedJob = (i: number): string =>
  `<li class="job"><h3><a href="/jobs/${i}">Platform engineer, team ${i}</a></h3>` +
  `<p>Keeps the build farm of team ${i} fast; ${3 + i} years with caches and queues asked for.</p></li>`

const emailBox = (heading: string, line: string): string =>
  `<div class="box"><h2>${heading}</h2><p>${line}</p>` +
  `<form action="/subscribe"><input type="email" name="address" placeholder="Email"><button>Subscribe</button></form></div>`

describe("readable copy: a newsletter's sign-up box on a listing", () => {
  it("leaves out a box whose email field a newsletter asks for, on a page with no date or author", () => {
    const text = copy(
      `<html><head><title>Jobs</title></head><body><main><h1>Remote platform jobs</h1><ul>${
        Array.from({ length: 6 }, (_, i) => listedJob(i + 1)).join("")
      }</ul>${
        emailBox("The Platform Newsletter", "A monthly note on the jobs and tools that matter to platform teams.")
      }</main></body></html>`
    )
    expect(text).toContain("Platform engineer, team 4")
    expect(text).toContain("8 years with caches and queues")
    expect(text).not.toContain("The Platform Newsletter")
    expect(text).not.toContain("A monthly note on the jobs")
  })

  it("keeps a box with an email field that says nothing of a newsletter (the listing's own form)", () => {
    const text = copy(
      `<html><head><title>Jobs</title></head><body><main><h1>Remote platform jobs</h1><ul>${
        Array.from({ length: 6 }, (_, i) => listedJob(i + 1)).join("")
      }</ul>${
        emailBox("Get these jobs by email", "We write when a new platform job like these is posted.")
      }</main></body></html>`
    )
    expect(text).toContain("Platform engineer, team 4")
    expect(text).toContain("We write when a new platform job like these is posted.")
  })
})

const wikiLetter = (l: string): string =>
  `<div class="mw-category-group"><h3>${l}</h3><ul>${
    Array.from({ length: 5 }, (_, i) => `<li><a href="/wiki/${l}${i}">${l}-language ${i + 1}</a></li>`).join("")
  }</ul></div>`

/** A wiki's category page as MediaWiki writes it: the page's text, then its print footer and category links inside `main`. */
const wikiCategory = `<html><head><title>Category:Garden languages - Gardenwiki</title></head><body>
  <header class="mw-header"><a href="/">Gardenwiki</a></header>
  <div class="mw-page-container"><main id="content" class="mw-body"><h1 id="firstHeading">Category:Garden languages</h1>
  <div id="bodyContent" class="vector-body"><div id="mw-content-text" class="mw-body-content">
  <p>This category lists the languages gardeners write their planting schedules in, one page for each language.</p>
  <div id="mw-pages"><h2>Pages in category "Garden languages"</h2>
  <p>The following 20 pages are in this category, out of 20 total.</p>
  <div class="mw-content-ltr"><div class="mw-category">${["A", "B", "C", "D"].map(wikiLetter).join("")}</div></div>
  </div></div>
  <div class="printfooter" data-nosnippet="">Retrieved from "<a href="/w/index.php?title=Category:Garden_languages&amp;oldid=42">` +
  `https://garden.example/w/index.php?title=Category:Garden_languages&amp;oldid=42</a>"</div>
  <div id="catlinks" class="catlinks"><div id="mw-normal-catlinks" class="mw-normal-catlinks">` +
  `<a href="/wiki/Help:Category">Categories</a>: <ul><li><a href="/wiki/Category:Planting">Planting tools</a></li></ul></div>
  <div id="mw-hidden-catlinks" class="mw-hidden-catlinks">Hidden categories: <ul><li>` +
  `<a href="/wiki/Category:Stubs">Stub categories</a></li></ul></div></div>
  </div></main></div>
  <footer id="footer"><a href="/privacy">Privacy policy</a></footer></body></html>`

describe("readable copy: a wiki's footer under its page", () => {
  it("leaves out MediaWiki's print footer and category links, and keeps the category's pages", () => {
    const text = copy(wikiCategory)
    expect(text).toContain("This category lists the languages gardeners write")
    expect(text).toContain("C-language 4")
    expect(text).not.toContain("Retrieved from")
    expect(text).not.toContain("Hidden categories")
  })
})

const gardenCourse = (i: number): string =>
  `<div class="card"><a href="/courses/${i}"><h3>Garden course number ${i}</h3></a>` +
  `<p>Three hours on the beds and tools of plot ${i}, with a certificate at the end of it.</p></div>`

/** A catalogue's hero inside its content: a breadcrumb, the page's one title, its lead and two links to other lists. */
const catalogue = `<html><head><title>Garden courses | Plotschool</title></head><body>
  <header class="site-header"><a href="/">Plotschool</a></header>
  <div class="page"><div class="intro-box"><ul class="crumbs"><li><a href="/all">All courses</a></li>` +
  `<li><a href="/free">Free courses for gardeners</a></li></ul>
  <div class="intro"><h1>Explore free garden courses</h1>
  <p>Each course takes about three hours: pick a level from beginner to advanced, work through the lessons at your own pace and earn a certificate.</p></div>
  <span>See our <a href="/diplomas">Diploma courses</a> or <a href="/all">Browse every course we offer</a></span></div>
  <div class="grid">${Array.from({ length: 8 }, (_, i) => gardenCourse(i + 1)).join("")}</div></div>
  <footer><p>Copyright 2026 Plotschool, all rights reserved.</p></footer></body></html>`

describe("readable copy: the page's title and lead in a box with a breadcrumb", () => {
  it("keeps the title and its lead when their box links a lot, and leaves out the breadcrumb", () => {
    const text = copy(catalogue)
    expect(text).toContain("Explore free garden courses")
    expect(text).toContain("Each course takes about three hours")
    expect(text).toContain("Garden course number 7")
    expect(text).not.toContain("Free courses for gardeners")
  })
})

const plot = (i: number): string =>
  `<article class="row"><h2><a href="/plots/${i}">Allotment plot ${i}</a></h2>` +
  `<p>Tomatoes, beans and a pumpkin bed along the fence of plot ${i}, watered by hand.</p>` +
  `<span class="stars">${100 + i} stars this week</span></article>`

/** A trending page: a hero of its own with the page's one title and a short lead, then the list chosen apart. */
const trendingPlots = `<html><head><title>Plotshare</title></head><body>
  <header class="site-header"><a href="/">Plotshare</a> <a href="/login">Sign in</a></header>
  <main><div class="hero"><div class="container"><h1>Trending</h1>
  <p>See what the growers are most excited about this week.</p></div></div>
  <div class="box"><div class="box-header"><a href="/trending?since=daily">Today</a> <a href="/trending?since=weekly">This week</a></div>
  <div class="rows">${Array.from({ length: 8 }, (_, i) => plot(i + 1)).join("")}</div></div></main>
  <footer><p>Copyright 2026 Plotshare, all rights reserved.</p></footer></body></html>`

describe("readable copy: the page's title and a one-sentence lead above the list", () => {
  it("keeps a short lead of one sentence under the title on an undated page", () => {
    const text = copy(trendingPlots)
    expect(text).toContain("Trending")
    expect(text).toContain("See what the growers are most excited about this week.")
    expect(text).toContain("Allotment plot 6")
  })
})

const freshPost = (i: number): string =>
  `<div class="story"><h3><a href="/posts/${i}">Tuning the compost heap, week ${i}</a></h3>` +
  `<p>How the heap on bed ${i} kept warm through ${10 + i} nights of frost.</p><div class="story__details">` +
  `<a class="btn btn--ghost" href="/posts/${i}#comments"><svg role="img"><title>Comments</title></svg>` +
  `${i % 2 === 0 ? "" : i * 7}<span class="hidden s:inline">${
    i % 2 === 0 ? "Add&nbsp;Comment" : "&nbsp;comments"
  }</span></a>` +
  `</div></div>`

describe("readable copy: a card's link to write a comment", () => {
  it("leaves out a link standing alone that asks to write a post's first comment, and keeps one in a sentence", () => {
    const text = copy(
      `<html><head><title>Posts</title></head><body><main><h1>Latest posts</h1>${
        Array.from({ length: 6 }, (_, i) => freshPost(i + 1)).join("")
      }<p>Found a mistake? <a href="/help">Add a comment</a> under the post and we fix it.</p></main></body></html>`
    )
    expect(text).toContain("Tuning the compost heap, week 3")
    expect(text).toContain("through 13 nights of frost")
    expect(text).not.toContain("Add Comment")
    expect(text).toContain("Add a comment under the post")
  })
})

const show = (i: number): string =>
  `<div class="card"><div class="card-content"><h5 class="card-title"><a href="/shows/${i}">Seed swap radio ${i}</a></h5></div>` +
  `<div class="card-reveal"><span class="card-title"><i class="material-icons right">close</i></span>` +
  `<p>Growers of plot ${i} trade seeds and stories every week, recorded in the shed.</p></div></div>`

/** A directory's cards with an icon font's ligature ("close"), and a comparison table whose cells hold its "check". */
const showDirectory = `<html><head><title>Shows</title></head><body><main><h1>Garden shows</h1>
  <div class="row">${Array.from({ length: 6 }, (_, i) => show(i + 1)).join("")}
  <table><tr><th>Plan</th><th>Free</th><th>Plus</th></tr>
  <tr><td>Weekly episodes of every show</td><td><i class="material-icons">check</i></td>` +
  `<td><i class="material-icons">check</i></td></tr></table></div></main></body></html>`

describe("readable copy: an icon font's ligature", () => {
  it("leaves out an icon's name drawn as a glyph, and keeps it in a table's cell", () => {
    const text = copy(showDirectory)
    expect(text).toContain("Seed swap radio 4")
    expect(text).toContain("trade seeds and stories")
    expect(text).not.toContain("close")
    expect(count(text, "check")).toBe(2)
  })
})

const openRole = (i: number): string =>
  `<div class="job-tile"><h3><a href="/jobs/${i}">Greenhouse planner, site ${i}</a></h3>` +
  `<ul><li>4 x 8hr days</li><li>Remote, ${i % 2 === 0 ? "Canada" : "Norway"} only</li></ul>` +
  `<div class="job-apply"><a class="btn btn-success" href="/jobs/${i}/apply">Apply now` +
  `<div class="apply-location">${i % 2 === 0 ? "Canada" : "Norway"} only</div></a></div></div>`

describe("readable copy: a link to apply with a note under its label", () => {
  it("leaves out a link to apply that carries where the job is open", () => {
    const text = copy(
      `<html><head><title>Jobs</title></head><body><main><h1>Open roles</h1>${
        Array.from({ length: 4 }, (_, i) => openRole(i + 1)).join("")
      }</main></body></html>`
    )
    expect(text).toContain("Greenhouse planner, site 3")
    expect(text).toContain("Remote, Canada only")
    expect(text).not.toContain("Apply now")
  })
})

const awardCard = (kind: string, title: string, firm: string): string =>
  `<li class="award-card"><div class="award-card__content"><p class="type">${kind}</p>` +
  `<a class="award-card__link" href="/awards/${title.toLowerCase().replace(/ /g, "-")}"><h4>${title}</h4></a>` +
  `<p class="excerpt">${firm}</p></div></li>`

const awardGroup = (category: string, i: number): string =>
  `<div class="wp-block-group"><h3>${category}</h3><ul>${
    awardCard("Winner", `${category} Hall ${i}`, `Studio North ${i}`)
  }${
    Array.from({ length: 4 }, (_, k) => awardCard("Honoree", `${category} Court ${i}${k}`, `Atelier West ${i}${k}`))
      .join("")
  }</ul></div>`

const bestPair = (a: string, b: string): string =>
  `<div class="wp-block-columns">${
    [a, b].map((category) =>
      `<div class="wp-block-column"><div class="group-inner"><h3>Best of the best: ${category}</h3>` +
      `<div class="cards-wrapper"><ul>${
        awardCard("Winner", `Grand ${category} House by the Lake`, `Field and Stone Partners`)
      }` +
      `</ul></div></div></div>`
    ).join("")
  }<p><a href="#projects">Back to projects</a></p></div>`

/** An awards page: each category a box of its winner and honorees, and between them boxes of two "best of the best" winners. */
const awardsPage = `<html><head><title>Design awards</title></head><body><main><h1>Design awards winners</h1>
  <div class="award-list">${Array.from({ length: 12 }, (_, i) => awardGroup(`Category ${i + 1}`, i + 1)).join("")}${
  bestPair("Apartment", "Bakery")
}${bestPair("Cinema", "Dairy")}${bestPair("Gallery", "Harbour")}${
  Array.from({ length: 12 }, (_, i) => awardGroup(`Category ${i + 13}`, i + 13)).join("")
}</div></main></body></html>`

describe("readable copy: cards of another build between a listing's cards", () => {
  it("keeps the short boxes of winners that stand between the categories' boxes", () => {
    const text = copy(awardsPage)
    expect(text).toContain("Category 3 Court 32")
    expect(text).toContain("Best of the best: Harbour")
    expect(text).toContain("Grand Gallery House")
  })
})

const rentalItem = (i: number): string =>
  `<div class="rental-item"><h3><a href="/rentals/${i}">Rowing machine, model ${i}</a></h3>` +
  `<p>Delivered and set up in your home, picked up when the month is over.</p><p>$${40 + i} a month</p></div>`

/** A rental list whose testimonials sit in a carousel stepped by links to its own anchor. */
const rentalList = `<html><head><title>Rentals</title></head><body><main><h1>Fitness equipment rentals</h1>
  <div class="rentals">${Array.from({ length: 5 }, (_, i) => rentalItem(i + 1)).join("")}</div>
  <div id="testimonials" class="carousel slide"><div class="carousel-inner">
  <div class="item active"><p>The bike came on time and the crew carried it upstairs for us.</p></div></div>
  <a class="left carousel-control" href="#testimonials" role="button"><span class="sr-only">Previous</span></a>
  <a class="right carousel-control" href="#testimonials" role="button"><span class="sr-only">Next</span></a></div>
  </main></body></html>`

describe("readable copy: a carousel's step links", () => {
  it("leaves out the links that step a carousel in place", () => {
    const text = copy(rentalList)
    expect(text).toContain("Rowing machine, model 4")
    expect(text).toContain("carried it upstairs")
    expect(text).not.toContain("Previous")
    expect(text).not.toContain("Next")
  })
})

const storyBody = (i: number): string =>
  Array.from(
    { length: 4 },
    (_, k) =>
      `<p>Paragraph ${k} of story ${i}: the allotment board met on Tuesday, counted the water butts, ` +
      `agreed a rota for the winter digging and asked every plot holder to mend their own fences before spring.</p>`
  ).join("")

const headedStory = (i: number): string =>
  `<article class="story-item"><header><h2 class="story"><span class="story-title">` +
  `<a href="/story/${i}">Allotment board story number ${i}</a></span></h2></header>` +
  `<div class="body">${storyBody(i)}</div></article>`

describe("readable copy: an article's own header on a front page", () => {
  it("keeps each story's linked title in its article's header, on a page that states no date", () => {
    const text = copy(
      `<html><head><title>Plot news</title></head><body><section><div class="stories">${
        Array.from({ length: 4 }, (_, i) => headedStory(i + 1)).join("")
      }</div></section></body></html>`
    )
    expect(text).toContain("Paragraph 2 of story 3")
    expect(text).toContain("Allotment board story number 3")
  })
})
