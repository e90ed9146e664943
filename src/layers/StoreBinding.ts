/**
 * A folder's binding to a shared store (`.dossier/store.json`, src/domain/StoreBinding.ts): read
 * and written through the folder's FileStore (durably: write-temp, fsync, rename, fsync the
 * directory), and what the commands ask of the store it names (src/layers/postgres/); the copies
 * between the store and a folder are ./StorePull.ts.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { LockTimeout } from "../domain/Errors.js"
import { bindingText, parseBinding, STORE_FILE, type StoreBinding } from "../domain/StoreBinding.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"
import type { FileStoreShape } from "../services/FileStore.js"
import { dossierExists, dossierHasState, SCHEMA_VERSION, storedVersion } from "./postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreShape } from "./postgres/PgStore.js"

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
