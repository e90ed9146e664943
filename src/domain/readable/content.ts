/**
 * Which part of the page is the content, by scoring the whole page as Readability does and
 * cleaning the result of furniture as trafilatura does (docs/ingest.md, "How the content is chosen"):
 *
 * 1. Furniture marked by tag or class/id name (see boilerplate.ts) is dropped unless it holds a
 *    large share of the page's text (a wrapper named `has-sidebar` is not furniture; legal small
 *    print without a heading is, whatever its share: `smallPrintBlock`; on an undated
 *    page, the tags each of a listing's cards holds are the entry's: tags.ts), or is one of a
 *    page's sections built as banners named as calls to action (calls.ts).
 * 2. Every block holding at least `MIN_PARAGRAPH` characters of its own text is a paragraph (as
 *    many as pairs of `<br>` split it into): it scores 1 for each, plus one per comma, plus one per
 *    100 characters (at most 3 for each), and gives that score to its parent, half to its
 *    grandparent and a third of a level's share to the levels above (five levels). A candidate
 *    starts from its tag (`div` +5, lists and forms −3, headings −5) and its class/id weight; its
 *    final score is scaled by the share of its text outside links, plus its prose over `PROSE_WEIGHT`;
 *    candidates outside the page's one declared `main` count for half.
 * 3. The best candidate moves up to an ancestor that several other strong candidates share, to a
 *    parent scoring more than itself, through wrappers holding nothing else, and through ancestors
 *    that add prose without adding many links (articles split over several containers); then it
 *    takes in those siblings that score enough or read like prose, and the article's lead when it
 *    sits before it (edges.ts), and the page's one `h1` with the unlinked paragraph right after it
 *    when they stand before it, outside it (`titleLead`: a hero's title and lead; or the box of the
 *    two, when the lead is a bare text run after the title; or, with no lead, the `h1` alone when
 *    the document's title does not say all its words: `titleAlone`); on an undated page, a box
 *    named as the category's description standing before it, outside it (descriptions.ts).
 * 4. Inside the content, blocks that read like furniture are dropped (never the best candidate or
 *    what holds it): a negative weight, or (with fewer than 10 commas) many links (a short block
 *    whose sentences each link a few of their words by the bar of paragraphs), or very short
 *    and not a heading (a thread's posts only past half links: posts.ts; not a directory's lists
 *    of links under their headings: directories.ts; on an undated page, not a block holding the
 *    page's one `h1` and its lead: `holdsTitleLead`, nor an article's own `header` holding its
 *    heading: `articleHeader`, each judged part by part); list items named as
 *    furniture; short paragraphs that are all links; then
 *    (edges.ts) italic notes at the end and headings or pseudo-headings with nothing under them.
 *
 * Pages where no candidate holds `MIN_CONTENT` characters fall back to the page's `main`, else
 * its outermost `article`s (when they hold a quarter of its text), else its body, with furniture
 * dropped; but on a dated page (no product, no discussion) a pick whose first heading says the
 * document's title over a line or two is a short post, and is the content (`shortPost`).
 *
 * Over 400 lines: the numbered steps above run in order over one tree; each step is short.
 */
import { accordionAnswers } from "./accordions.js"
import { sponsoredStrips } from "./ads.js"
import { likeKeptSibling, shortAmongKept } from "./alike.js"
import { linkedSections } from "./anchors.js"
import { blockLink } from "./blockLinks.js"
import {
  concealing,
  droppedTag,
  FURNITURE_TAGS,
  LEGAL_ID,
  markOf,
  namedSmallPrint,
  NOT_STATE,
  SCREEN_READER,
  tabPanel
} from "./boilerplate.js"
import { labelledNote } from "./callouts.js"
import { sectionsNamedCallToAction } from "./calls.js"
import { cardsToKeep, groupsUnder, Keep, outerGroups } from "./cards.js"
import { consentBanner } from "./consents.js"
import { entriesCredits } from "./credits.js"
import { aroundDataTable, dataTable } from "./dataTables.js"
import { categoryDescription } from "./descriptions.js"
import { descriptionBox, descriptionPanel } from "./descriptionTab.js"
import { productDetailModals } from "./details.js"
import { headedLinkLists } from "./directories.js"
import {
  dropContentsLabels,
  dropEmptyHeadings,
  dropTrailingNotes,
  headingBelow,
  isHeading,
  isList,
  leads,
  linkDensity
} from "./edges.js"
import { entriesBeside, entriesLeftOut } from "./entries.js"
import { factPart, factRow, titlePart, wrappedFactPart, wrappedFactRow } from "./facts.js"
import { declaredFaq, guideAfter } from "./faqs.js"
import { scrolledCopy, tableFrame } from "./frames.js"
import { pricedGrid, priceGrids, productGridCards, promotedGrid } from "./grids.js"
import { introducedList, labelledList, listAfterProse } from "./introduced.js"
import { introducedSection } from "./intros.js"
import type { PageMeta } from "./meta.js"
import { framesTitle, pageFrame } from "./pageFrame.js"
import { pagedGrids } from "./paging.js"
import { keepPosterLines, keepPostHeads, posterNames, showPosterNames } from "./posterLines.js"
import { inPost, posts } from "./posts.js"
import { ratedReviews } from "./reviews.js"
import { otherProductSections, relatedPageSections } from "./strips.js"
import { entriesTags } from "./tags.js"
import { titleOverItem } from "./titledItems.js"
import {
  collapsedText,
  dropsItself,
  eachKept,
  type El,
  endsAsSentence,
  hasAncestorNamed,
  inside,
  leadingChild,
  measure,
  MIN_PARAGRAPH,
  namesOf,
  type Page,
  parsedText,
  shownChildren,
  sumAll,
  textContent,
  unmeasure,
  wordsOf
} from "./tree.js"

const MIN_CONTENT = 200
/** The least share of the page's text that its `article`s must hold to be its declared content (`declaredContent`). */
const ARTICLES_SHARE = 0.25
/** The least share of the page's visible text (without its nameable furniture) that a scored choice must keep. */
const MIN_SHARE_CHOSEN = 0.05
/** The least share of a list's text inside links that makes it a bare link list (`linkList`). */
const LINK_LIST = 0.9
const SHARE_KEEPING_FURNITURE = 0.4
const GROWTH = 0.1
const LONG_BLOCK = 500
const MAX_BYLINE = 200
const PROSE_WEIGHT = 300
const MAX_GROWN_LINK_DENSITY = 0.35
const PROSE_KEPT = 600
const PROSE_LINKED = 200
const MAX_PROSE_LINK_DENSITY = 0.35

const TAG_SCORE: Record<string, number> = {
  div: 5,
  pre: 3,
  td: 3,
  blockquote: 3,
  address: -3,
  ol: -3,
  ul: -3,
  dl: -3,
  dd: -3,
  dt: -3,
  li: -3,
  form: -3,
  h1: -5,
  h2: -5,
  h3: -5,
  h4: -5,
  h5: -5,
  h6: -5,
  th: -5
}

/**
 * Content scores by element number (`El.order`), NaN for an element that is not a candidate: kept
 * beside the tree, since only candidates have one (a score on every element was a boxed double
 * and two more fields on each, for every element of the page).
 */
type Scores = Float64Array

const noScores = (page: Page): Scores => new Float64Array(page.all.length).fill(Number.NaN)

const isScored = (scores: Scores, el: El): boolean => !Number.isNaN(scores[el.order]!)

/** An element's score, 0 when it is not a candidate. */
const scoreOr0 = (scores: Scores, el: El): number => {
  const s = scores[el.order]!
  return Number.isNaN(s) ? 0 : s
}

const elements = (el: El): Array<El> => {
  const out: Array<El> = []
  for (const c of el.children) if (typeof c !== "number" && !c.drop) out.push(c)
  return out
}

const isAncestor = (a: El, el: El): boolean => {
  for (let p = el.parent; p !== undefined; p = p.parent) if (p === a) return true
  return false
}

/**
 * The author lines of a listing's entries (credits.ts) step 1 found on a page, which the fallbacks
 * that drop by name (`minorityFallback`) or lists of links (`visibleFallback`) keep too.
 */
const creditsOf = new WeakMap<Page, ReadonlySet<El>>()

/**
 * The sections built as banners named as calls to action (calls.ts) step 1 kept on a page: the
 * cleaning (step 4) judges them without their names too, as it judges a section the page's table
 * of contents links to, so a section of a few paragraphs is not dropped for the name step 1 forgave.
 */
const bannerSectionsOf = new WeakMap<Page, ReadonlySet<El>>()

/**
 * Step 1: furniture dropped unless it holds a large share of the page; on a product page, the
 * page's own header and footer inside its `main` whatever they hold (pageFrame.ts); a cookie or
 * consent banner known by its build (consents.ts) whatever it holds.
 */
const dropFurniture = (page: Page, measured = false, undated = false, discussion = false, product = false): number => {
  if (!measured) measure(page)
  const total = page.root.text
  const keep = total * SHARE_KEEPING_FURNITURE
  // An undated page's entries keep their tags (tags.ts), and, on no discussion, their author lines (credits.ts).
  const tags = undated ? entriesTags(page) : undefined
  const credits = undated && !discussion ? entriesCredits(page) : undefined
  if (credits !== undefined) creditsOf.set(page, credits)
  const sections = sectionsNamedCallToAction(page)
  bannerSectionsOf.set(page, sections)
  // A section the page's table of contents links to is named by its id for that link (anchors.ts).
  const targets = linkedSections(page)
  let dropped = 0
  for (const el of page.all) {
    if (el.parent?.drop === true) el.drop = true
    else if (
      !el.drop &&
      ((product && pageFrame(page, el)) ||
        (el.text < keep || smallPrintBlock(page, el, total)) && !namedForItsLink(targets, el) && !legalSlug(page, el) &&
          ((el.marks.furniture === 2 && !ratingSaid(page, el) && !sections.has(el) && credits?.has(el) !== true &&
            !promotedGrid(page, el, product)) ||
            (el.marks.furniture === 1 && !prose(el) &&
              el.name !== "table" /* a weak name on a data table ("table-header") is its own */ &&
              !aroundDataTable(el) /* a builder's box for pasted HTML (`w-embed`) holding a table of figures */ &&
              tags?.has(el) !== true) ||
            (el.marks.furniture === 3 && el.text < MAX_BYLINE && !(product && titledBlock(page, el))) ||
            furnitureTag(el)) ||
        consentBanner(page, el))
    ) {
      el.drop = true
      dropped += el.text
    }
    // Its figures were read (the decision above): clear them to sum them again over what is kept.
    unmeasure(el)
  }
  sumAll(page)
  return dropped
}

