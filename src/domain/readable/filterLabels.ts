/**
 * A grid's filter and sort controls, their label left as a line of its own: "Filter", "Filters
 * (2)", "Sort", "Sort By:", "Filter & Sort". A shop's category page draws them over its cards as a
 * button, a link to nowhere, a `legend` or a bold word beside a `+`; the panel or the drop-down
 * they open is left out (a form, a hidden box), and the label stays alone. It says how the reader
 * may narrow the grid, nothing of what it lists, and the references leave it out. Read on the
 * copy's Markdown blocks (Readable.ts): a plain paragraph (not inline.ts `opensBlock`: no heading,
 * list item, quote, table or code) whose whole text is such a label (`LABEL`: the words, a link's
 * brackets around them, a count in brackets after them, a colon or a `+`) is left out. A label
 * inside a sentence ("Sort by date to see the newest") or in a list ("- filter", a node's name
 * among others) stays; the body is never emptied.
 */
import { opensBlock } from "./inline.js"

/**
 * A filter or sort control's words: "Filter", "Filters", "Filter by", "Sort", "Sort by", "Refine
 * by", "Filter & Sort", "Sort and filter" (any case), a count after them ("(2)") and a colon last,
 * one space at most between the parts. "Refine" alone and "Filters by" are not such words.
 */
const WORDS = String
  .raw`(?:filters?|filter by|sort(?: by)?|refine by|filters? (?:&|&amp;|and) sort|sort (?:&|&amp;|and) filters?)` +
  String.raw`(?: ?\(\d+\))? ?:?`

/**
 * A filter or sort control's whole label: its words (`WORDS`), bare or as a link's text to nowhere
 * ("[Filters](#)", "[Sort](javascript:void(0))": brackets in pairs, the target `#…`, `javascript:…`, an
 * address ending in a bare `#` (the page's own, as the copy writes "#"), or none), then a `+` (escaped
 * or not) after one space at most. A link to any other address stays.
 */
const LABEL = new RegExp(
  String.raw`^(?:${WORDS}|\[${WORDS}\](?:\((?:(?:#|javascript:)[^\s]*|[^\s()]*#)\))?)(?: ?\\?\+)?$`,
  "i"
)

/** Whether a block is a plain paragraph that is only a filter or sort control's label. */
const isLabel = (block: string): boolean => !opensBlock(block) && LABEL.test(block.trim())

/** `blocks` without each paragraph that is only a filter or sort control's label; the body is never emptied. */
export const withoutFilterLabels = (blocks: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out = blocks.filter((b) => !isLabel(b))
  return out.length > 0 ? out : blocks
}
