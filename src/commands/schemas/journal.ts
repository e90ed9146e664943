/** Schemas of the journal area for `dossier schema <name>`: input files and success outputs. */
import * as Schema from "effect/Schema"
import { JournalEvent, JournalEventsInput, ManifestV1 } from "../../domain/Journal.js"
import { AppendOutput, ImportOutput, InspectOutput, RebuildOutput, RecoverOutput } from "../../domain/JournalOutput.js"

/** A command's `--json` answer: the service's result under `ok: true`. */
const answered = <F extends Schema.Struct.Fields>(result: Schema.Struct<F>) =>
  Schema.Struct({ ok: Schema.Literal(true), ...result.fields })

export const journalSchemas = (): Record<string, Schema.Schema.Any> => ({
  "journal-events": JournalEventsInput,
  "journal-event": JournalEvent,
  "journal-manifest-v1": ManifestV1,
  "journal-append-output": answered(AppendOutput),
  "journal-inspect-output": answered(InspectOutput),
  "journal-rebuild-output": answered(RebuildOutput),
  "journal-recover-tail-output": answered(RecoverOutput),
  "journal-import-output": answered(ImportOutput)
})
