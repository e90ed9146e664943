/**
 * Lists the article's own sentence introduces: a paragraph that ends with a colon ("Here are some
 * of the courses you can take:", "Meditation has been shown to help improve:") and the list right
 * after it, whose items finish the sentence. Such a list is the text's, however many of its items
 * are links (a selection of courses, each linked to its page; a writer's tools, each linked to a
 * shop): a menu, a strip of related links or a table of contents is never announced by a sentence
 * of the article — but for a strip of other posts under the story ("If you liked this post you
 * might also like:"), so the article's prose must go on after the list. The cleaning pass
 * (content.ts step 4) would drop such a list by its links alone; it keeps it whole. So, too, a
 * list whose items each open with a bold label and a colon ("Flagship hotel: …", "Buying
 * options: …"): facts the article lists, each saying what its link is. And a list whose items each
 * open with a link to another page, right after a paragraph of the article's prose that ends as a
 * sentence, the prose going on after it (`listAfterProse`): the selection the paragraph tells of.
 */
import { isList } from "./edges.js"
import {
  collapsedText,
  type El,
  endsAsSentence,
  leadingChild,
  MIN_PARAGRAPH,
  type Page,
  shownChildren
} from "./tree.js"

/** The least paragraph text outside links that must follow the list inside the content (a paragraph or two). */
const MIN_PROSE_AFTER = 200

/** The least words of the sentence that introduces a list ("Skip to:", "Suggested reading:" are labels). */
const MIN_INTRO_WORDS = 3

/** The largest share of the introducing paragraph's text in links (a paragraph, not a link with a colon). */
const MAX_INTRO_LINKS = 0.5

/** The element before `el` among its parent's children that shows text (dropped and empty ones passed over). */
const previousShown = (el: El): El | undefined => {
  const kids = el.parent?.children ?? []
  let at = kids.indexOf(el)
  while (--at >= 0) {
    const k = kids[at]!
    if (typeof k === "number" || k.drop) continue
    if (k.text > 0) return k
  }
  return undefined
}

/** Whether the paragraphs after `el` up to `end` (in document order, not dropped) hold `MIN_PROSE_AFTER` outside links. */
const proseAfter = (page: Page, el: El, end: number): boolean => {
  let prose = 0
  for (let i = el.end; i < end && prose < MIN_PROSE_AFTER; i++) {
    const p = page.all[i]!
    if (p.name === "p" && !p.drop && p.own >= MIN_PARAGRAPH) prose += Math.max(0, p.own - p.link)
  }
  return prose >= MIN_PROSE_AFTER
}

/**
 * Whether `el` is a list (`ul`, `ol`) that the paragraph just before it introduces with a colon,
 * with the article's prose going on after it before `end` (the end of the content, in document order).
 */
export const introducedList = (page: Page, el: El, end: number): boolean => {
  if (!isList(el)) return false
  const intro = previousShown(el)
  if (intro === undefined || intro.name !== "p" || intro.link > MAX_INTRO_LINKS * intro.text) return false
  const text = collapsedText(page, intro)
  return text.endsWith(":") && text.split(" ").length >= MIN_INTRO_WORDS && proseAfter(page, el, end)
}

/** The least text of the paragraph of prose a list of links follows (`listAfterProse`): a sentence or two. */
const MIN_PROSE_BEFORE = 80

/** The fewest items of a list of links the article's prose surrounds (`listAfterProse`). */
const MIN_LINKED_ITEMS = 3

/**
 * Whether `el` is a list (`ul`, `ol`) of three items or more, each opening with its link to
 * another page (no in-page fragment: a table of contents links to the page's own sections), right
 * after a paragraph of the article's prose that ends as a sentence (80 characters at least, under
 * half of it linked: "The school offers a series of courses. Each leads to a certificate."), with the
 * article's prose going on after it before `end`: the selection the paragraph tells of, each
 * entry linked to its page ("Intro to SQL ★★★★☆(8)"). A menu or a strip of related links is set
 * apart from the prose, under a label or a heading of its own; a pointer ("See also: …") opens
 * with its label, not its link.
 */
export const listAfterProse = (page: Page, el: El, end: number): boolean => {
  if (!isList(el)) return false
  const intro = previousShown(el)
  if (
    intro === undefined || intro.name !== "p" || intro.text < MIN_PROSE_BEFORE ||
    intro.link > MAX_INTRO_LINKS * intro.text
  ) return false
  if (!endsAsSentence(collapsedText(page, intro))) return false
  let items = 0
  for (const k of shownChildren(el)) {
    if (k.name !== "li") return false
    const first = leadingChild(page, k)
    const href = first?.name === "a" ? first.attribs.href : undefined
    if (href === undefined || href.includes("#")) return false
    items++
  }
  return items >= MIN_LINKED_ITEMS && proseAfter(page, el, end)
}

/** Whether `el`'s first shown content is a bold label ending with a colon ("Flagship hotel:", "Address:"). */
const opensWithLabel = (page: Page, el: El): boolean => {
  let first: El | undefined = el
  for (let depth = 0; first !== undefined && depth < 3; depth++) {
    const kids: ReadonlyArray<El | number> = first.children
    const next = leadingChild(page, first)
    if (next === undefined) return false
    if (next.name === "strong" || next.name === "b") {
      if (next.link > 0) return false
      if (collapsedText(page, next).endsWith(":")) return true
      // The colon after the bold label ("<strong>Address</strong>: …").
      const after = kids[kids.indexOf(next) + 1]
      return typeof after === "number" && /^\s*:/.test(page.texts.of(after))
    }
    first = next
  }
  return false
}

/** The least items of a list of labelled facts. */
const MIN_LABELLED = 2

/**
 * Whether `el` is a list whose items each open with a bold label ending with a colon
 * ("Official website: …", "Flagship hotel: …"): facts the article lists, each naming what its
 * link is; a menu never labels its entries.
 */
export const labelledList = (page: Page, el: El): boolean => {
  if (!isList(el)) return false
  let items = 0
  let labelled = 0
  for (const k of el.children) {
    if (typeof k === "number" || k.drop || k.name !== "li" || k.text === 0) continue
    items++
    if (opensWithLabel(page, k)) labelled++
  }
  return items >= MIN_LABELLED && labelled === items
}
