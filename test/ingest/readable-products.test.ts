/**
 * Product pages and product grids: small pages written here (no copy of any real page), each
 * failing without the rule it tests (readable/content.ts `productNames`, readable/meta.ts
 * `productPage`, readable/facts.ts `factRow` and `factPart`, readable/reviews.ts `ratedReviews`,
 * readable/pictures.ts `withoutGalleryCounters`, readable/controls.ts `withoutActionLinks`,
 * readable/ratings.ts `withoutRatingSummaries`, readable/prices.ts `withoutHiddenPriceStates`,
 * readable/summaries.ts `withoutReviewSummaries`, readable/fillers.ts `withoutLoadingNotes` in a box
 * marked as loading, readable/content.ts a group of products' grid, readable/grids.ts
 * `promotedGrid`, readable/repeats.ts `withoutRepeats` a section's title written again over nothing,
 * readable/content.ts `titledBlock` a card named like a byline, readable/edges.ts `factHeadings`,
 * readable/repeats.ts `withoutRepeats` a run of short facts written again for each variant,
 * readable/fields.ts `withoutMessageKeys`, readable/render.ts a drawn icon between two words, an inline title before its text
 * and readable/noteMarks.ts a series of footnotes' raised numbers, readable/controls.ts `withoutTooltipLabels`,
 * readable/mojibake.ts `withoutMojibake`, readable/boilerplate.ts a section named as text over a picture, readable/render.ts a product page's web components
 * laid out as blocks, readable/notices.ts `withoutStateBoxes`, readable/controls.ts `withoutButtonBoxes`,
 * readable/fields.ts `withoutMachineDates` a stamp in a span named as a date, readable/tree.ts `bannerInMain` with readable/edges.ts
 * `titledSentence`, readable/render.ts `factMeet` a label and its value side by side,
 * readable/meta.ts `mainProduct`, readable/facts.ts `wrappedFactRow` and `wrappedFactPart`,
 * readable/fields.ts `withoutScriptData`, readable/meta.ts a JSON-LD title's references decoded,
 * readable/strips.ts "Shop the look", readable/controls.ts `withoutActionLinks` a lone "Learn more about …",
 * readable/phoneCopies.ts `withoutScreenCopies`, readable/notices.ts `withoutDismissibleNotices` a
 * notice dismissed by a button named only for screen readers, readable/titleEchoes.ts
 * `withoutTitleEchoes`, readable/accordions.ts a closed dialog no accordion's answer,
 * readable/notices.ts `withoutWaitingAlerts` an alert hidden by a design system's prefixed classes,
 * and one named by its role inside a box so hidden, readable/boilerplate.ts a class `hidden` after
 * a short namespace, readable/titleEchoes.ts also for a title written again as a link to the page,
 * readable/render.ts `hollow` a table left with its rows nearly all empty, readable/skipLinks.ts
 * `withoutSkipLinks` a link back up to the navigation, readable/fillers.ts `withoutLoaderBoxes`,
 * readable/boilerplate.ts `mainLandmark` a `main` a modal dialog marked `aria-hidden`,
 * readable/stickyBars.ts `withoutStickyBuyBars`, readable/content.ts `visibleFallback` a list of nothing
 * but links in a product page's `main`, readable/bareHeadings.ts `withoutClosingHeading`,
 * readable/notices.ts `withoutWaitingAlerts` a short live region hidden by its class,
 * readable/boilerplate.ts `activeFilters` the filters applied to a list and `LEGAL_ID` legal print
 * named by its id, readable/productSummary.ts `withProductSummary`, Readable.ts `assemble` a
 * page's own title a few blocks down, readable/content.ts `footerBeside` a box named as the site's
 * footer beside a product's title, scored again, readable/strips.ts a strip of other products
 * above a product's title, readable/boilerplate.ts `METAFIELD` a theme's metafield box,
 * readable/emptyReviews.ts `withoutEmptyReviews` a reviews section that holds no review (ending at
 * the first block that is neither its notice nor its prompt; not a short review, not a long heading),
 * readable/content.ts `CHAT_PROMPT` a live chat's prompt read by the visible fallback,
 * readable/faqs.ts `withPanelTitles` an accordion's titles written as its buttons,
 * readable/noteMarks.ts `withoutLinkedNoteMarks` raised marks linking to the page's notes the copy does not hold,
 * readable/render.ts `strayWords` an item's words set straight in its list, and only after an item
 * that ends as text, readable/shippingPromise.ts `withoutShippingPromises` a shop's line promising
 * free delivery on every order (not a heading, quote or list item; a sum as its reach, not a delivery
 * time) and `withoutDispatchCutOffs` its hour for dispatch (not a denial; an order by a named time),
 * readable/phoneCopies.ts `withoutRepeatedPhoneLabels` a grid row's label for wide screens written again
 * for phones in its cells, and a card's box for phones with no such label kept, readable/passages.ts
 * `withoutRepeatedPassages` a passage a field writes twice in one paragraph, kept once,
 * readable/accordions.ts `disclosed` a description's rest hidden until its "Read more" is clicked,
 * readable/rewards.ts `withoutRewardOffers` a loyalty programme's offer of rewards with its figure,
 * readable/protectionPlans.ts `withoutPlanOffers` a protection plan offered with the product,
 * readable/paymentMethods.ts `withoutWalletLines` the wallets a shop's checkout takes,
 * readable/content.ts `narrowProduct` a product's narrower choice beside the shop's blocks,
 * readable/descriptionTab.ts `descriptionPanel` a product's description tab as the content, and
 * `descriptionBox` a box named for the description holding a third of the chosen text,
 * readable/repeatedLines.ts `withoutRepeatedLines` a line said again in another block, and a
 * sentence said again inside a longer line).
 * Over 400 lines: one small page per rule, each written out in full beside its test.
 */
import { describe, expect, it } from "@effect/vitest"
import { readerText } from "../../bench/readerText.js"
import { htmlToMarkdown } from "../../src/domain/Readable.js"

const URL_ = "https://shop.example/kettles/k1"

const copy = (html: string): string => readerText(htmlToMarkdown(html, URL_))

/** How many times `part` stands in `text`. */
const count = (text: string, part: string) => text.split(part).length - 1

const review = (i: number): string =>
  `<div class="review-item"><h4>Review ${i}: boils fast</h4><p class="review-text">Reviewer ${i} writes that ` +
  `the kettle boils a full litre in under three minutes, that the handle stays cool, and that after ` +
  `${i + 2} months of daily use, morning and evening, it still looks as it did on the first day.</p></div>`

const productLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",` +
  `"name":"Steel kettle K1","offers":{"@type":"Offer","price":"49.00","priceCurrency":"EUR"}}</script>`

const kettle = (head: string) =>
  `<html><head><title>Steel kettle K1</title>${head}</head><body>
  <header class="site-header"><a href="/">The Shop</a></header>
  <main><div class="product-page">
    <h1>Steel kettle K1</h1>
    <div class="price">49 euros</div>
    <div class="description"><p>The K1 is a steel kettle of one and a half litres, with a base that turns ` +
  `all the way round, a lid that opens wide for cleaning, and a filter that keeps the scale out of your cup.</p>
    <p>It switches itself off when the water boils or when the kettle is lifted, and its window shows how ` +
  `much water is left, so that nobody boils more than the cups they need.</p></div>
    <section class="reviews"><h2>Customer reviews</h2>${
    Array.from({ length: 6 }, (_, i) => review(i)).join("")
  }</section>
  </div></main>
  <footer><p>Copyright 2026 The Shop Company, all rights reserved.</p></footer></body></html>`

describe("readable copy: product pages", () => {
  it("drops customer reviews on a page whose schema.org data says it shows a product", () => {
    const text = copy(kettle(productLd))
    expect(text).toContain("a filter that keeps the scale out of your cup")
    expect(text).not.toContain("boils a full litre")
    expect(text).not.toContain("Customer reviews")
  })

  it("does so for a page whose Open Graph type is a product", () => {
    const text = copy(kettle(`<meta property="og:type" content="product">`))
    expect(text).toContain("a filter that keeps the scale out of your cup")
    expect(text).not.toContain("boils a full litre")
  })

  it("does so for a page whose body is the class of one product's page (single-product), even called an article", () => {
    const html = kettle(`<meta property="og:type" content="article">`).replace(
      "<body>",
      `<body class="single single-product">`
    )
    const text = copy(html)
    expect(text).toContain("a filter that keeps the scale out of your cup")
    expect(text).not.toContain("boils a full litre")
  })

  it("keeps reviews where the page does not say it shows a product, or says it is an article", () => {
    expect(copy(kettle(""))).toContain("boils a full litre")
    const article = `<script type="application/ld+json">[{"@context":"https://schema.org","@type":"Product",` +
      `"name":"Steel kettle K1"},{"@context":"https://schema.org","@type":"Review","name":"K1 tested"}]</script>`
    expect(copy(kettle(article))).toContain("boils a full litre")
    expect(copy(kettle(`${productLd}<meta property="og:type" content="article">`))).toContain("boils a full litre")
  })
})

/** The kettle's page with each review showing its stars, and a page date when `published` is given. */
const ratedKettle = (published = "") =>
  kettle(published).replace(/<h4>Review (\d+)/g, `<span class="rating"><i class="icon-star"></i>5</span><h4>Review $1`)

describe("readable copy: customer reviews on a page that says nothing of itself", () => {
  it("drops a run of reviews that carry ratings, where the page names no product and no date", () => {
    const text = copy(ratedKettle())
    expect(text).toContain("a filter that keeps the scale out of your cup")
    expect(text).not.toContain("boils a full litre")
  })

  it("keeps them on a page that says when it was published, and keeps reviews without ratings (testimonials)", () => {
    expect(copy(ratedKettle(`<meta property="article:published_time" content="2026-01-05">`))).toContain(
      "boils a full litre"
    )
    expect(copy(kettle(""))).toContain("boils a full litre")
  })
})

/** A shop's homepage whose reviews stand in a carousel, each item holding its review beside the reviewer and the product. */
const carouselShop = () => {
  const item = (i: number) =>
    `<div class="carousel-item"><div class="carousel-item__review">` +
    `<div class="carousel-item__review-rating" aria-label="5 stars" role="img"><span class="star"></span></div>` +
    `<div class="carousel-item__review-title">Review ${i}: boils fast</div><div class="carousel-item__review-body">` +
    `<p>Reviewer ${i} writes that the kettle boils a full litre in under three minutes and that the handle ` +
    `stays cool after ${i + 2} months of daily use.</p></div></div>` +
    `<div class="carousel-item__reviewer">Buyer ${i}</div><a class="carousel-item__product" href="/k${i}">Kettle K${i}</a></div>`
  return `<html><head><title>The Kettle Shop</title></head><body>
  <main><div class="home"><h1>Kettles that last</h1>
    <p>Our kettles are made of steel, with a base that turns all the way round, a lid that opens wide for ` +
    `cleaning, and a filter that keeps the scale out of your cup.</p>
    <p>Each one switches itself off when the water boils or when it is lifted, and its window shows how much ` +
    `water is left, so that nobody boils more than the cups they need.</p></div>
  <section class="reviews-section"><h2>Real reviews</h2><div class="carousel">${
      Array.from({ length: 5 }, (_, i) => item(i)).join("")
    }</div></section></main></body></html>`
}

describe("readable copy: customer reviews built as a carousel's items", () => {
  it("drops a run of cards whose part named as the review holds most of their text and a rating", () => {
    const text = copy(carouselShop())
    expect(text).toContain("a filter that keeps the scale out of your cup")
    expect(text).not.toContain("boils a full litre")
  })

  it("keeps product cards whose rating is a small part of each card", () => {
    const card = (i: number) =>
      `<div class="product-card"><h3 class="product-card__title">Kettle K${i}</h3><p class="product-card__text">A steel ` +
      `kettle of ${i + 1} litres, whose base turns all the way round and whose lid opens wide for cleaning.</p>` +
      `<div class="product-card__review"><span class="star"></span> 4.${i} (51)</div><div class="price">${
        40 + i
      } euros</div></div>`
    const html = `<html><head><title>Kettles</title></head><body><main><h1>Kettles</h1><div class="grid">${
      Array.from({ length: 5 }, (_, i) => card(i)).join("")
    }</div></main></body></html>`
    expect(copy(html)).toContain("whose base turns all the way round")
  })
})

const slide = (name: string, line: string, cloned = "") =>
  `<div class="slide${cloned}"><h3>${name}</h3><p>${line}</p></div>`

const slides: ReadonlyArray<readonly [string, string]> = [
  ["Soft wool", "Superfine fibres have a soft feel and help the shoe keep an even warmth."],
  ["Fresh all day", "Wool takes up moisture and keeps the smell of a long day away from you."],
  ["Light sole", "The sole is made of a light foam that gives a little at every step."]
]

describe("readable copy: blocks a page shows twice", () => {
  it("keeps one copy of a carousel whose slides are cloned for the loop", () => {
    const track = [...slides.map(([n, l]) => slide(n, l)), ...slides.map(([n, l]) => slide(n, l, " cloned"))].join("")
    const page = `<html><head><title>Wool shoe</title></head><body><main><h1>Wool shoe</h1>
      <p>The wool shoe is the first shoe we made, and the one most people still buy from us, year after year.</p>
      <div class="carousel">${track}</div></main></body></html>`
    const text = copy(page)
    for (const [, line] of slides) expect(text.split(line).length - 1).toBe(1)
    expect(text).toContain("the one most people still buy from us")
  })

  it("keeps short blocks that repeat (a price, a label)", () => {
    const page = `<html><head><title>Two kettles</title></head><body><main><h1>Two kettles</h1>
      <p>Both kettles boil a litre in three minutes and switch themselves off when the water boils.</p>
      <div class="offer"><h2>Kettle one</h2><p>In stock</p></div><div class="offer"><h2>Kettle two</h2><p>In stock</p></div>
      </main></body></html>`
    expect(copy(page).split("In stock").length - 1).toBe(2)
  })
})

const guide = (i: number): string =>
  `<p>Choosing a tent, part ${i}: weigh the tent with its poles and pegs, count the people who will sleep in it, ` +
  `and think of the wind and the rain where you will pitch it, since a light tent, however cheap, ` +
  `is of little use on a ridge in a storm, and a heavy one will stay at home on every long walk.</p>`

const tentCard = (i: number, price: string): string =>
  `<li class="tile"><a href="/p/${i}">Trail tent ${i}</a><span class="amount">${price}</span>` +
  `<span class="note">sleeps ${1 + (i % 3)}, two doors</span></li>`

const category = (cards: string) =>
  `<html><head><title>Tents</title></head><body>
  <header class="site-header"><a href="/">Outdoor shop</a></header>
  <div class="page"><h1>Tents</h1>
  <div class="results"><ul class="grid">${cards}</ul></div>
  <div class="guide"><h2>How to choose a tent</h2>${Array.from({ length: 6 }, (_, i) => guide(i)).join("")}</div>
  </div>
  <footer><p>Copyright 2026 Outdoor shop.</p></footer></body></html>`

describe("readable copy: a shop's grid beside its buying guide", () => {
  it("keeps a grid of priced cards beside the guide that scores", () => {
    const text = copy(category(Array.from({ length: 8 }, (_, i) => tentCard(i, `$${120 + i}.00`)).join("")))
    expect(text).toContain("Choosing a tent, part 3")
    for (let i = 0; i < 8; i++) {
      expect(text).toContain(`Trail tent ${i}`)
      expect(text).toContain(`$${120 + i}.00`)
    }
  })

  it("adds a grid of priced cards that lies outside the part that scores", () => {
    const cards = Array.from({ length: 8 }, (_, i) => tentCard(i, `${120 + i},00 €`)).join("")
    const page = `<html><head><title>Tents</title></head><body>
      <div class="top"><div class="results"><ul class="grid">${cards}</ul></div></div>
      <div class="bottom"><div class="wrap"><div class="guide"><h2>How to choose a tent</h2>${
      Array.from({ length: 6 }, (_, i) => guide(i)).join("")
    }</div></div></div></body></html>`
    const text = copy(page)
    expect(text).toContain("Choosing a tent, part 3")
    expect(text.indexOf("Trail tent 0")).toBeGreaterThanOrEqual(0)
    expect(text.indexOf("Trail tent 0")).toBeLessThan(text.indexOf("Choosing a tent, part 0"))
    expect(text).toContain("127,00 €")
  })

  it("leaves out a grid of cards that show no price (more articles), and a product page's grids", () => {
    const unpriced = copy(category(Array.from({ length: 8 }, (_, i) => tentCard(i, `Story ${i}`)).join("")))
    expect(unpriced).toContain("Choosing a tent, part 3")
    expect(unpriced).not.toContain("Trail tent 5")
    const product = category(Array.from({ length: 8 }, (_, i) => tentCard(i, `$${120 + i}.00`)).join(""))
      .replace("</head>", `<meta property="og:type" content="product"></head>`)
    expect(copy(product)).not.toContain("Trail tent 5")
  })

  it("adds the grid outside the part that scores on a page that declares a group of products", () => {
    const cards = Array.from({ length: 8 }, (_, i) => tentCard(i, `$${120 + i}.00`)).join("")
    const page = `<html><head><title>Tents</title><meta property="og:type" content="product.group"></head><body>
      <div class="top"><div class="results"><ul class="grid">${cards}</ul></div></div>
      <div class="bottom"><div class="wrap"><div class="guide"><h2>How to choose a tent</h2>${
      Array.from({ length: 6 }, (_, i) => guide(i)).join("")
    }</div></div></div></body></html>`
    const text = copy(page)
    expect(text).toContain("Choosing a tent, part 3")
    expect(text).toContain("Trail tent 5")
    expect(text).toContain("$127.00")
  })
})

const saleCard = (i: number): string =>
  `<div class="c-item"><a href="/p/r${i}">Rowing machine R${i}</a><p>$${900 + i * 50}.00</p><p>Free delivery</p></div>`

const homepage = (promoNames: string, head = "") =>
  `<html><head><title>Fitness shop</title>${head}</head><body>
  <header class="site-header"><a href="/">Fitness shop</a></header>
  <div class="home">
  <section class="welcome"><h2>Welcome to the home of fitness</h2>${
    Array.from({ length: 3 }, (_, i) => guide(i)).join("")
  }</section>
  <section class="${promoNames}"><h2>Spring rowing sale</h2><p>Take up to $300 off select rowing machines this month, ` +
  `delivered and assembled in the room of your choice.</p>
  <div class="carousel">${Array.from({ length: 6 }, (_, i) => saleCard(i)).join("")}</div></section>
  </div>
  <footer><p>Copyright 2026 Fitness shop.</p></footer></body></html>`

describe("readable copy: a promotion's box that holds a grid of priced cards", () => {
  it("keeps the promotion and its products on a page that shows no one product", () => {
    const text = copy(homepage("promo-carousel"))
    expect(text).toContain("Choosing a tent, part 2")
    expect(text).toContain("Spring rowing sale")
    for (let i = 0; i < 6; i++) {
      expect(text).toContain(`Rowing machine R${i}`)
      expect(text).toContain(`$${900 + i * 50}.00`)
    }
  })

  it("drops it on a product page, and where another name says furniture", () => {
    expect(copy(homepage("promo-carousel", `<meta property="og:type" content="product">`))).not.toContain(
      "Rowing machine R3"
    )
    expect(copy(homepage("promo-carousel sidebar"))).not.toContain("Rowing machine R3")
  })
})

const tabbed = (panelAttrs: string) =>
  `<html><head><title>Audio interface A4</title></head><body><main>
  <h1>Audio interface A4</h1>
  <div class="tabs"><a href="#d" role="tab">Description</a><a href="#s" role="tab">Specifications</a>
  <div id="d" role="tabpanel"><p>The A4 records two microphones and two instruments at once, with preamps quiet ` +
  `enough for a singer's softest line and a headphone output that drives studio headphones to a proper level.</p>
  <p>It draws its power from the computer, so that a laptop, the A4 and a microphone make a whole studio in one bag.</p></div>
  <div id="s" ${panelAttrs}><table><tr><th>Inputs</th><td>Four, two with microphone preamps</td></tr>
  <tr><th>Sample rate</th><td>Up to 192 kHz</td></tr><tr><th>Power</th><td>Bus-powered over USB-C</td></tr></table></div>
  </div></main></body></html>`

describe("readable copy: tabs", () => {
  it("keeps a tab panel the page hides until its tab is clicked", () => {
    for (const attrs of [`role="tabpanel" hidden`, `class="tab-pane" style="display:none"`]) {
      const text = copy(tabbed(attrs))
      expect(text).toContain("records two microphones")
      expect(text).toContain("Bus-powered over USB-C")
    }
  })

  it("still leaves out a hidden block that is not a tab panel", () => {
    const text = copy(tabbed(`class="spec-sheet" hidden`))
    expect(text).toContain("records two microphones")
    expect(text).not.toContain("Bus-powered over USB-C")
  })
})

const otherProduct = (name: string, price: number) =>
  `<div class="item"><h3><a href="/p/${name.toLowerCase().replace(/ /g, "-")}">${name}</a></h3>` +
  `<p>Made by hand in small batches, and sent in a box of recycled card.</p>` +
  `<span class="amount">$${price}</span><a href="?add=${price}">Add to cart</a></div>`

const withStrip = (head: string) =>
  `<html><head><title>Tea tin</title>${head}</head><body><main><div class="layout">
    <h1>Tea tin</h1>
    <p>A tin of pressed steel that keeps two hundred grams of loose tea dry and dark, with an inner lid ` +
  `that seals against the air and a label you can write on with chalk.</p>
    <p>Its seam is folded, not soldered, so nothing but steel touches the tea, and it stacks with the other ` +
  `tins of the range on a shelf or in a drawer.</p>
    <h2>Details</h2>
    <p>Each tin is pressed from one sheet of food-safe steel in a small workshop, then lacquered inside ` +
  `with a coat that neither tastes nor smells, so that a green tea kept in it for a season tastes as it did ` +
  `on the day the tin was filled. The lid is lined with a ring of natural rubber that keeps the moisture of ` +
  `a kitchen out, and the label area on the front is painted matt black, for chalk or a paper label.</p>
    <p>The tin is ten centimetres tall and eight across, weighs one hundred and forty grams empty, and holds ` +
  `two hundred grams of a rolled oolong or about one hundred and twenty grams of a large-leaf black tea. ` +
  `Wash it by hand with warm water only, dry it at once, and leave the lid off for an hour before filling.</p>
    <h2>Pairs well with</h2>
    <div class="row">${
    [["Glass teapot with a steel filter", 38], ["Bamboo tea scoop", 9], ["Linen tea towel", 14], [
      "Stoneware cups, a set of four",
      42
    ], ["Loose-leaf breakfast tea", 12]].map(([n, p]) => otherProduct(n as string, p as number)).join("")
  }</div></div></main></body></html>`

describe("readable copy: other products on a product page", () => {
  it("drops a grid of priced cards on a page that says it shows a product", () => {
    const text = copy(withStrip(productLd))
    expect(text).toContain("an inner lid that seals against the air")
    expect(text).not.toContain("Bamboo tea scoop")
    expect(text).not.toContain("Add to cart")
  })

  it("keeps the grid where the page does not say it shows a product", () => {
    expect(copy(withStrip(""))).toContain("Bamboo tea scoop")
  })
})

/** A card whose link is laid over it with no text of its own (a label only): its name and price are not in the link. */
const coveredCard = ([name, price]: readonly [string, number]) =>
  `<div class="tile"><div class="tile-body"><h3>${name}</h3><span class="amount">$${price}</span>` +
  `<span class="note">Free delivery on orders over $50</span></div>` +
  `<a class="tile-cover" aria-label="${name}" href="/p/${name.toLowerCase().replace(/ /g, "-")}"></a></div>`

const coveredNames = [
  ["Glass teapot with a steel filter", 38],
  ["Bamboo tea scoop, long handle", 9],
  ["Linen tea towel in natural grey", 14],
  ["Stoneware cups, a set of four", 42],
  ["Loose-leaf breakfast tea, 250 g", 12]
] as const

const careSection = `<h2>Care</h2><p>Keep the tin away from the stove and out of the sun: heat and light age a tea ` +
  `faster than air does. Do not put it in the dishwasher or leave water standing in it, and wipe the rubber ring ` +
  `with a dry cloth now and then so that it keeps its seal for years of daily opening and closing.</p>`

const withCoveredStrip = (head: string) =>
  withStrip(head).replace(
    /<h2>Pairs well with<\/h2>\s*<div class="row">[\s\S]*<\/div><\/div><\/main>/,
    `${careSection}<div class="row">${coveredNames.map(coveredCard).join("")}</div></div></main>`
  )

describe("readable copy: other products whose cards are covered by a link", () => {
  it("drops a grid of priced cards whose one link has no text, on a page that says it shows a product", () => {
    const text = copy(withCoveredStrip(productLd))
    expect(text).toContain("an inner lid that seals against the air")
    expect(text).not.toContain("Bamboo tea scoop")
    expect(text).not.toContain("Free delivery on orders")
  })

  it("keeps it where the page does not say it shows a product", () => {
    expect(copy(withCoveredStrip(""))).toContain("Bamboo tea scoop")
  })
})

/** A carousel of other products whose first slide carries a class the others do not. */
const withCarousel = (head: string) =>
  withCoveredStrip(head).replace(`<div class="row"><div class="tile">`, `<div class="row"><div class="active-slide">`)

describe("readable copy: a carousel of other products", () => {
  it("drops its first slide too, whose class differs from the others'", () => {
    const text = copy(withCarousel(productLd))
    expect(text).toContain("an inner lid that seals against the air")
    expect(text).not.toContain("Bamboo tea scoop")
    expect(text).not.toContain("Glass teapot")
  })

  it("keeps it where the page does not say it shows a product", () => {
    expect(copy(withCarousel(""))).toContain("Glass teapot")
  })
})

