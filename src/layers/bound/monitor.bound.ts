/**
 * `dossier monitor …` and `dossier next` in a bound folder: the monitor over the shared dossier's
 * records (its stage files are this host's), with the plan and the journals it reads.
 */
import * as Layer from "effect/Layer"
import { MonitorFilesFolder } from "../folder/MonitorStoreFolder.js"
import { MonitorFromStore } from "../MonitorLive.js"
import type { NextLayer } from "../NextLayer.js"
import { JournalPostgres } from "../postgres/JournalStorePostgres.js"
import { MonitorStorePostgres } from "../postgres/MonitorStorePostgres.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"
import { PlanOverStore } from "./plan.bound.js"

/** The monitor, the plan and the journals over the store. */
export const NextOverStore = Layer.mergeAll(
  MonitorFromStore.pipe(Layer.provide(MonitorStorePostgres), Layer.provide(MonitorFilesFolder)),
  PlanOverStore,
  JournalPostgres
)

/** `NextLayer`'s services (a superset of `MonitorLayer`'s) over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof NextLayer>>, BoundError> =>
  NextOverStore.pipe(Layer.provideMerge(BoundBase(dir, mode)))