/** The least text (visible characters) the page holds beside a block of small print (`smallPrintBlock`). */
const MIN_BESIDE_SMALL_PRINT = 1500

/**
 * Whether `el` is a block of legal small print, named so in its class (boilerplate.ts
 * `namedSmallPrint`), holding no heading, on a page with 1,500 characters beside it: a home page's
 * footnoted disclaimers and trial terms, an insurer's disclosures of each program under its
 * footer, which outweigh the page's own short sections. Strong furniture is kept when it holds 40%
 * of the page (a form wrapping everything, a terms page in a box named `legal`); small print
 * without a heading is not the page, whatever its share. Step 1 drops it, and so does the visible
 * fallback (`visibleFallback`), which believes no other strong name.
 */
const smallPrintBlock = (page: Page, el: El, total: number): boolean => {
  if (el.marks.furniture !== 2 || total - el.text < MIN_BESIDE_SMALL_PRINT) return false
  if (!namedSmallPrint(el.attribs.class)) return false
  return !headingBelow(page, el)
}

/**
 * Whether `el` is a section the page's own table of contents links to (`href="#cookies"`, a
 * heading opening it) and whose furniture is named by its id alone: the id is the anchor the link
 * names (a manual's section on cookies, `id="cookies"`), not what the section is. Its class is
 * judged as before (a comment section's `comments-area`).
 */
const namedForItsLink = (targets: ReadonlySet<El>, el: El): boolean =>
  el.marks.furniture > 0 && targets.has(el) && markOf(el.name, { ...el.attribs, id: undefined }).furniture === 0

/**
 * Whether `el` is strong furniture only by an id that ends in `legal` (boilerplate.ts `LEGAL_ID`)
 * while it holds a heading or stands in one: the id is that heading's slug (a manual's
 * `<section id="legal">`, `outline-container-legal`, a wiki's `<span id="Legal">` inside its `h2`),
 * a section about the law, not a box of legal small print.
 */
const legalSlug = (page: Page, el: El): boolean =>
  el.marks.furniture === 2 && el.attribs.id !== undefined && LEGAL_ID.test(el.attribs.id.trim()) &&
  markOf(el.name, { ...el.attribs, id: undefined }).furniture === 0 &&
  (headingBelow(page, el) || hasAncestorNamed(el, "h1", "h2", "h3", "h4", "h5", "h6"))

/** A rating said in words ("4.7 out of 5 stars", "an average rating of 4.6"), as a rating element spells it for screen readers. */
const RATING_SAID = /\bout of \d+(?:\.\d+)? stars?\b|\baverage rating of\b/i
/** Whether a short element named as a rating says the rating in words: what tells one entry from the next. */
const ratingSaid = (page: Page, el: El): boolean =>
  el.text <= 120 && /rating/i.test(namesOf(el)) &&
  RATING_SAID.test(textContent(page.texts, el))

/** Text that reads like an article's: long, and mostly not links. */
const prose = (el: El): boolean => el.text >= 200 && linkDensity(el) < 0.25

/** The most elements a card named like a byline holds (`titledBlock`): a card, not a section. */
const MAX_TITLED_ELEMENTS = 64

/**
 * Whether an element holds a heading and more text beside its first heading (a sentence, or a
 * value set in a heading's type): a feature's card or a row of specifications, not a byline,
 * whatever its names say (a page builder's state of a block, `paragraph-published`, reads as the
 * byline name "publish").
 */
const titledBlock = (page: Page, el: El): boolean => {
  if (el.end - el.order > MAX_TITLED_ELEMENTS) return false
  for (let i = el.order + 1; i < el.end; i++) {
    const d = page.all[i]!
    if (isHeading(d.name) && d.text > 0) return el.text > d.text
  }
  return false
}

/** A page's own header or footer is furniture; an article's or a section's is part of it. */
const furnitureTag = (el: El): boolean =>
  FURNITURE_TAGS.has(el.name) &&
  !((el.name === "header" || el.name === "footer") &&
    (hasAncestorNamed(el, "article") || hasAncestorNamed(el, "main") || hasAncestorNamed(el, "section")))

/**
 * An element's class/id weight, or 0 where the page's names were found wrong (everything that
 * reads like content was named as furniture: a forum whose posts are "comments").
 */
const weightOf = (el: El, names: boolean): number => (names ? el.marks.weight : 0)

/** Step 2: candidates and their scores (`names`: see `weightOf`). */
const scoreCandidates = (page: Page, scores: Scores, names: boolean): Array<El> => {
  const candidates: Array<El> = []
  for (const el of page.all) {
    if (el.drop || el.block !== undefined || el.own < MIN_PARAGRAPH) continue
    // Text split by pairs of <br> counts as that many paragraphs (Readability turns them into <p>s).
    const paragraphs = Math.min(1 + Math.floor(el.breaks / 2), Math.floor(el.own / MIN_PARAGRAPH))
    const s = paragraphs + el.commas + Math.min(Math.floor(el.own / 100), 3 * paragraphs)
    let level = 0
    for (let a = el.parent; a !== undefined && a.parent !== undefined && level < 5; a = a.parent, level++) {
      const at = a.order
      if (!isScored(scores, a)) {
        scores[at] = (TAG_SCORE[a.name] ?? 0) + weightOf(a, names)
        candidates.push(a)
      }
      scores[at] = scores[at]! + s / (level === 0 ? 1 : level === 1 ? 2 : level * 3)
    }
  }
  for (const c of candidates) scores[c.order] = scores[c.order]! * (1 - linkDensity(c)) + c.prose / PROSE_WEIGHT
  // A page that marks its main content (one `main` holding prose) is believed: candidates
  // elsewhere (overlays, teasers in the footer) count for less.
  const main = declaredMain(page)
  if (main !== undefined) {
    for (const c of candidates) {
      if (c !== main && !isAncestor(main, c) && !isAncestor(c, main)) {
        scores[c.order] = scores[c.order]! * OUTSIDE_MAIN
      }
    }
  }
  return candidates
}

/** The page's one `main` (or `role=main`) element when it holds prose. */
const declaredMain = (page: Page): El | undefined => {
  const mains = page.mains.filter((el) => !el.drop)
  return mains.length === 1 && mains[0]!.prose >= MIN_CONTENT ? mains[0] : undefined
}

const OUTSIDE_MAIN = 0.5

/** Step 3: the best candidate, moved up where the page says so, and its siblings. */
const pickContent = (
  scores: Scores,
  candidates: ReadonlyArray<El>,
  main: El | undefined,
  firstPost?: (sib: El) => boolean,
  one = false
): { readonly best: El; readonly picked: Array<El>; readonly climbs: ReadonlyArray<El> } | undefined => {
  // An ancestor taken as the content may not be a candidate: it scores 0.
  const score = (el: El): number => scoreOr0(scores, el)
  const ranked = [...candidates].sort((a, b) => score(b) - score(a)).slice(0, 5)
  const best = ranked[0]
  if (best === undefined) return undefined
  let top = best
  const alternatives = ranked.slice(1).filter((c) => score(c) / score(top!) >= 0.75)
  // On a page that shows one product, close rivals are its description's blocks beside the buy
  // box, the specifications and the reviews: the best of them stays the box (`narrowProduct`).
  if (alternatives.length >= 3 && !one) {
    for (let p = top.parent; p !== undefined && p.name !== "body" && p.parent !== undefined; p = p.parent) {
      if (alternatives.filter((c) => isAncestor(p!, c)).length >= 3) {
        top = p
        break
      }
    }
  }
  const climbs = [best, top]
  let last = score(top)
  const threshold = last / 3
  for (let p = top.parent; p !== undefined && p.name !== "body" && p.parent !== undefined; p = p.parent) {
    if (!isScored(scores, p)) continue
    if (score(p) < threshold) break
    if (score(p) > last) {
      top = p
      break
    }
    last = score(p)
  }
  climbs.push(top)
  for (
    let p = top.parent;
    p !== undefined && p.name !== "body" && p.parent !== undefined && elements(p).length === 1;
    p = p.parent
  ) top = p
  climbs.push(top)
  // Readability stops early on pages whose article is split over several containers: take in an
  // ancestor while it adds a good share of prose and is not mostly links.
  for (let p = top.parent; p !== undefined && p.name !== "body" && p.parent !== undefined; p = p.parent) {
    if (linkDensity(p) > MAX_GROWN_LINK_DENSITY) break
    if (p.prose - top.prose >= GROWTH * top.prose) top = p
  }
  climbs.push(top)
  const parent = top.parent
  // The content is the page's declared main element: what lies beside it is not.
  if (parent === undefined || top === main) return { best, picked: [top], climbs }
  const bar = Math.max(10, score(top) * 0.2)
  const cls = top.attribs.class
  const picked: Array<El> = []
  for (const sib of elements(parent)) {
    if (sib === top) picked.push(sib)
    else if (
      isScored(scores, sib) &&
      score(sib) + (cls !== undefined && sib.attribs.class === cls ? score(top) * 0.2 : 0) >= bar
    ) picked.push(sib)
    else if (sib.name === "p") {
      const ld = linkDensity(sib)
      if ((sib.text > 80 && ld < 0.25) || (sib.text > 0 && sib.text <= 80 && ld === 0 && sib.commas + sib.own > 0)) {
        picked.push(sib)
      }
    }
  }
  return { best, picked: firstPost === undefined ? picked : [...firstPosts(top, firstPost), ...picked], climbs }
}

/** The siblings before the content's box (climbed through boxes of one element) that `firstPost` takes. */
const firstPosts = (top: El, firstPost: (sib: El) => boolean): Array<El> => {
  let box = top
  while (box.parent !== undefined && box.parent.name !== "body" && elements(box.parent).length === 1) box = box.parent
  const parent = box.parent
  if (parent === undefined) return []
  return elements(parent).filter((sib) => sib.order < box.order && firstPost(sib))
}