const mediaBlock = (title: string, line: string) =>
  `<div class="media"><img src="/i/${title.length}.jpg" alt=""><div class="media-body"><h3>${title}</h3>` +
  `<p>${line}</p></div></div>`

describe("readable copy: media blocks", () => {
  it("keeps feature blocks built as media objects (an image beside a heading and a line)", () => {
    const page = `<html><head><title>Vertical mouse</title></head><body><main><div class="product">
      <h1>Vertical mouse</h1>
      <div class="description"><p>The vertical mouse holds your hand the way you would shake another's, at an ` +
      `angle that takes the twist out of the forearm, with buttons where the fingers already rest.</p>
      <p>It pairs with three computers at once, charges over USB-C in a few minutes for a day of work, and ` +
      `tracks on glass, wood and the arm of a sofa.</p></div>
      <div class="features">${
        [
          ["Natural handshake", "The hand rests on its side, and the strain in the forearm falls by a tenth."],
          ["A steep angle", "Set at fifty-seven degrees, the mouse keeps the wrist from pressing on the desk."],
          ["Fits the hand", "Sculpted for medium and large hands, with a rest that keeps the thumb in place."]
        ].map(([t, l]) => mediaBlock(t!, l!)).join("")
      }</div></div></main></body></html>`
    const text = copy(page)
    expect(text).toContain("takes the twist out of the forearm")
    expect(text).toContain("the strain in the forearm falls by a tenth")
    expect(text).toContain("keeps the wrist from pressing on the desk")
  })
})

const specs = (tip: (text: string) => string) =>
  `<html><head><title>Open headphones H2</title></head><body><main><div class="product">
  <h1>Open headphones H2</h1>
  <p>The H2 are open headphones with planar drivers, light enough to wear for an evening of records, and ` +
  `open at the back, so the music sounds as if it were played in the room rather than inside your head.</p>
  <div class="overview">${
    [
      ["Cup style", "Open-back", "Open designs sound wider but let the music out and the street in."],
      ["Driver type", "Planar magnetic", "A thin film between magnets moves as one, with little distortion."],
      ["Amp required", "Yes", "Some headphones need an amplifier to reach a comfortable listening level."]
    ].map(([k, v, t]) => `<div class="item"><h4>${k} ${tip(t!)}</h4><p>${v}</p></div>`).join("")
  }</div></div></main></body></html>`

describe("readable copy: tooltips", () => {
  it("leaves out what a tooltip shows on hover, by its role or its name", () => {
    for (
      const tip of [
        (t: string) => `<span role="tooltip">${t}</span>`,
        (t: string) => `<tool-tip class="tool-tip"><span class="tool-tip__content">${t}</span></tool-tip>`,
        (t: string) => `<span class="tooltip">?<span class="tooltip-text">${t}</span></span>`
      ]
    ) {
      const text = copy(specs(tip))
      expect(text).toContain("open at the back")
      expect(text).toContain("Planar magnetic")
      expect(text).not.toContain("little distortion")
    }
  })
})

describe("readable copy: popovers", () => {
  it("leaves out what a popover shows on a click, as it leaves out a tooltip", () => {
    for (
      const tip of [
        (t: string) =>
          `<a href="#why">Why?</a><div class="popover" id="why"><div class="inner"><p>${t}</p></div></div>`,
        (t: string) => `<div class="info-popover is-preloaded"><div><span>${t}</span></div></div>`
      ]
    ) {
      const text = copy(specs(tip))
      expect(text).toContain("open at the back")
      expect(text).toContain("Planar magnetic")
      expect(text).not.toContain("little distortion")
    }
  })
})

const spokenTwice = (echo: (label: string, more: string) => string) =>
  `<html><head><title>Three summer tops</title></head><body><main><div class="listing">
  <h1>Three summer tops</h1>
  <p>Three tops of cotton jersey in black, white and green, worn twice each and washed at thirty degrees; ` +
  `the seams are sound and the colours have not faded.</p>
  <div class="facts"><div class="row"><span class="label">${echo("Condition", "")}</span> <span>Worn twice</span></div>
  <div class="row"><span class="label">${echo("Seller's other items", "")}</span></div>
  <div class="row"><a href="#coverage">${echo("See all details", " on coverage")}</a></div></div>
  </div></main></body></html>`

describe("readable copy: words written again for screen readers", () => {
  it("leaves out an element that repeats the label written just before it", () => {
    const text = copy(spokenTwice((label, more) => `${label}<span class="sr-copy">${label}${more}</span>`))
    expect(text).toContain("have not faded")
    expect(text).toContain("Worn twice")
    expect(text).not.toContain("ConditionCondition")
    expect(text).not.toContain("Seller's other itemsSeller's")
    expect(text).not.toContain("on coverage")
    expect(text).toContain("See all details")
  })

  it("keeps an element that says something else after its label", () => {
    const text = copy(spokenTwice((label) => `${label}: <b>shown</b>`))
    expect(text).toContain("Condition: shown")
  })
})

describe("readable copy: overlays", () => {
  it("leaves out a box fixed over the whole window (a dialog laid over the page)", () => {
    const page = `<html><head><title>Wool runner</title></head><body><main class="template-product">
      <h1>Wool runner</h1>
      <div class="details"><p>A true original: the wool runner pairs a soft upper of merino wool with a sole of ` +
      `foam made from sugarcane, for a shoe that feels like nothing on the foot.</p>
      <p>It goes in the washing machine: take out the insoles and the laces, wash them by hand, and every step ` +
      `stays as fresh as the first one.</p>
      <div class="fixed inset-0 z-50"><div class="panel"><h3>Notify me when back in stock</h3>
      <p>Once limited colours sell out, they are gone for good; leave your address and we will write when they are back.</p>
      </div></div></div></main></body></html>`
    const text = copy(page)
    expect(text).toContain("a shoe that feels like nothing on the foot")
    expect(text).toContain("stays as fresh as the first one")
    expect(text).not.toContain("Notify me when back in stock")
    expect(text).not.toContain("they are gone for good")
  })
})

const faq = (answerAttrs: string) =>
  `<html><head><title>Flame diffuser</title></head><body><main><div class="product">
  <h1>Flame diffuser</h1>
  <p>The flame diffuser turns water and a few drops of essential oil into a mist ` +
  `that glows like a flame, with a light you can dim and a timer that stops it after one, three or six hours.</p>
  <p>It holds a quarter of a litre, enough for a whole evening, and switches itself off when the water runs out.</p>
  <div class="faq"><h2>Questions</h2>
  <div class="item"><h3>Can it stand outdoors?</h3><div ${answerAttrs}><p>Yes: it resists splashes, so it can ` +
  `stand on a terrace or a balcony for a summer evening, as well as in the living room.</p></div></div>
  <div class="item"><h3>Which oil should I use?</h3><div ${answerAttrs}><p>Lavender to rest, mint or lemon to ` +
  `wake up; a few drops are enough for the whole tank.</p></div></div>
  </div></div></main></body></html>`

describe("readable copy: accordions", () => {
  it("shows the answers an accordion hides until their question is clicked", () => {
    for (const attrs of [`class="content" style="display: none;"`, `class="answer" hidden`]) {
      const text = copy(faq(attrs))
      expect(text).toContain("switches itself off when the water runs out")
      expect(text).toContain("Can it stand outdoors?")
      expect(text).toContain("stand on a terrace or a balcony")
      expect(text).toContain("a few drops are enough for the whole tank")
    }
  })

  it("leaves out a block hidden for good (display: none !important)", () => {
    const text = copy(faq(`style="display: none !important"`))
    expect(text).toContain("switches itself off when the water runs out")
    expect(text).not.toContain("stand on a terrace or a balcony")
  })
})

const asked = (question: string, answer: string) =>
  `<div class="faq-item"><div class="faq-question">${question}</div>` +
  `<div class="faq-answer" style="display: none;">${answer}</div></div>`

const askedFaq = (head: string) =>
  `<html><head><title>Trail pack</title>${head}</head><body><main><div class="product">
  <h1>Trail pack</h1>
  <p>A pack of thirty litres for a day on the trail, with a back panel of mesh that keeps air moving, ` +
  `a pocket for a water bladder and straps that carry its weight on the hips.</p>
  <p>Its fabric sheds rain, and a cover folded into the bottom pocket pulls over it for a downpour.</p>
  <div class="faq">${
    [
      asked(
        "Can I carry it on a plane as hand luggage?",
        "Yes: at thirty litres it fits the cabin rules of most airlines."
      ),
      asked("Is there a warranty on the seams and zips?", "Two years on seams and zips, from the day it reaches you."),
      asked("Does the hip belt come off for city use?", "It does: two buckles release it, and the pack sits flat."),
      asked("Can I track my order once it has shipped?", "A tracking number reaches your mailbox within a day.")
    ].join("")
  }</div></div></main></body></html>`

describe("readable copy: an accordion whose questions are lines, not headings", () => {
  it("shows the answer hidden after a line that asks a question", () => {
    const text = copy(askedFaq(""))
    expect(text).toContain("Can I carry it on a plane as hand luggage?")
    expect(text).toContain("fits the cabin rules of most airlines")
    expect(text).toContain("Two years on seams and zips")
  })

  it("leaves it hidden on a page that says when it was published (an article's FAQ)", () => {
    const text = copy(askedFaq(`<meta property="article:published_time" content="2026-01-05T08:00:00Z">`))
    expect(text).toContain("Can I carry it on a plane as hand luggage?")
    expect(text).not.toContain("fits the cabin rules of most airlines")
  })
})

const features = `<html><head><title>Plant colours</title></head><body><main><article class="product-item">
  <h1>Plant colours</h1>
  <div class="excerpt"><p>Baking colours made from concentrated vegetables and spices instead of coal tar, ` +
  `bright enough for icing and gentle enough for a dog's biscuit.</p>
  <p>Each box holds four packets, enough to colour a dozen cakes, and keeps for two years in a dry cupboard.</p>
  <ul><li><p>Colours from plants</p></li><li><p>Tested for heavy metals</p></li><li><p>Free of nuts</p></li>` +
  `<li><p>Vegan and kosher</p></li><li><p>Four packets of two grams</p></li>` +
  `<li><p>Use them like a pro with <a href="/how-to">our how-to</a></p></li></ul>
  <p>Ingredients: beet juice, turmeric, paprika and spirulina.</p></div></article></main></body></html>`

describe("readable copy: a list that is read, not clicked", () => {
  it("keeps a product's list of features whose one item links to a how-to", () => {
    const text = copy(features)
    expect(text).toContain("keeps for two years in a dry cupboard")
    expect(text).toContain("Tested for heavy metals")
    expect(text).toContain("Four packets of two grams")
  })
})

const shelf = (head: string) =>
  `<html><head><title>Cube shelf</title>${head}</head><body><main><div class="product-page">
  <h1>Cube shelf</h1>
  <p>A shelf of eight open cubes that stands upright or lies down as a bench, for books, records or ` +
  `baskets, with smooth surfaces and rounded edges all round.</p>
  <p>Standing or lying, it adapts to the room and the budget: add doors, drawers or boxes to some cubes and ` +
  `leave the others open, so that what you show stands beside what you hide.</p>
  <p>It comes flat in one box, and two people put it together in an hour with the key in the box; the ` +
  `cubes are the size of a record sleeve, and of the baskets sold beside it.</p>
  <div class="product-info"><a href="#details">Product details</a>
  <div class="product-details-modal"><h2>Product details</h2>
  <p>Particleboard and fibreboard with a honeycomb filling of recycled paper, painted white with acrylic ` +
  `paint; each cube holds thirteen kilograms, and the top holds twenty-five.</p>
  <p>Wipe clean with a damp cloth and a mild soap, then dry with a clean cloth; fix it to the wall with the ` +
  `fitting that comes in the box.</p></div></div>
  </div></main>
  <div class="newsletter-modal"><h2>Join the club</h2><p>Sign up for news of our offers and events, and ` +
  `hear first when the shelves you like are on sale again in your store.</p></div></body></html>`

describe("readable copy: a product's details in a dialog inside the main", () => {
  it("keeps them on a page that says it shows a product, and leaves out the dialogs outside the main", () => {
    const text = copy(shelf(productLd))
    expect(text).toContain("with smooth surfaces and rounded edges")
    expect(text).toContain("a honeycomb filling of recycled paper")
    expect(text).toContain("fix it to the wall")
    expect(text).not.toContain("Join the club")
  })

  it("leaves them out where the page does not say it shows a product", () => {
    expect(copy(shelf(""))).not.toContain("a honeycomb filling of recycled paper")
  })
})

const viewed = (name: string) =>
  `<li class="sc-9f2k1"><a href="/p/${name.toLowerCase().replace(/ /g, "-")}"><img src="/i.jpg" alt=""></a>` +
  `<div class="sc-a71c0"><a href="/p/${name.toLowerCase().replace(/ /g, "-")}">${name}</a>` +
  `<p>Sold by a small maker and shipped within two days from our own warehouse.</p></div></li>`

const alsoViewed = (head: string, heading: string) =>
  `<html><head><title>Wool blanket</title>${head}</head><body><main><div class="sc-77d0e">
    <h1>Wool blanket</h1>
    <p>A blanket woven from the wool of one flock, thick enough for a cold bedroom and light enough to fold ` +
  `over the arm of a sofa, with a hem stitched by hand at each end.</p>
    <p>It is washed once after weaving, so it will not shrink at home, and brushed on one side only, ` +
  `so the other stays smooth against the sheet.</p>
    <div class="sc-3b556"><h2>${heading}</h2><ul class="sc-11fe2">${
    ["Linen pillow case", "Cotton throw", "Wool cushion", "Sheepskin rug"].map(viewed).join("")
  }</ul></div></div></main></body></html>`

describe("readable copy: a section its heading calls other products", () => {
  it("drops it on a page that says it shows a product", () => {
    const text = copy(alsoViewed(productLd, "Customers also viewed"))
    expect(text).toContain("a hem stitched by hand at each end")
    expect(text).not.toContain("Customers also viewed")
    expect(text).not.toContain("Sheepskin rug")
  })

  it("keeps it under other headings, or where the page does not say it shows a product", () => {
    expect(copy(alsoViewed(productLd, "Made from the same wool"))).toContain("Sheepskin rug")
    expect(copy(alsoViewed("", "Customers also viewed"))).toContain("Sheepskin rug")
  })
})

/** A product page with a data list of `fields` (term, value) in it. */
const fieldsPage = (fields: ReadonlyArray<readonly [string, string]>) =>
  `<html><head><title>Canvas tote</title></head><body><main><div class="product">
    <h1>Canvas tote</h1>
    <p>A tote of heavy cotton canvas with long handles that sit on the shoulder, an inside pocket for keys ` +
  `and a phone, and a flat base that keeps it standing when full.</p>
    <p>It is sewn with double seams at every stress point and washed before it leaves the workshop, ` +
  `so it keeps its size in the machine.</p>
    <dl class="info">${fields.map(([t, d]) => `<dt>${t}</dt><dd>${d}</dd>`).join("")}</dl>
  </div></main></body></html>`

const templateFields: ReadonlyArray<readonly [string, string]> = [
  ["retail_price_tier1:", "$20.00_1–9 items"],
  ["cat_thumb_Sand:", "https://cdn.example/thumbs/tote_sand.jpg"],
  ["cat_thumb_Olive:", "https://cdn.example/thumbs/tote_olive.jpg"],
  ["bulk_grid_ids:", "144,141,140"],
  ["quiz_text_colour:", "#FFF"]
]

const parameters: ReadonlyArray<readonly [string, string]> = [
  ["max_items:", "The most items the request returns in one page of results."],
  ["page_token:", "The token of the page to return, taken from the previous answer."],
  ["sort_order:", "Whether the items come newest first or oldest first in the answer."],
  ["include_archived:", "Whether archived items are returned beside the others."]
]

describe("readable copy: a template's raw fields", () => {
  it("drops a data list whose terms are field names and whose values are codes", () => {
    const text = copy(fieldsPage(templateFields))
    expect(text).toContain("a flat base that keeps it standing when full")
    expect(text).not.toContain("cat_thumb_Sand")
    expect(text).not.toContain("tote_olive.jpg")
  })

  it("keeps a list of parameters that explains each name", () => {
    const text = copy(fieldsPage(parameters))
    expect(text).toContain("page_token")
    expect(text).toContain("taken from the previous answer")
  })
})

describe("readable copy: boxes side by side with nothing between them", () => {
  const detailsPage = `<html><head><title>Field guide to moths</title></head><body><main><div class="item">
    <h1>Field guide to moths</h1>
    <p>A field guide to the moths of northern Europe, with a plate for every species, notes on where ` +
    `and when each one flies, and keys that tell the look-alikes apart by their wings and their caterpillars.</p>
    <h2>Product details</h2>
    <div class="details"><div class="row"><span class="name">Publisher</span><span class="value">Heath ` +
    `Books</span></div><div class="row"><span class="name">Pages</span><span class="value">288</span></div>` +
    `<div class="row"><span class="name">Format</span><span class="value">Hardcover</span></div></div>
    <div class="tags"><a href="/t/nature">nature</a><a href="/t/Field-guides">Field guides</a></div>
  </div></main></body></html>`

  it("reads a label and its value written in two spans as two words, as the page lays them out", () => {
    const text = copy(detailsPage)
    expect(text).toContain("Publisher Heath Books")
    expect(text).toContain("Format Hardcover")
    expect(text).toContain("nature Field guides")
    expect(text).not.toContain("PublisherHeath")
  })

  it("keeps a word split over inline elements as one word", () => {
    const text = copy(
      `<html><body><main><p>The <span class="cap">m</span>oths of the <b>north</b>ern woods fly at dusk ` +
        `from May to August, and most of them rest by day on bark, where their wings hide them well.</p></main></body></html>`
    )
    expect(text).toContain("The moths of the northern woods")
  })

  it("keeps a word split over two elements side by side inside a paragraph as one word", () => {
    const text = copy(
      `<html><body><main><p>The <b>Mc</b><b>Donald</b> moth traps and the <span>i</span><span>Phone</span> lamp ` +
        `both draw moths at dusk from May to August, and most of them rest by day on bark nearby.</p></main></body></html>`
    )
    expect(text).toContain("The McDonald moth traps and the iPhone lamp")
  })
})

describe("readable copy: a product's short rows of facts", () => {
  const shelfPage = `<html><head><title>Oak shelf S2</title>${productLd}</head><body><main><div class="product">
    <h1>Oak shelf S2</h1>
    <div class="details">
      <p>A shelf of solid oak, oiled by hand, with brackets of black steel that hold twenty kilos on a ` +
    `wall of brick or concrete, and a groove along its back for the cables of a lamp.</p>
      <p>Each board is cut from the same tree as the one beside it, so that the grain runs on from one ` +
    `shelf to the next when two are hung side by side.</p>
      <div class="fact"><span class="label">Designer</span><p class="value">Ines Berg</p></div>
      <div class="fact"><span class="label">Weight</span><span class="value">3 kg</span></div>
      <div class="note">Sold out</div>
    </div>
  </div></main></body></html>`

  it("keeps a row of a label and its value shorter than a paragraph, and drops a short note", () => {
    const text = copy(shelfPage)
    expect(text).toContain("solid oak")
    expect(text).toContain("Designer")
    expect(text).toContain("Ines Berg")
    expect(text).toContain("3 kg")
    expect(text).not.toContain("Sold out")
  })

  it("keeps both sides of a row of facts when each side is a block of its own", () => {
    const text = copy(shelfPage.replace(
      `<div class="note">`,
      `<div class="spec"><div class="name">Depth</div><div class="value">22 cm</div></div>
      <div class="spec"><div class="name">Finish</div><div class="value">Linseed oil</div></div>
      <div class="note">`
    ))
    expect(text).toContain("Depth")
    expect(text).toContain("22 cm")
    expect(text).toContain("Linseed oil")
    expect(text).not.toContain("Sold out")
  })

  it("keeps a short block of text that titles the paragraph beside it", () => {
    const text = copy(shelfPage.replace(
      `<div class="note">`,
      `<div class="feature"><div class="feature-title">Hangs in minutes</div><div class="feature-text">Two ` +
        `screws and the template in the box are all it takes to hang the shelf level on any wall.</div></div>
      <div class="note">`
    ))
    expect(text).toContain("Hangs in minutes")
    expect(text).toContain("Two screws and the template")
    expect(text).not.toContain("Sold out")
  })
})

describe("readable copy: strips a page labels as advertising", () => {
  const fact = (i: number) => `<div class="row">Fact ${i}: steel, ${i + 1} parts</div>`
  const card = (i: number) => `<li class="card"><a href="/p/${i}">Kettle K${i + 2} at EUR ${30 + i}.00</a></li>`
  const page = (label: string) =>
    `<html><head><title>Steel kettle K1</title></head><body><main>
    <h1>Steel kettle K1</h1>
    ${Array.from({ length: 30 }, (_, i) => fact(i)).join("")}
    <div class="w4"><div class="w5"><h2>Popular right now</h2><span class="w6">${label}</span></div>
      <ol class="w7">${Array.from({ length: 6 }, (_, i) => card(i)).join("")}</ol></div>
  </main></body></html>`

  it("drops a run of linked cards labelled as sponsored, and keeps the same run without the label", () => {
    const text = copy(page("Sponsored"))
    expect(text).toContain("Fact 29: steel")
    expect(text).not.toContain("Kettle K3")
    expect(text).not.toContain("Popular right now")
    expect(copy(page("Bestsellers"))).toContain("Kettle K3")
  })
})

describe("readable copy: a product page's headings for screen readers only", () => {
  it("drops a heading only screen readers read on a product page, and keeps the section it names", () => {
    const text = copy(
      `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main><div class="product">
      <h1>Steel kettle K1</h1>
      <p>The K1 is a steel kettle of one and a half litres, with a base that turns all the way round, ` +
        `a lid that opens wide for cleaning, and a filter that keeps the scale out of your cup.</p>
      <p>It switches itself off when the water boils or when the kettle is lifted, and its window shows ` +
        `how much water is left, so that nobody boils more than the cups they need.</p>
      <h2 class="sr-only">Shop promises overview</h2>
      <p>Every kettle is tested before it leaves the workshop, and it is repaired for free for ten years ` +
        `after it was bought, whatever broke and however it broke.</p>
    </div></main></body></html>`
    )
    expect(text).toContain("steel kettle of one and a half litres")
    expect(text).toContain("repaired for free for ten years")
    expect(text).not.toContain("Shop promises overview")
  })
})

describe("readable copy: a product page's own header and footer inside its main", () => {
  const help = (i: number) => `<a href="/help/${i}">Help topic number ${i} for orders</a>`
  const page = (head: string) =>
    `<html><head><title>Road case R4</title>${head}</head><body><main><section class="layout">
    <header><div class="top"><span>The workshop's own source since 1973</span>
      <a href="/cart">My cart</a> <a href="/account">Account and orders</a></div></header>
    <div class="item"><h1>Road case R4</h1><p>Holds four lights, ships in two to four weeks.</p></div>
    <footer><div class="cols">
      <div class="col"><h4>Customer service</h4>${Array.from({ length: 8 }, (_, i) => help(i)).join("")}</div>
      <div class="col"><h4>Company</h4>${Array.from({ length: 8 }, (_, i) => help(i + 8)).join("")}</div>
    </div><p>Call us any day of the week</p></footer>
  </section></main></body></html>`

  it("drops the banner and the footer beside the product's title, however much they hold", () => {
    const text = copy(page(productLd))
    expect(text).toContain("Holds four lights")
    expect(text).not.toContain("Help topic number 3")
    expect(text).not.toContain("Account and orders")
  })

  it("keeps them on a page that does not say it shows a product", () => {
    expect(copy(page(""))).toContain("Help topic number 3")
  })
})

const tourItem = (i: number, name: string, body: string) =>
  `<li class="tour-item"><button id="tour-${i}" class="tour-open" aria-expanded="false">${name}</button>` +
  `<div class="tour-panel" aria-hidden="true" aria-labelledby="tour-${i}"><p><strong>${name}.</strong> ${body}</p>` +
  `<div class="tour-image" aria-hidden="true">Animation of the kettle</div></div></li>`

const tour = `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main><div class="product-page">
  <h1>Steel kettle K1</h1>
  <p>The K1 is a steel kettle of one and a half litres, with a base that turns all the way round, a lid ` +
  `that opens wide for cleaning, and a filter that keeps the scale out of your cup.</p>
  <p>It switches itself off when the water boils or when the kettle is lifted, and its window shows how ` +
  `much water is left, so that nobody boils more than the cups they need.</p>
  <h2>Take a closer look</h2>
  <ul class="tour">${
    [
      tourItem(1, "Quiet boil", "A double wall of steel keeps the sound of the water down to a murmur."),
      tourItem(2, "Keep warm", "A button holds the water at the heat you chose for half an hour."),
      tourItem(3, "Cool touch", "The outer wall stays cool enough to hold while the water boils.")
    ].join("")
  }</ul>
  <div class="menu-panel" aria-hidden="true" aria-labelledby="account-menu"><p>Your account and your orders</p></div>
  </div></main></body></html>`

describe("readable copy: a disclosure's panels named by their controls", () => {
  it("shows the panels hidden from screen readers until their labelling button expands them", () => {
    const text = copy(tour)
    expect(text).toContain("keeps the sound of the water down to a murmur")
    expect(text).toContain("holds the water at the heat you chose for half an hour")
    expect(text).toContain("stays cool enough to hold while the water boils")
    expect(text).not.toContain("Animation of the kettle")
    expect(text).not.toContain("Your account and your orders")
  })
})

