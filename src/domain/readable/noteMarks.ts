/**
 * The footnotes' marks of a copy's content (render.ts asks once per copy): raised numbers that
 * form a series of notes, each written apart from the word before it (`Run.noteMark`).
 */
import { type El, type Node, textContent, type Texts } from "./tree.js"

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
