/**
 * A folder's binding to a shared store (`.dossier/store.json`, src/domain/StoreBinding.ts): read
 * and written through the folder's FileStore (durably: write-temp, fsync, rename, fsync the
 * directory), and what the commands ask of the store it names (src/layers/postgres/).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type UsageError } from "../domain/CliErrors.js"
import { IoError, type LockTimeout } from "../domain/Errors.js"
import { bindingText, parseBinding, STORE_FILE, type StoreBinding } from "../domain/StoreBinding.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"
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
import { dossierExists, dossierHasState, SCHEMA_VERSION, storedVersion } from "./postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreShape } from "./postgres/PgStore.js"
import { makePlanStorePostgres } from "./postgres/PlanStorePostgres.js"
import { type StoreSide, transfer, type TransferReport } from "./StoreTransfer.js"

/** The folder's binding; None when it is unbound (no `.dossier/store.json`). */
export const readBinding = (files: FileStoreShape) =>
  files.readText(STORE_FILE, { maxBytes: 64 * 1024 }).pipe(
    Effect.map(Option.some),
    Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>())),
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed(Option.none<StoreBinding>()),
      onSome: (text) =>
        Either.match(parseBinding(text), { onLeft: Effect.fail, onRight: (b) => Effect.succeed(Option.some(b)) })
    }))
  )

/** Write the binding (the URL already without its password). */
export const writeBinding = (files: FileStoreShape, binding: StoreBinding) =>
  files.writeAtomic(STORE_FILE, bindingText(binding))

/**
 * Run `f` over a connection to the shared dossier (`write`: the schema created or migrated and
 * the dossier's row created; `read`: nothing written). Refusals: `UsageError` (a malformed URL or
 * name), `StoreUnavailable`, `StoreTooNew`, `LockTimeout`.
 */
export const withStore = <A, E>(
  url: string,
  dossier: string,
  mode: "read" | "write",
  f: (store: PgStoreShape) => Effect.Effect<A, E>
) =>
  Effect.scoped(
    Effect.flatMap(
      Layer.build(PgStoreLayer({ url, dossier, mode })),
      (context) => Effect.flatMap(Effect.provide(PgStore, context), f)
    )
  )

/** What `store status` tells of a reachable store. */
export interface StoreState {
  readonly schema: { readonly version: number; readonly supported: number }
  readonly exists: boolean
  readonly hasState: boolean
}

/** The store's schema version, and whether the dossier exists and holds state (reads only). */
export const stateOf = (store: PgStoreShape): Effect.Effect<StoreState, StoreUnavailable | LockTimeout> =>
  store.mapErrors(Effect.gen(function*() {
    const version = yield* storedVersion(store.sql)
    const exists = version === 0 ? false : yield* dossierExists(store.sql, store.config.dossier)
    const hasState = exists && (yield* dossierHasState(store.sql, store.config.dossier))
    return { schema: { version, supported: SCHEMA_VERSION }, exists, hasState }
  }))

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
 * Bring the folder side `to` up to what the shared dossier holds (`dossier pull`, and a bound
 * folder's view after a writing command): a `refresh` transfer from the store, then the gate's
 * attempts logs (src/layers/GateAttemptsTransfer.ts) under the folder's lock.
 */
export const pullInto = (store: PgStoreShape, files: FileStoreShape, to: StoreSide) =>
  Effect.flatMap(pgSide(store, files), (from) => transfer(from, to, "refresh")).pipe(
    Effect.flatMap((report) =>
      Effect.map(
        to.lock.withLock(copyAttempts(makeGateAttemptsPostgres(store), makeGateAttemptsFolder(to.files))),
        (attempts) => withAttempts(report, attempts)
      )
    )
  )