const faqItem = (i: number, question: string, answer: string) =>
  `<li class="faq-item"><h3 class="faq-question">${question}` +
  `<button aria-expanded="false" aria-controls="faq-${i}">Open</button></h3>` +
  `<div class="faq-answer" id="faq-${i}" aria-hidden="true"><p>${answer}</p></div></li>`

const ariaFaq = `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main><div class="product-page">
  <h1>Steel kettle K1</h1>
  <p>The K1 is a steel kettle of one and a half litres, with a base that turns all the way round, a lid ` +
  `that opens wide for cleaning, and a filter that keeps the scale out of your cup.</p>
  <p>It switches itself off when the water boils or when the kettle is lifted, and its window shows how ` +
  `much water is left, so that nobody boils more than the cups they need.</p>
  <h2>Questions</h2>
  <ul class="faq">${
    [
      faqItem(
        1,
        "Does it come with a filter?",
        "Yes: a steel mesh filter sits in the spout and lifts out for rinsing."
      ),
      faqItem(2, "Can it boil a single cup?", "The window marks a quarter litre, the least it boils safely."),
      faqItem(3, "Is the base sold alone?", "A spare base is sold beside the kettle, for a second kitchen.")
    ].join("")
  }</ul>
  <div class="carousel-slide" id="slide-2" aria-hidden="true"><p>Slide two of the gallery</p></div>
  <button aria-controls="slide-2">Next slide</button>
  </div></main></body></html>`

describe("readable copy: an FAQ's answers hidden from screen readers until opened", () => {
  it("shows each answer an expanding control names, with the heading that asks it", () => {
    const text = copy(ariaFaq)
    expect(text).toContain("Does it come with a filter?")
    expect(text).toContain("a steel mesh filter sits in the spout")
    expect(text).toContain("the least it boils safely")
    expect(text).not.toContain("Slide two of the gallery")
  })
})

const signIn = (line: string) =>
  `<html><head><title>Lantern Keeper on the Store</title></head><body><main><div class="game-page">
  <h1>Lantern Keeper</h1>
  <div class="queue-actions"><p>${line}</p></div>
  <h2>About this game</h2>
  <p>Lantern Keeper is a quiet game about the last keeper of a lighthouse, who trims the wick, winds the ` +
  `clockwork lens and logs the ships that pass, night after night, as the coast around the tower changes.</p>
  <p>Storms come in from the west, supply boats are late, and the letters from the mainland say less ` +
  `each season; what the keeper writes in the log is the story, and no two logs end alike.</p>
  <p>Log in to the mainland office, the keeper's radio says, to report the wreck before the tide turns.</p>
  </div></main></body></html>`

describe("readable copy: a guest's prompt to sign in to use the page's controls", () => {
  it("leaves out a line opening with a sign-in link that says what a member could do", () => {
    const text = copy(signIn(
      `<a href="https://store.example/login/">Sign in</a> to add this item to your wishlist, follow it, or mark it as ignored`
    ))
    expect(text).toContain("the last keeper of a lighthouse")
    expect(text).not.toContain("to add this item to your wishlist")
    expect(text).toContain("Log in to the mainland office")
  })

  it("keeps such a line whose sign-in words are no link", () => {
    const text = copy(signIn(`Sign in to add this item to your wishlist, follow it, or mark it as ignored`))
    expect(text).toContain("to add this item to your wishlist")
  })
})

const specRow = (label: string, value: string) =>
  `<tr class="tech-specs__row"><th class="tech-specs__header">${label}</th>` +
  `<td class="tech-specs__cell"><p class="tech-specs__value">${value}</p></td></tr>`

const specTable = `<html><head><title>Day pack 25</title>${productLd}</head><body><main><div class="product-page">
  <h1>Day pack 25</h1>
  <p>A pack of twenty-five litres for a day on the trail, with a frame sheet that keeps its shape, a ` +
  `hip belt with two pockets, and a lid that opens wide enough to reach the bottom of the bag.</p>
  <p>Its fabric is recycled nylon, coated against the rain, and every seam that faces the sky is taped, ` +
  `so that a shower on the ridge leaves the jacket inside dry.</p>
  <h2>Technical specs</h2>
  <table class="tech-specs"><tbody>${
    [specRow("Best use", "Hiking"), specRow("Frame type", "Internal frame"), specRow("Gender", "Unisex")].join("")
  }</tbody></table>
  </div></main></body></html>`

describe("readable copy: a table's header cells named as headers", () => {
  it("keeps the labels of a specification table whose header cells are named header", () => {
    const text = copy(specTable)
    expect(text).toContain("Frame type")
    expect(text).toContain("Internal frame")
    expect(text).toContain("Best use")
  })
})

const feature = (title: string, body: string, before = "") =>
  `<div class="feature">${before}<h2>${title}</h2><p>${body}</p></div>`

// A maker's page of short feature blocks (no paragraph scores: the page's visible text is read).
const gallery = `<html><head><title>Speckled mug</title></head><body><main>
  <h1>Speckled mug</h1>
  <div class="features">${
  [
    feature(
      "Thrown by hand",
      "Each mug is thrown on the wheel.",
      `<div class="carousel"><div aria-live="polite">Slide 2 of 3</div><p class="counter">1 of 3</p></div>`
    ),
    feature("Speckled glaze", "A white glaze speckled with iron."),
    feature("Fired twice", "Photo 2 of 3 shows the bare foot."),
    feature(
      "Rinse it first",
      "Warm water before the first use.",
      `<div class="marker"><div class="number">1</div><div class="total">of 3</div></div>`
    )
  ].join("")
}</div>
  </main></body></html>`

describe("readable copy: a gallery's or a carousel's counter", () => {
  it("leaves out an element whose whole text says which picture or slide is shown", () => {
    const text = copy(gallery)
    expect(text).toContain("Each mug is thrown on the wheel.")
    expect(text).not.toContain("Slide 2 of 3")
    expect(text).not.toMatch(/^1 of 3$/m)
  })

  it("keeps such words in a sentence and a number set as two blocks", () => {
    const text = copy(gallery)
    expect(text).toContain("Photo 2 of 3 shows the bare foot.")
    expect(text).toMatch(/^of 3$/m)
  })
})

// A product page whose summary and warranty note each end with a call to action's link of their own.
const actions = (head: string) =>
  `<html><head><title>Pocket driver kit</title>${head}</head><body><main><div class="product-page">
  <h1>Pocket driver kit</h1>
  <p>Sixteen bits in a case that fits a pocket, with a driver whose handle turns freely on its cap, so ` +
  `that one hand holds the screw while the other turns it.</p>
  <div class="summary"><p>The case closes with a magnet and holds each bit in its own slot, marked with its size, so that the ` +
  `one you need is found at a glance.</p><a href="/kits/pocket/details">View full details</a></div>
  <a href="/kits/pocket/print">Print</a>
  <div class="warranty"><h2>Lifetime warranty</h2><p>If a tool breaks, we replace it for as long as you own it, with no receipt ` +
  `and no questions asked.</p><a href="/warranty">Learn more</a></div>
  <div class="addon"><h3>Spare bit set</h3><p>Eight more bits for the same case, in the sizes a phone repair wears out first.</p>` +
  `<a href="/cart/add?item=spare">Add to cart</a></div>
  <p>Questions about the bits? <a href="/contact">Contact us</a> and a technician answers within a day.</p>
  <a class="card" href="/kits/pro"><h3>Pro driver kit</h3><p>Sixty-four bits for every repair. Learn more</p></a>
  <table><tr><th>Kit</th><th>What it holds</th><th>Order</th></tr><tr><td>Pocket</td><td>Sixteen bits and a driver with a turning cap</td><td><a href="/kits/pocket">Buy now</a></td></tr>` +
  `<tr><td>Pro</td><td>Sixty-four bits, a driver, an extension and a pry tool</td><td><a href="/kits/pro">Buy now</a></td></tr></table>
  </div></main></body></html>`

describe("readable copy: a call to action's link standing alone", () => {
  it("leaves out a link whose whole text names a click, on a page that says it shows a product", () => {
    const text = copy(actions(productLd))
    expect(text).toContain("we replace it for as long as you own it, with no receipt")
    expect(text).not.toContain("View full details")
    expect(text).not.toMatch(/^Learn more$/m)
  })

  it("leaves out a shop's own buttons written as lone links, Add to cart and Print", () => {
    const text = copy(actions(productLd))
    expect(text).toContain("Eight more bits for the same case")
    expect(text).not.toContain("Add to cart")
    expect(text).not.toMatch(/^Print$/m)
  })

  it("keeps such words in a sentence, a card drawn as one link and a table's cell", () => {
    const text = copy(actions(productLd))
    expect(text).toContain("Questions about the bits? Contact us and a technician answers within a day.")
    expect(text).toContain("Sixty-four bits for every repair. Learn more")
    expect(text).toMatch(/Pocket\s+Sixteen bits and a driver with a turning cap\s+Buy now/)
  })

  it("keeps them where the page does not say it shows a product", () => {
    const text = copy(actions(""))
    expect(text).toContain("View full details")
    expect(text).toMatch(/^Learn more$/m)
  })
})

const rated = (head: string) =>
  `<html><head><title>Folding step stool</title>${head}</head><body><main><div class="product-page">
  <h1>Folding step stool</h1>
  <a class="rating-link" href="#reviews"><span class="score">4.9</span><span class="count">2,695 reviews</span></a>
  <div class="stars"><span>4.8 out of 5 stars</span></div>
  <p>A stool of two steps that folds flat to four centimetres, with a handle that carries it and feet ` +
  `that grip a tiled floor, so that the top shelf is in reach without a chair.</p>
  <p>Testers rated it 4.8 out of 5 for how steady it stands, and the frame bears a hundred and fifty kilos.</p>
  <div class="widget"><span>Rated 5 out of 5 stars.</span><span>4 total votes</span></div>
  </div></main></body></html>`

describe("readable copy: a product's rating summary", () => {
  it("leaves out a line whose whole text is a rating or a count of reviews, on a page that says it shows a product", () => {
    const text = copy(rated(productLd))
    expect(text).toContain("A stool of two steps that folds flat")
    expect(text).not.toContain("2,695 reviews")
    expect(text).not.toMatch(/^4\.8 out of 5 stars$/m)
    expect(text).not.toContain("total votes")
  })

  it("keeps a rating cited in a sentence", () => {
    const text = copy(rated(productLd))
    expect(text).toContain("Testers rated it 4.8 out of 5 for how steady it stands")
  })

  it("keeps the summary where the page does not say it shows a product", () => {
    const text = copy(rated(""))
    expect(text).toContain("2,695 reviews")
  })
})

/** A product whose price block writes every state of its price, its class saying which one holds. */
const priced = (head: string, state: string) =>
  `<html><head><title>Enamel teapot</title>${head}</head><body><main><div class="product-page">
  <h1>Enamel teapot</h1>
  <div class="price${state}">
    <div class="price__regular"><span class="visually-hidden">Regular price</span> <span class="price-item">$42.00</span></div>
    <div class="price__sale"><span class="visually-hidden">Regular price</span> <s class="price-item">$42.00</s>` +
  ` <span class="visually-hidden">Sale price</span> <span class="price-item">$35.00</span></div>
    <span class="badge price__badge-sale">Sale</span>
    <span class="badge price__badge-sold-out">Sold out</span>
  </div>
  <p>A teapot of one litre in white enamel over steel, with a strainer of fine mesh that lifts out, so ` +
  `that the leaves open freely and the last cup is as clear as the first.</p>
  </div></main></body></html>`

describe("readable copy: a price block's states", () => {
  it("keeps only the regular price of a block in neither state, without the badges, on a product page", () => {
    const text = copy(priced(productLd, ""))
    expect(text).toContain("A teapot of one litre in white enamel")
    expect(text).toContain("$42.00")
    expect(text).not.toContain("Sale price")
    expect(text).not.toContain("$35.00")
    expect(text).not.toContain("Sold out")
  })

  it("keeps the sale price and the badges the block's state shows", () => {
    const text = copy(priced(productLd, " price--on-sale price--sold-out"))
    expect(text).toContain("Sale price $35.00")
    expect(text).toContain("Sold out")
    expect(text).not.toMatch(/^Regular price \$42\.00$/m)
    expect(text).not.toMatch(/^Sale$/m)
  })

  it("keeps every state where the page does not say it shows a product", () => {
    expect(copy(priced("", ""))).toContain("Sale price $35.00")
  })
})

/** A marketplace's product whose reviews open with a model's summary of them, over the line that says so. */
const summarized = (disclaimer: string) =>
  `<html><head><title>Walnut desk organizer</title></head><body><main><div class="item">
  <h1>Walnut desk organizer</h1>
  <p>An organizer of oiled walnut with three trays and a slot for a phone, its base lined with felt so ` +
  `that it slides on no desk and marks none, and its trays deep enough for pens that stand upright.</p>
  <div class="reviews"><div class="summary-box"><h3>Customers say</h3>
    <div class="summary"><p>Customers like the organizer's finish and sturdiness and find it roomy for ` +
  `its size, though some wish the phone slot were wider for a thick case.</p></div></div>
    <div class="topics"><div class="note"><span>${disclaimer}</span></div>
    <h4>Select to learn more</h4>
    <p>The reviewers who mention its finish call the oiled walnut warm, even and free of marks after a year on a ` +
  `busy desk, and several say it looks better than the pictures of it that the listing shows.</p></div></div>
  </div></main></body></html>`

describe("readable copy: a model's summary of the reviews", () => {
  it("leaves out the summary, its heading and the line that says a model wrote it", () => {
    const text = copy(summarized("AI-generated from customer reviews"))
    expect(text).toContain("An organizer of oiled walnut with three trays")
    expect(text).toContain("The reviewers who mention its finish")
    expect(text).not.toContain("AI-generated")
    expect(text).not.toContain("Customers like the organizer")
    expect(text).not.toContain("Customers say")
  })

  it("keeps a summary no such line closes", () => {
    const text = copy(summarized("Written by our editors"))
    expect(text).toContain("Customers like the organizer")
  })
})

/** A shelf's page whose box of ways to pay says, under the price, that a script is still filling it. */
const checking = (busy: string) =>
  `<html><head><title>Oak shelf unit</title></head><body><main><div class="item">
  <h1>Oak shelf unit</h1>
  <p class="price">$89.99</p>
  <div class="pay"><h2>More ways to pay</h2><div${busy}><div class="pay__body">Checking payment options...</div></div></div>
  <p>A shelf unit of solid oak with eight square cells, each deep enough for a box or a row of books, that ` +
  `stands upright against a wall or lies on its side as a low bench by the window.</p>
  <p>Its back panel is drilled for the wall brackets that come with it, and its feet are capped with felt ` +
  `so that it marks no floor when it is moved from one room to another.</p>
  </div></main></body></html>`

describe("readable copy: a box marked as loading", () => {
  it("leaves out the loading note of a box marked as busy, even above the page's text", () => {
    const text = copy(checking(` aria-busy="true"`))
    expect(text).toContain("A shelf unit of solid oak with eight square cells")
    expect(text).not.toContain("Checking payment options")
  })

  it("keeps the same note above the page's text when no box says it is loading", () => {
    const text = copy(checking(""))
    expect(text).toContain("Checking payment options")
  })
})

/** A shoe's page whose features are written twice: as callouts for wide screens, then as a carousel's slides for phones. */
const twiceFeatures = () => {
  const feature = (title: string, text: string, withText: boolean) =>
    `<div class="feature"><h2>${title}</h2>${withText ? `<p>${text}</p>` : ""}</div>`
  const features = (withText: boolean) =>
    feature("SOFT WOOL", "Superfine fibres feel soft on the skin and keep the foot cool in summer.", withText) +
    feature("LIGHT SOLE", "A sole of foamed sugarcane that weighs little and springs back at each step.", withText)
  return `<html><head><title>Wool runner</title></head><body><main><div class="product">
  <h1>Wool runner</h1>
  <p>A runner knitted of merino wool, made for a walk to the shops as much as for a day on the feet, that ` +
    `goes into the washing machine when it needs to and comes out as it went in.</p>
  <div class="callouts">${features(true)}</div>
  <div class="slides">${features(true)}</div>
  <h2>Care</h2>
  <p>Take out the insoles and the laces and wash them apart by hand; wash the shoes on a cold, gentle ` +
    `cycle and let them dry in the air, away from a radiator.</p>
  </div></main></body></html>`
}

describe("readable copy: a section's title written again over nothing", () => {
  it("leaves out the titles whose repeated text was left out", () => {
    const text = copy(twiceFeatures())
    expect(text.split("SOFT WOOL").length - 1).toBe(1)
    expect(text.split("LIGHT SOLE").length - 1).toBe(1)
    expect(text).toContain("Superfine fibres feel soft on the skin")
    expect(text).toContain("Care")
  })

  it("keeps a title written again over text of its own", () => {
    const text = twiceFeatures().replace(
      `<div class="slides"><div class="feature"><h2>SOFT WOOL</h2><p>Superfine`,
      `<div class="slides"><div class="feature"><h2>SOFT WOOL</h2><p>Wool that breathes in the heat. Superfine`
    )
    expect(copy(text).split("SOFT WOOL").length - 1).toBe(2)
  })
})

/** A doorbell's page whose builder marks each feature card with its state, `paragraph-published`. */
const publishedCards = (extra = "") =>
  `<html><head><title>Doorbell camera</title><meta property="og:type" content="product"></head><body><main>
  <article><div class="product-content">
  <h1>Doorbell camera</h1>
  <p>A doorbell with a camera that sees the whole porch, lights up when someone lingers and tells your ` +
  `phone when a parcel arrives, so that nothing left at the door goes missing unseen.</p>
  <ul class="grid">
    <li><div class="paragraph paragraph-published"><h5>Smarter alerts</h5><p>It tells a person from a passing car.</p></div></li>
    <li><div class="paragraph paragraph-published"><h5>Parcel tracking</h5><p>It sees a parcel arrive and leave.</p></div></li>
  </ul>
  ${extra}
  <p>It fits the wiring of an old doorbell, records every visit to a card inside it, and keeps recording ` +
  `when the wireless network of the house goes down for a while.</p>
  </div></article></main></body></html>`

describe("readable copy: a titled block named like a byline on a product page", () => {
  it("keeps the cards that hold a heading", () => {
    const text = copy(publishedCards())
    expect(text).toContain("Smarter alerts")
    expect(text).toContain("It tells a person from a passing car.")
    expect(text).toContain("It sees a parcel arrive and leave.")
  })

  it("keeps spec rows so named whose label and value are set in headings' type", () => {
    const text = copy(
      headingSpecs("product").replaceAll(`<div class="spec">`, `<div class="paragraph paragraph-published">`)
    )
    expect(text).toContain("Image sensor")
    expect(text).toContain("1664 by 1664 pixels")
    expect(text).toContain("IP 33")
  })

  it("still leaves out a short byline that holds no heading", () => {
    const text = copy(publishedCards(`<div class="post-meta">Published by the shop on 3 May</div>`))
    expect(text).not.toContain("Published by the shop")
    expect(text).toContain("Parcel tracking")
  })
})

/** A camera's page whose specifications set each label in an `h6` over its value in an `h5`. */
const headingSpecs = (og: string) => {
  const row = (label: string, value: string) =>
    `<div class="spec"><div><h6>${label}</h6></div><div><h5>${value}</h5></div></div>`
  const prose = `<p>The camera watches the porch day and night, sends a clip to your phone when someone comes to ` +
    `the door, and keeps a week of recordings on a card inside it, so that nothing is lost when the network drops.</p>`
  return `<html><head><title>Porch camera</title><meta property="og:type" content="${og}"></head><body><main>
  <article><div class="product-content">
  <h1>Porch camera</h1>
  ${prose}${prose}${prose}
  <div class="specs"><h4>Specs</h4>
  ${row("Image sensor", "1664 by 1664 pixels")}${row("Field of view", "180 by 180 degrees")}${
    row("Speaker", "90 decibels")
  }${row("Weatherproof rating", "IP 33")}
  </div>
  ${prose}${prose}
  </div></article></main></body></html>`
}

describe("readable copy: a specifications list set in headings' type on a product page", () => {
  it("keeps each label over its value", () => {
    const text = copy(headingSpecs("product"))
    expect(text).toContain("Image sensor")
    expect(text).toContain("1664 by 1664 pixels")
    expect(text).toContain("Field of view")
    expect(text).toContain("Speaker")
  })
})

/** A wallet's page that writes its list of facts again further on, once for each colour its script may show. */
const variantFacts = (weights: ReadonlyArray<string>) => {
  const facts = (weight: string) =>
    `<div class="variant-facts"><p>MATERIAL</p><p>Anodized aluminium</p><p>WEIGHT</p><p>${weight}</p>` +
    `<p>SIZE</p><p>86 x 54 x 6 mm</p><p>HOLDS</p><p>1 to 12 cards</p></div>`
  const prose = `<p>The wallet holds your cards between two plates held together by an elastic band, so that it ` +
    `stays as thin as the cards it carries, and a clip on its back holds a few notes folded once.</p>`
  return `<html><head><title>Slim wallet</title>${productLd}</head><body><main>
  <div class="product"><h1>Slim wallet</h1>${prose}<div class="summary">${facts(weights[0]!)}</div>
  <p>Made to last a lifetime.</p>${
    weights.slice(1).map((w) => `<section class="details"><div>${facts(w)}</div></section>`).join("")
  }
  ${prose}</div>
  </main></body></html>`
}

describe("readable copy: a product's facts written again for each variant", () => {
  it("keeps one copy of a run of short facts written again block for block", () => {
    const text = copy(variantFacts(["2 oz", "2 oz", "2 oz"]))
    expect(text.split("Anodized aluminium").length - 1).toBe(1)
    expect(text.split("WEIGHT").length - 1).toBe(1)
    expect(text).toContain("1 to 12 cards")
  })

  it("keeps each variant's facts where a value differs", () => {
    const text = copy(variantFacts(["2 oz", "1.6 oz"]))
    expect(text).toContain("2 oz")
    expect(text).toContain("1.6 oz")
    expect(text.split("Anodized aluminium").length - 1).toBe(2)
  })
})

/** A headphone maker's page whose extras each carry a price line its template left as the message key. */
const messageKeys = `<html><head><title>Quiet headphones Q2</title>${productLd}</head><body><main>
  <div class="product"><h1>Quiet headphones Q2</h1>
  <p>The Q2 close around the ear and cancel the noise of a plane's engines or a train, and their battery ` +
  `lasts a whole day of travel, charged again in two hours through the cable in the box.</p>
  <p>Each cup turns flat to slip the headphones into their case, and the band is padded with a foam that ` +
  `keeps its shape for years, so they sit as well on the last day of a journey as on the first.</p>
  <div class="in-the-box">
    <div class="kit-item"><p>A travel case in grey felt, with a pocket inside for the cable and the plane's adapter.</p>` +
  `<p class="price-label">label.custom.product.value</p></div>
    <div class="kit-item"><p>A second pair of ear cushions in soft leather, to swap in when the first wear thin.</p>` +
  `<p class="price-label">label.custom.product.value</p></div>
  </div>
  <h3>settings.audio.noiseLevel</h3>
  <p>The app's setting <a href="/help/settings">app.settings.noiseControl</a> sets how much noise the cups let in.</p>
  </div>
  </main></body></html>`

describe("readable copy: a template's message key left in a block", () => {
  it("leaves out a block whose whole text is a message key", () => {
    const text = copy(messageKeys)
    expect(text).toContain("A travel case in grey felt")
    expect(text).toContain("A second pair of ear cushions")
    expect(text).not.toContain("label.custom.product.value")
  })

  it("keeps a dotted name in a heading or inside a sentence", () => {
    const text = copy(messageKeys)
    expect(text).toContain("settings.audio.noiseLevel")
    expect(text).toContain("app.settings.noiseControl")
  })
})

/** A backpack's page whose questions each sit in an item of their own, the answers folded away until clicked. */
const foldedFaq = (questions: ReadonlyArray<string>) =>
  `<html><head><title>Trail backpack 40L</title>${productLd}</head><body><main>
  <div class="product"><h1>Trail backpack 40L</h1>
  <p>The 40L pack carries a week's gear on its padded frame, with a lid pocket for the map and two side ` +
  `pockets that hold a bottle each, and its straps spread the load over the hips rather than the shoulders.</p>
  <p>Its fabric sheds rain and its seams are taped, and a cover folded into the base pulls over the whole ` +
  `pack when the weather turns, so the sleeping bag inside stays dry.</p>
  <div class="faq-wrap"><div class="faq-title">FAQs</div>${
    questions.map((q) =>
      `<div class="faq-item"><div class="faq-question">${q}</div>` +
      `<div class="faq-answer" style="display: none;">A: Yes, and the answer says how.</div></div>`
    ).join("")
  }</div>
  </div>
  </main></body></html>`

describe("readable copy: a short item among items built alike", () => {
  it("keeps a short question beside longer ones built the same way", () => {
    const text = copy(foldedFaq([
      "Q: Is this backpack light enough for long trails?",
      "Q: Is it durable on rough and rocky ground?",
      "Q: Can it keep the gear dry in heavy rain?",
      "Q: Can I track my order?"
    ]))
    expect(text).toContain("Q: Is this backpack light enough for long trails?")
    expect(text).toContain("Q: Can I track my order?")
  })

  it("still leaves out a short block among only two longer ones", () => {
    const text = copy(foldedFaq([
      "Q: Is this backpack light enough for long trails?",
      "Q: Is it durable on rough and rocky ground?",
      "Q: Can I track my order?"
    ]))
    expect(text).toContain("Q: Is it durable on rough and rocky ground?")
    expect(text).not.toContain("Q: Can I track my order?")
  })
})

