/** `dossier plan …` in a bound folder: the plan over the shared dossier's plan record. */
import * as Layer from "effect/Layer"
import type { PlanLayer } from "../PlanLayer.js"
import { PlanLive } from "../PlanLive.js"
import { PlanStorePostgres } from "../postgres/PlanStorePostgres.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"

/** The plan over the store. */
export const PlanOverStore = PlanLive.pipe(Layer.provide(PlanStorePostgres))

/** `PlanLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof PlanLayer>>, BoundError> =>
  PlanOverStore.pipe(Layer.provideMerge(BoundBase(dir, mode)))
