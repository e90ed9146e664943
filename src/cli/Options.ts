/** Options shared by every command. */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"

export const workdir = Options.text("workdir").pipe(
  Options.withDefault("."),
  Options.withDescription("The work folder (default: the current directory).")
)

export const json = Options.boolean("json").pipe(
  Options.withDescription("Print exactly one JSON object on stdout: {ok: true, ...} or {ok: false, error}.")
)

export const input = Options.text("input").pipe(
  Options.withDescription("The input JSON file, inside the work folder, at most 64 KiB.")
)

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** `--now <ISO-8601>`: the time the command acts at (default: the system clock). */
export const now = Options.text("now").pipe(
  Options.withDescription("Act as if it were this ISO-8601 instant (with Z or an offset); default: the system clock."),
  Options.mapEffect((s) => {
    const ms = ISO.test(s) ? Date.parse(s) : Number.NaN
    return Number.isNaN(ms)
      ? Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--now expects an ISO-8601 instant such as 2026-11-30T10:00:00Z, got '${s}'`)))
      : Effect.succeed(new Date(ms))
  }),
  Options.optional
)

/** Integer flag with an inclusive range; values outside are usage errors. */
export const boundedInteger = (name: string, min: number, max: number) =>
  Options.text(name).pipe(
    Options.mapEffect((s) => {
      const n = /^-?\d+$/.test(s.trim()) ? Number(s.trim()) : Number.NaN
      return Number.isInteger(n) && n >= min && n <= max
        ? Effect.succeed(n)
        : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name} expects a whole number from ${min} to ${max}, got '${s}'`)))
    })
  )
