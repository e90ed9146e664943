/**
 * The base every subsystem builds on: the work folder, its FileStore and its Lock.
 * `BaseLive(dir)` for Node; `BaseMemory` is one in-memory tree and an in-process lock.
 */
import * as Layer from "effect/Layer"
import type { WorkdirNotFound } from "../domain/Errors.js"
import type { FileStore } from "../services/FileStore.js"
import type { Lock } from "../services/Lock.js"
import { Workdir } from "../services/Workdir.js"
import { FileStoreLive } from "./FileStoreLive.js"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { LockLive } from "./LockLive.js"
import { LockMemory } from "./LockMemory.js"

export type Base = Workdir | FileStore | Lock

export const BaseLive = (dir: string): Layer.Layer<Base, WorkdirNotFound> =>
  LockLive.pipe(Layer.provideMerge(FileStoreLive), Layer.provideMerge(Workdir.live(dir)))

/** One in-memory tree (FileStoreMemory) and an in-process lock (LockMemory); no Workdir is needed. */
export const BaseMemory: Layer.Layer<FileStore | Lock> = Layer.merge(FileStoreMemory, LockMemory)
