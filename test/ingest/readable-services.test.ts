/**
 * Service pages: small pages written here (no copy of any real page), each failing without the
 * rule it tests (readable/blockLinks.ts `blockLink`, readable/content.ts `declaredContent`,
 * readable/accordions.ts `accordionAnswers`, readable/formNotes.ts `withoutFormNotes`,
 * readable/calls.ts `sectionsNamedCallToAction`, readable/content.ts `restIsShort`, readable/tickers.ts
 * `withoutTickerCopies`, readable/boilerplate.ts: `role="img"`, readable/content.ts `tabPanels`: panels
 * hidden by `aria-hidden`, readable/accordions.ts `accordionAnswers`: an accordion's panels hidden
 * the same way, readable/teasers.ts `withoutTeasers`: posts whose titles are linked paragraphs over a
 * dated byline, readable/teasers.ts `withoutLabelledTeasers`, readable/titles.ts
 * `titleWithoutSiteName`, readable/controls.ts `withoutStoryLinks`, readable/frames.ts `scrolledCopy`,
 * readable/boilerplate.ts: a card's `card-header`, readable/content.ts `heroTitleLead`: a hero's
 * title and lead named for their banner, readable/boilerplate.ts: a control back to the top named
 * `back-to-top`, readable/boilerplate.ts: legal small print named `copy-legal`, readable/content.ts
 * `smallPrintBlock`: such small print outweighing the page, readable/graphics.ts
 * `withoutDrawnGraphics`: an interface drawn in HTML in a box named as a section's graphic).
 * Over 400 lines: one small page per rule, each written out in full beside its test.
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText, withoutFrontMatter } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://firm.example/services/audit"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

const OFFERS = [
  "Payroll audit",
  "Benefits review",
  "Policy handbook",
  "Hiring support",
  "Leadership training",
  "Pay structure",
  "Compliance check",
  "Exit interviews"
]

/** An offer built as one link over the whole card (`dated`: the card carries a date, as a teaser does). */
const offerCard = (name: string, i: number, dated: boolean) =>
  `<div class="col"><a href="/services/audit/${i}"><div class="card__inner">${
    dated ? `<time datetime="2026-0${(i % 9) + 1}-01">1 month ago</time>` : ""
  }<h3>${name}</h3><p class="small">Our ${name.toLowerCase()} team works beside yours for ${i + 2} weeks ` +
  `and leaves you a plan of your own.</p></div>` +
  `<span class="more">Learn more</span></a></div>`

const servicePage = (dated: boolean) =>
  `<html><head><title>Audit services</title></head><body>
  <header class="site-header"><a href="/">The Firm</a></header>
  <div class="page">
    <section class="hero"><h1>Audit services</h1><p>Know where you stand before anyone else asks.</p></section>
    <section class="why"><div class="container"><div class="text">
    <p>Our audit services range from a one-day check of your payroll to a year of support for your own team, ` +
  `whether you are a company of five people or of five thousand, in one office or in many countries at once.</p>
    <p>Human resources departments handle many things at the same time, from hiring and training to pay, ` +
  `benefits and the rules that govern them, and each of those can go wrong in ways nobody sees for years.</p>
    </div></div></section>
    <section class="offers"><h2>What we offer</h2><div class="row">${
    OFFERS.map((name, i) => offerCard(name, i, dated)).join("")
  }</div></section>
  </div>
  <footer><p>Copyright 2026 The Firm, all rights reserved.</p></footer></body></html>`

describe("readable copy: a service page's offers built as whole links", () => {
  it("keeps cards whose link holds a heading and a line under it", () => {
    const text = copy(servicePage(false))
    expect(text).toContain("Our audit services range from a one-day check")
    expect(text).toContain("Leadership training")
    expect(text).toContain("Our payroll audit team works beside yours for 2 weeks")
  })

  it("does not read dated cards (teasers of other articles) as the page's offers", () => {
    const text = copy(servicePage(true))
    expect(text).toContain("Our audit services range from a one-day check")
    expect(text).not.toContain("Our payroll audit team works beside yours")
  })
})

const teaser = (i: number) =>
  `<article class="post-article"><a href="/insights/${i}"><h4>Insight ${i}</h4></a><p>Read more</p></article>`

const feature = (name: string, i: number) => `<div class="feature"><h3>${name}</h3><p>Done in ${i + 2} days.</p></div>`

/** A page with no `main`, whose menu shows teasers of articles: the page's content is not those. */
const menuArticlesPage = `<html><head><title>Payroll services</title></head><body>
  <div class="mega-dropdown"><div class="dropdown-insights">${
  Array.from({ length: 4 }, (_, i) => teaser(i)).join("")
}</div></div>
  <div class="page">
    <section class="hero"><h1>Payroll services</h1><p>The bill all staff read.</p></section>
    <section class="features"><h2>What we do</h2>${OFFERS.map(feature).join("")}</section>
  </div>
  <footer><p>Copyright 2026 The Firm, all rights reserved.</p></footer></body></html>`

describe("readable copy: articles that are only teasers", () => {
  it("falls back to the page's visible text, not to articles holding little of it", () => {
    const text = copy(menuArticlesPage)
    expect(text).toContain("The bill all staff read.")
    expect(text).toContain("Compliance check")
    expect(text).toContain("Done in 8 days.")
  })
})

const PLANS = ["Live TV", "Streaming", "Sports", "Movies", "Kids", "News", "Music", "Latino TV"]

/** A feature block: a heading over a line in a block whose name reads as furniture (`meta`). */
const plan = (name: string, i: number) =>
  `<div class="tile-${i}"><h3>${name}</h3><div class="block-section meta-block-section">` +
  `<p>Watch ${name.toLowerCase()} on ${i + 2} screens at home and on the train.</p></div></div>`

/**
 * A page whose `main` is the scored content (`wrapped`: its one container beside a short notice),
 * its feature blocks then dropped inside it.
 */
