/** The layer `dossier gate` uses: the gate over the folder's attempts logs, and the plan it reads. */
import * as Layer from "effect/Layer"
import { GateLive } from "./GateLive.js"
import { PlanLayer } from "./PlanLayer.js"

export const GateLayer = (dir: string) => GateLive.pipe(Layer.provideMerge(PlanLayer(dir)))
