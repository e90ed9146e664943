/**
 * Why the readable copy is wider than the page's best single element, on one page type of the WCXB
 * set (bench/wcxb.ts), tuned half by default: `node scripts/run-ts.mjs bench/wcxbWidth.ts [type]
 * [tuned|held|all] [pages]` (product pages of the tuned half unless told). The best single element
 * is bench/wcxbCeiling.ts's (the element whose text, what its tags drop left out, scores best
 * against the reference, on the page parsed as the copy reads it: Readable.ts `pageAsRead`). The text the choice keeps (content.ts `chooseContent`: its roots, what
 * the choice and the cleaning left in them) is split by where it lies:
 *
 * - `inside the best element`;
 * - `(a) another root`: a root that does not hold the best element, by how the choice added it:
 *   `a sibling` the scorer picked beside its box, `a lead` (the title and lead over it, a
 *   described box) or `added after` (a grid of priced cards, an FAQ, a guide);
 * - `(b) climbed`: in the root that holds the best element, outside it and outside the scorer's own
 *   best candidate (the root is an ancestor the scorer climbed to);
 * - `(c) cleaning`: in the scorer's best candidate, outside the best element (the candidate is
 *   itself wider than the box, and the cleaning kept the blocks around it).
 *
 * Each part is measured in the words the copy holds of it, the words of it beyond the reference
 * (removing them takes no expected word away), and in F1 points: the mean over pages of the copy's
 * word F1 with the part's words taken out of it, minus the copy's (and the same counting only the
 * pages it raises: what a rule that told them apart could reach). Pages whose copy came from a
 * fallback (the page's visible text) or whose best element lies outside every root are counted
 * apart. The parts are then split by what holds their words (the names and roles of the box under
 * the root: a form, a list, schema.org's `Product`/`Offer` microdata, ARIA roles, a heading's section).
 *
 * Where the set is absent (a user's clone has none) it prints one line and stops.
 */
import { htmlToMarkdown, pageAsRead } from "../src/domain/Readable.js"
import { chooseContent, scoredChoices } from "../src/domain/readable/content.js"
import { baseOf } from "../src/domain/readable/links.js"
import { pageMeta } from "../src/domain/readable/meta.js"
import { type El, type Page, textContent } from "../src/domain/readable/tree.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { wordScore } from "./wcxb.js"
import { type Bag, bagOf, bestElement, casesFromArgs, f1, sizeOf } from "./wordBags.js"

const overlapOf = (a: Bag, ref: Bag): number => {
  let n = 0
  for (const [w, k] of a) n += Math.min(k, ref.get(w) ?? 0)
  return n
}

const minus = (a: Bag, b: Bag): Bag => {
  const m: Bag = new Map()
  for (const [w, n] of a) {
    const left = n - (b.get(w) ?? 0)
    if (left > 0) m.set(w, left)
  }
  return m
}

const add = (a: Bag, b: Bag): void => {
  for (const [w, n] of b) a.set(w, (a.get(w) ?? 0) + n)
}

const inside = (outer: El, el: El): boolean => el.order >= outer.order && el.order < outer.end

const PARTS = [
  "inside the best element",
  "(a) another root: a sibling",
  "(a) another root: a lead",
  "(a) another root: added after",
  "(b) climbed: over three close rivals",
  "(b) climbed: to a parent scoring higher",
  "(b) climbed: through boxes of one element",
  "(b) climbed: to an ancestor adding prose",
  "(b) climbed: from a best candidate apart from the box",
  "(c) cleaning"
] as const

/** The steps of `pickContent`'s climb (`scoredChoices`' `climbs`, after the best itself), as parts. */
const CLIMBS: ReadonlyArray<Part> = [
  "(b) climbed: over three close rivals",
  "(b) climbed: to a parent scoring higher",
  "(b) climbed: through boxes of one element",
  "(b) climbed: to an ancestor adding prose"
]
type Part = (typeof PARTS)[number]

/** What holds a block (the outermost box of a kind between the block and `top`), for the parts' detail. */
const KINDS: ReadonlyArray<[string, (el: El) => boolean]> = [
  ["schema.org offers", (el) => el.attribs.itemprop === "offers"],
  ["schema.org rating or review", (el) => /^(?:aggregateRating|reviews?)$/.test(el.attribs.itemprop ?? "")],
  ["form or form control", (el) => ["form", "fieldset", "select", "label", "button", "input"].includes(el.name)],
  [
    "ARIA widget role",
    (el) =>
      /^(?:tablist|tab|radiogroup|listbox|dialog|menu|toolbar|group|region|complementary)$/.test(el.attribs.role ?? "")
  ],
  ["table", (el) => el.name === "table"],
  ["list", (el) => el.name === "ul" || el.name === "ol" || el.name === "dl"]
]

const kindOf = (el: El, top: El): string => {
  let found = "other boxes"
  for (let at: El | undefined = el; at !== undefined && at !== top; at = at.parent) {
    for (const [k, test] of KINDS) if (test(at)) found = k
  }
  return found
}

/** The kept text of `root`'s subtree, cut into the blocks (nearest block element) it holds, with each block's element. */
const keptBlocks = (page: Page, root: El): Array<{ el: El; bag: Bag }> => {
  const out: Array<{ el: El; bag: Bag }> = []
  const walk = (el: El, holder: El): void => {
    let own = ""
    for (const c of el.children) {
      if (typeof c === "number") own += page.texts.of(c)
      else if (!c.drop) {
        if (c.block === undefined) walk(c, c)
        else own += ` ${textContent(page.texts, c, true, true)} `
      }
    }
    const bag = bagOf(own)
    if (bag.size > 0) out.push({ el: holder, bag })
  }
  walk(root, root)
  return out
}

