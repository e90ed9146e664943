/** Schemas of the gate area for `dossier schema <name>`: input files and success outputs. */
import type * as Schema from "effect/Schema"
import {
  AttemptRow,
  Descriptor,
  GateOutput,
  GateRecheckOutput,
  ResearchContext,
  ResearchOutput,
  RunState
} from "../../domain/Gate.js"

export const gateSchemas = (): Record<string, Schema.Schema.Any> => ({
  "run-state": RunState,
  "research-output": ResearchOutput,
  context: ResearchContext,
  descriptor: Descriptor,
  "gate-attempt": AttemptRow,
  "gate-output": GateOutput,
  "gate-recheck-output": GateRecheckOutput
})
