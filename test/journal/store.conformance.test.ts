/** The JournalStore port's two adapters, folder and memory, held to one meaning (src/testing/JournalStoreConformance.ts). */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { FileStoreMemory } from "../../src/layers/FileStoreMemory.js"
import { JournalArtifactsFolder } from "../../src/layers/folder/JournalArtifactsFolder.js"
import { makeJournalFolderStore } from "../../src/layers/folder/JournalStoreFolder.js"
import { JournalFromStore } from "../../src/layers/JournalLive.js"
import { LockMemory } from "../../src/layers/LockMemory.js"
import { JournalStoreMemory, makeJournalStoreMemory } from "../../src/layers/memory/JournalStoreMemory.js"
import { Journal } from "../../src/services/Journal.js"
import type { JournalStoreShape } from "../../src/services/ports/JournalStore.js"
import { JournalStoreConformance } from "../../src/testing.js"
import { tempWorkdir } from "../support/cli.js"

const RUNS = { numRuns: 40, seed: 2511 }

describe("JournalStore conformance", () => {
  it.effect.prop(
    "the memory adapter",
    { ops: JournalStoreConformance.operations },
    ({ ops }) => JournalStoreConformance.check(() => ({ store: makeJournalStoreMemory() }), ops),
    { fastCheck: RUNS }
  )

  it.effect.prop(
    "the folder adapter over the in-memory FileStore",
    { ops: JournalStoreConformance.operations },
    ({ ops }) =>
      JournalStoreConformance.check(() => ({ store: makeJournalFolderStore(makeMemoryFs().store).port }), ops),
    { fastCheck: RUNS }
  )

  it.effect.prop(
    "the folder adapter on disk (with its append index)",
    { ops: JournalStoreConformance.operations },
    ({ ops }) =>
      JournalStoreConformance.check(() => {
        const dir = tempWorkdir()
        const files = makeFileStoreLive(dir)
        return {
          store: makeJournalFolderStore(files).port,
          dispose: () => {
            files.close()
            fs.rmSync(dir, { recursive: true, force: true })
          }
        }
      }, ops),
    { fastCheck: { numRuns: 15, seed: 2512 } }
  )

  it.effect.prop("the folder adapter on disk, a new instance for each call (a process each: the append index)", {
    ops: JournalStoreConformance.operations
  }, ({ ops }) =>
    JournalStoreConformance.check(() => {
      const dir = tempWorkdir()
      const files = makeFileStoreLive(dir)
      const fresh = () => makeJournalFolderStore(files).port
      const store: JournalStoreShape = {
        read: (study) => fresh().read(study),
        append: (study, batch, check) => fresh().append(study, batch, check),
        studies: Effect.suspend(() => fresh().studies),
        lines: (study, maxBytes) => fresh().lines(study, maxBytes)
      }
      return {
        store,
        dispose: () => {
          files.close()
          fs.rmSync(dir, { recursive: true, force: true })
        }
      }
    }, ops), { fastCheck: { numRuns: 15, seed: 2513 } })

  it.effect("a planted bug is found: a store whose check does not see the stored ids", () =>
    Effect.gen(function*() {
      const buggy = () => {
        const store = makeJournalStoreMemory()
        const append: typeof store.append = (study, batch, check) =>
          store.append(study, batch, (view) => check({ ...view, digestOf: () => undefined }))
        return { store: { ...store, append } }
      }
      const failed = fc.sample(JournalStoreConformance.operations, { numRuns: 200, seed: 7 })
      let found = 0
      for (
        const ops of failed
      ) if ((yield* Effect.either(JournalStoreConformance.check(buggy, ops)))._tag === "Left") found++
      expect(found).toBeGreaterThan(0)
    }))
})

describe("the Journal over the memory adapter", () => {
  it.effect("answers append and inspect as the folder does", () =>
    Effect.gen(function*() {
      const j = yield* Journal
      const cand = { id: "c1", type: "candidate_created" as const, candidate: { id: "a", title: "t" } }
      expect(yield* j.append("s", cand)).toEqual({
        study: "s",
        appended: ["c1"],
        skipped: [],
        head: { seq: 1, id: "c1" }
      })
      expect(yield* j.append("s", cand)).toEqual({
        study: "s",
        appended: [],
        skipped: ["c1"],
        head: { seq: 1, id: "c1" }
      })
      expect((yield* Effect.flip(j.append("s", { ...cand, candidate: { id: "a", title: "u" } })))._tag).toBe(
        "ConflictingEvent"
      )
      expect((yield* j.inspect("s")).candidates.map((c) => c.id)).toEqual(["a"])
      expect((yield* Effect.flip(j.inspect("none")))._tag).toBe("StudyNotFound")
      expect(Buffer.from(yield* j.lines("s", 1_000_000)).toString()).toMatch(
        /^\{"seq":1,"sha256":"[0-9a-f]{64}","event":\{/
      )
      expect(yield* j.studies).toEqual([{
        study: "s",
        tail: "clean",
        tailBytes: 0,
        corruptLine: null,
        head: { seq: 1, id: "c1" }
      }])
    }).pipe(
      Effect.provide(
        JournalFromStore.pipe(
          Layer.provide(
            Layer.mergeAll(JournalStoreMemory, JournalArtifactsFolder.pipe(Layer.provide(FileStoreMemory)), LockMemory)
          )
        )
      )
    ))
})
