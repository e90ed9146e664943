/** Schemas of the journal area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"

export const journalSchemas = (): Record<string, Schema.Schema.Any> => ({})
