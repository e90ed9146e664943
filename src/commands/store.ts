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
      "What this folder is bound to: {bound: false}, or {bound: true, kind, url (without password), dossier, schema: {version, supported}, exists, reachable: true}; an unreachable store is StoreUnavailable. Never writes.",
    flags: { workdir, json },
    run: (v) => import("./store.impl.js").then((m) => m.status(v))
  }),
  command({
    path: ["pull"],
    description:
      "Bring every record and registered file of the bound shared dossier into this folder; a local file with other bytes is kept and listed. Unbound: UsageError.",
    flags: { workdir, json },
    run: (v) => import("./store.impl.js").then((m) => m.pull(v))
  }),
  command({
    path: ["export"],
    description:
      "Copy the dossier (plan with its revision, journals, monitor records, capture log, retained and registered files) into a plain, unbound folder that holds no state (created if missing). Answers what was copied.",
    flags: {
      workdir,
      json,
      to: {
        kind: "text",
        name: "to",
        value: "path",
        description: "The folder to export into (relative: to the current directory)."
      }
    },
    run: (v) => import("./store.impl.js").then((m) => m.exportTo(v))
  })
]
