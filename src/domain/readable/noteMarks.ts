/**
 * The footnotes' marks of a copy's content (render.ts asks once per copy): raised numbers that
 * form a series of notes, each written apart from the word before it (`Run.noteMark`); and the
 * raised marks that are links to notes on the same page, left out (`withoutLinkedNoteMarks`).
 */
import { eachKept, type El, type Node, type Page, textContent, type Texts } from "./tree.js"

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

/** A linked footnote mark's text: a number of one to three digits. */
const LINKED_NUMBER = /^\s*\d{1,3}\s*$/
/** What may stand between a raised mark's links: spaces, commas, dashes. */
const BETWEEN_MARKS = /^[\s,\u2013-]*$/

/**
 * Whether `el` is a raised footnote mark made of links to notes on the same page: a `<sup>` whose
 * children are links whose whole text is a number and whose address is a fragment of the page
 * (`<sup><a href="#footnote-6">5</a></sup>`, `<sup><a href="#disclaimer">6</a>,<a
 * href="#disclaimer">7</a></sup>`), with only spaces, commas or dashes between them. A
 * bracketed mark (`[1]`, an encyclopedia's citations) or a link to another page is none.
 */
const linkedMark = (page: Page, el: El): boolean => {
  if (el.name !== "sup" || el.children.length === 0) return false
  let links = 0
  for (const c of el.children) {
    if (typeof c === "number") {
      if (!BETWEEN_MARKS.test(page.texts.of(c))) return false
      continue
    }
    if (c.name !== "a" || !(c.attribs.href ?? "").trim().startsWith("#")) return false
    if (!LINKED_NUMBER.test(textContent(page.texts, c, false))) return false
    links++
  }
  return links > 0
}

/** The fewest linked marks the content must hold for them to be read as a series of notes. */
const MIN_LINKED_MARKS = 3

/**
 * The roots without the raised footnote marks that link to notes on the same page (`linkedMark`),
 * when the content holds `MIN_LINKED_MARKS` of them or more: a maker's feature page marks its
 * claims ("… more durable than ever.⁶") with links to the disclaimers at its foot, which a reader
 * of the copy cannot follow (the disclaimers stand elsewhere or are left out), and each number
 * would read as a word of the sentence ("ever. 6 Thanks to …"). The sentence is kept whole; the
 * marks go. A raised number that is no link stays (`noteMarks` writes it apart).
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
  for (const el of marks) el.drop = true
  return roots
}
