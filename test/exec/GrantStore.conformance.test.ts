/**
 * The GrantStore and ExecutionStore ports' adapters pass the same conformance suite
 * (src/testing/GrantStoreConformance.ts): the memory adapters, the folder adapters over the
 * in-memory tree, and over a real folder.
 */
import { describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { makeExecutionStoreFolder } from "../../src/layers/folder/ExecutionStoreFolder.js"
import { makeGrantStoreFolder } from "../../src/layers/folder/GrantStoreFolder.js"
import { makeExecutionStoreMemory } from "../../src/layers/memory/ExecutionStoreMemory.js"
import { makeGrantStoreMemory } from "../../src/layers/memory/GrantStoreMemory.js"
import type { FileStoreShape } from "../../src/services/FileStore.js"
import { GrantStoreConformance } from "../../src/testing.js"

const memory: GrantStoreConformance.Make = () =>
  Effect.all({ grants: makeGrantStoreMemory, executions: makeExecutionStoreMemory })

const folderOver = (files: FileStoreShape) => ({
  grants: makeGrantStoreFolder(files),
  executions: makeExecutionStoreFolder(files)
})

const folderInMemory: GrantStoreConformance.Make = () => Effect.sync(() => folderOver(makeMemoryFs().store))

const folderOnDisk: GrantStoreConformance.Make = () =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-grantstore-")))),
      (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
    ),
    (dir) => folderOver(makeFileStoreLive(dir))
  )

describe("GrantStore and ExecutionStore conformance", () => {
  for (
    const [name, make] of [
      ["memory", memory],
      ["folder (in-memory tree)", folderInMemory],
      ["folder (on disk)", folderOnDisk]
    ] as const
  ) {
    it.effect(`${name}: the contract`, () => GrantStoreConformance.check(make))
    it.effect.prop(
      `${name}: grant events' compare-and-set agrees with the model`,
      { steps: GrantStoreConformance.steps },
      ({ steps }) => GrantStoreConformance.checkSteps(make, steps),
      { fastCheck: { numRuns: name === "folder (on disk)" ? 15 : 30 } }
    )
  }
})
