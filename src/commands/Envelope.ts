/**
 * A refusal as both faces answer it: the CLI's `{ok: false, error}` (src/cli/Render.ts) and the MCP
 * tool's result (src/mcp/Tools.ts). Its `retryable` and its `hint` (what to do, the text the
 * human rendering prints under the refusal) come from the error catalogue. What it repeats of
 * what the user gave (an id, a path, a URL, a quoted input, in a field or in the message) is
 * clipped here, for both faces (../domain/Clip.ts).
 */
import { DEFECT_MESSAGE } from "../domain/CliMessages.js"
import { clipped, clippedDeep, REFUSAL_MESSAGE_MAX } from "../domain/Clip.js"
import { bindingRefusedHints, defectInfo, errorCatalogue, usageInfo } from "./ErrorCatalogue.js"
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

/**
 * The error's message as its class words it from `fields` (its own fields, clipped): each value
 * it quotes is then clipped where it stands and the sentence around it stays whole. A message that
 * is still too long (one that quotes something no field holds) is clipped as a whole.
 */
const messageOf = (error: CommandFailure, own: Record<string, unknown>, fields: Record<string, unknown>): string => {
  let message = error.message
  if (JSON.stringify(fields) !== JSON.stringify(own)) {
    const twin = Object.assign(Object.create(Object.getPrototypeOf(error) as object) as object, error, fields)
    const worded: unknown = (twin as { readonly message?: unknown }).message
    if (typeof worded === "string") message = worded
  }
  return clipped(message, REFUSAL_MESSAGE_MAX)
}

export const envelopeOf = (error: CommandFailure): ErrorEnvelope => {
  const info = error._tag === "UsageError" ? usageInfo : errorCatalogue[error._tag]
  const own = fieldsOf(error)
  const fields = clippedDeep(own) as Record<string, unknown>
  return {
    _tag: error._tag,
    message: messageOf(error, own, fields),
    retryable: info.retryable,
    // A refusal that carries its reason says the way out of that one, not of every reason.
    hint: error._tag === "BindingRefused" ? bindingRefusedHints[error.reason].hint : info.hint,
    ...fields
  }
}

/** The envelope of a usage error the command line meets before any command runs. */
export const usageEnvelope = (detail: string): ErrorEnvelope => ({
  _tag: "UsageError",
  message: clipped(detail),
  retryable: usageInfo.retryable,
  hint: usageInfo.hint,
  detail: clipped(detail)
})

/** The envelope of a defect: a fixed message, nothing of the cause. */
export const defectEnvelope: ErrorEnvelope = {
  _tag: "Defect",
  message: DEFECT_MESSAGE,
  retryable: defectInfo.retryable,
  hint: defectInfo.hint
}
