/**
 * A refusal names what was given the way the caller gave it: on the command line its options
 * (`--status`, `--review-item`), in a tool call its arguments (`status`, `reviewItem`: the flags'
 * keys, src/mcp/ToolArguments.ts). A command's code names its options as the command line spells
 * them; so before a tool's refusal is rendered, every option of its command named in a field
 * that says what was given — an `InvalidInput` issue's `path` (and its message),
 * `InputOutsideWorkdir.flag`, `DispositionRefused.missing` — or in a `UsageError` becomes the
 * argument's name (and a `UsageError` that opens with the command's words names the tool).
 */
import { type CommandSpec, toolName } from "../commands/Spec.js"
import type { CommandFailure } from "../commands/Work.js"
import { UsageError } from "../domain/CliErrors.js"
import { InputOutsideWorkdir, InvalidInput } from "../domain/Errors.js"
import { DispositionRefused } from "../domain/MonitorErrors.js"

/** `--review-item` → `reviewItem`, for each option of the command (`--input` → `input`). */
const argumentNames = (spec: CommandSpec): ReadonlyMap<string, string> =>
  new Map(Object.entries(spec.flags).map(([key, f]) => [`--${f.name}`, key]))

/** A path that starts with an option (`--status`, `--authorization.messageId`): the argument's name instead. */
const renamedPath = (names: ReadonlyMap<string, string>, path: string): string => {
  const dot = path.indexOf(".")
  const head = dot === -1 ? path : path.slice(0, dot)
  const key = names.get(head)
  return key === undefined ? path : `${key}${dot === -1 ? "" : path.slice(dot)}`
}

/** The refusal of a tool call of `spec`, naming its arguments where the command named its options. */
export const namingArguments = (spec: CommandSpec) => {
  const names = argumentNames(spec)
  // `--flag <kind>` in a sentence (`needs --descriptor <path>`): the argument's name.
  const inText = (text: string) =>
    text.replace(/--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?: <[^>\s]+>)?/g, (whole, name: string) => {
      const key = names.get(`--${name}`)
      return key === undefined ? whole : key
    })
  // A usage refusal in the tool's words: the command's words at its start (`monitor show`) are the
  // tool's name, and the options it lists (`the flags --run, --to`) are arguments.
  const words = spec.path.join(" ")
  const inUsage = (text: string) =>
    inText(
      text.startsWith(`${words} `) || text.startsWith(`${words}:`)
        ? `${toolName(spec)}${text.slice(words.length)}`
        : text
    ).replaceAll("the flags ", "the arguments ")
  return (error: CommandFailure): CommandFailure => {
    switch (error._tag) {
      case "InvalidInput":
        return new InvalidInput({
          issues: error.issues.map((i) => ({ path: renamedPath(names, i.path), message: inText(i.message) }))
        })
      case "InputOutsideWorkdir":
        return error.flag === undefined
          ? error
          : new InputOutsideWorkdir({ path: error.path, flag: renamedPath(names, error.flag) })
      case "DispositionRefused":
        return error.missing === undefined
          ? error
          : new DispositionRefused({ outcomeId: error.outcomeId, reason: error.reason, missing: inText(error.missing) })
      case "UsageError":
        return new UsageError({ detail: inUsage(error.detail) })
      default:
        return error
    }
  }
}
