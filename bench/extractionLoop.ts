/**
 * Fast scoring loop for developing the extractor: only dossier's readable copy over the whole
 * development set, F/P/R (the same metric as bench/extraction.ts), and per page the counts written
 * to `.bench-tmp/loop-<label>.json` so two runs can be compared (`node scripts/run-ts.mjs
 * bench/extractionLoop.ts <label> [compare-label]`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { htmlToMarkdown } from "../src/domain/Readable.js"
import { readerText } from "./readerText.js"

const SET = path.resolve("../shared/extraction")
const normalize = (s: string): string => s.normalize("NFC").replace(/\s+/g, " ").trim()

const index = JSON.parse(fs.readFileSync(path.join(SET, "cases.json"), "utf8")) as Record<
  string,
  { page: string; with: Array<string>; without: Array<string> }
>
const [label = "now", compare] = process.argv.slice(2)
let tp = 0, fn = 0, fp = 0, ms = 0
const per: Record<string, { missed: Array<string>; leaked: Array<string> }> = {}
for (const [url, c] of Object.entries(index)) {
  const html = new TextDecoder("utf-8").decode(zlib.gunzipSync(fs.readFileSync(path.join(SET, "pages", c.page))))
  const t = performance.now()
  const text = normalize(readerText(htmlToMarkdown(html, url)))
  ms += performance.now() - t
  const missed = c.with.filter((s) => !text.includes(normalize(s)))
  const leaked = c.without.filter((s) => text.includes(normalize(s)))
  tp += c.with.length - missed.length
  fn += missed.length
  fp += leaked.length
  per[c.page] = { missed, leaked }
}
const p = tp / (tp + fp), r = tp / (tp + fn)
console.log(
  `F ${((2 * p * r) / (p + r)).toFixed(4)} P ${p.toFixed(4)} R ${r.toFixed(4)} (tp ${tp} fp ${fp} fn ${fn}) ${
    (ms / Object.keys(index).length).toFixed(1)
  } ms/page`
)
fs.writeFileSync(path.resolve(".bench-tmp", `loop-${label}.json`), JSON.stringify(per))
if (compare !== undefined) {
  const old = JSON.parse(fs.readFileSync(path.resolve(".bench-tmp", `loop-${compare}.json`), "utf8")) as typeof per
  for (const [page, now] of Object.entries(per)) {
    const o = old[page]
    if (o === undefined) continue
    const d = (now.missed.length + now.leaked.length) - (o.missed.length + o.leaked.length)
    if (d !== 0) {
      console.log(
        `${
          d > 0 ? "worse" : "better"
        } ${page}: missed ${o.missed.length}->${now.missed.length} leaked ${o.leaked.length}->${now.leaked.length}`
      )
    }
  }
}
