/** The Monitor service on the in-memory layers: the whole flow without a disk or a CLI. */
import { assert, describe, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { sha256Hex } from "../../src/domain/Canonical.js"
import { MonitorMemoryWithStore } from "../../src/layers/MonitorMemory.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Monitor } from "../../src/services/Monitor.js"
import { MonitorStore } from "../../src/services/ports/MonitorStore.js"
import { literature, SOURCE_TEXT, weekWindow } from "./support.js"

describe("Monitor on memory layers", () => {
  layer(MonitorMemoryWithStore)((it) => {
    it.effect("subscribe, coalesce, finish with a citation, dispose; facts follow", () =>
      Effect.gen(function*() {
        const s = yield* Monitor
        const store = yield* FileStore
        const created = yield* s.createSubscription(literature("mem", { program: "p" }) as any, {
          now: new Date("2026-11-30T10:00:00Z")
        })
        assert.isTrue(created.created)
        const now = new Date(Date.parse(weekWindow(4)) + 5000)
        const facts0 = yield* s.facts({ now })
        assert.deepStrictEqual(facts0.map((f) => f.kind), ["subscription-due"])
        const { created: c1, run } = yield* s.createDueRun({ subscriptionId: "mem" }, { now })
        assert.isTrue(c1)
        assert.strictEqual(run.coalescedWindows, 5)
        const retry = yield* s.createDueRun({ subscriptionId: "mem" }, { now })
        assert.isFalse(retry.created)
        yield* s.transitionRun({ runId: run.id, expectedRevision: 1, to: "running" }, { now })
        yield* store.writeAtomic("research/sources/p.txt", SOURCE_TEXT)
        const stage = `stage ${run.id} ${run.receiptDigest}\n`
        yield* store.writeAtomic("research/results/stage.md", stage)
        const refused = yield* Effect.flip(
          s.finishRun({
            runId: run.id,
            expectedRevision: 2,
            binding: { runId: run.id, taskDigest: run.receiptDigest },
            stage: { path: "research/results/stage.md", sha256: sha256Hex(stage) },
            outcomes: [{
              id: "o1",
              label: "new",
              reason: "r",
              citations: [{ path: "research/sources/p.txt", quote: "not in the source at all, surely" }]
            }]
          }, { now })
        )
        assert.strictEqual(refused._tag, "CitationNotFound")
        const done = yield* s.finishRun({
          runId: run.id,
          expectedRevision: 2,
          binding: { runId: run.id, taskDigest: run.receiptDigest },
          stage: { path: "research/results/stage.md", sha256: sha256Hex(stage) },
          outcomes: [{
            id: "o1",
            label: "worth_reviewing",
            reason: "r",
            citations: [{ path: "research/sources/p.txt", quote: "reduces the quadratic cost of transformers" }]
          }]
        }, { now })
        assert.strictEqual(done.subscription.nextDueAt, weekWindow(5))
        assert.isTrue(done.reported)
        const reports = yield* (yield* MonitorStore).reports.read("p")
        assert.deepStrictEqual(reports.map((r) => r.id), [`${run.id}:run-completed`])
        assert.deepStrictEqual((yield* s.facts({ now })).map((f) => f.kind), ["unresolved-outcome"])
        yield* s.setOutcomeDisposition({ runId: run.id, outcomeId: "o1", disposition: "dismissed" }, { now })
        assert.deepStrictEqual(yield* s.facts({ now }), [])
        assert.strictEqual((yield* s.showRun(run.id)).binding, "verified")
        yield* store.writeAtomic("research/results/stage.md", `${stage}edited\n`)
        assert.strictEqual((yield* s.showRun(run.id)).binding, "stale")
      }))
  })
})
