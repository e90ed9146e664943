/** Schemas of the plan area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"
import {
  PlanCheckpointInput,
  PlanCheckpointOutput,
  PlanDocument,
  PlanInspectOutput,
  PlanStartInput,
  PlanStartOutput
} from "../../domain/Plan.js"

export const planSchemas = (): Record<string, Schema.Schema.Any> => ({
  "plan-start": PlanStartInput,
  "plan-checkpoint": PlanCheckpointInput,
  "plan-document": PlanDocument,
  "plan-start-output": PlanStartOutput,
  "plan-checkpoint-output": PlanCheckpointOutput,
  "plan-inspect-output": PlanInspectOutput
})
