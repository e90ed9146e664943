/**
 * Fault injection: stop a finish-run transaction after each of its steps, then let the next
 * scheduler (a new process, in effect) recover. The state must be all-before or all-after.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as fs from "node:fs"
import * as path from "node:path"
import { BaseLive } from "../../src/layers/Base.js"
import { INTENT_FILE, makeTransactions, type Step } from "../../src/layers/folder/MonitorTransaction.js"
import { makeMonitor } from "../../src/layers/MonitorLive.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Lock } from "../../src/services/Lock.js"
import { put, tempWorkdir } from "../support/cli.js"
import { literature, monitorState, sha, SOURCE_TEXT, weekWindow } from "./support.js"

const scheduler = (steps?: { stopAfter: Step }) =>
  Effect.gen(function*() {
    const store = yield* FileStore
    const lock = yield* Lock
    return yield* makeMonitor(
      store,
      lock.withLock,
      steps === undefined
        ? {}
        : { afterStep: (s) => (s === steps.stopAfter ? Effect.die(`stopped after ${s}`) : Effect.void) }
    )
  })

const now = new Date(Date.parse(weekWindow(0)) + 1000)

/** A work folder with a running run ready to finish; returns the finish input. */
const prepare = (dir: string) =>
  Effect.gen(function*() {
    const s = yield* scheduler()
    yield* s.createSubscription({ ...(literature("lit", { program: "p1" }) as any) }, {
      now: new Date("2026-11-30T10:00:00Z")
    })
    const { run } = yield* s.createDueRun({ subscriptionId: "lit" }, { now })
    const running = yield* s.transitionRun({ runId: run.id, expectedRevision: 1, to: "running" }, { now })
    put(dir, "research/sources/paper.txt", SOURCE_TEXT)
    const stage = `binding ${run.id} ${run.receiptDigest}\n`
    put(dir, "research/results/stage.md", stage)
    return {
      runId: run.id,
      expectedRevision: running.run.revision,
      binding: { runId: run.id, taskDigest: run.receiptDigest },
      stage: { path: "research/results/stage.md", sha256: sha(stage) },
      outcomes: [{
        id: "o1",
        label: "new" as const,
        reason: "r",
        citations: [{ path: "research/sources/paper.txt", quote: "block sparsity keeps accuracy within one point" }]
      }]
    }
  }).pipe(Effect.provide(BaseLive(dir)))

const STEPS: ReadonlyArray<Step> = ["intent-written", "committed", "applied-0", "applied-1", "applied-2", "done"]

describe("monitor transactions: fault injection", () => {
  for (const stopAfter of STEPS) {
    it.effect(`finish-run stopped after ${stopAfter} recovers to all-${stopAfter === "intent-written" ? "before" : "after"}`, () =>
      Effect.gen(function*() {
        const dir = tempWorkdir()
        const input = yield* prepare(dir)
        const before = monitorState(dir)
        const exit = yield* Effect.exit(
          Effect.flatMap(scheduler({ stopAfter }), (s) => s.finishRun(input, { now })).pipe(
            Effect.provide(BaseLive(dir))
          )
        )
        assert.isTrue(Exit.isFailure(exit))
        const intentLeft = fs.existsSync(path.join(dir, INTENT_FILE))
        assert.strictEqual(intentLeft, stopAfter !== "done")

        // The next command (here: next's facts, a read-only one) recovers first.
        const facts = yield* Effect.flatMap(scheduler(), (s) => s.facts({ now })).pipe(Effect.provide(BaseLive(dir)))
        assert.isFalse(fs.existsSync(path.join(dir, INTENT_FILE)))
        const recovered = facts.filter((f) => f.kind === "transaction-recovered")
        if (stopAfter === "done") assert.strictEqual(recovered.length, 0)
        else {
          assert.strictEqual(recovered.length, 1)
          assert.strictEqual(
            (recovered[0] as any).direction,
            stopAfter === "intent-written" ? "rolled-back" : "rolled-forward"
          )
        }
        const state = monitorState(dir)
        if (stopAfter === "intent-written") {
          assert.deepStrictEqual(state, before)
        } else {
          const run = JSON.parse(state[".dossier/monitor/runs/lit.w0.json"]!)
          const sub = JSON.parse(state[".dossier/monitor/subscriptions/lit.json"]!)
          assert.strictEqual(run.status, "completed")
          assert.isNull(sub.activeRunId)
          assert.strictEqual(sub.nextDueAt, weekWindow(1))
          assert.strictEqual(state[".dossier/monitor/reports.jsonl"]!.trim().split("\n").length, 1)
        }
        // Recovering again is a no-op.
        const again = yield* Effect.flatMap(scheduler(), (s) => s.facts({ now })).pipe(Effect.provide(BaseLive(dir)))
        assert.strictEqual(again.filter((f) => f.kind === "transaction-recovered").length, 0)
        assert.deepStrictEqual(monitorState(dir), state)
      }))
  }

  const dir2 = tempWorkdir()
  it.effect("recovery is idempotent when itself interrupted: appends are applied exactly once", () =>
    Effect.gen(function*() {
      const dir = dir2
      put(dir, ".dossier/monitor/reports.jsonl", "old\n")
      put(dir, ".dossier/monitor/subscriptions/a.json", "A0")
      const store = yield* FileStore
      const stopping = makeTransactions(store, {
        afterStep: (s) => (s === "applied-1" ? Effect.die("stop") : Effect.void)
      })
      const exit = yield* Effect.exit(
        stopping.commit([
          { kind: "replace", path: ".dossier/monitor/subscriptions/a.json", after: "A1" },
          { kind: "append", path: ".dossier/monitor/reports.jsonl", data: "new\n" },
          { kind: "replace", path: ".dossier/monitor/runs/b.w0.json", after: "B1" }
        ])
      )
      assert.isTrue(Exit.isFailure(exit))
      // A crash while recovering forward, after the append was re-applied: recover twice.
      const plain = makeTransactions(store)
      yield* plain.recover
      yield* plain.recover
      assert.strictEqual(fs.readFileSync(path.join(dir, ".dossier/monitor/reports.jsonl"), "utf8"), "old\nnew\n")
      assert.strictEqual(fs.readFileSync(path.join(dir, ".dossier/monitor/subscriptions/a.json"), "utf8"), "A1")
      assert.strictEqual(fs.readFileSync(path.join(dir, ".dossier/monitor/runs/b.w0.json"), "utf8"), "B1")

      // Rolling back removes files that did not exist and truncates appends.
      const early = makeTransactions(store, {
        afterStep: (s) => (s === "intent-written" ? Effect.die("stop") : Effect.void)
      })
      yield* Effect.exit(
        early.commit([
          { kind: "replace", path: ".dossier/monitor/subscriptions/c.json", after: "C1" },
          { kind: "append", path: ".dossier/monitor/reports.jsonl", data: "newer\n" }
        ])
      )
      // Simulate the append having happened before the crash anyway.
      fs.appendFileSync(path.join(dir, ".dossier/monitor/reports.jsonl"), "newer\n")
      fs.writeFileSync(path.join(dir, ".dossier/monitor/subscriptions/c.json"), "C1")
      const r = yield* plain.recover
      assert.strictEqual(r._tag, "Some")
      assert.isFalse(fs.existsSync(path.join(dir, ".dossier/monitor/subscriptions/c.json")))
      assert.strictEqual(fs.readFileSync(path.join(dir, ".dossier/monitor/reports.jsonl"), "utf8"), "old\nnew\n")
    }).pipe(Effect.provide(BaseLive(dir2))))
})
