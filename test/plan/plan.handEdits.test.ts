/**
 * plan.md is a person's document too: an edit saved while a checkpoint measures its files is kept.
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
          plan.checkpoint({ sources: [{ path: "research/sources/a.txt", origin: "o" }] }, { expected: 1, now: NOW })
        )
      }).pipe(Effect.provide(layer))
      expect(error._tag).toBe("StaleRevision")
      expect(text(mem)).toBe(edited)
    }))
})
