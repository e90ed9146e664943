/** Schemas of the ingest area for `dossier schema <name>`: success outputs and the captures log line. */
import type * as Schema from "effect/Schema"
import { CaptureRecord, IngestDryRunOutput, IngestFileOutput, IngestOutput } from "../../domain/IngestOutput.js"

export const ingestSchemas = (): Record<string, Schema.Schema.Any> => ({
  "ingest-output": IngestOutput,
  "ingest-file-output": IngestFileOutput,
  "ingest-dry-run-output": IngestDryRunOutput,
  "capture-record": CaptureRecord
})
