/**
 * `npm run bench -- --smoke`: every benchmark suite's whole set-up and each of its rows once or a
 * few times (bench/support.ts `counts`), so that a change that breaks a suite fails here and not
 * in the next measuring run. Suites that need what this machine lacks (the `../shared` sets,
 * bubblewrap, PostgreSQL) print their one-line skip note instead of rows. Starts processes: not in
 * vitest's in-process project.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"

const SUITES = [
  "startup",
  "plan",
  "ingest",
  "journal",
  "gate",
  "monitor",
  "library",
  "mcp",
  "extraction",
  "extraction-wcxb",
  "exec",
  "store"
]

/** `npm run bench -- <args>` as npm runs it, without waiting on the test's worker. */
const bench = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["scripts/run-ts.mjs", "bench/index.ts", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d))
    child.on("close", (status) => resolve({ status, stdout, stderr }))
  })

/** Each suite's block of the output (from its `## name` line to the next), by name. */
const sections = (stdout: string): Map<string, string> =>
  new Map(
    stdout.split(/^## /m).slice(1).map((block) => {
      const end = block.indexOf("\n")
      return [block.slice(0, end), block.slice(end + 1).split("\n\nsmoke run:")[0]!]
    })
  )

/**
 * CI runs this file after `npm test` (`.ci/run`), with `DOSSIER_BENCH_SMOKE=1`; `npm test` skips it
 * (its ~50 s of CPU would take `npm test` past its 15 minutes on a 2-core machine: docs/testing.md).
 */
const SMOKE = process.env["DOSSIER_BENCH_SMOKE"] === "1"

describe.skipIf(!SMOKE)("bench: the smoke run (DOSSIER_BENCH_SMOKE=1; CI runs it after npm test)", () => {
  it("runs every suite: each prints its rows or its one-line skip note, judges no target, exits 0", async () => {
    const r = await bench(["--smoke"])
    expect(r.stderr).not.toContain("FAILED")
    expect(r.status).toBe(0)
    const bySuite = sections(r.stdout)
    expect([...bySuite.keys()].sort()).toEqual([...SUITES].sort())
    for (const [suite, block] of bySuite) {
      // A row's line: `  <name>: <ms> ms vs <baseline> <ms> ms = <ratio>x`.
      const rowLines = block.split("\n").filter((l) => / ms vs .* ms = \d+\.\d+x/.test(l))
      const skipped = /^ {2}(store: )?skipped|^ {2}SKIPPED/im.test(block)
      expect({ suite, ran: rowLines.length > 0 || skipped }).toEqual({ suite, ran: true })
    }
    expect(r.stdout).toContain("the ratios mean nothing, no target is judged")
    expect(r.stdout).not.toMatch(/\bmet\b|\bMISSED\b/)
    expect(r.stdout).toMatch(/not judged, smoke run/)
  }, 600_000)

  it("goes on past a failing suite, names it at the end and exits 1", async () => {
    // No sample of the monitor's runs: its medians are NaN, a row the table refuses.
    const r = await bench(["--smoke", "monitor", "mcp"], { DOSSIER_BENCH_RUNS: "0" })
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("bench row 'next: 20 subscriptions x 3 runs (scan index current)': ms is NaN")
    expect(r.stderr).toContain("FAILED: the monitor suite exited 1")
    expect(r.stdout).toMatch(/plan_inspect through dossier mcp \(round trip\): [\d.]+ ms vs/)
  }, 600_000)
})
