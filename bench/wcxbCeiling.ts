/**
 * The ceiling of the readable copy on one page type of the WCXB set (bench/wcxb.ts), tuned half
 * by default: `node scripts/run-ts.mjs bench/wcxbCeiling.ts [type] [tuned|held|all] [pages]`
 * (product pages of the tuned half unless told). For each page it measures, against the expected
 * text (WCXB's word F1):
 *
 * - `copy`: the readable copy's F1;
 * - `element`: the best F1 of the text of any single element of the page as parsed (tree.ts, what
 *   its tag drops left out; parsed as the copy reads it, Readable.ts `pageAsRead`): the element
 *   the scorer should have chosen;
 * - `kept`: the best F1 of a set of the page's blocks (the text runs of one nearest block element)
 *   that its tags keep, chosen greedily (the block that raises F1 most, until none does): an upper
 *   bound of what choosing the content can reach;
 * - `shown`: the same over every block a browser shows, the blocks of elements left out by their
 *   tag but drawn on screen too (`nav`, `button`, `label`, `figcaption`, `aside`, landmarks' roles);
 * - `hidden`: the same with the blocks a script reveals too (`noscript`, `template`, `hidden`,
 *   `display: none`, `aria-hidden`).
 *
 * The expected words no block holds at all are looked for where the page keeps text it does not
 * show: `alt`/`title`/`aria-label` attributes, `<meta>` contents, JSON-LD, other scripts (a
 * framework's state); the rest are nowhere in the page's text as parsed. `selection` is `kept`
 * minus `copy`; `rendering` is what the other levels add.
 *
 * The expected words the copy lacks (its recall's gap) are charged, with their counts, to the first
 * place that holds them (`LOST`): a block its tags keep, outside the roots content.ts chose or
 * inside them but dropped by the choice (by a name of reviews, by another name of furniture, by no
 * name: the cleaning's links, lengths and scores), or kept by the choice and left out after it;
 * then a block drawn but dropped by its tag, a concealed block (by how it is hidden), the places
 * above, nowhere. The boxes the choice drops inside its roots are also scored by how much of them
 * the reference holds (their runs of four words found in it, `DROPPED_SHARE`): whether giving a
 * kind of them back could raise recall without costing precision. Pages whose copy is far under
 * their element ceiling are listed with the element that would win and where it lies against the
 * chosen roots (an ancestor: the copy is too narrow; inside them: too wide; apart: the wrong box).
 *
 * Where the set is absent (a user's clone has none) it prints one line and stops.
 *
 * Over 400 lines: the five levels share one pass over each page's blocks, and the charging of the
 * missing words reads what those levels found; apart, each would parse and score the page again.
 */
import { htmlToMarkdown, pageAsRead } from "../src/domain/Readable.js"
import { concealing } from "../src/domain/readable/boilerplate.js"
import { chooseContent } from "../src/domain/readable/content.js"
import { baseOf } from "../src/domain/readable/links.js"
import { pageMeta } from "../src/domain/readable/meta.js"
import { BLOCKS, type El, type Page, textContent } from "../src/domain/readable/tree.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { wordScore } from "./wcxb.js"
import { type Bag, bagOf, bestElement, casesFromArgs, f1, sizeOf, WORD } from "./wordBags.js"

/** Words of `b` the reference still lacks at `have` (`have[w]` below `ref[w]`), counted with multiplicity. */
const gain = (b: Bag, ref: Bag, have: Bag): number => {
  let g = 0
  for (const [w, n] of b) {
    const room = (ref.get(w) ?? 0) - (have.get(w) ?? 0)
    if (room > 0) g += Math.min(n, room)
  }
  return g
}

interface Block {
  readonly bag: Bag
  readonly size: number
  /** How a concealed block is hidden; the nearest block element of a kept one. */
  readonly kind?: string
  readonly el?: El
}