/** A jacket's page whose ratings set each label, a drawn chevron after it, against its score. */
const ratedJacket = `<html><head><title>Trail Jacket 41</title>${productLd}</head><body>
  <main><div class="product-page">
    <h1>Trail Jacket 41</h1>
    <div class="description"><p>ExampleShop's Trail Jacket 41 is a light shell for wet days on the hill, ` +
  `sealed at every seam, with a hood that follows the head and vents under the arms for the climbs.</p></div>
    <h3>Performance</h3>
    <div class="performance">${
    [["Windproof", "6"], ["Waterproofness", "5"], ["Breathability", "4"]].map(([label, score]) =>
      `<div class="rating-item"><div class="rating-title"><span class="rating-heading">${label}` +
      `<svg viewBox="0 0 24 24" width="16" height="16"><polyline points="9 18 15 12 9 6"></polyline></svg>` +
      `</span><span>${score}<!-- -->/<!-- -->6</span></div><progress max="6" value="${score}"></progress></div>`
    ).join("")
  }</div>
  </div></main></body></html>`

describe("readable copy: a drawn icon between two words", () => {
  it("keeps a label and the value after its icon apart", () => {
    const text = copy(ratedJacket)
    expect(text).toContain("Windproof 6/6")
    expect(text).toContain("Breathability 4/6")
    expect(text).not.toContain("Windproof6/6")
  })
})

/** A graphics card's features, each a title in an `em` run straight into its sentence. */
const featuredCard = `<html><head><title>Brand Model 41 graphics card</title>${productLd}</head><body>
  <main><div class="product-page">
    <h1>Brand Model 41 graphics card</h1>
    <div class="description"><p>OtherShop sells the Brand Model 41, a graphics card of twelve gigabytes ` +
  `built around two chips, cooled by three fans and made for games on several screens at once.</p>
    <ul class="features">
      <li><span class="content"><img src="/f1.jpg" alt=""><em class="title">Frame Sync</em>The display waits ` +
  `for the card, so that each frame is drawn whole and the picture never tears in a fast turn.</span></li>
      <li><span class="content"><img src="/f2.jpg" alt=""><em class="title">Boost Clock</em>The card raises ` +
  `its own speed while it stays cool, and lowers it again before the fans have to run loud.</span></li>
    </ul></div>
  </div></main></body></html>`

describe("readable copy: an inline title before its text", () => {
  it("keeps a feature's title apart from the sentence it opens", () => {
    const text = copy(featuredCard)
    expect(text).toContain("Frame Sync The display waits")
    expect(text).toContain("Boost Clock The card raises")
  })
})

/** A headphone's specifications, each label with a tooltip's icon whose label only screen readers hear. */
const tippedSpecs = (label: string) =>
  `<html><head><title>Brand Model 41 headphones</title>${productLd}</head><body>
  <main><div class="product-page">
    <h1>Brand Model 41 headphones</h1>
    <div class="description"><p>The Brand Model 41 are open-backed headphones with planar drivers, light ` +
  `enough for a long evening of records and built to be repaired part by part when they wear.</p></div>
    <h2>Specifications</h2>
    <table class="specifications"><tbody>${
    [["Impedance", "37 ohms"], ["Sensitivity", "94 dB"], ["Weight", "372 grams"]].map(([name, value]) =>
      `<tr><td class="specification-title">${name}<tool-tip class="tool-tip"><svg width="15" height="15">` +
      `<circle cx="7" cy="7" r="7"></circle></svg><span class="visually-hidden">${label}</span>` +
      `<div class="tool-tip__content">What ${name} says of how the headphones play.</div></tool-tip></td>` +
      `<td>${value}</td></tr>`
    ).join("")
  }</tbody></table>
  </div></main></body></html>`

describe("readable copy: a tooltip's label for screen readers", () => {
  it("leaves out the short label of each tooltip's icon", () => {
    const text = copy(tippedSpecs("More information"))
    expect(text).toContain("Sensitivity")
    expect(text).toContain("372 grams")
    expect(text).not.toContain("More information")
  })

  it("keeps a longer note written for screen readers in the trigger", () => {
    const note = "Measured at one kilohertz with one milliwatt"
    expect(copy(tippedSpecs(note))).toContain(note)
  })
})

/** A phone maker's feature page: each claim carries a raised note number, the notes listed at its foot. */
const notedFeatures = (marks: ReadonlyArray<string>) =>
  `<html><head><title>Brand Model 41</title>${productLd}</head><body><main>
  <div class="product"><h1>Brand Model 41</h1>
  <div class="feature"><div class="stat">40% higher graphics performance<sup>${marks[0]}</sup></div>
  <p>The new chip draws each frame sooner and spends less of the battery doing it, so that long games ` +
  `stay smooth from the first level to the last without the phone growing warm in the hand.</p></div>
  <div class="feature"><div class="stat">Rated 2 times<sup>${marks[1]}</sup> tougher glass</div>
  <p>The front glass is harder than the one before it and the frame around it is a single piece of ` +
  `metal, so that a fall from the pocket onto a pavement leaves the screen whole and the corners true.</p></div>
  <div class="notes"><p>Figures measured in the maker's own laboratory against the model before, under ` +
  `the same conditions; results in daily use vary with the settings, the network and the apps installed.</p></div>
  </div>
  </main></body></html>`

describe("readable copy: a footnote's raised number", () => {
  it("writes a series of note numbers apart from the word before them", () => {
    const text = copy(notedFeatures(["1", "2"]))
    expect(text).toContain("40% higher graphics performance 1")
    expect(text).toContain("Rated 2 times 2 tougher glass")
    expect(text).not.toContain("performance1")
  })

  it("keeps a raised number with no series beside it joined to its word", () => {
    const text = copy(notedFeatures(["2", "2"]))
    expect(text).toContain("40% higher graphics performance2")
  })
})

/** A case maker's page whose template wrote its UTF-8 text decoded twice ("youâ€™re", "Â®"). */
const garbledCase = (head: string) =>
  `<html><head><meta charset="utf-8"><title>Leather case</title>${head}</head><body><main>
  <div class="product"><h1>Leather case for Brand Model 41</h1>
  <p>If you\u00e2\u0080\u0099re looking for a case that ages well, this one is cut from full-grain leather ` +
  `that darkens into a rich patina, and its bumper takes the knocks of a fall from the pocket.</p>
  <p>It holds the phone to ExampleShop\u00c2\u00ae chargers with magnets built into its back, and ` +
  `it\u00e2\u0080\u0099s made to fit the buttons and the camera\u00e2\u0080\u0099s ring exactly.</p>
  </div>
  </main></body></html>`

describe("readable copy: text decoded twice", () => {
  it("writes the characters a product page's garbled text stands for", () => {
    const text = copy(garbledCase(productLd))
    expect(text).toContain("If you\u2019re looking for a case")
    expect(text).toContain("ExampleShop\u00ae chargers")
    expect(text).toContain("the camera\u2019s ring")
    expect(text).not.toContain("\u00e2")
  })

  it("leaves such text as it stands on a page that shows no product", () => {
    const text = copy(garbledCase(""))
    expect(text).toContain("If you\u00e2\u0080\u0099re looking for a case")
  })
})

/** A kettle's page whose theme sets a kicker, a title and a short paragraph over each section's picture. */
const overlaidSections = (name: string) =>
  `<html><head><title>Brand Model 41 kettle</title>${productLd}</head><body>
  <div class="page"><div class="product"><h1>Brand Model 41 kettle</h1>
  <p>A pour-over kettle with a gooseneck spout, a dial for the temperature to the degree and a ` +
  `stopwatch for the brew, cast in one piece of steel and set on a base that keeps the water warm for an hour.</p>
  <p>It boils a full litre in four minutes and holds any temperature between forty and a hundred degrees, ` +
  `so that green tea, black tea and coffee each get the water they need without a thermometer in the pot.</p></div>
  <div class="section"><div class="${name}"><img src="/dial.jpg" alt="">
  <div class="${name}__content"><div class="${name}__eyebrow">Dial interface:</div>
  <h2 class="${name}__heading">Simple and quick</h2>
  <div class="${name}__text"><p>One dial and a small display set every function in a turn.</p></div></div></div></div>
  <div class="section"><div class="${name}"><img src="/body.jpg" alt="">
  <div class="${name}__content"><h2 class="${name}__heading">One piece casting</h2>
  <div class="${name}__text"><p>A single seamless body, balanced in the hand and built to last.</p></div></div></div></div>
  </div></body></html>`

describe("readable copy: text set over a section's picture", () => {
  it("keeps a section named as text over a picture", () => {
    const text = copy(overlaidSections("image-with-text-overlay"))
    expect(text).toContain("One dial and a small display set every function in a turn.")
    expect(text).toContain("A single seamless body, balanced in the hand and built to last.")
  })

  it("still leaves out a section named as an overlay alone", () => {
    const text = copy(overlaidSections("image-overlay"))
    expect(text).not.toContain("One dial and a small display")
  })

  it("reads only a whole word text before overlay so (context-overlay is an overlay)", () => {
    const text = copy(overlaidSections("context-overlay"))
    expect(text).not.toContain("One dial and a small display")
  })
})

/** A shop theme's product page built of web components: the buy box's blocks sit in a custom element. */
const componentPage = (head: string) =>
  `<html><head><title>Brand Model 41 kettle</title>${head}</head><body><main>
  <product-info class="product__info block">
  <div class="product__title"><h1>Brand Model 41 kettle</h1></div>
  <div class="product__price"><span class="price">$139.99</span></div>
  <div class="product__text"><p>A pour-over kettle with a gooseneck spout, a dial for the temperature to the ` +
  `degree and a stopwatch for the brew, cast in one piece of steel.</p></div>
  <div class="product__features"><ul><li>Precise gooseneck spout</li><li>Hold mode for an hour</li>
  <li>Boil dry protection</li></ul></div>
  <div class="product__details"><p>Capacity: 900 ml to the fill line.</p><p>Power: 1500 W, 120 V.</p></div>
  </product-info>
  <div class="story"><h2>Made for the slow brew</h2><p>Pour-over coffee asks for water a few degrees under ` +
  `the boil, poured in a thin and steady stream; the spout and the dial were drawn for that and nothing else.</p></div>
  </main></body></html>`

describe("readable copy: a product page built of web components", () => {
  it("lays out the blocks inside a custom element as blocks", () => {
    const md = htmlToMarkdown(componentPage(productLd), URL_)
    expect(md).toContain("\n- Precise gooseneck spout\n")
    expect(md).toContain("\nCapacity: 900 ml to the fill line.\n")
    expect(md).not.toContain("steel. Precise")
  })

  it("leaves a page that shows no product as before", () => {
    const md = htmlToMarkdown(componentPage(""), URL_)
    expect(md).toContain("steel. Precise gooseneck spout")
  })
})

/** A shoe shop's buy box written as a Vue template, saved before its script ran: a tooltip and a cart's popup wait on flags. */
const templatedBuyBox = (head: string) =>
  `<html><head><meta charset="utf-8"><title>Canvas sneaker</title>${head}</head><body><main>
  <div class="product" id="app"><h1>Canvas sneaker</h1>
  <p class="price">$110</p>
  <div class="final-sale"><button aria-expanded="false" @click="isNoteOpen = !isNoteOpen">final sale *</button>
  <div v-if="isNoteOpen" class="absolute z-20 w-60 rounded-lg bg-white p-3 shadow-lg">
  <span class="text-xs">Final sale items cannot be returned, canceled, or exchanged</span></div></div>
  <div v-show="addedToCart" class="cart-note"><p>Added to your cart. Free shipping on orders over $75.</p></div>
  <div v-show="activeTab === 'details'" class="details">
  <p>A true original, the canvas sneaker pairs a cotton upper with a cushioned rubber midsole, ` +
  `for a shoe that stays cool in summer, dry in the rain and light on the foot all day long.</p></div>
  <div v-if="product.care"><p>Machine washable: take out the insoles and laces, wash on a gentle cycle and let it dry in the air.</p></div>
  </div>
  </main></body></html>`

describe("readable copy: a box shown on a script's state flag", () => {
  it("leaves out a product page's short boxes that wait on a flag", () => {
    const text = copy(templatedBuyBox(productLd))
    expect(text).toContain("A true original, the canvas sneaker")
    expect(text).toContain("Machine washable")
    expect(text).not.toContain("Final sale items cannot be returned")
    expect(text).not.toContain("Added to your cart")
  })

  it("keeps them on a page that shows no product", () => {
    const text = copy(templatedBuyBox(""))
    expect(text).toContain("Final sale items cannot be returned")
  })

  it("keeps a box shown on the constant true (always shown)", () => {
    const text = copy(templatedBuyBox(productLd).replace(`v-show="addedToCart"`, `v-show="true"`))
    expect(text).toContain("Added to your cart")
  })
})

/** A hair dryer's buy box whose add-to-cart button is a `div` named as one, its hover note inside. */
const boxedButton = (head: string) =>
  `<html><head><meta charset="utf-8"><title>Salon dryer</title>${head}</head><body><main>
  <div class="product"><h1>Salon dryer D3</h1>
  <p class="price">$101.97</p>
  <p>The ceramic heater dries hair faster and gentler, and its ionic setting leaves it smooth, soft and ` +
  `shiny, with two speeds and three heat settings for every kind of hair and every style.</p>
  <div class="quantity"><h6>Quantity</h6><input type="number" value="1"></div>
  <div class="add-to-cart-wrapper"><div class="btn blue add-to-cart variable">Add to cart
  <span class="hover">Select a colour or plug type to add to cart</span></div></div>
  <div class="btn-note">Free shipping on every order over $50 within the country. Spare filters are sold separately.</div>
  </div>
  </main></body></html>`

describe("readable copy: a button drawn as a box", () => {
  it("leaves out a product page's box named as a button whose text opens with a call to action", () => {
    const text = copy(boxedButton(productLd))
    expect(text).toContain("The ceramic heater dries hair faster")
    expect(text).toContain("Free shipping on every order")
    expect(text).not.toContain("Add to cart")
    expect(text).not.toContain("Select a colour or plug type")
  })

  it("keeps it on a page that shows no product", () => {
    const text = copy(boxedButton(""))
    expect(text).toContain("Select a colour or plug type")
  })
})

/** A software maker's product page whose theme writes its microformat's title and stamp into hidden spans. */
const snippetStamp = `<html><head><meta charset="utf-8"><title>Code editor</title>${productLd}</head><body><main>
  <div class="post page"><span class="entry-title rich-snippet-hidden">Code editor: free IDE and tools</span>` +
  `<span class="updated rich-snippet-hidden">2025-12-08T13:42:59-08:00</span>
  <div class="post-content"><h1>Code editor</h1>
  <p>A fully featured, extensible and free editor for building applications for phones, desktops and ` +
  `the web, with a debugger, a profiler and thousands of extensions in one single tool.</p>
  <p class="note">Logs show each event as <span class="log-line">2024-03-01T10:00:00Z</span> in the output pane.</p>
  </div></div>
  </main></body></html>`

describe("readable copy: a machine's stamp named as a date", () => {
  it("leaves out a span named as a date whose whole text is an ISO 8601 instant", () => {
    const text = copy(snippetStamp)
    expect(text).toContain("A fully featured, extensible and free editor")
    expect(text).not.toContain("2025-12-08T13:42:59")
    expect(text).toContain("2024-03-01T10:00:00Z")
  })

  it("keeps such a stamp in a table's cell, its place in the row", () => {
    const table = snippetStamp.replace(
      "</div></div>\n  </main>",
      "<table><tr><th>Build</th><td class=\"date\">2025-11-02T08:00:00Z</td></tr></table></div></div>\n  </main>"
    )
    expect(table).toContain("2025-11-02T08:00:00Z")
    expect(copy(table)).toContain("2025-11-02T08:00:00Z")
  })
})

/**
 * A case maker's page built of feature sections inside its `main`: a picture beside a box holding a
 * title in an `h2` and its paragraph set in an `h6`; the builder marks some sections `role="banner"`.
 */
const bannerFeatures = (role: string) => {
  const feature = (title: string, body: string, banner: boolean) =>
    `<section class="section-4101"><div class="content"${banner ? ` role="${role}"` : ""}>` +
    `<div class="media"><img src="/f.jpg" alt=""></div><div class="text"><div class="copy">` +
    `<h2><span>${title}</span></h2><h6><span>${body}</span></h6></div></div></div></section>`
  return `<html><head><title>Leather case for Brand Model 41</title>${productLd}</head><body>
  <div class="top" role="banner"><a href="/">ExampleShop</a> <a href="/cases">Cases</a> Free returns on every order</div>
  <main id="main-content"><div class="product"><h1>Leather case for Brand Model 41</h1>
  <p>The case is cut from full-grain leather over a frame of hard plastic, lined with microfibre, ` +
    `with buttons of anodized aluminium that click as firmly as the phone's own.</p>
  <p>Its lip stands a millimetre over the screen and the camera, so that the phone can lie face down ` +
    `on a table, and its two lanyard points sit in the reinforced ports of its lower edge.</p>
  <p>The leather is tanned with few chemicals and left unsealed, so that it darkens with the hand ` +
    `that holds it, and the frame inside it is recycled, cut to fit the buttons and the ports exactly.</p></div>
  ${
      feature(
        "Made for magnets",
        "Built with a ring of magnets, the case holds to every magnetic charger and stand.",
        true
      )
    }
  ${
      feature(
        "Rugged patina",
        "With daily use, the leather buffs out marks and scratches into a rich patina of its own.",
        false
      )
    }
  ${feature("Drop protection", "A bumper all around the frame takes the shock of a fall of up to eight feet.", true)}
  </main></body></html>`
}

describe("readable copy: feature sections drawn as banners inside the main", () => {
  it("keeps each section's title and the paragraph set in a heading's type under it", () => {
    const text = copy(bannerFeatures("banner"))
    for (
      const line of [
        "Made for magnets",
        "Built with a ring of magnets",
        "Rugged patina",
        "With daily use",
        "Drop protection",
        "A bumper all around the frame"
      ]
    ) {
      expect(text).toContain(line)
    }
    expect(text).not.toContain("Free returns on every order")
  })
})

/** A book's details as rows, each a label and its value in two spans of their own classes. */
const bookDetails = `<html><head><title>Brand Model 41 field guide</title>${productLd}</head><body><main>
  <div class="product"><h1>Brand Model 41 field guide</h1>
  <p>A field guide to the moths of the northern woods, with a plate for each species drawn from life ` +
  `and a key that leads from the wings' pattern to the name in a few steps.</p>
  <div class="details_section"><h3>Product Key Features</h3>
  <div class="details_row"><span class="details_name">Number of Pages</span><span class="details_value">240 Pages</span></div>
  <div class="details_row"><span class="details_name">ISBN-13</span><span class="details_value">9780000000002</span></div>
  <div class="details_row"><span class="details_name">Format</span><span class="details_value">Hardcover</span></div>
  <div class="details_row"><span class="digit">4</span><span class="digit">2</span></div>
  </div></div>
  </main></body></html>`

describe("readable copy: a label and its value side by side", () => {
  it("writes a label apart from the figure that is its value", () => {
    const text = copy(bookDetails)
    expect(text).toContain("Number of Pages 240 Pages")
    expect(text).toContain("ISBN-13 9780000000002")
    expect(text).toContain("Format Hardcover")
  })

  it("keeps a figure drawn in two parts of one class whole", () => {
    expect(copy(bookDetails)).toContain("42")
  })
})

/** A marketplace's item page: its JSON-LD declares a web page whose main entity offers the product. */
const offeredItem = (entity: string) =>
  `<html><head><title>Oak shelf S2 for sale online</title><script type="application/ld+json">` +
  `{"@type":"WebPage","name":"Oak shelf S2","mainEntity":${entity}}</script></head><body><main><div class="item">
    <h1>Oak shelf S2</h1>
    <div class="details">
      <p>A shelf of solid oak, oiled by hand, with brackets of black steel that hold twenty kilos on a ` +
  `wall of brick or concrete, and a groove along its back for the cables of a lamp.</p>
      <p>Each board is cut from the same tree as the one beside it, so that the grain runs on from one ` +
  `shelf to the next when two are hung side by side.</p>
      <div class="fact"><span class="label">Language</span><span class="value">English</span></div>
      <div class="fact"><span class="label">Weight</span><span class="value">3 kg</span></div>
    </div>
  </div></main></body></html>`

describe("readable copy: a web page whose main entity offers a product", () => {
  it("reads the page as a product's: its short rows of facts stay", () => {
    const text = copy(offeredItem(
      `{"@type":"WebPageElement","offers":{"@type":"Offer","price":"69.00",` +
        `"itemOffered":[{"@type":"Product","name":"Oak shelf S2"}]}}`
    ))
    expect(text).toContain("Language")
    expect(text).toContain("3 kg")
  })

  it("reads a page whose main entity is no product as before", () => {
    const text = copy(offeredItem(`{"@type":"WebPageElement","name":"Shelves"}`))
    expect(text).toContain("solid oak")
    expect(text).not.toContain("3 kg")
  })
})

/** A marketplace's item specifics: each term and value a `dl` alone in a column's box, each side boxed twice. */
const itemSpecifics = () => {
  const pair = (term: string, value: string) =>
    `<div class="section__col"><dl class="labels-values"><dt class="labels"><div class="labels-content">` +
    `<div><span class="textspans">${term}</span></div></div></dt><dd class="values"><div class="values-content">` +
    `<div><span class="textspans">${value}</span></div></div></dd></dl></div>`
  return `<html><head><title>Proof set 2024</title>${productLd}</head><body><main><div class="item">
  <h1>Proof set 2024</h1>
  <p>A proof set of five coins struck in silver, sealed in the mint's own case with its certificate, ` +
    `kept in a dry drawer since it came and never opened.</p>
  <p>Each coin sits in its own window of the case, its mirror field untouched, and the certificate ` +
    `names the set, its year and the number struck, signed by the mint's director.</p>
  <p>The case is shipped in a padded box inside a second box, insured for its full price, and ` +
    `tracked from the day it is posted to the day it is signed for at your door.</p>
  <h2>Item specifics</h2>
  <div class="section__row">${pair("Certification", "Uncertified")}${pair("Denomination", "Half dollar")}</div>
  <div class="section__row">${pair("Mint location", "San Francisco")}${pair("Composition", "Silver")}</div>
  </div></main></body></html>`
}

describe("readable copy: a description list's pair wrapped in boxes", () => {
  it("keeps each term and its value", () => {
    const text = copy(itemSpecifics())
    for (const word of ["Certification", "Uncertified", "Mint location", "San Francisco"]) expect(text).toContain(word)
  })
})

/** A marketplace's book page: its buy box's prices as a script's JSON, left in a block a class hides. */
const bookWithData = () => {
  const data = `{"buybox_group_1":[{"displayPrice":"EUR 15.49","priceAmount":15.49,"currencySymbol":"EUR",` +
    `"integerValue":"15","offerListingId":"a9Xk2%2BQs3wrw","locale":"en-US","hasSpace":true}]}`
  return `<html><head><title>Example Book: ExampleShop</title></head><body><main><div class="item">
  <h1>Example Book Hardcover</h1>
  <div class="section hidden-data price-data">${data}</div>
  <h3>About this book</h3>
  <p>A practical guide to small daily changes, written for readers who have tried to change a habit ` +
    `and found that good intentions fade within a week.</p>
  <p>Each chapter takes one rule, shows it at work in a short story, and closes with a page of ` +
    `exercises a reader can do the same evening.</p>
  <p>Below the data, in a manual's code, a short example stays: <code>{"a": 1}</code>.</p>
  <pre><code>{"displayPrice":"EUR 9.99","priceAmount":9.99,"currencySymbol":"EUR","integerValue":"9","fractionalValue":"99"}</code></pre>
  </div></main></body></html>`
}

describe("readable copy: a script's data left in the page", () => {
  it("leaves out a block whose one text is a JSON object, and keeps JSON shown as code", () => {
    const text = copy(bookWithData())
    expect(text).toContain("A practical guide to small daily changes")
    expect(text).not.toContain("offerListingId")
    expect(text).not.toContain("15.49")
    expect(text).toContain("EUR 9.99")
  })
})

/** A shop whose JSON-LD names the product with the HTML title's escapes, and whose body opens with no heading of its own. */
const escapedLdName = () =>
  `<html><head><title>Lantern</title><script type="application/ld+json">` +
  `{"@context":"https://schema.org","@type":"Product","name":"Brand Model 41 &amp; stand &#8211; indoor &lt;b&gt;"}` +
  `</script></head><body><main><div class="product">
  <p>A lantern that diffuses a few drops of oil over a flame drawn in light, for a table indoors or a ` +
  `balcony, that runs for seven hours and stops by itself once its tank is empty.</p>
  <p>Its shell is acrylic over real bamboo, it charges over a USB cable, and it shrugs off the splashes ` +
  `of a summer evening outside.</p>
  </div></main></body></html>`

describe("readable copy: a JSON-LD name written with HTML escapes", () => {
  it("writes the title's references decoded", () => {
    const md = htmlToMarkdown(escapedLdName(), URL_)
    expect(md).toContain("# Brand Model 41 & stand – indoor \\<b>")
    expect(readerText(md)).toContain("Brand Model 41 & stand – indoor <b>")
    expect(md).not.toContain("&amp;")
    expect(md).not.toContain("&#8211;")
  })
})

/** A product page whose coverage note ends with a "Learn more about …" link, and whose FAQ answer closes with one written as a sentence. */
const learnAbout = () =>
  `<html><head><title>Brand Model 41 amplifier</title>${productLd}</head><body><main><div class="product-page">
  <h1>Brand Model 41 amplifier</h1>
  <p>A valve amplifier of forty watts with two channels, a spring reverb and a footswitch, built by hand ` +
  `in a small workshop and tested for a full day before it ships.</p>
  <div class="coverage"><h2>Total coverage</h2><p>Two years of parts and labour on every amplifier, with ` +
  `a loaner sent while yours is on the bench.</p><a href="/coverage">Learn more about total coverage</a></div>
  <div class="faq"><h3>Does it need a speaker cabinet?</h3><p>It does: the head drives any cabinet of eight or ` +
  `sixteen ohms, and the shop sells one built for it.</p><p><a href="/guides/cabinets">Learn more about choosing a cabinet.</a></p></div>
  </div></main></body></html>`

