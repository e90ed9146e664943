/** Schemas of the ingest area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"

export const ingestSchemas = (): Record<string, Schema.Schema.Any> => ({})