/** The best F1 of a set of `blocks`, greedily (the block that raises F1 most, until none does). */
const greedy = (blocks: ReadonlyArray<Block>, ref: Bag, refSize: number): { f1: number; have: Bag } => {
  const have: Bag = new Map()
  let overlap = 0
  let predicted = 0
  let best = 0
  const left = blocks.filter((b) => gain(b.bag, ref, have) > 0)
  for (;;) {
    let pick = -1
    let pickF = best
    let pickGain = 0
    for (let i = 0; i < left.length; i++) {
      const g = gain(left[i]!.bag, ref, have)
      if (g === 0) continue
      const f = f1(overlap + g, predicted + left[i]!.size, refSize)
      if (f > pickF) {
        pick = i
        pickF = f
        pickGain = g
      }
    }
    if (pick < 0) return { f1: best, have }
    const b = left[pick]!
    left.splice(pick, 1)
    for (const [w, n] of b.bag) have.set(w, (have.get(w) ?? 0) + n)
    overlap += pickGain
    predicted += b.size
    best = pickF
  }
}

/** Elements whose text is never drawn: code, the head's furniture. */
const CODE = new Set(["script", "style", "title", "meta", "link", "base", "head"])

type Layer = "kept" | "shown" | "hidden" | "code"

/** How a concealed block is hidden (its outermost concealing element). */
const HIDDEN_KINDS = ["template", "noscript", "hidden", "display: none", "aria-hidden"] as const
type HiddenKind = (typeof HIDDEN_KINDS)[number]

const hiddenKind = (el: El): HiddenKind | undefined =>
  el.name === "template" || el.name === "noscript"
    ? el.name
    : el.attribs.hidden !== undefined
    ? "hidden"
    : concealing(el.name, el.attribs)
    ? "display: none"
    : el.attribs["aria-hidden"]?.toLowerCase() === "true"
    ? "aria-hidden"
    : undefined

/** Where a text node's element lies: kept by its tags, drawn but dropped by a tag, concealed, or code. */
const layerOf = (el: El): [Layer, HiddenKind | undefined] => {
  let layer: Layer = "kept"
  let kind: HiddenKind | undefined
  for (let at: El | undefined = el; at !== undefined; at = at.parent) {
    if (CODE.has(at.name)) return ["code", undefined]
    const k = hiddenKind(at)
    if (k !== undefined) {
      layer = "hidden"
      kind = k
    } else if (at.drop && layer === "kept") layer = "shown"
  }
  return [layer, kind]
}

/** The blocks of a page (the text runs of each nearest block element), by layer. */
const blocksOf = (page: Page): Record<Layer, Array<Block>> => {
  const texts = new Map<string, string>()
  for (const el of page.all) {
    const [layer, kind] = layerOf(el)
    const key = `${layer}|${(el.block ?? el).order}|${kind ?? ""}`
    let s = texts.get(key) ?? ""
    for (const c of el.children) {
      if (typeof c === "number") s += page.texts.of(c)
      else if (c.name === "br" || BLOCKS.has(c.name)) s += " "
    }
    texts.set(key, s)
  }
  const out: Record<Layer, Array<Block>> = { kept: [], shown: [], hidden: [], code: [] }
  for (const [key, s] of texts) {
    const bag = bagOf(s)
    const size = sizeOf(bag)
    const [layer, order, kind] = key.split("|") as [Layer, string, string]
    if (size > 0) {
      out[layer].push({
        bag,
        size,
        ...(kind === "" ? {} : { kind }),
        ...(layer === "kept" ? { el: page.all[Number(order)]! } : {})
      })
    }
  }
  return out
}