const CLEANED = new Set(["form", "fieldset", "table", "ul", "ol", "dl", "div", "section", "header", "footer", "figure"])

/**
 * Step 4: furniture inside the content (never the best candidate or what holds it). One pass over
 * the roots' subtrees in document order, skipping each dropped or judged subtree: a judgement
 * reads an element's figures and its subtree, never what was decided beside it.
 */
const clean = (
  page: Page,
  scores: Scores,
  roots: ReadonlyArray<El>,
  best: El,
  names: boolean,
  product: boolean,
  undated = false
): void => {
  const all = page.all
  const cards = cardsToKeep(all, roots, product ? undefined : (g) => pricedGrid(page, g))
  const directory = headedLinkLists(roots)
  const found = posts(page, roots)
  // Sections the page's table of contents links to are read without their names (anchors.ts).
  const sections = linkedSections(page)
  const banners = bannerSectionsOf.get(page)
  const title = undated && !product ? pageTitle(page) : undefined
  let end = 0
  for (const root of roots) end = Math.max(end, root.end)
  for (const root of roots) {
    eachKept(all, root.order + 1, root.end, (el) => {
      if (cards !== undefined && cards[el.order] !== Keep.Judge) return cards[el.order] === Keep.Card
      if (isHeading(el.name)) {
        if (weightOf(el, names && !sections.has(el)) < 0) el.drop = true
        return true
      }
      // A list the article's sentence introduces is read whole (introduced.ts).
      if (
        weightOf(el, names) >= 0 &&
        (introducedList(page, el, end) || labelledList(page, el) || listAfterProse(page, el, end))
      ) return true
      const judge = (b: El): boolean =>
        furniture(
          page,
          scores,
          b,
          names && !sections.has(b) && banners?.has(b) !== true && !tableFrame(b) && !(scrolledCopy(b) && !product),
          inPost(found, b),
          product
        )
      const judged = CLEANED.has(el.name) && !directory.has(el) && judge(el)
      // `el` holds the best candidate when the best is in its subtree.
      if (
        (judged || (linkParagraph(el) && !linkedSentence(page, el) && !titleOverItem(page, el)) ||
          negativeItem(scores, el, names)) &&
        !inside(best, el)
      ) {
        // A table of figures whose names are links, and a box holding only it, are read whole (dataTables.ts).
        if (judged && ((weightOf(el, names) >= 0 && dataTable(el)) || aroundDataTable(el))) return false
        // A section whose heading and paragraph come before its links is judged part by part (intros.ts).
        if (judged && weightOf(el, names) >= 0 && introducedSection(page, el)) return false
        // A note boxed inside the text ("Tip", "See also") is judged part by part (callouts.ts).
        if (judged && weightOf(el, names) >= 0 && labelledNote(page, el)) return false
        // An article's own header holding its heading (a front page's story, its title a link) is judged part by part.
        if (judged && undated && weightOf(el, names) >= 0 && articleHeader(el)) return false
        // A box that holds the page's one title and its lead (a hero's, beside a breadcrumb) is judged part by part.
        if (judged && weightOf(el, names) >= 0 && title !== undefined && holdsTitleLead(page, el, title)) return false
        // An entry built as the entries beside it that the cleaning keeps is kept whole (alike.ts).
        if (judged && weightOf(el, names) >= 0 && likeKeptSibling(page, el, (s) => !judge(s))) return true
        // A short item among items of its tag and class that the cleaning keeps is read with them (alike.ts).
        if (judged && weightOf(el, names) >= 0 && el.text < MIN_PARAGRAPH && shortAmongKept(el, (s) => !judge(s))) {
          return false
        }
        el.drop = true
        return true
      }
      return false
    })
  }
}

/** Whether an element's own tag or style hides it (a script, a hidden span), whatever its parent's state. */
const tagHides = (e: El): boolean => droppedTag(e.name, e.attribs) || furnitureTag(e)

/**
 * Whether `el` is a `header` of an `article` (its child) holding a kept heading (`hasHeading`): the article's
 * title, a link on a front page that lists whole stories, not the page's furniture.
 */
const articleHeader = (el: El): boolean => el.name === "header" && el.parent?.name === "article" && hasHeading(el)

/** The page's one `h1` with text, when it has one. */
const pageTitle = (page: Page): El | undefined => {
  let found: El | undefined
  for (const el of page.all) {
    if (el.name !== "h1" || el.drop || el.text === 0) continue
    if (found !== undefined) return undefined
    found = el
  }
  return found
}

/** The least text of the paragraph under the page's title that `holdsTitleLead` reads as its lead. */
const MIN_TITLE_LEAD = 100

/**
 * Whether `box` holds the page's title (`title`) and, after it, a paragraph of `MIN_TITLE_LEAD`
 * characters or more with no link: the title's lead.
 */
const holdsTitleLead = (page: Page, box: El, title: El): boolean => {
  if (!inside(title, box)) return false
  for (let i = title.end; i < box.end; i++) {
    const e = page.all[i]!
    if (e.name === "p" && !e.drop && e.text >= MIN_TITLE_LEAD && e.link === 0) return true
  }
  return false
}

/** A list item whose name says furniture ("teaser", "share", "related") and that does not read like the article. */
const negativeItem = (scores: Scores, el: El, names: boolean): boolean =>
  el.name === "li" && weightOf(el, names) < 0 && weightOf(el, names) + scoreOr0(scores, el) < 0 &&
  !(el.prose >= PROSE_KEPT && el.link < 0.1 * el.text)

/** The least words of a linked sentence. */
const MIN_SENTENCE_WORDS = 8

/**
 * A paragraph that is one sentence, ended with a full stop, most of it linked ("Installations
 * like solar panels often qualify for federal tax credits."): the writer's sentence, its source
 * linked; a pointer elsewhere ("Read also: …") names a page and ends with its title.
 */
