/**
 * Scheduler over the in-memory FileStore and Lock: the same code as SchedulerLive, no disk.
 * `SchedulerMemory` also provides the FileStore, so a test can lay out stage and source files.
 */
import * as Layer from "effect/Layer"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { LockMemory } from "./LockMemory.js"
import { SchedulerLive } from "./SchedulerLive.js"

export const SchedulerMemory = SchedulerLive.pipe(Layer.provideMerge(Layer.merge(FileStoreMemory, LockMemory)))
