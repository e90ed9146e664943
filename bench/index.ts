/**
 * `npm run bench`: every subsystem's benchmarks, then one table of medians and ratios.
 *
 * Each suite runs in a process of its own (`npm run bench -- <suite>` runs one in this process):
 * what one suite leaves behind — a larger heap, compiled code, the copy-on-write faults after
 * the processes it started — otherwise changes the figures of the next (measured: journal
 * inspect 1.1–1.2× alone against 1.2–1.5× after the plan and ingest suites).
 */
import { spawnSync } from "node:child_process"
import { benchExec } from "./exec.js"
import { benchExtraction } from "./extraction.js"
import { benchExtractionWcxb } from "./extractionWcxb.js"
import { benchGate } from "./gate.js"
import { benchIngest } from "./ingest.js"
import { benchJournal } from "./journal.js"
import { benchLibrary } from "./library.js"
import { benchMcp } from "./mcp.js"
import { benchMonitor } from "./monitor.js"
import { benchPlan } from "./plan.js"
import { benchStartup } from "./startup.js"
import { benchStore } from "./store.js"
import { printTable, type Row, rows } from "./support.js"

const ROWS = "@@bench-rows "
const suites: Record<string, () => Promise<void>> = {
  startup: benchStartup,
  plan: benchPlan,
  ingest: benchIngest,
  journal: benchJournal,
  gate: benchGate,
  monitor: benchMonitor,
  library: benchLibrary,
  mcp: benchMcp,
  extraction: benchExtraction,
  "extraction-wcxb": benchExtractionWcxb,
  exec: benchExec,
  store: benchStore
}
const [only, mode] = process.argv.slice(2)
if (only !== undefined) {
  const run = suites[only]
  if (run === undefined) throw new Error(`no suite '${only}' (${Object.keys(suites).join(", ")})`)
  console.log(`\n## ${only}`)
  await run()
  if (mode === "--rows") console.log(ROWS + JSON.stringify(rows))
  else printTable()
} else {
  for (const name of Object.keys(suites)) {
    const r = spawnSync(process.execPath, [process.argv[1]!, name, "--rows"], {
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024
    })
    for (const line of r.stdout.split("\n")) {
      if (line.startsWith(ROWS)) { for (const row of JSON.parse(line.slice(ROWS.length)) as Array<Row>) rows.push(row) }
      else if (line.length > 0) console.log(line)
    }
    if (r.status !== 0) throw new Error(`the ${name} suite exited ${r.status}`)
  }
  printTable()
}