const tvPage = (wrapped: boolean) =>
  `<html><head><title>TV plans</title></head><body>
  <header class="site-header"><a href="/">The Network</a></header>
  <main>${wrapped ? `<div class="notice">Prices shown for your area.</div><div class="container">` : ""}
    <section class="hero"><h1>TV plans</h1><p>Every channel you follow, the games, the films and the news, ` +
  `on every screen in the house, with one remote, one bill, and no box to install, whatever the size of your ` +
  `home. Start with the channels you watch, and add the rest when you want them.</p></section>
    <section class="tiles"><h2>What you can watch</h2>${PLANS.map(plan).join("")}</section>
  ${wrapped ? "</div>" : ""}</main>
  <footer><p>Copyright 2026 The Network, all rights reserved.</p></footer></body></html>`

describe("readable copy: a page's main whose feature blocks the cleaning dropped", () => {
  it("gives way to the main's text when what it kept is a minority and headed blocks were dropped", () => {
    const text = copy(tvPage(false))
    expect(text).toContain("Every channel you follow")
    expect(text).toContain("Watch sports on 4 screens at home and on the train.")
    expect(text).not.toContain("Copyright 2026")
  })

  it("does so when the content is the main's one container, beside a short notice", () => {
    const text = copy(tvPage(true))
    expect(text).toContain("Every channel you follow")
    expect(text).toContain("Watch sports on 4 screens at home and on the train.")
  })
})

/**
 * A service page whose offers sit in an accordion: each a control that opens its panel
 * (`aria-controls`), all closed; the control a `button` that says it is collapsed, or (`plain`) a
 * link drawn as a button that does not say so.
 */
const accordionPage = (plain = false) =>
  `<html><head><title>Audit services</title></head><body>
  <main><h1>Audit services</h1>
    <div class="body">
    <p>Our audit services range from a one-day check of your payroll to a year of support for your own team, ` +
  `whether you are a company of five people or of five thousand, in one office or in many countries at once.</p>
    <p>Human resources departments handle many things at the same time, from hiring and training to pay, ` +
  `benefits and the rules that govern them, and each of those can go wrong in ways nobody sees for years.</p>
    <div class="offers"><div class="acc">${
    OFFERS.slice(0, 4).map((name, i) =>
      `<dl class="acc__item"><dt>${
        plain
          ? `<a role="button" tabindex="0" aria-controls="panel-${i}">${name}</a>`
          : `<button aria-expanded="false" aria-controls="panel-${i}">${name}</button>`
      }</dt>` +
      `<dd id="panel-${i}" hidden><p>Our ${name.toLowerCase()} team works beside yours for ${i + 2} weeks, ` +
      `reads every file with you and leaves you a plan of your own.</p></dd></dl>`
    ).join("")
  }</div></div></div>
  </main></body></html>`

describe("readable copy: an accordion whose controls name their panels", () => {
  it("shows each closed panel a control opens, though nothing shown is left around them", () => {
    const text = copy(accordionPage())
    expect(text).toContain("Human resources departments handle many things")
    OFFERS.slice(0, 4).forEach((name, i) =>
      expect(text).toContain(`Our ${name.toLowerCase()} team works beside yours for ${i + 2} weeks`)
    )
  })

  it("does so for a link drawn as a button (`role=button`) that does not say whether it is expanded", () => {
    const text = copy(accordionPage(true))
    OFFERS.slice(0, 4).forEach((name, i) =>
      expect(text).toContain(`Our ${name.toLowerCase()} team works beside yours for ${i + 2} weeks`)
    )
  })
})

/** A service page built with a site builder: a contact form with its messages for after it is sent, hidden by the style sheet. */
const contact = () =>
  `<html><head><title>Audit services</title></head><body><main>
  <h1>Audit services</h1>
  <p>Our auditors read your books with you, line by line, and leave a plan your team can follow for a year.</p>
  <p>Every audit ends with a meeting where we walk through what we found and what to change first.</p>
  <div class="w-form"><form id="contact"><input type="email" name="email"><input type="submit" value="Send"></form>
  <div class="w-form-done"><div>Thank you! Your submission has been received!</div></div>
  <div class="w-form-fail"><div>Oops! Something went wrong while submitting the form.</div></div></div>
  </main></body></html>`

describe("readable copy: a form's messages for after it is sent", () => {
  it("leaves out the success and failure notes a site builder writes beside its form", () => {
    const text = copy(contact())
    expect(text).toContain("Every audit ends with a meeting")
    expect(text).not.toContain("Your submission has been received")
    expect(text).not.toContain("Something went wrong while submitting")
  })
})

const CAPABILITIES = ["cloud platforms", "data engineering", "advanced analytics"]

/** A section built as a banner: named as a call to action, a heading, two paragraphs, a button. */
const bannerSection = (name: string) =>
  `<div class="cta cmp-cta"><div class="cmp-cta__text"><h3>${name}</h3>
  <p>Our ${name} practice helps companies move reports and ledgers off the servers they keep to ` +
  `platforms that need no patching, without the cost of building a team of their own and without ` +
  `waiting a year before the first results can be seen.</p>
  <p>Each engagement starts with two weeks of interviews and ends with a plan your own staff can carry ` +
  `on, written down step by step so that nothing depends on us once we have left.</p></div>
  <div class="cmp-cta__button"><a href="/contact">Talk to us</a></div></div>`

const capabilitiesPage = (sections: number) =>
  `<html><head><title>Data capabilities</title></head><body>
  <header class="site-header"><a href="/">The Firm</a></header>
  <main><h1>Data and analytics</h1>
  ${
    [1, 2, 3, 4, 5, 6].map((i) =>
      `<p>Paragraph ${i}: turn the data your company already holds into decisions, since our consultants ` +
      `have built data platforms for banks, retailers and hospitals, and know where such projects go wrong.</p>`
    ).join("")
  }
  ${CAPABILITIES.slice(0, sections).map(bannerSection).join("\n")}
  <div class="cta-banner"><h2>Ready to start?</h2><p>Contact our team today.</p>
  <a href="/contact">Contact us</a></div>
  </main>
  <footer><p>Copyright 2026 The Firm, all rights reserved.</p></footer></body></html>`

