/**
 * An entry's author line: a blog's index, a news front page and a preprint server's list each
 * write, under every entry's linked title, who wrote it ("Keith Randall", "Connie Loizos"), in a
 * block named `author` (`author`, `list-authors`, `card__author-list`). The name is strong
 * furniture (an article's byline and author box, which the front matter already holds), so every
 * entry lost its authors, which the listing shows as part of each entry.
 *
 * Such a line is the entry's own when the page lists many entries built alike: `MIN_ENTRIES` or
 * more short blocks (`MAX_LINE`) of one shape (tag and first class name) named as authors, most
 * of them (`MOST`) after a link to another page of `MIN_TITLE` characters or more inside their own
 * entry (the entry's title; the entry is the block around the line that holds no line before it,
 * with a `dd`'s `dt`), and the lines' texts vary (`MIN_NAMES`: a label every entry repeats names no
 * one); a longer line of the same shape (up to `MAX_LONG_LINE`: a paper's dozen authors) is then
 * one more of them. A testimonial's author comes before the link under it, a thread's poster
 * names before each post's text; read only on a page that states no publication date and is no
 * discussion (content.ts, step 1, and the fallbacks that drop by name or lists of links).
 */
import { shapeOf } from "./cards.js"
import { collapsedText, type El, namesOf, type Page } from "./tree.js"

/** Names of an author line. */
const AUTHOR = /author/i
/** The longest author line: names, "on behalf of the team". */
const MAX_LINE = 100
/** The longest author line read beside short ones of its shape: a paper's many authors. */
const MAX_LONG_LINE = 1000
/** The fewest author lines of one shape that make a listing's entries. */
const MIN_ENTRIES = 8
/** The least characters of the linked title before an author line. */
const MIN_TITLE = 15
/** The share of the lines that a linked title must come before. */
const MOST = 0.8
/** The least share of the lines whose texts differ (who wrote each entry, not a label they all repeat). */
const MIN_NAMES = 0.25

/** Whether `a` links to another page (not an anchor of this one, such as an accordion's toggle, nor a script). */
export const outward = (a: El): boolean => {
  const href = a.attribs.href?.trim()
  return href !== undefined && href.length > 0 && !href.startsWith("#") && !/^javascript:/i.test(href)
}

/** Whether the elements from `from` up to `to` (document order) hold a linked title outside author lines. */
const titleBetween = (page: Page, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) {
    const d = page.all[i]!
    if (d.drop) {
      i = d.end - 1
      continue
    }
    if (AUTHOR.test(namesOf(d))) {
      i = d.end - 1
      continue
    }
    if (d.name === "a" && outward(d) && d.text >= MIN_TITLE) return true
  }
  return false
}

/** How far above an author line its entry is looked for. */
const ENTRY_LEVELS = 4

/**
 * The entry an author line belongs to: its farthest ancestor (up to `ENTRY_LEVELS` above it) that
 * holds no line of the same group before it (`after`: where the line before it ends). A `dd` is
 * read with the `dt` before it (a description list's term is its entry's title).
 */
const entryOf = (line: El, after: number): number => {
  let entry = line
  for (let up = 0, p = line.parent; p !== undefined && up < ENTRY_LEVELS && p.order >= after; up++, p = p.parent) {
    entry = p
  }
  if (entry.name === "dd" && entry.parent !== undefined) {
    let before: El | undefined
    for (const c of entry.parent.children) {
      if (c === entry) break
      if (typeof c !== "number" && c.name === "dt") before = c
    }
    if (before !== undefined && before.order >= after) return before.order
  }
  return entry.order
}

/**
 * The author lines of a listing's entries among the elements named as strong furniture, found while
 * the page is measured (the pass that drops furniture clears each element's figures as it goes).
 */
export const entriesCredits = (page: Page): ReadonlySet<El> => {
  const byShape = new Map<string, Array<El>>()
  for (const el of page.all) {
    if (el.marks.furniture !== 2 || el.drop || el.text === 0 || el.text > MAX_LONG_LINE) continue
    if (!AUTHOR.test(namesOf(el))) continue
    const shape = shapeOf(el)
    const same = byShape.get(shape)
    if (same === undefined) byShape.set(shape, [el])
    else same.push(el)
  }
  const out = new Set<El>()
  for (const all of byShape.values()) {
    // The run is judged by its short lines; a long one of its shape (a paper's many authors) is one more of them.
    const lines = all.filter((el) => el.text <= MAX_LINE)
    if (lines.length < MIN_ENTRIES) continue
    let titled = 0
    for (let k = 0; k < lines.length; k++) {
      const after = k === 0 ? 0 : lines[k - 1]!.end
      if (titleBetween(page, entryOf(lines[k]!, after), lines[k]!.order)) titled++
    }
    if (titled < MOST * lines.length) continue
    // A label every entry repeats ("Posted in reviews") names no one: the names vary.
    const names = new Set(lines.map((el) => collapsedText(page, el)))
    if (names.size >= MIN_NAMES * lines.length) { for (const el of all) out.add(el) }
  }
  return out
}