describe("readable copy: a \"Learn more about …\" link standing alone", () => {
  it("leaves out the button and keeps the link written as a sentence", () => {
    const text = copy(learnAbout())
    expect(text).toContain("with a loaner sent while yours is on the bench")
    expect(text).not.toContain("Learn more about total coverage")
    expect(text).toContain("Learn more about choosing a cabinet.")
  })
})

/** A page builder's section written once per screen, in boxes named `desktop`, `tablet` and `mobile`. */
const screenCopies = () => {
  const specs = (screen: string) =>
    `<div class="${screen}"><div class="dimension-info">` +
    `<div class="chart-item"><p><span>MATERIAL</span></p><p><span>Brushed aluminium</span></p></div>` +
    `<div class="chart-item"><p><span>WEIGHT</span></p><p><span>2 oz</span></p></div>` +
    `<div class="chart-item"><p><span>HOLDS</span></p><p><span>1-12 cards</span></p></div>` +
    `<p>Brand Model 41 is slim without being limiting: carry less and still have what you need.</p></div></div>`
  return `<html><head><title>Brand Model 41 wallet</title>${productLd}</head><body><main><div class="product">
  <h1>Brand Model 41 wallet</h1>
  <p>A front pocket wallet of two aluminium plates held by an elastic band, which grows from one card ` +
    `to twelve and stays as slim as the cards it holds, with a strap for notes on its back.</p>
  <p>Its plates block the radio signals that read cards at a distance, and its edges are rounded so ` +
    `that it slides in and out of a pocket without catching on the seams.</p>
  <h2>Specifications</h2>
  <div class="wallet-dimension">${specs("desktop")}${specs("tablet")}${specs("mobile")}</div>
  </div></main></body></html>`
}

describe("readable copy: a section written once per screen", () => {
  it("keeps the desktop's copy alone", () => {
    const text = copy(screenCopies())
    expect(text).toContain("Brushed aluminium")
    expect(text.match(/Brushed aluminium/g)).toHaveLength(1)
    expect(text.match(/carry less/g)).toHaveLength(1)
  })
})

/** The same, the screen named by a word among the box's classes (`specs desktop-only`, `specs mobile-only`). */
const screenWordCopies = () =>
  screenCopies().replace("class=\"desktop\"", "class=\"specs desktop-only\"").replace(
    "class=\"tablet\"",
    "class=\"specs mobile-only\""
  )
    .replace("class=\"mobile\"", "class=\"specs mobile-only\"")

describe("readable copy: a section written once per screen, named among other classes", () => {
  it("keeps the desktop's copy alone", () => {
    const text = copy(screenWordCopies())
    expect(text).toContain("Brushed aluminium")
    expect(text.match(/Brushed aluminium/g)).toHaveLength(1)
    expect(text.match(/carry less/g)).toHaveLength(1)
  })
})

/**
 * A region banner over a product page, dismissed by an icon's button named only for screen readers
 * (`aria-label="Dismiss region suggestion banner"`), the button holding no text of its own.
 */
const regionBanner = () =>
  `<html><head><title>Magnetic mat</title>${productLd}</head><body><div class="app">
  <header><a href="/">ExampleShop</a></header>
  <div class="fixed bottom-0 left-0 w-full z-50 flex flex-col">
  <div class="flex justify-center items-center p-3 bg-gray-800">
  <div class="flex w-full gap-4 items-center flex-col sm:flex-row max-w-5xl">
  <div class="flex flex-col justify-center gap-0.5 grow items-center">
  <span class="text-white text-xl leading-normal">Shopping is universal</span>
  <span class="text-white text-md leading-normal">See ExampleShop in your region</span></div>
  <div class="flex items-center gap-3 grow"><button class="flex items-center gap-2.5 grow" type="button"
  aria-haspopup="menu" aria-expanded="false"><span class="text-white text-sm">Europe</span></button>
  <button class="flex items-center px-3 h-10">Continue</button></div>
  <button class="ml-1 mr-2 h-7 w-7 hidden sm:flex" aria-label="Dismiss region suggestion banner"><svg
  aria-hidden="true"><use href="#x"></use></svg></button>
  </div></div></div>
  <section class="overview"><h1>Magnetic mat</h1>
  <p>The mat holds every screw you take out of a device where you left it, and its dry-erase surface
  keeps your notes and sketches of where each part goes until you wipe them away.</p></section>
  <section class="details"><h2>Description</h2>
  <p>Designed by fixers for fixers, it lies flat on any bench, rolls up for the toolbox, and holds
  the screws of a laptop with a hundred of them in the order you took them out.</p></section>
  <section class="features"><h2>Magnetic hold</h2>
  <p>Nothing goes missing during a project: the magnetic surface keeps screws and small parts right
  where you left them, even when the mat is bumped or carried to another table.</p></section>
  </div></body></html>`

describe("readable copy: a notice dismissed by a button named for screen readers", () => {
  it("leaves out the region banner and keeps the product's text", () => {
    const text = copy(regionBanner())
    expect(text).toContain("holds every screw")
    expect(text).not.toContain("See ExampleShop in your region")
  })
})

/** A product's name set as the page's `h1` over its buy box, and again as the heading of its description. */
const titleEcho = () =>
  `<html><head><title>Brand Model 41 trail shoe | ExampleShop</title>${productLd}</head><body><main>
  <h1 class="product-title">Brand Model 41 trail shoe</h1>
  <div class="buy-box__variant">Brand Model 41 trail shoe – Natural White</div>
  <div class="description"><h2 class="description__title">Brand Model 41 trail shoe</h2>
  <p>A knitted upper over a cushioned sole, for a shoe you can wear on the path all day and wash in
  the machine when the day is done.</p></div>
  <h2>The details</h2>
  <p>Fine fibres have a soft feel and help keep the foot cool on warm days and warm on cold ones.</p>
  </main></body></html>`

describe("readable copy: the title written again beside itself", () => {
  it("keeps the title once, and a line that holds it and more", () => {
    const text = copy(titleEcho())
    expect(text.match(/Brand Model 41 trail shoe/g)).toHaveLength(2)
    expect(text).toContain("Natural White")
    expect(text).toContain("knitted upper")
  })
})

/** A share link that opens a closed drawer drawn as a dialog, listing the networks again. */
const shareDrawer = () =>
  `<html><head><title>Brand Model 41 kettle</title>${productLd}</head><body><main><div class="product">
  <h1>Brand Model 41 kettle</h1>
  <p>A pour-over kettle of nine tenths of a litre with a gooseneck spout, a dial that sets the ` +
  `water to the degree, and a hold mode that keeps it there for an hour while the coffee brews.</p>
  <p>Its handle is shaped for a steady pour, its body is cast in one piece of steel, and its base ` +
  `turns all the way round so that it sits the same way for left and right hands.</p>
  <details class="accordion"><summary>Warranty</summary><div class="details-content">` +
  `<p>One year, two when the kettle is registered.</p></div></details>
  <div class="share-row"><a class="link" href="https://shop.example/kettles/k1" aria-controls="ShareDrawer-1" ` +
  `aria-expanded="false">Share</a>
  <share-drawer id="ShareDrawer-1" class="drawer fixed" role="dialog" aria-label="Share" hidden>` +
  `<div class="drawer-inner"><span class="drawer-title">Share</span><ul class="buttons">` +
  `<li><a href="https://social.example/sharer?u=k1">Post to OtherNetwork</a></li>` +
  `<li><a href="https://pins.example/create?url=k1">Pin to PinBoard</a></li>` +
  `<li><a href="mailto:?subject=k1">Send by email</a></li></ul></div></share-drawer></div>
  </div></main></body></html>`

describe("readable copy: a closed dialog a control opens", () => {
  it("is not shown as an accordion's answer", () => {
    const text = copy(shareDrawer())
    expect(text).toContain("a gooseneck spout")
    expect(text).not.toContain("Pin to PinBoard")
    expect(text).not.toContain("Post to OtherNetwork")
  })
})

/** A form's error message in an alert box a design system's prefixed classes hide (`ds-alert … ds-display-none`). */
const prefixedAlert = () =>
  `<html><head><title>Brand Model 41 mug</title>${productLd}</head><body><main><div class="listing">
  <h1>Brand Model 41 mug</h1>
  <p>A stoneware mug thrown on the wheel and glazed by hand in an earthy brown, holding thirteen and a ` +
  `half fluid ounces, with a handle wide enough for three fingers and a foot left bare to show the clay.</p>
  <p>Each mug is a little different from the next in its glaze and its shape, and every one is fired ` +
  `twice, so that it is safe in the dishwasher and the microwave.</p>
  <div class="ds-grid"><p class="ds-text">Deliver to ExampleLand</p>
  <div data-submission-error class="ds-alert ds-alert--inline ds-display-none">` +
  `<p class="ds-text">There was a problem calculating your shipping. Please try again.</p></div></div>
  </div></main></body></html>`

describe("readable copy: an alert a design system's prefixed classes hide", () => {
  it("is left out", () => {
    const text = copy(prefixedAlert())
    expect(text).toContain("a foot left bare")
    expect(text).not.toContain("problem calculating")
  })
})

/** A gallery's "image unavailable" alert (`role="alert"`) inside a slide a prefixed class hides (`ds-hidden`). */
const hiddenSlideAlert = () =>
  `<html><head><title>Brand Model 41 notebook</title>${productLd}</head><body><main><div class="product">
  <h1>Brand Model 41 notebook</h1>
  <ul class="gallery"><li class="slide"><img src="/n1.jpg" alt=""></li>
  <li class="slide unavailable ds-hidden"><span class="item"><div class="box" role="alert">` +
  `<h4 class="heading">Image Unavailable</h4><div class="content">Image not available for this colour</div></div>` +
  `</span></li></ul>
  <p>A notebook of one hundred and sixty pages of dotted paper, sewn so that it lies flat when open, with ` +
  `a cover of recycled board, a ribbon to keep the page and a pocket inside the back cover.</p>
  <p>Its paper takes fountain pen ink without bleeding through, and each page is numbered, with an index ` +
  `at the front for the pages that matter.</p>
  </div></main></body></html>`

describe("readable copy: an alert inside a box a prefixed class hides", () => {
  it("is left out", () => {
    const text = copy(hiddenSlideAlert())
    expect(text).toContain("lies flat when open")
    expect(text).not.toContain("Image not available")
  })
})

/**
 * A product page whose gallery holds, beside its pictures, the notice a script shows when a
 * colour has no picture, hidden by a utility class with a short namespace (`u-hidden`).
 */
const prefixHidden = () =>
  `<html><head><title>Brand Model 41 earbuds</title>${productLd}</head><body><main><div class="product">
  <ul class="gallery">
  <li class="gallery-item"><img src="/a.jpg" alt=""></li>
  <li class="gallery-item"><img src="/b.jpg" alt=""></li>
  <li class="gallery-item gallery-unavailable u-hidden"><div class="notice"><h4>Image Unavailable</h4>` +
  `<span>Image not available for Colour:</span></div></li>
  </ul>
  <h1>Brand Model 41 earbuds</h1>
  <p>Wireless earbuds with a charging case shaped like a capsule, six hours of play on one charge and ` +
  `fifty with the case, and a microphone that keeps calls clear in a noisy street.</p>
  <p>Each bud weighs four grams and sits half in the ear, so it stays comfortable through a long ` +
  `afternoon, and it resists sweat and rain.</p>
  </div></main></body></html>`

describe("readable copy: a box hidden by a class with a short namespace", () => {
  it("leaves the hidden notice out", () => {
    const text = copy(prefixHidden())
    expect(text).toContain("charging case shaped like a capsule")
    expect(text).not.toContain("Image Unavailable")
    expect(text).not.toContain("not available for")
  })
})

/**
 * A shop theme's product title written twice: the page's `h1`, then, beside it, a heading inside
 * a link to the product itself (for the theme's quick-view window, hidden on the product's page).
 */
const titleLink = () =>
  `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main><section class="product">
  <div class="product__info"><h1 class="heading-4">Steel kettle K1</h1>
  <a href="/kettles/k1" class="product__title"><h2 class="h1"> Steel kettle K1 </h2></a>
  <p>A steel kettle that boils a full litre in four minutes, its lid opened by a button on the handle, ` +
  `its base turning on a cord that winds beneath it.</p>
  <p>It shuts itself off once the water boils or the kettle runs dry, and its filter keeps scale ` +
  `out of the cup.</p>
  <p>Its handle stays cool, its window shows the water's level, and its spout pours without a drip.</p>
  </div></section></main></body></html>`

describe("readable copy: the title written again as a link to the page", () => {
  it("writes the title once", () => {
    const md = htmlToMarkdown(titleLink(), URL_)
    expect(md).toContain("boils a full litre")
    expect(md).toContain("# Steel kettle K1")
    expect(md).not.toContain("[Steel kettle K1]")
  })
})

/** A kettle's page with two boxes named by a short prefix before `hidden`: a namespace's, a negation's. */
const prefixedHidden = () =>
  `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main>
  <h1>Steel kettle K1</h1>
  <p>A steel kettle that boils a full litre in four minutes, its lid opened by a button on the handle, ` +
  `its base turning on a cord that winds beneath it.</p>
  <div class="u-hidden"><p>No picture is available for this colour yet.</p></div>
  <div class="un-hidden"><p>Care: descale the kettle once a month with a spoon of citric acid in a ` +
  `litre of water, then boil it twice with clean water.</p></div>
  <div class="bg-alert d-none"><p>Delivery in two days to every address on the mainland.</p></div>
  <div class="c-alert un-hidden"><p>Orders placed before noon leave the warehouse the same day.</p></div>
  </main></body></html>`

/** A box that links to a guide whose label for screen readers names a dismissal, over the page's title. */
const dismissalGuide = () =>
  `<html><head><title>Employment law guide</title></head><body><main>
  <div class="intro"><p>Read about unfair dismissal at work, what a tribunal can award and how long ` +
  `a claim may take.</p><a href="/guide" aria-label="Guide to unfair dismissal">Read the guide</a></div>
  <h1>Employment law guide</h1>
  <p>An employer must give a reason for ending a contract, and a worker who has been employed for ` +
  `two years may bring a claim when the reason is not a fair one.</p>
  <p>The guide explains each step of a claim, from the first letter to the hearing, and what each ` +
  `side must show.</p>
  </main></body></html>`

/** A banner holding a heading, dismissed by a link or by an icon's button (`control`), over a product page. */
const headedBanner = (control: string) =>
  `<html><head><title>Magnetic mat</title>${productLd}</head><body><main>
  <div class="banner"><h2>Repair is universal</h2><p>Parts and guides for every region.</p>${control}</div>
  <h1>Magnetic mat</h1>
  <p>The mat holds every screw you take out of a device where you left it, and its dry-erase surface ` +
  `keeps your notes of where each part goes until you wipe them away.</p>
  </main></body></html>`

/** Pages whose title's words stand again near it in a block that is no echo. */
const onlyTitle = () =>
  `<html><head><title>Carpe diem</title></head><body><main><p>Carpe diem.</p></main></body></html>`
const quotedTitle = () =>
  `<html><head><title>Carpe diem</title></head><body><main><h1>Carpe diem</h1>
  <blockquote><p>Carpe diem</p></blockquote>
  <p>Two words of an ode, which tell the reader to pluck the day and trust as little as may be to the ` +
  `morrow: the poet's advice to a friend who asked the stars how long they would live.</p>
  </main></body></html>`

