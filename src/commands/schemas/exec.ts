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
  "exec-output": Schema.Struct({
    ok: Schema.Literal(true),
    execution: ExecutionRecord,
    // With a study: the journal events the run was linked by (appended now, or already there).
    linked: Schema.NullOr(
      Schema.Struct({
        study: Schema.String,
        appended: Schema.Array(Schema.String),
        skipped: Schema.Array(Schema.String)
      })
    )
  })
})
