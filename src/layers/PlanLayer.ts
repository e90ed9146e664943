/** The layer the plan commands use: Plan over plan.md in the base (work folder, FileStore, Lock). */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { PlanFolder } from "./folder/PlanStoreFolder.js"

export const PlanLayer = (dir: string) => PlanFolder.pipe(Layer.provideMerge(BaseLive(dir)))
