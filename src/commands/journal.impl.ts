/** Handlers of `dossier journal …`: read the input, call the Journal service, render. */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { type AppendInput, checkStudyId } from "../domain/Journal.js"
import { type InspectResult, type StudyRow } from "../domain/JournalOutput.js"
import { BindingRefused } from "../domain/StoreErrors.js"
import { commandLineNote } from "../domain/StoreNotes.js"
import { readBinding } from "../layers/BindingFile.js"
import { JournalLayer } from "../layers/JournalLayer.js"
import { FileStore } from "../services/FileStore.js"
import { type InputRef, readInput } from "../services/InputFile.js"
import { Journal, type JournalShape } from "../services/Journal.js"
import { isBoundFolder } from "./Cwd.js"
import { work } from "./Work.js"

interface Common {
  readonly workdir: string
  readonly study: string
}

const studyOk = (study: string) => Either.match(checkStudyId(study), { onLeft: Effect.fail, onRight: Effect.succeed })

type Finding = NonNullable<InspectResult["verify"]>["findings"][number]

/** A digest as a person compares it: bytes and the first 12 hex digits. */
const digest = (d: { readonly sha256: string; readonly bytes: number }) =>
  `${d.bytes} bytes, sha256 ${d.sha256.slice(0, 12)}…`

/**
 * One finding of `--verify`: which file, which candidate and event (and execution) it concerns,
 * and what was found: the digest linked against the one found, the reason a file was not read,
 * or that it is gone.
 */
const findingLine = (f: Finding): string => {
  const about = `candidate ${f.candidateId}, event ${f.eventId}${"runtimeId" in f ? `, execution ${f.runtimeId}` : ""}`
  const fromExecution = f.kind === "artifact-not-from-execution"
  const what: Array<string> = []
  if (f.expected !== undefined) what.push(`${fromExecution ? "the execution wrote" : "linked"} ${digest(f.expected)}`)
  if (f.actual !== undefined && f.actual !== null) {
    what.push(`${fromExecution ? "the journal linked" : "found"} ${digest(f.actual)}`)
  }
  if (f.kind === "artifact-missing") what.push("the file is gone")
  if (f.kind === "execution-missing") what.push("no record of this execution")
  if (f.detail !== undefined) what.push(f.detail)
  return `  - ${f.kind}: ${f.path} (${about})${what.length === 0 ? "" : `: ${what.join("; ")}`}`
}

/** What a person does about a changed or missing artifact: the journal keeps its history; the bytes can be put back. */
const FINDINGS_NEXT = "What to do: put back the linked bytes (the sha256 above), or record in the journal that the " +
  "result no longer stands (a checkpoint, a new evaluation); the history is never rewritten."

const humanInspect = (r: InspectResult): string => {
  const lines = [
    `Study ${r.study}: ${r.events} event(s), head ${
      r.head === null ? "none" : `#${r.head.seq} ${r.head.id}`
    }, tail ${r.tail.state}${r.tail.bytes !== undefined ? ` (${r.tail.bytes} bytes; run recover-tail)` : ""}`
  ]
  for (const c of r.candidates) {
    const ev = c.lastEvaluation === null ? "" : `, last evaluation ${c.lastEvaluation.decision}`
    lines.push(
      `  - ${c.id} (${c.status}): ${c.title}; ${c.artifacts.length} artifact(s), ${c.executions.length} execution(s)${ev}`
    )
  }
  if (r.selected !== null) lines.push(`Selected: ${r.selected.candidateId} (${r.selected.reason})`)
  if (r.checkpoint !== null) {
    lines.push(
      `Checkpoint: ${r.checkpoint.summary} — next: ${r.checkpoint.nextAction} (${
        r.checkpoint.reviewed ? "reviewed" : "not reviewed"
      })`
    )
  }
  if (r.verify !== undefined) {
    lines.push(`Verified ${r.verify.checked} artifact(s): ${r.verify.findings.length} finding(s)`)
    for (const f of r.verify.findings) lines.push(findingLine(f))
    // How each linked execution was checked (verified, tampered, …, external): the note speaks of this list.
    for (const x of r.verify.executions) {
      lines.push(
        `  - execution ${x.runtimeId} (candidate ${x.candidateId}, event ${x.eventId}): ${x.check}${
          x.leftProcesses === undefined ? "" : `, processes left: ${x.leftProcesses}`
        }`
      )
    }
    if (r.verify.findings.some((f) => f.kind === "artifact-missing" || f.kind === "artifact-changed")) {
      lines.push(FINDINGS_NEXT)
    }
    lines.push(r.verify.note)
  }
  return lines.join("\n")
}

/** One row of `journal list` (and of `status`): a study's journal summarized from its committed history. */
export const studyOverview = (journal: JournalShape, row: StudyRow) =>
  row.tail === "corrupt"
    ? Effect.succeed({
      study: row.study,
      events: null,
      head: row.head,
      tail: "corrupt" as const,
      selected: null,
      checkpoint: null
    })
    : Effect.map(
      Effect.either(journal.inspect(row.study)),
      Either.match({
        onLeft: () => ({
          study: row.study,
          events: null,
          head: row.head,
          tail: "corrupt" as const,
          selected: null,
          checkpoint: null
        }),
        onRight: (r) => ({
          study: row.study,
          events: r.events,
          head: r.head,
          tail: r.tail.state,
          selected: r.selected,
          checkpoint: r.checkpoint
        })
      })
    )

export const studyLine = (s: {
  readonly study: string
  readonly events: number | null
  readonly head: { readonly seq: number; readonly id: string } | null
  readonly tail: string
}) =>
  `${s.study}: ${s.events === null ? "unreadable" : `${s.events} event(s)`}, head ${
    s.head === null ? "none" : `#${s.head.seq} ${s.head.id}`
  }, tail ${s.tail}`

export const list = (o: { readonly workdir: string }) =>
  work({
    effect: Effect.gen(function*() {
      const journal = yield* Journal
      const rows = yield* journal.studies
      const studies = yield* Effect.forEach(rows, (row) => studyOverview(journal, row))
      return { count: studies.length, studies: studies.map(({ selected: _s, checkpoint: _c, ...rest }) => rest) }
    }),
    layer: JournalLayer(o.workdir),
    human: (r) => (r.count === 0 ? "no studies yet (journal append creates one)" : r.studies.map(studyLine).join("\n"))
  })

export const append = (o: Common & { readonly input: InputRef }) =>
  work({
    effect: Effect.gen(function*() {
      yield* studyOk(o.study)
      const value = yield* readInput(Schema.Unknown, o.input)
      const journal = yield* Journal
      // append validates the whole input itself, so that its issues name the input file's fields.
      return yield* journal.append(o.study, value as AppendInput)
    }),
    layer: JournalLayer(o.workdir),
    human: (r) =>
      `Appended ${r.appended.length} event(s), skipped ${r.skipped.length} already recorded; head #${r.head.seq} ${r.head.id}.`
  })

