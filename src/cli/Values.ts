/**
 * From the words of a command line, split into flag values, positionals and the words after
 * `--`, to the values a handler receives (`Option`s, numbers, `Date`s, defaults). One function
 * for the start-up fast path (which declines a line on any miss) and the full parser in
 * ./Usage.ts (which answers the miss as a usage error), so both convert exactly alike.
 * Light: on the start-up path of every command.
 */
import * as Option from "effect/Option"
import {
  type ArgSpec,
  type CommandSpec,
  type FlagSpec,
  giveA,
  isRequired,
  parseInteger,
  parseNow,
  valueKindOf
} from "../commands/Spec.js"

/** `--name <kind>`, or `--name` for a boolean: how usage lines and messages write a flag. */
export const placeholder = (f: FlagSpec): string => {
  const k = valueKindOf(f)
  return k === undefined ? `--${f.name}` : `--${f.name} <${k}>`
}

/** How usage lines write the words after `--` (`<program> [args…]`). */
export const restUsage = (rest: ArgSpec): string => rest.usage ?? `<${rest.name}>…`

export const commandName = (spec: CommandSpec): string => `dossier ${spec.path.join(" ")}`

/**
 * What an empty value is told, for a flag (`--status <status>: the value is empty; give a
 * status`) or a positional argument (`<url>: …`, exec's `<program>: …`): one sentence for all.
 */
export const emptyValueMessage = (f: FlagSpec | ArgSpec): string =>
  `${"kind" in f ? placeholder(f) : `<${f.name}>`}: the value is empty; ${giveA(valueKindOf(f))}`

export type Converted =
  | { readonly _tag: "Values"; readonly values: Record<string, unknown> }
  /** What is missing or wrong, said as a usage error says it. */
  | { readonly _tag: "Miss"; readonly message: string }

const miss = (message: string): Converted => ({ _tag: "Miss", message })

/**
 * What a missing flag or argument is told of it: the first sentence of its description (a
 * sentence ends at `.`, `!` or `?` before a space and a capital, not in `0-9 . _` or `e.g. x`).
 * The whole description is its help page's; repeated in full, a long one (gate's --state) ran
 * past what a refusal repeats and was clipped mid-word.
 */
const firstSentence = (description: string): string => description.split(/(?<=[.!?])\s+(?=[A-Z`"])/)[0]!

/**
 * Convert `raw` (flag key → its text, or a boolean for a boolean flag), `positionals` and
 * `forced` (the words after `--`, for a command with `rest`) into the handler's values.
 */
export const toValues = (
  spec: CommandSpec,
  raw: ReadonlyMap<string, string | boolean>,
  positionals: ReadonlyArray<string>,
  forced: ReadonlyArray<string>
): Converted => {
  const name = commandName(spec)
  const values: Record<string, unknown> = {}
  // An empty value (`--state ""`, `--workdir "$UNSET"`) is the same mistake for every flag, one
  // the command line shows by itself: a usage error (exit 2), before any other flag is judged.
  // (An empty path would name the current directory: never guess.) So is an empty positional
  // argument (`ingest ""`, `schema ""`) and an empty program after `--`; the program's own
  // arguments may be empty.
  for (const [key, f] of Object.entries(spec.flags)) {
    if (raw.get(key) === "") return miss(emptyValueMessage(f))
  }
  for (const [i, a] of Object.values(spec.args ?? {}).entries()) {
    if (positionals[i] === "") return miss(emptyValueMessage(a))
  }
  if (spec.rest !== undefined && forced[0] === "") return miss(emptyValueMessage(spec.rest))
  if (spec.rest !== undefined) {
    if (forced.length === 0 && !spec.rest.optional) {
      return miss(`'${name}' needs ${restUsage(spec.rest)} after --.`)
    }
    values[spec.rest.name] = forced
  }
  for (const [i, [key, a]] of Object.entries(spec.args ?? {}).entries()) {
    const v = positionals[i]
    if (v === undefined && !a.optional) return miss(`'${name}' needs <${a.name}>: ${firstSentence(a.description)}`)
    values[key] = a.optional ? Option.fromNullable(v) : v
  }
  for (const [key, f] of Object.entries(spec.flags)) {
    const v = raw.get(key)
    if (v === undefined && isRequired(f)) {
      return miss(`'${name}' needs ${placeholder(f)}: ${firstSentence(f.description)}`)
    }
    switch (f.kind) {
      case "boolean":
        values[key] = v === true
        break
      case "text":
        values[key] = v ?? f.default
        break
      case "optionalText":
      case "workdir":
        values[key] = Option.fromNullable(v as string | undefined)
        break
      case "integer": {
        if (v === undefined) {
          values[key] = f.default ?? Option.none()
          break
        }
        const n = parseInteger(f, v as string)
        if (typeof n === "string") return miss(n)
        values[key] = f.optional === true && f.default === undefined ? Option.some(n) : n
        break
      }
      case "now": {
        if (v === undefined) {
          values[key] = Option.none()
          break
        }
        const d = parseNow(v as string)
        if (typeof d === "string") return miss(d)
        values[key] = Option.some(d)
        break
      }
    }
  }
  return { _tag: "Values", values }
}
