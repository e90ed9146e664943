/**
 * What each page costs the mean of one page type of the WCXB set (bench/wcxb.ts), tuned half by
 * default: `node scripts/run-ts.mjs bench/wcxbCost.ts [type] [tuned|held|all] [pages]` (product
 * pages of the tuned half unless told; `all` reads both halves). A type's mean word F1 is a sum of
 * pages: each page takes (1 − F1) / n from it, n the pages read. Every page is listed, the most
 * costly first, with its half, the copy's F1, precision and recall, the best single element's F1
 * (bench/wordBags.ts `bestElement`: the element whose text, what its tags drop left out, scores
 * best: the box the choice could have taken), where that element lies against the roots the copy
 * chose (content.ts `chooseContent`: `chosen` a root, `narrow` an ancestor of one, `wide` inside
 * one, `apart`), and `fallback` where no root lies within the scorer's own pick (the page's
 * visible text, or a landmark, took its place; a description's tab chosen inside the pick is the
 * pick narrowed, not counted, and so is a page's visible text that lies inside the pick). The
 * page is parsed as the copy reads it (Readable.ts `pageAsRead`: a page that conceals most of its
 * text is read with it revealed). Then the first `pages` of the list: what they take from the
 * mean, how far they stand under 0.80 against the type's own gap to it, and what the mean would
 * gain if each rose to its best single element.
 *
 * Where the set is absent (a user's clone has none) it prints one line and stops.
 */
import { htmlToMarkdown, pageAsRead } from "../src/domain/Readable.js"
import { chooseContent, scoredChoices } from "../src/domain/readable/content.js"
import { baseOf } from "../src/domain/readable/links.js"
import { pageMeta } from "../src/domain/readable/meta.js"
import { type El } from "../src/domain/readable/tree.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { wordScore } from "./wcxb.js"
import { bestElement, casesFromArgs } from "./wordBags.js"

/** The F1 every type is asked to reach (issue 27). */
const GOAL = 0.8

const inside = (outer: El, inner: El): boolean => inner.order >= outer.order && inner.order < outer.end

interface Row {
  readonly id: string
  readonly held: boolean
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly element: number
  readonly where: string
  readonly fallback: boolean
}

const { cases, half, listed, type } = casesFromArgs(20)

const rows: Array<Row> = []
for (const c of cases) {
  const copy = wordScore(readerText(withoutFrontMatter(htmlToMarkdown(c.html, c.url))), c.reference)
  const page = pageAsRead(c.html, c.url).page
  if (page === undefined) continue
  const best = bestElement(page, c.reference)
  const roots = chooseContent(page, pageMeta(page, baseOf(page.baseHref, c.url)))
  const choice = scoredChoices.get(page)
  const pick = choice === undefined ? undefined : choice.picked.find((p) => inside(p, choice.best)) ?? choice.best
  const fallback = pick === undefined || !roots.some((r) => inside(pick, r))
  const el = best.el
  const where = el === undefined
    ? "none"
    : roots.some((r) => r === el)
    ? "chosen"
    : roots.some((r) => inside(el, r))
    ? "narrow"
    : roots.some((r) => inside(r, el))
    ? "wide"
    : "apart"
  rows.push({
    id: c.id,
    held: c.held,
    f1: copy.f1,
    precision: copy.precision,
    recall: copy.recall,
    element: best.f1,
    where,
    fallback
  })
}

const n = rows.length
const x = (v: number, d = 3): string => v.toFixed(d)
const sum = (rs: ReadonlyArray<Row>, f: (r: Row) => number): number => rs.reduce((s, r) => s + f(r), 0)
rows.sort((a, b) => a.f1 - b.f1)
const mean = sum(rows, (r) => r.f1) / Math.max(n, 1)
console.log(`${type} pages, ${half} half: ${n}; mean F1 ${x(mean, 5)}, gap to ${GOAL} ${x(GOAL - mean, 5)}`)
console.log("  rank id half F1 precision recall element cost cumulative where")
let cumulative = 0
for (const [i, r] of rows.entries()) {
  const cost = (1 - r.f1) / n
  cumulative += cost
  console.log(
    `  ${i + 1} ${r.id} ${r.held ? "held" : "tuned"} ${x(r.f1)} ${x(r.precision)} ${x(r.recall)} ${x(r.element)} ${
      x(cost, 4)
    } ${x(cumulative, 4)} ${r.where}${r.fallback ? " fallback" : ""}`
  )
}
const worst = rows.slice(0, listed)
console.log(
  `  the ${worst.length} costliest pages (${worst.filter((r) => !r.held).length} tuned): take ${
    x(sum(worst, (r) => 1 - r.f1) / n, 4)
  } from the mean (of ${x(1 - mean, 4)}); stand ${x(sum(worst, (r) => GOAL - r.f1) / n, 4)} under ${GOAL} (the gap: ${
    x(GOAL - mean, 4)
  }); each at its best single element where that is higher: +${
    x(sum(worst, (r) => Math.max(0, r.element - r.f1)) / n, 4)
  }`
)
