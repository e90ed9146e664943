/**
 * Every service a command may use in a folder bound to a shared dossier (`.dossier/store.json`,
 * docs/store.md), at once: what the MCP server, which serves every command, builds when it starts
 * in a bound folder. The same logic as `CommandsLive(dir)` over the PostgreSQL adapters of the
 * storage ports (`postgresServices`, src/layers/DossierPostgres.ts), one transaction per command
 * as the `Lock`, and this host's folder for what is local — the files a command registers or
 * imports, the sandbox, the roots a grant names (./bound/BoundBase.ts). Records are read from the
 * store, never from the local view. The CLI builds only the services of the command's group
 * (./bound/<group>.bound.ts).
 *
 * Loaded only when the folder is bound (the CLI and the MCP server check for the binding file
 * first), so an unbound folder's commands never load the PostgreSQL driver.
 */
import * as Layer from "effect/Layer"
import { BoundBase, type StoreMode } from "./bound/BoundBase.js"
import { ExecStoresOverStore, GrantsOverStore } from "./bound/grant.bound.js"
import type { CommandServices } from "./CommandsLive.js"
import { postgresServices } from "./DossierPostgres.js"
import { ExecLive } from "./ExecLive.js"
import { HeldContentPostgres } from "./postgres/HeldContentPostgres.js"
import type { PgStore } from "./postgres/PgStore.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { SourcesLive } from "./SourcesLive.js"

/**
 * Grants and executions: the logic over the shared dossier's grant and execution stores (the
 * evidence is shared; a run in flight is its host's), with this host's `ExecFiles` (a grant's
 * roots, a run's outputs) and sandbox.
 */
const execServices = ExecLive.pipe(
  Layer.provide(ExecStoresOverStore),
  Layer.provideMerge(GrantsOverStore),
  Layer.provideMerge(SandboxBwrap)
)

/**
 * Every command's services over the shared dossier the folder `dir` is bound to. A server that
 * serves writing tools connects as a writer; one that offers only reading tools (`dossier mcp
 * --read-only`) as a reader, which sends no write (it works under a role with SELECT only, and a
 * dossier the store does not hold yet reads as an empty one instead of being created).
 */
export const CommandsBound = (dir: string, mode: StoreMode = "write") => {
  // Sources read a file this folder lacks or holds otherwise from the store's bytes.
  const services = Layer.merge(SourcesLive.pipe(Layer.provide(HeldContentPostgres)), execServices).pipe(
    Layer.provideMerge(postgresServices),
    Layer.provideMerge(BoundBase(dir, mode))
  )
  // Every service an unbound folder's commands get, and nothing left to provide.
  const checked: Layer.Layer<CommandServices | PgStore, Layer.Layer.Error<typeof services>> = services
  return checked
}
