/**
 * A command in a folder bound to a shared dossier (docs/store.md): the same work over the shared
 * dossier's services instead of the folder's, and, after a command that writes, the part of the
 * folder's view it touched refreshed from the store (`dossier pull` refreshes all of it). Loaded
 * only when the folder is bound (`isBoundFolder`, ./Cwd.ts), by the CLI (src/cli/main.ts) and the
 * MCP server (src/mcp/Server.ts).
 *
 * Each command group's services over the store are their own module
 * (src/layers/bound/<group>.bound.ts, loaded when a command of the group runs), so that a command
 * loads and builds only what it uses, as it does in a plain folder; the CLI's bundle of a group
 * keeps its own (src/cli/Bundles.ts). The MCP server, which serves every command, builds them all
 * at once (src/layers/CommandsBound.ts).
 *
 * The commands that manage the binding itself (`init`, `store status`, `pull`, `export`), `schema`
 * (which reads nothing) and `mcp` (which binds its services itself) run as they are
 * (`runsOnStore`, ./Cwd.ts).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { placedIn } from "../domain/Place.js"
import { BindingRefused } from "../domain/StoreErrors.js"
import { type ViewNote, viewNote } from "../domain/ViewNote.js"
import { readBindingIn } from "../layers/BindingFile.js"
import { type BoundError, refreshView, type StoreMode, touchedParts } from "../layers/bound/BoundBase.js"
import { refusedByServer } from "../layers/postgres/PgErrors.js"
import { PgStore as PgStoreTag } from "../layers/postgres/PgStore.js"
import type { PgStore } from "../layers/postgres/PgStore.js"
import type { EvidenceKey } from "../services/EvidenceKey.js"
import type { FileStore } from "../services/FileStore.js"
import type { Workdir } from "../services/Workdir.js"
import { type CommandSpec, modeOf, toolName } from "./Spec.js"
import { TOOL_HINTS } from "./ToolHints.js"
import { type AnyWork, type CommandFailure, work } from "./Work.js"

/** A command group's services over the store (each module's `layer`). */
interface BoundGroup {
  readonly layer: (dir: string, mode: StoreMode) => Layer.Layer<any, BoundError>
}

/** The module of each command's group, by the command's first word. */
const GROUPS: Readonly<Record<string, () => Promise<BoundGroup>>> = {
  plan: () => import("../layers/bound/plan.bound.js"),
  status: () => import("../layers/bound/status.bound.js"),
  journal: () => import("../layers/bound/journal.bound.js"),
  monitor: () => import("../layers/bound/monitor.bound.js"),
  next: () => import("../layers/bound/monitor.bound.js"),
  grant: () => import("../layers/bound/grant.bound.js"),
  exec: () => import("../layers/bound/exec.bound.js"),
  gate: () => import("../layers/bound/gate.bound.js"),
  source: () => import("../layers/bound/source.bound.js"),
  ingest: () => import("../layers/bound/ingest.bound.js")
}

/** The command words that have a group over the store (test/cli/bundles.test.ts checks them against the table). */
export const BOUND_WORDS: ReadonlyArray<string> = Object.keys(GROUPS)

/**
 * Whether the command line (`spec` with its `values`) may write: the MCP tool it amounts to is not
 * read-only (`monitor unresolved-outcomes` is `monitor_unresolved_outcomes`, `gate --recheck` is
 * `gate_recheck`, as the MCP server names them). One that writes connects as a writer and its
 * view is refreshed after it.
 */
export const writes = (spec: CommandSpec, values: Readonly<Record<string, unknown>>): boolean =>
  TOOL_HINTS[toolName(spec, modeOf(spec, values))]?.readOnly !== true

/**
 * Refresh the part of the view the command `path` touched. The command's answer stands either way
 * (its write is committed in the store); a view that could not be refreshed, or a file kept (a
 * plan.md edited here, src/layers/PlanViewFile.ts), is answered as a `ViewNote`
 * (src/domain/ViewNote.ts), null when there is nothing to say.
 */
