/** `dossier source …` in a bound folder: the retained sources over the shared dossier's capture log and plan. */
import * as Layer from "effect/Layer"
import { CaptureStorePostgres } from "../postgres/CaptureStorePostgres.js"
import { HeldContentPostgres } from "../postgres/HeldContentPostgres.js"
import type { SourcesLayer } from "../SourcesLayer.js"
import { SourcesLive } from "../SourcesLive.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"
import { PlanOverStore } from "./plan.bound.js"

/** `SourcesLayer`'s services over the store: a file this folder lacks or holds otherwise is read from the store's bytes. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof SourcesLayer>>, BoundError> =>
  SourcesLive.pipe(
    Layer.provide(Layer.merge(CaptureStorePostgres, HeldContentPostgres)),
    Layer.provideMerge(PlanOverStore),
    Layer.provideMerge(BoundBase(dir, mode))
  )