const linkedSentence = (page: Page, el: El): boolean => {
  const text = collapsedText(page, el)
  return /[.!]["'\u201d\u2019)]*$/.test(text) && text.split(" ").length >= MIN_SENTENCE_WORDS
}

/** A short paragraph that is all links ("Read also: …") is a pointer elsewhere, not content. */
const linkParagraph = (el: El): boolean => el.name === "p" && el.text < LONG_BLOCK / 2 && linkDensity(el) >= 0.75

/** The largest share of a list's text in links for it to be read rather than clicked (`readList`). */
const READ_LIST_LINKS = 0.3

/**
 * A list that is read, not a menu: under `READ_LIST_LINKS` of its text in links (a product's
 * features where one item points to a how-to, an article's list with a source linked). Its tag
 * alone does not condemn it, links or not; a name or the link-density test below still may.
 */
const readList = (el: El): boolean => isList(el) && el.link < READ_LIST_LINKS * el.text

const furniture = (page: Page, scores: Scores, el: El, names: boolean, post = false, product = false): boolean => {
  const weight = weightOf(el, names)
  // A name alone does not condemn a block that reads like the article (Readability counts the
  // weight twice here: once in the score, once beside it); many paragraphs with few links stay.
  // A list's tag alone (−3) does not condemn it either: a recipe's ingredients have no links, a
  // product's list of features one ("use them like a pro with our how-to").
  if (
    weight + scoreOr0(scores, el) < 0 && (weight < 0 || (el.link > 0 && !readList(el))) &&
    !(el.prose >= PROSE_KEPT && el.link < 0.1 * el.text)
  ) return true
  if (el.allCommas >= 10) return false
  const ld = linkDensity(el)
  // A thread's post (posts.ts) and what it holds: links outweighing the rest, not the bar of short blocks.
  if (post) return ld > 0.5 || (el.text < MIN_PARAGRAPH && !hasHeading(el))
  const isList = el.name === "ul" || el.name === "ol" || el.name === "dl"
  if (isList) return ld > 0.5
  // A long block is furniture only when mostly links (Readability's 0.2 drops sections whose paragraphs link a lot),
  // and a block of paragraphs (`PROSE_LINKED` of prose) or of linked sentences (`linkedProse`) only past
  // `MAX_PROSE_LINK_DENSITY`.
  return (weight < 25 &&
    ld >
      (el.text > LONG_BLOCK
        ? 0.5
        : el.prose >= PROSE_LINKED || linkedProse(page, el, ld)
        ? MAX_PROSE_LINK_DENSITY
        : 0.2)) ||
    (weight >= 25 && ld > 0.5) ||
    (el.text < MIN_PARAGRAPH && !hasHeading(el) &&
      !(product && (factRow(el) || wrappedFactRow(el) || factPart(el) || wrappedFactPart(el) || titlePart(page, el))))
}

/** The least prose of a short block whose sentence links a few of its words (`linkedProse`). */
const LINKED_PROSE_MIN = 100

/**
 * A short block of prose whose sentences link a few of their words ("… including cable locks and
 * Python locks, folding locks and U-locks."): past Readability's bar of short blocks (0.2) but
 * under that of paragraphs, ending as a sentence does, its links inside the text rather than
 * after it.
 */
const linkedProse = (page: Page, el: El, ld: number): boolean =>
  ld <= MAX_PROSE_LINK_DENSITY && el.prose >= LINKED_PROSE_MIN && !hasHeading(el) && !opensWithLink(page, el) &&
  linkedSentence(page, el) && sentencesMostlyUnlinked(page, el)

/**
 * Whether each sentence of `el` that holds a link has most of its words outside links: the source
 * named in the writer's sentence, not a sentence made of calls ("Support us with a donation or
 * give us 1% of your tax.").
 */
const sentencesMostlyUnlinked = (page: Page, el: El): boolean => {
  const parts: Array<{ text: string; linked: boolean }> = []
  const walk = (e: El, linked: boolean): void => {
    for (const c of e.children) {
      if (typeof c === "number") parts.push({ text: page.texts.of(c), linked })
      else if (!c.drop) walk(c, linked || c.name === "a")
    }
  }
  walk(el, false)
  let all = 0
  let inLinks = 0
  for (const part of parts) {
    for (const ch of part.text) {
      if (/\S/.test(ch)) {
        all++
        if (part.linked) inLinks++
      }
      if (/[.!?]/.test(ch)) {
        if (inLinks * 2 > all) return false
        all = 0
        inLinks = 0
      }
    }
  }
  return inLinks * 2 <= all
}

/** Whether the first element holding text in `el` is (or lies in) a link: a teaser's title or label. */
const opensWithLink = (page: Page, el: El): boolean => {
  for (let e: El | undefined = el; e !== undefined; e = leadingChild(page, e)) if (e.name === "a") return true
  return false
}

/**
 * The page's one `h1` and the paragraph right after it, when both sit before the chosen content
 * and outside it: the title and its lead in a hero above the body. The title may stand in boxes
 * that hold nothing else, a short heading of its own may stand between them (a hero's tagline,
 * kept with them), and the paragraph in a box that shows nothing else (a category's
 * description beside its "more" control); not on a dated page (`undated` false), where a
 * paragraph boxed apart under the title is an article's deck. On an undated page the lead may be
 * shorter when it ends as a sentence does (`shortLead`: a trending page's one line under its
 * title). With no paragraph after the title, a lead written as a bare text run in the box of the
 * title (`bareLead`) brings that box whole.
 */
const titleLead = (page: Page, picked: ReadonlyArray<El>, undated: boolean): Array<El> => {
  const parts = titleAndLead(page, picked, undated)
  return parts.length > 0 ? parts : titleAlone(page, picked)
}

/**
 * The page's one `h1` alone, kept, standing before the chosen content and outside it (no link,
 * 150 characters at most), when no lead goes with it (`titleAndLead`) and the document's `<title>`
 * does not hold every word of it: the title the reader sees over the page, written as the copy's
 * heading instead of a document title that names something else (the site alone, an older
 * headline, a search engine's wording). A document's title that holds all its words says the same
 * title at more length (the product's kind, the site's section) and stays the copy's heading,
 * unless it is the `h1`'s words and, after a separator, the site's name and slogan (`siteAfter`).
 */
const titleAlone = (page: Page, picked: ReadonlyArray<El>): Array<El> => {
  const h1s = page.all.filter((e) => e.name === "h1" && !e.drop)
  if (h1s.length !== 1) return []
  const h1 = h1s[0]!
  if (h1.order >= picked[0]!.order || h1.text === 0 || h1.text > TAGLINE || h1.link > 0) return []
  if (picked.some((r) => inside(h1, r) || inside(r, h1))) return []
  // A document's title that holds every word of the h1 says the same title, longer: it stays.
  const doc = page.all.find((e) => e.name === "title")
  const docTitle = doc === undefined ? "" : textContent(page.texts, doc)
  const said = new Set(wordsOf(docTitle))
  const own = wordsOf(textContent(page.texts, h1))
  if (own.length === 0) return []
  return !own.every((w) => said.has(w)) || siteAfter(docTitle, own) ? [h1] : []
}

/** A separator between a document title's parts ("Chess Sets - The Shop", "Sofas | Shop"). */
const TITLE_SEPARATOR = /^\s*[-|\u2013\u2014\u00b7\u2022\u00bb/]\s*/

/** The fewest words the document's title adds after the separator (fewer: the site's name alone, often said in the text). */
const MIN_ADDED = 3

/**
 * Whether the document's title is the `h1`'s words (`own`) and then, after a separator, more: the
 * site's name or its slogan ("Chess Sets - The Games Company - Online chess shop" over the
 * `h1` "Chess Sets"), which the reader does not see over the page.
 */
const siteAfter = (docTitle: string, own: ReadonlyArray<string>): boolean => {
  const re = new RegExp(
    `^\\s*${own.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^\\p{L}\\p{N}]+")}`,
    "iu"
  )
  const m = re.exec(docTitle)
  if (m === null) return false
  const rest = docTitle.slice(m[0].length)
  return TITLE_SEPARATOR.test(rest) && wordsOf(rest).length >= MIN_ADDED
}

/** The title with its lead (`titleLead`'s first reading, above), or none. */
const titleAndLead = (page: Page, picked: ReadonlyArray<El>, undated: boolean): Array<El> => {
  const h1s = page.all.filter((e) => e.name === "h1" && !e.drop)
  const hero = h1s.length === 0 ? weakHeroTitle(page) : undefined
  if (hero !== undefined) return heroTitleLead(page, hero, picked)
  if (h1s.length !== 1) return []
  const h1 = h1s[0]!
  const first = picked[0]!
  if (h1.order >= first.order || picked.some((r) => inside(h1, r))) return []
  let anchor = h1
  for (let up = 0; up < TITLE_WRAPS; up++) {
    const p = anchor.parent
    if (p === undefined || p.name === "body" || p.text !== anchor.text) break
    anchor = p
  }
  const parent = anchor.parent
  if (parent === undefined) return []
  let seen = false
  let tagline: El | undefined
  for (const c of parent.children) {
    if (typeof c === "number") continue
    if (c === anchor) {
      seen = true
      continue
    }
    if (!seen || c.drop) continue
    // A short heading of its own under the title (a hero's tagline) may stand before the lead.
    if (tagline === undefined && c.name !== "h1" && isHeading(c.name) && c.link === 0 && c.text <= TAGLINE) {
      tagline = c
      continue
    }
    const lead = wrappedParagraph(c)
    if (lead === undefined || lead.link > 0 || (lead.text < 100 && !(undated && shortLead(page, lead)))) return []
    // Under a dated page's title, a paragraph in a box of its own is the article's deck.
    if (!undated && (anchor !== h1 || lead !== c)) return []
    const parts = tagline === undefined ? [h1, lead] : [h1, tagline, lead]
    return parts.some((el) => picked.some((r) => inside(r, el) || inside(el, r))) ? [] : parts
  }
  return undated && tagline === undefined && bareLead(page, parent, anchor) &&
      !picked.some((r) => inside(r, parent) || inside(parent, r)) ?
    [parent] :
    []
}

/**
 * Whether `box` holds the title (`anchor`, its one shown child) and, after it, its lead as a bare
 * text run of its own (no paragraph around it: a category's description written straight into
 * the box of its title), of 100 characters or more and no link.
 */
const bareLead = (page: Page, box: El, anchor: El): boolean => {
  if (box.name === "body" || box.selfText < 100 || box.link > 0) return false
  const shown = shownChildren(box)
  if (shown.length !== 1 || shown[0] !== anchor) return false
  for (const c of box.children) {
    if (c === anchor) return true
    if (typeof c === "number" && /\S/.test(page.texts.of(c))) return false
  }
  return false
}

/**
 * The page's one `h1` when the cleaning dropped it for a weak furniture name, its own or a box's
 * around it (a hero's title named for its `banner`, `hero-banner__heading`: Readability's negative
 * name): the name says where the title is drawn, not that it is furniture. Not when a strong
 * furniture name, a furniture tag (a page's `header`, `nav`) or a hiding tag or style dropped it,
 * nor when the weakly named box holds another heading (a strip of its own, not a hero's title).
 */
const weakHeroTitle = (page: Page): El | undefined => {
  const h1s = page.all.filter((e) => e.name === "h1")
  if (h1s.length !== 1) return undefined
  const h1 = h1s[0]!
  let top: El | undefined
  for (let a: El | undefined = h1; a !== undefined && a.drop; a = a.parent) {
    if (furnitureTag(a) || droppedTag(a.name, a.attribs) || a.marks.furniture === 2 || a.marks.furniture === 3) {
      return undefined
    }
    if (a.marks.furniture === 1) top = a
  }
  if (top === undefined || top.parent?.drop === true) return undefined
  for (let i = top.order + 1; i < top.end; i++) {
    const e = page.all[i]!
    if (e !== h1 && isHeading(e.name)) return undefined
  }
  return h1
}

/**
 * The title and its lead in a weakly named hero (`weakHeroTitle`), read back in when both stand
 * before the chosen content: the title (or the boxes around it that hold nothing else), then the
 * next element with text, a `p` or a `div` of text alone (no link, no box: inline tags only), 100
 * characters at least, not strongly named as furniture. The rest of the hero (its price, its
 * buttons, its pictures) stays out; without such a lead the title stays out too, as before.
 */
const heroTitleLead = (page: Page, h1: El, picked: ReadonlyArray<El>): Array<El> => {
  const first = picked[0]!
  if (h1.order >= first.order || picked.some((r) => inside(h1, r))) return []
  let anchor = h1
  for (let up = 0; up < TITLE_WRAPS; up++) {
    const p = anchor.parent
    if (p === undefined || p.name === "body" || parsedText(page, p) !== parsedText(page, anchor)) break
    anchor = p
  }
  const parent = anchor.parent
  if (parent === undefined) return []
  const at = parent.children.indexOf(anchor)
  const next = parent.children.slice(at + 1).find((c): c is El => typeof c !== "number" && parsedText(page, c) > 0)
  if (next === undefined || (next.name !== "p" && next.name !== "div") || next.marks.furniture > 1) return []
  for (let i = next.order + 1; i < next.end; i++) {
    const e = page.all[i]!
    if (e.name !== "br" && e.name !== "span" && e.name !== "strong" && e.name !== "em" && e.name !== "b") return []
  }
  if (parsedText(page, next) < 100) return []
  for (const el of [h1, next]) {
    for (let i = el.order; i < el.end; i++) {
      const e = page.all[i]!
      // What its own tag or style hides (a script, a hidden span) stays out.
      if (e.parent === undefined || e === el || !e.parent.drop) {
        e.drop = tagHides(e)
      }
    }
  }
  measure(page)
  return [h1, next]
}

/** The least text of a short lead `titleLead` reads under an undated page's title. */
const SHORT_LEAD = 40

/**
 * A lead under 100 characters that `titleLead` reads under an undated page's title: `SHORT_LEAD`
 * characters or more, ending as a sentence does ("See what the community is most excited about
 * today."), not a label or a count.
 */
const shortLead = (page: Page, lead: El): boolean =>
  lead.text >= SHORT_LEAD && endsAsSentence(collapsedText(page, lead))

/** The longest heading under the title `titleLead` reads as its tagline, in characters. */
const TAGLINE = 150

/** The most boxes around the `h1` that hold nothing else (a title's wrapper) `titleLead` looks past. */
const TITLE_WRAPS = 3

/**
 * `el` when it is a paragraph, or the paragraph a box holds as all it shows (a description's
 * wrapper: no text of its own, one shown child with text, down to a `p`).
 */
const wrappedParagraph = (el: El): El | undefined => {
  let c = el
  for (let down = 0; down < TITLE_WRAPS && c.name !== "p"; down++) {
    if (c.own > 0) return undefined
    const shown = shownChildren(c)
    if (shown.length !== 1) return undefined
    c = shown[0]!
  }
  return c.name === "p" ? c : undefined
}

const hasHeading = (el: El): boolean => {
  const stack: Array<El> = [el]
  while (stack.length > 0) {
    const e = stack.pop()!
    if (isHeading(e.name)) return true
    for (const c of e.children) if (typeof c !== "number" && !c.drop) stack.push(c)
  }
  return false
}

/**
 * The first `main` (or `role=main`) element, else the outermost `article`s when they hold
 * `ARTICLES_SHARE` of the page's text or more, else the whole page: articles holding less are
 * teasers (a menu's "insights", a strip of posts), not what the page shows.
 */
const declaredContent = (page: Page): Array<El> => {
  const main = page.mains.find((el) => !el.drop)
  if (main !== undefined) return [main]
  const articles = page.all.filter((el) => !el.drop && el.name === "article" && !hasAncestorNamed(el, "article"))
  return articles.length > 0 && articles.reduce((n, a) => n + a.text, 0) >= ARTICLES_SHARE * page.root.text
    ? articles
    : [page.root]
}

const enough = (content: ReturnType<typeof pickContent>): boolean =>
  content !== undefined && content.picked.reduce((n, el) => n + el.text, 0) >= MIN_CONTENT

/**
 * Undo step 1: only what its tag drops stays dropped, and a cookie or consent banner known by its
 * build (consents.ts), which a short post's few lines would lose to (the caller scores again from none).
 */
const keepFurniture = (page: Page): void => {
  for (const el of page.all) {
    el.drop = (el.parent?.drop ?? false) || dropsItself(page, el) || consentBanner(page, el)
    unmeasure(el)
  }
  sumAll(page)
}

/**
 * The elements whose (not dropped) subtrees make the readable copy, in document order. What the
 * page says of itself (meta.ts) changes how names are read: a forum thread or a Q&A page keeps its
 * replies (`discussionNames`), a product page drops its reviews and other products
 * (`productNames`; not its grid when it shows a group of products), and on every page a strip
 * it labels as advertising is furniture (ads.ts `sponsoredStrips`). A choice
 * that keeps less than `MIN_CONTENT` characters, or less than `MIN_SHARE_CHOSEN` of what the page
 * shows, or only its preface (`preface`; a listing, a homepage, a service page built of cards and
 * short blocks that never score), or no article beside the entries it leaves out (entries.ts
 * `entriesLeftOut`; not on a discussion or one product's page),
 * is replaced by the page's visible text without its nameable furniture (`visibleFallback`) when
 * that holds more: never a title-only copy of a page that shows text. On a page of one product, a
 * choice that stands and holds one shown tab panel named as the description gives way to that panel
 * alone, and with no such panel, to the one box named for the product's description that holds a
 * third of its text (descriptionTab.ts). Inside what is chosen, the tab panels and an accordion's answers that
 * wait hidden for a click are shown (`tabPanels`, accordions.ts `accordionAnswers`).
 */
export const chooseContent = (
  page: Page,
  says: Partial<Pick<PageMeta, "discussion" | "product" | "productGroup" | "published" | "faq">> = {}
): ReadonlyArray<El> => {
  const product = says.product === true
  // A page that shows one product, not a group of them (`product.group`: a collection's grid).
  const oneProduct = product && says.productGroup !== true
  if (says.discussion === true) {
    discussionNames(page)
    keepPosterLines(page)
  }
  keepPostHeads(page)
  const names = posterNames(page)
  const otherProducts = new Set(
    product
      ? productNames(page, says.productGroup === true)
      : says.published === undefined && says.discussion !== true
      ? customerReviews(page)
      : []
  )
  for (const el of sponsoredStrips(page)) {
    el.marks = { weight: Math.min(el.marks.weight, 0) - 25, furniture: 2 }
    otherProducts.add(el)
  }
  // A grid of priced cards in a box named for its pager is the listing, not the pager (paging.ts).
  if (!product) pagedGrids(page)
  // A page that declares a group of products (`product.group`) lists them: its grid joins as on any page.
  let roots = declaredFaq(
    page,
    priceGrids(
      page,
      scoredContent(
        page,
        product,
        says.published === undefined,
        says.discussion === true,
        oneProduct
      ),
      oneProduct
    ),
    says.faq
  )
  // On an undated page that shows no one product, a guide's closed accordion right after the content joins it (faqs.ts).
  if (!product && says.published === undefined) roots = guideAfter(page, roots)
  const kept = keptText(page, roots)
  const keptUnlinked = unlinkedText(page, roots)
  const keptProse = roots.reduce((n, r) => n + r.prose, 0)
  // A page that says it is a discussion or shows one product is no listing.
  const listing = says.discussion !== true && !oneProduct
  const published = says.published !== undefined
  const drops = page.all.map((el) => el.drop)
  const fallback = visibleFallback(page, product, otherProducts, oneProduct)
  const shown = keptText(page, fallback)
  // A short post (`shortPost`) stays unless the page shows twenty times its text.
  const short = shortPosts.has(page)
  if (
    shown > kept &&
    (kept < MIN_SHARE_CHOSEN * shown || (!short && (kept < MIN_CONTENT || preface(kept, shown))) ||
      (listing && entriesLeftOut(page, roots, fallback, { text: kept, prose: keptProse, published }, shown)))
  ) {
    return accordionAnswers(page, tabPanels(page, fallback, !product), !published)
  }
  const beside = listing ? entriesBeside(page, roots, drops, fallback, published) : undefined
  if (beside !== undefined) return accordionAnswers(page, tabPanels(page, beside, !product), !published)
  // `minorityFallback` reads the page's unlinked text with more left out than `shown`: a choice
  // holding that share of `shown` holds it of the unlinked text too, and the pass is skipped; so it
  // is for a short post (what its page shows beside it is the blog's).
  const blocks = !short && keptUnlinked < MIN_SHARE_UNLINKED * shown &&
      !(oneProduct && narrowProduct(page, roots, { kept, keptProse, shown }, drops, fallback))
    ? minorityFallback(page, roots, { text: kept, unlinked: keptUnlinked, prose: keptProse }, drops)
    : undefined
  if (blocks !== undefined) return accordionAnswers(page, tabPanels(page, blocks, !product), !published)
  page.all.forEach((el, i) => (el.drop = drops[i]!))
  showPosterNames(page, roots, names)
  // The fallbacks measured the page with their own drops (a card's list of one link left out as a
  // link list): measured again, the rules after the choice (chrome.ts) read what the copy shows.
  measure(page)
  // On a page of one product, its description's tab is the content, without the tabs beside it,
  // or else the box named for its description, without the blocks the theme adds (descriptionTab.ts).
  const description = oneProduct ? descriptionPanel(page, roots) ?? descriptionBox(page, roots) : undefined
  if (description !== undefined) return accordionAnswers(page, [description], !published)
  return accordionAnswers(page, tabPanels(page, roots, !product), !published)
}

/**
 * The content's tab panels shown: a product page (a documentation page, a service page) shows its
 * description, its specifications and its questions in tabs, one at a time; the others wait hidden
 * (`hidden`, `display: none`) until the reader clicks their tab. A tab panel (`role="tabpanel"` or
 * a class that says so: boilerplate.ts `tabPanel`) hidden only that way is kept with what it holds
 * when it lies inside the chosen content, or beside a panel that holds it (the content is the one
 * panel shown). Chosen first, then shown: a panel hidden in a closed dialog does not change which
 * part of the page is the content. `ariaHidden` (every page but one that says it shows a product):
 * a panel hidden from screen readers (`aria-hidden="true"`) is also a closed tab's, shown the same
 * way; a service page's tabs hide their use cases and code samples so, while on a shop's product
 * page such panels held what its reference leaves out.
 */
const tabPanels = (page: Page, roots: ReadonlyArray<El>, ariaHidden = false): ReadonlyArray<El> => {
  const all = page.all
  const added: Array<El> = []
  let shown = false
  for (const root of roots) {
    for (let i = root.order + 1; i < root.end; i++) {
      const el = all[i]!
      if (showPanel(page, el, ariaHidden)) {
        shown = true
        i = el.end - 1
      }
    }
    // The content sits in one shown panel: its sibling panels are the other tabs.
    let panel: El | undefined = root
    for (let up = 0; panel !== undefined && up < PANEL_LEVELS && !tabPanel(panel.attribs); up++) panel = panel.parent
    if (panel === undefined || !tabPanel(panel.attribs) || panel.parent === undefined) continue
    for (const sib of panel.parent.children) {
      if (typeof sib === "number" || sib === panel || roots.includes(sib)) continue
      if (showPanel(page, sib, ariaHidden)) {
        shown = true
        added.push(sib)
      }
    }
  }
  if (shown) measure(page)
  return added.length === 0 ? roots : [...roots, ...added].sort((a, b) => a.order - b.order)
}

/** How far above the content a panel holding it is looked for. */
const PANEL_LEVELS = 3

/**
 * Show a tab panel hidden only by `hidden` or its style, or (`ariaHidden`) by `aria-hidden` (what
 * it holds as `droppedTag` says); whether it was.
 */
const showPanel = (page: Page, el: El, ariaHidden: boolean): boolean => {
  if (!el.drop || el.parent?.drop === true || !tabPanel(el.attribs)) return false
  const unhidden = ariaHidden && el.attribs["aria-hidden"]?.trim().toLowerCase() === "true"
  const attribs = unhidden ? { ...el.attribs, "aria-hidden": undefined } : el.attribs
  if (!unhidden && !concealing(el.name, attribs)) return false
  if (droppedTag(el.name, attribs, true)) return false
  el.drop = false
  const all = page.all
  for (let j = el.order + 1; j < el.end; j++) {
    const d = all[j]!
    d.drop = d.parent!.drop || dropsItself(page, d)
  }
  return true
}

/** Below this many characters a scored choice is a paragraph or two (`preface`). */
const PREFACE = 600
/** The share of the page's visible text under which such a choice is only the page's preface. */
const PREFACE_SHARE = 0.1

/**
 * Whether a scored choice is only the page's preface: a paragraph or two (under `PREFACE`
 * characters) on a page that shows ten times more. On listings, service pages, product pages
 * and homepages the one block that scores is the intro or the hero's blurb above what the page
 * lists (offers, products, entries); an article of several paragraphs is longer, and is kept.
 */
const preface = (kept: number, shown: number): boolean => kept < PREFACE && kept < PREFACE_SHARE * shown

/** Visible characters of the roots' subtrees, leaving out each subtree `skipped` says (the root's own too). */
const textIn = (page: Page, roots: ReadonlyArray<El>, skipped: (el: El) => boolean): number => {
  const all = page.all
  let n = 0
  for (const root of roots) {
    if (skipped(root)) continue
    n += root.selfText
    for (let i = root.order + 1; i < root.end;) {
      const el = all[i]!
      if (skipped(el)) {
        i = el.end
        continue
      }
      n += el.selfText
      i++
    }
  }
  return n
}

/** Visible characters left in the roots' subtrees (what is not dropped). */
const keptText = (page: Page, roots: ReadonlyArray<El>): number => textIn(page, roots, (el) => el.drop)

/**
 * Names of banners that sit over or under any page: cookie consent, subscription and sign-up
 * prompts, skip links; and the menus a shop lays over its page from a side (`sidemenu`,
 * `mobile-menu`, `mega-menu`, `menu-drawer`: a drill-down menu whose levels a script fills, so
 * its items are not yet links and it does not read as a list of links). A plain `menu` is not
 * one: a restaurant's menu is its page.
 */
const BANNER =
  /cookie|consent|gdpr|newsletter|subscri|signup|sign-up|popup|modal|skip-?link|skip-?to|announcement-bar|promo-bar|(?:side|mobile|mega|off-?canvas|drawer)-?menu|menu-?(?:drawer|container|panel)/i

/**
 * A name of a live chat's prompt laid over or across the page, as a class or id token:
 * `chat-banner`, `chat_bubble`, `chatBanner_x1Ab`, `chat-widget`, `chatLauncher` (`live-` or
 * `live_` before them too), alone or as the token's part after a joint (`site-chat-widget`) and
 * before its end or a joint: "Video Chat with a Lighting Expert - Live" and its "Chat Now" button
 * over a shop's item, or a round chat button in a corner. Not after a state's word
 * (boilerplate.ts `NOT_STATE`: `no-chat-bubble`, `has-chat-widget`, `without-chat-banner`), nor a
 * longer word (`chatBannerBorder` is only the border; `chat-widgets-list` a list of them).
 */
const CHAT_PROMPT = new RegExp(
  `^(?:[\\w-]*[-_])?${NOT_STATE}(?:live[-_]?)?chat[-_]?(?:banner|bubble|widget|launcher)(?:$|[-_])`,
  "i"
)

/**
 * The page's visible text (of its `main`, or of its articles, when it declares them) without the
 * furniture that can be named: what its tag drops (scripts, navigation, asides, hidden elements),
 * the page's own header and footer (boxes its script builds as the footer or the site's header,
 * named so: `namedFooter`, `namedHeader`; a wiki's print footer and category links: `wikiFooter`),
 * banners named as such, and lists of nothing but links (not
 * the entries of the page's `main`: `entriesInMain`, except on a page that shows one product: it
 * lists no entries, and a list of nothing but links in its `main` points to the shop's categories
 * or searches, "More to explore: Steel Kettles, Glass Kettles, …"). Class names that merely sound like furniture
 * ("comment", "related", "widget") are not believed here: on such a page they name the content.
 */
const visibleFallback = (
  page: Page,
  product = false,
  otherProducts: ReadonlySet<El> = new Set(),
  oneProduct = false
): Array<El> => {
  keepFurniture(page)
  const total = page.root.text
  const keep = total * SHARE_KEEPING_FURNITURE
  const credits = creditsOf.get(page)
  for (const el of page.all) {
    if (el.parent?.drop === true) el.drop = true
    else if (
      !el.drop && ((product && pageFrame(page, el)) || el.text < keep &&
          (furnitureTag(el) || namedFooter(el) || wikiFooter(el) || namedHeader(el) || namedNavBar(el) ||
            isBanner(el) ||
            (linkList(el) && (oneProduct || !entriesInMain(page, el)) && credits?.has(el) !== true) ||
            otherProducts.has(el) || (product && productFurniture(el))) ||
        smallPrintBlock(page, el, total))
    ) el.drop = true
  }
  measure(page)
  return declaredContent(page)
}

/**
 * The least share of the page's text outside links (without its furniture, named or not) that a
 * scored choice must keep (`minorityFallback`).
 */
const MIN_SHARE_UNLINKED = 0.4
/** The fewest headings the text left out must hold for `minorityFallback` (feature blocks, steps, a FAQ). */
const MIN_HEADINGS_LEFT_OUT = 2

/**
 * Visible characters outside links left in the roots' subtrees: what a reader reads there rather
 * than follows (menus and teaser lists count for nothing). A link that is a card with a heading and
 * a line under it (a service page's offer: blockLinks.ts `blockLink`) is read, and counts.
 */
const unlinkedText = (page: Page, roots: ReadonlyArray<El>): number =>
  textIn(page, roots, (el) => el.drop || (el.name === "a" && !blockLink(page, el)))

/**
 * Service pages, homepages and listings are built of many short blocks (a hero, feature blocks
 * with a heading and a line or two, steps, testimonials, a FAQ); one of them, or a group, scores
 * as the content and the rest is left out, though it is no link list, no menu and no named
 * furniture. When the scored choice (`choice.unlinked`: its text outside links) holds under
 * `MIN_SHARE_UNLINKED` of the page's text outside links, once the visible fallback's furniture and
 * the elements with a strong furniture name (comments, related, sidebar, share, footer…) are left
 * out, and what it leaves out holds headings of its own (`MIN_HEADINGS_LEFT_OUT`: blocks under
 * headings, not a run of rows beside an article), that text is the copy. An article's left-out
 * text is mostly links (menus, teasers) or named furniture (its comments), so its scored choice
 * stays. When the choice is the page's `main` taken whole (`wholeOfMain`), the headings its cleaning dropped
 * (`drops`: feature blocks whose names read as furniture, headings left with nothing under them)
 * count as left out too. A choice that holds most of the page's prose (`MOST_PROSE`) gives way
 * without the headings (`restIsShort`). Runs on the drops `visibleFallback` left.
 */
/** What a scored choice keeps: its text, its text outside links, and its prose (paragraph text outside links). */
interface Choice {
  readonly text: number
  readonly unlinked: number
  readonly prose: number
}

const minorityFallback = (
  page: Page,
  roots: ReadonlyArray<El>,
  choice: Choice,
  drops: ReadonlyArray<boolean>
): Array<El> | undefined => {
  const keep = page.root.text * SHARE_KEEPING_FURNITURE
  const credits = creditsOf.get(page)
  for (const el of page.all) {
    if (el.parent?.drop === true) el.drop = true
    else if (!el.drop && el.text < keep && el.marks.furniture === 2 && credits?.has(el) !== true) el.drop = true
    // Its figures were read (the decision above): clear them to sum them again over what is kept.
    unmeasure(el)
  }
  sumAll(page)
  const blocks = declaredContent(page)
  if (choice.unlinked >= MIN_SHARE_UNLINKED * unlinkedText(page, blocks)) return undefined
  // The page's `main` taken whole (`wholeOfMain`): what its cleaning dropped inside it is left out too.
  const wholeMain = roots.length === 1 && wholeOfMain(page, roots[0]!)
  return headingsOutside(page, blocks, roots, wholeMain ? drops : undefined) >= MIN_HEADINGS_LEFT_OUT ||
      restIsShort(page, blocks, roots, choice)
    ? blocks
    : undefined
}

/** The share of the page's prose a choice must hold for what it leaves out to be only short blocks (`restIsShort`). */
const MOST_PROSE = 0.75
/** The share of the choice's text the visible text must keep to replace it (`restIsShort`). */
const KEEPS_CHOICE = 0.9
/** The largest share of the text the choice leaves out that rows of one shape may hold (`restIsShort`). */
const MAX_ROWS = 0.5

/**
 * Whether what a scored choice leaves out is short blocks beside its prose: the choice holds
 * `MOST_PROSE` of the page's prose (paragraph text outside links) though under
 * `MIN_SHARE_UNLINKED` of its unlinked text (`minorityFallback`), the visible text keeps
 * `KEEPS_CHOICE` of what the choice keeps, and rows of one shape (cards.ts `groupsUnder`) hold
 * under `MAX_ROWS` of the unlinked text it leaves out. A service page or a homepage whose welcome
 * or hero scores writes the rest as short lines in styled boxes, not under headings: a
 * testimonial, the opening hours and address, a product tour's tiles, a calculator's options. An
 * article's paragraphs outweigh the unlinked text of what sits beside them, and an article beside
 * a list (a timetable, a price list: rows of one shape) keeps the article alone; a choice the
 * visible text does not hold (outside the page's `main`, in lists it takes for menus) stays.
 */
const restIsShort = (
  page: Page,
  blocks: ReadonlyArray<El>,
  roots: ReadonlyArray<El>,
  choice: Choice
): boolean => {
  if (choice.prose < MOST_PROSE * blocks.reduce((n, b) => n + b.prose, 0)) return false
  const held = roots.filter((r) => blocks.some((b) => inside(r, b)))
  if (textIn(page, held, (el) => el.drop) < KEEPS_CHOICE * choice.text) return false
  const inChoice = (el: El) => roots.some((r) => inside(el, r) || inside(r, el))
  const groups = blocks.flatMap((b) => groupsUnder(page.all, b, 0)).filter((g) =>
    !roots.some((r) => inside(g.parent, r))
  )
  let rows = 0
  for (const g of outerGroups(groups)) for (const c of g.cards) if (!inChoice(c)) rows += c.text - c.link
  return rows < MAX_ROWS * (unlinkedText(page, blocks) - choice.unlinked)
}

/** The share of its `main`'s text a choice inside it must hold to be that `main` taken whole (`wholeOfMain`). */
const WHOLE_MAIN = 0.8

/**
 * Whether a choice is the page's `main` taken whole: the `main` itself, an element holding it, or
 * an element inside it that holds `WHOLE_MAIN` of its text (its one container beside a notice).
 */
const wholeOfMain = (page: Page, root: El): boolean => {
  if (page.mains.some((m) => inside(m, root))) return true
  const main = page.mains.find((m) => inside(root, m))
  return main !== undefined && root.text >= WHOLE_MAIN * main.text
}

/**
 * Headings kept in the blocks' subtrees outside the roots' subtrees, or (`drops`: the scored
 * choice's drops) left out by the choice's cleaning.
 */
const headingsOutside = (
  page: Page,
  blocks: ReadonlyArray<El>,
  roots: ReadonlyArray<El>,
  drops?: ReadonlyArray<boolean>
): number => {
  let n = 0
  for (const block of blocks) {
    eachKept(page.all, block.order, block.end, (el) => {
      if (isHeading(el.name) && (drops?.[el.order] === true || !roots.some((r) => inside(el, r)))) n++
      return false
    })
  }
  return n
}

/** The fewest items of a list of links inside the page's `main` that make it entries (`entriesInMain`). */
const MIN_ENTRIES = 5

/**
 * A list of links inside the page's declared `main` (or `role=main`) with `MIN_ENTRIES` items or
 * more: what a category page, an index or a "list of …" page lists (its members are links), not a
 * menu, which sits in the page's navigation or header. The visible fallback keeps it, except on a
 * page that shows one product (`visibleFallback`).
 */
const entriesInMain = (page: Page, list: El): boolean => {
  if (elements(list).length < MIN_ENTRIES) return false
  for (let p = list.parent; p !== undefined; p = p.parent) if (page.mains.includes(p)) return true
  return false
}

/** A list of nothing but links (a menu, "more stories", tags): a pointer elsewhere, not what the page shows. */
const linkList = (el: El): boolean => isList(el) && el.text > 0 && el.link >= LINK_LIST * el.text

/**
 * A name that calls an element the page's footer (`site-footer`, `Footer-styled__Footer-sc-1x`), or
 * one of the parts a theme sets in it or right after it, named after it (`footer-credits`,
 * `footer-copyright`, `footer-bottom`, `footer-legal`: the copyright line and the legal links);
 * not a state's name (`NOT_STATE`: `no-footer`, `has-footer`).
 */
const FOOTER_NAME = new RegExp(
  `^(?:[\\w-]*[-_])?${NOT_STATE}footer(?:$|[-_](?:wrap(?:per)?|container|outer|main|inner|styled|sc|root|credits?|copyright|bottom|widgets?|legal|links|info)?(?![a-z]))`,
  "i"
)

/**
 * The same name written in camel case (`navLeftFooter`, `siteFooter`, `globalFooterContainer`):
 * read case-sensitively, so that a word merely ending in "footer" is no such name; not a state's
 * name (`hasFooter`, `noFooter`, `pageWithoutFooter`: `NOT_STATE`'s words in camel case).
 */
const CAMEL_FOOTER_NAME =
  /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)*(?<!(?:^(?:no|not|non|without|with|has|is|hide|show)|(?:No|Not|Non|Without|With|Has|Is|Hide|Show)))Footer(?:Wrap(?:per)?|Container|Outer|Main|Inner|Root)?$/

