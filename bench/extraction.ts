/**
 * Extraction quality of the readable copy on the development set (`../shared/extraction/`
 * relative to the repository root: 884 real pages with snippets the main text must contain and
 * boilerplate it must not; see its README and the spec's capture.md).
 *
 * The metric is trafilatura's: after NFC and whitespace collapsing of both sides, a `with` snippet
 * found is a true positive, missed a false negative; a `without` snippet found is a false
 * positive. F = 2PR/(P+R) over all cases. The extracted text scored is the text a reader sees in
 * the readable copy (spec "Quote matching": a link `[text](url)` counts as its text, no Markdown
 * syntax counts), since that is what the gate and the monitor match quotes against.
 *
 * The baseline, measured in the same run on the same decoded pages: Mozilla Readability 0.6.0
 * over linkedom (its `textContent`). Each page is extracted once per extractor after a warm-up
 * pass over the first pages; the time is the extractor's own (parsing included, decoding not).
 * Prints F, precision, recall and ms per page for both, the slowest page, and the 20 pages with
 * the most scoring errors so a person can look at them.
 *
 * Last, the case an agent meets: one fresh `dossier ingest --file` of the set's median page (by
 * size, about 140 KB), against one fresh `dossier plan inspect` (the CLI's start and a small
 * command), in CPU time (user + system of the child, as bash's `time` reports it). Target: at
 * most 1.6x.
 *
 * Where the set is absent (a user's clone has none) the area prints one line and skips.
 */
import { Readability } from "@mozilla/readability"
import { parseHTML } from "linkedom"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { htmlToMarkdown } from "../src/domain/Readable.js"
import { readerText } from "./readerText.js"
import { CLI, counts, judge, median, record, tempDir } from "./support.js"

interface Case {
  readonly url: string
  readonly page: string
  readonly html: string
  readonly with: ReadonlyArray<string>
  readonly without: ReadonlyArray<string>
}

interface PageScore {
  readonly url: string
  readonly page: string
  readonly missed: ReadonlyArray<string>
  readonly leaked: ReadonlyArray<string>
  readonly ms: number
}

interface Score {
  readonly name: string
  readonly f: number
  readonly precision: number
  readonly recall: number
  readonly msPerPage: number
  readonly slowest: PageScore
  readonly pages: ReadonlyArray<PageScore>
}

const SET = path.resolve("../shared/extraction")

const normalize = (s: string): string => s.normalize("NFC").replace(/\s+/g, " ").trim()

const dossier = (c: Case): string => readerText(htmlToMarkdown(c.html, c.url))

const readability = (c: Case): string => {
  const { document } = parseHTML(c.html)
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()
  return article?.textContent ?? ""
}

export const loadCases = (): Array<Case> => {
  const index = JSON.parse(fs.readFileSync(path.join(SET, "cases.json"), "utf8")) as Record<
    string,
    { page: string; with: Array<string>; without: Array<string> }
  >
  return Object.entries(index).slice(0, counts.extraction.pages).map(([url, c]) => ({
    url,
    page: c.page,
    html: new TextDecoder("utf-8").decode(zlib.gunzipSync(fs.readFileSync(path.join(SET, "pages", c.page)))),
    with: c.with,
    without: c.without
  }))
}

const score = (name: string, cases: ReadonlyArray<Case>, extract: (c: Case) => string): Score => {
  for (const c of cases.slice(0, counts.extraction.warmupPages)) extract(c)
  let tp = 0
  let fn = 0
  let fp = 0
  let total = 0
  const pages: Array<PageScore> = []
  for (const c of cases) {
    const t = process.hrtime.bigint()
    let raw: string
    try {
      raw = extract(c)
    } catch {
      raw = ""
    }
    const ms = Number(process.hrtime.bigint() - t) / 1e6
    total += ms
    const text = normalize(raw)
    const missed = c.with.filter((s) => !text.includes(normalize(s)))
    const leaked = c.without.filter((s) => text.includes(normalize(s)))
    tp += c.with.length - missed.length
    fn += missed.length
    fp += leaked.length
    pages.push({ url: c.url, page: c.page, missed, leaked, ms })
  }
  const precision = tp / (tp + fp)
  const recall = tp / (tp + fn)
  const slowest = pages.reduce((a, b) => (b.ms > a.ms ? b : a))
  return {
    name,
    f: (2 * precision * recall) / (precision + recall),
    precision,
    recall,
    msPerPage: total / cases.length,
    slowest,
    pages
  }
}

const line = (s: Score) =>
  `| ${s.name} | ${s.f.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${s.msPerPage.toFixed(1)} | ${
    s.slowest.ms.toFixed(1)
  } |`

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s)

