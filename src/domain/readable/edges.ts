/**
 * The edges of the chosen content (content.ts, step 4 and after): the article's lead taken in from
 * before it, headings and pseudo-headings left with nothing under them, the name of a table of contents
 * whose links went, and italic notes after it.
 */
import {
  dropsItself,
  eachKept,
  type El,
  measure,
  namesOf,
  type Node,
  type Page,
  textContent,
  type Texts
} from "./tree.js"

/** Whether an element is a list of items (`ul`, `ol`). */
export const isList = (el: El): boolean => el.name === "ul" || el.name === "ol"

/** `h1` to `h6` (tag names are lowercase). */
export const isHeading = (name: string): boolean => {
  if (name.length !== 2 || name.charCodeAt(0) !== 104 /* h */) return false
  const level = name.charCodeAt(1)
  return level >= 49 && level <= 54
}
export const linkDensity = (el: El): number => (el.text === 0 ? 0 : el.link / el.text)

/**
 * Headings that introduce nothing: followed (in document order, within the content) by a heading
 * of the same or a higher rank, or by the end. They titled a block that was dropped ("Related
 * articles" over a list of links). On a page that says when it was published, a heading that is
 * the whole of a list item is the list's text, not a title (a guide's picks, each set in a
 * heading's type): it is no heading here, and the line over the list introduces it. On a page
 * that does not, a sentence set in a heading's type right under the page's title, with only such
 * headings between (a hero's pitch: "Find all tent rentals in the city in one place."), is the
 * page's text, not a title (`headingSentence`). On every page, a bold paragraph that is the whole
 * of a list item (pros and cons set in bold) is no pseudo-heading, and a heading ending with a
 * colon right over another heading, nothing dropped between them, is that heading's label ("Step
 * 1:" over "Pick a tool"), not a title over an empty block. On a page that says it shows one
 * product (`product`), a heading over a heading of a higher rank, the two the whole of their block,
 * is a row of specifications set in headings' type (`factHeadings`), not two titles.
 */
export const dropEmptyHeadings = (
  texts: Texts,
  roots: ReadonlyArray<El>,
  dated = false,
  product = false
): void => {
  const open: Array<El> = []
  // Since the page's title (`h1`), only headings: a hero's lines set in a heading's type.
  let underTitle = false
  // Whether an element was dropped since the last heading: the block it titled went.
  let droppedSince = false
  const close = (rank: number) => {
    let kept = 0
    for (let i = 0; i < open.length; i++) {
      const h = open[i]!
      if (rankOf(h) >= rank) h.drop = true
      else open[kept++] = h
    }
    open.length = kept
  }
  for (const root of roots) {
    const stack: Array<Node> = [root]
    while (stack.length > 0) {
      const node = stack.pop()!
      if (typeof node === "number") {
        if (/\S/.test(texts.of(node))) {
          open.length = 0
          underTitle = false
        }
        continue
      }
      if (node.drop) {
        droppedSince = true
        continue
      }
      if (isHeading(node.name)) {
        if (node.text === 0) continue
        // A label over the heading right after it ("Step 1:" over "Pick a tool") titles it.
        if (!droppedSince && open.length > 0 && labelHeading(texts, open[open.length - 1]!)) open.pop()
        // On a product page, two headings that are their whole block: a label over its value in a
        // higher heading (a row of facts), or a title over its paragraph in a lower one.
        const last = open[open.length - 1]
        if (
          product && !droppedSince && last !== undefined &&
          (factHeadings(last, node) || titledSentence(texts, last, node))
        ) {
          open.length = 0
          underTitle = false
          continue
        }
        droppedSince = false
        // A list's item set in a heading's type is the list's text, not a title over a section.
        if (dated && inItem(node)) {
          open.length = 0
          continue
        }
        // A sentence set in a heading's type (a hero's pitch under the page's title) is the text.
        if (!dated && underTitle && headingSentence(texts, node)) {
          open.length = 0
          continue
        }
        close(rankOf(node))
        open.push(node)
        underTitle = node.name === "h1"
        continue
      }
      // A pseudo-heading closes nothing (two in a row are often captions of images between them).
      // A list's item that is one bold line ("Pros:" over "Passive mode for awareness") is the list's text.
      if (pseudoHeading(texts, node) && !inItem(node)) {
        open.push(node)
        underTitle = false
        continue
      }
      const kids = node.children
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!)
    }
  }
  close(1)
}

