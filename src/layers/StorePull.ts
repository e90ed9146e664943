/**
 * The shared dossier as one side of a transfer (src/layers/StoreTransfer.ts), and `pullInto`: the
 * copy of what it holds into this folder's view, by `dossier pull` (all of it) and after a bound
 * folder's writing command (the part the command touched, src/layers/bound/BoundBase.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { UsageError } from "../domain/CliErrors.js"
import { IoError } from "../domain/Errors.js"
import { type ViewParts, WHOLE_VIEW } from "../domain/StoreTransfer.js"
import type { FileStoreShape } from "../services/FileStore.js"
import { makeGateAttemptsFolder } from "./folder/GateAttemptsFolder.js"
import { makeMonitorFilesFolder } from "./folder/MonitorStoreFolder.js"
import { type AttemptsCopied, copyAttempts } from "./GateAttemptsTransfer.js"
import { makeCaptureStorePostgres, retainedBytes } from "./postgres/CaptureStorePostgres.js"
import { makeExecutionStorePostgres } from "./postgres/ExecutionStorePostgres.js"
import { makeGateAttemptsPostgres } from "./postgres/GateAttemptsPostgres.js"
import { makeGrantStorePostgres } from "./postgres/GrantStorePostgres.js"
import { makeJournalStorePostgres } from "./postgres/JournalStorePostgres.js"
import { makeMonitorStorePostgres } from "./postgres/MonitorStorePostgres.js"
import { makePgLock } from "./postgres/PgLock.js"
import { pgContentStore } from "./postgres/PgRecords.js"
import type { PgStoreShape } from "./postgres/PgStore.js"
import { makePlanStorePostgres } from "./postgres/PlanStorePostgres.js"
import { type StoreSide, transfer, type TransferReport } from "./StoreTransfer.js"

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

/**
 * The shared dossier as one side of a transfer (`init --store`'s import, `pull`, `export`): the
 * PostgreSQL adapters of the ports over `store`, this folder's files backed by the store's bytes
 * (`storeBackedFiles`, `content`), and one transaction per side as its lock.
 */
export const pgSide = (store: PgStoreShape, files: FileStoreShape): Effect.Effect<StoreSide, UsageError> =>
  Effect.succeed({
    plan: makePlanStorePostgres(store, files),
    captures: makeCaptureStorePostgres(store, files),
    journal: makeJournalStorePostgres(store),
    monitor: makeMonitorStorePostgres(store, { files: makeMonitorFilesFolder(files) }),
    grants: makeGrantStorePostgres(store),
    executions: makeExecutionStorePostgres(store),
    files: storeBackedFiles(store, files),
    lock: makePgLock(store),
    content: (sha256) =>
      Effect.mapError(
        pgContentStore(store).get(sha256),
        (e) => new IoError({ path: sha256, operation: "read from the shared store", code: e._tag })
      )
  })

/** A transfer's report with the attempts logs' copy: a log left as it was is listed as kept. */
export const withAttempts = (r: TransferReport, a: AttemptsCopied): TransferReport =>
  a.kept.length === 0 ? r : { ...r, kept: [...r.kept, ...a.kept] }

/**
 * Bring the folder side `to` up to what the shared dossier holds of `parts` (`dossier pull`: all
 * of it; a bound folder's command: the part it touched): a `refresh` transfer from the store, then
 * the gate's attempts logs (src/layers/GateAttemptsTransfer.ts) under the folder's lock.
 */
export const pullInto = (store: PgStoreShape, files: FileStoreShape, to: StoreSide, parts: ViewParts = WHOLE_VIEW) =>
  Effect.flatMap(pgSide(store, files), (from) => transfer(from, to, "refresh", parts)).pipe(
    Effect.flatMap((report) =>
      parts.attempts
        ? Effect.map(
          to.lock.withLock(copyAttempts(makeGateAttemptsPostgres(store), makeGateAttemptsFolder(to.files))),
          (attempts) => withAttempts(report, attempts)
        )
        : Effect.succeed(report)
    )
  )
