/** Schemas of the monitor area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"

export const monitorSchemas = (): Record<string, Schema.Schema.Any> => ({})
