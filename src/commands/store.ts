/** `dossier store status`, `dossier pull` and `dossier export`, declared as data (see src/commands/Spec.ts). */
import { command, type CommandSpec, json, workdir } from "./Spec.js"

export const storeGroup = {
  name: "store",
  description: "The shared store (PostgreSQL) a folder is bound to by `init --store` (docs/store.md)."
}

export const storeSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["store", "status"],
    description:
      "The shared store this folder is bound to: {bound, store: null | {kind, url (no password), dossier, schema: {version, supported}, exists, reachable: true}}; out of reach: StoreUnavailable. Never writes.",
    flags: { workdir, json },
    tools: [{ description: "What this folder is bound to.", takes: [] }],
    run: (v) => import("./store.impl.js").then((m) => m.status(v))
  }),
  command({
    path: ["pull"],
    description:
      "Bring every record and registered file of the bound shared dossier into this folder (each other command refreshes only the part it wrote): {dossier, transfer}; a local file with other bytes is kept and listed. Unbound: BindingRefused.",
    flags: { workdir, json },
    // CLI only: a bound MCP server refreshes the part of its folder's view each writing call
    // touched, and pulling is a person's step (docs/store.md).
    tools: [],
    run: (v) => import("./store.impl.js").then((m) => m.pull(v))
  }),
  command({
    path: ["export"],
    description:
      "Copy the dossier (plan with its revision, journals, monitor records, capture log, grants and execution records with their logs, the gate's attempts logs, retained and registered files) into a plain, unbound folder that holds no state (created if missing): {to (relative to the work folder), transfer}; a folder that holds state or is bound: BindingRefused. A failed export removes what it made (a folder that was there is left as it was).",
    // CLI only: no MCP tool writes outside the work folder.
    tools: [],
    flags: {
      workdir,
      json,
      to: {
        kind: "text",
        name: "to",
        value: "path",
        description: "The folder to export into, outside the work folder (relative: to the current directory)."
      }
    },
    run: (v) => import("./store.impl.js").then((m) => m.exportTo(v))
  })
]
