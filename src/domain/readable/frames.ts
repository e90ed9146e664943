/**
 * A wide table's frame: themes wrap a table that may scroll sideways in a box named for it
 * (`table-scroll`, `scroll-container`, `scrollbar`), and `scroll` is one of Readability's negative
 * names (a news ticker's). A box so named whose text is almost all a table's it holds (a
 * comparison, a spec sheet) is the table's frame: the cleaning pass (content.ts step 4) reads it
 * without its names; its links and its length are judged as before.
 */
import { negativeForScrollOnly } from "./boilerplate.js"
import { type El, namesOf } from "./tree.js"

/** The least share of the box's text inside its tables. */
const TABLE_SHARE = 0.8

/** The characters inside the tables `el` holds (outermost ones). */
const tableText = (el: El): number => {
  let n = 0
  const stack: Array<El> = [el]
  while (stack.length > 0) {
    const e = stack.pop()!
    for (const k of e.children) {
      if (typeof k === "number" || k.drop) continue
      if (k.name === "table") n += k.text
      else stack.push(k)
    }
  }
  return n
}

/** Whether `el` is a box named for scrolling (and nothing else negative) around a table holding most of its text. */
export const tableFrame = (el: El): boolean =>
  el.text > 0 && negativeForScrollOnly(namesOf(el)) && tableText(el) >= TABLE_SHARE * el.text