describe("readable copy: a page's sections built as banners named as calls to action", () => {
  it("keeps them when the page has several, each a heading over paragraphs", () => {
    const text = copy(capabilitiesPage(3))
    expect(text).toContain("Paragraph 6: turn the data")
    expect(text).toContain("Our data engineering practice helps companies")
    expect(text).toContain("Our advanced analytics practice helps companies")
    expect(text).not.toContain("Contact our team today")
  })

  it("leaves out one such box alone, as a closing strip", () => {
    const text = copy(capabilitiesPage(1))
    expect(text).toContain("Paragraph 6: turn the data")
    expect(text).not.toContain("Our cloud platforms practice helps companies")
  })
})

/**
 * A section built as a banner the way a site builder nests it: the box named as a call to action
 * and a banner (a negative name, with no paragraph of its own to score it),
 * then wrappers for its grid, its column and its rich text, the paragraphs at the bottom.
 */
const nestedBannerSection = (name: string) =>
  `<div class="cta cta-v4 cmp-cta cmp-cta__banner"><div class="cmp-cta__content grid"><div class="grid__column">
  <div class="cmp-cta__container"><div class="cmp-cta__container-text"><div class="title"><h3>${name}</h3></div>
  <div class="element"><div class="text-v2"><div class="cmp-text">
  <p>Companies are moving their ${name} to platforms that need no installing, patching or backing up, ` +
  `with little to pay up front and the newest features as soon as they ship, and with the freedom to ` +
  `run two versions of the same software side by side while a team moves over, a month or a year, ` +
  `as long as the move takes. Benefits include:</p>
  <p>Breaking free from servers.</p><p>Planning ahead for recovery.</p>
  </div></div></div></div></div></div></div>
  <div class="cmp-cta__button-container"><a href="/contact">Talk to us</a></div></div>`

const nestedBannersPage = `<html><head><title>Data platform</title></head><body>
  <header class="site-header"><a href="/">The Firm</a></header>
  <main><h1>Data and analytics platform</h1>
  ${
  [1, 2, 3].map((i) =>
    `<div class="text-v2"><div class="cmp-text"><h3>Part ${i}</h3><p>Paragraph ${i}: turn the data your ` +
    `company already holds into decisions, since our consultants have built data platforms for banks, ` +
    `retailers and hospitals, and know where such projects go wrong and how to set them right.</p>` +
    `<p>They design and build systems for collecting, transforming and storing data, so that every ` +
    `team reads the same figures, on the same day, from the same place, without asking anyone.</p></div></div>`
  ).join("")
}
  ${["reports and ledgers", "security reviews"].map(nestedBannerSection).join("\n")}
  </main>
  <footer><p>Copyright 2026 The Firm, all rights reserved.</p></footer></body></html>`

describe("readable copy: sections built as banners nested in a site builder's wrappers", () => {
  it("keeps each such section inside the content, its few paragraphs with it", () => {
    const text = copy(nestedBannersPage)
    expect(text).toContain("Paragraph 3: turn the data")
    expect(text).toContain("Companies are moving their reports and ledgers to platforms")
    expect(text).toContain("Breaking free from servers.")
    expect(text).toContain("Companies are moving their security reviews to platforms")
    expect(text).not.toContain("Talk to us")
  })
})

/** A service page closing with strips of the firm's other pages and posts, named by a heading or by a styled label. */
const relatedStripsPage = `<html><head><title>Analytics services</title></head><body>
  <header class="site-header"><a href="/">The Agency</a></header>
  <main><h1>Analytics services</h1>
  <p>We set up the analytics your marketing team reads every morning: which campaigns bring customers, ` +
  `which pages lose them, and what each visit is worth to the business over a whole year.</p>
  <p>Our specialists audit what you track today, fix what is counted twice or not at all, and build ` +
  `dashboards your managers can read without asking an analyst what a figure means.</p>
  <h2>How we work</h2>
  <p>Every engagement starts with a week of interviews, then a written plan, then the work itself, ` +
  `reported each Friday in plain words with the figures that changed and why they changed.</p>
  <section class="band"><h2>Related services</h2><div class="cards">
  <div class="card"><h3>Search engine optimization</h3><p>We grow your visibility by understanding ` +
  `what your customers search for, and by writing the pages that answer them best.</p>` +
  `<a href="/services/seo">Learn more</a></div>
  <div class="card"><h3>Conversion rate optimization</h3><p>We put your visitors first, testing ` +
  `each form and page, to get more from the traffic you already have.</p>` +
  `<a href="/services/cro">Learn more</a></div>
  </div></section>
  <div class="band"><div class="inner"><span class="caps">Related content</span>
  <div class="cards"><div class="card"><h3>How gas stations measure what ads bring in</h3>` +
  `<p>A chain of stations counted its visits before and after a season of ads, and compared the ` +
  `towns that saw them with the towns that did not.</p><a href="/blog/gas-stations">Read more</a></div></div></div></div>
  <section class="band"><h2>Latest insights</h2><div class="cards">
  <div class="card"><h3>Five dashboards every retailer should read</h3><p>What a store chain's managers ` +
  `looked at each morning, and which of the figures they stopped reading after a month.</p>` +
  `<a href="/blog/dashboards">Read more</a></div></div></section>
  </main>
  <footer><p>Copyright 2026 The Agency, all rights reserved.</p></footer></body></html>`

describe("readable copy: a strip of the site's related pages under a service page", () => {
  it("leaves out the strip its heading or label names as related services or content", () => {
    const text = copy(relatedStripsPage)
    expect(text).toContain("We set up the analytics your marketing team reads")
    expect(text).toContain("reported each Friday in plain words")
    expect(text).not.toContain("Related services")
    expect(text).not.toContain("We grow your visibility")
    expect(text).not.toContain("Related content")
    expect(text).not.toContain("A chain of stations counted its visits")
  })

  it("leaves out a strip its heading names as the site's latest posts", () => {
    const text = copy(relatedStripsPage)
    expect(text).toContain("reported each Friday in plain words")
    expect(text).not.toContain("Latest insights")
    expect(text).not.toContain("What a store chain's managers looked at")
  })
})

