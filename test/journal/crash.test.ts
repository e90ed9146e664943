/**
 * Crashes and concurrency through the built CLI: SIGKILL during a 200-event batch (repeated),
 * then retries until the batch succeeds → every id exactly once; 6 processes × 30 single-event
 * appends at once → all 180 land exactly once.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI, putInput, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"

const journalLines = (dir: string, study: string) =>
  fs.readFileSync(path.join(dir, "research", study, "research-events.jsonl"), "utf8").split("\n").filter((l) =>
    l !== ""
  )

const expectExactlyOnce = (dir: string, study: string, ids: ReadonlyArray<string>) => {
  const lines = journalLines(dir, study).map((l) => JSON.parse(l))
  lines.forEach((l, i) => expect(l.seq).toBe(i + 1))
  const seen = lines.map((l) => l.event.id)
  expect(new Set(seen).size).toBe(seen.length)
  expect([...seen].sort()).toEqual([...ids].sort())
}

const killAfter = (args: ReadonlyArray<string>, ms: number) =>
  new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: "ignore" })
    const timer = setTimeout(() => child.kill("SIGKILL"), ms)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })

describe("crash and concurrency", () => {
  it("SIGKILL during a 200-event batch, repeated; retries land every id exactly once", async () => {
    const dir = tempWorkdir()
    const events = [
      { id: "c0", type: "candidate_created", candidate: { id: "cand", title: "the candidate" } },
      ...Array.from({ length: 199 }, (_, i) => ({
        id: `ev-${i}`,
        type: "evaluation_recorded",
        candidateId: "cand",
        evaluation: {
          evaluatorVersion: "v1",
          metrics: { score: i / 7 },
          decision: i % 3 === 0 ? "accept" : "inconclusive"
        }
      }))
    ]
    const input = putInput(dir, "batch.json", events)
    const args = ["journal", "append", "--study", "crash", "--input", input, "--workdir", dir, "--json"]
    let killed = 0
    for (const ms of [30, 120, 200, 260, 320, 380, 450, 600]) {
      const code = await killAfter(args, ms)
      if (code === null) killed++
      // After a kill: recover any torn tail (the replay rules decide), then keep going.
      const inspect = runCli(["journal", "inspect", "--study", "crash", "--workdir", dir, "--json"])
      if (inspect.json?.ok === true && inspect.json.tail.state === "unterminated") {
        expect(runCli(["journal", "recover-tail", "--study", "crash", "--workdir", dir, "--json"]).code).toBe(0)
      } else if (inspect.json?.ok === true) {
        expect(inspect.json.events === 0 || inspect.json.events === 200).toBe(true)
      }
    }
    expect(killed).toBeGreaterThan(0)
    let done = false
    for (let attempt = 0; attempt < 5 && !done; attempt++) {
      const r = runCli(args)
      done = r.code === 0
      if (!done) runCli(["journal", "recover-tail", "--study", "crash", "--workdir", dir, "--json"])
    }
    expect(done).toBe(true)
    expectExactlyOnce(dir, "crash", events.map((e) => e.id))
    const last = runCli(args)
    expect(last.json).toMatchObject({ ok: true, appended: [], head: { seq: 200, id: "ev-198" } })
    expect(last.json.skipped).toHaveLength(200)
  }, 120_000)

  it("6 processes × 30 single-event appends at once: all 180 land exactly once", async () => {
    const dir = tempWorkdir()
    expect(
      runCli([
        "journal",
        "append",
        "--study",
        "race",
        "--input",
        putInput(dir, "c.json", { id: "c0", type: "candidate_created", candidate: { id: "cand", title: "t" } }),
        "--workdir",
        dir,
        "--json"
      ]).code
    ).toBe(0)
    const ids: Array<string> = []
    const workers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = 0; i < 30; i++) {
        const id = `w${w}-${i}`
        ids.push(id)
        const input = putInput(dir, `${id}.json`, {
          id,
          type: "execution_linked",
          candidateId: "cand",
          execution: { runtimeId: `rt-${id}`, status: "succeeded" }
        })
        const r = await runCliAsync([
          "journal",
          "append",
          "--study",
          "race",
          "--input",
          input,
          "--workdir",
          dir,
          "--json"
        ])
        expect({ id, code: r.code, appended: r.json?.appended }).toEqual({ id, code: 0, appended: [id] })
      }
    })
    await Promise.all(workers)
    expectExactlyOnce(dir, "race", ["c0", ...ids])
    const inspect = runCli(["journal", "inspect", "--study", "race", "--workdir", dir, "--json"])
    expect(inspect.json.events).toBe(181)
    expect(inspect.json.candidates[0].executions).toHaveLength(180)
    // 181 CLI starts; generous because the test machine may be shared.
  }, 900_000)
})