/** A footer of a part of the page: a card's, a post's, a dialog's, a widget's. */
const PART_FOOTER =
  /(?:card|post|entry|item|product|tile|modal|dialog|panel|widget|box|table|section|article|comment|form|drawer|cart|menu|nav)[-_]*footer/i

/** Tags whose footer is their own, not the page's (`namedFooter`). */
const PART_OF = new Set(["main", "article", "section", "footer", "li", "form", "dialog", "table"])

/**
 * A box (`div` or `section`) that the page's script builds as its footer (`<div class="site-footer">`,
 * a styled component's `Footer-styled__Footer`): named so, not a part's footer by its name (a
 * card's, a dialog's), and outside any `main`, `article`, `section`, list item, form, dialog or
 * table. The visible fallback leaves it out as it does a `footer` tag.
 */
const namedFooter = (el: El): boolean =>
  siteBox(el, (n) => (FOOTER_NAME.test(n) || CAMEL_FOOTER_NAME.test(n)) && !PART_FOOTER.test(n))

/**
 * A box named as the site's footer (`namedFooter`) standing beside the page's title
 * (pageFrame.ts `framesTitle`). When a page that shows one product is scored again without its
 * furniture names (`scoredContent`), it stays out, as a `footer` tag so placed does: a shop's app
 * that draws its product in the browser saves little of it but its name and price, and its
 * footer's newsletter box, help line and legal notice then scored as the content.
 */
