/**
 * SIGKILL the built CLI's finish-run at random moments, many times; the next command (a
 * read-only `monitor show`) must find the state all-before or all-after, never a mix.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { BaseLive } from "../../src/layers/Base.js"
import { makeMonitor } from "../../src/layers/MonitorLive.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Lock } from "../../src/services/Lock.js"
import { CLI, put, putInput, runCliAsync, tempWorkdir } from "../support/cli.js"
import { literature, sha, SOURCE_TEXT, weekWindow } from "./support.js"

const NOW = new Date(Date.parse(weekWindow(0)) + 1000)

/** A template work folder with a running run and its finish input, made in-process (fast). */
const template = async (): Promise<string> => {
  const dir = tempWorkdir("dossier-crash-tpl-")
  await Effect.runPromise(
    Effect.gen(function*() {
      const store = yield* FileStore
      const lock = yield* Lock
      const s = yield* makeMonitor(store, lock.withLock)
      yield* s.createSubscription(literature("lit", { program: "p1" }) as any, {
        now: new Date("2026-11-30T10:00:00Z")
      })
      const { run } = yield* s.createDueRun({ subscriptionId: "lit" }, { now: NOW })
      yield* s.transitionRun({ runId: run.id, expectedRevision: 1, to: "running" }, { now: NOW })
      put(dir, "research/sources/paper.txt", SOURCE_TEXT)
      const stage = `binding ${run.id} ${run.receiptDigest}\n`
      put(dir, "research/results/stage.md", stage)
      putInput(dir, "finish.json", {
        runId: run.id,
        expectedRevision: 2,
        binding: { runId: run.id, taskDigest: run.receiptDigest },
        stage: { path: "research/results/stage.md", sha256: sha(stage) },
        outcomes: [{
          id: "o1",
          label: "new",
          reason: "r",
          citations: [{ path: "research/sources/paper.txt", quote: "block sparsity keeps accuracy within one point" }]
        }]
      })
    }).pipe(Effect.provide(BaseLive(dir)))
  )
  return dir
}

const finishArgs = (dir: string) => [
  CLI,
  "monitor",
  "finish-run",
  "--workdir",
  dir,
  "--input",
  "research/inputs/finish.json",
  "--now",
  NOW.toISOString(),
  "--json"
]

/** Run finish-run and SIGKILL it after `delayMs` (or let it finish when it is faster). */
const finishKilledAfter = (dir: string, delayMs: number) =>
  new Promise<{ killed: boolean; ms: number }>((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, finishArgs(dir), { stdio: "ignore" })
    let killed = false
    const timer = setTimeout(() => {
      killed = child.kill("SIGKILL")
    }, delayMs)
    child.on("exit", (_code, signal) => {
      clearTimeout(timer)
      resolve({ killed: signal === "SIGKILL" && killed, ms: Date.now() - started })
    })
  })

/** Run finish-run and SIGKILL it a random 0-`jitterMs` ms after the monitor directory first changes. */
const finishKilledInTransaction = (dir: string, jitterMs: number) =>
  new Promise<{ killed: boolean }>((resolve) => {
    const child = spawn(process.execPath, finishArgs(dir), { stdio: "ignore" })
    let killed = false
    let armed = false
    const watcher = fs.watch(path.join(dir, ".dossier/monitor"), () => {
      if (armed) return
      armed = true
      setTimeout(() => {
        killed = child.kill("SIGKILL")
      }, Math.floor(Math.random() * jitterMs))
    })
    child.on("exit", (_code, signal) => {
      watcher.close()
      resolve({ killed: signal === "SIGKILL" && killed })
    })
  })

const classify = (dir: string, run: any, sub: any): "before" | "after" => {
  const reports = path.join(dir, ".dossier/monitor/reports.jsonl")
  const lines = fs.existsSync(reports) ? fs.readFileSync(reports, "utf8").split("\n").filter((l) => l.length > 0) : []
  if (run.status === "running") {
    assert.strictEqual(run.revision, 2)
    assert.strictEqual(sub.activeRunId, run.id)
    assert.strictEqual(sub.nextDueAt, weekWindow(0))
    assert.strictEqual(lines.length, 0, "a report line without the completion")
    return "before"
  }
  assert.strictEqual(run.status, "completed")
  assert.strictEqual(run.revision, 3)
  assert.isNull(sub.activeRunId)
  assert.strictEqual(sub.nextDueAt, weekWindow(1))
  assert.strictEqual(lines.length, 1, "exactly one report line with the completion")
  return "after"
}

describe("monitor transactions: SIGKILL of the built CLI", () => {
  it("finish-run killed at random moments leaves all-before or all-after, recovered by the next command", {
    timeout: 600_000
  }, async () => {
    const tpl = await template()
    // Calibrate: how long does an uninterrupted finish-run take here?
    const probe = tempWorkdir("dossier-crash-")
    fs.cpSync(tpl, probe, { recursive: true })
    const full = await finishKilledAfter(probe, 60_000)
    assert.isFalse(full.killed)
    const seen = { before: 0, after: 0, killed: 0, recovered: 0 }
    const ITERATIONS = 30
    // Random kill times, narrowed adaptively towards the moment the outcome flips from before to
    // after (where the transaction's writes happen), with jitter so every step gets its chance.
    let lo = 0
    let hi = full.ms * 1.2
    for (let i = 0; i < ITERATIONS; i++) {
      const dir = tempWorkdir("dossier-crash-")
      fs.cpSync(tpl, dir, { recursive: true })
      const span = Math.max(hi - lo, 40)
      const delay = Math.max(0, Math.floor(lo - 10 + Math.random() * (span + 20)))
      // Odd iterations: a random moment after the transaction starts writing (the intent record).
      const r = i % 2 === 1 ? await finishKilledInTransaction(dir, 12) : await finishKilledAfter(dir, delay)
      if (r.killed) seen.killed++
      const intentLeft = fs.existsSync(path.join(dir, ".dossier/monitor/intent.json"))
      const show = await runCliAsync(["monitor", "show", "--run", "lit.w0", "--workdir", dir, "--json"])
      assert.strictEqual(show.code, 0, show.stdout + show.stderr)
      assert.isFalse(fs.existsSync(path.join(dir, ".dossier/monitor/intent.json")))
      if (intentLeft) seen.recovered++
      const sub = JSON.parse(fs.readFileSync(path.join(dir, ".dossier/monitor/subscriptions/lit.json"), "utf8"))
      const outcome = classify(dir, show.json.run, sub)
      seen[outcome]++
      if (i % 2 === 0 && outcome === "before" && r.killed) lo = Math.max(lo, delay)
      if (i % 2 === 0 && outcome === "after") hi = Math.min(hi, delay)
      if (lo >= hi) [lo, hi] = [hi - 20, lo + 20]
      // No staging file is ever taken as state, and none is left where a reader would look.
      const runsDir = fs.readdirSync(path.join(dir, ".dossier/monitor/runs")).filter((n) => !n.endsWith(".dossier-tmp"))
      assert.deepStrictEqual(runsDir, ["lit.w0.json"])
      fs.rmSync(dir, { recursive: true, force: true })
    }
    console.log(`crash test: ${JSON.stringify(seen)} (uninterrupted finish-run: ${full.ms} ms)`)
    assert.strictEqual(seen.before + seen.after, ITERATIONS)
    // Kills inside the transaction happened and were recovered by the next command.
    assert.isAbove(seen.recovered, 0)
  })
})
