/** `dossier status` in a bound folder: what `next` reads, and the grants, over the shared dossier. */
import * as Layer from "effect/Layer"
import type { StatusLayer } from "../StatusLayer.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"
import { GrantsOverStore } from "./grant.bound.js"
import { NextOverStore } from "./monitor.bound.js"

/** `StatusLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof StatusLayer>>, BoundError> =>
  Layer.merge(NextOverStore, GrantsOverStore).pipe(Layer.provideMerge(BoundBase(dir, mode)))
