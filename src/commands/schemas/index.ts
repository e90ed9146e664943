import type * as Schema from "effect/Schema"
import { errorsSchema } from "./errors.js"
import { execSchemas } from "./exec.js"
import { gateSchemas } from "./gate.js"
import { ingestSchemas } from "./ingest.js"
import { journalSchemas } from "./journal.js"
import { monitorSchemas } from "./monitor.js"
import { outputSchemas } from "./outputs.js"
import { planSchemas } from "./plan.js"

export const allSchemas = (): Record<string, Schema.Schema.Any> => ({
  ...planSchemas(),
  ...ingestSchemas(),
  ...journalSchemas(),
  ...gateSchemas(),
  ...monitorSchemas(),
  ...execSchemas(),
  ...outputSchemas(),
  errors: errorsSchema()
})
