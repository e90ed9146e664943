/**
 * plan.md is a person's document too: an edit saved while a checkpoint measures its files is kept,
 * and a checkpoint never leaves a plan marked complete that the completion rule would refuse.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeMemoryFs, type MemoryFs } from "../../src/layers/FileStoreMemory.js"
import { PlanFolder } from "../../src/layers/folder/PlanStoreFolder.js"
import { LockMemory } from "../../src/layers/LockMemory.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Plan } from "../../src/services/Plan.js"

const NOW = new Date("2026-11-30T10:00:00.000Z")

/** Plan over an in-memory folder whose `hash` of `path` first runs `during` (a person's save). */
const planOver = (mem: MemoryFs, path: string, during: () => void) => {
  const files = {
    ...mem.store,
    hash: (p: string, o?: Parameters<typeof mem.store.hash>[1]) =>
      Effect.suspend(() => {
        if (p === path) during()
        return mem.store.hash(p, o)
      })
  }
  return PlanFolder.pipe(Layer.provide(Layer.mergeAll(Layer.succeed(FileStore, files), LockMemory)))
}

const text = (mem: MemoryFs) => Buffer.from(mem.readRaw("plan.md")!).toString("utf8")

describe("plan.md edited by hand while a checkpoint runs", () => {
  it.effect("prose saved while the checkpoint measures its files is kept, and so is a hand edit of the section", () =>
    Effect.gen(function*() {
      const mem = makeMemoryFs()
      mem.writeRaw("plan.md", "# Notes\n")
      mem.writeRaw("research/sources/a.txt", "a source\n")
      mem.writeRaw("research/results/r.md", "a result\n")
      let saves = 0
      const layer = planOver(mem, "research/sources/a.txt", () => {
        if (saves++ > 0) return
        // The person's editor saves: a line of prose after the section, the next action changed.
        const edited = text(mem).replace("\"nextAction\": \"search\"", "\"nextAction\": \"ask Ana\"")
        mem.writeRaw("plan.md", `${edited}\nWritten while the agent worked.\n`)
      })
      yield* Effect.gen(function*() {
        const plan = yield* Plan
        yield* plan.start({ goal: "G", limits: [], nextAction: "search" }, { now: NOW })
        const r = yield* plan.checkpoint({
          completedSteps: [{ summary: "read", id: "read" }],
          sources: [{ path: "research/sources/a.txt", origin: "https://example.org/a" }],
          outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.txt"] }]
        }, { expected: 1, now: NOW })
        expect(r.revision).toBe(2)
        const doc = yield* plan.inspect
        expect(doc.state === "active" && doc.nextAction).toBe("ask Ana")
        expect(doc.state === "active" && doc.sources.map((s) => s.path)).toEqual(["research/sources/a.txt"])
      }).pipe(Effect.provide(layer))
      expect(saves).toBeGreaterThan(0)
      expect(text(mem)).toContain("\nWritten while the agent worked.\n")
      expect(text(mem).startsWith("# Notes\n\n<!-- dossier:plan:begin -->")).toBe(true)
    }))

  it.effect("a section whose revision a person changed meanwhile is a StaleRevision, and nothing is written", () =>
    Effect.gen(function*() {
      const mem = makeMemoryFs()
      mem.writeRaw("research/sources/a.txt", "a source\n")
      let edited = ""
      const layer = planOver(mem, "research/sources/a.txt", () => {
        if (edited !== "") return
        edited = text(mem).replace("\"revision\": 1", "\"revision\": 2")
        mem.writeRaw("plan.md", edited)
      })
      const error = yield* Effect.gen(function*() {
        const plan = yield* Plan
        yield* plan.start({ goal: "G", limits: [], nextAction: "n" }, { now: NOW })
        return yield* Effect.flip(
          plan.checkpoint({ sources: [{ path: "research/sources/a.txt", origin: "https://example.org/o" }] }, {
            expected: 1,
            now: NOW
          })
        )
      }).pipe(Effect.provide(layer))
      expect(error._tag).toBe("StaleRevision")
      expect(text(mem)).toBe(edited)
    }))
})

describe("a complete plan", () => {
  it.effect("stays complete only while it meets the completion rule; a checkpoint may reopen it", () =>
    Effect.gen(function*() {
      const mem = makeMemoryFs()
      mem.writeRaw("research/sources/a.txt", "a source\n")
      mem.writeRaw("research/results/r.md", "a result\n")
      const error = yield* Effect.gen(function*() {
        const plan = yield* Plan
        yield* plan.start({ goal: "G", limits: [], nextAction: "n" }, { now: NOW })
        yield* plan.checkpoint({
          sources: [{ path: "research/sources/a.txt", origin: "https://example.org/o" }],
          outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.txt"] }],
          status: "complete"
        }, { expected: 1, now: NOW })
        // An open question added later, without a status: the plan cannot stay complete.
        const refused = yield* Effect.flip(
          plan.checkpoint({ unresolved: [{ id: "q", text: "open question" }] }, { expected: 2, now: NOW })
        )
        const kept = yield* plan.inspect
        expect(kept.state === "active" && [kept.revision, kept.status, kept.unresolved.length]).toEqual([
          2,
          "complete",
          0
        ])
        // Reopening it with the same checkpoint is accepted.
        const reopened = yield* plan.checkpoint(
          { unresolved: [{ id: "q", text: "open question" }], status: "in_progress" },
          { expected: 2, now: NOW }
        )
        expect(reopened.revision).toBe(3)
        // A plan that is complete and meets the rule takes a checkpoint that keeps it so.
        yield* plan.checkpoint({ unresolved: [], status: "complete" }, { expected: 3, now: NOW })
        expect((yield* plan.checkpoint({ completedSteps: [{ summary: "noted" }] }, { expected: 4, now: NOW })).revision)
          .toBe(5)
        return refused
      }).pipe(Effect.provide(planOver(mem, "", () => {})))
      expect(error._tag).toBe("CompletionRefused")
      expect(error._tag === "CompletionRefused" && error.reasons).toEqual([
        "1 unresolved item(s)",
        "the plan is marked complete: give status in_progress or blocked in this checkpoint to reopen it"
      ])
    }))
})
