/**
 * The base every subsystem builds on: the work folder, its FileStore, its Lock and the key that
 * signs evidence. `BaseLive(dir)` for Node; `BaseMemory` is one in-memory tree, an in-process
 * lock and a key in memory.
 */
import * as Layer from "effect/Layer"
import type { WorkdirNotFound } from "../domain/Errors.js"
import type { EvidenceKey } from "../services/EvidenceKey.js"
import type { FileStore } from "../services/FileStore.js"
import type { Lock } from "../services/Lock.js"
import { Workdir } from "../services/Workdir.js"
import { EvidenceKeyLive, EvidenceKeyMemory } from "./EvidenceKeyLive.js"
import { FileStoreLive } from "./FileStoreLive.js"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { LockLive } from "./LockLive.js"
import { LockMemory } from "./LockMemory.js"

export type Base = Workdir | FileStore | Lock | EvidenceKey

export const BaseLive = (dir: string): Layer.Layer<Base, WorkdirNotFound> =>
  Layer.mergeAll(LockLive, EvidenceKeyLive).pipe(
    Layer.provideMerge(FileStoreLive),
    Layer.provideMerge(Workdir.live(dir))
  )

/** One in-memory tree (FileStoreMemory), an in-process lock (LockMemory) and a key in memory; no Workdir is needed. */
export const BaseMemory: Layer.Layer<FileStore | Lock | EvidenceKey> = Layer.mergeAll(
  FileStoreMemory,
  LockMemory,
  EvidenceKeyMemory
)
