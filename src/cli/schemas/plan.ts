/** Schemas of the plan area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"

export const planSchemas = (): Record<string, Schema.Schema.Any> => ({})
