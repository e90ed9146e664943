/**
 * Where a copy's words come from, by the names of the page's elements, on one page type of the WCXB
 * set (bench/wcxb.ts): `node scripts/run-ts.mjs bench/wcxbSources.ts [type] [tuned|held|all]
 * [names] [name]` (product pages of the tuned half unless told; the first 30 names of each list;
 * with `name`, every tuned line counted under that name too, with its page, site, extra and kept
 * words, and every reference line the copy lacks there). The precision side of `wcxbMissing.ts`,
 * read by element rather than by page: each line of the copy (its Markdown, as a reader sees it)
 * is placed in the smallest element of the page, as the copy reads it (`pageAsRead`), whose text
 * holds the line's first words; its words are split into those the reference holds (taken from
 * the reference's bag in the copy's order, each as often as the reference says it) and the extra
 * ones, and counted under every name of that element and of its ancestors: the element's tag,
 * each `role`, each word of a class or an id (split at `-`, `_` and a capital; three letters or
 * more, no digits). The reference's lines the copy lacks (four words or more, as `wcxbMissing.ts`
 * finds them) are placed the same way and counted as missing under their names.
 *
 * Three lists follow, of names on three sites or more (a rule is worth writing only for what
 * recurs): those whose extra words outnumber the kept ones, those whose missing words outnumber
 * the extra ones, each with its extra words, the words the reference keeps, the words it has that
 * the copy lacks, its pages and sites (hosts). Then a screen of what a cut by a name could earn
 * before any rule is written: on the pages that say they show one product (the product rules'
 * gate, meta.ts `pageMeta`), each name's lines are left out of the copy and each page's F1 computed
 * again; the change of the mean over the pages read, with the pages (sites) it raises and lowers,
 * for every name, those that raise it most first. Held pages are counted, never listed.
 *
 * Where the set is absent (a user's clone has none) it prints one line and stops.
 */
import { htmlToMarkdown, pageAsRead } from "../src/domain/Readable.js"
import { baseOf } from "../src/domain/readable/links.js"
import { pageMeta } from "../src/domain/readable/meta.js"
import { type El, textContent } from "../src/domain/readable/tree.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { wordScore } from "./wcxb.js"
import { casesFromArgs } from "./wordBags.js"

/** A word as the metric counts it (bench/wcxb.ts). */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu
/** The words of a line looked for in a row in the page's elements. */
const KEY_WORDS = 6
/** The fewest words of a copy's line placed (a shorter line is a label: counted as unplaced). */
const MIN_PLACED = 2
/** The fewest words of a reference's line looked for. */
const MIN_MISSING = 4
/** The largest element (descendants) whose text is read to place a line: a line lies in a small box. */
const MAX_BOX = 400
/** The fewest sites a name is listed from. */
const MIN_SITES = 3

const words = (s: string): Array<string> => s.toLowerCase().match(WORD) ?? []
const joined = (ws: ReadonlyArray<string>): string => ` ${ws.join(" ")} `