/** How far above a value's heading the block holding its label may be (`factHeadings`). */
const ROW_LEVELS = 4

/**
 * Whether heading `label`, of a lower rank than heading `value` right after it, and `value` are
 * together the whole text of the block that holds both (within `ROW_LEVELS` of `value`): a row
 * of a specifications list whose label and value are set in headings' type.
 */
const factHeadings = (label: El, value: El): boolean =>
  isHeading(label.name) && rankOf(label) > rankOf(value) && wholeBlock(label, value)

/**
 * Whether `first` and `second`, right after it, are together the whole text of the block that
 * holds both (within `ROW_LEVELS` of `second`).
 */
const wholeBlock = (first: El, second: El): boolean => {
  let p = second.parent
  for (let depth = 0; p !== undefined && depth < ROW_LEVELS; depth++, p = p.parent) {
    if (first.order >= p.order && first.order < p.end) return p.text === first.text + second.text
  }
  return false
}

/**
 * Whether heading `body`, right after heading `title` of a higher rank, is a sentence set in a
 * heading's type that `title` titles, the two the whole of their block: a page builder's feature
 * block ("Drop Protection" in an `h2` over "Keep your device safe from … drops up to 8 feet." in
 * an `h6`), a title over its paragraph, not two titles over nothing.
 */
const titledSentence = (texts: Texts, title: El, body: El): boolean =>
  isHeading(title.name) && rankOf(title) < rankOf(body) && headingSentence(texts, body) && wholeBlock(title, body)

/** The fewest words of a heading read as a sentence (`headingSentence`). */
const SENTENCE_WORDS = 8

/**
 * Whether heading `h` is a sentence set in a heading's type: `SENTENCE_WORDS` words or more,
 * ending a sentence with a full stop, no link in it. A title over a section ends with no stop.
 */
const headingSentence = (texts: Texts, h: El): boolean => {
  if (h.link > 0) return false
  const text = textContent(texts, h, true, true).trim()
  return SENTENCE_END.test(text) && text.split(/\s+/).length >= SENTENCE_WORDS
}

/**
 * Whether `h` is the whole of a list item (within three levels): the item set in a heading's type,
 * or a bold paragraph that is the item's whole text.
 */
const inItem = (h: El): boolean => {
  let p = h.parent
  for (let depth = 0; p !== undefined && depth < 3; depth++, p = p.parent) if (p.name === "li") return p.text === h.text
  return false
}

/** A heading (`h1`–`h6`) whose text ends with a colon: a label over what follows. */
const labelHeading = (texts: Texts, h: El): boolean =>
  isHeading(h.name) && /[:\uff1a]$/.test(textContent(texts, h, true, true).trimEnd())

/** A heading's rank; a pseudo-heading ranks below `h6`. */
export const rankOf = (h: El): number => (isHeading(h.name) ? h.name.charCodeAt(1) - 48 : 7)

/** Whether `el` is or holds a kept heading of rank `level` or higher (`h1` to `h<level>`). */
export const holdsHeading = (page: Page, el: El, level = 6): boolean => {
  for (let i = el.order; i < el.end; i++) {
    const d = page.all[i]!
    if (!d.drop && isHeading(d.name) && rankOf(d) <= level) return true
  }
  return false
}

/** Whether a heading (`h1` to `h6`, kept or dropped) stands in `el`'s subtree below it. */
export const headingBelow = (page: Page, el: El): boolean => {
  for (let i = el.order + 1; i < el.end; i++) if (isHeading(page.all[i]!.name)) return true
  return false
}

const MAX_PSEUDO_HEADING = 80

/**
 * A short paragraph that acts as a heading: all of it bold and not ending a sentence, or ending
 * with a colon ("More on this:", "Contact:"). Like a heading it is dropped when nothing follows it (the block it
 * introduced was dropped).
 */
