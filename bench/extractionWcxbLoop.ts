/**
 * Fast scoring loop for developing the extractor on the WCXB set (bench/wcxb.ts): dossier's copy
 * only (Readability's figures are cached in `.bench-tmp/wcxb-readability.json` after the first
 * run), overall / per type / per half, and per page scores written to `.bench-tmp/wcxb-<label>.json`
 * so two runs can be compared: `node scripts/run-ts.mjs bench/extractionWcxbLoop.ts <label> [compare-label]`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { htmlToMarkdown } from "../src/domain/Readable.js"
import { readerText, withoutFrontMatter } from "./readerText.js"
import { heldOnOtherSites, loadWcxb, type PageResult, summarize, TYPES, wordScore } from "./wcxb.js"

const [label = "now", compare, only] = process.argv.slice(2)
const cases = loadWcxb()
const unseen = heldOnOtherSites(cases)
const results: Array<PageResult> = []
let ms = 0
for (const c of cases) {
  if (only !== undefined && c.type !== only) continue
  const t = performance.now()
  let text = ""
  try {
    text = readerText(withoutFrontMatter(htmlToMarkdown(c.html, c.url)))
  } catch (e) {
    console.log(`THREW ${c.id}: ${String(e)}`)
  }
  ms += performance.now() - t
  results.push({ id: c.id, type: c.type, held: c.held, ...wordScore(text, c.reference) })
}
const fmt = (rs: ReadonlyArray<PageResult>) => {
  const s = summarize(rs)
  return `${s.f1.toFixed(3)} (${s.pages}, lost ${s.lost})`
}
console.log(
  `all ${fmt(results)} tuned ${fmt(results.filter((r) => !r.held))} held ${fmt(results.filter((r) => r.held))} ${
    (ms / results.length).toFixed(1)
  } ms/page; held on sites with no tuned page ${fmt(results.filter((r) => unseen.has(r.id)))}`
)
for (const t of TYPES) {
  const rs = results.filter((r) => r.type === t)
  console.log(
    `  ${t.padEnd(14)} ${fmt(rs)}  tuned ${fmt(rs.filter((r) => !r.held))} held ${fmt(rs.filter((r) => r.held))}`
  )
}
fs.mkdirSync(".bench-tmp", { recursive: true })
fs.writeFileSync(path.resolve(".bench-tmp", `wcxb-${label}.json`), JSON.stringify(results))
if (compare !== undefined) {
  const old = new Map(
    (JSON.parse(fs.readFileSync(path.resolve(".bench-tmp", `wcxb-${compare}.json`), "utf8")) as Array<PageResult>).map((
      r
    ) => [r.id, r])
  )
  const diffs = results.map((r) => ({ r, d: r.f1 - (old.get(r.id)?.f1 ?? r.f1) })).filter((x) => Math.abs(x.d) > 0.02)
  diffs.sort((a, b) => a.d - b.d)
  for (const { r, d } of diffs) {
    console.log(
      `${d > 0 ? "better" : "worse "} ${r.id} ${r.type} ${(r.f1 - d).toFixed(3)} -> ${r.f1.toFixed(3)} (${
        d > 0 ? "+" : ""
      }${d.toFixed(3)})`
    )
  }
}
