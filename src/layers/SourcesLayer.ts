/** The layer `dossier source …` uses: the retained sources over the folder's capture log, and the plan. */
import * as Layer from "effect/Layer"
import { CaptureStoreFolder } from "./folder/CaptureStoreFolder.js"
import { PlanLayer } from "./PlanLayer.js"
import { SourcesLive } from "./SourcesLive.js"

export const SourcesLayer = (dir: string) =>
  SourcesLive.pipe(Layer.provide(CaptureStoreFolder), Layer.provideMerge(PlanLayer(dir)))
