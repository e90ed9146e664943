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
import type { Monitor } from "../services/Monitor.js"
import type { Plan } from "../services/Plan.js"
import type { CaptureStore, WarcWriter } from "../services/ports/CaptureStore.js"
import type { PlanStore } from "../services/ports/PlanStore.js"
import type { SafeHttp } from "../services/SafeHttp.js"
import { Workdir } from "../services/Workdir.js"
import { BaseLive, BaseMemory } from "./Base.js"
import { CaptureStoreFolder } from "./folder/CaptureStoreFolder.js"
import { GateAttemptsFolder } from "./folder/GateAttemptsFolder.js"
import { PlanStoreFolder } from "./folder/PlanStoreFolder.js"
import { WarcWriterLive } from "./folder/WarcWriter.js"
import { GateFromStore } from "./GateLive.js"
import { IngestLive } from "./IngestLive.js"
import { JournalLive } from "./JournalLive.js"
import { PlanStoreMemory } from "./memory/PlanStoreMemory.js"
import { MonitorLive } from "./MonitorLive.js"
import { PlanLive } from "./PlanLive.js"
import { SafeHttpLive } from "./SafeHttpLive.js"

/** The services `DossierMemory` provides (`DossierLive` adds `Workdir`). */
export type Dossier = Plan | Journal | Gate | Monitor | Ingest | SafeHttp | FileStore | Lock

/**
 * Every service over the given storage ports (whatever they need besides is left to provide): the
 * gate reads the capture log ingest writes.
 */
const servicesOver = <R>(ports: Layer.Layer<PlanStore | CaptureStore | WarcWriter, never, R>) =>
  Layer.mergeAll(GateFromStore.pipe(Layer.provide(GateAttemptsFolder)), IngestLive).pipe(
    Layer.provideMerge(Layer.mergeAll(PlanLive, JournalLive, MonitorLive)),
    Layer.provide(ports)
  )

/** The folder's adapters of the storage ports (over the FileStore given). */
const services = servicesOver(Layer.mergeAll(PlanStoreFolder, CaptureStoreFolder, WarcWriterLive))

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
 * Every service over the memory adapters of the storage ports (the plan record in memory) and
 * one in-memory tree, built afresh each time the layer is provided. The capture log stays in the
 * tree (the folder's CaptureStore over it): the gate reads it there to tell fetched bytes from
 * imported ones. Fetches still go through
 * `SafeHttpLive` (the network); use `dossierOver(BaseMemory, SafeHttpTest(…))` to keep them on a
 * test server (the folder's adapters over the in-memory tree).
 */
export const DossierMemory: Layer.Layer<Dossier> = servicesOver(
  Layer.mergeAll(PlanStoreMemory, CaptureStoreFolder, WarcWriterLive)
).pipe(
  Layer.provideMerge(SafeHttpLive),
  Layer.provideMerge(BaseMemory),
  Layer.provide(Workdir.fixed("/dossier-memory"))
)
