/** Journal over the in-memory FileStore and Lock (tests, embedding without a disk). */
import * as Layer from "effect/Layer"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { JournalLive } from "./JournalLive.js"
import { LockMemory } from "./LockMemory.js"

export const JournalMemory = JournalLive.pipe(Layer.provideMerge(FileStoreMemory), Layer.provideMerge(LockMemory))
