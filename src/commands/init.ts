/** `dossier init` and `dossier status`, declared as data (see src/commands/Spec.ts). */
import { command, type CommandSpec, json, now, workdir } from "./Spec.js"

export const initSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["init"],
    description:
      "Prepare a work folder: create research/inputs/, research/sources/, research/results/, .dossier/ and .dossier/.gitignore (ignoring the lock and staging files, never the state), and nothing else; `plan start` makes plan.md. Idempotent: {created: true | false, paths: [what it created]}. Every writing command creates the folders it needs by itself, so init is a convenience, never a prerequisite.",
    flags: {
      workdir,
      json,
      store: {
        kind: "optionalText",
        name: "store",
        value: "url",
        description:
          "Bind the folder to a shared dossier in PostgreSQL: postgres://[user[:password]@]host[:port]/database (default $DOSSIER_STORE). The password comes from the URL (for this init only), PGPASSWORD or the password file (PGPASSFILE, else ~/.pgpass), and is never written."
      },
      dossier: {
        kind: "optionalText",
        name: "dossier",
        description: "The shared dossier's name (with --store): created by its first init."
      }
    },
    // Binding (--store, --dossier) is a person's set-up step: the CLI's, not an MCP tool's.
    tools: [{ takes: [] }],
    run: (v) => import("./init.impl.js").then((m) => m.init(v))
  }),
  command({
    path: ["status"],
    description:
      "The overview to start with in a folder you did not write: the plan (goal, status, revision, next action, verification, completion), every study (events, head, selected, checkpoint, tail), the monitor (subscriptions, due, active runs, unresolved outcomes), active grants, the facts of `dossier next`, and the one command to run next. Never writes.",
    flags: { workdir, json, now },
    run: (v) => import("./status.impl.js").then((m) => m.status(v))
  })
]
