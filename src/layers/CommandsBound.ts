/**
 * Every service a command may use in a folder bound to a shared dossier (`.dossier/store.json`,
 * docs/store.md): the same logic as `CommandsLive(dir)` over the PostgreSQL adapters of the
 * storage ports (`postgresServices`, src/layers/DossierPostgres.ts), one transaction per command
 * as the `Lock`, and this host's folder for what is local — the files a command registers or
 * imports, the sandbox, the roots a grant names. Records are read from the store, never from the
 * local view.
 *
 * `refreshView` then brings the folder's view (plan.md, research/sources/, registered results,
 * the journals, the monitor's records, the grants and execution records) up to what the store
 * holds after a writing command, with
 * the folder's own lock, as `dossier pull` does: a local file that differs from the store's bytes
 * is kept and reported, never overwritten.
 *
 * Loaded only when the folder is bound (the CLI and the MCP server check for the binding file
 * first), so an unbound folder's commands never load the PostgreSQL driver.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { UsageError } from "../domain/CliErrors.js"
import { FileStore } from "../services/FileStore.js"
import { Workdir } from "../services/Workdir.js"
import type { CommandServices } from "./CommandsLive.js"
import { postgresServices } from "./DossierPostgres.js"
import { EvidenceKeyLive } from "./EvidenceKeyLive.js"
import { ExecLive } from "./ExecLive.js"
import { FileStoreLive } from "./FileStoreLive.js"
import { ExecFilesLive } from "./folder/ExecFilesLive.js"
import { GrantsLive } from "./GrantsLive.js"
import { ExecutionStorePostgres } from "./postgres/ExecutionStorePostgres.js"
import { GrantStorePostgres } from "./postgres/GrantStorePostgres.js"
import { PgLockLayer } from "./postgres/PgLock.js"
import { PgStore, PgStoreLayer } from "./postgres/PgStore.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { SourcesLive } from "./SourcesLive.js"
import { pullInto, readBinding } from "./StoreBinding.js"
import { folderSide, type TransferReport } from "./StoreTransfer.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

const NOT_BOUND =
  "this folder is not bound to a shared store; `dossier init --store <postgres-url> --dossier <name>` binds it"

/** This host's folder: its FileStore and the key that signs evidence. */
const local = (dir: string) => Layer.merge(FileStoreLive, EvidenceKeyLive).pipe(Layer.provideMerge(Workdir.live(dir)))

/** The store the folder's binding names, connected (a writer: the schema current, the dossier's row there). */
const boundStore = Layer.unwrapEffect(
  Effect.map(
    Effect.flatMap(FileStore, readBinding),
    Option.match({
      onNone: () => Layer.fail(new UsageError({ detail: NOT_BOUND })),
      onSome: (b) => PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url: b.url, dossier: b.dossier })))
    })
  )
)

/**
 * Grants and executions: the logic over the shared dossier's grant and execution stores (the
 * evidence is shared; a run in flight is its host's), with this host's `ExecFiles` (a grant's
 * roots, a run's outputs) and sandbox.
 */
const execServices = ExecLive.pipe(
  Layer.provideMerge(GrantsLive),
  Layer.provide(Layer.mergeAll(GrantStorePostgres, ExecutionStorePostgres, ExecFilesLive)),
  Layer.provideMerge(Layer.merge(WorkTreeLive, SandboxBwrap))
)

/** Every command's services over the shared dossier the folder `dir` is bound to. */
export const CommandsBound = (dir: string) => {
  const services = Layer.merge(SourcesLive, execServices).pipe(
    Layer.provideMerge(postgresServices),
    Layer.provideMerge(boundStore),
    Layer.provideMerge(local(dir))
  )
  // Every service an unbound folder's commands get, and nothing left to provide.
  const checked: Layer.Layer<CommandServices | PgStore, Layer.Layer.Error<typeof services>> = services
  return checked
}

/**
 * Bring the folder's view up to what the store holds (`pullInto`, as `dossier pull`), under the
 * folder's own lock (the command's `Lock` is the store's). Answers why when it could not.
 */
export const refreshView: Effect.Effect<Refreshed, never, PgStore | FileStore | Workdir> = Effect
  .gen(function*() {
    const store = yield* PgStore
    const files = yield* FileStore
    const { root } = yield* Workdir
    return yield* pullInto(store, files, yield* folderSide(root))
  }).pipe(
    Effect.scoped,
    Effect.map((report) => ({ refreshed: true as const, report })),
    Effect.catchAll((e) => Effect.succeed({ refreshed: false as const, reason: reasonOf(e) }))
  )

type Refreshed =
  | { readonly refreshed: true; readonly report: TransferReport }
  | { readonly refreshed: false; readonly reason: string }

const reasonOf = (e: { readonly _tag: string }): string => {
  const message = (e as { readonly message?: unknown }).message
  return typeof message === "string" && message !== "" ? `${e._tag}: ${message}` : e._tag
}
