/**
 * A refusal as both faces answer it: the CLI's `{ok: false, error}` (src/cli/Render.ts) and the MCP
 * tool's result (src/mcp/Tools.ts). Its `retryable` and its `hint` (what to do, the text the
 * human rendering prints under the refusal) come from the error catalogue.
 */
import { DEFECT_MESSAGE } from "../domain/CliMessages.js"
import { defectInfo, errorCatalogue, usageInfo } from "./ErrorCatalogue.js"
import type { CommandFailure } from "./Work.js"

export interface ErrorEnvelope {
  readonly _tag: string
  readonly message: string
  readonly retryable: boolean
  /** What to do about it: the catalogue's hint for the tag. */
  readonly hint: string
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
  const info = error._tag === "UsageError" ? usageInfo : errorCatalogue[error._tag]
  return { _tag: error._tag, message: error.message, retryable: info.retryable, hint: info.hint, ...fieldsOf(error) }
}

/** The envelope of a usage error the command line meets before any command runs. */
export const usageEnvelope = (detail: string): ErrorEnvelope => ({
  _tag: "UsageError",
  message: detail,
  retryable: usageInfo.retryable,
  hint: usageInfo.hint,
  detail
})

/** The envelope of a defect: a fixed message, nothing of the cause. */
export const defectEnvelope: ErrorEnvelope = {
  _tag: "Defect",
  message: DEFECT_MESSAGE,
  retryable: defectInfo.retryable,
  hint: defectInfo.hint
}