const pseudoHeading = (texts: Texts, el: El): boolean => {
  if (el.name !== "p" || el.text === 0 || el.text > MAX_PSEUDO_HEADING || el.link > 0) return false
  let bold = true
  for (const c of el.children) {
    if (typeof c === "number") {
      if (/\S/.test(texts.of(c))) bold = false
    } else if (!c.drop && c.name !== "b" && c.name !== "strong" && c.name !== "br") bold = false
  }
  const text = textContent(texts, el, true, true).trimEnd()
  const last = text.charCodeAt(text.length - 1)
  // A bold line that ends a sentence is a sentence ("Thanks for reading.").
  return last === 58 /* : */ || last === 0xff1a || (bold && !SENTENCE_END.test(text))
}

const SENTENCE_END = /[.\u2026\u3002]["'\u201d\u2019\u00bb)]*$/

/**
 * Paragraphs set all in italics at the very end of the content are the editor's notes on it
 * (a disclosure, the author's bio, "this story first appeared in…"), not the story.
 */
export const dropTrailingNotes = (texts: Texts, roots: ReadonlyArray<El>): void => {
  // The content's blocks from the last backwards (the reverse of document order: an element after
  // everything inside it), up to the first that is not such a paragraph.
  const stack: Array<El> = []
  /** Whether `stack[k]` is to be judged (its subtree is done) rather than entered. */
  const judge: Array<boolean> = []
  for (let r = roots.length - 1; r >= 0; r--) {
    stack.push(roots[r]!)
    judge.push(false)
    while (stack.length > 0) {
      const el = stack.pop()!
      if (judge.pop()!) {
        if (!italicParagraph(texts, el)) return
        el.drop = true
        continue
      }
      if (el.drop) continue
      if (el.block === undefined && el.own > 0) {
        stack.push(el)
        judge.push(true)
      }
      for (const k of el.children) {
        if (typeof k === "number") continue
        stack.push(k)
        judge.push(false)
      }
    }
  }
}

const ITALIC = new Set(["em", "i"])

/** A paragraph whose text is all inside `em`/`i`. */
const italicParagraph = (texts: Texts, el: El): boolean => {
  if (el.name !== "p") return false
  let italic = false
  for (const c of el.children) {
    if (typeof c === "number") {
      if (/\S/.test(texts.of(c))) return false
    } else if (!c.drop && c.name !== "br") {
      if (!ITALIC.has(c.name) && c.text > 0) return false
      if (ITALIC.has(c.name)) italic = true
    }
  }
  return italic
}

/** Names of an article's lead (standfirst): the paragraph under the headline that sums it up. */
const LEAD =
  /lead|intro|summary|excerpt|subtitle|standfirst|subheadline|abstract|(?:^|[-_\s])(?:dek|deck|kicker)(?:$|[-_\s])/i
const LEAD_LEVELS = 5
const MIN_LEAD = 50
const MAX_LEAD_LINK_DENSITY = 0.1

/**
 * The article's lead when it sits outside the chosen content (in the article's header, a few
 * levels up): elements before the content, under its nearby ancestors, named as a lead and
 * reading as text (few links). Readability misses these; news sites put the lead beside the body.
 */
export const leads = (page: Page, picked: ReadonlyArray<El>): Array<El> => {
  const first = picked[0]!
  let area: El | undefined = first.parent
  for (
    let level = 1;
    level < LEAD_LEVELS && area?.parent !== undefined && area.parent.name !== "body" &&
    area.parent.parent !== undefined;
    level++
  ) area = area.parent
  if (area === undefined || area.name === "body" || area.parent === undefined) return []
  const from = area.order
  const to = first.order
  const holdsFirst = new Set<El>()
  for (let p = first.parent; p !== undefined; p = p.parent) holdsFirst.add(p)
  // Elements inside a lead already taken (parents come before children in document order).
  const taken = new Set<El>()
  const out: Array<El> = []
  const revived: Array<El> = []
  for (let i = from + 1; i < to; i++) {
    const el = page.all[i]!
    if (el.parent !== undefined && taken.has(el.parent)) {
      taken.add(el)
      continue
    }
    if (
      el.drop && el.marks.furniture === 1 && el.parent?.drop === false &&
      TEASER.test(namesOf(el))
    ) {
      revived.push(el)
      taken.add(el)
      continue
    }
    if (el.drop || holdsFirst.has(el) || el.text < MIN_LEAD || linkDensity(el) >= MAX_LEAD_LINK_DENSITY) continue
    if (LEAD.test(namesOf(el))) {
      out.push(el)
      taken.add(el)
    }
  }
  if (revived.length === 0) return out
  // A "teaser" above the article is its lead when it reads as text: measure it as kept, then keep it or drop it again.
  for (const el of revived) setDropped(page, el, false)
  measure(page)
  let redropped = false
  for (const el of revived) {
    if (el.text >= MIN_LEAD && linkDensity(el) < MAX_LEAD_LINK_DENSITY) out.push(el)
    else {
      setDropped(page, el, true)
      redropped = true
    }
  }
  if (redropped) measure(page)
  return out.sort((a, b) => a.order - b.order)
}

const TEASER = /teaser/i

/** Drop a subtree, or undo step 1 for it (`dropped` false: only what its tag or a strong name drops stays dropped). */
const setDropped = (page: Page, el: El, dropped: boolean): void => {
  el.drop = dropped
  const inside = new Set<El>([el])
  for (let i = el.order + 1; i < page.all.length; i++) {
    const d = page.all[i]!
    if (d.parent === undefined || !inside.has(d.parent)) break
    inside.add(d)
    d.drop = d.parent.drop || dropsItself(page, d) || d.marks.furniture === 2
  }
}

/** The name of a page's table of contents ("Table of Contents", "Contents", "In this article", "On this page", "Jump to"). */
const CONTENTS_LABEL =
  /^(?:table of contents|contents|in this (?:article|post|guide)|on this page|jump to(?: section)?|article contents)\s*:?$/i
/** The longest such name, in characters. */
const MAX_CONTENTS_LABEL = 24
/** The least text, dropped, the box of such a name holds beside it (characters). */
const MIN_BOX_DROPPED = 40
/** How many boxes above the name are looked at. */
const BOX_LEVELS = 4

/**
 * The name of a table of contents left alone: an element whose whole text is such a name
 * (`CONTENTS_LABEL`; a heading, a `summary`, a paragraph) and that is all its box keeps, within
 * `BOX_LEVELS` boxes above it, while the box held `MIN_BOX_DROPPED` characters besides, all left
 * out (the list of in-page links the cleaning drops). Prose after the box keeps the headings' pass
 * (`dropEmptyHeadings`) from reading it as empty, and a name that is no heading it never weighs.
 * A box that keeps anything beside the name (a table of contents written as plain text) keeps it.
 */
export const dropContentsLabels = (page: Page, roots: ReadonlyArray<El>): void => {
  const all = page.all
  let dropped = false
  for (const root of roots) {
    eachKept(all, root.order + 1, root.end, (el) => {
      // The name's own words: an element with text of its own, all of its kept text short.
      if (el.selfText === 0 || el.text > MAX_CONTENTS_LABEL || el.link > 0) return false
      if (!CONTENTS_LABEL.test(textContent(page.texts, el, true, true).trim())) return false
      // Each box above it keeps nothing else, so a box is read for one name at most: linear.
      let box: El | undefined = el
      for (let up = 0; box !== undefined && up <= BOX_LEVELS && box !== root.parent; up++, box = box.parent) {
        if (box.drop || box.text > el.text) return false
        if (shownLength(page, box) - el.text >= MIN_BOX_DROPPED) {
          el.drop = true
          dropped = true
          return true
        }
        if (box === root) return false
      }
      return false
    })
  }
  if (dropped) measure(page)
}

/** The characters (not whitespace) of `el`'s text, dropped or not: the parse does not count text under an element dropped by its tag. */
const shownLength = (page: Page, el: El): number => textContent(page.texts, el, false).replace(/\s+/g, "").length
