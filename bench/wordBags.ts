/**
 * Words as bags (a word and how often it occurs), as the WCXB word F1 counts them (bench/wcxb.ts),
 * the page's best single element against a reference, and the pages an analysis reads: shared by the analyses of the readable
 * copy's ceiling (bench/wcxbCeiling.ts) and width (bench/wcxbWidth.ts).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { type El, type Page, textContent } from "../src/domain/readable/tree.js"
import { loadWcxb, WCXB, type WcxbCase, wordScore } from "./wcxb.js"

export const WORD = /[\p{L}\p{N}\p{M}_]+/gu

export type Bag = Map<string, number>

export const bagOf = (s: string): Bag => {
  const m: Bag = new Map()
  for (const w of s.toLowerCase().match(WORD) ?? []) m.set(w, (m.get(w) ?? 0) + 1)
  return m
}

export const sizeOf = (b: Bag): number => {
  let n = 0
  for (const v of b.values()) n += v
  return n
}

export const f1 = (overlap: number, predicted: number, reference: number): number =>
  overlap === 0 || predicted === 0 ? 0 : (2 * overlap) / (predicted + reference)

/**
 * The element of `page` whose text (as the parse left it: what its tags drop left out) scores the
 * best word F1 against `reference`, and that F1 (0 and no element on a page with no text).
 */
export const bestElement = (page: Page, reference: string): { readonly f1: number; readonly el: El | undefined } => {
  let best = 0
  let el: El | undefined
  for (const e of page.all) {
    if (e.drop || e.text === 0) continue
    const s = wordScore(textContent(page.texts, e, true, true), reference).f1
    if (s > best) {
      best = s
      el = e
    }
  }
  return { f1: best, el }
}

/**
 * The pages an analysis reads, from its arguments `[type] [tuned|held|all] [listed]` (product
 * pages of the tuned half unless told; `listed`: how many pages its lists show, `listedDefault`
 * unless told). Without the page-type set it prints one line and ends the process.
 */
export const casesFromArgs = (
  listedDefault: number
): { readonly type: string; readonly half: string; readonly listed: number; readonly cases: Array<WcxbCase> } => {
  const [type = "product", half = "tuned", listed = String(listedDefault)] = process.argv.slice(2)
  if (!fs.existsSync(path.join(WCXB, "cases.json"))) {
    console.log("skipped: no page-type set at ../shared/extraction-wcxb (it is not part of the repository)")
    process.exit(0)
  }
  const cases = loadWcxb().filter((c) => c.type === type && (half === "all" || (half === "held") === c.held))
  return { type, half, listed: Number(listed), cases }
}
