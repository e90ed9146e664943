/**
 * The readable copy of a capture (pure, deterministic, total). HTML and XHTML become Markdown
 * of the page's content: front matter with the page's metadata (readable/meta.ts), one title, then the headings, paragraphs, lists, links (made absolute),
 * code blocks, tables and block quotes of the part of the page that scores as its content;
 * `text/plain` is kept as the text itself. See docs/ingest.md ("The readable copy").
 *
 * - readable/streamed.ts writes the parts a page streams after its frame into their placeholders;
 * - readable/tree.ts parses the page (htmlparser2) into a tree with the figures scoring reads;
 * - readable/boilerplate.ts says what furniture looks like (tags, roles, class/id names);
 * - readable/content.ts chooses the content by scoring the whole page (readable/edges.ts: its lead and its ends);
 *   readable/teasers.ts leaves out teasers of other pages beside an article, readable/authors.ts
 *   the author's box under it, readable/signups.ts a sign-up box that closes it,
 *   readable/further.ts the links to further reading that close each card of a ranked guide,
 *   readable/quotes.ts leaves out a reply's quote of what the copy already holds, readable/votes.ts
 *   a post's vote count, readable/chrome.ts
 *   the controls every card repeats, readable/reprises.ts a grid's cards shown again lower down,
 *   readable/fields.ts a shop template's raw fields and a template's unfilled slots,
 *   readable/formNotes.ts a form's messages for after it is sent and a placeholder drawn over a
 *   search field, readable/skipLinks.ts the links
 *   that skip to the content and a menu written again for screen readers,
 *   readable/fillers.ts a theme's placeholder text, cookie notices, filler words, an icon's word and a
 *   loading note,
 *   readable/popups.ts the menus a checkbox opens, readable/ordinals.ts the links that number a
 *   thread's posts,
 *   readable/excerpts.ts the excerpts of a text written beside the whole of it, readable/echoes.ts a
 *   label written again for screen readers, readable/tickers.ts the copies of a ticker's phrase,
 *   readable/subjects.ts the "Re:" subject line over a thread's replies,
 *   readable/edits.ts a post's "Last edited by" note and a wiki section's edit link,
 *   readable/units.ts a measure written again in the other unit system, readable/phoneCopies.ts a
 *   table row's box for phones that the row's cells say again, the short form of a date written twice
 *   and a section's copies for the tablet and the phone beside the desktop's,
 *   readable/controls.ts a thread's repeated controls drawn as links to a script, a toggle that
 *   opens a text in place ("Read more"), the cards' repeated links to customers' stories and a
 *   link standing alone that opens a map or asks the reader to apply, a carousel's step links,
 *   a tooltip icon's label for screen readers and, on a product page, a box drawn as an "Add to
 *   cart" button,
 *   readable/notices.ts a site's dismissible notice above the page's first heading, a box that
 *   opens with its close control and an alert waiting hidden for a script (on a product page, a
 *   short box its template shows on a state flag), readable/pictures.ts a
 *   gallery's links to picture files with their captions, readable/ratings.ts a product's rating summary, readable/prices.ts the parts
 *   of a price block its state hides, readable/summaries.ts a model's summary of the reviews,
 *   readable/stickyBars.ts a buy box repeated in a sticky bar;
 * - readable/titles.ts leaves the site's name out of the title written as the copy's heading (not
 *   written above a body whose own `# ` heading says it a few blocks down),
 *   readable/titleEchoes.ts a line beside that heading that says its words again, and on a page
 *   that shows one product readable/bareHeadings.ts a heading the copy would close on,
 *   readable/repeatedLines.ts a line said before, whole or inside a longer line, and
 *   readable/productSummary.ts writes the page's description under the title of a short copy
 *   that holds little of it (a page a script builds, its markup only the frame);
 * - readable/render.ts renders it as Markdown (readable/inline.ts: inline runs and their escapes),
 *   readable/links.ts makes links absolute; on a page that says it shows one product,
 *   readable/mojibake.ts writes text the shop decoded twice ("youâ€™re") as meant;
 * - readable/flat.ts is the text-only copy of a page nested too deep to parse.
 *
 * Text is kept verbatim (whitespace collapsed, no emphasis markers; only what Markdown would read
 * as syntax is backslash-escaped) so a quote copied from the page matches the readable copy as the
 * gate's matcher reads it; only links add Markdown around text.
 *
 * Over 400 lines: the pipeline from the page as read (`pageAsRead`, shared with the benches) to
 * the rendered blocks, with the order in which each rule leaves a part out, reads in one file.
 */
