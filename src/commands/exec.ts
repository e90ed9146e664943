/**
 * `dossier exec` and `dossier exec show`, declared as data (see src/commands/Spec.ts). Light.
 * `exec show` comes first: the fast path takes the first declaration whose words match.
 */
import { idRule } from "../domain/Ids.js"
import { command, type CommandSpec, type FlagSpec, json, workdir } from "./Spec.js"

const load = () => import("./exec.impl.js")

export const execDescriptions = {
  run:
    "Run one program confined to a grant (bubblewrap: no network, system directories and input roots read-only, protected paths hidden, " +
    "the work root the only writable place, a cleared environment, CPU/memory/process limits, wall time until the budget or deadline). " +
    "While it runs, revocation, narrowing, the deadline or a replaced root kill it (SIGTERM, SIGKILL after 2 s; " +
    "grant revoke itself also kills it at once with SIGKILL). " +
    "The evidence is .dossier/executions/<id>.json (argv, times, status exited|killed|cancelled|interrupted|lost, exit code, CPU, max RSS, stdout/stderr digests, " +
    "every file created or changed under the work root with its digest), sealed by a receipt digest. A non-zero exit is still a successful exec. " +
    "Running anything needs 'bash' among the grant's tools (any program can start a shell). " +
    "Inside, the folder is at /work and only the grant's roots are there; the current directory is the work root /work/<work>, " +
    "so name a script from there (exec -- python3 bench.py for the work root's bench.py, or /work/<input root>/bench.py), not by its path in the folder. " +
    "A program not there inside (not on PATH /usr/local/bin:/usr/bin:/bin, outside the roots, masked, not executable) is InvalidInput before the run. " +
    "Records and grants are signed (HMAC-SHA-256) with a key outside the folder: $XDG_CONFIG_HOME/dossier/evidence.key or ~/.config/dossier/evidence.key. " +
    "Give the program after --: dossier exec --grant G -- prog args.",
  show:
    "Show a recorded execution, re-verified by its receipt digest and signature (authentication: signed | unsigned | unverifiable; " +
    "a tampered record is ExecutionDigestMismatch); --verify reports the record as a finding instead " +
    "(execution-tampered, execution-unsigned, execution-unverifiable) and re-hashes its stdout, stderr and outputs."
} as const

// Required, but an Option for @effect/cli (a required flag of `exec` would make it refuse
// `exec show` when completions are built); the handler refuses a missing one as a usage error.
const grantFlag = {
  kind: "optionalText",
  name: "grant",
  value: "id",
  required: true,
  description: `The grant to run under (${idRule("grant")}).`
} as const satisfies FlagSpec

export const execSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["exec", "show"],
    description: execDescriptions.show,
    flags: {
      workdir,
      json,
      execution: {
        kind: "text",
        name: "execution",
        value: "id",
        description: `The execution id: ${idRule("execution")}.`
      },
      verify: {
        kind: "boolean",
        name: "verify",
        description: "Also re-hash stdout, stderr and every output and list findings."
      }
    },
    run: (v) => load().then((m) => m.show(v))
  }),
  command({
    path: ["exec"],
    description: execDescriptions.run,
    flags: {
      workdir,
      json,
      grant: grantFlag,
      candidate: {
        kind: "optionalText",
        name: "candidate",
        value: "id",
        description: `The candidate the run belongs to (recorded; with --study, linked in the journal); an event id: ${
          idRule("candidate")
        }.`
      },
      study: {
        kind: "optionalText",
        name: "study",
        value: "id",
        description:
          `Append execution_linked and artifact_linked events for --candidate to this study's journal (idempotent); ${
            idRule("study")
          }.`
      }
    },
    rest: {
      name: "program",
      usage: "<program> [args…]",
      description: "The program and its arguments, after --.",
      optional: false
    },
    run: (v) => load().then((m) => m.run(v))
  })
]
