/**
 * Every service of a shared dossier (`DossierPostgres({url, dossier, workdir})`): the same logic
 * as `DossierLive(dir)` (src/layers/Dossier.ts) over the PostgreSQL adapters of the storage
 * ports, with one transaction per command as the `Lock` (`PgLockLayer`). The store holds the
 * records and the bytes; `workdir` is this host's folder, where the files a command registers
 * or imports are read (a checkpoint's sources, an artifact, `ingest --file`) and where the
 * monitor's stage files are bound from. Nothing here writes the folder's view (plan.md,
 * research/sources/, journals): that is `pull`'s work (docs/store.md).
 *
 * Building the layer connects once and checks (a writer: creates or migrates) the schema, so a
 * server that cannot be reached is `StoreUnavailable` there, a newer schema `StoreTooNew`, and a
 * malformed URL or dossier name `UsageError`. Grants and execution records are not part of
 * `Dossier`, as with `DossierLive`; a bound folder's commands add them (src/layers/CommandsBound.ts).
 */
import * as Layer from "effect/Layer"
import { UsageError } from "../domain/CliErrors.js"
import type { LockTimeout, WorkdirNotFound } from "../domain/Errors.js"
import type { StoreTooNew, StoreUnavailable } from "../domain/StoreErrors.js"
import { Workdir } from "../services/Workdir.js"
import type { Dossier } from "./Dossier.js"
import { EvidenceKeyLive } from "./EvidenceKeyLive.js"
import { FileStoreLive } from "./FileStoreLive.js"
import { MonitorFilesFolder } from "./folder/MonitorStoreFolder.js"
import { WarcWriterLive } from "./folder/WarcWriter.js"
import { GateFromStore } from "./GateLive.js"
import { IngestLive } from "./IngestLive.js"
import { MonitorFromStore } from "./MonitorLive.js"
import { PlanLive } from "./PlanLive.js"
import { CaptureStorePostgres } from "./postgres/CaptureStorePostgres.js"
import { GateAttemptsPostgres } from "./postgres/GateAttemptsPostgres.js"
import { JournalPostgres } from "./postgres/JournalStorePostgres.js"
import { MonitorStorePostgres } from "./postgres/MonitorStorePostgres.js"
import { PgLockLayer } from "./postgres/PgLock.js"
import { optionsProblem, PgStoreLayer, type PgStoreOptions } from "./postgres/PgStore.js"
import { PlanStorePostgres } from "./postgres/PlanStorePostgres.js"
import { SafeHttpLive } from "./SafeHttpLive.js"

export interface DossierPostgresOptions extends PgStoreOptions {
  /** This host's work folder (it must exist). */
  readonly workdir: string
}

/**
 * The services of a shared dossier over the PgStore, Lock (one transaction per command), FileStore
 * and Workdir of the context: the PostgreSQL adapters of the ports, the same logic as the folder's.
 */
export const postgresServices = Layer.mergeAll(GateFromStore, IngestLive).pipe(
  Layer.provideMerge(Layer.mergeAll(PlanLive, JournalPostgres, MonitorFromStore)),
  Layer.provideMerge(
    Layer.mergeAll(
      PlanStorePostgres,
      CaptureStorePostgres,
      GateAttemptsPostgres,
      WarcWriterLive,
      MonitorStorePostgres.pipe(Layer.provideMerge(MonitorFilesFolder))
    )
  ),
  Layer.provideMerge(SafeHttpLive)
)

/**
 * Every service of the shared dossier `options.dossier` on the server `options.url`. Its type
 * names only what a program can import (the store's own tags stay internal).
 */
export const DossierPostgres = (
  options: DossierPostgresOptions
): Layer.Layer<Dossier | Workdir, WorkdirNotFound | UsageError | StoreUnavailable | StoreTooNew | LockTimeout> => {
  // From JavaScript the options may be missing: refused as the URL's problems are, not thrown.
  const problem = optionsProblem(options)
  if (problem !== null) return Layer.fail(new UsageError({ detail: problem }))
  const local = Layer.merge(FileStoreLive, EvidenceKeyLive).pipe(Layer.provideMerge(Workdir.live(options.workdir)))
  const store = PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer(options)))
  return postgresServices.pipe(Layer.provideMerge(store), Layer.provideMerge(local))
}