const footerBeside = (page: Page, el: El): boolean => namedFooter(el) && framesTitle(page, el)

/** Drops each box `footerBeside` reads as the site's footer, with what it holds. */
const dropFooterBeside = (page: Page): void => {
  let changed = false
  for (const el of page.all) {
    if (el.parent?.drop === true) el.drop = true
    else if (!el.drop && footerBeside(page, el)) el.drop = changed = true
  }
  if (changed) measure(page)
}

/**
 * Whether `el` is a box (`div` or `section`) with text, one of whose names `named` accepts, outside
 * any of the parts (`PART_OF`) whose boxes are their own: a part of the site's frame a script builds.
 */
const siteBox = (el: El, named: (name: string) => boolean): boolean => {
  if ((el.name !== "div" && el.name !== "section") || el.text === 0) return false
  if (!namesOf(el).split(/\s+/).some((n) => n.length > 0 && named(n))) return false
  for (let p = el.parent; p !== undefined; p = p.parent) {
    if (PART_OF.has(p.name)) return false
  }
  return true
}

/**
 * MediaWiki's names for the two boxes it writes under every page's text: the line a printed copy
 * ends with ("Retrieved from …", `printfooter`) and the page's categories (`catlinks`, with its
 * hidden ones). The wiki's frame, not the page's text.
 */