describe("readable copy: the thirty-second round's rules, read as narrowly as they are meant", () => {
  it("a box named by a negation's or a colour's prefix is shown; a namespace's hides it", () => {
    const text = copy(prefixedHidden())
    expect(text).toContain("descale the kettle")
    expect(text).toContain("Delivery in two days")
    expect(text).toContain("leave the warehouse the same day")
    expect(text).not.toContain("No picture is available")
  })
  it("a label that names a dismissal elsewhere than at its start dismisses nothing", () => {
    expect(copy(dismissalGuide())).toContain("unfair dismissal at work")
  })
  it("a banner that holds a heading is read alike whichever control dismisses it", () => {
    const byLink = copy(headedBanner(`<a href="/dismiss-banner">Close</a>`))
    const byButton = copy(
      headedBanner(`<button aria-label="Dismiss banner"><svg aria-hidden="true"><use href="#x"></use></svg></button>`)
    )
    expect(byLink).toContain("Repair is universal")
    expect(byButton).toContain("Repair is universal")
  })
  it("a page that says nothing but its title, and a quote of the title, keep them", () => {
    expect(htmlToMarkdown(onlyTitle(), URL_)).toMatch(/\n# Carpe diem\n\nCarpe diem\.\n$/)
    expect(htmlToMarkdown(quotedTitle(), URL_)).toContain("> Carpe diem")
  })
})

/** A product page whose spec table waits for a script: every cell hidden but one stray value. */
const hollowSpecTable = () =>
  `<html><head><title>Brand Model 41 headphones</title></head><body><main><h1>Brand Model 41 headphones</h1>
  <p>The Model 41 are open-back headphones with large planar drivers, a warm sound with a full bass, ` +
  `and ear pads of soft leather that stay comfortable through a long evening of listening.</p>
  <table class="spec-table"><thead><tr><td>Specifications</td><td></td></tr></thead><tbody>${
    ["Style", "Driver type", "Magnet", "Driver size", "Impedance", "Weight"]
      .map((name) => `<tr><td><p hidden>${name}</p></td><td><p hidden>value of ${name}</p></td></tr>`)
      .join("")
  }<tr><td><p hidden>Sensitivity</p></td><td><p>101 dB/1mW at the drum reference point</p></td></tr></tbody></table>
  <h2>Compare</h2>
  <table class="compare"><tr><th>Feature</th><th>Model 41</th><th>Model 20</th></tr>${
    ["Open back", "Planar driver", "Leather pads", "Travel case"]
      .map((name) => `<tr><td>${name}</td><td><img src="/tick.svg" alt=""></td><td></td></tr>`)
      .join("")
  }</table>
  </main></body></html>`

/** A product page whose description opens with a jump back up to the page's navigation. */
const backJump = () =>
  `<html><head><title>Brand Model 41 interface</title></head><body><main><h1>Brand Model 41 interface</h1>
  <p>Four inputs and four outputs, USB-C, in stock.</p>
  <article id="desc" class="item-text">
  <a href="#descLink" id="descTop" class="section-top__link" tabindex="-1">Back to navigation</a>
  <h2>A serious overhaul</h2>
  <p>Four inputs, four outputs, two microphone preamps with gain that sets itself, and a converter ` +
  `that records at up to 192 kHz, all powered over one USB cable from the computer.</p>
  <p>Two years of parts and labour, and a service department that answers the phone. ` +
  `<a href="https://shop.example/posts">Back to posts</a> lists the shop's other articles.</p>
  </article></main></body></html>`

/** A product page whose accessories strip the script never filled: its loader's title over no items. */
const unfilledStrip = () =>
  `<html><head><title>Brand Model 41 interface</title></head><body><main><h1>Brand Model 41 interface</h1>
  <p>Four inputs, four outputs, two microphone preamps with gain that sets itself, and a converter ` +
  `that records at up to 192 kHz, all powered over one USB cable from the computer.</p>
  <div class="product-suggest"><product-suggest></product-suggest>
  <div class="product-suggest__loader"><div class="t-h2">Most Popular Accessories &amp; Related Items</div>
  <div class="product-suggest__loader-items"></div></div></div>
  <div class="file-uploader"><p>Send us a photo of your setup, and we will answer it.</p></div>
  <h2>Warranty</h2><p>Two years of parts and labour, and a service department that answers the phone.</p>
  </main></body></html>`

describe("readable copy: the thirty-third round's product pages (3, 6, 9, …)", () => {
  it("a table left hollow (its rows nearly all empty) is left out; one that keeps its labels stays", () => {
    const md = htmlToMarkdown(hollowSpecTable(), URL_)
    expect(md).not.toContain("Specifications")
    expect(md).not.toContain("drum reference point")
    expect(md).toContain("| Leather pads |")
    expect(md).toContain("warm sound with a full bass")
  })
  it("a link back up to the page's navigation goes with the skip links; one to another page stays", () => {
    const text = copy(backJump())
    expect(text).not.toContain("Back to navigation")
    expect(text).toContain("Back to posts")
    expect(text).toContain("parts and labour")
  })
  it("a box named as a loader, a strip's title over no items, is left out; an uploader stays", () => {
    const text = copy(unfilledStrip())
    expect(text).not.toContain("Most Popular Accessories")
    expect(text).toContain("Send us a photo of your setup")
    expect(text).toContain("parts and labour")
  })
})

/**
 * An auction page saved with a modal dialog open: the script that opened the dialog marked the
 * page's `main` `aria-hidden="true"` so that screen readers read the dialog alone. A box behind
 * it that is no main landmark keeps being left out.
 */
const inertMain = (landmark: string) =>
  `<html><head><title>Brand Model 41 clutch kit | ExampleShop</title></head><body>
  <header><nav><a href="/">ExampleShop</a> <a href="/deals">Deals</a> <a href="/help">Help</a></nav></header>
  <div role="dialog" aria-modal="true"><h2>Ship to</h2><p>Choose a region.</p></div>
  ${landmark}
  <h1>Brand Model 41 clutch kit</h1>
  <p>EUR 355.58</p>
  <p>International shipment of items may be subject to customs processing and additional charges.</p>
  <div aria-hidden="true"><p>Watch this item to see when its price drops.</p></div>
  <p>Read the item's description or contact the seller for details before you buy the clutch kit.</p>
  <p>ExampleShop item number: 4049283</p>
  </${landmark.startsWith("<main") ? "main" : "div"}>
  <footer><p>Copyright ExampleShop</p></footer></body></html>`

/**
 * A grill's product page whose theme repeats the buy box in a bar that slides in once the reader
 * scrolls past it (`c-addcartsticky`), and keeps its pictures in a column that only stays in view
 * (`product__column-sticky`), which holds no buy control.
 */
const stickyBar = () =>
  `<html><head><title>Brand Model 41 grill | ExampleShop</title>
  <meta property="og:type" content="product"></head><body><main>
  <div class="product__column-sticky"><p>Stainless steel grate, folding legs and a lid with a thermometer.</p></div>
  <h1>Brand Model 41 grill</h1>
  <p class="price">149.00 EUR</p>
  <p>A charcoal grill of brushed stainless steel with a cooking surface of sixty centimetres, an ` +
  `adjustable air vent and a removable ash pan that empties without tipping the grill over.</p>
  <p>Its legs fold flat for the car boot, and its grate lifts out for the dishwasher after a ` +
  `summer evening's cooking for the whole family and the neighbours too.</p>
  <div class="c-addcartsticky"><div class="c-addcartsticky__leftside"><p>Sticky Brand Model 41 grill</p>` +
  `<p>Only 149.00 EUR today</p></div><div class="c-addcartsticky__rightside"><button>Add to cart</button></div></div>
  </main></body></html>`

describe("readable copy: the thirty-third round's product pages (1, 4, 7, …)", () => {
  it("a main landmark a modal dialog marked aria-hidden is shown, a box so marked inside it not", () => {
    for (const landmark of [`<main role="presentation" aria-hidden="true">`, `<div role="main" aria-hidden="true">`]) {
      const text = copy(inertMain(landmark))
      expect(text).toContain("subject to customs processing")
      expect(text).toContain("contact the seller for details")
      expect(text).not.toContain("Watch this item")
    }
  })
  it("a product page's sticky buy bar is left out, a column that only stays in view kept", () => {
    const text = copy(stickyBar())
    expect(text).toContain("removable ash pan")
    expect(text).toContain("folding legs and a lid")
    expect(text).not.toContain("Only 149.00 EUR today")
  })
})

/** A marketplace's item page: its summary scored, its specifics as short rows, a list of the shop's categories in `main`. */
const exploreLinks = ["Steel Kettles", "Glass Kettles", "Travel Kettles", "Kettle Filters", "Tea Pots", "Milk Frothers"]
const kettleRow = (k: string, v: string) =>
  `<div class="row"><div><span>${k}</span></div><div><span>${v}</span></div></div>`
const kettleFacts: ReadonlyArray<readonly [string, string]> = [
  ["Capacity", "1.5 litres"],
  ["Colour", "Silver"],
  ["Material", "Steel"],
  ["Handle", "Plastic"],
  ["Power", "2200 watts"],
  ["Base", "Turns round"],
  ["Window", "Glass"],
  ["Filter", "Removable"],
  ["Cord", "75 cm"],
  ["Weight", "1.1 kg"],
  ["Made in", "Portugal"],
  ["Year", "2009"],
  ["Voltage", "230 volts"],
  ["Lid", "Opens wide"],
  ["Switch", "Lit when on"],
  ["Feet", "Rubber"],
  ["Scale", "Litres and cups"],
  ["Warranty", "None"],
  ["Box", "Original box"],
  ["Manual", "Included"],
  ["Model", "Model 41"],
  ["Series", "Classic"],
  ["Finish", "Brushed"],
  ["Spout", "Wide"]
]
const kettleItemPage = () =>
  `<html><head><title>Brand Model 41 kettle</title><script type="application/ld+json">` +
  `{"@context":"https://schema.org","@type":"Product","name":"Brand Model 41 kettle",` +
  `"offers":{"@type":"Offer","price":"18.00","priceCurrency":"USD"}}</script></head><body>
  <main>
  <div class="columns"><div class="gallery"><img src="/k.jpg" alt=""></div>
  <div class="summary"><h1><span>Brand Model 41 kettle</span></h1>
  <p>Condition: used, with a few marks of use on its base and handle, and a clean filter.</p>
  <p>Shipping: US $15.47 by post to any address in the country, tracked, within a day.</p>
  <p>Returns: 30 days, the buyer pays for return shipping, and the refund follows within a week.</p></div></div>
  <div class="tabs"><div class="panel"><div class="section"><h2>Item specifics</h2>${
    kettleFacts.map(([k, v]) => kettleRow(k, v)).join("")
  }</div></div></div>
  <div class="seller"><div class="section"><h2>About this seller</h2>${kettleRow("Joined", "Feb 1999")}${
    kettleRow("Sold", "16K items")
  }${kettleRow("Feedback", "99.7% positive")}</div></div>
  <div class="seo"><div><h2><span>More to explore :</span></h2><ul class="seo-list">${
    exploreLinks.map((n, i) => `<li><a href="/b/${i}"><span>${n}</span><span>,</span></a></li>`).join("")
  }</ul></div></div>
  </main></body></html>`

describe("readable copy: a list of nothing but links in a product page's main", () => {
  it("is the shop's categories, not entries the page lists: the visible text leaves it out", () => {
    const text = copy(kettleItemPage())
    expect(text).toContain("Item specifics")
    expect(text).toContain("Litres and cups")
    expect(text).toContain("Feb 1999")
    expect(text).not.toContain("Glass Kettles")
  })
})

describe("readable copy: a product page's copy closing on a heading", () => {
  it("leaves out the heading its left-out list leaves over nothing, and keeps those over text", () => {
    const md = htmlToMarkdown(kettleItemPage(), URL_)
    expect(md).toContain("## Item specifics")
    expect(md).toContain("## About this seller")
    expect(md).not.toContain("More to explore")
  })
})

/** A product page whose details sit in a box named as a sticky bar that names no buy control. */
const stickyDetails = () =>
  `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main>
  <h1>Steel kettle K1</h1>
  <p>A steel kettle that boils a full litre in four minutes, its lid opened by a button on the handle, ` +
  `its base turning on a cord that winds beneath it.</p>
  <div class="sticky-bar-container"><h2>Details</h2><p>The lid holds a thermometer that reads the ` +
  `water's heat to the degree, and the spout pours a thin stream for coffee.</p></div>
  <div class="sticky-atc"><span>Steel kettle K1</span><span>49.00 EUR</span><a href="/cart">Add to cart</a></div>
  </main></body></html>`

/** An article's table with one row of steps and empty spacer rows between its parts. */
const spacedTable = () =>
  `<html><head><title>How to light a grill</title></head><body><main><article>
  <h1>How to light a grill</h1>
  <p>A chimney starter lights charcoal without lighter fluid: fill it, light the paper beneath it, ` +
  `and wait until the top coals are covered in grey ash before you pour them out.</p>
  <table><tr><th>Step</th><th>Time</th></tr>${"<tr><td></td><td></td></tr>".repeat(3)}` +
  `<tr><td>Light the coals</td><td>10 min</td></tr>${"<tr><td></td><td></td></tr>".repeat(3)}</table>
  <p>Spread the coals on one side of the grate for a hot zone and a cool one, and close the lid for ` +
  `five minutes so that the grate heats through before the food goes on.</p>
  </article></main></body></html>`

/** A box a script loads lazily, holding a shop's returns note, and a link back to another page's menu. */
const lazyBox = () =>
  `<html><head><title>Steel kettle K1</title>${productLd}</head><body><main>
  <h1>Steel kettle K1</h1>
  <p>A steel kettle that boils a full litre in four minutes, its lid opened by a button on the handle, ` +
  `its base turning on a cord that winds beneath it.</p>
  <div class="lazy-loader"><p>Free returns within 30 days of delivery.</p></div>
  <p>Also sold in our café: <a href="/cafe/menu#teas">Back to the menu</a></p>
  </main></body></html>`

describe("readable copy: the thirty-third round's rules, read as narrowly as they are meant", () => {
  it("a sticky box that names no buy control is content; a sticky buy bar is not", () => {
    const text = copy(stickyDetails())
    expect(text).toContain("holds a thermometer")
    expect(text).not.toContain("Add to cart")
  })
  it("a table's spacer rows do not make it hollow", () => {
    expect(htmlToMarkdown(spacedTable(), URL_)).toContain("| Light the coals | 10 min |")
  })
  it("a page that lists a group of products keeps the links its main lists", () => {
    const group = kettleItemPage().replace("<head>", `<head><meta property="og:type" content="product.group">`)
    expect(copy(group)).toContain("Glass Kettles")
  })
  it("a box that loads lazily is no loader's stand-in; a link to another page's menu is no jump back up", () => {
    const text = copy(lazyBox())
    expect(text).toContain("Free returns within 30 days")
    expect(text).toContain("Back to the menu")
  })
})

/**
 * A feedback form under a product's summary whose thanks wait, hidden by a design system's
 * prefixed class, in live regions a script shows once the reader has answered; and a live region
 * that is not hidden (a stock note a script updates).
 */
const feedbackThanks = () =>
  `<html><head><title>Brand Model 41 kettle</title>${productLd}</head><body><main><div class="product">
  <h1>Brand Model 41 kettle</h1>
  <p>A glass kettle of one litre and seven tenths, lit from below in blue while it boils, its filter ` +
  `lifted out for rinsing and its base turning all the way round on a cord that winds beneath it.</p>
  <p class="stock" aria-live="polite">Only 3 left in stock.</p>
  <div class="ds-section feedback"><h2>Feedback</h2><p>Did you find this summary useful?</p>
  <div class="ds-section ds-hide"><div class="ds-section ds-padding">
  <div class="ds-box ds-box-success ds-hide" aria-live="polite"><div class="ds-box-inner">` +
  `<div class="ds-box-content">You selected "Yes, it is useful"</div></div></div>
  <div class="ds-box ds-box-success ds-hide" role="status"><div class="ds-box-inner">` +
  `<div class="ds-box-content">You chose "No, it is not useful"</div></div></div>
  </div></div></div>
  </div></main></body></html>`

describe("readable copy: a status message hidden until the reader acts", () => {
  it("a short live region hidden by its class is left out; one shown stays", () => {
    const text = copy(feedbackThanks())
    expect(text).toContain("lit from below in blue")
    expect(text).toContain("Only 3 left in stock")
    expect(text).toContain("Did you find this summary useful?")
    expect(text).not.toContain("You selected")
    expect(text).not.toContain("You chose")
  })
})

/**
 * A game's store page (it declares no product) whose reviews area shows, under the score a script
 * fills in, the filters applied to the reviews as chips (`active_filter`) in a box named
 * `…__active-filters`; a box whose class only says the list has filters applied
 * (`has-active-filters`) holds the page's own notes.
 */
const filteredReviews = () =>
  `<html><head><title>Brand Model 41 on ExampleShop</title></head><body><main>
  <h1>Brand Model 41</h1>
  <p>A puzzle game of light and mirrors across forty rooms, each opened by bending one beam ` +
  `of light around the pillars that the last room left standing in its way.</p>
  <div class="reviews">
  <h2>Customer reviews for Brand Model 41</h2>
  <div class="reviews__score">
  <div class="reviews__line"><div class="reviews__label">English Reviews:</div> <span>Very Positive</span> ` +
  `<span>(2,104 reviews)</span></div>
  <div class="reviews__line">Total reviews in all languages: <span>3,120</span> <span>Very Positive</span></div>
  </div>
  <div class="has-active-filters"><p>Each room may be played again from the map once it is solved, ` +
  `and the mirrors keep where they were left.</p></div>
  <div class="reviews__bar">
  <div role="group" class="reviews__active-filters">
  <div class="reviews__label">Filters</div>
  <div role="button" class="active_filter"></div>
  <div role="button" class="active_filter">Excluding Off-topic Review Activity</div>
  <div role="button" class="active_filter">Playtime: <span></span></div>
  </div>
  </div>
  </div>
  </main></body></html>`

/**
 * A game's store page whose description is followed by the publisher's terms in a box whose id
 * names it as legal print; a section titled by a heading whose slug ends in "legal" stays.
 */
const legalBox = () =>
  `<html><head><title>Brand Model 41 on ExampleShop</title></head><body><main>
  <h1>Brand Model 41</h1>
  <p>A puzzle game of light and mirrors across forty rooms, each opened by bending one beam ` +
  `of light around the pillars that the last room left standing in its way.</p>
  <p>Each room opens on a new tool: a prism that splits the beam in three, a lens that gathers it ` +
  `again, a pane of coloured glass that lets through only one of the colours the prism made.</p>
  <p>Rooms may be played in any order within each wing of the house, and the last room of a wing ` +
  `asks for every tool its rooms have taught, turned against the walls of a single hall.</p>
  <h2 id="is-it-legal">Is it legal to share a save?</h2>
  <p>Saves may be shared with friends, and each friend's game keeps its own rooms and its own mirrors.</p>
  <div id="product_area_legal"><p>ACCEPTANCE OF THE EXAMPLESHOP USER AGREEMENT REQUIRED TO PLAY. ` +
  `An ExampleShop account and an internet connection are required to play; the publisher will ` +
  `share your account id with ExampleShop.</p></div>
  </main></body></html>`

describe("readable copy: the thirty-fourth round's product pages (1, 4, 7, …)", () => {
  it("a box whose id names legal print is left out; a heading whose slug ends in legal stays", () => {
    const text = copy(legalBox())
    expect(text).not.toContain("USER AGREEMENT")
    expect(text).toContain("Is it legal to share a save?")
    expect(text).toContain("Saves may be shared with friends")
  })
  it("a box of the filters applied to a list is left out; a box that only has filters applied stays", () => {
    const text = copy(filteredReviews())
    expect(text).not.toContain("Excluding Off-topic")
    expect(text).toContain("Each room may be played again")
    expect(text).toContain("Total reviews in all languages")
  })
})

const socksSummary = "These quarter socks are knitted for comfort and cut to stand out: higher than an ankle sock, " +
  "lower than a calf sock, and right for a hundred different shoes, walks and lazy Sundays."

/** A product page a script builds in the browser: its markup holds the frame, its description the product. */
const scriptBuiltSocks = (ld: string) =>
  `<html><head><title>Quarter Socks - ExampleShop</title><meta name="description" content="${socksSummary}">` +
  `${ld}</head><body>
  <div id="app"><div class="product-root"></div></div>
  <div class="newsletter"><p>Enter your email for 10% off your first order,</p><p>plus the latest news.</p>
  <p>By providing my email, I consent to receive emails. See our <a href="/privacy">Privacy Policy</a>.</p></div>
  <footer><p>Our team is your go-to when you need a recommendation, a return, or just a reason to smile.</p>
  <p>Notice to consumers: we may collect identifiers and commercial information when you visit this website.</p></footer>
  </body></html>`

const socksLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",` +
  `"name":"Quarter Socks","description":"<p>${socksSummary}</p>",` +
  `"offers":{"@type":"Offer","price":"14.00","priceCurrency":"USD"}}</script>`

/** The same product's data without a description of its own: the page's `description` may be the shop's. */
const socksLdUndescribed = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",` +
  `"name":"Quarter Socks","offers":{"@type":"Offer","price":"14.00","priceCurrency":"USD"}}</script>`

describe("readable copy: a product's description where the copy holds none of it", () => {
  it("writes the description of a script-built product page under its title", () => {
    const text = copy(scriptBuiltSocks(socksLd))
    expect(text).toContain("These quarter socks are knitted for comfort")
    expect(text.indexOf("Quarter Socks")).toBeLessThan(text.indexOf("knitted for comfort"))
  })
  it("writes it once where the copy says it already, and not on a page that shows no product", () => {
    const said = scriptBuiltSocks(socksLd).replace(`<div class="product-root"></div>`, `<p>${socksSummary}</p>`)
    expect(copy(said).split("knitted for comfort").length).toBe(2)
    expect(copy(scriptBuiltSocks(""))).not.toContain("knitted for comfort")
  })
})

/** An item page whose own `h1` comes fourth, under a strip's heading and a sticky card's lines. */
const lateTitle = () =>
  `<html><head><title>Steel kettle K1 | ExampleShop</title>${productLd}</head><body><main>
  <div class="strip"><h2>People who viewed this item also viewed</h2></div>
  <div class="summary-card"><p>Sat, Nov 02, 04:33 AM</p><p>Ships from Lyon within two days</p></div>
  <h1>Steel kettle K1</h1>
  <p>The K1 is a steel kettle of one and a half litres, with a base that turns all the way round, a ` +
  `lid that opens wide for cleaning, and a filter that keeps the scale out of your cup.</p>
  </main></body></html>`

describe("readable copy: a page's own title a few blocks down", () => {
  it("is not written again above the body", () => {
    const md = htmlToMarkdown(lateTitle(), URL_)
    expect(md.split("# Steel kettle K1").length).toBe(2)
    expect(md).toContain("a filter that keeps the scale out of your cup")
  })
  it("a heading that says other words leaves the page's title written above", () => {
    const md = htmlToMarkdown(lateTitle().replace("<h1>Steel kettle K1</h1>", "<h1>Kettles</h1>"), URL_)
    expect(md).toContain("# Steel kettle K1")
  })
})

/** A manual's page whose sections are wrapped under their headings' slugs, one of them `legal`. */
const manualWithLegalSection = (legal: string) =>
  `<html><head><title>Reading pages offline</title></head><body><main><div class="body" role="main">
  <h1>Reading pages offline</h1>
  <p>The reader keeps a copy of each page you save, with its pictures, in a folder of its own, ` +
  `so that a page read on the train is the page you saved, not whatever its site shows today.</p>
  <p>Copies are written once and never changed: a page saved again is a second copy beside the first, ` +
  `and the list of copies says when each was made and from which address it came.</p>
  <p>A copy opens without the network; links inside it lead to the site as it is now, and a link ` +
  `to another saved page opens that page's copy instead.</p>
  <p>The folder can be moved to another machine or shared with a friend: nothing in it names the ` +
  `machine it was made on, and every copy holds its own pictures.</p>
  ${legal}
  </div></main></body></html>`

describe("readable copy: the thirty-fourth round's rules, read as narrowly as they are meant", () => {
  it("a section whose wrapper or heading carries the slug legal stays", () => {
    const wrapped = copy(manualWithLegalSection(
      `<section id="legal"><h2>Legal</h2><p>The reader is free software under the MIT licence; ` +
        `the pages you save stay yours and under their own sites' terms.</p></section>`
    ))
    expect(wrapped).toContain("Legal")
    expect(wrapped).toContain("free software under the MIT licence")
    const inHeading = htmlToMarkdown(
      manualWithLegalSection(
        `<h2><span class="headline" id="Legal">Legal</span></h2><p>The reader is free software under the ` +
          `MIT licence; the pages you save stay yours and under their own sites' terms.</p>`
      ),
      URL_
    )
    expect(inHeading).toMatch(/^## Legal$/m)
  })
  it("a box that says its list has filters applied stays behind a prefix too", () => {
    for (
      const state of ["collection collection--has-active-filters", "js-has-active-filters", "facets__no-active-filters"]
    ) {
      const text = copy(filteredReviews().replace(`class="has-active-filters"`, `class="${state}"`))
      expect(text).toContain("Each room may be played again")
      expect(text).not.toContain("Excluding Off-topic")
    }
  })
  it("a live region hidden on small screens only stays", () => {
    const text = copy(
      feedbackThanks().replace(
        `<p class="stock" aria-live="polite">Only 3 left in stock.</p>`,
        `<div class="d-none d-md-block"><div role="status">In stock: ships from Lyon today if ordered before 3 pm.</div></div>`
      )
    )
    expect(text).toContain("ships from Lyon today")
    expect(text).not.toContain("You selected")
  })
  it("a product's description is its data's, written as text; a page's description alone is not added", () => {
    const text = copy(scriptBuiltSocks(socksLd))
    expect(text).toContain("These quarter socks are knitted for comfort")
    expect(text).not.toContain("<p>")
    expect(copy(scriptBuiltSocks(socksLdUndescribed))).not.toContain("knitted for comfort")
  })
  it("a long copy in a script written without spaces gets no description", () => {
    const paragraphs = Array.from(
      { length: 20 },
      (_, i) =>
        `<p>第${i + 1}章。この靴下は綿と麻を編んだもので、足首より高く、ふくらはぎより低い丈です。` +
        `毎日の散歩にも、週末の山歩きにも合い、洗濯機で何度洗っても形が崩れません。` +
        `色は白、黒、紺、灰の四色で、どの靴にも合わせやすく作られています。` +
        `かかとと爪先は二重に編まれ、長く履いても薄くなりにくく、縫い目は指に当たらない位置にあります。</p>`
    ).join("\n")
    const page = scriptBuiltSocks(socksLd).replace(
      `<div class="product-root"></div>`,
      `<div class="product-root">${paragraphs}</div>`
    )
    const text = copy(page)
    expect(text).toContain("第20章")
    expect(text).not.toContain("knitted for comfort")
  })
  it("a page's own title a few blocks down opens the copy", () => {
    const md = htmlToMarkdown(lateTitle(), URL_)
    const body = md.replace(/^---\n[\s\S]*?\n---\n/, "").trimStart()
    expect(body.startsWith("# Steel kettle K1\n")).toBe(true)
    expect(md).toContain("People who viewed this item also viewed")
  })
})

/** A shop's app page: the product says little, its footer box (a styled component's name) much, a screen-reader menu more. */
const appFooterPage = (ld: string) => {
  const menu = ["Men", "Women", "Kids", "Gifts"].map((m) =>
    `<div class="nav-section"><div class="nav-title">${m}</div>${
      Array.from({ length: 8 }, (_, i) =>
        `<div class="nav-links"><a href="/${m}/${i}">${m} socks, style number ${i}</a></div>`)
        .join("")
    }</div>`
  ).join("")
  return `<html><head><title>Quarter Socks | ExampleShop</title>${ld}</head><body>
  <div id="root"><div class="Layout__Content-sc-f1e2d3-0 aBc"><section class="Product-styled__Product-sc-1a2b3c-7 dEf">
    <h1 class="ProductDetails-styled__Header-sc-4d5e6f-6 gHi">Quarter Socks</h1>
    <div class="ProductDetails-styled__Price-sc-4d5e6f-8 jKl">$14</div>
    <p class="ProductDetails-styled__Tagline-sc-4d5e6f-9 mNo">Just enough cushion for your everyday shoes</p>
  </section></div>
  <div class="Footer-styled__Footer-sc-7a8b9c-0 pQr">
    <div class="FooterEmail-styled__Container-sc-0a1b2c-0 sTu"><p>Enter your email for 20% off your first order, ` +
    `plus the latest ExampleShop news.</p>
    <p>By providing my email, I am consenting to receive ExampleShop emails and email-based advertising. For ` +
    `additional information, please see our <a href="/privacy">Privacy Policy</a>.</p></div>
    <p class="Footer-styled__CareBody-sc-7a8b9c-6 vWx">The ExampleShop Customer Care Team is your go-to when ` +
    `you need a recommendation, a return, or just a reason to smile. Seriously, reach out.</p>
    <div class="Footer-styled__Notice-sc-7a8b9c-19 yZa"><strong>Notice to Consumers: </strong><span>ExampleShop may ` +
    `collect identifiers, commercial information, internet or other electronic network activity, and geolocation ` +
    `data when you visit this website, and may use such information to draw inferences and for other operational ` +
    `and commercial purposes.</span></div>
  </div>
  <div class="visually-hidden">${menu}</div></div></body></html>`
}

const socksOfferLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",` +
  `"name":"Quarter Socks","offers":{"@type":"Offer","price":"14.00","priceCurrency":"USD"}}</script>`

describe("readable copy: a box named as the site's footer beside a product's title", () => {
  it("stays out when the page is scored again without its furniture names", () => {
    const text = copy(appFooterPage(socksOfferLd))
    expect(text).toContain("Just enough cushion for your everyday shoes")
    expect(text).not.toContain("Customer Care Team")
    expect(text).not.toContain("Notice to Consumers")
  })
})

/** An item page whose strip of other items, a heading over a carousel of cards, stands above the item's `h1`. */
const stripAboveTitle = (head: string, heading: string) =>
  `<html><head><title>Enamel teapot T2 | ExampleShop</title>${head}</head><body><main>
  <section class="x9f2"><div class="k1"><h2>${heading}</h2></div>
  <div class="carousel" role="group"><ul class="carousel__list">${
    ["Glass teapot G4", "Cast iron teapot C1", "Porcelain teapot P7"].map((name) =>
      `<li class="carousel__item"><a href="/item/${name.length}"><img src="/i.jpg" alt=""></a>` +
      `<p class="card">${name}, one litre, shipped from Lyon</p></li>`
    ).join("")
  }</ul></div></section>
  <h1>Enamel teapot T2</h1>
  <p>The T2 is an enamelled steel teapot of one litre, with a strainer that lifts out for cleaning, a ` +
  `handle that stays cool, and a lid held by a small catch so it does not fall when you pour.</p>
  <p>It goes on gas, electric and induction hobs alike, and the enamel is fired twice so it keeps its ` +
  `colour after years of washing.</p>
  <p>Each pot is pressed from one sheet of steel, so there is no seam at the base to rust, and the spout ` +
  `is shaped to stop dripping when you set the pot down after pouring a full cup.</p>
  <p>The strainer is fine enough for rooibos and loose green tea, and wide enough that the leaves open ` +
  `fully while they steep; a spare strainer and a second lid are sold by the shop.</p>
  </main></body></html>`

describe("readable copy: a strip of other products above the product's title", () => {
  it("is left out on a page that shows one product", () => {
    const text = copy(stripAboveTitle(productLd, "People who viewed this item also viewed"))
    expect(text).toContain("a strainer that lifts out for cleaning")
    expect(text).not.toContain("People who viewed this item also viewed")
    expect(text).not.toContain("Cast iron teapot C1")
  })
  it("stays under another heading, or where the page does not say it shows a product", () => {
    expect(copy(stripAboveTitle(productLd, "Made in the same workshop"))).toContain("Made in the same workshop")
    expect(copy(stripAboveTitle("", "People who viewed this item also viewed"))).toContain(
      "People who viewed this item also viewed"
    )
  })
})

/**
 * A headphone page whose theme writes the product's features from its data, in a box named for them.
 * Its text's box is not named as the description (descriptionTab.ts `descriptionBox`): on a page this
 * short that box would hold most of the text and stand alone as the content.
 */
const headphoneFeatures = (box: string) =>
  `<html><head><title>Brand Model 41 Headphones - ExampleShop</title>` +
  `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product",` +
  `"name":"Brand Model 41 Headphones","offers":{"@type":"Offer","price":"199.00","priceCurrency":"USD"}}</script>` +
  `</head><body>
  <header class="site-header"><a href="/">ExampleShop</a></header>
  <main><div class="product">
  <h1>Brand Model 41 Headphones</h1>
  <div class="product__text rte"><p>Welcome to your all-access pass to immersive sound. The Model 41
  levels up your listening with adjustable bass and noise cancelling that adapts to your world, or blocks it
  out completely, and an app that tunes the sound to your own hearing.</p>
  <p>Personalized sound? You got it. With the app, dial in your hearing profile, tweak the equalizer, and
  assign your own functions to each button, so that the sound is yours, your way, every day.</p>
  <p>Whether you are front row at a show, on a train, at your desk, or zoning in with zero distractions, the
  cushions stay soft, the band stays light, and the battery lasts for days of listening.</p></div>
  <div class="${box}"><div class="feature-icons"><div class="feature-icons__row">
  <div class="feature-icons__item"><div class="feature-icons__icon"><img src="/bass.svg" alt="icon"></div>
  <div class="feature-icons__text">Multi-sensory bass technology</div></div>
  <div class="feature-icons__item"><div class="feature-icons__icon"><img src="/mic.svg" alt="icon"></div>
  <div class="feature-icons__text">Adjustable noise cancelling</div></div>
  <div class="feature-icons__item"><div class="feature-icons__icon"><img src="/battery.svg" alt="icon"></div>
  <div class="feature-icons__text">Sixty hours plus rapid charge</div></div>
  <div class="feature-icons__item"><div class="feature-icons__icon"><img src="/ear.svg" alt="icon"></div>
  <div class="feature-icons__text">Personal sound profile</div></div>
  <div class="feature-icons__item"><div class="feature-icons__icon"><img src="/link.svg" alt="icon"></div>
  <div class="feature-icons__text">Multipoint pairing</div></div>
  <div class="feature-icons__item"><div class="feature-icons__icon"><img src="/app.svg" alt="icon"></div>
  <div class="feature-icons__text">Customizable in the app</div></div>
  </div></div></div>
  <details class="accordion"><summary><h2>Additional features</h2></summary><ul>
  <li>Adjustable stay-aware mode</li><li>Preset EQ modes for music, movies and podcasts</li>
  <li>Flat-folding and collapsible design</li></ul></details>
  </div></main>
  <footer class="site-footer"><p>© ExampleShop</p></footer>
  </body></html>`

describe("readable copy: a product's own fields named as Shopify's metafields", () => {
  it("keeps a box of features named as a metafield, as one named otherwise", () => {
    const text = copy(headphoneFeatures("product-metafield"))
    expect(text).toContain("Multi-sensory bass technology")
    expect(text).toContain("Sixty hours plus rapid charge")
    expect(copy(headphoneFeatures("product-block"))).toContain("Multi-sensory bass technology")
  })
  it("still reads a post's meta box as furniture", () => {
    const text = copy(headphoneFeatures("entry-meta"))
    expect(text).not.toContain("Multi-sensory bass technology")
    expect(text).toContain("Adjustable stay-aware mode")
  })
})

/** A hundred and fifty links of a shop's menu, as a box before or after the product's own wrapper. */
const shopLinks = (cls: string) =>
  `<div class="${cls}">${
    Array.from({ length: 150 }, (_, i) => `<a href="/c/${i}">Kitchen category number ${i}</a>`).join(" ")
  }</div>`

describe("readable copy: the thirty-fifth round's rules, read as narrowly as they are meant", () => {
  it("a strip above the title never takes the product's own wrapper with it", () => {
    const page = stripAboveTitle(productLd, "People who viewed this item also viewed")
      .replace("<main>", `${shopLinks("menu-links")}<div id="mainContent">`)
      .replace("</main>", `</div>${shopLinks("bottom-links")}`)
    const text = copy(page)
    expect(text).toContain("Enamel teapot T2")
    expect(text).toContain("a strainer that lifts out for cleaning")
    expect(text).not.toContain("Cast iron teapot C1")
  })
  it("a group of products keeps a strip above its title", () => {
    const group = `<meta property="og:type" content="product.group">`
    expect(copy(stripAboveTitle(group, "People who viewed this item also viewed"))).toContain(
      "People who viewed this item also viewed"
    )
  })
  it("the footer stays in where the page lists a group of products or shows no title beside it", () => {
    const group = copy(
      appFooterPage(`<meta property="og:type" content="product.group">`).replace(
        /<h1 [^>]*>Quarter Socks<\/h1>/,
        `<h1>All socks</h1>`
      )
    )
    expect(group).toContain("Customer Care Team")
    const untitled = copy(
      appFooterPage(socksOfferLd).replace(/<h1 [^>]*>Quarter Socks<\/h1>/, `<p>Quarter Socks</p>`)
    )
    expect(untitled).toContain("Customer Care Team")
  })
})

/** A product page with a reviews tab under its specifications: `reviews` is what that tab holds. */
const reviewsTabPage = (head: string, reviews: string) =>
  `<html><head><title>Brand Model 41 memory kit</title>${head}</head><body><main>
<h1>Brand Model 41 memory kit</h1>
<p>Two modules of sixteen gigabytes each, tuned for the newest desktop boards, with a low profile
heat spreader that fits under large coolers and a lifetime warranty from the maker.</p>
<div class="tab-pane"><h2>Specifications</h2><table>
<tr><th>Capacity</th><td>32 GB (2 x 16 GB)</td></tr><tr><th>Speed</th><td>DDR5 6000</td></tr>
<tr><th>Voltage</th><td>1.35 V</td></tr><tr><th>Colour</th><td>Black</td></tr></table></div>
<div class="tab-pane"><h2>Customer Reviews of the Brand Model 41</h2>${reviews}</div>
<div class="tab-pane"><h2>Warranty &amp; Returns</h2><p>Return for refund within 30 days; the
maker's warranty covers parts and labour for the life of the kit.</p></div>
</main></body></html>`

describe("readable copy: a product's reviews section that holds no review", () => {
  it("is left out, its heading with its notice and its prompt", () => {
    const text = copy(
      reviewsTabPage(
        productLd,
        `<div class="message"><span class="message-title">There are no reviews yet.</span>
<p>Do you own this product?</p><p><button type="button">Write a review</button></p></div>`
      )
    )
    expect(text).not.toContain("Customer Reviews of the Brand Model 41")
    expect(text).not.toContain("There are no reviews yet")
    expect(text).not.toContain("Do you own this product?")
    expect(text).toContain("Warranty & Returns")
    expect(text).toContain("DDR5 6000")
  })
  it("stays with a review in it, on a page that shows no product and on a group of products", () => {
    const reviewed = copy(reviewsTabPage(
      productLd,
      `<p>No reviews of other kits ran this cool: mine stays
under forty degrees through a whole evening of rendering, and it ran at its rated speed at once.</p>`
    ))
    expect(reviewed).toContain("Customer Reviews of the Brand Model 41")
    expect(reviewed).toContain("mine stays under forty degrees")
    const notice = `<p>There are no reviews yet.</p>`
    expect(copy(reviewsTabPage("", notice))).toContain("There are no reviews yet")
    const group = `<meta property="og:type" content="product.group">${productLd}`
    expect(copy(reviewsTabPage(group, notice))).toContain("There are no reviews yet")
  })
  it("stays with a short review that opens with the words \"no reviews\"", () => {
    const text = copy(reviewsTabPage(
      productLd,
      `<p>No reviews I read prepared me for how cool it runs. Five stars from me.</p>
<p>— Dana, verified buyer</p>`
    ))
    expect(text).toContain("Customer Reviews of the Brand Model 41")
    expect(text).toContain("No reviews I read prepared me")
    expect(text).toContain("Dana, verified buyer")
  })
  it("ends at the first block that is neither the notice nor the prompt, which stays", () => {
    const text = copy(reviewsTabPage(
      productLd,
      `<p>There are no reviews yet.</p><p>Do you own this product?</p>
<p><b>Warranty:</b> lifetime, parts and labour; ships from Ohio.</p>`
    ))
    expect(text).not.toContain("Customer Reviews of the Brand Model 41")
    expect(text).not.toContain("There are no reviews yet")
    expect(text).not.toContain("Do you own this product?")
    expect(text).toContain("lifetime, parts and labour; ships from Ohio.")
    const accordion = copy(reviewsTabPage(
      productLd,
      `<p>There are no reviews yet.</p><div class="accordion"><div class="accordion__item">
<button type="button" id="acc-b1" aria-expanded="true" aria-controls="acc-p1"><span>Care</span></button>
<div id="acc-p1" role="region" aria-labelledby="acc-b1"><p>Wipe with a dry cloth.</p></div></div></div>`
    ))
    expect(accordion).not.toContain("There are no reviews yet")
    expect(accordion).toContain("Care")
    expect(accordion).toContain("Wipe with a dry cloth.")
  })
  it("stays under a heading longer than 120 characters", () => {
    const long = "Thirty-two gigabytes in two black modules for the newest desktop boards and their " +
      "coolers: Customer Reviews of the Brand Model 41"
    const text = copy(
      reviewsTabPage(productLd, `<p>There are no reviews yet.</p>`)
        .replace("Customer Reviews of the Brand Model 41", long)
    )
    expect(text).toContain(long)
    expect(text).toContain("There are no reviews yet")
  })
})

/** A shop's item page drawn by its script: little text, read by the visible fallback; `cls` names the chat prompt. */
const chatPromptPage = (cls: string) =>
  `<html><head><title>Brand Model 41 kettle</title>${productLd}</head><body>
<div id="app"><div class="container_a1"><div class="${cls}"><span>Video Chat with a Kitchen Expert - Live</span>
<button>Chat Now</button></div>
<div class="crumbs_b2"><a href="/">Home</a> <a href="/kitchen">Kitchen</a></div>
<h1>Brand Model 41 kettle</h1><div class="sku_c3">ES # BM41K • MFR # 41-K</div>
<div class="stock_d4">Expected availability: 2-4 Weeks</div><div class="price_e5">$49.00</div>
<div class="ship_f6">Free Standard Shipping</div></div></div></body></html>`

describe("readable copy: a live chat's prompt over a shop's item", () => {
  it("is left out when its box is named as a chat banner", () => {
    const text = copy(chatPromptPage("chatBanner_x1Ab chatBannerBorder_y2"))
    expect(text).not.toContain("Video Chat with a Kitchen Expert")
    expect(text).toContain("Brand Model 41 kettle")
    expect(text).toContain("Expected availability: 2-4 Weeks")
  })
  it("stays where the name is a negation's or a longer word", () => {
    expect(copy(chatPromptPage("no-chat-banner"))).toContain("Video Chat with a Kitchen Expert")
    expect(copy(chatPromptPage("chatBannerBorder_y2"))).toContain("Video Chat with a Kitchen Expert")
  })
  it("reads the state words of every name alike, and a part between any joints", () => {
    for (const cls of ["with-chat-widget", "without-chat-banner", "no--chat-banner", "is-chat-bubble"]) {
      expect(copy(chatPromptPage(cls)), cls).toContain("Video Chat with a Kitchen Expert")
    }
    for (const cls of ["chat_banner", "live_chat_banner", "piano-chat-banner"]) {
      expect(copy(chatPromptPage(cls)), cls).not.toContain("Video Chat with a Kitchen Expert")
    }
  })
})

/** A fire pit's page whose details sit in an accordion: each title a button naming the panel it opens. */
const panelPage = (head: string) =>
  `<html><head><title>Fire pit F24</title>${head}</head><body>
  <header class="site-header"><a href="/">ExampleShop</a></header>
  <main><div class="product-page">
    <h1>Fire pit F24</h1>
    <p>Our tallest flame yet: a smokeless fire pit of stainless steel that seats five to seven people around it.</p>
    <div class="accordion">
      <div class="accordion__item">
        <button type="button" id="acc-b1" aria-expanded="true" aria-controls="acc-p1" class="accordion__button">
          <style>.css-1tt87wd{font-weight:500;flex:1;text-align:left;font-family:var(--fonts-body)}</style>
          <span class="css-1tt87wd">Dimensions &amp; Materials</span></button>
        <div id="acc-p1" role="region" aria-labelledby="acc-b1"><ul><li>Height: 39.1 cm (15.4 in)</li>
          <li>Width: 62.5 cm (24.6 in)</li><li>Material: stainless steel, brushed by hand in the workshop</li></ul></div>
      </div>
      <div class="accordion__item">
        <button type="button" id="acc-b2" aria-expanded="false" aria-controls="acc-p2" class="accordion__button">
          <span>Safety, Care, and Use</span></button>
        <div id="acc-p2" role="region" aria-labelledby="acc-b2" style="display:none"><p>Never leave a lit fire
          unattended, and keep a fire extinguisher or a bucket of water within reach of the fire pit.</p></div>
      </div>
    </div>
  </div></main>
  <footer class="site-footer"><p>© ExampleShop</p></footer>
  </body></html>`

describe("readable copy: an accordion's titles written as its buttons", () => {
  it("a product's page shows each button's title over the panel it opens", () => {
    const text = copy(panelPage(productLd))
    expect(text).toContain("Dimensions & Materials")
    expect(text).toContain("Safety, Care, and Use")
    expect(text).toContain("Never leave a lit fire")
    expect(text.indexOf("Dimensions & Materials")).toBeLessThan(text.indexOf("Height: 39.1 cm"))
    expect(text).not.toContain("font-weight")
  })
  it("a page that shows no one product leaves the buttons out", () => {
    const text = copy(panelPage(`<meta property="og:type" content="product.group">`))
    expect(text).toContain("Height: 39.1 cm")
    expect(text).not.toContain("Dimensions & Materials")
  })
  it("reads the button as a browser does: the first element of an id, any id of its list", () => {
    const later = `<div class="drawer" hidden><div id="acc-p1"><p>Sizes drawer</p></div></div></main>`
    const twice = copy(panelPage(productLd).replace("</main>", later))
    expect(twice).toContain("Dimensions & Materials")
    const listed = copy(panelPage(productLd).replace(`aria-controls="acc-p1"`, `aria-controls="acc-x acc-p1"`))
    expect(listed).toContain("Dimensions & Materials")
  })
  it("leaves out a tab, a control that opens a list, and a button whose panel stands further on", () => {
    const tab = copy(panelPage(productLd).replace(`aria-controls="acc-p1"`, `aria-controls="acc-p1" role="tab"`))
    expect(tab).not.toContain("Dimensions & Materials")
    const popup = copy(
      panelPage(productLd).replace(`aria-controls="acc-p1"`, `aria-controls="acc-p1" aria-haspopup="listbox"`)
    )
    expect(popup).not.toContain("Dimensions & Materials")
    const between = `<p>Measured in the workshop before it ships, with every part weighed on the same scale.</p>`
    const far = copy(panelPage(productLd).replace(`<div id="acc-p1"`, `${between}<div id="acc-p1"`))
    expect(far).toContain("Measured in the workshop before it ships")
    expect(far).not.toContain("Dimensions & Materials")
  })
  it("counts a label's characters as the copy shows them: a style sheet's spaces do not shorten it", () => {
    // 87 characters shown: over the 80 a panel's title may hold, however the style sheet is spaced.
    const long = "Dimensions, materials and the care this fire pit needs through every season of the year"
    const spaced = panelPage(productLd)
      .replace("<style>.css", `<style>${" ".repeat(40)}.css`)
      .replace("Dimensions &amp; Materials", long)
    const text = copy(spaced)
    expect(text).toContain("Height: 39.1 cm")
    expect(text).not.toContain(long)
    expect(text).toContain("Safety, Care, and Use")
  })
  it("counts a label's characters as the copy shows them: its line breaks and indents are one space", () => {
    const broken = "Dimensions, materials and care of the\n" + " ".repeat(40) + "fire pit"
    const text = copy(panelPage(productLd).replace("Dimensions &amp; Materials", broken))
    expect(text).toContain("Dimensions, materials and care of the fire pit")
    expect(text.indexOf("Dimensions, materials and care")).toBeLessThan(text.indexOf("Height: 39.1 cm"))
  })
})

/**
 * A maker's feature page whose claims carry raised marks that link to its disclaimers at the foot
 * (`<sup><a href="#footnote-2">2</a></sup>`), three or more of them; `mark` writes each one.
 */
const linkedNotes = (mark: (n: number) => string) =>
  `<html><head><title>Brand Model 41</title>${productLd}</head><body><main>
  <div class="product"><h1>Brand Model 41</h1>
  <p>The new chip draws each frame sooner and spends less of the battery doing it.${mark(1)} Long games ` +
  `stay smooth from the first level to the last without the phone growing warm in the hand.</p>
  <p>The front glass is harder than the one before it${mark(2)} and the frame around it is a single piece ` +
  `of metal, so that a fall from the pocket onto a pavement leaves the screen whole.</p>
  <p>A full charge lasts a day and a half of ordinary use,${mark(3)} and half an hour on the cable gives ` +
  `back most of a day, so that a forgotten night on the charger costs little.</p>
  </div>
  <div class="disclaimers"><p id="footnote-1">1. Measured in the maker's own laboratory.</p></div>
  </main></body></html>`

describe("readable copy: a footnote's raised mark that links to the page's notes", () => {
  it("leaves out a series of raised marks linking to notes on the page", () => {
    const text = copy(linkedNotes((n) => `<sup class="footnote"><a href="#footnote-${n}">${n}</a></sup>`))
    expect(text).toContain("spends less of the battery doing it. Long games stay smooth")
    expect(text).toContain("harder than the one before it and the frame")
    expect(text).not.toContain("doing it. 1")
    expect(text).not.toContain("before it 2")
  })

  it("leaves out a raised mark of several linked numbers", () => {
    const text = copy(
      linkedNotes((n) => `<sup><a href="#desc-section">${n}</a>,<a href="#desc-section">${n + 3}</a></sup>`)
    )
    expect(text).toContain("ordinary use, and half an hour")
  })

  it("keeps a bracketed citation and a raised link to another page", () => {
    const cited = copy(linkedNotes((n) => `<sup><a href="#cite-${n}">[${n}]</a></sup>`))
    expect(cited).toContain("[2]")
    const elsewhere = copy(linkedNotes((n) => `<sup><a href="/notes/${n}">${n}</a></sup>`))
    expect(elsewhere).toMatch(/before it\s*2/)
  })

  it("keeps two raised marks linking to the page's notes, fewer than a series", () => {
    const two = copy(linkedNotes((n) => (n < 3 ? `<sup><a href="#footnote-${n}">${n}</a></sup>` : "")))
    expect(two).toMatch(/before it\s*2/)
  })

  it("keeps an article's own footnotes' marks when the copy holds the notes", () => {
    const mark = (n: number) => `<sup id="fnref:${n}"><a href="#fn:${n}" class="footnote">${n}</a></sup>`
    const text = readerText(htmlToMarkdown(
      `<html><head><title>Under the crust</title></head><body><main><article>
      <h1>Under the crust</h1><p class="date">March 3, 2024</p>
      <p>Heat rises from the earth's centre${mark(1)}, and it moves the plates of rock above it so slowly ` +
        `that a lifetime sees them travel no further than a fingernail grows in the same years.</p>
      <p>The deepest hole ever drilled${mark(2)} reached only a small part of the way through the crust, ` +
        `where the rock was already far hotter than the drillers had planned for when they began.</p>
      <p>What lies below is known from the way earthquake waves bend${mark(3)} as they pass through layers ` +
        `of different stiffness, the way light bends in water, read at stations around the world.</p>
      <div class="footnotes"><ol>
      <li id="fn:1"><p>The centre is about as hot as the surface of the sun. <a href="#fnref:1">↩</a></p></li>
      <li id="fn:2"><p>The hole is a little over twelve kilometres deep. <a href="#fnref:2">↩</a></p></li>
      <li id="fn:3"><p>Waves of two kinds travel at different speeds. <a href="#fnref:3">↩</a></p></li>
      </ol></div>
      </article></main></body></html>`,
      "https://blog.example/posts/under-the-crust"
    ))
    expect(text).toContain("The centre is about as hot as the surface of the sun.")
    expect(text).toMatch(/the earth's centre\s*1/)
    expect(text).toMatch(/ever drilled\s*2/)
  })
})

/** A chair maker's list of features whose third item opens its bold label before the item itself. */
const misnestedFeatures = (third: string) =>
  `<html><head><title>Task chair C2</title>${productLd}</head><body><main>
  <div class="product"><h1>Task chair C2</h1>
  <p>A task chair built for long days at the desk, with a mesh back that moves with the sitter and a ` +
  `seat that can be set for any height of desk; sold by us since the first model came out.</p>
  <h3>Standard features:</h3>
  <ul>
  <li><b>Back angle. </b> While seated, pull the paddle up, find the angle, then push it down to lock.</li>
  <li><b>Seat height. </b> To lower, lift the paddle while seated; to raise, lift it standing.</li>
  ${third}
  <li><b>Headrest. </b> The headrest slides up and down through ten centimetres of travel.</li>
  </ul>
  </div></main></body></html>`

describe("readable copy: a list item whose bold label opens before the item", () => {
  it("keeps the item's text after the label", () => {
    const text = copy(
      misnestedFeatures(`<b><li>Seat angle. </b> Tilt the seat three degrees forward with the front lever.</li>`)
    )
    expect(text).toContain("Seat angle.")
    expect(text).toContain("Tilt the seat three degrees forward with the front lever.")
    expect(text).toContain("The headrest slides up and down")
  })

  it("adds no separator set between a list's items to them", () => {
    const text = copy(misnestedFeatures(`<li><b>Seat angle. </b> Tilt the seat forward.</li> / `))
    expect(text).toContain("Tilt the seat forward.")
    expect(text).not.toContain("Tilt the seat forward. /")
  })

  it("adds no words to an item that ends in a code block, a quote or a nested list", () => {
    const code = htmlToMarkdown(
      misnestedFeatures(
        `<li>Install the driver:<pre><code>sudo apt install chair-driver</code></pre></li> then restart the desk`
      ),
      URL_
    )
    expect(code).toContain("sudo apt install chair-driver\n  ```\n- Headrest.")
    expect(code).not.toContain("then restart the desk")
    const quote = copy(misnestedFeatures(`<li><blockquote>Best chair ever.</blockquote></li> said a buyer`))
    expect(quote).not.toContain("said a buyer")
    const parts = copy(misnestedFeatures(`<li>Parts<ul><li>Back rest</li></ul></li> and more besides`))
    expect(parts).not.toContain("and more besides")
  })

  it("adds no words after an item left out", () => {
    const text = copy(misnestedFeatures(
      `<b><li hidden>Promo.</b> Buy two chairs and save twenty percent today.</li>`
    ))
    expect(text).not.toContain("Buy two chairs")
  })
})

/** A kettle's page whose buy box sets `line` under the price, over the kettle's own description. */
const promisePage = (head: string, line: string) =>
  `<html><head><title>Brand Model 41 kettle</title>${head}</head><body><main>
<h1>Brand Model 41 kettle</h1>
<p class="price">$139.99</p>
<div class="product__text"><p class="rte"><strong>${line.slice(0, 4)}</strong>${line.slice(4)}</p></div>
<p>A pour-over kettle with a gooseneck spout, a hold mode of sixty
minutes and a temperature set to the degree, in brushed steel with a walnut handle that stays cool.</p>
<p>It holds 0.9 litres, boils in under four minutes and switches itself off when the base runs dry.</p>
<p>Its base turns like a record player's platter, and the dial on its side sets the heat, the timer and the hold.</p>
</main></body></html>`

describe("readable copy: a shop's line promising free delivery on every order", () => {
  it("is left out of a product's page", () => {
    for (
      const line of [
        "Free US Shipping Over $50 | Hassle Free Returns",
        "Free Shipping on Domestic Orders $75+",
        "\u20ac9 Flat Rate | Free Shipping \u20ac150+"
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text).not.toContain("Free")
      expect(text).toContain("gooseneck spout")
      expect(text).toContain("switches itself off")
    }
  })
  it("stays when it names no reach, runs on as a sentence, or stands on a page that shows no product", () => {
    const own = "Free standard shipping, tracked to your door"
    expect(copy(promisePage(productLd, own))).toContain(own)
    const sentence = "Free shipping over $50. Every kettle is tested by hand before it leaves us"
    expect(copy(promisePage(productLd, `${sentence}.`))).toContain(sentence)
    const shopWide = "Free US Shipping Over $50 | Hassle Free Returns"
    expect(copy(promisePage("", shopWide))).toContain(shopWide)
    const group = `<meta property="og:type" content="product.group">${productLd}`
    expect(copy(promisePage(group, shopWide))).toContain(shopWide)
  })
  it("stays as a heading, a quote or a list's one item", () => {
    for (
      const marked of [
        "<h3>Flat rate shipping over $50</h3>",
        "<h2>Flat rate delivery on all orders</h2>",
        "<blockquote><p>Flat rate shipping on all orders</p></blockquote>",
        "<ul><li>Flat rate shipping on all orders</li></ul>"
      ]
    ) {
      const text = copy(markedPage(marked))
      expect(text).toContain("Flat rate")
      expect(text).toContain("gooseneck spout")
    }
  })
  it("is left out with a sum in cents, an abbreviation's dots or a last full stop", () => {
    for (
      const line of [
        "Free shipping on orders over $49.99 | Free returns",
        "Free U.S. shipping on all orders",
        "Free shipping on all orders."
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text).not.toContain(line.slice(4))
      expect(text).toContain("gooseneck spout")
    }
  })
  it("stays when its figure is a delivery time, not a sum", () => {
    for (const line of ["Free delivery in 3-5 working days", "Free Standard Shipping in 2 days"]) {
      expect(copy(promisePage(productLd, line))).toContain(line.slice(4))
    }
  })
})

/** The kettle's page with `marked` (a heading, a quote, a list) in place of the line under the price. */
const markedPage = (marked: string) =>
  promisePage(productLd, "").replace(/<div class="product__text">.*<\/div>/, marked)

describe("readable copy: a shop's hour for dispatch under a product's price", () => {
  it("is left out of a product's page", () => {
    for (
      const line of [
        "Same day shipping if ordered by 4PM Eastern.",
        "In stock and Shipping Now Order within 1 day 10 hours to have it shipped tomorrow."
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text).not.toContain(line.slice(4))
      expect(text).toContain("gooseneck spout")
    }
  })
  it("stays in a list, as a longer paragraph, or on a page that shows no product", () => {
    const line = "Same day shipping if ordered by 4PM Eastern."
    const listed = promisePage(productLd, "").replace(
      "<p class=\"price\">",
      `<ul><li>${line}</li><li>Lifetime warranty on every tool in the kit</li></ul><p class="price">`
    )
    expect(copy(listed)).toContain(line)
    const story = "Same day shipping if ordered by 4PM Eastern. We pack every kettle by hand in our " +
      "workshop and test each one before it leaves us"
    expect(copy(promisePage(productLd, story))).toContain("We pack every kettle by hand")
    expect(copy(promisePage("", line))).toContain(line)
  })
  it("stays as a list's one item, a heading, or on a group of products' page", () => {
    const line = "Same day shipping if ordered by 4PM Eastern"
    expect(copy(markedPage(`<ul><li>${line}.</li></ul>`))).toContain(line)
    expect(copy(markedPage(`<h3>${line}</h3>`))).toContain(line)
    const group = `<meta property="og:type" content="product.group">${productLd}`
    expect(copy(promisePage(group, `${line}.`))).toContain(line)
  })
  it("stays when it denies this product a quick dispatch or names no hour", () => {
    for (
      const line of [
        "This item is not eligible for next day delivery",
        "Oversized item: no same day shipping",
        "Order by phone and we will ship it to your door",
        "This item isn’t eligible for next day delivery",
        "Made to order: doesn’t ship same day",
        "Bulky items cannot ship same day",
        "Glass kettles arenʼt eligible for next day delivery"
      ]
    ) {
      expect(copy(promisePage(productLd, line))).toContain(line.slice(4))
    }
  })
  it("is left out when it urges the reader on, or opens with a rank's \"#\"", () => {
    for (
      const line of [
        "Don’t miss out, order within 3 hours to get it tomorrow",
        "Don't wait: order by 2pm for same day dispatch",
        "#1 seller: order by 4pm for next day delivery"
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text, line).not.toContain(line.slice(4))
      expect(text).toContain("gooseneck spout")
    }
  })
  it("is left out with a sum in cents before its hour", () => {
    const line = "Same day dispatch on orders over $49.99 placed by 2pm"
    const text = copy(promisePage(productLd, line))
    expect(text).not.toContain(line.slice(4))
    expect(text).toContain("gooseneck spout")
  })
})

describe("readable copy: a loyalty programme's offer of rewards in a product's buy box", () => {
  it("is left out of a product's page", () => {
    for (
      const line of [
        "Members get an est. $9.99 in rewards",
        "Earn $13.70 in rewards, with 5% back, plus more exclusive perks",
        "Collect 120 points with this order"
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text, line).not.toContain(line.slice(4))
      expect(text).toContain("gooseneck spout")
      expect(text).toContain("$139.99")
    }
  })
  it("stays when it denies the gain, names no figure, is no plain paragraph or shows no one product", () => {
    for (
      const line of [
        "This kettle does not earn $13.70 in rewards",
        "Gift cards aren't eligible to earn 5% back in rewards",
        "Join the club to earn rewards on every order",
        "Get 4 points of adjustment for a custom fit",
        "Get $20 off and earn rewards when you join: members save on every kettle, every filter, every spare lid and more"
      ]
    ) {
      expect(copy(promisePage(productLd, line)), line).toContain(line.slice(4))
    }
    const line = "Members get an est. $9.99 in rewards"
    expect(copy(markedPage(`<ul><li>${line}</li></ul>`))).toContain(line)
    expect(copy(markedPage(`<h3>${line}</h3>`))).toContain(line)
    expect(copy(promisePage("", line))).toContain(line)
  })
})

describe("readable copy: a protection plan offered in a product's buy box", () => {
  it("is left out of a product's page", () => {
    for (
      const line of [
        "Add a protection plan from $79.99",
        "Get an extended warranty for $49",
        "Accident protection plans from $12.99"
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text, line).not.toContain(line.slice(4))
      expect(text).toContain("gooseneck spout")
      expect(text).toContain("$139.99")
    }
  })
  it("stays when it denies the plan, names none, is no plain paragraph or shows no one product", () => {
    for (
      const line of [
        "Protection plans from $79.99 are not available for this kettle",
        "Two-year warranty included from the day of delivery",
        "Add a protection plan from $79.99 and we repair or replace the kettle for three years, " +
        "whatever happens to it in your kitchen"
      ]
    ) {
      expect(copy(promisePage(productLd, line)), line).toContain(line.slice(4))
    }
    const line = "Add a protection plan from $79.99"
    expect(copy(markedPage(`<ul><li>${line}</li></ul>`))).toContain(line)
    expect(copy(markedPage(`<h3>${line}</h3>`))).toContain(line)
    expect(copy(promisePage("", line))).toContain(line)
  })
})

describe("readable copy: the wallets a shop's checkout takes, in a product's buy box", () => {
  it("is left out of a product's page", () => {
    for (
      const line of [
        "Pay with ease using Apple Pay or Google Pay",
        "Check out faster with Shop Pay",
        "We accept PayPal"
      ]
    ) {
      const text = copy(promisePage(productLd, line))
      expect(text, line).not.toContain(line.slice(4))
      expect(text).toContain("gooseneck spout")
      expect(text).toContain("$139.99")
    }
  })
  it("stays with a lender's figure, a denial, as a sentence, no plain paragraph or on no one product's page", () => {
    for (
      const line of [
        "Pay in 4 interest-free payments with PayPal",
        "PayPal is not accepted for this kettle",
        "Pay for your new kettle with PayPal",
        "Contactless payments with Google Pay",
        "Works with Apple Pay and Google Pay",
        "Pay with Apple Pay or Google Pay and we ship the kettle the same afternoon, wrapped in paper"
      ]
    ) {
      expect(copy(promisePage(productLd, line)), line).toContain(line.slice(4))
    }
    const line = "Pay with ease using Apple Pay or Google Pay"
    expect(copy(markedPage(`<ul><li>${line}</li></ul>`))).toContain(line)
    expect(copy(markedPage(`<h3>${line}</h3>`))).toContain(line)
    expect(copy(promisePage("", line))).toContain(line)
  })
})

describe("readable copy: a comparison grid's row labels written again for phones", () => {
  const cell = (label: string, value: string, labelClass = "text-xs block md:hidden") =>
    `<div class="p-3 flex flex-col"><p class="${labelClass}">${label}</p>${value}</div>`
  const row = (label: string, values: Array<string>, labelClass?: string) =>
    `<div class="p-3 hidden md:flex">${label}</div>` + values.map((v) => cell(label, v, labelClass)).join("")
  const kits = (labelClass?: string) =>
    `<html><head><title>Brand Model 41 Toolkit | ExampleShop</title><meta property="og:type" content="product"></head><body>
  <header class="site-header"><a href="/">ExampleShop</a></header>
  <main><div class="product-page">
    <h1>Brand Model 41 Toolkit</h1>
    <p>The Brand Model 41 Toolkit holds every driver a repair needs, in a case that closes with magnets ` +
    `and keeps each bit in its place for the next job.</p>
    <p>Its drivers are made of anodized aluminum and turn on a bearing, so a screw comes out with one ` +
    `finger while the other hand holds the device steady.</p>
    <section><h2>Compare our kits</h2><div class="grid grid-cols-5">${
      row("Driver Material", [
        "Polymer with a rubber grip",
        "Polymer with a rubber grip",
        "Anodized aluminum with a bearing",
        "Anodized aluminum with a bearing"
      ], labelClass)
    }${
      row("Form Factor", [
        "Compact polymer case for a drawer",
        "Fabric tool roll for a backpack",
        "Fabric tool roll with a lid",
        "Messenger bag with a shoulder strap"
      ], labelClass)
    }</div></section>
  </div></main>
  <footer><p>Copyright 2026 ExampleShop, all rights reserved.</p></footer></body></html>`

  it("keeps a row's label once, in its first cell", () => {
    const text = copy(kits())
    expect(text.match(/Driver Material/g)).toHaveLength(1)
    expect(text.match(/Form Factor/g)).toHaveLength(1)
    expect(text.match(/Polymer with a rubber grip/g)).toHaveLength(2)
    expect(text.match(/Anodized aluminum with a bearing/g)).toHaveLength(2)
    for (const value of ["Compact polymer case", "Fabric tool roll for", "Fabric tool roll with", "Messenger bag"]) {
      expect(text).toContain(value)
    }
  })

  it("keeps each card's box for phones where no row label for wide screens comes before the cards", () => {
    const card = (plan: string, price: string, seats: string) =>
      `<div class="card"><p class="text-sm md:hidden">${price}</p><h3>${plan}</h3>` +
      `<p>The ${plan} plan gives ${seats} a shared workspace, a calendar and a place for every file.</p></div>`
    const text = copy(
      `<html><head><title>Plans | ExampleApp</title></head><body>
  <header class="site-header"><a href="/">ExampleApp</a></header>
  <main><h1>Plans for every team</h1>
    <p>Every plan holds the same tools for writing, planning and sharing; the plans differ in how ` +
        `many people may join and how much room their files take.</p>
    <div class="cards">${card("Team", "$20 per seat a month", "ten people")}${
          card("Studio", "$20 per seat a month", "twenty people")
        }${card("Company", "$35 per seat a month", "any number of people")}</div>
  </main>
  <footer><p>Copyright 2026 ExampleApp, all rights reserved.</p></footer></body></html>`
    )
    expect(text).toContain("Studio")
    expect(text.match(/\$20 per seat a month/g)).toHaveLength(2)
    expect(text).toContain("$35 per seat a month")
  })

  it("keeps each cell's label where the boxes are not drawn for phones only", () => {
    const text = copy(kits("text-xs font-medium"))
    expect(text.match(/Form Factor/g)).toHaveLength(4)
  })
})

describe("a passage a field writes twice in one paragraph", () => {
  const quotes = [
    `"A patient and generous book about the rivers that once ran through our cities, and the people who still remember them." - The Daily Review`,
    `"Every chapter opens a door onto a landscape we walk past each day without seeing what it was, or what it could be again." - City Weekly`,
    `"The author writes of mud, reeds and herons with the care other writers keep for kings, and the result is quietly wonderful." - The Reader`,
    `"Part history, part field guide and part plea, it asks us to dig up the streams we buried and let the water show itself once more." - North Post`,
    `"I finished it in two evenings and have since walked the old course of our own brook twice, looking for the places it describes." - A. Reader, author of Small Waters`
  ]
  const passage = quotes.join(" ")
  const page = (value: string) =>
    `<html><head><title>Buried Rivers (Hardcover) | ExampleBooks</title>${
      productLd.replace("Steel kettle K1", "Buried Rivers")
    }</head><body>
  <header class="site-header"><a href="/">ExampleBooks</a></header>
  <main><h1>Buried Rivers (Hardcover)</h1>
    <p>A history of the streams that cities covered over, and of the people who would bring them back to the light.</p>
    <h2>About this product</h2>
    <div class="details"><div class="row"><span class="name">Publisher</span><span class="value">Example House</span></div>
    <div class="row"><span class="name">Pages</span><span class="value">288</span></div>
    <div class="row"><span class="name">Reviews</span><span class="value">${value}</span></div></div>
  </main>
  <footer><p>Copyright 2026 ExampleBooks, all rights reserved.</p></footer></body></html>`

  it("keeps the passage once when the field joins it again after itself", () => {
    const text = copy(page(`${passage}, ${passage}`))
    for (
      const quote of ["Every chapter opens a door", "Part history, part field guide", "I finished it in two evenings"]
    ) {
      expect(text.match(new RegExp(quote, "g"))).toHaveLength(1)
    }
    // The first quote of the second copy follows the field's comma: that sentence is not said word for word.
    expect(text.match(/A patient and generous book/g)).toHaveLength(2)
    expect(text).toContain("looking for the places it describes")
  })

  it("keeps a sentence said again that is no whole passage", () => {
    const refrain = `Read it slowly, by the water, with the window open and the kettle on.`
    const text = copy(page(`${quotes[0]} ${refrain} ${quotes[1]} ${refrain}`))
    expect(text.match(/Read it slowly, by the water/g)).toHaveLength(2)
    expect(text).toContain("Every chapter opens a door")
  })
})

describe("readable copy: a description's rest hidden until its \"Read more\" is clicked", () => {
  const rest =
    `<p>Each chapter follows one buried stream from its spring to the sea, through the maps, the court records and the memories of the people who lived beside it.</p>`
  const page = (panel: string, toggle: string) =>
    `<html><head><title>Buried Rivers (Hardcover) | ExampleBooks</title>${
      productLd.replace("Steel kettle K1", "Buried Rivers")
    }</head><body>
  <header class="site-header"><a href="/">ExampleBooks</a></header>
  <main><h1>Buried Rivers (Hardcover)</h1>
    <div class="expander-container">
      <h3>Description</h3>
      <div class="section"><p>A history of the streams that cities covered over, and of the people who would bring them back to the light.</p></div>
      ${panel}
      ${toggle}
    </div>
    <h2>Details</h2>
    <p>Hardcover, 288 pages, published by Example House in 2026, with maps and photographs throughout the book.</p>
  </main>
  <footer><p>Copyright 2026 ExampleBooks, all rights reserved.</p></footer></body></html>`
  const hidden = `<div class="expander-content" style="display:none">${rest}</div>`
  const readMore = `<div class="row"><a href="javascript:void(0)" aria-expanded="false">Read more</a></div>`

  it("is shown when a closed toggle that says \"Read more\", naming no panel, follows it", () => {
    const text = copy(page(hidden, readMore))
    expect(text).toContain("Each chapter follows one buried stream from its spring to the sea")
    expect(text).toContain("A history of the streams that cities covered over")
    expect(text).not.toContain("Read more")
  })

  it("stays hidden after a toggle with other words or an open one, or holding a few words or options only", () => {
    const sizes = `<div class="row"><a href="javascript:void(0)" aria-expanded="false">Sizes</a></div>`
    expect(copy(page(hidden, sizes))).not.toContain("Each chapter follows one buried stream")
    const open = `<div class="row"><a href="javascript:void(0)" aria-expanded="true">Read more</a></div>`
    expect(copy(page(hidden, open))).not.toContain("Each chapter follows one buried stream")
    const short = `<div class="expander-content" style="display:none"><p>Maps and photographs inside.</p></div>`
    expect(copy(page(short, readMore))).not.toContain("Maps and photographs inside")
    const options = `<div class="expander-content" style="display:none"><ul>${
      [
        "Hardcover",
        "Paperback",
        "Large print edition",
        "Audio book on compact disc",
        "Electronic book",
        "Gift box",
        "Signed first edition",
        "Library binding",
        "Spiral bound workbook"
      ]
        .map((o) => `<li>${o}</li>`).join("")
    }</ul></div>`
    expect(copy(page(options, readMore))).not.toContain("Audio book on compact disc")
  })
})

describe("readable copy: a product's narrower choice beside the shop's blocks under headings", () => {
  const ld = productLd.replace("Steel kettle K1", "Trail pack 30")
  const tile = (h: string, p: string) => `<div class="tile"><h3>${h}</h3><div class="tile-text">${p}</div></div>`
  const page = (description: string) =>
    `<html><head><title>Trail pack 30 | ExampleOutdoor</title>${ld}</head><body>
  <header class="site-header"><a href="/">ExampleOutdoor</a><nav><a href="/packs">Packs</a> <a href="/tents">Tents</a></nav></header>
  <div class="page"><div class="product-main">
    <h1>Trail pack 30</h1>
    <p class="price">89.00 EUR</p>
    <div class="description">${description}</div>
  </div></div>
  <section class="services"><h2>Why shop with us</h2>
    ${tile("Free returns", "Send it back within thirty days, in any of our shops or by post, and we refund the price.")}
    ${
      tile(
        "Rent before you buy",
        "Every pack can be rented for a weekend, and the rent is taken off the price if you keep it."
      )
    }
    ${
      tile(
        "Repairs for life",
        "Our workshop mends straps, zips and seams for as long as you own the pack, at no cost to you."
      )
    }
    ${tile("Members save", "Members of the club save a tenth on every order and are first to hear of the spring sale.")}
    ${
      tile(
        "Gift cards",
        "A gift card holds any sum from ten to five hundred euros and can be spent in the shops or online."
      )
    }
    ${
      tile(
        "Pick up in a shop",
        "Order before noon and pick the pack up the same day in the shop nearest to you, at no charge."
      )
    }
  </section>
  <footer><p>Copyright 2026 ExampleOutdoor, all rights reserved.</p></footer></body></html>`
  const full =
    `<p>A thirty litre pack for long days on the trail, with a frame sheet that carries a full load without pressing on the back, and a lid that opens from both sides.</p>
    <p>The body is woven from recycled nylon, coated against the rain, and the hip belt folds away when the pack rides on a shoulder, in a train or on a bike.</p>`

  it("stands when it holds the product's title and a third of the page's prose", () => {
    const text = copy(page(full))
    expect(text).toContain("Trail pack 30")
    expect(text).toContain("89.00 EUR")
    expect(text).toContain("A thirty litre pack for long days on the trail")
    expect(text).toContain("the hip belt folds away")
    expect(text).not.toContain("Why shop with us")
    expect(text).not.toContain("Rent before you buy")
    expect(text).not.toContain("A gift card holds any sum")
  })

  it("gives way to the visible text when it holds the title over a line of the description", () => {
    const text = copy(page(`<p>A thirty litre pack for long days on the trail.</p>`))
    expect(text).toContain("A thirty litre pack for long days on the trail")
    expect(text).toContain("Rent before you buy")
  })
})

describe("readable copy: a product's description tab", () => {
  const ld = productLd.replace("Steel kettle K1", "Linen shirt L2")
  const page = (head: string, label: string) =>
    `<html><head><title>Linen shirt L2 | ExampleWear</title>${head}</head><body>
  <header class="site-header"><a href="/">ExampleWear</a><nav><a href="/shirts">Shirts</a></nav></header>
  <div id="product-12" class="product type-product">
    <div class="summary">
      <h1 class="product_title">Linen shirt L2</h1>
      <p class="price">59.00 EUR</p>
      <div class="short-description"><p>A loose shirt of washed linen for warm days, cut long at the back.</p></div>
      <form class="cart"><label for="size">Size</label><select id="size"><option>S</option><option>M</option></select>
        <button type="submit">Add to basket</button></form>
      <div class="product_meta"><span>SKU: L2-NAT</span> <span>Category: Shirts, Summer picks</span></div>
    </div>
    <div class="tabs-wrapper">
      <ul class="tabs" role="tablist">
        <li role="tab" id="tab-title-description"><a href="#tab-description">${label}</a></li>
        <li role="tab" id="tab-title-additional"><a href="#tab-additional">Additional information</a></li>
      </ul>
      <div class="panel" id="tab-one" role="tabpanel" aria-labelledby="tab-title-description">
        <h2>About the shirt</h2>
        <p>The shirt is woven in a small mill from flax grown near the coast, then washed twice so that it is soft from the first day and does not shrink after.</p>
        <p>Its collar stands without a stay, its buttons are cut from corozo nut, and the seams are felled so that none of them rubs on the skin.</p>
      </div>
      <div class="panel" id="tab-additional" role="tabpanel" aria-labelledby="tab-title-additional" style="display:none">
        <table><tr><th>Weight</th><td>0.3 kg</td></tr><tr><th>Colour</th><td>Natural, Sand, Navy</td></tr></table>
      </div>
    </div>
  </div>
  <footer><p>Copyright 2026 ExampleWear, all rights reserved.</p></footer></body></html>`

  it("is the content of a page that shows one product", () => {
    const text = copy(page(ld, "Description"))
    expect(text).toContain("The shirt is woven in a small mill from flax")
    expect(text).toContain("its buttons are cut from corozo nut")
    expect(text).not.toContain("Natural, Sand, Navy")
    expect(text).not.toContain("SKU: L2-NAT")
    expect(text).not.toContain("cut long at the back")
  })

  it("leaves the choice as it was for a tab of another name, or on a page that shows no one product", () => {
    for (const text of [copy(page(ld, "Care")), copy(page("", "Description"))]) {
      expect(text).toContain("The shirt is woven in a small mill from flax")
      expect(text).toContain("cut long at the back")
    }
  })
})

describe("readable copy: a line a product's page says again in another block", () => {
  const ld = productLd.replace("Steel kettle K1", "Puzzle game P3")
  const requirements = (system: string) =>
    `<h3>${system}</h3>
      <ul><li>Operating system: ${system} 13 or later</li><li>Memory: 8 GB of RAM</li>` +
    `<li>Storage: 20 GB of free space</li><li>Sound: yes</li></ul>
      <table><tr><th>Display</th><td>${system} screen</td></tr><tr><th>Input</th><td>Mouse and keyboard</td></tr></table>`
  const page = (head: string) =>
    `<html><head><title>Puzzle game P3</title>${head}</head><body>
  <header class="site-header"><a href="/">The Game Shop</a></header>
  <main><div class="product-page">
    <h1>Puzzle game P3</h1>
    <p class="price">19.00 EUR</p>
    <div class="description"><p>Puzzle game P3 sets a hundred rooms of sliding walls in an old lighthouse, each room a ` +
    `little harder than the one before, with a keeper who leaves notes for the player on every floor.</p>
    <p>The rooms can be played in any order once the first ten are solved, and the notes tell the story of the ` +
    `lighthouse from the day it was built to the night its lamp went out.</p></div>
    <section class="features"><h2>Features</h2><ul><li>A keeper who leaves notes for the player</li>` +
    `<li>An old lighthouse</li><li>A hundred rooms, ten of them hidden behind the lamp</li></ul></section>
    <section class="requirements"><h2>System requirements</h2>
      ${requirements("Windows")}
      ${requirements("macOS")}
    </section>
  </div></main>
  <footer><p>Copyright 2026 The Game Shop, all rights reserved.</p></footer></body></html>`

  it("says it once on a page that shows one product", () => {
    const text = copy(page(ld))
    expect(text).toContain("Operating system: Windows 13 or later")
    expect(text).toContain("Operating system: macOS 13 or later")
    expect(count(text, "Memory: 8 GB of RAM")).toBe(1)
    expect(count(text, "Storage: 20 GB of free space")).toBe(1)
    // A line of four words or more said inside an earlier one goes; three words stay.
    expect(text).not.toContain("A keeper who leaves notes for the player")
    expect(text).toContain("An old lighthouse")
    expect(text).toContain("ten of them hidden behind the lamp")
    // Short lines, headings and table rows stay as written.
    expect(count(text, "Sound: yes")).toBe(2)
    expect(count(text, "Mouse and keyboard")).toBe(2)
    expect(text).toContain("lighthouse from the day it was built")
  })

  it("keeps every copy on a page that does not say it shows a product", () => {
    const text = copy(page(""))
    expect(count(text, "Memory: 8 GB of RAM")).toBe(2)
    expect(text).toContain("A keeper who leaves notes for the player")
  })
})

describe("readable copy: a sentence a product's page says again inside a longer line", () => {
  const ld = productLd.replace("Steel kettle K1", "Field guide F2")
  const page = (head: string) =>
    `<html><head><title>Field guide F2</title>${head}</head><body>
  <header class="site-header"><a href="/">The Book Shop</a></header>
  <main><div class="product-page">
    <h1>Field guide F2</h1>
    <p class="price">24.00 EUR</p>
    <p class="short">A pocket guide to the birds of the northern coast, drawn by hand.</p>
    <div class="description"><p>A pocket guide to the birds of the northern coast, drawn by hand. Each of the ` +
    `two hundred species has a page of its own, with its call written out and a map of where it nests. ` +
    `The author spent eleven winters on the cliffs to draw the seabirds from life.</p></div>
    <section class="details"><h2>About this book</h2>
      <p>Synopsis: the book opens with the cliffs. Each of the two hundred species has a page of its own, with ` +
    `its call written out and a map of where it nests. The last chapter follows the terns south for the winter.</p>
      <p>From the publisher: see <a href="/f2/sample">the sample pages</a>. The author spent eleven winters on ` +
    `the cliffs to draw the seabirds from life.</p>
    </section>
  </div></main>
  <footer><p>Copyright 2026 The Book Shop, all rights reserved.</p></footer></body></html>`

  it("says it once on a page that shows one product, and keeps the line's new sentences", () => {
    const text = copy(page(ld))
    expect(count(text, "Each of the two hundred species has a page of its own")).toBe(1)
    expect(text).toContain("Synopsis: the book opens with the cliffs.")
    expect(text).toContain("The last chapter follows the terns south for the winter.")
    // A sentence an earlier line said whole (the short description, then the long one) stays.
    expect(count(text, "A pocket guide to the birds of the northern coast, drawn by hand.")).toBe(2)
    // A line with a link is left whole.
    expect(count(text, "The author spent eleven winters on the cliffs")).toBe(2)
  })

  it("keeps every sentence on a page that does not say it shows a product", () => {
    const text = copy(page(""))
    expect(count(text, "Each of the two hundred species has a page of its own")).toBe(2)
  })
})

describe("readable copy: a box named for a product's description", () => {
  const ld = productLd.replace("Steel kettle K1", "Dark roast D4")
  const page = (head: string, description: string) =>
    `<html><head><title>Dark roast D4 | Example Roasters</title>${head}</head><body>
  <header class="site-header"><a href="/">Example Roasters</a><nav><a href="/coffee">Coffee</a></nav></header>
  <main><section class="product">
    <div class="product__media"><img src="/d4.jpg" alt="A bag of Dark roast D4"></div>
    <div class="product__info-container">
      <h1 class="product__title">Dark roast D4</h1>
      <p class="price">14.00 EUR</p>
      <form class="product-form"><label for="grind">Grind</label><select id="grind"><option>Whole bean</option>` +
    `<option>Ground</option></select><button type="submit">Add to cart</button></form>
      <div class="${description} rte">
        <p>A slow roast of beans from two farms on the slopes above the lake, taken out of the drum just before the ` +
    `second crack so that it keeps its sweetness under the smoke.</p>
        <p>It brews a heavy cup with little acid, good in a moka pot or a press, and it stands up to milk.</p>
      </div>
      <details class="product__accordion"><summary>Tasting notes</summary>
        <ul><li>Aroma: cocoa and dried plum</li><li>Body: heavy</li><li>Acidity: low</li></ul></details>
      <details class="product__accordion"><summary>Shipping</summary>
        <p>Orders placed before noon leave the roastery the same day; parcels over 40 EUR travel free of charge.</p></details>
    </div>
  </section></main>
  <footer><p>Copyright 2026 Example Roasters, all rights reserved.</p></footer></body></html>`

  it("is the content of a page that shows one product, without the blocks the theme adds", () => {
    for (const name of ["product__description", "product-description", "productDescription"]) {
      const text = copy(page(ld, name))
      expect(text).toContain("A slow roast of beans from two farms")
      expect(text).toContain("it stands up to milk")
      expect(text).not.toContain("cocoa and dried plum")
      expect(text).not.toContain("leave the roastery the same day")
    }
  })

  it("leaves the choice as it was for a box that holds under a third of the chosen text", () => {
    const story = `<section class="product__story"><h2>From the farms</h2>` +
      [1, 2, 3, 4].map((i) =>
        `<p>Season ${i}: the pickers walk the rows every morning before the heat, taking only the red cherries, ` +
        `which are washed in water from the lake and dried on raised beds for ${i + 10} days before the beans are ` +
        `sorted by hand, bagged and carried down to the road on the backs of mules.</p>`
      ).join("") + `</section>`
    const text = copy(
      page(ld, "product__description").replace(
        `<details class="product__accordion"><summary>Tasting`,
        `${story}<details class="product__accordion"><summary>Tasting`
      )
    )
    expect(text).toContain("A slow roast of beans from two farms")
    expect(text).toContain("the pickers walk the rows every morning")
  })

  it("leaves the choice as it was for a box named only `description`, or on a page that shows no product", () => {
    for (const text of [copy(page(ld, "description")), copy(page("", "product__description"))]) {
      expect(text).toContain("A slow roast of beans from two farms")
      expect(text).toContain("leave the roastery the same day")
    }
  })
})
