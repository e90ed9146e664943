/** `dossier journal …` in a bound folder: the journal over the shared dossier's events. */
import * as Layer from "effect/Layer"
import type { JournalLayer } from "../JournalLayer.js"
import { JournalPostgres } from "../postgres/JournalStorePostgres.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"

/** `JournalLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof JournalLayer>>, BoundError> =>
  JournalPostgres.pipe(Layer.provideMerge(BoundBase(dir, mode)))
