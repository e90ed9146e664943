/**
 * The one renderer: every command's success and every error go through here.
 * `--json`: exactly one JSON object on stdout. Otherwise a short report on stdout, refusals on stderr.
 * Exit codes: 0 success, 1 typed refusal, 2 usage error, 70 defect (74, stdout not writable: ./main.ts).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { defectEnvelope, envelopeOf, type ErrorEnvelope, usageEnvelope } from "../commands/Envelope.js"
import type { AnyWork, CommandFailure } from "../commands/Work.js"
import { flatLayer } from "../layers/FlatBuild.js"
import { invocation } from "./Context.js"

export const EXIT_OK = 0
export const EXIT_REFUSED = 1
export const EXIT_USAGE = 2
export const EXIT_DEFECT = 70

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
    process.stderr.write(
      `dossier: could not write the answer to standard output${typeof code === "string" ? ` (${code})` : ""}\n`
    )
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

/** `"workdir": "../.."` when the folder was discovered elsewhere than the current directory. */
const shown = () => (invocation.workdirShown === undefined ? {} : { workdir: invocation.workdirShown })
const shownLine = () => (invocation.workdirShown === undefined ? "" : `work folder: ${invocation.workdirShown}\n`)

/**
 * A refusal's `workdir`: the discovered folder, as for a success; a `WorkdirNotFound` names the
 * folder it could not use however it was given (`--workdir`, `DOSSIER_WORKDIR`), relative to the
 * current directory.
 */
const shownFor = (envelope: ErrorEnvelope): string | undefined =>
  invocation.workdirShown ?? (envelope._tag === "WorkdirNotFound" ? invocation.workdirUsed : undefined)

/**
 * Text for a terminal: control characters (C0, DEL, C1) other than tab, newline and the CR of a CR LF are shown as
 * `\xNN`. A human report echoes names dossier does not choose (a file a confined program left, a
 * page's file name, a path given on the command line); an escape sequence among them would
 * otherwise reach the person's terminal and act there (move the cursor, rewrite lines, set the
 * title or the clipboard). JSON output needs none of this: JSON.stringify escapes C0, and C1 is
 * data to a JSON reader.
 */
export const terminalSafe = (text: string): string =>
  text.replace(
    /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`
  )

export const printSuccess = (json: boolean, result: object, human: string) => {
  if (json) write(process.stdout, JSON.stringify({ ok: true, ...shown(), ...result }), EXIT_OK)
  else write(process.stdout, terminalSafe(`${shownLine()}${human}`), EXIT_OK)
}

const isIssue = (x: unknown): x is { readonly path: string; readonly message: string } =>
  typeof x === "object" && x !== null && typeof (x as { path?: unknown }).path === "string" &&
  typeof (x as { message?: unknown }).message === "string"

const scalar = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v))

/**
 * Every field of a refusal, for people: lists one item per line (`path: message` for issues,
 * blockers and the like as `id (category)` or their JSON), scalars as `field: value`.
 */
export const detailLines = (envelope: ErrorEnvelope): ReadonlyArray<string> => {
  const lines: Array<string> = []
  for (const [k, v] of Object.entries(envelope)) {
    if (k === "_tag" || k === "message" || k === "retryable" || k === "hint" || k === "detail") continue
    if (Array.isArray(v)) {
      if (v.length === 0) {
        lines.push(`  ${k}: none`)
        continue
      }
      lines.push(`  ${k}:`)
      for (const item of v) {
        if (isIssue(item)) lines.push(`    ${item.path || "(root)"}: ${item.message}`)
        else if (typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "string") {
          const { id, ...rest } = item as { id: string }
          lines.push(`    ${id}${Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ""}`)
        } else lines.push(`    ${scalar(item)}`)
      }
    } else if (v !== undefined) lines.push(`  ${k}: ${scalar(v)}`)
  }
  return lines
}

/** A refusal: its envelope under `--json`; else its message, its fields and its hint on stderr. */
export const printError = (json: boolean, envelope: ErrorEnvelope, exitCode: number) => {
  const workdir = shownFor(envelope)
  if (json) {
    write(
      process.stdout,
      JSON.stringify({ ok: false, ...(workdir === undefined ? {} : { workdir }), error: envelope }),
      exitCode
    )
  } else {
    const line = workdir === undefined ? "" : `work folder: ${workdir}\n`
    write(
      process.stderr,
      terminalSafe(
        [`${line}error ${envelope._tag}: ${envelope.message}`, ...detailLines(envelope), `  ${envelope.hint}`]
          .join("\n")
      ),
      exitCode
    )
  }
}

export const printUsageError = (json: boolean, detail: string) => printError(json, usageEnvelope(detail), EXIT_USAGE)

export const printDefect = (json: boolean) => printError(json, defectEnvelope, EXIT_DEFECT)

/**
 * Run a command's effect and render its outcome. The error channel is the full domain union,
 * rendered through the exhaustive catalogue; anything else (defects, interruptions) is a Defect.
 */
export const respond = <A extends object>(
  json: boolean,
  effect: Effect.Effect<A, CommandFailure>,
  human: (a: A) => string,
  quiet = false
): Effect.Effect<void> =>
  Effect.matchCause(effect, {
    // The human text is built only when it is printed (`next --json` has thousands of facts).
    onSuccess: (a) => {
      if (quiet) process.exitCode = EXIT_OK
      else printSuccess(json, a, json ? "" : human(a))
    },
    onFailure: (cause) =>
      Option.match(Cause.failureOption(cause), {
        onSome: (error) =>
          error._tag === "UsageError"
            ? printUsageError(json, error.detail)
            : printError(json, envelopeOf(error), EXIT_REFUSED),
        onNone: () => {
          if (process.env["DOSSIER_DEBUG"] === "1") process.stderr.write(`${Cause.pretty(cause)}\n`)
          printDefect(json)
        }
      })
  })

/**
 * A command's effect over the layer it declares for the CLI, that layer built in one fiber
 * (src/layers/FlatBuild.ts: the same services, without effect's memo map and its fibers).
 */
export const provideWork = (w: AnyWork): Effect.Effect<object, CommandFailure> =>
  Effect.provide(w.effect, flatLayer(w.layer))

/** Run a command's work with the layer it declares for the CLI, and render its outcome. */
export const runWork = (json: boolean, w: AnyWork): Effect.Effect<void> =>
  respond(json, provideWork(w), w.human, w.quiet === true)
