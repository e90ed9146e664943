/** Schemas of grants and confined execution for `dossier schema <name>`: input files and records. */
import * as Schema from "effect/Schema"
import { ExecutionRecord } from "../../domain/Execution.js"
import { GrantEvent, GrantInput, NarrowInput, StoredGrant } from "../../domain/Grant.js"

export const execSchemas = (): Record<string, Schema.Schema.Any> => ({
  "grant-create": GrantInput,
  "grant-narrow": NarrowInput,
  "grant-record": StoredGrant,
  "grant-event": GrantEvent,
  "execution-record": ExecutionRecord,
  "exec-output": Schema.Struct({ execution: ExecutionRecord })
})