const CLASSES = [
  "Wheel throwing",
  "Hand building",
  "Glaze basics",
  "Raku firing",
  "Kids clay club",
  "Open studio",
  "Slab plates",
  "Coil pots",
  "Tile making",
  "Family hour",
  "Teapots",
  "Surface design"
]
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

/**
 * A studio's home page: a welcome of two paragraphs (the page's prose) beside its classes, prices
 * and visiting details, written as short lines in styled boxes (no headings, no links); `rows`:
 * the classes written as rows of one shape instead (a timetable), a list beside the welcome.
 */
const studioPage = (rows = false) =>
  `<html><head><title>Clay studio</title></head><body>
  <header class="site-header"><a href="/">The Clay Studio</a></header>
  <div class="page">
    <section class="welcome"><h1>Welcome to the studio</h1><div class="welcome__text">
    <p>For more than twenty years our studio has taught beginners and potters alike, in small groups ` +
  `around the wheel, with clay, glazes and firing all included in the price of each class.</p>
    <p>Come for one evening to try your hand, or stay for a season and leave with a set of bowls, ` +
  `cups and plates that you made yourself, fired in our own kiln behind the house.</p></div></section>
    <section class="week">${
    rows
      ? CLASSES.map((name, i) =>
        `<div class="slot"><div>${DAYS[i % 6]} at ${(i % 6) + 9}:00</div><div>${name}</div>` +
        `<div>${i + 4} seats left</div></div>`
      ).join("")
      : `<dl class="week__days">${
        CLASSES.map((name, i) => `<dt>${DAYS[i % 6]} at ${(i % 6) + 9}:00</dt><dd>${name}</dd>`).join("")
      }</dl><div class="week__seats">Seats left this week: ${CLASSES.length * 4}</div>`
  }</section>
    <section class="prices"><div>One evening: $45</div><div>A season: $380</div><div>Gift cards: any amount</div>
    <div>Clay: $20 a bag</div><div>Firing: included</div></section>
    <section class="visit"><div>Open daily</div><div>10 am to 6 pm</div><div>Closed on holidays</div>
    <div>12 Mill Road, Barn 3</div><div>Lahaska, PA 18931</div><div>215-555-0142</div></section>
  </div>
  <footer><p>Copyright 2026 The Clay Studio, all rights reserved.</p></footer></body></html>`

describe("readable copy: a page whose prose scores beside short lines in boxes", () => {
  it("gives way to the visible text when the choice holds the prose but not most of what is read", () => {
    const text = copy(studioPage())
    expect(text).toContain("For more than twenty years our studio has taught beginners")
    expect(text).toContain("Raku firing")
    expect(text).toContain("A season: $380")
    expect(text).toContain("12 Mill Road, Barn 3")
    expect(text).not.toContain("Copyright 2026")
  })

  it("keeps the welcome alone when what it leaves out is rows of one shape (a list beside an article)", () => {
    const text = copy(studioPage(true))
    expect(text).toContain("For more than twenty years our studio has taught beginners")
    expect(text).not.toContain("Raku firing")
  })
})

/** A packaging studio's page whose closing strip scrolls "Book a call" as a marquee (the phrase written again and again). */
const tickerPage = () =>
  `<html><head><title>Label design</title></head><body>
  <main><h1>Label design for small brands</h1>
  <p>We design labels that read well on a crowded shelf: type, colour and the legal text in their ` +
  `places, ready for your printer, with two rounds of changes included in every project.</p>
  <p>Send us your product and the story behind it; within three weeks you receive print-ready ` +
  `files and a mock-up of each bottle, jar or box in your range.</p>
  <div class="strip"><div class="strip__track">${"<span>Book a call <b>*</b></span>".repeat(12)}</div></div>
  <table><tr><th>Plan</th><th>Basic</th><th>Plus</th><th>Studio</th></tr>
  <tr><td>Print-ready files</td><td>Included</td><td>Included</td><td>Included</td></tr></table>
  </main></body></html>`

describe("readable copy: a ticker's phrase written for its loop", () => {
  it("keeps the phrase once, and a table's equal cells", () => {
    const text = copy(tickerPage())
    expect(text.match(/Book a call/g)?.length).toBe(1)
    expect(text).toContain("We design labels that read well")
    expect(text.match(/Included/g)?.length).toBe(3)
  })

  it("keeps a sentence's repeated words as written", () => {
    const text = copy(
      tickerPage().replace(
        "<table>",
        "<p>The crew shouted <em>again</em> <em>again</em> <em>again</em> until the last jar was packed.</p><table>"
      )
    )
    expect(text.match(/Book a call/g)?.length).toBe(1)
    expect(text).toContain("The crew shouted again again again until the last jar was packed.")
  })
})

const REVIEWS = [
  [
    "Dana Ruiz",
    "office manager",
    "They moved our whole office over one weekend and every desk was ready on Monday morning."
  ],
  [
    "Omar Haddad",
    "clinic owner",
    "Careful with the equipment, on time, and the price they quoted was the price we paid."
  ],
  [
    "Lena Park",
    "studio director",
    "The crew packed two hundred framed prints without a single scratch and hung them again."
  ]
]

/** A movers' page whose testimonials show each client's picture as an initial in a box that says it is an image. */
const initialsPage = () =>
  `<html><head><title>Office moves</title></head><body><main>
  <h1>Office moves without the downtime</h1>
  <p>We move offices, clinics and studios after hours and over weekends, so that your team leaves on ` +
  `Friday and starts again on Monday at new desks, with the network running.</p>
  <h2>What our clients say</h2><div class="reviews">${
    REVIEWS.map(([name, role, text]) =>
      `<div class="review"><div class="review__who"><span class="avatar" role="img" aria-label="${name}">${
        name!.slice(0, 1)
      }</span> <strong>${name}</strong>, ${role}</div><p>${text}</p></div>`
    ).join("")
  }</div></main></body></html>`

