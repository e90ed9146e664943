/**
 * The footnotes' marks of a copy's content (render.ts asks once per copy): raised numbers that
 * form a series of notes, each written apart from the word before it (`Run.noteMark`); and the
 * raised marks that are links to notes on the same page, left out when the copy does not hold their
 * notes (`withoutLinkedNoteMarks`).
 */
import { eachKept, type El, inside, keptUnder, type Node, type Page, textContent, type Texts } from "./tree.js"

/** A raised number's text: a number or a list of them ("1", "2,3", "4-6"). */
const NOTE_NUMBER = /^\d{1,3}(?:[,\u2013-]\d{1,3})*$/

/**
 * The footnotes' marks of the content: each `<sup>` holding text only (no element inside: a linked
 * mark is an article's own footnote, its reference's choice) whose text is a number or a list of them, when
 * among them stand "1" and another number, a series of notes. A browser draws a mark raised and
 * small, so "performance<sup>1</sup>" reads as the word and its note's number, not as one word
 * "performance1": a mark is written apart from the letter before it (`Run.noteMark`). A raised
 * number with no series beside it is a power or a model's name ("m<sup>2</sup>",
 * "Model<sup>2</sup>"), a part of its word, and stays joined.
 */
export const noteMarks = (texts: Texts, roots: ReadonlyArray<El>): ReadonlySet<El> | undefined => {
  const marks = new Set<El>()
  const numbers = new Set<string>()
  const stack: Array<Node> = [...roots]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (typeof node === "number" || node.drop) continue
    if (node.name === "sup" && node.children.every((kid) => typeof kid === "number")) {
      const text = textContent(texts, node, false).trim()
      if (NOTE_NUMBER.test(text)) {
        marks.add(node)
        for (const n of text.split(/[,\u2013-]/)) numbers.add(n)
      }
      continue
    }
    for (const kid of node.children) stack.push(kid)
  }
  return numbers.has("1") && numbers.size >= 2 ? marks : undefined
}

/** A digit: what each link of a linked mark holds. */
const DIGIT = /\d/

/**
 * Whether `el` is a raised footnote mark made of links to notes on the same page: a `<sup>` whose
 * children are links to a fragment of the page (`#…`), each holding a digit, and text between
 * them, whose whole text, spaces left out, is a number or a list of them (`NOTE_NUMBER`:
 * `<sup><a href="#footnote-6">5</a></sup>`, `<sup><a href="#disclaimer">6</a>, <a
 * href="#disclaimer">7</a></sup>`). A bracketed mark (`[1]`, an encyclopedia's citations) or a
 * link to another page is none.
 */
const linkedMark = (page: Page, el: El): boolean => {
  if (el.name !== "sup" || el.children.length === 0) return false
  let links = 0
  for (const c of el.children) {
    if (typeof c === "number") continue
    if (c.name !== "a" || !(c.attribs.href ?? "").trim().startsWith("#")) return false
    if (!DIGIT.test(textContent(page.texts, c, false))) return false
    links++
  }
  return links > 0 && NOTE_NUMBER.test(textContent(page.texts, el, false).replace(/\s+/g, ""))
}

/** The fewest linked marks the content must hold for them to be read as a series of notes. */
const MIN_LINKED_MARKS = 3

/** The elements of the page by their `id`, and links by their `name` (an anchor a fragment names). */
const targets = (page: Page): ReadonlyMap<string, El> => {
  const byId = new Map<string, El>()
  for (const el of page.all) {
    const id = el.attribs.id ?? (el.name === "a" ? el.attribs.name : undefined)
    if (id !== undefined && !byId.has(id)) byId.set(id, el)
  }
  return byId
}

/** The fragment a link names (`#fn:1` is "fn:1"), decoded when it is written with escapes. */
const fragmentOf = (link: El): string => {
  const raw = (link.attribs.href ?? "").trim().slice(1)
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/**
 * Whether a reader of the copy can follow mark `el` (`linkedMark`): one of its links' fragments
 * names an element of the page (by its `id`, or a link by its `name`) that stands kept inside one
 * of the roots, as an article's own footnotes kept at its end (`<a href="#fn:1">` to `<li id="fn:1">`).
 */
const followable = (el: El, roots: ReadonlyArray<El>, byId: ReadonlyMap<string, El>): boolean =>
  el.children.some((c) => {
    if (typeof c === "number") return false
    const target = byId.get(fragmentOf(c))
    return target !== undefined && roots.some((root) => inside(target, root) && keptUnder(target, root))
  })

/**
 * The roots without the raised footnote marks that link to notes on the same page (`linkedMark`),
 * when the content holds `MIN_LINKED_MARKS` of them or more, each left out only when a reader of
 * the copy cannot follow it (`followable`): its note is missing from the page, left out, or outside
 * the content. A maker's feature page marks its claims ("… more durable than ever.⁶") with links
 * to the disclaimers at its foot, which the copy does not hold, and each number would read as a
 * word of the sentence ("ever. 6 Thanks to …"). The sentence is kept whole; the marks go. A mark
 * whose note the copy holds (an article's footnotes, `<sup><a href="#fn:1">1</a></sup>` over a kept
 * `<li id="fn:1">`) stays, a link to its note; so does a raised number that is no link
 * (`noteMarks` writes it apart).
 */
export const withoutLinkedNoteMarks = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  const marks: Array<El> = []
  for (const root of roots) {
    eachKept(page.all, root.order + 1, root.end, (el) => {
      if (!linkedMark(page, el)) return false
      marks.push(el)
      return true
    })
  }
  if (marks.length < MIN_LINKED_MARKS) return roots
  const byId = targets(page)
  const lost = marks.filter((el) => !followable(el, roots, byId))
  for (const el of lost) el.drop = true
  return roots
}
