/**
 * Sections a page's own table of contents links to: an element whose `id` an in-page link names
 * (`href="#why-choose"`) and that opens with a heading is a section of the text the page lists,
 * whatever its class says. Themes name such targets for the script that scrolls to them
 * (`scroll-target`, `scroll-section`), and `scroll` is one of Readability's negative names: a
 * short section (a paragraph or two under its heading) was dropped by that name alone, the long
 * ones beside it kept by their prose. The cleaning pass (content.ts step 4) reads such a section
 * without its names; its links and its length are judged as before. So is a heading that an
 * in-page link names by its own `id` (an awards page's index of categories, `href="#bar-social-club"`
 * to `<h3 id="bar-social-club">Bar/Social Club</h3>`): the id is its title's anchor, and a word of
 * the title (`social`) is no furniture name there.
 */
import { isHeading } from "./edges.js"
import type { El, Page } from "./tree.js"

/** How deep the heading that opens a section may sit (the section, a wrapper, the heading). */
const HEADING_DEPTH = 3

/**
 * Whether one of the element's first two child elements that show text is a heading, within
 * `HEADING_DEPTH` levels (a short label may stand before it: a number, the anchor's name).
 */
const opensWithHeading = (el: El): boolean => {
  let at: El | undefined = el
  for (let depth = 0; at !== undefined && depth < HEADING_DEPTH; depth++) {
    const shown: Array<El> = []
    for (const k of at.children) {
      if (typeof k === "number" || k.drop || k.text === 0) continue
      shown.push(k)
      if (shown.length === 2) break
    }
    if (shown.some((k) => isHeading(k.name))) return true
    at = shown[0]
  }
  return false
}

/** The elements an in-page link of the page names by `id` and that are or open with a heading. */
export const linkedSections = (page: Page): ReadonlySet<El> => {
  const ids = new Set<string>()
  for (const el of page.all) {
    const href = el.name === "a" ? el.attribs.href : undefined
    if (href !== undefined && href.length > 1 && href.charCodeAt(0) === 35 /* # */) ids.add(href.slice(1))
  }
  const out = new Set<El>()
  if (ids.size === 0) return out
  for (const el of page.all) {
    const id = el.attribs.id
    if (id !== undefined && ids.has(id) && !el.drop && (isHeading(el.name) || opensWithHeading(el))) out.add(el)
  }
  return out
}
