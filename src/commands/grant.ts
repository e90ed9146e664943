/**
 * `dossier grant create|show|list|revoke|narrow`, declared as data (see src/commands/Spec.ts) for the
 * start-up fast path. Light: imports only ./Spec.js.
 */
import { idRule } from "../domain/Ids.js"
import { command, type CommandSpec, type FlagSpec, input, json, now, workdir } from "./Spec.js"

const load = () => import("./grant.impl.js")

export const grantGroup = {
  name: "grant",
  description:
    "Grants for confined runs: create, show, list, revoke, narrow. A grant names read-only input roots, one work root, tools, a budget and a deadline."
}

const grantFlag = {
  kind: "text",
  name: "grant",
  value: "id",
  description: `Grant id: ${idRule("grant")}.`
} as const satisfies FlagSpec
const reasonFlag = {
  kind: "optionalText",
  name: "reason",
  description: "Why (kept in the grant's events)."
} as const satisfies FlagSpec

export const grantDescriptions = {
  create:
    "Create a grant, stored once and immutable under .dossier/grants/<id>.json with a SHA-256 over its content. Input fields: " +
    `id? (${
      idRule("grant")
    }; default derived from the content), task (the child task's identity), parent? (a parent grant id: the child must lie within it), ` +
    "inputs [paths] (read-only roots: directories inside the work folder, no link on the way), work (the one read-write root; created if missing), " +
    "protected [paths] (never visible; entries below an input root are masked; a child also hides every ancestor's, and no root may lie inside one), tools [read|bash|notebook] (ceiling; exec runs a program only with bash, whatever the program), " +
    "budget {runs, wallSeconds, cpuSeconds, memoryMiB, outputMiB} (carved from the parent's remainder), deadline (ISO-8601), candidateId? (metadata). " +
    ".dossier/, plan.md and every research/<study>/research-events.jsonl are always protected: no root may be research or a study folder research/<study> (grant a folder below it), " +
    "and a work root never lies in research/sources, research/results, research/inputs or research/gate, nor holds another work folder (a .dossier folder or a plan.md with a plan section below it) (ProtectedPathInGrant, with a reason). Network is always off. Same id and content again: no change.",
  show:
    "Show a grant (verified against its digest), its state (active, revoked, expired, exhausted), effective deadline and budget, what is left (not known while unreadableExecutions names a record), its events and children.",
  list: "List the work folder's grants, their state and what is left; damaged grants and unreadable run records apart.",
  revoke:
    "Revoke a grant (an appended event) and its descendants; their running executions are killed within about a second. Answers as grant show does, with appended (false: already revoked) and revoked (the ids this call ended).",
  narrow:
    "Narrow a grant (an appended event): input fields deadline? (sooner only), budget? {runs?, wallSeconds?, cpuSeconds?, memoryMiB?, outputMiB?} (smaller only), reason?. A wider value is GrantWidening."
} as const

export const grantSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["grant", "create"],
    inputSchema: "grant-create",
    description: grantDescriptions.create,
    flags: { workdir, json, input, now },
    run: (v) => load().then((m) => m.create(v))
  }),
  command({
    path: ["grant", "show"],
    description: grantDescriptions.show,
    flags: { workdir, json, grant: grantFlag, now },
    run: (v) => load().then((m) => m.show(v))
  }),
  command({
    path: ["grant", "list"],
    description: grantDescriptions.list,
    flags: { workdir, json, now },
    run: (v) => load().then((m) => m.list(v))
  }),
  command({
    path: ["grant", "revoke"],
    description: grantDescriptions.revoke,
    flags: { workdir, json, grant: grantFlag, reason: reasonFlag, now },
    run: (v) => load().then((m) => m.revoke(v))
  }),
  command({
    path: ["grant", "narrow"],
    inputSchema: "grant-narrow",
    description: grantDescriptions.narrow,
    flags: { workdir, json, grant: grantFlag, input, now },
    run: (v) => load().then((m) => m.narrow(v))
  })
]
