/**
 * What the commands that manage a folder's binding to a shared store ask of the store it names
 * (src/layers/postgres/). The binding itself (`.dossier/store.json`) is read and written by
 * ./BindingFile.ts, which loads nothing of PostgreSQL; the copies between the store and a folder
 * are ./StorePull.ts.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { LockTimeout } from "../domain/Errors.js"
import { StoreUnavailable } from "../domain/StoreErrors.js"
import {
  dossierExists,
  dossierHasState,
  SCHEMA_NOT_CURRENT,
  SCHEMA_VERSION,
  storedVersion
} from "./postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreShape } from "./postgres/PgStore.js"

/**
 * Run `f` over a connection to the shared dossier (`write`: the schema created or migrated and
 * the dossier's row created; `read`: nothing written). Refusals: `UsageError` (a malformed URL or
 * name), `StoreUnavailable`, `StoreTooNew`, `LockTimeout`. A reader that finds a store without
 * this version's schema (none, or an older one) is `StoreUnavailable` saying that a writer
 * creates or migrates it, before `f` reads a table that is not there, unless `anySchema` (`f`
 * reads the version itself: `store status`, or decides to connect again as a writer).
 */
export const withStore = <A, E>(
  url: string,
  dossier: string,
  mode: "read" | "write",
  f: (store: PgStoreShape) => Effect.Effect<A, E>,
  options: { readonly anySchema?: boolean } = {}
) =>
  Effect.scoped(
    Effect.flatMap(
      Layer.build(PgStoreLayer({ url, dossier, mode })),
      (context) =>
        Effect.flatMap(Effect.provide(PgStore, context), (store): Effect.Effect<A, E | StoreUnavailable> =>
          store.schemaCurrent || options.anySchema === true
            ? f(store)
            : Effect.fail(new StoreUnavailable({ reason: SCHEMA_NOT_CURRENT })))
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
