/**
 * Notes set in a box inside the text: documentation marks a tip, a warning, a "See also" or a
 * "Changed in version 3.2:" with a box of its own, each opening with a short label over a
 * sentence or two that link the pages they speak of. Under 500 characters
 * with a fifth of its text in links, the cleaning (content.ts step 4) dropped such a box as it
 * drops a block of links. A box that opens with a label (a bold word, a line of its own, or words
 * ending with a colon, never a link) followed by sentences, at most half links, is the text's: it
 * is judged part by part as any box is, not dropped whole. A promotion's box opens with a label
 * too, but ends with its button ("Shop now"), not with a sentence; a box headed by a heading ("MyChart
 * for Mobile" over an app's download links) is a section or a widget, judged as before.
 */
import { collapsedText, type El, endsAsSentence, leadingChild, type Page } from "./tree.js"

/** The most characters of a note's label ("See also", "Changed in version 3.11:"). */
const MAX_LABEL = 30
/** The most words of a note's label. */
const MAX_LABEL_WORDS = 5
/** The least words of the sentences after the label. */
const MIN_NOTE_WORDS = 8
/** The largest share of a note's text in links. */
const MAX_NOTE_LINKS = 0.5
/** How deep the label may sit inside the box (a paragraph, a bold word inside it). */
const LABEL_DEPTH = 3

const BOXES = new Set(["div", "section"])
/** Labels set as a block of their own or in bold ("Tip", "See also"). */
const LABEL_TAGS = new Set(["strong", "b", "p", "div", "span"])

/** The label `box` opens with: the first element (within `LABEL_DEPTH` levels) short enough to be one. */
const labelOf = (page: Page, box: El): string | undefined => {
  let at: El | undefined = box
  for (let depth = 0; depth < LABEL_DEPTH; depth++) {
    const next: El | undefined = leadingChild(page, at)
    if (next === undefined || next.name === "a" || next.link > 0) return undefined
    if (next.text <= MAX_LABEL) {
      const text = collapsedText(page, next)
      const words = text.split(" ").length
      const label = text.endsWith(":") || LABEL_TAGS.has(next.name)
      return label && text.length >= 2 && words <= MAX_LABEL_WORDS ? text : undefined
    }
    at = next
  }
  return undefined
}

/** Whether `el` is a box that opens with a note's label over sentences of the text, at most half links. */
export const labelledNote = (page: Page, el: El): boolean => {
  if (!BOXES.has(el.name) || el.text === 0 || el.link > MAX_NOTE_LINKS * el.text) return false
  const label = labelOf(page, el)
  if (label === undefined) return false
  const text = collapsedText(page, el)
  if (!text.startsWith(label)) return false
  const rest = text.slice(label.length).trim()
  return endsAsSentence(rest) && rest.split(" ").length >= MIN_NOTE_WORDS
}
