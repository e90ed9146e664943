/** Schemas of the gate area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"

export const gateSchemas = (): Record<string, Schema.Schema.Any> => ({})
