/** Build @effect/cli commands from the command declarations (help, usage errors, completions). */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import { type CommandSpec, type FlagSpec, parseInteger, parseNow } from "../commands/Spec.js"
import { prepareValues } from "./Discover.js"
import { inOptionNames } from "./OptionNames.js"
import { runWork } from "./Render.js"

const fail = (message: string) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message)))

export const optionOf = (f: FlagSpec): Options.Options<unknown> => {
  switch (f.kind) {
    case "text": {
      const o = Options.text(f.name).pipe(Options.withDescription(f.description))
      return f.default === undefined ? o : o.pipe(Options.withDefault(f.default))
    }
    case "optionalText":
    case "workdir":
      return Options.text(f.name).pipe(Options.withDescription(f.description), Options.optional)
    case "boolean":
      return Options.boolean(f.name).pipe(Options.withDescription(f.description))
    case "integer": {
      const o = Options.text(f.name).pipe(
        Options.withDescription(f.description),
        Options.mapEffect((s) => {
          const n = parseInteger(f, s)
          return typeof n === "string" ? fail(n) : Effect.succeed(n)
        })
      )
      return f.default !== undefined ? Options.withDefault(o, f.default) : f.optional === true ? Options.optional(o) : o
    }
    case "now":
      return Options.text(f.name).pipe(
        Options.withDescription(f.description),
        Options.mapEffect((s) => {
          const d = parseNow(s)
          return typeof d === "string" ? fail(d) : Effect.succeed(d)
        }),
        Options.optional
      )
  }
}

/** The @effect/cli command of one declaration; `handle` receives the parsed values. */
export const commandOf = (
  spec: CommandSpec,
  handle: (spec: CommandSpec, values: Record<string, unknown>) => Effect.Effect<void>
) => {
  const config: Record<string, Options.Options<unknown> | Args.Args<unknown>> = {}
  for (const [key, a] of Object.entries(spec.args ?? {})) {
    const arg = Args.text({ name: a.name }).pipe(Args.withDescription(a.description))
    config[key] = a.optional ? Args.optional(arg) : arg
  }
  if (spec.rest !== undefined) {
    const arg = Args.text({ name: spec.rest.name }).pipe(Args.withDescription(spec.rest.description))
    // Zero or more here, so that a command with subcommands (`exec show`) still parses; a handler
    // whose rest is required refuses an empty one as a usage error.
    config[spec.rest.name] = Args.repeated(arg)
  }
  for (const [key, f] of Object.entries(spec.flags)) config[key] = optionOf(f)
  return Command.make(spec.path[spec.path.length - 1]!, config, (values) => {
    // A command with subcommands (`exec`) also receives `subcommand`; it is not one of its values.
    const { subcommand: _subcommand, ...own } = values as Record<string, unknown>
    return handle(spec, own)
  }).pipe(
    Command.withDescription(spec.description)
  )
}

/** Run a declaration's handler: resolve the work folder, load its implementation, then run and render its work. */
export const runSpec = (spec: CommandSpec, values: Record<string, unknown>): Effect.Effect<void> => {
  const prepared = prepareValues(spec, values)
  return Effect.flatMap(
    Effect.promise(() => spec.run(prepared)),
    (w) => runWork(values["json"] === true, { ...w, effect: inOptionNames(spec, prepared, w.effect) })
  )
}
