/**
 * A table of figures whose first column links each row's name: a ranking of firms with their
 * revenue, each firm linked to its site; a list of tools with their prices, each linked to its
 * page. Its names are links, so its link density passes the cleaning's bar (content.ts step 4:
 * more than half its text in links) and it went as a menu would. A table that names its columns
 * in a header row of `th` cells and whose every row holds a cell with text and no link (a figure,
 * a date, a word) is data the article shows: a menu laid out in a table has no header row, and
 * its cells are all links. Such a table is read whole, and so is a box around it that holds
 * nothing else (an embed's wrapper, a frame for scrolling).
 */
import { type El, shownChildren } from "./tree.js"

/** The fewest rows of figures under the header row. */
const MIN_ROWS = 3

/** The fewest columns the header row names. */
const MIN_COLUMNS = 2

/** The deepest a box may wrap its one table (`aroundDataTable`). */
const MAX_WRAPPERS = 4

/** The rows of `table`: its own `tr`, directly or in its `thead`, `tbody` and `tfoot` (not a nested table's). */
const rowsOf = (table: El): Array<El> => {
  const rows: Array<El> = []
  for (const k of shownChildren(table)) {
    if (k.name === "tr") rows.push(k)
    else if (k.name === "thead" || k.name === "tbody" || k.name === "tfoot") {
      for (const r of shownChildren(k)) if (r.name === "tr") rows.push(r)
    }
  }
  return rows
}

/**
 * Whether `el` is a `table` whose first shown row names two columns or more in `th` cells alone,
 * over three rows or more that each hold a `td` with text and no link.
 */
export const dataTable = (el: El): boolean => {
  if (el.name !== "table") return false
  const rows = rowsOf(el)
  const head = rows[0]
  if (head === undefined) return false
  const named = shownChildren(head)
  if (named.length < MIN_COLUMNS || named.some((c) => c.name !== "th")) return false
  if (rows.length - 1 < MIN_ROWS) return false
  for (let i = 1; i < rows.length; i++) {
    if (!shownChildren(rows[i]!).some((c) => c.name === "td" && c.link === 0)) return false
  }
  return true
}

/**
 * Whether `el` is a box that holds nothing but a data table (`dataTable`), through boxes of one
 * shown child each (`MAX_WRAPPERS` at most).
 */
export const aroundDataTable = (el: El): boolean => {
  let at = el
  for (let depth = 0; depth < MAX_WRAPPERS; depth++) {
    const kids = shownChildren(at)
    if (kids.length !== 1) return false
    const only = kids[0]!
    if (only.text !== at.text) return false
    if (only.name === "table") return dataTable(only)
    if (only.name !== "div" && only.name !== "section" && only.name !== "figure") return false
    at = only
  }
  return false
}
