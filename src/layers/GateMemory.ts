/** Gate over in-memory layers (FileStoreMemory, LockMemory, Plan on top): for tests and embedding. */
import * as Layer from "effect/Layer"
import { FileStoreMemory } from "./FileStoreMemory.js"
import { PlanFolder } from "./folder/PlanStoreFolder.js"
import { GateLive } from "./GateLive.js"
import { LockMemory } from "./LockMemory.js"

export const GateMemory = GateLive.pipe(
  Layer.provideMerge(PlanFolder),
  Layer.provideMerge(FileStoreMemory),
  Layer.provideMerge(LockMemory)
)