const WIKI_FOOTER_NAME = /^(?:printfooter|catlinks)$/

/**
 * A box (`div` or `section`) MediaWiki names as its page's footer (`WIKI_FOOTER_NAME`): left out as
 * `namedFooter`'s are, inside the wiki's `main` too (it writes them there, under the text).
 */
const wikiFooter = (el: El): boolean =>
  (el.name === "div" || el.name === "section") && el.text > 0 &&
  namesOf(el).split(/\s+/).some((n) => WIKI_FOOTER_NAME.test(n))

/**
 * A name that calls an element the site's navigation bar (`navbar`, `site-navbar`,
 * `NavBar-module_container__x1`); not a state's name (`NOT_STATE`: `has-navbar-fixed-top`).
 */
const NAVBAR_NAME = new RegExp(`^(?:[\\w-]*[-_])?${NOT_STATE}nav-?bar(?:$|[-_])`, "i")

/**
 * A box (`div` or `section`) named as the site's navigation bar, outside the parts `namedFooter`
 * names: the visible fallback leaves it out as it does a `nav` tag.
 */
const namedNavBar = (el: El): boolean => siteBox(el, (n) => NAVBAR_NAME.test(n))

/** A name that calls an element the site's header, not a page's or a part's (`site-header`, `Header-styled__Header-sc-1x`). */
const HEADER_NAME =
  /^(?:(?:site|global|main|top|app|shopify-section)[-_]+)?header(?:$|[-_](?:wrap(?:per)?|container|outer|main|inner|styled|sc|root)?(?![a-z]))/i

/**
 * A box (`div` or `section`) the page's script builds as the site's header: named so, outside the
 * parts `namedFooter` names, with no `h1`.
 */
const namedHeader = (el: El): boolean => {
  if (!siteBox(el, (n) => HEADER_NAME.test(n))) return false
  const stack: Array<El> = [el]
  while (stack.length > 0) {
    const e = stack.pop()!
    if (e.name === "h1") return false
    for (const c of e.children) if (typeof c !== "number") stack.push(c)
  }
  return true
}

const isBanner = (el: El): boolean => {
  const names = namesOf(el)
  return names.length > 1 && (BANNER.test(names) || names.split(/\s+/).some((n) => CHAT_PROMPT.test(n)))
}

/** Names of a discussion's replies: "comment", "comments", "reply", "replies". */
const REPLY_NAMES = /comments?|repl(?:y|ies)/gi

/**
 * On a page that says it is a discussion (its schema.org data names a forum posting or a Q&A
 * page: meta.ts), the replies are the content, not the comments under an article: names that call
 * an element a comment or a reply do not make it furniture (its marks are read without them).
 */
const discussionNames = (page: Page): void => {
  const strip = (s: string | undefined) => s?.replace(REPLY_NAMES, " ")
  for (const el of page.all) {
    const { class: cls, id } = el.attribs
    if (strip(cls) === cls && strip(id) === id) continue
    el.marks = markOf(el.name, { ...el.attribs, class: strip(cls), id: strip(id) })
  }
}

/**
 * Names of what a product page shows beside its product: customer reviews (`reviews`,
 * `review-list`, `individual-review`; not `preview`), and strips of other products ("recently
 * viewed", "customers also bought", "similar items", up-sells and cross-sells).
 */
const PRODUCT_FURNITURE =
  /(?<!p)review|recently-?viewed|also-?(?:bought|viewed|like)|up-?sell|cross-?sell|similar-?(?:items|products)/i

/** Whether an element's class or id names a product page's furniture (`PRODUCT_FURNITURE`). */
const productFurniture = (el: El): boolean => {
  if (el.name === "body" || el.name === "html" || el.name === "main") return false
  const names = namesOf(el)
  return names.length > 1 && PRODUCT_FURNITURE.test(names)
}

