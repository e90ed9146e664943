/** The layer the plan commands use: Plan over the base (work folder, FileStore, Lock). */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { PlanLive } from "./PlanLive.js"

export const PlanLayer = (dir: string) => PlanLive.pipe(Layer.provideMerge(BaseLive(dir)))
