/** `dossier gate` in a bound folder: the gate over the shared dossier's plan, attempts and capture logs. */
import * as Layer from "effect/Layer"
import type { GateLayer } from "../GateLayer.js"
import { GateFromStore } from "../GateLive.js"
import { CaptureStorePostgres } from "../postgres/CaptureStorePostgres.js"
import { GateAttemptsPostgres } from "../postgres/GateAttemptsPostgres.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"
import { PlanOverStore } from "./plan.bound.js"

/** `GateLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof GateLayer>>, BoundError> =>
  GateFromStore.pipe(
    Layer.provide(Layer.merge(GateAttemptsPostgres, CaptureStorePostgres)),
    Layer.provideMerge(PlanOverStore),
    Layer.provideMerge(BoundBase(dir, mode))
  )