/**
 * On a page that says it shows one product (its schema.org data or Open Graph type: meta.ts),
 * customer reviews and strips of other products are furniture, as a page's comments are under
 * an article: the product's description, facts and offer are the content. Elsewhere ("review"
 * names a review article's body) the names are read as before. Strips of other products are
 * known by their names (`PRODUCT_FURNITURE`) or by their build: a grid of short priced cards
 * (grids.ts `productGridCards`), whatever it is named, unless the page says it shows a group of
 * products (`group`: Open Graph's `product.group`, a collection whose grid is its content), or by
 * the heading that opens them ("Customers also viewed": strips.ts `otherProductSections`). The
 * cards of such grids and those sections are returned: the visible-text fallback leaves them out too.
 * The product's details written into a `modal` inside the `main` are not furniture (details.ts).
 * A heading only screen readers read (boilerplate.ts `SCREEN_READER`: `sr-only`) names a shop's
 * frame around the product ("Service value proposition" over its delivery promises), which the
 * page does not show: furniture too (the section under it is judged as before).
 */
const productNames = (page: Page, group: boolean): ReadonlySet<El> => {
  const furniture = (el: El) => (el.marks = { weight: Math.min(el.marks.weight, 0) - 25, furniture: 2 })
  productDetailModals(page)
  for (const el of page.all) {
    if (productFurniture(el) || (isHeading(el.name) && SCREEN_READER.test(el.attribs.class ?? ""))) furniture(el)
  }
  const cards = new Set(group ? [] : productGridCards(page))
  for (const card of cards) furniture(card)
  for (const el of otherProductSections(page, !group)) {
    furniture(el)
    cards.add(el)
  }
  return cards
}

/**
 * On a page that does not say it shows a product, states no publication date and is no
 * discussion, a shop's customer reviews known by their build (reviews.ts `ratedReviews`: a run of
 * cards named as reviews that carry ratings) are furniture, in the scored choice and in the
 * visible-text fallback, as they are on a page that says it shows a product (`productNames`); so
 * are the sections a heading or label names as the site's related pages ("Related services":
 * strips.ts `relatedPageSections`).
 */
const customerReviews = (page: Page): ReadonlySet<El> => {
  const cards = new Set([...ratedReviews(page), ...relatedPageSections(page)])
  for (const el of cards) el.marks = { weight: Math.min(el.marks.weight, 0) - 25, furniture: 2 }
  return cards
}

/** The least share of the visible text's prose a product's narrower choice holds to stand (`narrowProduct`). */
const PRODUCT_PROSE = 1 / 3
/** The least share of the text a product's narrower choice leaves out that is prose (`narrowProduct`). */
const LEFT_OUT_PROSE = 0.5

/**
 * Whether the scored choice on a page that shows one product is the product itself, narrower than
 * the page: one of its roots holds the page's `h1` (the product's title; `drops`: as the choice
 * left it), the roots hold (`sizes.keptProse`, as the choice left them) `PRODUCT_PROSE` of the
 * prose (paragraph text outside links) of the visible text (`fallback`), and what the choice leaves
 * out of the visible text is `LEFT_OUT_PROSE` prose at least. Such a choice stands against
 * `minorityFallback`: what it leaves out under headings of their own is the shop's prose (its
 * services, its offers, a club), not the product's own facts (a marketplace's item specifics and
 * its seller's figures, rows of a label and its value, which the visible text keeps). A choice
 * that holds the title over a line or two of the description (the rest lies beside it) still
 * gives way.
 */
const narrowProduct = (
  page: Page,
  roots: ReadonlyArray<El>,
  sizes: { readonly kept: number; readonly keptProse: number; readonly shown: number },
  drops: ReadonlyArray<boolean>,
  fallback: ReadonlyArray<El>
): boolean => {
  const prose = fallback.reduce((n, r) => n + r.prose, 0)
  if (sizes.keptProse < PRODUCT_PROSE * prose) return false
  // What the choice leaves out reads as prose, not as the product's facts (rows of a label and its value).
  if (prose - sizes.keptProse < LEFT_OUT_PROSE * (sizes.shown - sizes.kept)) return false
  return roots.some((r) => {
    for (let i = r.order; i < r.end; i++) {
      if (page.all[i]!.name === "h1" && !drops[i]) return true
    }
    return false
  })
}

/**
 * On a discussion page, the thread's first post where it stands apart from its replies: a sibling
 * before the chosen replies that holds an `h1` (the thread's title over its first post), neither
 * dropped, and `MIN_CONTENT` characters or more (a post, not a bar of the title and its count of
 * replies). A thread app builds the post and the tree of comments under it as two boxes; a post
 * that is mostly links (a changelog) scores under the replies' bar.
 */
const holdsTitle = (page: Page, sib: El): boolean => {
  if (sib.drop || sib.text < MIN_CONTENT) return false
  for (let i = sib.order + 1; i < sib.end; i++) {
    const el = page.all[i]!
    if (el.name === "h1" && !el.drop) return true
  }
  return false
}

/**
 * What the scorer chose on a page (`scoredContent`): its best candidate, the box it climbed to
 * after each step of `pickContent` (the best itself; over three close rivals; to a parent scoring
 * higher; through boxes of one element; to an ancestor adding prose) and the boxes it picked (the
 * last of those and its siblings). Read by the benches that split the copy by where its
 * words come from (bench/wcxbWidth.ts); nothing in the copy reads it.
 */
export const scoredChoices = new WeakMap<
  Page,
  { readonly best: El; readonly picked: ReadonlyArray<El>; readonly climbs: ReadonlyArray<El> }
>()

/** The least text a short post holds beside its title (`shortPost`): a line or two, not a title alone. */
const MIN_POST_TEXT = 40

/**
 * Pages whose content is a short post (`shortPost`): the visible text does not replace it for being
 * short (`chooseContent`).
 */
const shortPosts = new WeakSet<Page>()

/**
 * Whether the scorer's pick, under `MIN_CONTENT` characters with the names believed, is a short
 * post: its first kept heading says the document's title (every word of it in `<title>`, the blog's
 * name after a separator left over) and it holds `MIN_POST_TEXT` characters more than that heading.
 * Scored again without the names, a blog's few lines lose to its sidebar of link lists and its
 * header (the blog's name as the copy's `#`, the post's title under it); on a dated page that is
 * no product and no discussion, the pick is the post.
 */
const shortPost = (page: Page, content: ReturnType<typeof pickContent>): boolean => {
  if (content === undefined) return false
  const doc = page.all.find((e) => e.name === "title")
  const said = new Set(wordsOf(doc === undefined ? "" : textContent(page.texts, doc)))
  let text = 0
  let heading: El | undefined
  for (const root of content.picked) {
    text += root.text
    for (let i = root.order; i < root.end && heading === undefined; i++) {
      const el = page.all[i]!
      if (el.drop) i = el.end - 1
      else if (isHeading(el.name) && el.text > 0) heading = el
    }
  }
  if (heading === undefined || text - heading.text < MIN_POST_TEXT) return false
  const own = wordsOf(textContent(page.texts, heading))
  return own.length > 0 && own.every((w) => said.has(w))
}

/** The content as scoring chooses it (steps 1 to 4); `one`: the page shows one product, not a group. */
const scoredContent = (
  page: Page,
  product = false,
  undated = false,
  discussion = false,
  one = false
): ReadonlyArray<El> => {
  const furnitureText = dropFurniture(page, true, undated, discussion, product)
  let scores = noScores(page)
  const firstPost = discussion ? (sib: El) => holdsTitle(page, sib) : undefined
  let content = pickContent(scores, scoreCandidates(page, scores, true), declaredMain(page), firstPost, one)
  // A dated page's short post, its title over its few lines (`shortPost`), with the names believed.
  const post = !enough(content) && !undated && !product && !discussion && shortPost(page, content)
  if (!enough(content) && furnitureText >= MIN_CONTENT) {
    // Everything that reads like content was named as furniture (a forum whose posts are
    // "comments", a page built of "widgets"): the names are wrong, so score again without them.
    keepFurniture(page)
    // On a page that shows one product, the site's footer beside its title stays out (`footerBeside`).
    if (one) dropFooterBeside(page)
    scores = noScores(page)
    const again = pickContent(scores, scoreCandidates(page, scores, false), declaredMain(page), firstPost, one)
    if (again !== undefined && enough(again)) {
      const roots = cleanedChoice(page, again, scores, false, product, undated)
      // Read so, a short post's page keeps too little (its comment form's labels): the post is the content.
      if (!post || keptText(page, roots) >= MIN_CONTENT) return roots
      keepFurniture(page)
    }
    dropFurniture(page, false, undated, discussion, product)
    if (!post) return declaredContent(page)
    // The names stand again: the first pick, scored again on the page as it was then.
    scores = noScores(page)
    content = pickContent(scores, scoreCandidates(page, scores, true), declaredMain(page), firstPost, one)
  }
  if (content === undefined || (!enough(content) && !post)) return declaredContent(page)
  if (post) shortPosts.add(page)
  return cleanedChoice(page, content, scores, true, product, undated)
}

/**
 * The scorer's pick (`content`, scored with `scores`, the names believed or not) with the title and
 * lead before it (`titleLead`, edges.ts `leads`) and, on an undated page, the category's
 * description, cleaned of furniture (step 4).
 */
const cleanedChoice = (
  page: Page,
  content: NonNullable<ReturnType<typeof pickContent>>,
  scores: Scores,
  names: boolean,
  product: boolean,
  undated: boolean
): ReadonlyArray<El> => {
  const title = titleLead(page, content.picked, undated)
  const ahead = [...title, ...leads(page, content.picked).filter((el) => !title.includes(el))]
  // On a dated page a described box under the title is an article's deck (as `titleLead` reads it).
  const described = !undated ? undefined : categoryDescription(
    page,
    content.picked[0]!,
    [...ahead, ...content.picked],
    tagHides,
    (e) => tagHides(e) || e.marks.furniture > 1
  )
  const roots = [...ahead, ...(described === undefined ? [] : [described]), ...content.picked]
  scoredChoices.set(page, content)
  clean(page, scores, roots, content.best, names, product, undated)
  dropTrailingNotes(page.texts, roots)
  dropEmptyHeadings(page.texts, roots, !undated, product)
  dropContentsLabels(page, roots)
  return roots
}
