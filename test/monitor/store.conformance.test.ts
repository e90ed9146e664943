/**
 * The MonitorStore port (src/services/ports/MonitorStore.ts) holds its promises over both
 * adapters: the folder (over the real FileStore in a temporary folder, and over the in-memory
 * one) and memory. The same suite is what a new adapter runs (src/testing/MonitorStoreConformance.ts).
 */
import { describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { makeMonitorStoreFolder } from "../../src/layers/folder/MonitorStoreFolder.js"
import { makeMonitorStoreMemory } from "../../src/layers/memory/MonitorStoreMemory.js"
import type { MonitorStoreShape } from "../../src/services/ports/MonitorStore.js"
import * as MonitorStoreConformance from "../../src/testing/MonitorStoreConformance.js"

const folderLive = (): { store: MonitorStoreShape; dispose: () => void } => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-monitor-port-")))
  return {
    store: makeMonitorStoreFolder(makeFileStoreLive(root)),
    dispose: () => fs.rmSync(root, { recursive: true, force: true })
  }
}
const folderMemory = (): { store: MonitorStoreShape } => ({ store: makeMonitorStoreFolder(makeMemoryFs().store) })
const memory = (): { store: MonitorStoreShape } => ({ store: Effect.runSync(makeMonitorStoreMemory) })

const adapters = { "folder (disk)": folderLive, "folder (in-memory FileStore)": folderMemory, memory } as const

describe("MonitorStore conformance", () => {
  for (const [name, make] of Object.entries(adapters)) {
    for (const s of MonitorStoreConformance.scenarios) {
      it.effect(`${name}: ${s.name}`, () =>
        Effect.suspend(() => {
          const { dispose, store } = make() as { store: MonitorStoreShape; dispose?: () => void }
          return Effect.ensuring(s.run(store), Effect.sync(() => dispose?.()))
        }))
    }
  }
  it.effect.prop(
    "folder (disk) answers as the memory adapter",
    { ops: MonitorStoreConformance.operations },
    ({ ops }) => MonitorStoreConformance.check(folderLive, ops),
    { fastCheck: { numRuns: 40 } }
  )
  it.effect.prop(
    "folder (in-memory FileStore) answers as the memory adapter",
    { ops: MonitorStoreConformance.operations },
    ({ ops }) => MonitorStoreConformance.check(folderMemory, ops),
    { fastCheck: { numRuns: 60 } }
  )
})
