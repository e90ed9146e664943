/**
 * The PlanStore port's adapters pass the same conformance suite (src/testing/PlanStoreConformance.ts):
 * the memory adapter, the folder adapter over the in-memory tree, and over a real folder.
 */
import { describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { FileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { makePlanStoreFolder } from "../../src/layers/folder/PlanStoreFolder.js"
import { makePlanStoreMemory } from "../../src/layers/memory/PlanStoreMemory.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"
import { Workdir } from "../../src/services/Workdir.js"
import { PlanStoreConformance } from "../../src/testing.js"

const memory: PlanStoreConformance.Make = ({ prose }) =>
  Effect.gen(function*() {
    const files = makeMemoryFs().store
    const store = yield* makePlanStoreMemory({ prose }).pipe(Effect.provideService(FileStore, files))
    return { store, keepsProse: true, putFile: (p: string, d: string) => files.writeAtomic(p, d) }
  })

const folderOver = (files: FileStoreShape, prose: string) =>
  Effect.gen(function*() {
    // Prose is one character per byte (latin1), as the port answers it.
    if (prose !== "") yield* files.writeAtomic("plan.md", Buffer.from(prose, "latin1"))
    const store = yield* makePlanStoreFolder.pipe(Effect.provideService(FileStore, files))
    return { store, keepsProse: true, putFile: (p: string, d: string) => files.writeAtomic(p, d) }
  })

const folderInMemory: PlanStoreConformance.Make = ({ prose }) => folderOver(makeMemoryFs().store, prose)

const folderOnDisk: PlanStoreConformance.Make = ({ prose }) =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-planstore-")))),
      (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
    )
    const files = yield* Effect.provide(FileStore, FileStoreLive.pipe(Layer.provide(Workdir.live(dir)), Layer.orDie))
    return yield* folderOver(files, prose)
  })

describe("PlanStore conformance", () => {
  for (
    const [name, make] of [["memory", memory], ["folder (in-memory tree)", folderInMemory], [
      "folder (on disk)",
      folderOnDisk
    ]] as const
  ) {
    it.effect(`${name}: the contract`, () => PlanStoreConformance.check(make))
    it.effect.prop(
      `${name}: compare-and-set agrees with the model`,
      { steps: PlanStoreConformance.steps },
      ({ steps }) => PlanStoreConformance.checkSteps(make, steps),
      { fastCheck: { numRuns: 30 } }
    )
  }
})