import { collapseWhitespace as collapse } from "./Quote.js"
import { withoutAdNotes } from "./readable/ads.js"
import { withoutAttachmentBoxes } from "./readable/attachments.js"
import { withoutAuthorBox } from "./readable/authors.js"
import { withoutClosingHeading } from "./readable/bareHeadings.js"
import { withoutCardChrome, withoutMouseRepeats } from "./readable/chrome.js"
import { chooseContent } from "./readable/content.js"
import {
  withoutActionLinks,
  withoutButtonBoxes,
  withoutBuyLinks,
  withoutElsewhereLinks,
  withoutExpandToggles,
  withoutReplyLinks,
  withoutScriptLinks,
  withoutSlideControls,
  withoutStoryLinks,
  withoutTooltipLabels
} from "./readable/controls.js"
import { withoutEchoes } from "./readable/echoes.js"
import { withoutEditNotes, withoutSectionEditLinks } from "./readable/edits.js"
import { withoutEmptyReviews } from "./readable/emptyReviews.js"
import { withoutExcerpts } from "./readable/excerpts.js"
import { withAskedButtons, withDeclaredQuestions, withPanelTitles } from "./readable/faqs.js"
import {
  withoutMachineDates,
  withoutMessageKeys,
  withoutScriptData,
  withoutTemplateFields,
  withoutTemplateSlots
} from "./readable/fields.js"
import {
  withoutFillers,
  withoutIconWords,
  withoutLigatureIcons,
  withoutLoaderBoxes,
  withoutLoadingNotes,
  withoutPlaceholderText
} from "./readable/fillers.js"
import { withoutFilterLabels } from "./readable/filterLabels.js"
import { flatBlocks } from "./readable/flat.js"
import { withoutComposerTrails, withoutFormNotes } from "./readable/formNotes.js"
import { withoutFurtherReading } from "./readable/further.js"
import { withoutDrawnGraphics } from "./readable/graphics.js"
import { HEADING } from "./readable/inline.js"
import { baseOf } from "./readable/links.js"
import { frontMatter, type PageMeta, pageMeta } from "./readable/meta.js"
import { withoutMojibake } from "./readable/mojibake.js"
import { withoutLinkedNoteMarks } from "./readable/noteMarks.js"
import {
  withoutClosableBoxes,
  withoutDismissibleNotices,
  withoutStateBoxes,
  withoutWaitingAlerts
} from "./readable/notices.js"
import { withoutPostNumbers } from "./readable/ordinals.js"
import { withoutRepeatedPassages } from "./readable/passages.js"
import { withoutWalletLines } from "./readable/paymentMethods.js"
import {
  withoutPhoneRowCopies,
  withoutRepeatedPhoneLabels,
  withoutScreenCopies,
  withoutShortTimes
} from "./readable/phoneCopies.js"
import { withoutGalleryCounters, withoutMediaFallbacks, withoutPictureLinks } from "./readable/pictures.js"
import { withoutPopupMenus } from "./readable/popups.js"
import {
  withoutLetterAvatars,
  withoutPosterFacts,
  withoutPosterPresence,
  withoutStarterBadges
} from "./readable/posters.js"
import { withoutHiddenPriceStates } from "./readable/prices.js"
import { withProductSummary } from "./readable/productSummary.js"
import { withoutAccountBoxes, withoutGuestPrompts, withoutLockedStatus } from "./readable/prompts.js"
import { withoutPlanOffers } from "./readable/protectionPlans.js"
import { dropRepeatedQuotes } from "./readable/quotes.js"
import { withoutRatingSummaries } from "./readable/ratings.js"
import { withoutReadingTimes } from "./readable/readingTimes.js"
import { oneLineText, paragraphText, renderBlocks } from "./readable/render.js"
import { withoutRepeatedLines } from "./readable/repeatedLines.js"
import { withoutRepeats } from "./readable/repeats.js"
import { withoutRepeatedGrids } from "./readable/reprises.js"
import { withoutRewardOffers } from "./readable/rewards.js"
import { withoutDispatchCutOffs, withoutShippingPromises } from "./readable/shippingPromise.js"
import { withoutSignUps } from "./readable/signups.js"
import { withoutSimilarThreads } from "./readable/similar.js"
import { withoutSkipLinks, withoutSpokenMenus } from "./readable/skipLinks.js"
import { withoutStickyBuyBars } from "./readable/stickyBars.js"
import { streamedInPlace } from "./readable/streamed.js"
import { withoutReplySubjects } from "./readable/subjects.js"
import { withoutReviewSummaries } from "./readable/summaries.js"
import { withoutLabelledTeasers, withoutTeasers } from "./readable/teasers.js"
import { withoutTickerCopies } from "./readable/tickers.js"
import { withoutTitleEchoes, wordsOfBlock } from "./readable/titleEchoes.js"
import { titleWithoutSiteName } from "./readable/titles.js"
import { type Page, parsePage, unframed } from "./readable/tree.js"
import { withoutSecondUnits } from "./readable/units.js"
import { withoutVersionSwitchers } from "./readable/versions.js"
import {
  withoutMarkedVoteCounts,
  withoutReactionCounts,
  withoutReactionNames,
  withoutVoteCounts
} from "./readable/votes.js"