const { cases, half, listed, type } = casesFromArgs(10)

interface Row {
  readonly id: string
  readonly copy: number
  readonly case: "split" | "fallback" | "outside"
  readonly words: Record<string, number>
  readonly beyond: Record<string, number>
  readonly points: Record<string, number>
  readonly kinds: Record<string, number>
}

const rows: Array<Row> = []
for (const c of cases) {
  const copyText = readerText(withoutFrontMatter(htmlToMarkdown(c.html, c.url)))
  const copy = wordScore(copyText, c.reference)
  const ref = bagOf(c.reference)
  const refSize = sizeOf(ref)
  const got = bagOf(copyText)
  const page = pageAsRead(c.html, c.url).page
  if (page === undefined) continue
  // The single element: its text as the parse left it (what its tags drop left out).
  const bestEl = bestElement(page, c.reference).el
  const roots = chooseContent(page, pageMeta(page, baseOf(page.baseHref, c.url)))
  const choice = scoredChoices.get(page)
  const words: Record<string, number> = {}
  const beyond: Record<string, number> = {}
  const points: Record<string, number> = {}
  const kinds: Record<string, number> = {}
  const holder = bestEl === undefined ? undefined : roots.find((r) => inside(r, bestEl!))
  const fallback = choice === undefined ||
    !roots.includes(choice.picked.find((p) => inside(p, choice.best)) ?? choice.best)
  if (bestEl === undefined || holder === undefined || fallback) {
    rows.push({ id: c.id, copy: copy.f1, case: fallback ? "fallback" : "outside", words, beyond, points, kinds })
    continue
  }
  const bags = new Map<Part, Bag>(PARTS.map((p) => [p, new Map()]))
  for (const root of roots) {
    for (const { bag, el } of keptBlocks(page, root)) {
      let part: Part
      if (root !== holder) {
        part = choice!.picked.includes(root)
          ? "(a) another root: a sibling"
          : root.order < holder.order
          ? "(a) another root: a lead"
          : "(a) another root: added after"
      } else if (inside(bestEl, el)) part = "inside the best element"
      else if (inside(choice!.best, el) && inside(choice!.best, bestEl)) part = "(c) cleaning"
      else {
        const step = choice!.climbs.findIndex((top) => inside(top, el))
        part = step < 1 ? "(b) climbed: from a best candidate apart from the box" : CLIMBS[step - 1]!
      }
      add(bags.get(part)!, bag)
      if (part !== "inside the best element") {
        const k = `${part.slice(0, 3)} ${kindOf(el, root === holder ? bestEl.parent ?? root : root)}`
        kinds[k] = (kinds[k] ?? 0) + sizeOf(bag)
      }
    }
  }
  const base = f1(overlapOf(got, ref), sizeOf(got), refSize)
  for (const [part, bag] of bags) {
    // The part's words as the copy holds them (a rule after the choice may have left some out).
    const held = new Map([...bag].map(([w, n]) => [w, Math.min(n, got.get(w) ?? 0)] as const))
    const rest = minus(got, held)
    const removed = sizeOf(got) - sizeOf(rest)
    words[part] = removed
    beyond[part] = removed - (overlapOf(got, ref) - overlapOf(rest, ref))
    points[part] = f1(overlapOf(rest, ref), sizeOf(rest), refSize) - base
  }
  rows.push({ id: c.id, copy: copy.f1, case: "split", words, beyond, points, kinds })
}

const split = rows.filter((r) => r.case === "split")
const sum = (f: (r: Row) => number, rs: ReadonlyArray<Row> = split): number => rs.reduce((n, r) => n + f(r), 0)
const x = (n: number): string => n.toFixed(3)

console.log(
  `${type} pages, ${half} half: ${rows.length}; split ${split.length}, copy from a fallback ${
    rows.filter((r) => r.case === "fallback").length
  }, best element outside every root ${rows.filter((r) => r.case === "outside").length}`
)
console.log(
  `  part | words the copy holds | beyond the reference | F1 points, mean over all ${rows.length} pages: taken out | taken out where it helps | pages`
)
for (const p of PARTS) {
  console.log(
    `  ${p} | ${sum((r) => r.words[p]!)} | ${sum((r) => r.beyond[p]!)} | ${
      x(sum((r) => r.points[p]!) / rows.length)
    } | ${x(sum((r) => Math.max(0, r.points[p]!)) / rows.length)} | ${split.filter((r) => r.words[p]! > 0).length}`
  )
}
const kindTotals = new Map<string, number>()
for (const r of split) for (const [k, n] of Object.entries(r.kinds)) kindTotals.set(k, (kindTotals.get(k) ?? 0) + n)
console.log(`  words outside the best element, by what holds them:`)
for (const [k, n] of [...kindTotals].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : b[1] - a[1]))) {
  console.log(`    ${k} ${n}`)
}
for (const p of PARTS.slice(1)) {
  const top = [...split].sort((a, b) => b.points[p]! - a.points[p]!).slice(0, listed).filter((r) => r.points[p]! > 0)
  if (top.length === 0) continue
  console.log(`  the pages that ${p} costs most:`)
  for (const r of top) {
    console.log(
      `    ${r.id} copy ${x(r.copy)} +${x(r.points[p]!)} without its ${r.words[p]} words (${r.beyond[p]} beyond)`
    )
  }
}
