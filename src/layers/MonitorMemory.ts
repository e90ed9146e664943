/**
 * Monitor over the in-memory FileStore and Lock: the same code as MonitorLive, no disk.
 * `MonitorMemory` also provides the FileStore, so a test can lay out stage and source files.
 */
import * as Layer from "effect/Layer"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { LockMemory } from "./LockMemory.js"
import { MonitorLive } from "./MonitorLive.js"

export const MonitorMemory = MonitorLive.pipe(Layer.provideMerge(Layer.merge(FileStoreMemory, LockMemory)))
