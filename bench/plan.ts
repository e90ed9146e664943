/**
 * Plan benchmarks: cold start of `dossier plan inspect --json` against `node -e 0`, and
 * `plan inspect` over 32 registered 16 MiB files (bench/support.ts `counts`) against `openssl dgst -sha256` of the same files.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI, counts, exec, record, tempDir, timeSync, writeJson } from "./support.js"

const run = (args: ReadonlyArray<string>) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (r.status !== 0) throw new Error(`dossier ${args.join(" ")} exited ${r.status}: ${r.stdout}${r.stderr}`)
  return r.stdout
}

export const benchPlan = async (): Promise<void> => {
  // Cold start on a small folder.
  const small = tempDir("dossier-bench-plan-")
  run([
    "plan",
    "start",
    "--workdir",
    small,
    "--input",
    writeJson(small, "research/inputs/s.json", { goal: "g", limits: [], nextAction: "n" }),
    "--json"
  ])
  const { fileMiB, files: fileCount, hashRuns, hashWarmup, helpRuns, helpWarmup, inspectRuns, inspectWarmup } =
    counts.plan
  const node = timeSync(inspectRuns, () => exec(process.execPath, ["-e", "0"]), inspectWarmup)
  const inspect = timeSync(inspectRuns, () => run(["plan", "inspect", "--workdir", small, "--json"]), inspectWarmup)
  record({ name: "cold start: plan inspect --json", ms: inspect, baseline: "node -e 0", baselineMs: node, target: 2.5 })
  const help = timeSync(helpRuns, () => run(["--help"]), helpWarmup)
  record({ name: "cold start: dossier --help", ms: help, baseline: "node -e 0", baselineMs: node })

  // Hashing: 32 registered files of 16 MiB.
  const big = tempDir("dossier-bench-plan-big-")
  run([
    "plan",
    "start",
    "--workdir",
    big,
    "--input",
    writeJson(big, "research/inputs/s.json", { goal: "g", limits: [], nextAction: "n" }),
    "--json"
  ])
  const block = Buffer.alloc(fileMiB * 1024 * 1024)
  const files: Array<string> = []
  for (let i = 0; i < fileCount; i++) {
    block.fill(i + 1)
    const rel = `research/sources/file-${i}.bin`
    fs.mkdirSync(path.join(big, "research/sources"), { recursive: true })
    fs.writeFileSync(path.join(big, rel), block)
    files.push(rel)
  }
  run([
    "plan",
    "checkpoint",
    "--workdir",
    big,
    "--expected",
    "1",
    "--input",
    writeJson(big, "research/inputs/c.json", {
      sources: files.map((p) => ({ path: p, origin: "https://bench.example/source" }))
    }),
    "--json"
  ])
  const absFiles = files.map((f) => path.join(big, f))
  const opensslOk = spawnSync("openssl", ["version"]).status === 0
  const baselineCmd = opensslOk ? "openssl" : "sha256sum"
  const baseline = timeSync(
    hashRuns,
    () => exec(baselineCmd, opensslOk ? ["dgst", "-sha256", ...absFiles] : absFiles),
    hashWarmup
  )
  const hashed = timeSync(hashRuns, () => run(["plan", "inspect", "--workdir", big, "--json"]), hashWarmup)
  record({
    name: `plan inspect, ${fileCount} x ${fileMiB} MiB registered`,
    ms: hashed,
    baseline: opensslOk ? "openssl dgst -sha256" : "sha256sum",
    baselineMs: baseline,
    target: 1.5,
    note: "includes CLI start"
  })
  fs.rmSync(big, { recursive: true, force: true })
  fs.rmSync(small, { recursive: true, force: true })
}