export { resolveHref } from "./readable/links.js"
export { MAX_PARSE_DEPTH } from "./readable/tree.js"

export type ContentKind = "html" | "xhtml" | "text"

/** Markdown of an HTML (or XHTML) page, links resolved against `pageUrl` (or the page's `<base href>`). */
export const htmlToMarkdown = (html: string, pageUrl: string): string => joinBlocks(markdownBlocks(html, pageUrl))

/**
 * A page that shows less than half the text it conceals (in `noscript`, or `hidden` until a script moves it
 * in place) is read with them revealed: an app shell around its crawler copy, a streamed article.
 */
const REVEAL_MIN = 200

/**
 * The page as the copy reads it: its parts streamed after the frame in their places (not on a page
 * that says it shows one product: what a shop streams late is its personal strips, recommendations
 * and recently viewed), its concealed text revealed when it shows less than half of it
 * (`REVEAL_MIN`), the frame it only wraps taken off (tree.ts `unframed`); `page` is undefined where
 * the source does not parse as a page (the copy is then its flat text). The benches that score
 * elements of a page against the copy read it the same way.
 */
export const pageAsRead = (
  source: string,
  pageUrl: string
): { readonly html: string; readonly page: Page | undefined } => {
  let html = source
  let page = parsePage(html)
  const streamed = streamedInPlace(source)
  if (streamed !== source && page !== undefined && pageMeta(page, baseOf(page.baseHref, pageUrl)).product !== true) {
    html = streamed
    page = parsePage(html)
  }
  if (page !== undefined && page.concealed >= REVEAL_MIN && page.concealed > 2 * page.root.text) {
    page = parsePage(html, true)
  }
  return { html, page: page === undefined ? undefined : unframed(html, page) }
}

