/**
 * `npm run bench`: every subsystem's benchmarks, then one table of medians and ratios.
 *
 * Each suite runs in a process of its own (`npm run bench -- <suite>` runs one in this process;
 * several names run those in processes of their own): what one suite leaves behind — a larger
 * heap, compiled code, the copy-on-write faults after the processes it started — otherwise
 * changes the figures of the next (measured: journal inspect 1.1–1.2× alone against 1.2–1.5×
 * after the plan and ingest suites).
 *
 * `npm run bench -- --smoke [<suite>…]`: the smoke run (bench/support.ts `counts`): each suite's
 * whole set-up and each row once or a few times, the suites two at a time (their figures mean
 * nothing anyway). In either mode a suite that fails does not stop the others: every failure is
 * named at the end, and the run exits 1.
 */
import { spawn } from "node:child_process"
import * as os from "node:os"
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
import { printTable, type Row, rows, smoke } from "./support.js"

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
const FLAGS = ["--rows", "--smoke"]
const args = process.argv.slice(2)
const names = args.filter((a) => !a.startsWith("--"))
for (const a of args) {
  if (a.startsWith("--") ? !FLAGS.includes(a) : suites[a] === undefined) {
    throw new Error(`no suite or flag '${a}' (${Object.keys(suites).join(", ")}; ${FLAGS.join(", ")})`)
  }
}

/** One suite in a process of its own: its output, its rows, and how it ended. */
const runChild = (name: string) =>
  new Promise<{ name: string; out: string; err: string; rows: Array<Row>; status: number | null }>((resolve) => {
    const child = spawn(process.execPath, [process.argv[1]!, name, "--rows", ...(smoke ? ["--smoke"] : [])], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      err += d
      // Measuring, a suite's progress shows as it comes; two at a time, its own block at its end.
      if (!smoke) process.stderr.write(d)
    })
    child.on("close", (status) => {
      const own: Array<Row> = []
      const lines: Array<string> = []
      for (const line of out.split("\n")) {
        if (line.startsWith(ROWS)) {
          for (const row of JSON.parse(line.slice(ROWS.length)) as Array<Row>) own.push(row)
        } else if (line.length > 0) lines.push(line)
      }
      resolve({ name, out: lines.join("\n"), err: smoke ? err : "", rows: own, status })
    })
  })

if (names.length === 1 && (args.includes("--rows") || !smoke)) {
  const only = names[0]!
  console.log(`\n## ${only}`)
  await suites[only]!()
  if (args.includes("--rows")) console.log(ROWS + JSON.stringify(rows))
  else printTable()
} else {
  const chosen = names.length > 0 ? names : Object.keys(suites)
  // Measuring, one suite at a time (each alone on the machine); a smoke run, two at a time.
  const width = smoke ? Math.min(2, os.availableParallelism()) : 1
  const results = new Map<string, Awaited<ReturnType<typeof runChild>>>()
  const queue = [...chosen]
  await Promise.all(Array.from({ length: width }, async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const r = await runChild(name)
      results.set(name, r)
      console.log(r.out)
      if (r.err.length > 0) process.stderr.write(r.err)
      if (r.status !== 0) console.error(`\n!! the ${name} suite exited ${r.status}`)
    }
  }))
  for (const name of chosen) for (const row of results.get(name)!.rows) rows.push(row)
  printTable()
  const failed = chosen.filter((name) => results.get(name)!.status !== 0)
  if (failed.length > 0) {
    console.error(
      `\nFAILED: ${failed.map((name) => `the ${name} suite exited ${results.get(name)!.status}`).join("; ")}`
    )
    process.exitCode = 1
  }
}
