/**
 * The shared dossier as one side of a transfer (src/layers/StoreTransfer.ts), and `pullInto`: the
 * copy of what it holds into this folder's view, by `dossier pull` (all of it) and after a bound
 * folder's writing command (the part the command touched, src/layers/bound/BoundBase.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { UsageError } from "../domain/CliErrors.js"
import { IoError } from "../domain/Errors.js"
import { ALL_PARTS, type TransferParts, type ViewParts, WHOLE_VIEW } from "../domain/StoreTransfer.js"
import type { FileStoreShape } from "../services/FileStore.js"
import type { AttemptsCopied } from "./GateAttemptsTransfer.js"
import { planViewOf } from "./PlanViewFile.js"
import { retainedBytes } from "./postgres/CaptureStorePostgres.js"
import { makePgLock } from "./postgres/PgLock.js"
import { pgContentStore } from "./postgres/PgRecords.js"
import type { PgStoreShape } from "./postgres/PgStore.js"
import { type PortLoaders, type StoreSide, transfer, type TransferReport, unusedPort } from "./StoreTransfer.js"

/**
 * This folder's files as a shared dossier's side sees them: the folder's own first, and a
 * retained file (a capture's original, readable copy or WARC) the folder lacks is read from the
 * store's bytes, so that `pull` and `export` bring captures to a host that never made them. Other
 * registered files (outputs, artifacts, stage files) come from the store's content by their
 * digest when the folder lacks them (`pgSide`'s `content`). Writes go to the folder.
 */
const storeBackedFiles = (store: PgStoreShape, files: FileStoreShape): FileStoreShape => ({
  ...files,
  read: (path, options) =>
    files.read(path, options).pipe(
      Effect.catchTag("FileNotFound", (missing) =>
        Effect.flatMap(
          // A store that cannot be read is the read's failure (the transfer stops, nothing half-written).
          Effect.mapError(
            retainedBytes(store, path),
            (e) => new IoError({ path, operation: "read from the shared store", code: e._tag })
          ),
          Option.match({ onNone: () => Effect.fail(missing), onSome: (data) => Effect.succeed(data) })
        ))
    )
})

/** The PostgreSQL adapter of each port over `store` (loaded when its part is copied). */
const pgPorts = (store: PgStoreShape, files: FileStoreShape): PortLoaders<unknown> => ({
  plan: () => import("./postgres/PlanStorePostgres.js").then((m) => m.makePlanStorePostgres(store, files)),
  captures: () => import("./postgres/CaptureStorePostgres.js").then((m) => m.makeCaptureStorePostgres(store, files)),
  journals: () => import("./postgres/JournalStorePostgres.js").then((m) => m.makeJournalStorePostgres(store)),
  monitor: () =>
    Promise.all([import("./postgres/MonitorStorePostgres.js"), import("./folder/MonitorStoreFolder.js")]).then((
      [m, f]
    ) => m.makeMonitorStorePostgres(store, { files: f.makeMonitorFilesFolder(files) })),
  grants: () => import("./postgres/GrantStorePostgres.js").then((m) => m.makeGrantStorePostgres(store)),
  executions: () => import("./postgres/ExecutionStorePostgres.js").then((m) => m.makeExecutionStorePostgres(store))
})

/**
 * The shared dossier as one side of a transfer (`init --store`'s import, `pull`, `export`): the
 * PostgreSQL adapters of the ports of `parts` (all by default; the others `unusedPort`) over
 * `store`, this folder's files backed by the store's bytes (`storeBackedFiles`, `content`), and
 * one transaction per side as its lock.
 */
export const pgSide = (
  store: PgStoreShape,
  files: FileStoreShape,
  parts: TransferParts = ALL_PARTS
): Effect.Effect<StoreSide, UsageError> =>
  Effect.map(Effect.promise(() => loadPorts(pgPorts(store, files), parts)), (ports) => ({
    plan: ports.plan as StoreSide["plan"],
    captures: ports.captures as StoreSide["captures"],
    journal: ports.journals as StoreSide["journal"],
    monitor: ports.monitor as StoreSide["monitor"],
    grants: ports.grants as StoreSide["grants"],
    executions: ports.executions as StoreSide["executions"],
    files: storeBackedFiles(store, files),
    lock: makePgLock(store),
    content: (sha256) =>
      Effect.mapError(
        pgContentStore(store).get(sha256),
        (e) => new IoError({ path: sha256, operation: "read from the shared store", code: e._tag })
      ),
    keep: (data) => Effect.asVoid(pgContentStore(store).put(data))
  }))

/** Each port of `parts` loaded; the others `unusedPort`. */
const loadPorts = async (loaders: PortLoaders<unknown>, parts: TransferParts) => {
  const load = (part: keyof TransferParts) => (parts[part] ? loaders[part]() : Promise.resolve(unusedPort(part)))
  const [plan, captures, journals, monitor, grants, executions] = await Promise.all([
    load("plan"),
    load("captures"),
    load("journals"),
    load("monitor"),
    load("grants"),
    load("executions")
  ])
  return { plan, captures, journals, monitor, grants, executions }
}

/**
 * A transfer's report with the attempts logs' copy: a log left as it was is listed as kept, one
 * at a path no log may have as skipped.
 */
export const withAttempts = (r: TransferReport, a: AttemptsCopied): TransferReport =>
  a.kept.length === 0 && a.skipped.length === 0 ?
    r :
    { ...r, kept: [...r.kept, ...a.kept], skipped: [...r.skipped, ...a.skipped] }

/**
 * Bring the folder side `to` up to what the shared dossier holds of `parts` (`dossier pull`: all
 * of it; a bound folder's command: the part it touched): a `refresh` transfer from the store (a
 * plan.md edited here is kept: `planView`), then the gate's attempts logs
 * (src/layers/GateAttemptsTransfer.ts) under the folder's lock.
 */
export const pullInto = (store: PgStoreShape, files: FileStoreShape, to: StoreSide, parts: ViewParts = WHOLE_VIEW) =>
  Effect.flatMap(
    pgSide(store, files, parts),
    (from) => transfer(from, { ...to, planView: planViewOf(to.files) }, "refresh", parts)
  ).pipe(
    Effect.flatMap((report) =>
      parts.attempts ? Effect.map(copyAttemptsInto(store, to), (a) => withAttempts(report, a)) : Effect.succeed(report)
    )
  )

/** The gate's attempts logs from the store into the folder side `to`, under its lock. */
const copyAttemptsInto = (store: PgStoreShape, to: StoreSide) =>
  Effect.flatMap(
    Effect.promise(() =>
      Promise.all([
        import("./GateAttemptsTransfer.js"),
        import("./postgres/GateAttemptsPostgres.js"),
        import("./folder/GateAttemptsFolder.js")
      ])
    ),
    ([t, pg, folder]) =>
      to.lock.withLock(t.copyAttempts(pg.makeGateAttemptsPostgres(store), folder.makeGateAttemptsFolder(to.files)))
  )