const markdownBlocks = (source: string, pageUrl: string): ReadonlyArray<string> => {
  const { html, page } = pageAsRead(source, pageUrl)
  if (page === undefined) return flatBlocks(html)
  const base = baseOf(page.baseHref, pageUrl)
  const meta = pageMeta(page, base)
  // A page that shows one product, not a group of them.
  const oneProduct = meta.product === true && meta.productGroup !== true
  // The chosen content, then what each rule leaves out of it, in this order.
  let roots = chooseContent(page, meta)
  roots = withDeclaredQuestions(page, roots, meta.faq)
  roots = withAskedButtons(page, roots, meta)
  // The titles of an accordion's panels, written as its buttons, over the panels a product's copy shows (faqs.ts).
  roots = withPanelTitles(page, roots, oneProduct)
  roots = withoutTeasers(page, roots, meta, pageUrl, base)
  roots = withoutLabelledTeasers(page, roots, meta)
  roots = withoutAuthorBox(page, roots, meta)
  roots = withoutSignUps(page, roots, meta)
  roots = withoutGuestPrompts(page, roots)
  roots = withoutAccountBoxes(page, roots)
  roots = withoutLockedStatus(page, roots)
  roots = withoutSimilarThreads(page, roots)
  roots = withoutFurtherReading(page, roots)
  roots = withoutTemplateFields(page, roots)
  roots = withoutTemplateSlots(page, roots)
  roots = withoutMachineDates(page, roots)
  roots = withoutMessageKeys(page, roots)
  roots = withoutScriptData(page, roots)
  roots = withoutTooltipLabels(page, roots)
  roots = withoutFormNotes(page, roots)
  roots = withoutComposerTrails(page, roots)
  roots = withoutSkipLinks(page, roots)
  roots = withoutSpokenMenus(page, roots)
  roots = withoutPlaceholderText(page, roots)
  roots = withoutCardChrome(page, roots)
  roots = withoutRepeatedGrids(page, roots)
  roots = withoutMouseRepeats(page, roots)
  roots = withoutPostNumbers(page, roots)
  roots = withoutPopupMenus(page, roots)
  roots = withoutFillers(page, roots)
  roots = withoutIconWords(page, roots)
  roots = withoutLigatureIcons(page, roots)
  roots = withoutLoadingNotes(page, roots)
  roots = withoutLoaderBoxes(page, roots)
  roots = withoutExcerpts(page, roots)
  roots = withoutEchoes(page, roots)
  roots = withoutTickerCopies(page, roots)
  roots = withoutDrawnGraphics(page, roots)
  roots = dropRepeatedQuotes(page, roots)
  roots = withoutVoteCounts(page, roots, meta)
  roots = withoutMarkedVoteCounts(page, roots)
  roots = withoutReactionCounts(page, roots)
  roots = withoutReactionNames(page, roots)
  roots = withoutReplySubjects(page, roots)
  roots = withoutEditNotes(page, roots)
  roots = withoutSectionEditLinks(page, roots)
  roots = withoutSecondUnits(page, roots)
  roots = withoutPhoneRowCopies(page, roots)
  roots = withoutRepeatedPhoneLabels(page, roots)
  roots = withoutShortTimes(page, roots)
  roots = withoutScreenCopies(page, roots)
  roots = withoutReadingTimes(page, roots)
  roots = withoutPosterFacts(page, roots)
  roots = withoutPosterPresence(page, roots)
  roots = withoutStarterBadges(page, roots)
  roots = withoutLetterAvatars(page, roots)
  roots = withoutScriptLinks(page, roots)
  roots = withoutReplyLinks(page, roots)
  roots = withoutExpandToggles(page, roots)
  roots = withoutActionLinks(page, roots, meta.product === true)
  roots = withoutButtonBoxes(page, roots, meta.product === true)
  roots = withoutStoryLinks(page, roots, meta.product === true)
  roots = withoutBuyLinks(page, roots, meta.product === true, pageUrl)
  roots = withoutElsewhereLinks(page, roots)
  roots = withoutSlideControls(page, roots)
  roots = withoutAttachmentBoxes(page, roots)
  roots = withoutDismissibleNotices(page, roots)
  roots = withoutWaitingAlerts(page, roots)
  roots = withoutStateBoxes(page, roots, meta.product === true)
  roots = withoutClosableBoxes(page, roots)
  roots = withoutPictureLinks(page, roots)
  roots = withoutGalleryCounters(page, roots)
  roots = withoutRatingSummaries(page, roots, meta.product === true)
  roots = withoutHiddenPriceStates(page, roots, meta.product === true)
  roots = withoutReviewSummaries(page, roots)
  roots = withoutMediaFallbacks(page, roots)
  roots = withoutAdNotes(page, roots)
  roots = withoutLinkedNoteMarks(page, roots)
  roots = withoutVersionSwitchers(page, roots, base, pageUrl)
  // A product page's buy box repeated in a bar that slides in as the reader scrolls (stickyBars.ts).
  roots = withoutStickyBuyBars(page, roots, oneProduct)
  // A grid's filter or sort control whose label stands alone, its panel left out (filterLabels.ts).
  roots = withoutFilterLabels(page, roots)
  let blocks = renderBlocks(page.texts, roots, base, meta.product === true)
  // A shop's catalogue text decoded twice ("youâ€™re") is written as the characters it stands for.
  if (meta.product === true) blocks = blocks.map(withoutMojibake)
  // A passage a paragraph writes again (a catalogue field joining its text twice) is kept once (passages.ts).
  const body = withoutRepeatedPassages(withoutRepeats(blocks))
  // A product page's line said again, whole or inside a longer one (a spec sheet per variant), is said once (repeatedLines.ts).
  // A product page's last section, its links or cards left out, keeps no heading over nothing (bareHeadings.ts);
  // a shop's line promising free delivery on every order, or its hour for dispatch, says nothing of the
  // product (shippingPromise.ts), nor does its loyalty programme's offer of rewards (rewards.ts) or a protection
  // plan it sells with the product (protectionPlans.ts) or the wallets its checkout takes (paymentMethods.ts).
  return assemble(
    meta,
    collapse(page.title).trim(),
    pageUrl,
    oneProduct
      ? withoutClosingHeading(
        withoutEmptyReviews(
          withoutWalletLines(
            withoutPlanOffers(
              withoutRewardOffers(withoutDispatchCutOffs(withoutShippingPromises(withoutRepeatedLines(body))))
            )
          )
        )
      )
      : body,
    oneProduct
  )
}

/** How many of the body's first blocks may hold the page's own `# ` title. */
const TITLE_WITHIN = 3

