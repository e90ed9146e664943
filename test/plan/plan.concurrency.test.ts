/** Concurrency and crashes through the built CLI: one winner per revision; plan.md always whole. */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI, put, putInput, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"

const startPlan = (dir: string) => {
  const input = putInput(dir, "start.json", { goal: "G", limits: [], nextAction: "n" })
  expect(runCli(["plan", "start", "--workdir", dir, "--input", input, "--json"]).code).toBe(0)
}

describe("plan under concurrency", () => {
  it("8 processes racing one checkpoint with the same --expected: exactly one wins", async () => {
    const dir = tempWorkdir()
    startPlan(dir)
    const inputs = Array.from(
      { length: 8 },
      (_, i) => putInput(dir, `cp${i}.json`, { completedSteps: [{ summary: `racer ${i}` }] })
    )
    const results = await Promise.all(
      inputs.map((input) =>
        runCliAsync(["plan", "checkpoint", "--workdir", dir, "--input", input, "--expected", "1", "--json"])
      )
    )
    const winners = results.filter((r) => r.code === 0)
    const losers = results.filter((r) => r.code !== 0)
    expect(winners.length).toBe(1)
    expect(winners[0]!.json).toEqual({ ok: true, revision: 2 })
    for (const l of losers) {
      expect(l.code).toBe(1)
      expect(["StaleRevision", "LockTimeout"]).toContain(l.json.error._tag)
    }
    expect(losers.filter((l) => l.json.error._tag === "StaleRevision").length).toBeGreaterThan(0)
    const view = runCli(["plan", "inspect", "--workdir", dir, "--json"]).json
    expect(view.revision).toBe(2)
    expect(view.completedSteps.length).toBe(1)
  })

  it("SIGKILL during checkpoints, repeated: plan.md always parses, the revision is the old or the new one", async () => {
    const dir = tempWorkdir()
    startPlan(dir)
    put(dir, "research/sources/big.md", "x".repeat(4 * 1024 * 1024))
    let revision = 1
    for (let i = 0; i < 12; i++) {
      const input = putInput(dir, `k${i}.json`, {
        completedSteps: [{ summary: `step ${i}`, id: `k${i}` }],
        ...(i === 0 ? { sources: [{ path: "research/sources/big.md", origin: "https://example.org/o" }] } : {})
      })
      const child = spawn(process.execPath, [
        CLI,
        "plan",
        "checkpoint",
        "--workdir",
        dir,
        "--input",
        input,
        "--expected",
        String(revision),
        "--json"
      ])
      // Listening from the start: a checkpoint may finish before the kill, and its exit must not be missed.
      const exited = new Promise((r) => child.once("exit", r))
      const delay = 40 + ((i * 37) % 200)
      await new Promise((r) => setTimeout(r, delay))
      child.kill("SIGKILL")
      await exited
      const view = runCli(["plan", "inspect", "--workdir", dir, "--json"])
      expect(view.code, view.stdout).toBe(0)
      expect(view.json.state).toBe("active")
      expect([revision, revision + 1]).toContain(view.json.revision)
      const stepRecorded = view.json.completedSteps.some((s: any) => s.id === `k${i}`)
      expect(stepRecorded).toBe(view.json.revision === revision + 1)
      revision = view.json.revision
      // No staging file is ever taken as the plan; the lock is free again at once.
      const leftovers = fs.readdirSync(dir).filter((n) => n.endsWith(".dossier-tmp"))
      expect(leftovers.every((n) => n.startsWith(".plan.md."))).toBe(true)
    }
    // After the kills, a normal checkpoint still works (the lock was released by the OS).
    const final = runCli([
      "plan",
      "checkpoint",
      "--workdir",
      dir,
      "--input",
      putInput(dir, "final.json", { nextAction: "done" }),
      "--expected",
      String(revision),
      "--json"
    ])
    expect(final.json).toEqual({ ok: true, revision: revision + 1 })
    expect(path.basename(dir).length).toBeGreaterThan(0)
  })
})
