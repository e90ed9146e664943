/**
 * Extraction quality on pages of every type: the WCXB development set (`../shared/extraction-wcxb/`
 * relative to the repository root, 1,494 scored pages of seven types with human-reviewed main
 * text; metric and halves in bench/wcxb.ts), dossier's readable copy beside Mozilla Readability
 * 0.6.0 over linkedom in the same run on the same decoded pages.
 *
 * The text scored is the text a reader sees in the readable copy's body (readerText: link text
 * kept, Markdown syntax removed); the front matter above it is the page's metadata, not its text,
 * and is left out. Prints word F1 overall and per page type for the tuned half, the held-back half
 * (and its pages on sites with no tuned page), and both, the pages whose copy lost the content (recall < 0.1), and ms per page.
 *
 * Where the set is absent (a user's clone has none) the area prints one line and skips.
 */
import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import * as fs from "node:fs"
import * as path from "node:path"
import { htmlToMarkdown } from "../src/domain/Readable.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { counts, judge, record } from "./support.js"
import {
  heldOnOtherSites,
  loadWcxb,
  type PageResult,
  summarize,
  TYPES,
  WCXB,
  type WcxbCase,
  wordScore
} from "./wcxb.js"

const dossier = (c: WcxbCase): string => readerText(withoutFrontMatter(htmlToMarkdown(c.html, c.url)))

const readability = (c: WcxbCase): string => {
  const { document } = parseHTML(c.html)
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()
  return article?.textContent ?? ""
}

const run = (
  cases: ReadonlyArray<WcxbCase>,
  extract: (c: WcxbCase) => string
): { results: Array<PageResult>; msPerPage: number } => {
  for (const c of cases.slice(0, counts.extractionWcxb.warmupPages)) extract(c)
  const results: Array<PageResult> = []
  let total = 0
  for (const c of cases) {
    const t = process.hrtime.bigint()
    let text: string
    try {
      text = extract(c)
    } catch {
      text = ""
    }
    total += Number(process.hrtime.bigint() - t) / 1e6
    results.push({ id: c.id, type: c.type, held: c.held, ...wordScore(text, c.reference) })
  }
  return { results, msPerPage: total / cases.length }
}

const cell = (rs: ReadonlyArray<PageResult>): string => {
  const s = summarize(rs)
  return s.pages === 0 ? "–" : s.f1.toFixed(3)
}

const lostCell = (rs: ReadonlyArray<PageResult>): string => {
  const s = summarize(rs)
  return `${s.lost} (${((100 * s.lost) / Math.max(1, s.pages)).toFixed(1)}%)`
}

export const benchExtractionWcxb = async (): Promise<void> => {
  if (!fs.existsSync(path.join(WCXB, "cases.json"))) {
    console.log("  skipped: no page-type set at ../shared/extraction-wcxb (it is not part of the repository)")
    return
  }
  const cases = loadWcxb(counts.extractionWcxb.pages)
  const ours = run(cases, dossier)
  const base = run(cases, readability)
  const held = cases.filter((c) => c.held).length
  const unseen = heldOnOtherSites(cases)
  console.log(
    `\n  ${cases.length} pages (${cases.length - held} tuned, ${held} held back by id hash, ${unseen.size} of them ` +
      `on sites with no tuned page); word F1 (WCXB's metric)`
  )
  console.log(
    "\n| page type | pages | dossier tuned | dossier held | dossier held, other sites | dossier all | Readability all | dossier recall < 0.1 | Readability recall < 0.1 |"
  )
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
  const row = (name: string, keep: (r: PageResult) => boolean) => {
    const o = ours.results.filter(keep)
    const b = base.results.filter(keep)
    console.log(
      `| ${name} | ${o.length} | ${cell(o.filter((r) => !r.held))} | ${cell(o.filter((r) => r.held))} | ${
        cell(o.filter((r) => unseen.has(r.id)))
      } | ${cell(o)} | ${cell(b)} | ${lostCell(o)} | ${lostCell(b)} |`
    )
  }
  row("**all**", () => true)
  for (const t of TYPES) row(t, (r) => r.type === t)
  console.log(
    `\n  ms per page: dossier ${ours.msPerPage.toFixed(1)}, Readability over linkedom ${base.msPerPage.toFixed(1)}`
  )
  const worst = [...ours.results].sort((a, b) => a.f1 - b.f1).slice(0, 15)
  console.log(`  lowest F1 (dossier): ${worst.map((r) => `${r.id} ${r.type} ${r.f1.toFixed(2)}`).join(", ")}\n`)
  const all = summarize(ours.results)
  const types = TYPES.map((t) => summarize(ours.results.filter((r) => r.type === t)).f1)
  const met = all.f1 >= 0.9 && Math.min(...types) >= 0.8 && all.lost <= 0.01 * all.pages
  record({
    name: "extraction ms per page (page types)",
    ms: ours.msPerPage,
    baseline: "Readability over linkedom",
    baselineMs: base.msPerPage,
    target: 0.33,
    note: `F1 ${all.f1.toFixed(3)} vs ${summarize(base.results).f1.toFixed(3)}, lowest type ${
      Math.min(...types).toFixed(3)
    }, recall<0.1 ${all.lost} (target F1 >= 0.90, types >= 0.80, <= 1%: ${judge(met)})`
  })
}
