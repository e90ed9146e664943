/** Plan over the in-memory FileStore and Lock (tests, embedding without a disk); provides both too. */
import * as Layer from "effect/Layer"
import { BaseMemory } from "./Base.js"
import { PlanLive } from "./PlanLive.js"

export const PlanMemory = PlanLive.pipe(Layer.provideMerge(BaseMemory))
