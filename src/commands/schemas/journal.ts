/** Schemas of the journal area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"
import { JournalEvent, JournalEventsInput, ManifestV1 } from "../../domain/Journal.js"
import { AppendOutput, ImportOutput, InspectOutput, RebuildOutput, RecoverOutput } from "../../domain/JournalOutput.js"

export const journalSchemas = (): Record<string, Schema.Schema.Any> => ({
  "journal-events": JournalEventsInput,
  "journal-event": JournalEvent,
  "journal-manifest-v1": ManifestV1,
  "journal-append-output": AppendOutput,
  "journal-inspect-output": InspectOutput,
  "journal-rebuild-output": RebuildOutput,
  "journal-recover-tail-output": RecoverOutput,
  "journal-import-output": ImportOutput
})
