/**
 * A command in a folder bound to a shared dossier (docs/store.md): the same work over the shared
 * dossier's services (src/layers/CommandsBound.ts) instead of the folder's, and, after a command
 * that writes, the folder's view refreshed from the store (what `dossier pull` does). Loaded only
 * when the folder is bound (`isBoundFolder`, ./Cwd.ts), by the CLI (src/cli/main.ts) and the MCP
 * server (src/mcp/Server.ts).
 *
 * The commands that manage the binding itself (`init`, `store status`, `pull`, `export`), `schema`
 * (which reads nothing) and `mcp` (which binds its services itself) run as they are.
 */
import * as Effect from "effect/Effect"
import { CommandsBound, refreshView } from "../layers/CommandsBound.js"
import type { PgStore } from "../layers/postgres/PgStore.js"
import type { FileStore } from "../services/FileStore.js"
import type { Workdir } from "../services/Workdir.js"
import type { CommandSpec } from "./Spec.js"
import { TOOL_HINTS } from "./ToolHints.js"
import { type AnyWork, work } from "./Work.js"

const AS_THEY_ARE = new Set(["init", "store status", "pull", "export", "schema", "mcp"])

/** Whether the command runs over the shared dossier in a bound folder. */
export const runsOnStore = (spec: CommandSpec): boolean => !AS_THEY_ARE.has(spec.path.join(" "))

/** Whether a command (by its tool name, `plan_checkpoint`) may write: its view is refreshed after it. */
export const writes = (name: string): boolean => TOOL_HINTS[name]?.readOnly !== true

/**
 * Refresh the view after a writing command. The command's answer stands either way (its write is
 * committed in the store); a view that could not be refreshed is said on stderr, with the way out.
 */
export const refreshAfter: Effect.Effect<void, never, PgStore | FileStore | Workdir> = Effect.flatMap(
  refreshView,
  (r) =>
    r.refreshed
      ? Effect.void
      : Effect.sync(() => {
        process.stderr.write(
          `dossier: the store holds the change, but this folder's view was not refreshed (${r.reason}); \`dossier pull\` brings it\n`
        )
      })
)

/** Every command's services over the shared dossier the folder `workdir` is bound to (the MCP server's). */
export const boundServices = (workdir: string) => CommandsBound(workdir)

/** The command's work over the shared dossier the folder `workdir` is bound to. */
export const boundWork = (spec: CommandSpec, workdir: string, w: AnyWork): AnyWork => {
  const refresh = writes(spec.path.join("_"))
  return work({
    effect: refresh ? Effect.tap(w.effect, () => refreshAfter) : w.effect,
    layer: CommandsBound(workdir),
    human: w.human,
    ...(w.quiet === undefined ? {} : { quiet: w.quiet })
  })
}
