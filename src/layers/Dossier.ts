/**
 * Every service over one work folder (`DossierLive(dir)`) or one in-memory tree
 * (`DossierMemory`): Plan, Journal, Gate, Monitor and Ingest sharing one FileStore and one
 * Lock (so a Gate run and a Plan checkpoint exclude each other), with those provided as well.
 */
import * as Layer from "effect/Layer"
import type { WorkdirNotFound } from "../domain/Errors.js"
import type { FileStore } from "../services/FileStore.js"
import type { Gate } from "../services/Gate.js"
import type { Ingest } from "../services/Ingest.js"
import type { Journal } from "../services/Journal.js"
import type { Lock } from "../services/Lock.js"
import type { Plan } from "../services/Plan.js"
import type { SafeHttp } from "../services/SafeHttp.js"
import type { Monitor } from "../services/Monitor.js"
import { Workdir } from "../services/Workdir.js"
import { BaseLive, BaseMemory } from "./Base.js"
import { GateLive } from "./GateLive.js"
import { IngestLive } from "./IngestLive.js"
import { JournalLive } from "./JournalLive.js"
import { PlanLive } from "./PlanLive.js"
import { SafeHttpLive } from "./SafeHttpLive.js"
import { MonitorLive } from "./MonitorLive.js"

/** The services `DossierMemory` provides (`DossierLive` adds `Workdir`). */
export type Dossier = Plan | Journal | Gate | Monitor | Ingest | SafeHttp | FileStore | Lock

const services = Layer.mergeAll(GateLive, IngestLive).pipe(Layer.provideMerge(Layer.mergeAll(PlanLive, JournalLive, MonitorLive)))

/**
 * Every service over the given store and lock and the given network layer. `ingest --file`
 * names its file relative to a work folder: over an in-memory store that is a fixed root that
 * never touches the disk.
 */
export const dossierOver = <E, R>(
  base: Layer.Layer<FileStore | Lock, E, R>,
  http: Layer.Layer<SafeHttp> = SafeHttpLive
): Layer.Layer<Dossier, E, R> =>
  services.pipe(Layer.provideMerge(http), Layer.provideMerge(base), Layer.provide(Workdir.fixed("/dossier-memory")))

/** Every service over the work folder `dir` (it must exist). Fetches go through `SafeHttpLive`. */
export const DossierLive = (dir: string): Layer.Layer<Dossier | Workdir, WorkdirNotFound> =>
  services.pipe(Layer.provideMerge(SafeHttpLive), Layer.provideMerge(BaseLive(dir)))

/**
 * Every service over one in-memory tree, built afresh each time the layer is provided. Fetches
 * still go through `SafeHttpLive` (the network); use `dossierOver(BaseMemory, SafeHttpTest(…))`
 * to keep them on a test server.
 */
export const DossierMemory: Layer.Layer<Dossier> = dossierOver(BaseMemory)
