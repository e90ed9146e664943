/**
 * The monitor in memory: the same logic as MonitorLive (`MonitorFromStore`) over the memory
 * store (src/layers/memory/MonitorStoreMemory.ts), with the work folder's files in the in-memory
 * FileStore and the in-memory Lock. `MonitorMemory` also provides the FileStore, so a test can
 * lay out stage and source files; `MonitorMemoryWithStore` also the store, to look at records.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { FileStore } from "../services/FileStore.js"
import type { Lock } from "../services/Lock.js"
import type { Monitor } from "../services/Monitor.js"
import { MonitorFiles, type MonitorStore } from "../services/ports/MonitorStore.js"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { makeMonitorFilesFolder } from "./folder/MonitorStoreFolder.js"
import { LockMemory } from "./LockMemory.js"
import { MonitorStoreMemory } from "./memory/MonitorStoreMemory.js"
import { MonitorFromStore } from "./MonitorLive.js"

const filesOverStore = Layer.effect(MonitorFiles, Effect.map(FileStore, makeMonitorFilesFolder))

export const MonitorMemoryWithStore: Layer.Layer<Monitor | MonitorStore | FileStore | Lock> = MonitorFromStore.pipe(
  Layer.provideMerge(Layer.mergeAll(MonitorStoreMemory, filesOverStore)),
  Layer.provideMerge(Layer.merge(FileStoreMemory, LockMemory))
)

export const MonitorMemory: Layer.Layer<Monitor | FileStore | Lock> = MonitorMemoryWithStore
