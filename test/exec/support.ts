/** Helpers for the grant and exec end-to-end tests: a work folder with data, grants, and the CLI. */
import { expect } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI, type CliResult, leaksNothing, put, putInput, runCli, tempWorkdir } from "../support/cli.js"

/** Can bubblewrap start a sandbox here? When not, the exec tests are skipped loudly. */
export const sandboxWorks = (() => {
  const r = spawnSync("bwrap", [
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--unshare-all",
    "--die-with-parent",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "/bin/true"
  ])
  return r.status === 0
})()

if (!sandboxWorks) {
  const line = "!".repeat(78)
  console.warn(
    `\n${line}\n!! SKIPPED: the confined-execution tests need bubblewrap (apt-get install bubblewrap).\n!! dossier exec refuses with SandboxUnavailable on this machine.\n${line}\n`
  )
}

export const D = (dir: string, args: ReadonlyArray<string>, env?: Record<string, string>): CliResult => {
  // The flags go before `--`: what follows it is the program's.
  const cut = args.indexOf("--")
  const line = cut === -1
    ? [...args, "--workdir", dir, "--json"]
    : [...args.slice(0, cut), "--workdir", dir, "--json", ...args.slice(cut)]
  const r = runCli(line, env === undefined ? {} : { env })
  expect(leaksNothing(dir, r)).toBe(true)
  expect(r.json).toBeDefined()
  return r
}

export const ok = (dir: string, args: ReadonlyArray<string>) => {
  const r = D(dir, args)
  expect({ code: r.code, ok: r.json?.ok, error: r.json?.error }).toMatchObject({ code: 0, ok: true })
  return r.json
}

export const refused = (dir: string, args: ReadonlyArray<string>, tag: string, env?: Record<string, string>) => {
  const r = D(dir, args, env)
  expect({ code: r.code, tag: r.json?.error?._tag }).toEqual({ code: 1, tag })
  return r.json.error
}

export const FAR = "2030-01-01T00:00:00Z"
export const budget = (over: object = {}) => ({
  runs: 20,
  wallSeconds: 120,
  cpuSeconds: 120,
  memoryMiB: 256,
  outputMiB: 16,
  ...over
})

/** A work folder with an input root (with a holdout below it), a secret outside every grant, plan.md and a journal. */
export const folder = () => {
  const dir = tempWorkdir("dossier-exec-")
  put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
  put(dir, "research/exp/data/holdout/labels.csv", "HOLDOUT-LABELS\n")
  put(dir, "research/exp/data/holdout.txt", "HOLDOUT-FILE\n")
  put(dir, "research/exp/other/secret.txt", "OUTSIDE-SECRET\n")
  put(dir, "plan.md", "PLAN-TEXT\n")
  return dir
}

export const grantInput = (over: object = {}) => ({
  id: "g1",
  task: "task-1",
  inputs: ["research/exp/data"],
  work: "research/exp/runs/r1",
  protected: ["research/exp/data/holdout", "research/exp/data/holdout.txt"],
  tools: ["read", "bash"],
  budget: budget(),
  deadline: FAR,
  ...over
})

/** A child of g1 (`grantInput`) within every one of its figures. */
export const childGrant = (over: object = {}) => ({
  id: "g2",
  task: "task-2",
  parent: "g1",
  inputs: ["research/exp/data"],
  work: "research/exp/runs/r1/child",
  tools: ["bash"],
  budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 128, outputMiB: 4 },
  deadline: "2029-01-01T00:00:00Z",
  ...over
})

/** Study `st`'s candidate `cand` (event `c1`), which the tests' runs are linked to. */
export const createCandidate = (dir: string, name = "c.json") =>
  ok(dir, [
    "journal",
    "append",
    "--study",
    "st",
    "--input",
    putInput(dir, name, { id: "c1", type: "candidate_created", candidate: { id: "cand", title: "T" } })
  ])

export const createGrant = (dir: string, over: object = {}, name = "grant.json") =>
  ok(dir, ["grant", "create", "--input", putInput(dir, name, grantInput(over))])

export const exec = (dir: string, grant: string, argv: ReadonlyArray<string>, extra: ReadonlyArray<string> = []) =>
  ok(dir, ["exec", "--grant", grant, ...extra, "--", ...argv]).execution

export const stdoutOf = (dir: string, execution: { stdout: { path: string } }) =>
  fs.readFileSync(path.join(dir, execution.stdout.path), "utf8")
export const stderrOf = (dir: string, execution: { stderr: { path: string } }) =>
  fs.readFileSync(path.join(dir, execution.stderr.path), "utf8")

/** Start `dossier exec` in the background; resolves with its answer. */
export const execAsync = (dir: string, grant: string, argv: ReadonlyArray<string>) => {
  const child = spawn(process.execPath, [CLI, "exec", "--grant", grant, "--workdir", dir, "--json", "--", ...argv])
  let stdout = ""
  child.stdout.on("data", (d) => (stdout += d))
  const done = new Promise<{ code: number | null; json: any }>((resolve) =>
    child.on("close", (code) => {
      let json: any
      try {
        json = JSON.parse(stdout)
      } catch {
        json = undefined
      }
      resolve({ code, json })
    })
  )
  return { child, done }
}

/**
 * Wait until a run under the work folder is in flight (its marker exists). The bound only ends a
 * test whose run never starts: `dossier exec`'s own start takes seconds on a loaded machine.
 */
export const waitForRunning = async (dir: string, timeoutMs = 30_000): Promise<string> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const names = fs.existsSync(path.join(dir, ".dossier/executions"))
      ? fs.readdirSync(path.join(dir, ".dossier/executions"))
      : []
    const m = names.find((n) => n.endsWith(".running.json"))
    if (m !== undefined) return m.slice(0, -".running.json".length)
    if (Date.now() > deadline) throw new Error("no run started")
    await new Promise((r) => setTimeout(r, 50))
  }
}

/**
 * Wait until `check` holds (polled every 50 ms): an event a test waits for instead of a time, such
 * as a file the confined program writes once it runs. The bound only ends a test whose event never
 * comes (seconds pass on a loaded machine before a sandbox starts); it is not what a test asserts.
 */
export const waitUntil = async (what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Wait until the confined program has written `name` in its work root (it runs). */
export const waitForFile = (file: string) => waitUntil(`no ${path.basename(file)}`, () => fs.existsSync(file))

/**
 * Whether the confined program `argv` itself runs: a process whose command line is exactly it.
 * bwrap's, the wrapper's and the sandbox's starter's command lines contain it too, before it runs.
 */
export const programRuns = (argv: ReadonlyArray<string>): boolean =>
  fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n)).some((n) => {
    try {
      return fs.readFileSync(`/proc/${n}/cmdline`, "utf8") === argv.join("\0") + "\0"
    } catch {
      return false
    }
  })

/** Processes on the machine whose command line contains `needle`. */
export const processesWith = (needle: string): Array<number> =>
  fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n)).filter((n) => {
    try {
      return fs.readFileSync(`/proc/${n}/cmdline`, "utf8").split("\0").includes(needle)
    } catch {
      return false
    }
  }).map(Number)

export { put, putInput }
