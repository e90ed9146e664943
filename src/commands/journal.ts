/**
 * `dossier journal append|inspect|rebuild|recover-tail|import`, declared as data (see
 * src/commands/Spec.ts) for the start-up fast path. Light: imports only ./Spec.js.
 */
import { idRule } from "../domain/Ids.js"
import { command, type CommandSpec, type FlagSpec, input, json, workdir } from "./Spec.js"

const load = () => import("./journal.impl.js")

export const journalGroup = {
  name: "journal",
  description: "The experiment journal of a study: list, append, inspect, rebuild, recover-tail, import."
}

export const studyFlag = {
  kind: "text",
  name: "study",
  value: "id",
  description: `The study id: ${idRule("study")}. Its journal is research/<study>/research-events.jsonl.`
} as const satisfies FlagSpec

export const verifyFlag = {
  kind: "boolean",
  name: "verify",
  description: "Also re-hash linked artifacts and check linked dossier executions; list any findings."
} as const satisfies FlagSpec

export const journalDescriptions = {
  append: "Append one event or an ordered batch (a JSON array) to the study's journal, fsynced before answering. " +
    `Every event has id (stable: ${idRule("event")}), type, at? (ISO-8601 time) and, by type: ` +
    "candidate_created: candidate {id, title, protocolVersion?, params? (object)}; " +
    "execution_linked: candidateId, execution {runtimeId, status, exitCode? (integer or null), logRef?}; " +
    "artifact_linked: candidateId, artifact {path (relative to the work folder; not under .dossier/, plan.md or a journal's own files: UnsafePath), sha256? (64 hex), bytes?} (omitted: computed from the file, at most 16 MiB; given: must match it, else DigestMismatch); " +
    "evaluation_recorded: candidateId, evaluation {evaluatorVersion, metrics {name: number}, decision (accept|reject|inconclusive)}; " +
    "candidate_selected: candidateId, reason; " +
    "checkpoint_saved: checkpoint {summary, nextAction, reviewed (boolean)}; " +
    "legacy_imported: manifestSha256, snapshotPath, protocolVersion (string|null), candidates [{id, status, resultPaths}], completed [ids], selected (id|null). " +
    "The whole batch is validated first, as data (InvalidInput with every issue) before any artifact file is read; candidateId must name a candidate created earlier in the journal or the batch (UnknownCandidate, answered before an artifact file's FileNotFound or DigestMismatch). " +
    "An id already recorded with the same content is skipped (a safe retry); with other content it is ConflictingEvent and nothing is written.",
  inspect: "Show the study's committed history: event count, tail (clean|unterminated), head, candidates with status " +
    "(created, evaluated, accepted, rejected, selected), artifacts, executions and latest evaluation, the latest selection and checkpoint. A study without a journal is StudyNotFound. Never writes.",
  rebuild:
    "Derive research/<study>/manifest.json (the six-field v1 projection) and research/<study>/index.json from the journal, each published atomically; byte-identical when nothing changed. Refuses to overwrite a manifest.json it did not write (a legacy manifest never imported, or a projection edited by hand). A study without a journal is StudyNotFound.",
  recoverTail:
    "Keep the exact bytes of an unterminated final line in research/<study>/recovered/tail-<sha256>.bin (write-once), then truncate the journal to its last newline. Damaged terminated lines are never repaired. A study without a journal is StudyNotFound.",
  import:
    "Import the study's legacy research/<study>/manifest.json (fields: version 1, study, protocolVersion, candidates [{id, status, resultPaths}], completed, selected; nothing else): keep its bytes in research/<study>/legacy/manifest-<sha256>.json and append one legacy_imported event. Idempotent; runs nothing and never reads state.json."
} as const

export const journalSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["journal", "list"],
    description:
      "List every study under research/ that has a journal: id, events, head, tail (clean | unterminated | corrupt). Never writes.",
    flags: { workdir, json },
    run: (v) => load().then((m) => m.list(v))
  }),
  command({
    path: ["journal", "append"],
    inputSchema: "journal-events",
    description: journalDescriptions.append,
    flags: { workdir, json, study: studyFlag, input },
    run: (v) => load().then((m) => m.append(v))
  }),
  command({
    path: ["journal", "inspect"],
    description: journalDescriptions.inspect,
    flags: { workdir, json, study: studyFlag, verify: verifyFlag },
    run: (v) => load().then((m) => m.inspect(v))
  }),
  command({
    path: ["journal", "rebuild"],
    description: journalDescriptions.rebuild,
    flags: { workdir, json, study: studyFlag },
    run: (v) => load().then((m) => m.rebuild(v))
  }),
  command({
    path: ["journal", "recover-tail"],
    description: journalDescriptions.recoverTail,
    flags: { workdir, json, study: studyFlag },
    run: (v) => load().then((m) => m.recoverTail(v))
  }),
  command({
    path: ["journal", "import"],
    description: journalDescriptions.import,
    flags: { workdir, json, study: studyFlag },
    run: (v) => load().then((m) => m.importLegacy(v))
  })
]