/** The names an element is known by: its tag, its role, the words of its class and id. */
const namesOf = (el: El): Array<string> => {
  const out = [`<${el.name}>`]
  const role = el.attribs.role?.trim().toLowerCase()
  if (role !== undefined && role.length > 0) out.push(`role=${role}`)
  const raw = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`.replace(/([a-z])([A-Z])/g, "$1 $2")
  for (const w of raw.toLowerCase().split(/[^a-z0-9]+/)) {
    if (w.length >= 3 && !/\d/.test(w)) out.push(w)
  }
  return out
}

interface Tally {
  extra: number
  kept: number
  missing: number
  readonly pages: Set<string>
  readonly sites: Set<string>
  /** On the pages that say they show one product: the sum of each page's F1 change with the name's lines left out. */
  cut: number
  up: number
  down: number
  readonly sitesUp: Set<string>
  readonly sitesDown: Set<string>
}

const { cases, half, listed, type } = casesFromArgs(30)
const shown = process.argv[5]
const tallies = new Map<string, Tally>()
let unplacedExtra = 0
let allExtra = 0
let allKept = 0
let onePages = 0

const count = (names: ReadonlySet<string>, id: string, host: string, add: (t: Tally) => void): void => {
  for (const n of names) {
    let t = tallies.get(n)
    if (t === undefined) {
      t = {
        extra: 0,
        kept: 0,
        missing: 0,
        pages: new Set(),
        sites: new Set(),
        cut: 0,
        up: 0,
        down: 0,
        sitesUp: new Set(),
        sitesDown: new Set()
      }
      tallies.set(n, t)
    }
    add(t)
    t.pages.add(id)
    t.sites.add(host)
  }
}

for (const c of cases) {
  const host = URL.canParse(c.url) ? new URL(c.url).host : "?"
  const md = withoutFrontMatter(htmlToMarkdown(c.html, c.url))
  const page = pageAsRead(c.html, c.url).page
  if (page === undefined) continue
  const meta = pageMeta(page, baseOf(page.baseHref, c.url))
  const oneProduct = meta.product === true && meta.productGroup !== true
  const boxes = page.all.map((e) => e.end - e.order < MAX_BOX ? joined(words(textContent(page.texts, e))) : "")
  const place = (line: ReadonlyArray<string>): Set<string> | undefined => {
    const key = joined(line.slice(0, KEY_WORDS))
    let found: El | undefined
    for (const e of page.all) {
      if (boxes[e.order]!.includes(key) && (found === undefined || e.end - e.order < found.end - found.order)) found = e
    }
    if (found === undefined) return undefined
    const names = new Set<string>()
    for (let a: El | undefined = found; a !== undefined && a.name !== "body"; a = a.parent) {
      for (const n of namesOf(a)) names.add(n)
    }
    return names
  }
  const budget = new Map<string, number>()
  for (const w of words(c.reference)) budget.set(w, (budget.get(w) ?? 0) + 1)
  const copyWords: Array<string> = []
  const placed: Array<{ readonly text: string; readonly names: ReadonlySet<string> }> = []
  for (const raw of md.split("\n")) {
    const text = readerText(raw)
    const line = words(text)
    if (line.length === 0) continue
    for (const w of line) copyWords.push(w)
    let extra = 0
    let kept = 0
    for (const w of line) {
      const b = budget.get(w) ?? 0
      if (b > 0) {
        budget.set(w, b - 1)
        kept++
      } else extra++
    }
    allExtra += extra
    allKept += kept
    const names = line.length >= MIN_PLACED ? place(line) : undefined
    placed.push({ text, names: names ?? new Set() })
    if (names === undefined) unplacedExtra += extra
    else {
      if (shown !== undefined && names.has(shown) && !c.held) {
        console.log(`  [${c.id} ${host} extra ${extra} kept ${kept}] ${line.join(" ").slice(0, 110)}`)
      }
      count(names, c.id, host, (t) => {
        t.extra += extra
        t.kept += kept
      })
    }
  }
  // Each name's lines left out of the copy, on a page of one product (the product rules' gate).
  if (oneProduct) {
    onePages++
    const base = wordScore(placed.map((l) => l.text).join("\n"), c.reference).f1
    const here = new Set(placed.flatMap((l) => [...l.names]))
    for (const n of here) {
      const d = wordScore(placed.filter((l) => !l.names.has(n)).map((l) => l.text).join("\n"), c.reference).f1 - base
      count(new Set([n]), c.id, host, (t) => {
        t.cut += d
        if (d > 1e-6) {
          t.up++
          t.sitesUp.add(host)
        } else if (d < -1e-6) {
          t.down++
          t.sitesDown.add(host)
        }
      })
    }
  }
  const copy = joined(copyWords)
  for (const l of c.reference.split(/\n+/).map(words)) {
    if (l.length < MIN_MISSING || copy.includes(joined(l.slice(0, KEY_WORDS)))) continue
    const names = place(l)
    if (names === undefined) continue
    if (shown !== undefined && names.has(shown) && !c.held) {
      console.log(`  [${c.id} ${host} missing ${l.length}] ${l.join(" ").slice(0, 110)}`)
    }
    count(names, c.id, host, (t) => (t.missing += l.length))
  }
}

const pct = (a: number, b: number): string => `${(b === 0 ? 0 : (100 * a) / b).toFixed(0)}%`
console.log(
  `${type} pages, ${half} half: ${cases.length}; the copies' words: ${allKept} the reference keeps, ${allExtra} extra ` +
    `(${unplacedExtra} of them on lines not placed)`
)
console.log(
  "  name: extra words (share of the name's words), words the reference keeps, words it has the copy lacks; pages, sites"
)
// A name whose extra words outnumber the kept ones: what a cut by that name would clean more than it takes.
const rows = [...tallies.entries()].filter(([, t]) => t.sites.size >= MIN_SITES && t.extra > t.kept).sort((a, b) =>
  b[1].extra - b[1].kept - (a[1].extra - a[1].kept)
)
const row = ([name, t]: [string, Tally]): string =>
  `  ${name}: ${t.extra} (${
    pct(t.extra, t.extra + t.kept)
  }), ${t.kept}, ${t.missing}; ${t.pages.size} pages, ${t.sites.size} sites`
for (const r of rows.slice(0, listed)) console.log(row(r))
// The recall side: names whose missing words outnumber the extra ones.
console.log("  names by the words the copy lacks (more than its extra words there):")
const lacking = [...tallies.entries()].filter(([, t]) => t.sites.size >= MIN_SITES && t.missing > t.extra).sort((
  a,
  b
) => b[1].missing - b[1].extra - (a[1].missing - a[1].extra))
for (const r of lacking.slice(0, listed)) console.log(row(r))
// The cut: what leaving a name's lines out of every copy of one product would do to the mean.
const n = Math.max(cases.length, 1)
console.log(
  `  each name's lines left out of the ${onePages} copies that say they show one product: the change of the mean ` +
    `over the ${cases.length} pages read; pages (sites) up, down; the names that raise it most first:`
)
const cuts = [...tallies.entries()].filter(([, t]) => t.up + t.down > 0).sort((a, b) => b[1].cut - a[1].cut)
for (const [name, t] of cuts.slice(0, listed)) {
  console.log(
    `  ${name}: ${t.cut >= 0 ? "+" : ""}${
      (t.cut / n).toFixed(5)
    }; up ${t.up} (${t.sitesUp.size}), down ${t.down} (${t.sitesDown.size})`
  )
}