describe("readable copy: an element that says it is an image", () => {
  it("leaves out the initial drawn as a client's picture, keeps the name and the words", () => {
    const text = copy(initialsPage())
    expect(text).toContain("Omar Haddad, clinic owner")
    expect(text).not.toContain("O Omar Haddad")
    expect(text).toContain("the price they quoted was the price we paid")
  })
})

const USES = [
  ["Alerts", "Send a text the moment an order ships, a payment fails or a parcel waits at the door."],
  ["Reminders", "Cut missed visits with a message the day before, and let customers reply to move the time."],
  ["Codes", "Send a one-time code at sign-in, checked in seconds, with a voice call when the text is late."]
]

/** A service page whose use cases sit in tab panels, all but the first hidden from screen readers until picked. */
const tabsPage = (product: boolean) =>
  `<html><head><title>Messaging</title>${
    product
      ? `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Messaging"}</script>`
      : ""
  }</head><body><main>
  <h1>Messages your customers read</h1>
  <p>Reach people where they already are, with texts and chat messages sent from one programmable service that ` +
  `grows with you, from the first thousand messages to the first billion.</p>
  <h2>What teams build with it</h2>
  <div class="tabs"><div role="tablist">${
    USES.map(([name], i) =>
      `<button role="tab" id="tab-${i}" aria-controls="panel-${i}"${
        i === 0 ? ` aria-selected="true"` : ""
      }>${name}</button>`
    ).join("")
  }</div>${
    USES.map(([name, text], i) =>
      `<div id="panel-${i}" class="tabs-slide" role="tabpanel" aria-labelledby="tab-${i}"${
        i === 0 ? "" : ` aria-hidden="true"`
      }><h3>${name}</h3><p>${text}</p></div>`
    ).join("")
  }</div></main></body></html>`

describe("readable copy: tab panels hidden from screen readers until their tab is picked", () => {
  it("shows every panel of a service page's tabs", () => {
    const text = copy(tabsPage(false))
    expect(text).toContain("Send a text the moment an order ships")
    expect(text).toContain("let customers reply to move the time")
    expect(text).toContain("with a voice call when the text is late")
  })

  it("leaves them hidden on a page that says it shows one product", () => {
    const text = copy(tabsPage(true))
    expect(text).toContain("Send a text the moment an order ships")
    expect(text).not.toContain("let customers reply to move the time")
  })
})

const STEPS = [
  [
    "Route each request",
    "Questions reach the right person by topic, language and load, with no one sorting the queue."
  ],
  [
    "Answer the common ones",
    "A bot answers the questions asked every day and hands the rest over with the whole history."
  ],
  ["Measure what matters", "Dashboards show waiting times and the share of questions settled at the first reply."]
]

/** A service page whose accordion hides each closed panel from screen readers only, beside a share button's menu. */
const unreadPanelsPage = () =>
  `<html><head><title>Support desk</title></head><body><main>
  <h1>A support desk that keeps up</h1>
  <p>Give every customer a quick and personal answer, on any channel, from a team that sees the whole ` +
  `conversation and never asks for the order number twice.</p>
  <div class="share"><button aria-controls="share-list" aria-expanded="false">Share</button>
  <div id="share-list" aria-hidden="true"><ul><li><a href="https://social.example/share">Post it</a></li></ul></div></div>
  <h2>How it works</h2><div class="accordion">${
    STEPS.map(([question, answer], i) =>
      `<div class="accordion__item"><div role="heading" aria-level="3"><button id="q-${i}" aria-controls="a-${i}" ` +
      `aria-expanded="false"><h3>${question}</h3></button></div><section id="a-${i}" aria-hidden="true" ` +
      `aria-labelledby="q-${i}"><p>${answer}</p></section></div>`
    ).join("")
  }</div></main></body></html>`

describe("readable copy: an accordion's closed panels hidden from screen readers only", () => {
  it("shows each panel a control opens, not a share button's menu", () => {
    const text = copy(unreadPanelsPage())
    expect(text).toContain("with no one sorting the queue")
    expect(text).toContain("hands the rest over with the whole history")
    expect(text).toContain("settled at the first reply")
    expect(text).not.toContain("Post it")
  })
})

/** A section of a firm's page: a heading over paragraphs. */
const module_ = (heading: string, paragraphs: ReadonlyArray<string>) =>
  `<section class="module"><h2>${heading}</h2>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</section>`

const POSTS = [
  ["Three things to weigh before your benefit plan's audit", "Ann Lee", "August 7, 2025"],
  ["The salary threshold change, struck down", "Bo Diaz", "November 25, 2024"],
  ["What happens during a plan audit", "Cy Park", "May 20, 2024"]
]

/** A dated service page with a strip of posts, each a title paragraph that is all one link over a byline with a date. */
const postsStripPage = () =>
  `<html><head><title>HR consulting</title>
  <meta property="article:published_time" content="2017-09-07T03:33:16+00:00"></head><body>
  <header><nav><a href="/">Home</a> <a href="/services">Services</a></nav></header>
  <div class="page"><section class="module"><h1>HR consulting</h1>
  <p>Whether you need help with a single hire or a whole department, our consultants work beside your own ` +
  `people, learn how your business runs and leave you with policies, pay structures and training that fit it.</p>
  <p>We start with a conversation about what keeps you up at night, then assess your team, your handbook and ` +
  `your processes, and agree with you on a plan with dates, owners and a budget that you can hold us to.</p>
  </section>${
    module_("How we work", [
      "Every engagement starts with a short assessment of your people, your policies and your numbers, written " +
      "up in plain words, and ends with a plan you own and can carry out without us if you choose to.",
      "Between those two points we do as much or as little as you ask: some clients want a second pair of eyes " +
      "once a quarter, others want a full team on site for a year of change."
    ])
  }<section class="module"><div class="row"><h2>Insights</h2>${
    POSTS.map(([title, author, date], i) =>
      `<div class="col"><article class="post"><p><a href="/insights/post-${i}"><span>${title}</span></a></p>` +
      `<p class="meta">Written by <a href="/people/${i}">${author}</a> on ${date}</p></article></div>`
    ).join("")
  }</div></section>${
    module_("What it costs", [
      "A first assessment is a fixed fee agreed before we start; after it you pay by the month for the hours " +
      "you use, with a cap you set, and nothing at all in the months you do not need us."
    ])
  }</div><footer><p>Copyright 2026 The Firm</p></footer></body></html>`

describe("readable copy: a strip of posts whose titles are linked paragraphs over a dated byline", () => {
  it("leaves the posts out beside the page's own text", () => {
    const text = copy(postsStripPage())
    expect(text).toContain("leave you with policies, pay structures and training")
    expect(text).toContain("nothing at all in the months you do not need us")
    expect(text).not.toContain("struck down")
    expect(text).not.toContain("Written by")
  })
})

const RESOURCES = [
  ["Whitepaper", "Doing more with less in application security", "Get the whitepaper"],
  ["Case study", "How a retailer blocked a billion bad requests", "Read the story"],
  ["Blog", "Ten rules every firewall should start with", "Read the post"]
]

/** A strip of cards, each labelled with the kind of publication it links to. */
const resourceCards = () =>
  `<section class="module"><h2>Resources</h2><div class="grid">${
    RESOURCES.map(([kind, title, cta], i) =>
      `<div class="card"><img src="/thumb-${i}.png" alt=""><div class="card__title"><p class="eyebrow">${kind}</p>` +
      `<h6>${title}</h6></div><a href="/resources/${i}">${cta}</a></div>`
    ).join("")
  }</div></section>`

/** A service page with such a strip among its sections, or (`hub`) a page of the cards alone. */
const resourcesPage = (hub: boolean) =>
  `<html><head><title>Firewall</title></head><body>
  <header><nav><a href="/">Home</a> <a href="/products">Products</a></nav></header>
  <div class="page"><section class="module"><h1>A firewall for your applications</h1>${
    hub ? "" : `<p>Stop attacks before they reach your servers: the firewall reads every request at the edge of ` +
      `our network, close to your visitors, and blocks the ones that match a rule, whether you wrote it or we did.</p>
  <p>Rules for the common attacks are on from the first day and updated as new ones appear; your own rules take ` +
      `effect worldwide in seconds, and each blocked request is logged with the rule that stopped it.</p>`
  }</section>${
    hub ? resourceCards() : module_("Plans", [
      "Plans start with a free tier for personal sites and grow to contracts with a guaranteed response time, " +
      "a named engineer and reports written for your auditors at the end of every quarter of the year.",
      "Every plan includes the managed rules, the logs of the last three days and an interface in which you can " +
      "write, test and roll back your own rules without waiting for anyone."
    ]) + resourceCards() + module_("Support", [
      "Our engineers answer tickets around the clock, and on the larger plans a named engineer joins your calls, " +
      "reviews your rules every month and tells you what changed in the attacks your sites see."
    ])
  }</div><footer><p>Copyright 2026 The Firm</p></footer></body></html>`

describe("readable copy: cards labelled with the kind of publication they link to", () => {
  it("leaves out a service page's strip of resources", () => {
    const text = copy(resourcesPage(false))
    expect(text).toContain("blocks the ones that match a rule")
    expect(text).toContain("tells you what changed in the attacks")
    expect(text).not.toContain("blocked a billion bad requests")
    expect(text).not.toContain("Ten rules every firewall")
  })

  it("keeps them on a page made of them", () => {
    const text = copy(resourcesPage(true))
    expect(text).toContain("blocked a billion bad requests")
    expect(text).toContain("Ten rules every firewall")
  })
})

/** A page whose body opens with no heading of its own; `named`: its text says the site's name. */
const untitledPage = (named: boolean) =>
  `<html><head><title>Payroll audit | Firm Partners</title></head><body><main>
  <p>We check every payslip of the last year against your contracts and the law, and list what to put ` +
  `right, in the order that costs you least, before anyone else finds it.</p>
  <p>${
    named ? "Firm Partners has" : "Our auditors have"
  } done this for employers of every size, and the report we leave is yours to keep and act on.</p>
  </main></body></html>`

describe("readable copy: the site's name in the title written as the copy's heading", () => {
  it("leaves the name out of the heading", () => {
    const md = withoutFrontMatter(htmlToMarkdown(untitledPage(false), URL_)).trimStart()
    expect(md.startsWith("# Payroll audit\n")).toBe(true)
    expect(readerText(md)).not.toContain("Partners")
  })

  it("keeps the title whole where the page's text names the site", () => {
    const md = withoutFrontMatter(htmlToMarkdown(untitledPage(true), URL_)).trimStart()
    expect(md.startsWith("# Payroll audit | Firm Partners\n")).toBe(true)
  })
})

const CLIENTS = [
  ["A regional bank", "Their payroll audit found a year of overtime paid at the wrong rate, put right in a month."],
  ["A hospital group", "Four sites moved to one pay structure without a single grievance from the staff."],
  ["A software maker", "The handbook we wrote with them cut the questions to their people team by half."]
]

/** A service page closing with customers' quotes, each card with a link to its story (`cards` of them). */
const storiesPage = (cards: number) =>
  `<html><head><title>Audit services</title></head><body><main><h1>Audit services</h1>
  <p>We check every payslip of the last year against your contracts and the law, and list what to put ` +
  `right, in the order that costs you least, before anyone else finds it.</p>
  <p>Our auditors have done this for employers of every size, and the report we leave is yours to keep.</p>
  <h2>What our clients say</h2><div class="grid">${
    CLIENTS.slice(0, cards).map(([who, quote], i) =>
      `<div class="card"><p>${quote}</p><p class="who">${who}</p>` +
      `<a href="/stories/${i}">Read case study</a></div>`
    ).join("")
  }</div></main></body></html>`

describe("readable copy: links to customers' stories repeated under each card", () => {
  it("leaves the repeated links out and keeps the quotes", () => {
    const text = copy(storiesPage(3))
    expect(text).toContain("wrong rate, put right in a month")
    expect(text).toContain("cut the questions to their people team")
    expect(text).not.toContain("Read case study")
  })

  it("keeps such links under two cards", () => {
    expect(copy(storiesPage(2))).toContain("Read case study")
  })
})

/**
 * A service page whose plans are drawn as the page scrolls: a picture pinned while the copy scrolls
 * past it, the box named for it (`scroller`, `scrolling-copy`: Readability's negative `scroll`).
 * `names` gives the copy's box its class.
 */
const scrolledPage = (names: string, product = false) =>
  `<html><head><title>Pet cover</title>${
    product ? `<meta property="og:type" content="product">` : ""
  }</head><body><main><h1>Pet cover</h1>
  <div class="intro"><h2>Vet bills, made smaller</h2><p>Care for a sick or hurt pet should not wait for payday, ` +
  `and with our cover it does not have to: we pay back most of each eligible bill, whichever vet you use.</p></div>
  <div class="scroller"><div class="static-copy"><h2>What is covered?</h2><p>Each plan covers a different part ` +
  `of your pet's care; read on to see which one suits yours.</p></div>
  <div class="${names}"><div class="inner"><h3>Accidents and illnesses</h3><p>Our widest plan pays for ` +
  `emergency care, tests and visits to a specialist, whatever the cause.</p><ul><li>Emergency care</li>` +
  `<li>Diagnostic tests</li><li>Specialist visits</li></ul><h3>Routine care</h3><p>A yearly plan for ` +
  `checkups, vaccinations and cleaning the teeth, with no deductible.</p></div></div></div>
  <div class="content"><h2>Why choose us?</h2><p>One deductible a year, claims paid within days, and plans that ` +
  `fit a budget of any size, for dogs and cats alike, young or old.</p></div>
  </main></body></html>`

describe("readable copy: a section's copy scrolled past a pinned picture", () => {
  it("keeps headed copy in a box named for scrolling", () => {
    const text = copy(scrolledPage("grid scrolling-copy"))
    expect(text).toContain("Our widest plan pays for emergency care")
    expect(text).toContain("Routine care")
    expect(text).toContain("One deductible a year")
  })

  it("still leaves out a row that scrolls sideways", () => {
    expect(copy(scrolledPage("flex overflow-x-auto scroll-row"))).not.toContain("Our widest plan pays")
  })

  it("still leaves out such a box on a page that shows a product", () => {
    expect(copy(scrolledPage("grid scrolling-copy", true))).not.toContain("Our widest plan pays")
  })
})

const CARD_PLANS = [
  ["Starter", "Essential review", "A written review of your payroll that shows you where it stands."],
  ["Premium", "Full audit", "Everything in the review, plus a year of checks on every payslip."],
  ["Ultimate", "Audit and training", "The full audit, with a course for your own team to keep it right."]
]

/** A service page's plans as a framework's cards: each card's title and line in its `card-header`. */
const plansPage = `<html><head><title>Audit plans</title></head><body><main><h1>Audit plans</h1>
  <p>Pick the plan that suits your company; each is carried out by auditors who know your sector, ` +
  `and each leaves you a report that is yours to keep, whatever you decide after it.</p>
  <h2>Our plans</h2><div class="row">${
    CARD_PLANS.map(([tier, name, line], i) =>
      `<div class="col"><div class="card"><div class="card-header"><h5>${tier}</h5><h3 class="card-title">${name}</h3>` +
      `<p class="card-text">${line}</p></div><div class="card-body"><ul><li>Written by a senior auditor ` +
      `within ${i + 2} weeks.</li><li>A call to go through the findings.</li></ul><div class="price">$${
        (i + 1) * 100
      }</div></div></div></div>`
    ).join("")
  }</div></main></body></html>`

describe("readable copy: a card's header", () => {
  it("keeps each plan's title and line written in its card's header", () => {
    const text = copy(plansPage)
    expect(text).toContain("Full audit")
    expect(text).toContain("plus a year of checks on every payslip")
    expect(text).toContain("Written by a senior auditor within 3 weeks")
  })
})

/** A service page whose hero names its title and lead for the banner they sit in (`banner`, a weak furniture name). */
const bannerHeroPage = `<html><head><title>Audits | Firm</title></head><body>
  <header><nav><a href="/">Home</a><a href="/services">Services</a><a href="/contact">Contact</a></nav></header>
  <section class="hero"><div class="hero__content"><h1 class="hero-banner__heading">Payroll audits for growing firms</h1>
  <div class="hero-banner__text">If your payroll has grown faster than the team that runs it, our auditors check every ` +
  `run against the law and your contracts, and show you what to fix first.</div>
  <div class="hero-banner__price">From $49/mo</div><a class="button" href="/start">Get started</a></div></section>
  <div class="content"><h2>What the audit covers</h2>
  <p>We read a year of payslips, contracts and filings, and compare each run with what the law and ` +
  `your own agreements require, line by line, so that nothing you pay or withhold goes unchecked.</p>
  <h2>What you get at the end</h2>
  <p>A written report in plain words, a list of fixes ranked by what they cost you, and a call with ` +
  `the auditor who wrote it to go through each finding and answer your team's questions.</p>
  <h2>How long it takes</h2>
  <p>Most audits take two to four weeks from the day we receive your files, and we tell you on the ` +
  `first day how long yours will take and who will carry it out from start to finish.</p></div>
  <footer><p>© Firm</p></footer></body></html>`

describe("readable copy: a hero's title and lead named for their banner", () => {
  it("keeps the page's title and the lead under it", () => {
    const text = copy(bannerHeroPage)
    expect(text).toContain("Payroll audits for growing firms")
    expect(text).toContain("our auditors check every run against the law")
    expect(text).toContain("What the audit covers")
    expect(text).not.toContain("From $49/mo")
  })
})

/** A service page built of sections straight in its body, its control back to the top after its footer. */
const AUDIT_PARTS = ["payslips and contracts", "filings and returns", "benefits and pensions"]
const backToTopPage = `<html><head><title>Audits | Firm</title></head><body>
  <header class="header"><nav><a href="/">Home</a><a href="/contact">Contact</a></nav></header>${
  AUDIT_PARTS.map((part) =>
    `<section class="module"><div class="container"><h2>Audit of ${part}</h2><p>We read a year of ${part}, ` +
    `and compare each run with what the law and your own agreements require, line by line, so that ` +
    `nothing goes unchecked.</p></div></section>`
  ).join("")
}<footer class="footer"><p>© Firm</p></footer>
  <div class="back-to-top"><svg viewBox="0 0 20 20"><path d="M0 0h20"/></svg><span>Top</span></div></body></html>`

describe("readable copy: a control back to the top of the page", () => {
  it("leaves out the control's label", () => {
    const text = copy(backToTopPage)
    expect(text).toContain("Audit of benefits and pensions")
    expect(text.trim().endsWith("nothing goes unchecked.")).toBe(true)
  })
})

/** A service page whose sections end in a block of legal small print named as such. */
const legalPrintPage =
  `<html><head><title>Payroll | Firm</title></head><body><main>${
    AUDIT_PARTS.map((part) =>
      `<section class="module"><div class="container"><h2>Payroll for ${part}</h2><p>We run a month of ${part} ` +
      `with your team, check each line against your agreements and the law, and send you the figures ` +
      `before the day they are due.</p></div></section>`
    ).join("")
  }<div class="module"><div class="copy-legal"><p><strong>*Terms</strong></p><ol>
  <li><strong>Free month:</strong> Offered to firms that sign a yearly plan before its end; one offer per firm, ` +
  `not combined with any other, and withdrawn at any time without notice to anyone.</li>
  <li><strong>Savings:</strong> Based on what firms of fewer than fifty people paid their former providers, ` +
  `as they reported it in a survey of the past year.</li></ol></div></div></main>
  <footer class="footer"><p>© Firm</p></footer></body></html>`

describe("readable copy: legal small print", () => {
  it("leaves out a block named as legal small print", () => {
    const text = copy(legalPrintPage)
    expect(text).toContain("Payroll for benefits and pensions")
    expect(text).not.toContain("Free month")
    expect(text).not.toContain("former providers")
  })
})

/** Legal small print, without a heading, longer than 40% of a page whose own sections are short. */
const PAY_PARTS = [
  "leave and absence",
  "bonuses and commissions",
  "expenses and allowances",
  "shifts and overtime",
  "new starters",
  "leavers and final pay",
  "pension auto-enrolment",
  "sick pay",
  "parental pay"
]
const TERMS = ["Free month", "Savings", "Reports", "Support", "Renewal", "Refunds", "Transfers"]
const longSmallPrintPage = `<html><head><title>Payroll | Firm</title></head><body><main>${
  [...AUDIT_PARTS, ...PAY_PARTS].map((part) =>
    `<section class="module"><div class="container"><h2>Payroll for ${part}</h2><p>We run a month of ${part} ` +
    `with your team, check each line against your agreements and the law, and send you the figures ` +
    `before the day they are due.</p></div></section>`
  ).join("")
}<div class="module"><div class="copy-legal"><p><strong>*Terms</strong></p><ol>${
  TERMS.map((term) =>
    `<li><strong>${term}:</strong> Offered to firms that sign a yearly plan before its end; one offer per firm, ` +
    `not combined with any other, withdrawn at any time, and based on what firms of fewer than fifty people ` +
    `paid their former providers, as they reported it in a survey of the past year.</li>`
  ).join("")
}</ol></div></div></main>
  <footer class="footer"><p>© Firm</p></footer></body></html>`

describe("readable copy: legal small print outweighing the page", () => {
  it("leaves out a long block of small print without a heading", () => {
    const text = copy(longSmallPrintPage)
    expect(text).toContain("Payroll for expenses and allowances")
    expect(text).not.toContain("Renewal")
    expect(text).not.toContain("former providers")
  })
})

/** Sections that show the product's interface drawn in HTML, in boxes named as the section's graphic. */
const DRAWN_SECTIONS = ["Plan the work", "Track the issues", "Ship the release"]
const drawnGraphicsPage = `<html><head><title>Tracker | Firm</title></head><body><main>
  <section class="hero-graphic"><h1>The tracker for teams that ship</h1>
  <p>Plan, track and ship your product with one tool your whole team reads every day.</p></section>${
  DRAWN_SECTIONS.map((name, i) =>
    `<section class="PageSection_root"><h2>${name}</h2><p>Every team sees the same board, the same ` +
    `issues and the same dates, so nobody asks where a piece of work stands or who holds it now.</p>` +
    `<div class="PageSection_illustration__x${i}"><div class="row"><span>ENG-20${i}5</span>` +
    `<span>Reduce flicker on start</span><span>Backlog</span></div><div class="row"><span>ENG-21${i}0</span>` +
    `<span>Buffer event streams</span><span>In progress</span></div></div></section>`
  ).join("")
}</main><footer class="footer"><p>© Firm</p></footer></body></html>`

describe("readable copy: the interface drawn in HTML as a section's graphic", () => {
  it("leaves out a box named as a graphic or an illustration that holds no heading", () => {
    const text = copy(drawnGraphicsPage)
    expect(text).toContain("Track the issues")
    expect(text).toContain("who holds it now")
    expect(text).not.toContain("ENG-2")
    expect(text).not.toContain("Buffer event streams")
  })
  it("keeps a hero named so, which holds the page's title", () => {
    const text = copy(drawnGraphicsPage)
    expect(text).toContain("The tracker for teams that ship")
    expect(text).toContain("one tool your whole team reads")
  })
})
