/**
 * What the copy misses on one page type of the WCXB set (bench/wcxb.ts), tuned half by default:
 * `node scripts/run-ts.mjs bench/wcxbMissing.ts [type] [tuned|held|all] [pages]` (product pages
 * of the tuned half unless told). The recall side of `wcxbCost.ts`: each page with its F1,
 * precision and recall, the reference's words the copy lacks (counted as the metric counts them,
 * each word as often as the reference says it more than the copy), and what the type's mean
 * would gain if the copy held them too (its F1 with them, less its F1, over the pages read); the
 * pages that would gain most first. For the first `pages` tuned pages it lists the reference's
 * lines the copy lacks (four words or more, its first six words nowhere in the copy's text in a
 * row) with where the page holds each: inside the chosen roots (content.ts `chooseContent`) or
 * outside them; hidden there (the `hidden` attribute, `display: none`, `aria-hidden`), left out by
 * a rule (the element or an ancestor dropped), kept (the copy says the line otherwise), in a
 * script's data (`script`, `template`, `noscript`), or not found as a line. Then the words of
 * those lines by place, per half, with the pages and the sites (hosts) they come from. Held pages
 * are counted, never listed: the held half says whether a rule is general.
 *
 * Where the set is absent (a user's clone has none) it prints one line and stops.
 */
import { htmlToMarkdown, pageAsRead } from "../src/domain/Readable.js"
import { chooseContent } from "../src/domain/readable/content.js"
import { baseOf } from "../src/domain/readable/links.js"
import { pageMeta } from "../src/domain/readable/meta.js"
import { type El, inside, textContent } from "../src/domain/readable/tree.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { wordScore } from "./wcxb.js"
import { casesFromArgs } from "./wordBags.js"

/** A word as the metric counts it (bench/wcxb.ts). */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu

/** The fewest words of a reference line looked for. */
const MIN_LINE_WORDS = 4
/** The words of a line looked for in a row in the copy, and in the page's elements. */
const KEY_WORDS = 6
/** The largest element (descendants) whose text is read to find a line: a line lies in a small box. */
const MAX_BOX = 400

const words = (s: string): Array<string> => s.toLowerCase().match(WORD) ?? []
const joined = (s: string): string => ` ${words(s).join(" ")} `

const bag = (s: string): Map<string, number> => {
  const m = new Map<string, number>()
  for (const w of words(s)) m.set(w, (m.get(w) ?? 0) + 1)
  return m
}

const hiding = (el: El): boolean =>
  el.attribs.hidden !== undefined || /display\s*:\s*none/i.test(el.attribs.style ?? "") ||
  el.attribs["aria-hidden"]?.toLowerCase() === "true"

const anyUp = (el: El, test: (a: El) => boolean): boolean => {
  for (let a: El | undefined = el; a !== undefined; a = a.parent) if (test(a)) return true
  return false
}

interface Row {
  readonly id: string
  readonly host: string
  readonly held: boolean
  readonly f1: number
  readonly precision: number
  readonly recall: number
  readonly missing: number
  readonly reference: number
  readonly gain: number
  readonly missed: string
  readonly lines: ReadonlyArray<{ readonly place: string; readonly line: string }>
}

const { cases, half, listed, type } = casesFromArgs(20)
const rows: Array<Row> = []
const places = new Map<string, { words: number; pages: Set<string>; sites: Set<string> }>()

for (const c of cases) {
  const text = readerText(withoutFrontMatter(htmlToMarkdown(c.html, c.url)))
  const score = wordScore(text, c.reference)
  const want = bag(c.reference)
  const have = bag(text)
  let missing = 0
  let reference = 0
  let predicted = 0
  const missed: Array<string> = []
  for (const [w, n] of want) {
    reference += n
    const k = n - (have.get(w) ?? 0)
    if (k > 0) {
      missing += k
      missed.push(k > 1 ? `${w}×${k}` : w)
    }
  }
  for (const n of have.values()) predicted += n
  // The copy's F1 with the words it lacks added: precision and recall both rise.
  const full = reference + predicted + missing === 0 ? 0 : (2 * reference) / (reference + predicted + missing)
  const host = URL.canParse(c.url) ? new URL(c.url).host : "?"
  const lines: Array<{ place: string; line: string }> = []
  const page = pageAsRead(c.html, c.url).page
  if (page !== undefined) {
    const roots = chooseContent(page, pageMeta(page, baseOf(page.baseHref, c.url)))
    const copy = joined(text)
    const lacking = c.reference.split(/\n+/).map((l) => words(l)).filter((l) =>
      l.length >= MIN_LINE_WORDS && !copy.includes(` ${l.slice(0, KEY_WORDS).join(" ")} `)
    )
    const boxes = lacking.length === 0
      ? []
      : page.all.map((e) => e.end - e.order < MAX_BOX ? joined(textContent(page.texts, e)) : "")
    for (const l of lacking) {
      const key = ` ${l.slice(0, KEY_WORDS).join(" ")} `
      let found: El | undefined
      for (const e of page.all) {
        if (boxes[e.order]!.includes(key) && (found === undefined || e.end - e.order < found.end - found.order)) {
          found = e
        }
      }
      const at = found
      const place = at === undefined
        ? "not found as a line"
        : anyUp(at, (a) => a.name === "script" || a.name === "template" || a.name === "noscript")
        ? "in a script's data"
        : `${roots.some((r) => inside(at, r)) ? "inside" : "outside"} the roots, ${
          anyUp(at, hiding) ? "hidden" : anyUp(at, (a) => a.drop) ? "left out by a rule" : "kept"
        }`
      lines.push({ place, line: l.join(" ") })
      const key2 = `${place} | ${c.held ? "held" : "tuned"}`
      const p = places.get(key2) ?? { words: 0, pages: new Set<string>(), sites: new Set<string>() }
      p.words += l.length
      p.pages.add(c.id)
      p.sites.add(host)
      places.set(key2, p)
    }
  }
  rows.push({
    id: c.id,
    host,
    held: c.held,
    f1: score.f1,
    precision: score.precision,
    recall: score.recall,
    missing,
    reference,
    gain: Math.max(0, full - score.f1),
    missed: missed.join(" "),
    lines
  })
}

const n = Math.max(rows.length, 1)
const x = (v: number, d = 3): string => v.toFixed(d)
rows.sort((a, b) => b.gain - a.gain)
console.log(
  `${type} pages, ${half} half: ${rows.length}; mean F1 ${x(rows.reduce((s, r) => s + r.f1, 0) / n, 5)}; ` +
    `every copy holding the words it lacks: +${x(rows.reduce((s, r) => s + r.gain, 0) / n, 4)}`
)
console.log("  rank id half F1 precision recall lacking/reference gain-to-mean site")
let shown = 0
for (const [i, r] of rows.entries()) {
  console.log(
    `  ${i + 1} ${r.id} ${r.held ? "held" : "tuned"} ${x(r.f1)} ${x(r.precision)} ${
      x(r.recall)
    } ${r.missing}/${r.reference} +${x(r.gain / n, 4)} ${r.held ? "" : r.host}`
  )
  if (r.held || shown >= listed) continue
  shown++
  console.log(`      lacks: ${r.missed.slice(0, 240)}`)
  for (const l of r.lines.slice(0, 12)) console.log(`      [${l.place}] ${l.line.slice(0, 90)}`)
}
console.log("  the reference's lines the copy lacks, by where the page holds them (words, pages, sites):")
for (const [k, v] of [...places.entries()].sort()) {
  console.log(`    ${k}: ${v.words} words, ${v.pages.size} pages, ${v.sites.size} sites`)
}