export const inspect = (o: Common & { readonly verify: boolean }) =>
  work({
    effect: Effect.map(
      Effect.flatMap(Journal, (j) => j.inspect(o.study, { verify: o.verify })),
      (r) => (r.verify === undefined ? r : { ...r, verify: { ...r.verify, note: commandLineNote(r.verify.note) } })
    ),
    layer: JournalLayer(o.workdir),
    human: humanInspect
  })

/**
 * `rebuild`, `recover-tail` and `import` work on the journal file of a plain folder (the
 * JournalFolder service); a bound folder's journal is the shared dossier's, which has none of
 * them yet (docs/store.md, "What is not done"): `BindingRefused` naming the dossier (exit 1: the
 * command line is well-formed, the folder's state refuses it), before anything is read or written.
 */
const plainFolderOnly = (workdir: string, command: string) =>
  isBoundFolder(workdir)
    ? Effect.flatMap(
      Effect.flatMap(FileStore, readBinding),
      Option.match({
        onNone: () => Effect.void,
        onSome: (b) =>
          Effect.fail(new BindingRefused({ command: `journal ${command}`, dossier: b.dossier, reason: "plain-folder" }))
      })
    )
    : Effect.void

export const rebuild = (o: Common) =>
  work({
    effect: Effect.zipRight(plainFolderOnly(o.workdir, "rebuild"), Effect.flatMap(Journal, (j) => j.rebuild(o.study))),
    layer: JournalLayer(o.workdir),
    human: (r) => `Rebuilt ${r.manifest.path} and ${r.index.path} from ${r.events} event(s).`
  })

export const recoverTail = (o: Common) =>
  work({
    effect: Effect.zipRight(
      plainFolderOnly(o.workdir, "recover-tail"),
      Effect.flatMap(Journal, (j) => j.recoverTail(o.study))
    ),
    layer: JournalLayer(o.workdir),
    human: (r) =>
      r.recovered === null
        ? "No unterminated tail; nothing to recover."
        : `Kept the ${r.recovered.bytes}-byte tail in ${r.recovered.path} and truncated the journal to its last complete line.`
  })

export const importLegacy = (o: Common) =>
  work({
    effect: Effect.zipRight(
      plainFolderOnly(o.workdir, "import"),
      Effect.flatMap(Journal, (j) => j.importLegacy(o.study))
    ),
    layer: JournalLayer(o.workdir),
    human: (r) =>
      r.imported
        ? `Imported the legacy manifest as event ${r.eventId}; its bytes are kept in ${r.snapshot.path}.`
        // Said of the study, not of manifest.json: after a rebuild that file is the journal's
        // projection, and the event is the import of the legacy manifest it replaced.
        : `Nothing imported: the study's legacy manifest is already in the journal as event ${r.eventId} (its bytes are kept in ${r.snapshot.path}); a manifest.json rebuilt since is the journal's projection.`
  })
