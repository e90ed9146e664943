/**
 * A refusal as both faces answer it: the CLI's `{ok: false, error}` (src/cli/Render.ts) and the MCP
 * tool's result (src/mcp/Tools.ts). Its `retryable` comes from the error catalogue.
 */
import { DEFECT_MESSAGE } from "../domain/CliMessages.js"
import { errorCatalogue, usageInfo } from "./ErrorCatalogue.js"
import type { CommandFailure } from "./Work.js"

export interface ErrorEnvelope {
  readonly _tag: string
  readonly message: string
  readonly retryable: boolean
  readonly [field: string]: unknown
}

const fieldsOf = (error: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(error)) {
    if (k === "_tag" || k === "message" || k === "stack" || k === "cause") continue
    out[k] = v
  }
  return out
}

export const envelopeOf = (error: CommandFailure): ErrorEnvelope => {
  const retryable = error._tag === "UsageError" ? usageInfo.retryable : errorCatalogue[error._tag].retryable
  return { _tag: error._tag, message: error.message, retryable, ...fieldsOf(error) }
}

/** The envelope of a defect: a fixed message, nothing of the cause. */
export const defectEnvelope: ErrorEnvelope = { _tag: "Defect", message: DEFECT_MESSAGE, retryable: false }