export const benchExtraction = async (): Promise<void> => {
  if (!fs.existsSync(path.join(SET, "cases.json"))) {
    console.log("  skipped: no development set at ../shared/extraction (it is not part of the repository)")
    return
  }
  const cases = loadCases()
  const ours = score("dossier readable copy", cases, dossier)
  const base = score("Readability 0.6.0 over linkedom", cases, readability)
  console.log(
    `\n  ${cases.length} pages, ${cases.reduce((n, c) => n + c.with.length, 0)} 'with' and ${
      cases.reduce((n, c) => n + c.without.length, 0)
    } 'without' snippets`
  )
  console.log("\n| extractor | F | precision | recall | ms per page | slowest page ms |")
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |")
  console.log(line(ours))
  console.log(line(base))
  console.log(
    `\n  slowest page (dossier): ${ours.slowest.url} (${ours.slowest.page}, ${ours.slowest.ms.toFixed(1)} ms)`
  )
  console.log("\n  worst 20 pages (dossier; missed 'with' + leaked 'without'):")
  const worst = [...ours.pages].sort((a, b) => b.missed.length + b.leaked.length - (a.missed.length + a.leaked.length))
    .slice(0, 20)
  for (const p of worst) {
    console.log(`  - ${p.page} ${p.url}: missed ${p.missed.length}, leaked ${p.leaked.length}`)
    for (const s of p.missed.slice(0, 2)) console.log(`      missed: ${JSON.stringify(clip(s))}`)
    for (const s of p.leaked.slice(0, 2)) console.log(`      leaked: ${JSON.stringify(clip(s))}`)
  }
  console.log("")
  record({
    name: "extraction ms per page (dev set)",
    ms: ours.msPerPage,
    baseline: "Readability over linkedom",
    baselineMs: base.msPerPage,
    target: 0.33,
    note: `F ${ours.f.toFixed(3)} vs ${base.f.toFixed(3)} (target F >= 0.93: ${judge(ours.f >= 0.93)})`
  })
  benchFreshIngest(cases)
}

/**
 * Fresh-process CPU of `ingest --file` of the median page against a fresh `plan inspect`, alternating, 9 runs each.
 *
 * One small shell starts every child and reports each one's user + system time (bash's `time`).
 * Spawning each child from this process instead charged every child for forking a process that
 * holds the whole set: the figures of both sides then grew from about 0.2 s to about 1 s and their
 * ratio fell toward 1.
 */
export const benchFreshIngest = (cases: ReadonlyArray<Case>): void => {
  const sorted = [...cases].sort((a, b) => Buffer.byteLength(a.html) - Buffer.byteLength(b.html))
  const page = sorted[Math.floor(sorted.length / 2)]!
  const dir = tempDir("dossier-bench-fresh-")
  try {
    fs.mkdirSync(path.join(dir, "research/inputs"), { recursive: true })
    fs.writeFileSync(
      path.join(dir, "research/inputs/s.json"),
      JSON.stringify({ goal: "g", limits: [], nextAction: "n" })
    )
    spawnSync(
      process.execPath,
      [CLI, "plan", "start", "--workdir", dir, "--input", "research/inputs/s.json", "--json"],
      { encoding: "utf8" }
    )
    const runs = counts.extraction.freshRuns
    // A page of its own each time: the same bytes would be refused as already retained.
    for (let n = 0; n <= runs; n++) fs.writeFileSync(path.join(dir, `page${n}.html`), `${page.html}<!-- ${n} -->`)
    const script = [
      "set -e",
      "TIMEFORMAT='%U %S'",
      "ingest() { \"$NODE\" \"$CLI\" ingest --file \"page$1.html\" --origin https://bench.example/median --workdir . --json >/dev/null; }",
      "inspect() { \"$NODE\" \"$CLI\" plan inspect --workdir . --json >/dev/null; }",
      // The first pair warms the page cache and writes the code caches; it is not counted.
      ...(counts.extraction.freshWarmup > 0 ? ["ingest 0; inspect"] : []),
      `for i in $(seq 1 ${runs}); do { time ingest "$i"; } 2>&1 | sed 's/^/ingest /'; { time inspect; } 2>&1 | sed 's/^/inspect /'; done`
    ].join("\n")
    const r = spawnSync("bash", ["-c", script], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NODE: process.execPath, CLI }
    })
    if (r.status !== 0) throw new Error(`the fresh-process runs failed (${r.status}): ${r.stderr}${r.stdout}`)
    const cpu = (kind: string) =>
      r.stdout.split("\n").filter((l) => l.startsWith(`${kind} `)).map((l) => {
        const [user, system] = l.slice(kind.length + 1).split(" ").map(Number)
        return (user! + system!) * 1000
      })
    const a = cpu("ingest")
    const b = cpu("inspect")
    if (a.length !== runs || b.length !== runs) throw new Error(`the fresh-process runs printed ${r.stdout}`)
    record({
      name: `fresh ingest --file of the median page (${Math.round(Buffer.byteLength(page.html) / 1024)} KB), CPU`,
      ms: median(a),
      baseline: "fresh dossier plan inspect, CPU",
      baselineMs: median(b),
      target: 1.6,
      note: "user + system time of one CLI process each"
    })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
