/**
 * The one renderer: every command's success and every error go through here.
 * `--json`: exactly one JSON object on stdout. Otherwise a short report on stdout, refusals on stderr.
 * Exit codes: 0 success, 1 typed refusal, 2 usage error, 70 defect.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { DossierError } from "../domain/AllErrors.js"
import { DEFECT_MESSAGE } from "../domain/CliMessages.js"
import { defectInfo, errorCatalogue, usageInfo } from "./ErrorCatalogue.js"

export const EXIT_OK = 0
export const EXIT_REFUSED = 1
export const EXIT_USAGE = 2
export const EXIT_DEFECT = 70

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

export const envelopeOf = (error: DossierError): ErrorEnvelope => {
  const info = errorCatalogue[error._tag]
  return { _tag: error._tag, message: error.message, retryable: info.retryable, ...fieldsOf(error) }
}

/** EX_IOERR (sysexits.h): the answer could not be written to standard output. */
export const EXIT_OUTPUT_FAILED = 74

let outputFailed = false

/**
 * Standard output could not be written (a full disk, a closed file, `> /dev/full`): end quietly
 * with one line on stderr and exit 74 — no stack trace, no path. Later writes are dropped.
 */
export const outputFailure = (error: unknown) => {
  if (outputFailed) return
  outputFailed = true
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  try {
    process.stderr.write(`dossier: could not write the answer to standard output${typeof code === "string" ? ` (${code})` : ""}\n`)
  } catch {
    // stderr is gone too: the exit code says it.
  }
  process.exitCode = EXIT_OUTPUT_FAILED
}

const write = (stream: NodeJS.WriteStream, text: string, exitCode: number) => {
  if (outputFailed) return
  process.exitCode = exitCode
  try {
    stream.write(text.endsWith("\n") ? text : `${text}\n`)
  } catch (e) {
    // A file as stdout is written synchronously: its failure is thrown here.
    if (stream === process.stdout) outputFailure(e)
  }
}

export const printSuccess = (json: boolean, result: object, human: string) => {
  write(process.stdout, json ? JSON.stringify({ ok: true, ...result }) : human, EXIT_OK)
}

export const printError = (json: boolean, envelope: ErrorEnvelope, hint: string, exitCode: number) => {
  if (json) write(process.stdout, JSON.stringify({ ok: false, error: envelope }), exitCode)
  else write(process.stderr, `error ${envelope._tag}: ${envelope.message}\n  ${hint}`, exitCode)
}

export const printUsageError = (json: boolean, detail: string) =>
  printError(json, { _tag: "UsageError", message: detail, retryable: false, detail }, usageInfo.hint, EXIT_USAGE)

export const printDefect = (json: boolean) =>
  printError(
    json,
    {
      _tag: "Defect",
      message: DEFECT_MESSAGE,
      retryable: false
    },
    defectInfo.hint,
    EXIT_DEFECT
  )

/**
 * Run a command's effect and render its outcome. The error channel is the full domain union,
 * rendered through the exhaustive catalogue; anything else (defects, interruptions) is a Defect.
 */
export const respond = <A extends object>(
  json: boolean,
  effect: Effect.Effect<A, DossierError>,
  human: (a: A) => string
): Effect.Effect<void> =>
  Effect.matchCause(effect, {
    // The human text is built only when it is printed (`next --json` has thousands of facts).
    onSuccess: (a) => printSuccess(json, a, json ? "" : human(a)),
    onFailure: (cause) =>
      Option.match(Cause.failureOption(cause), {
        onSome: (error) => {
          const envelope = envelopeOf(error)
          printError(json, envelope, errorCatalogue[error._tag].hint, EXIT_REFUSED)
        },
        onNone: () => {
          if (process.env["DOSSIER_DEBUG"] === "1") process.stderr.write(`${Cause.pretty(cause)}\n`)
          printDefect(json)
        }
      })
  })