export const refreshNote = (
  path: ReadonlyArray<string>
): Effect.Effect<ViewNote | null, never, PgStore | FileStore | Workdir | EvidenceKey> =>
  Effect.map(
    refreshView(touchedParts(path[0] ?? "")),
    (r) => viewNote(r.refreshed ? { kept: r.report.kept } : { failed: r.reason })
  )

/**
 * `refreshNote`, its note said on stderr (the command line's answer on stdout is the command's;
 * the MCP server also carries it in the answer's `view`, src/mcp/Tools.ts).
 */
export const refreshAfter = (
  path: ReadonlyArray<string>
): Effect.Effect<ViewNote | null, never, PgStore | FileStore | Workdir | EvidenceKey> =>
  Effect.tap(refreshNote(path), (note) =>
    note === null ? Effect.void : Effect.sync(() => {
      process.stderr.write(`dossier: ${note.note}\n`)
    }))

/**
 * A refusal of the command `path` as the shared dossier `dossier` answers it: a record it lacks is
 * said to be missing there (`placedIn`, src/domain/Place.ts), not in the folder; a statement the
 * server refused for the role's privileges (SQLSTATE 42501: a read-only role and a writing
 * command), a connection it refused for the credentials (28P01, 28000) or to a database it does
 * not have (3D000) is `BindingRefused` (reason `privilege`, `credentials`, `no-database`; not
 * retryable), not `StoreUnavailable` (`refusedByServer`, src/layers/postgres/PgErrors.ts).
 */
export const boundRefusal = (dossier: string, path: ReadonlyArray<string>) => <E>(e: E): E | BindingRefused => {
  const refused = refusedByServer(path.join(" "), dossier)(e)
  return refused instanceof BindingRefused ? refused : placedIn(dossier)(e)
}

const boundRefusals =
  (path: ReadonlyArray<string>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | BindingRefused, R | PgStore> =>
    Effect.catchAll(
      self,
      (e) => Effect.flatMap(PgStoreTag, (store) => Effect.fail(boundRefusal(store.config.dossier, path)(e)))
    )

/**
 * A failure to build the services of the folder `workdir` (to connect) as the command `path`
 * answers it: the server refusing the credentials or naming no such database is `BindingRefused`
 * for the dossier the folder's binding names (`refusedByServer`), as a statement it refuses is.
 * The binding is read again (`readBindingIn`, the one reader) only for such a refusal; any other
 * failure is left as it is.
 */
export const refusedConnecting =
  (workdir: string, path: ReadonlyArray<string>) =>
  <A, E, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E | BindingRefused, R> =>
    Layer.catchAll(layer, (e) =>
      Layer.unwrapEffect(
        readBindingIn(workdir).pipe(
          Effect.map(Option.match({
            onNone: () => e,
            onSome: (b): E | BindingRefused => refusedByServer(path.join(" "), b.dossier)(e)
          })),
          Effect.orElseSucceed(() => e),
          Effect.map(Layer.fail)
        )
      ))

/** `boundRefusal` for the shared dossier whose store `context` holds (the MCP server's services). */
export const refusalIn = (context: Context.Context<never>) => (error: CommandFailure, path: ReadonlyArray<string>) =>
  boundRefusal(Context.unsafeGet(context, PgStoreTag).config.dossier, path)(error)

/** The command's work over the shared dossier the folder `workdir` is bound to. */
export const boundWork = (
  spec: CommandSpec,
  values: Readonly<Record<string, unknown>>,
  workdir: string,
  w: AnyWork
): Promise<AnyWork> => {
  const group = GROUPS[spec.path[0] ?? ""]
  // Never reached: runsOnStore (./Cwd.ts) and GROUPS cover the same commands (test/cli/bundles.test.ts).
  if (group === undefined) return Promise.reject(new Error(`no services over the store for ${spec.path.join(" ")}`))
  const refresh = writes(spec, values)
  return group().then((g) =>
    work({
      effect: boundRefusals(spec.path)(refresh ? Effect.tap(w.effect, () => refreshAfter(spec.path)) : w.effect),
      // A read-only command connects as a reader: it sends no write, not even the schema's.
      layer: refusedConnecting(workdir, spec.path)(g.layer(workdir, refresh ? "write" : "read")),
      human: w.human,
      ...(w.quiet === undefined ? {} : { quiet: w.quiet })
    })
  )
}
