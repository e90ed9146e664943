/** Handlers of `dossier journal …`: read the input, call the Journal service, render. */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type AppendInput, checkStudyId, type InspectResult } from "../../domain/Journal.js"
import { JournalLayer } from "../../layers/JournalLayer.js"
import { readInput } from "../../services/InputFile.js"
import { Journal } from "../../services/Journal.js"
import { respond } from "../Render.js"

interface Common {
  readonly workdir: string
  readonly json: boolean
  readonly study: string
}

const studyOk = (study: string) => Either.match(checkStudyId(study), { onLeft: Effect.fail, onRight: Effect.succeed })

const humanInspect = (r: InspectResult): string => {
  const lines = [
    `Study ${r.study}: ${r.events} event(s), head ${r.head === null ? "none" : `#${r.head.seq} ${r.head.id}`}, tail ${r.tail.state}${
      r.tail.bytes !== undefined ? ` (${r.tail.bytes} bytes; run recover-tail)` : ""
    }`
  ]
  for (const c of r.candidates) {
    const ev = c.lastEvaluation === null ? "" : `, last evaluation ${c.lastEvaluation.decision}`
    lines.push(`  - ${c.id} (${c.status}): ${c.title}; ${c.artifacts.length} artifact(s), ${c.executions.length} execution(s)${ev}`)
  }
  if (r.selected !== null) lines.push(`Selected: ${r.selected.candidateId} (${r.selected.reason})`)
  if (r.checkpoint !== null) {
    lines.push(`Checkpoint: ${r.checkpoint.summary} — next: ${r.checkpoint.nextAction}${r.checkpoint.reviewed ? " (reviewed)" : ""}`)
  }
  if (r.verify !== undefined) {
    lines.push(`Verified ${r.verify.checked} artifact(s): ${r.verify.findings.length} finding(s)`)
    for (const f of r.verify.findings) lines.push(`  - ${f.kind}: ${f.path} (candidate ${f.candidateId})`)
    lines.push(r.verify.note)
  }
  return lines.join("\n")
}

export const append = (o: Common & { readonly input: string }) =>
  respond(
    o.json,
    Effect.gen(function*() {
      yield* studyOk(o.study)
      const value = yield* readInput(Schema.Unknown, o.input)
      const journal = yield* Journal
      // append validates the whole input itself, so that its issues name the input file's fields.
      return yield* journal.append(o.study, value as AppendInput)
    }).pipe(Effect.provide(JournalLayer(o.workdir))),
    (r) =>
      `Appended ${r.appended.length} event(s), skipped ${r.skipped.length} already recorded; head #${r.head.seq} ${r.head.id}.`
  )

export const inspect = (o: Common & { readonly verify: boolean }) =>
  respond(
    o.json,
    Effect.flatMap(Journal, (j) => j.inspect(o.study, { verify: o.verify })).pipe(Effect.provide(JournalLayer(o.workdir))),
    humanInspect
  )

export const rebuild = (o: Common) =>
  respond(
    o.json,
    Effect.flatMap(Journal, (j) => j.rebuild(o.study)).pipe(Effect.provide(JournalLayer(o.workdir))),
    (r) => `Rebuilt ${r.manifest.path} and ${r.index.path} from ${r.events} event(s).`
  )

export const recoverTail = (o: Common) =>
  respond(
    o.json,
    Effect.flatMap(Journal, (j) => j.recoverTail(o.study)).pipe(Effect.provide(JournalLayer(o.workdir))),
    (r) =>
      r.recovered === null
        ? "No unterminated tail; nothing to recover."
        : `Kept the ${r.recovered.bytes}-byte tail in ${r.recovered.path} and truncated the journal to its last complete line.`
  )

export const importLegacy = (o: Common) =>
  respond(
    o.json,
    Effect.flatMap(Journal, (j) => j.importLegacy(o.study)).pipe(Effect.provide(JournalLayer(o.workdir))),
    (r) =>
      r.imported
        ? `Imported the legacy manifest as event ${r.eventId}; its bytes are kept in ${r.snapshot.path}.`
        : `Already imported as event ${r.eventId}; nothing changed.`
  )
