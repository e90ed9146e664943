/** Options shared by commands declared directly with @effect/cli (the declared ones use Spec.ts). */
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import { parseInteger, parseNow } from "./Spec.js"

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


/** `--now <ISO-8601>`: the time the command acts at (default: the system clock). */
export const now = Options.text("now").pipe(
  Options.withDescription("Act as if it were this ISO-8601 instant (with Z or an offset); default: the system clock."),
  Options.mapEffect((s) => {
    const d = parseNow(s)
    return typeof d === "string" ? Effect.fail(ValidationError.invalidValue(HelpDoc.p(d))) : Effect.succeed(d)
  }),
  Options.optional
)

/** Integer flag with an inclusive range; values outside are usage errors. */
export const boundedInteger = (name: string, min: number, max: number) =>
  Options.text(name).pipe(
    Options.mapEffect((s) => {
      const n = parseInteger({ name, min, max }, s)
      return typeof n === "string" ? Effect.fail(ValidationError.invalidValue(HelpDoc.p(n))) : Effect.succeed(n)
    })
  )
