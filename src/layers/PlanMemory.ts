/**
 * Plan in memory: the plan's logic over `PlanStoreMemory` (the record in a Ref), the in-memory
 * FileStore its registered files are measured in, and the in-process Lock; provides those two too.
 */
import * as Layer from "effect/Layer"
import { BaseMemory } from "./Base.js"
import { PlanStoreMemory } from "./memory/PlanStoreMemory.js"
import { PlanLive } from "./PlanLive.js"

export const PlanMemory = PlanLive.pipe(Layer.provide(PlanStoreMemory), Layer.provideMerge(BaseMemory))
