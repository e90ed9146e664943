/**
 * A grid's filter and sort controls, their label left as a line of its own: "Filter", "Filters
 * (2)", "Sort", "Sort By:", "Filter & Sort". A shop's category page draws them over its cards as a
 * button, a link to nowhere, a `legend` or a bold word in a box named as a button beside a `+`; the
 * panel or the drop-down they open is left out (a form, a hidden box), and the label stays alone.
 * It says how the reader may narrow the grid, nothing of what it lists, and the references leave
 * it out. Read on the tree, before the copy is written: an element a reader sees whole in a short
 * line (tree.ts `eachShortLine`) whose text is only such a label (`LABEL`) is left out when it is a
 * control by its element and attributes (`isControl`). The same words written as a plain paragraph,
 * a definition list's term (`dt`), a table's header cell (`th`), a figure's or a table's caption, a
 * code block's name or a recipe's step, stay; so does a label inside a sentence ("Sort by date to
 * see the newest") or in a list.
 */
import type { El, Page } from "./tree.js"
import { eachShortLine, namesOf } from "./tree.js"

/**
 * A filter or sort control's words: "Filter", "Filters", "Filter by", "Sort", "Sort by", "Refine
 * by", "Filter & Sort", "Sort and filter" (any case), a count after them ("(2)") and a colon last,
 * one space at most between the parts. "Refine" alone and "Filters by" are not such words.
 */
const WORDS = String
  .raw`(?:filters?|filter by|sort(?: by)?|refine by|filters? (?:&|and) sort|sort (?:&|and) filters?)` +
  String.raw`(?: ?\(\d+\))? ?:?`

/** A filter or sort control's whole label, as the reader reads it: its words (`WORDS`), then a `+` after one space at most. */
const LABEL = new RegExp(String.raw`^${WORDS}(?: ?\+)?$`, "i")

/** The longest label read (characters of visible text): "Sort and filters (12):" and a `+`. */
const MAX_LABEL = 30

/** The elements that are a control by their tag. */
const CONTROL_TAGS = new Set(["button", "legend", "summary", "label"])

/** The tags under which a label is a term, a header or a caption the reader needs: never left out. */
const NEVER = new Set(["dt", "th", "figcaption", "caption"])

/** A class or id word that names a box as a control: "button", "btn", "toggle", "trigger" (between `-`, `_` or spaces). */
const CONTROL_NAME = /(?:^|[\s_-])(?:button|btn|toggle|trigger)(?:$|[\s_-])/i

/**
 * Whether `el` is a control by its element and attributes: it or an element inside it is a
 * `button`, `legend`, `summary` or `label`, a link (`a`) to `#…` or `javascript:`, or has
 * `aria-controls`, `aria-expanded` or `aria-haspopup`; or its class or id names it a button, a
 * toggle or a trigger (`CONTROL_NAME`); or a sibling of it is or holds a `select` or a `form`.
 */
const isControl = (page: Page, el: El): boolean => {
  for (let i = el.order; i < el.end; i++) {
    const e = page.all[i]!
    if (CONTROL_TAGS.has(e.name)) return true
    if (e.name === "a" && /^\s*(?:#|javascript:)/i.test(e.attribs.href ?? "")) return true
    if (e.attribs["aria-controls"] !== undefined || e.attribs["aria-expanded"] !== undefined) return true
    if (e.attribs["aria-haspopup"] !== undefined) return true
  }
  if (CONTROL_NAME.test(namesOf(el))) return true
  const parent = el.parent
  if (parent === undefined) return false
  for (const k of parent.children) {
    if (typeof k === "number" || k === el) continue
    for (let i = k.order; i < k.end; i++) {
      if (page.all[i]!.name === "select" || page.all[i]!.name === "form") return true
    }
  }
  return false
}

/** Whether `el` or an ancestor is a `dt`, `th`, `figcaption` or `caption` (`NEVER`). */
const underNever = (el: El): boolean => {
  for (let at: El | undefined = el; at !== undefined; at = at.parent) if (NEVER.has(at.name)) return true
  return false
}

/** The roots without each control (`isControl`) whose whole text is a filter or sort label (`LABEL`). */
export const withoutFilterLabels = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  eachShortLine(page, roots, MAX_LABEL, (el, text) => {
    if (!LABEL.test(text) || underNever(el) || !isControl(page, el)) return false
    el.drop = true
    return true
  })
  return roots
}
