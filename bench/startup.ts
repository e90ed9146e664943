/**
 * Start-up benchmarks: every read-only command an agent runs once per call, in a fresh process,
 * against `node -e 0` (issue 28: each ≤ 1.5×). The folder is small (a plan, one study with one
 * event, one subscription, one grant), so the figures are the start and not the work. Each
 * command and the baseline run one after the other in turn (`timeSyncAlternating`), so a change
 * of load on the machine moves both.
 *
 * The floor: two programs built here (scripts/build-floor.mjs, from bench/floor/) as the CLI's
 * bundles are built and started through the same loader and code cache (src/cli/CodeCache.ts),
 * the cache written by a first run as the build writes the CLI's: Effect's runtime alone, and the
 * runtime with one Schema decode of a small struct read from a JSON file. Each floor is a row of
 * its own against `node -e 0`, and the second runs in every command's alternating runs too, so
 * that each row shows the command's ratio to `node -e 0` and to the floor: how much of a start is
 * what any Effect program that checks its input pays, and how much is dossier's own.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI, counts, exec, record, tempDir, timeSyncAlternating, writeJson } from "./support.js"

/** Build the floor programs into `dir` and run each once (its code cache written); answers how to run each. */
export const buildFloor = (dir: string) => {
  exec(process.execPath, [path.resolve("scripts/build-floor.mjs"), dir])
  const loader = path.join(dir, "floor.cjs")
  const input = writeJson(dir, "floor-input.json", { a: "floor" })
  const runtime = () => exec(process.execPath, [loader, "runtime"])
  const schema = () => exec(process.execPath, [loader, "schema", path.join(dir, input)])
  runtime()
  schema()
  return { runtime, schema }
}

export const benchStartup = async (): Promise<void> => {
  const dir = tempDir("dossier-bench-startup-")
  const floorDir = tempDir("dossier-bench-floor-")
  const floor = buildFloor(floorDir)
  const cli = (args: ReadonlyArray<string>) => exec(process.execPath, [CLI, ...args])
  const at = ["--workdir", dir, "--json"]
  cli([
    "plan",
    "start",
    ...at,
    "--input",
    writeJson(dir, "research/inputs/s.json", { goal: "g", limits: [], nextAction: "n" })
  ])
  cli([
    "journal",
    "append",
    "--study",
    "s1",
    ...at,
    "--input",
    writeJson(dir, "research/inputs/e.json", {
      id: "c1",
      type: "candidate_created",
      candidate: { id: "a", title: "A" }
    })
  ])
  const subscription = {
    id: "lit",
    kind: "literature",
    target: "sparse attention for long documents",
    scope: { venues: ["arXiv"], since: "2026" },
    budget: { maxSources: 10, maxMinutes: 20 },
    cadence: { every: 1, unit: "week" },
    timezone: "Europe/Berlin",
    anchor: "2026-12-01T09:00"
  }
  cli([
    "monitor",
    "create-subscription",
    ...at,
    "--now",
    "2026-11-30T10:00:00Z",
    "--input",
    writeJson(dir, "research/inputs/sub.json", subscription)
  ])
  fs.mkdirSync(path.join(dir, "research/exp/data"), { recursive: true })
  const grant = {
    id: "g1",
    task: "t",
    inputs: ["research/exp/data"],
    work: "research/exp/runs/r1",
    tools: ["read"],
    budget: { runs: 1, wallSeconds: 5, cpuSeconds: 5, memoryMiB: 64, outputMiB: 1 },
    deadline: "2030-01-01T00:00:00Z"
  }
  cli(["grant", "create", ...at, "--input", writeJson(dir, "research/inputs/g1.json", grant)])

  const commands: ReadonlyArray<ReadonlyArray<string>> = [
    ["plan", "inspect", ...at],
    ["status", ...at],
    ["next", ...at],
    ["journal", "list", ...at],
    ["journal", "inspect", "--study", "s1", ...at],
    ["monitor", "list", ...at],
    ["monitor", "show", "--subscription", "lit", ...at],
    ["monitor", "due", ...at],
    ["monitor", "unresolved-outcomes", ...at],
    ["grant", "list", ...at],
    ["grant", "show", "--grant", "g1", ...at],
    ["schema", "plan-start", "--json"],
    ["--version"],
    ["--help"]
  ]
  const node = () => exec(process.execPath, ["-e", "0"])
  const floors = [
    ["floor: Effect runtime", floor.runtime],
    ["floor: Effect runtime + one Schema decode", floor.schema]
  ] as const
  for (const [name, run] of floors) {
    const [baseline, ms] = timeSyncAlternating(counts.startup.floorRuns, [node, run] as const, counts.startup.warmup)
    record({ name, ms, baseline: "node -e 0", baselineMs: baseline })
  }
  for (const args of commands) {
    const [baseline, floorMs, ms] = timeSyncAlternating(
      counts.startup.commandRuns,
      [node, floor.schema, () => cli(args)] as const,
      counts.startup.warmup
    )
    const shown = args.filter((a) => a !== dir && a !== "--workdir")
    record({
      name: `cold start: ${shown.join(" ")}`,
      ms,
      baseline: "node -e 0",
      baselineMs: baseline,
      target: 1.5,
      floor: { name: "floor (runtime + Schema)", ms: floorMs }
    })
  }
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(floorDir, { recursive: true, force: true })
}
