/**
 * Filler text: one word written over and over ("word word word …"), as scripts that measure the
 * page's fonts leave it in the saved page. No reader reads it; the readable copy leaves it out
 * (`withoutFillers`).
 */
import { type El, type Page, textContent } from "./tree.js"

/** The fewest times one word is written in a row for a text to be filler. */
const MIN_REPEATS = 20

/** One word, then the same word at least `MIN_REPEATS - 1` more times, and nothing else. */
const FILLER = new RegExp(`^\\s*(\\S+)(?:\\s+\\1){${MIN_REPEATS - 1},}\\s*$`, "u")

/** The roots without each element that holds text only, all of it one word repeated (`FILLER`). */
export const withoutFillers = (page: Page, roots: ReadonlyArray<El>): ReadonlyArray<El> => {
  for (const root of roots) {
    for (let i = root.order; i < root.end; i++) {
      const el = page.all[i]!
      if (el.drop || el.text < 2 * MIN_REPEATS || el.children.some((c) => typeof c !== "number")) continue
      if (FILLER.test(textContent(page.texts, el))) el.drop = true
    }
  }
  return roots
}
