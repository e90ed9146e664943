/**
 * `dossier exec …` in a bound folder: runs under grants over the shared dossier's grant,
 * execution and journal records; the sandbox, the run's outputs and its in-flight marker are this
 * host's.
 */
import * as Layer from "effect/Layer"
import type { ExecLayer } from "../ExecLayer.js"
import { ExecLive } from "../ExecLive.js"
import { JournalPostgres } from "../postgres/JournalStorePostgres.js"
import { SandboxBwrap } from "../SandboxBwrap.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"
import { ExecStoresOverStore, GrantsOverStore } from "./grant.bound.js"

/** `ExecLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof ExecLayer>>, BoundError> =>
  ExecLive.pipe(
    Layer.provide(ExecStoresOverStore),
    Layer.provideMerge(Layer.mergeAll(GrantsOverStore, JournalPostgres, SandboxBwrap)),
    Layer.provideMerge(BoundBase(dir, mode))
  )