const ATTRIBUTE = /\s(?:alt|title|aria-label)\s*=\s*("[^"]*"|'[^']*')/gi
const META = /<meta\b[^>]*\scontent\s*=\s*("[^"]*"|'[^']*')/gi
const JSON_LD = /<script\b[^>]*application\/ld\+json[^>]*>([\s\S]*?)<\/script>/gi
const SCRIPT = /<script\b(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/gi

const joined = (html: string, re: RegExp): string => [...html.matchAll(re)].map((m) => m[1]!).join(" ")

/** Where the page keeps text it does not show, in the order missing words are charged to. */
const SOURCES = ["attributes", "meta", "json-ld", "scripts"] as const

/**
 * Why a kept block is not in the copy, in the order lost words are charged: outside the chosen
 * roots, under a name of reviews or other products (content.ts `PRODUCT_FURNITURE`, with
 * ratings, feedback and testimonials), under another name of furniture (boilerplate.ts marks),
 * or under none; inside the roots, dropped by the choice or by a rule after it; else in the copy's
 * own blocks (a word the rendering writes otherwise).
 */
const SELECTION = [
  "outside: reviews",
  "outside: furniture",
  "outside: unnamed",
  "inside: reviews",
  "inside: furniture",
  "inside: unnamed",
  "inside: kept"
] as const

const REVIEWS =
  /(?<!p)review|rating|feedback|testimonial|recently-?viewed|also-?(?:bought|viewed|like)|up-?sell|cross-?sell|similar-?(?:items|products)/i

const selectionOf = (el: El, roots: ReadonlyArray<El>): (typeof SELECTION)[number] => {
  const root = roots.find((r) => el.order >= r.order && el.order < r.end)
  if (root !== undefined) {
    // The outermost element the choice dropped between the block and its root.
    let dropped: El | undefined
    for (let at: El | undefined = el; at !== undefined && at !== root.parent; at = at.parent) if (at.drop) dropped = at
    if (dropped === undefined) return "inside: kept"
    return REVIEWS.test(`${dropped.attribs.class ?? ""} ${dropped.attribs.id ?? ""}`)
      ? "inside: reviews"
      : dropped.marks.furniture > 0
      ? "inside: furniture"
      : "inside: unnamed"
  }
  let furniture = false
  for (let at: El | undefined = el; at !== undefined; at = at.parent) {
    if (at.name !== "body" && at.name !== "html" && REVIEWS.test(`${at.attribs.class ?? ""} ${at.attribs.id ?? ""}`)) {
      return "outside: reviews"
    }
    if (at.marks.furniture > 0) furniture = true
  }
  return furniture ? "outside: furniture" : "outside: unnamed"
}

const describe = (el: El): string =>
  `${el.name}${el.attribs.id === undefined ? "" : `#${el.attribs.id}`}${
    el.attribs.class === undefined ? "" : `.${el.attribs.class.trim().split(/\s+/).slice(0, 3).join(".")}`
  }`

const { cases, half, listed, type } = casesFromArgs(15)

interface Row {
  readonly id: string
  readonly copy: number
  readonly recall: number
  readonly precision: number
  readonly element: number
  readonly kept: number
  readonly shown: number
  readonly hidden: number
  readonly where: string
  readonly best: string
  readonly missing: Record<(typeof SOURCES)[number] | "nowhere", number>
  /** The expected words the copy lacks, charged to the first place that holds them (`LOST`). */
  readonly lost: Record<string, number>
  readonly refSize: number
}

/** Where the expected words the copy lacks are: in blocks its tags keep, drawn but dropped by a tag, concealed (by kind), elsewhere. */
const LOST = [...SELECTION, "shown", ...HIDDEN_KINDS, ...SOURCES, "nowhere"] as const

/** The runs of this many words of a dropped box looked for in the reference. */
const RUN = 4

/** Words of the boxes (of 8 words or more) the choice drops inside its roots, by the share of their runs the reference holds. */
const DROPPED_SHARE = { "0.8 or more": 0, between: 0, "0.2 or less": 0 }

const droppedShares = (
  page: Page,
  tagDrops: ReadonlyArray<boolean>,
  roots: ReadonlyArray<El>,
  reference: string
): void => {
  const words = (s: string): Array<string> => s.toLowerCase().match(WORD) ?? []
  const said = ` ${words(reference).join(" ")} `
  for (const root of roots) {
    for (let i = root.order + 1; i < root.end; i++) {
      const el = page.all[i]!
      if (!el.drop || tagDrops[i] === true || el.parent?.drop === true) continue
      const ws = words(textContent(page.texts, el, true, (e) => tagDrops[e.order] === true))
      if (ws.length < 8) continue
      let found = 0
      let runs = 0
      for (let k = 0; k + RUN <= ws.length; k += 2, runs++) {
        if (said.includes(` ${ws.slice(k, k + RUN).join(" ")} `)) found++
      }
      const share = found / runs
      DROPPED_SHARE[share >= 0.8 ? "0.8 or more" : share <= 0.2 ? "0.2 or less" : "between"] += ws.length
    }
  }
}

const rows: Array<Row> = []
for (const c of cases) {
  const copyText = readerText(withoutFrontMatter(htmlToMarkdown(c.html, c.url)))
  const copy = wordScore(copyText, c.reference)
  const ref = bagOf(c.reference)
  const refSize = sizeOf(ref)
  const page = pageAsRead(c.html, c.url).page
  if (page === undefined) continue
  // The single element: its text as the parse left it (what its tags drop left out).
  const { el: bestEl, f1: element } = bestElement(page, c.reference)
  const blocks = blocksOf(page)
  const kept = greedy(blocks.kept, ref, refSize).f1
  const shown = greedy([...blocks.kept, ...blocks.shown], ref, refSize).f1
  const all = greedy([...blocks.kept, ...blocks.shown, ...blocks.hidden], ref, refSize)
  // The expected words no block holds: charged to the first place that holds them.
  const union: Bag = new Map()
  for (const b of [...blocks.kept, ...blocks.shown, ...blocks.hidden]) {
    for (const [w, n] of b.bag) union.set(w, (union.get(w) ?? 0) + n)
  }
  const sources = [
    bagOf(joined(c.html, ATTRIBUTE)),
    bagOf(joined(c.html, META)),
    bagOf(joined(c.html, JSON_LD).replace(/\\n|\\u[0-9a-f]{4}/gi, " ")),
    bagOf(joined(c.html, SCRIPT).replace(/\\n|\\u[0-9a-f]{4}/gi, " "))
  ]
  const missing = { attributes: 0, meta: 0, "json-ld": 0, scripts: 0, nowhere: 0 }
  for (const [w, n] of ref) {
    const lacking = n - (union.get(w) ?? 0)
    if (lacking <= 0) continue
    const at = sources.findIndex((s) => s.has(w))
    missing[at < 0 ? "nowhere" : SOURCES[at]!] += lacking
  }
  // The expected words the copy lacks, charged to the first layer that holds them.
  const unionOf = (bs: ReadonlyArray<Block>): Bag => {
    const u: Bag = new Map()
    for (const b of bs) for (const [w, n] of b.bag) u.set(w, (u.get(w) ?? 0) + n)
    return u
  }
  // Where the winning element lies against the chosen roots (chosen on the page the blocks were read from).
  const metaOf = pageMeta(page, baseOf(page.baseHref, c.url))
  const tagDrops = page.all.map((el) => el.drop)
  const roots = chooseContent(page, metaOf)
  droppedShares(page, tagDrops, roots, c.reference)
  const places: Array<Bag> = [
    ...SELECTION.map((k) => unionOf(blocks.kept.filter((b) => selectionOf(b.el!, roots) === k))),
    unionOf(blocks.shown),
    ...HIDDEN_KINDS.map((k) => unionOf(blocks.hidden.filter((b) => b.kind === k))),
    ...sources
  ]
  const got = bagOf(copyText)
  const lost: Record<string, number> = Object.fromEntries(LOST.map((k) => [k, 0]))
  for (const [w, n] of ref) {
    let lacking = n - (got.get(w) ?? 0)
    for (let i = 0; i < places.length && lacking > 0; i++) {
      const take = Math.min(lacking, places[i]!.get(w) ?? 0)
      lost[LOST[i]!]! += take
      lacking -= take
    }
    if (lacking > 0) lost.nowhere! += lacking
  }
  const order = bestEl?.order ?? -1
  const end = bestEl?.end ?? -1
  const where = bestEl === undefined
    ? "none"
    : roots.some((r) => r.order === order)
    ? "chosen"
    : roots.some((r) => r.order > order && r.end <= end)
    ? "narrow"
    : roots.some((r) => order > r.order && order < r.end)
    ? "wide"
    : "apart"
  rows.push({
    id: c.id,
    copy: copy.f1,
    recall: copy.recall,
    precision: copy.precision,
    element,
    kept,
    shown,
    hidden: all.f1,
    where,
    best: bestEl === undefined ? "-" : describe(bestEl),
    missing,
    lost,
    refSize
  })
}

const mean = (f: (r: Row) => number, rs: ReadonlyArray<Row> = rows): number =>
  rs.length === 0 ? 0 : rs.reduce((n, r) => n + f(r), 0) / rs.length
const x = (n: number): string => n.toFixed(3)

console.log(`${type} pages, ${half} half: ${rows.length}`)
console.log(
  `  mean F1: copy ${x(mean((r) => r.copy))}  element ${x(mean((r) => r.element))}  kept blocks ${
    x(mean((r) => r.kept))
  }  shown blocks ${x(mean((r) => r.shown))}  with hidden ${x(mean((r) => r.hidden))}`
)
console.log(
  `  copy: precision ${x(mean((r) => r.precision))} recall ${x(mean((r) => r.recall))}; selection (kept - copy) ${
    x(mean((r) => r.kept - r.copy))
  }; dropped by tag (shown - kept) ${x(mean((r) => r.shown - r.kept))}; concealed (hidden - shown) ${
    x(mean((r) => r.hidden - r.shown))
  }; past every block (1 - hidden) ${x(mean((r) => 1 - r.hidden))}`
)
const refWords = rows.reduce((n, r) => n + r.refSize, 0)
const missingOf = (k: keyof Row["missing"]): number => rows.reduce((n, r) => n + r.missing[k], 0)
console.log(
  `  expected words no block holds (of ${refWords}): ${
    [...SOURCES, "nowhere" as const].map((k) => `${k} ${missingOf(k)}`).join(", ")
  }`
)
console.log(
  `  expected words the copy lacks (recall points, mean over pages): ${
    LOST.map((k) => `${k} ${rows.reduce((n, r) => n + r.lost[k]!, 0)} (${x(mean((r) => r.lost[k]! / r.refSize))})`)
      .join(", ")
  }`
)
console.log(
  `  words of the boxes the choice drops inside its roots, by the share of their runs of ${RUN} words the reference holds: ${
    Object.entries(DROPPED_SHARE).map(([k, n]) => `${k} ${n}`).join(", ")
  }`
)
for (const w of ["chosen", "narrow", "wide", "apart", "none"]) {
  const rs = rows.filter((r) => r.where === w)
  if (rs.length === 0) continue
  console.log(
    `  best element ${w.padEnd(6)} ${String(rs.length).padStart(3)} pages: copy ${x(mean((r) => r.copy, rs))} element ${
      x(mean((r) => r.element, rs))
    } recall ${x(mean((r) => r.recall, rs))} precision ${x(mean((r) => r.precision, rs))}`
  )
}
const gaps = [...rows].sort((a, b) => (b.element - b.copy) - (a.element - a.copy)).slice(0, listed)
console.log(`  the ${gaps.length} pages furthest under their element ceiling:`)
for (const r of gaps) {
  console.log(
    `    ${r.id} copy ${x(r.copy)} (p ${x(r.precision)} r ${x(r.recall)}) element ${
      x(r.element)
    } ${r.where} ${r.best}; kept ${x(r.kept)} shown ${x(r.shown)} hidden ${x(r.hidden)}`
  )
}
const lostMost = [...rows].sort((a, b) => b.recall - a.recall).reverse().slice(0, listed)
console.log(`  the ${lostMost.length} pages with the lowest recall, where the words they lack are:`)
for (const r of lostMost) {
  const m = Object.entries(r.lost).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ")
  console.log(`    ${r.id} copy ${x(r.copy)} recall ${x(r.recall)} of ${r.refSize} words: ${m}`)
}
const lows = [...rows].sort((a, b) => a.hidden - b.hidden).slice(0, listed)
console.log(`  the ${lows.length} pages with the lowest block ceiling:`)
for (const r of lows) {
  const m = Object.entries(r.missing).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ")
  console.log(`    ${r.id} copy ${x(r.copy)} hidden ${x(r.hidden)} of ${r.refSize} words missing: ${m}`)
}
