/**
 * A refusal on the command line names what the user wrote. A service names a value it was given
 * by its parameter (`study`, `quote`, `grant`, `execution`: the library's words, and a tool call's
 * argument names); on the command line that value came from an option, so an `InvalidInput`
 * issue at such a name (or below it) becomes the option (`--study`). Only what came from this
 * command line is renamed, never the input file (`--input`): a path inside an input file stays
 * its dotted path, even at a top-level key spelled as one of the command's options (the keys
 * the command read, src/services/InputKeys.ts). The mirror of src/mcp/ArgumentNames.ts, which
 * names a tool's arguments.
 * On the start-up path: type-only imports of the domain.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import type { CommandSpec } from "../commands/Spec.js"
import type { CommandFailure } from "../commands/Work.js"
import type { InvalidInput } from "../domain/Errors.js"
import { InputKeys } from "../services/InputKeys.js"

/**
 * `study` → `--study`, for each option of `spec` that `values` holds (not the work folder, not
 * `--input`). A command that reads no input file has no other source of such a name, so there
 * an option left out is renamed too (`exec --study s` without `--candidate`: `--candidate`).
 */
const givenOptions = (spec: CommandSpec, values: Readonly<Record<string, unknown>>): ReadonlyMap<string, string> => {
  const names = new Map<string, string>()
  const readsInput = "input" in spec.flags
  for (const [key, f] of Object.entries(spec.flags)) {
    if (f.kind === "workdir" || f.kind === "boolean" || key === "input") continue
    const v = values[key]
    if (readsInput && (v === undefined || (Option.isOption(v) && Option.isNone(v)))) continue
    names.set(key, `--${f.name}`)
  }
  return names
}

/**
 * The refusal of `spec` run with `values`, naming the options where a service named its
 * parameters; `inputKeys`, the top-level keys of the input file it read, are never renamed.
 */
export const namingOptions = (
  spec: CommandSpec,
  values: Readonly<Record<string, unknown>>,
  inputKeys: ReadonlySet<string> = new Set()
) => {
  const names = new Map([...givenOptions(spec, values)].filter(([key]) => !inputKeys.has(key)))
  const renamed = (path: string): string => {
    const dot = path.indexOf(".")
    const flag = names.get(dot === -1 ? path : path.slice(0, dot))
    return flag === undefined ? path : `${flag}${dot === -1 ? "" : path.slice(dot)}`
  }
  return (error: CommandFailure): CommandFailure => {
    if (error._tag !== "InvalidInput" || names.size === 0) return error
    if (!error.issues.some((i) => renamed(i.path) !== i.path)) return error
    const Class = error.constructor as typeof InvalidInput
    return new Class({ issues: error.issues.map((i) => ({ path: renamed(i.path), message: i.message })) })
  }
}

/** `effect`, the work of `spec` run with `values`, refusing in the command line's names. */
export const inOptionNames = <A, R>(
  spec: CommandSpec,
  values: Readonly<Record<string, unknown>>,
  effect: Effect.Effect<A, CommandFailure, R>
): Effect.Effect<A, CommandFailure, R> =>
  Effect.catchAll(
    effect,
    (error) => Effect.flatMap(FiberRef.get(InputKeys), (keys) => Effect.fail(namingOptions(spec, values, keys)(error)))
  )
