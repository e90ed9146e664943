/**
 * `dossier grant …` in a bound folder: grants over the shared dossier's grant and execution
 * records, with this host's `ExecFiles` (a grant's roots) and work tree.
 */
import * as Layer from "effect/Layer"
import { ExecFilesLive } from "../folder/ExecFilesLive.js"
import type { GrantsLayer } from "../GrantsLayer.js"
import { GrantsLive } from "../GrantsLive.js"
import { ExecutionStorePostgres } from "../postgres/ExecutionStorePostgres.js"
import { GrantStorePostgres } from "../postgres/GrantStorePostgres.js"
import { WorkTreeLive } from "../WorkTreeLive.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"

/** The stores grants and runs keep their records in, and this host's files. */
export const ExecStoresOverStore = Layer.mergeAll(GrantStorePostgres, ExecutionStorePostgres, ExecFilesLive)

/** Grants over the store, with the work tree. */
export const GrantsOverStore = GrantsLive.pipe(Layer.provide(ExecStoresOverStore), Layer.provideMerge(WorkTreeLive))

/** `GrantsLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof GrantsLayer>>, BoundError> =>
  GrantsOverStore.pipe(Layer.provideMerge(BoundBase(dir, mode)))
