/**
 * Refused commands leave the work folder exactly as it was: in a folder without dossier state
 * they create no `.dossier/` (not even the lock file), and nothing anywhere else. (The readers'
 * side of the same guarantee is in ./shell.test.ts.)
 */
import { describe, expect, it } from "vitest"
import { put, putInput, runCli, tempWorkdir, treeDigest } from "../support/cli.js"

/** A folder with a file of its own and two input files, but no dossier state. */
const plainFolder = () => {
  const dir = tempWorkdir("dossier-readonly-")
  put(dir, "notes.txt", "mine\n")
  putInput(dir, "narrow.json", { budget: { runs: 1 } })
  putInput(dir, "grant.json", {
    task: "t",
    inputs: ["research/missing"],
    work: "research/runs/r1",
    tools: ["read"],
    budget: { runs: 1, wallSeconds: 1, cpuSeconds: 1, memoryMiB: 16, outputMiB: 1 },
    deadline: "2030-01-01T00:00:00Z"
  })
  putInput(dir, "checkpoint.json", { nextAction: "read", expectedRevision: 1 })
  putInput(dir, "finish.json", {
    runId: "nope.w1",
    expectedRevision: 2,
    binding: { runId: "nope.w1", taskDigest: "0".repeat(64) },
    stage: { path: "research/stage.md" },
    outcomes: []
  })
  return dir
}

const REFUSED: ReadonlyArray<ReadonlyArray<string>> = [
  ["exec", "--grant", "nope", "--", "true"],
  ["exec", "show", "--execution", "x-20260101T000000-00000000"],
  ["exec", "show", "--execution", "not-an-id", "--verify"],
  ["grant", "show", "--grant", "nope"],
  ["grant", "revoke", "--grant", "nope"],
  ["grant", "narrow", "--grant", "nope", "--input", "research/inputs/narrow.json"],
  ["grant", "create", "--input", "research/inputs/grant.json"],
  ["journal", "inspect", "--study", "nope"],
  ["journal", "rebuild", "--study", "nope"],
  ["journal", "recover-tail", "--study", "nope"],
  ["journal", "import", "--study", "nope"],
  ["plan", "checkpoint", "--input", "research/inputs/checkpoint.json"],
  ["monitor", "transition-run", "--run", "nope.w1", "--expected", "1", "--to", "running"],
  ["monitor", "set-outcome-disposition", "--run", "nope.w1", "--outcome", "o1", "--disposition", "acknowledged"],
  ["monitor", "finish-run", "--input", "research/inputs/finish.json"],
  ["monitor", "show", "--subscription", "nope"],
  ["monitor", "create-due-run", "--subscription", "nope"],
  ["monitor", "set-subscription-status", "--subscription", "nope", "--expected", "1", "--status", "paused"]
]

const withFlags = (args: ReadonlyArray<string>, dir: string) => {
  const cut = args.indexOf("--")
  const flags = ["--workdir", dir, "--json"]
  return cut === -1 ? [...args, ...flags] : [...args.slice(0, cut), ...flags, ...args.slice(cut)]
}

describe("a folder without dossier state", () => {
  it.each(REFUSED.map((a) => [a.join(" "), a] as const))("%s is refused and creates nothing", (_name, args) => {
    const dir = plainFolder()
    const before = treeDigest(dir)
    const r = runCli(withFlags(args, dir))
    expect({ code: r.code, ok: r.json?.ok }, r.stdout).toEqual({ code: 1, ok: false })
    expect(treeDigest(dir)).toEqual(before)
  })
})

describe("a folder with grants", () => {
  it("refused exec and grant commands change nothing, not even the lock file", () => {
    const dir = plainFolder()
    put(dir, "research/exp/data/a.csv", "a\n")
    const grant = {
      id: "g1",
      task: "t",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/r1",
      tools: ["read"],
      budget: { runs: 1, wallSeconds: 5, cpuSeconds: 5, memoryMiB: 64, outputMiB: 1 },
      deadline: "2030-01-01T00:00:00Z"
    }
    expect(runCli(withFlags(["grant", "create", "--input", putInput(dir, "g1.json", grant)], dir)).code).toBe(0)
    expect(runCli(withFlags(["grant", "revoke", "--grant", "g1"], dir)).code).toBe(0)
    const wider = putInput(dir, "g1-wider.json", { ...grant, tools: ["bash"] })
    const widerNarrow = putInput(dir, "narrow-wider.json", { budget: { runs: 2 } })
    const before = treeDigest(dir)
    for (
      const args of [
        ["exec", "--grant", "g1", "--", "true"],
        ["exec", "--grant", "g2", "--", "true"],
        ["exec", "--grant", "g1", "--study", "s", "--candidate", "c", "--", "true"],
        ["exec", "show", "--execution", "x-20260101T000000-00000000"],
        ["grant", "narrow", "--grant", "g1", "--input", widerNarrow],
        ["grant", "create", "--input", wider]
      ]
    ) {
      const r = runCli(withFlags(args, dir))
      expect({ args, code: r.code }, r.stdout).toEqual({ args, code: 1 })
      expect(treeDigest(dir), args.join(" ")).toEqual(before)
    }
  })
})