/**
 * How many of the body's first blocks may hold a `# ` heading that says the page's title word for
 * word: a strip's heading and a sticky card's lines set before it (an item page's "People who
 * viewed this item also viewed" and a date) do not make the page's title be written again above.
 */
const TITLE_SAID_WITHIN = 6

/**
 * The document's blocks: the front matter (meta.ts), then one title — the body's own first-level
 * heading when it opens with one, or when one among its first `TITLE_SAID_WITHIN` blocks says the
 * page's title word for word (that heading is moved up to open the copy); else the page's title
 * as a `#` heading — then the body.
 */
const assemble = (
  meta: PageMeta,
  pageTitle: string,
  pageUrl: string,
  body: ReadonlyArray<string>,
  oneProduct = false
): ReadonlyArray<string> => {
  const title = meta.title ?? (pageTitle.length > 0 ? pageTitle : undefined)
  const all: Array<string> = []
  const front = frontMatter({ ...meta, title })
  if (front !== undefined) all.push(front)
  const from = all.length
  const own = body.slice(0, TITLE_WITHIN).findIndex((b) => b.startsWith("# "))
  // The index in `all` of the copy's title: the body's own, or the page's written before the body.
  let at = own < 0 ? -1 : from + own
  // The index in `body` of a title heading moved up to open the copy.
  let moved = -1
  if (own < 0 && title !== undefined) {
    const headings = body.slice(0, TITLE_SAID_WITHIN).filter((b) => HEADING.test(b)).map(wordsOfBlock)
    const heading = oneLineText(titleWithoutSiteName(title, meta.site, pageUrl, body.join("\n"), headings))
    const said = wordsOfBlock(heading)
    const later = said.length === 0 ? -1 : body
      .slice(0, TITLE_SAID_WITHIN)
      .findIndex((b) => b.startsWith("# ") && wordsOfBlock(b) === said)
    if (later >= 0) {
      // Said a few blocks down: that heading opens the copy, ahead of the strip or card lines before it.
      moved = later
      at = all.length
      all.push(body[later]!)
    } else if (heading.length > 0) {
      at = all.length
      all.push(`# ${heading}`)
    }
  }
  for (let i = 0; i < body.length; i++) if (i !== moved) all.push(body[i]!)
  // A page that shows no text of its own (a script renders it) still says what it is in its description.
  if (body.length === 0 && meta.description !== undefined) all.push(paragraphText(meta.description))
  // A one-product page built by a script keeps its product's text only in its data: the JSON-LD
  // Product's description (productSummary.ts); written after the title, so the title's index stays.
  const summed = oneProduct && body.length > 0 ? withProductSummary(all, at, from, meta.productDescription) : all
  return withoutTitleEchoes(summed, at, from)
}

/** Markdown text of a document's blocks: separated by a blank line, ending with a newline. */
const joinBlocks = (blocks: ReadonlyArray<string>): string => (blocks.length === 0 ? "" : `${blocks.join("\n\n")}\n`)

const NON_ASCII = /[^\x00-\x7f]/

/** The same text as `joinBlocks`, encoded as UTF-8 straight into one buffer (no joined string). */
const encodeBlocks = (blocks: ReadonlyArray<string>): Buffer => {
  if (blocks.length === 0) return Buffer.alloc(0)
  // ASCII blocks (most of them) are copied as Latin-1, which is the same bytes and skips transcoding.
  const ascii = blocks.map((b) => !NON_ASCII.test(b))
  let size = 2 * blocks.length - 1
  for (let i = 0; i < blocks.length; i++) size += ascii[i] ? blocks[i]!.length : Buffer.byteLength(blocks[i]!, "utf8")
  const out = Buffer.allocUnsafe(size)
  let at = 0
  for (let i = 0; i < blocks.length; i++) {
    if (i > 0) {
      out[at++] = 0x0a
      out[at++] = 0x0a
    }
    at += out.write(blocks[i]!, at, ascii[i] ? "latin1" : "utf8")
  }
  out[at] = 0x0a
  return out
}

/** The readable copy of a decoded body. */
export const readableCopy = (kind: ContentKind, text: string, pageUrl: string): string =>
  kind === "text" ? text : htmlToMarkdown(text, pageUrl)

/** The readable copy as the UTF-8 bytes that are retained (`readableCopy`, encoded). */
export const readableCopyBytes = (kind: ContentKind, text: string, pageUrl: string): Buffer =>
  kind === "text" ? Buffer.from(text, "utf8") : encodeBlocks(markdownBlocks(text, pageUrl))
