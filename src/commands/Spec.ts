/**
 * Commands as data. Each command is declared once (path, flags, arguments, a lazily loaded
 * handler) with `command(...)`; from the same declaration come the start-up fast path (which
 * parses a well-formed command line without loading @effect/cli), the diagnosis of a malformed
 * one (src/cli/Usage.ts), the help pages and the @effect/cli command (completions, the rare
 * forms the fast path leaves to it). The handler's `values` type is computed from the declared
 * flags, so renaming a flag without its handler fails to compile.
 * This module imports nothing heavy: it is on the start-up path of every command.
 */
import type * as Option from "effect/Option"
import { parseRealInstant } from "../domain/Instant.js"
import type { AnyWork } from "./Work.js"

/** What a text value is, for help pages (`<path>`, `<id>`…); text by default. */
export type ValueKind = "text" | "path" | "id" | "url" | "status"

export type FlagSpec =
  | {
    readonly kind: "text"
    readonly name: string
    readonly description: string
    readonly default?: string
    readonly value?: ValueKind
  }
  | {
    readonly kind: "optionalText"
    readonly name: string
    readonly description: string
    readonly value?: ValueKind
    /**
     * Required all the same: help, usage lines, the parsers and the MCP tool treat it as required,
     * while its value stays an `Option` and @effect/cli's command tree (for completions) sees it as
     * optional (`exec --grant`: a required flag of `exec` would make it refuse `exec show`).
     */
    readonly required?: boolean
    /**
     * For a command that also takes its input file's fields as flags (the monitor's small
     * actions): the field (a dotted path) this flag gives, and whether the flag form needs it.
     */
    readonly field?: string
    readonly needed?: boolean
  }
  | { readonly kind: "boolean"; readonly name: string; readonly description: string }
  | {
    readonly kind: "integer"
    readonly name: string
    readonly description: string
    /** Without a value: `Option.none()` when optional, `default` when given, else required. */
    readonly optional?: boolean
    readonly default?: number
    readonly min?: number
    readonly max?: number
    /**
     * For a command that also takes its input file's fields as flags (the monitor's small
     * actions): the field (a dotted path) this flag gives, and whether the flag form needs it.
     */
    readonly field?: string
    readonly needed?: boolean
  }
  | { readonly kind: "now"; readonly name: "now"; readonly description: string }
  /** `--workdir`: parsed as optional text; without it the folder is discovered (src/cli/Discover.ts). */
  | { readonly kind: "workdir"; readonly name: "workdir"; readonly description: string }

export interface ArgSpec {
  readonly name: string
  readonly description: string
  readonly optional: boolean
  readonly value?: ValueKind
  /** How usage lines write it, when not `<name>` (a rest: `<program> [args…]`). */
  readonly usage?: string
}

export type Flags = Readonly<Record<string, FlagSpec>>
export type Args = Readonly<Record<string, ArgSpec>>

/** The value a handler receives for one flag. */
export type FlagValue<F> = F extends { readonly kind: "boolean" } ? boolean
  : F extends { readonly kind: "text" } ? string
  : F extends { readonly kind: "workdir" } ? string
  : F extends { readonly kind: "optionalText" } ? Option.Option<string>
  : F extends { readonly kind: "integer"; readonly default: number } ? number
  : F extends { readonly kind: "integer"; readonly optional: true } ? Option.Option<number>
  : F extends { readonly kind: "integer" } ? number
  : F extends { readonly kind: "now" } ? Option.Option<Date>
  : never

export type ArgValue<A> = A extends { readonly optional: true } ? Option.Option<string> : string

/** The values a handler receives: one per declared flag and argument, typed by its kind. */
export type ValuesOf<F extends Flags, A extends Args, R extends ArgSpec = never> =
  & { readonly [K in keyof F]: FlagValue<F[K]> }
  & { readonly [K in keyof A]: ArgValue<A[K]> }
  & { readonly [K in R["name"]]: ReadonlyArray<string> }

export interface TypedCommandSpec<F extends Flags, A extends Args, R extends ArgSpec = never> {
  /** Words after `dossier`, e.g. ["plan", "inspect"]. */
  readonly path: ReadonlyArray<string>
  readonly description: string
  /** Keyed by the property name the handler receives. */
  readonly flags: F
  readonly args?: A
  /** Every word after `--`, as an array under `rest.name` (e.g. the program `exec` runs). */
  readonly rest?: R
  /**
   * For a command that reads an input file (`--input`): the name of its Schema in `dossier schema`
   * (the MCP tool's inline `input` is described by it).
   */
  readonly inputSchema?: string
  /**
   * The command's MCP tools when it has modes that are tools of their own (`gate --recheck` →
   * `gate_recheck`): each takes only the flags it names, with `fixed` values set. Default: one
   * tool taking every flag.
   */
  readonly tools?: ReadonlyArray<ToolMode>
  /**
   * Load the implementation and give its work for the parsed values (an Effect answering the
   * `--json` fields, see ./Work.ts), which the CLI renders and the MCP server answers with.
   */
  readonly run: (values: ValuesOf<F, A, R>) => Promise<AnyWork>
}

/** A declaration with its value types erased: what the tables, parsers and help pages hold. */
export interface CommandSpec {
  readonly path: ReadonlyArray<string>
  readonly description: string
  readonly flags: Flags
  readonly args?: Args
  readonly rest?: ArgSpec
  readonly inputSchema?: string
  readonly tools?: ReadonlyArray<ToolMode>
  readonly run: (values: Record<string, unknown>) => Promise<AnyWork>
}

/** One MCP tool of a command (see `tools`). */
export interface ToolMode {
  /** Appended to the command's tool name with `_` (none: the command's own name). */
  readonly suffix?: string
  /** What this tool does (default: the command's description). */
  readonly description?: string
  /** The flags and arguments (by key) it takes; the others keep their defaults. */
  readonly takes: ReadonlyArray<string>
  /** Values set for it (e.g. `{recheck: true}`). */
  readonly fixed?: Readonly<Record<string, unknown>>
}

/** A tool's name: the command's words and the mode's suffix joined by `_`, each `-` an `_` (`gate_recheck`). */
export const toolName = (spec: CommandSpec, mode?: ToolMode): string =>
  [...spec.path, ...(mode?.suffix === undefined ? [] : [mode.suffix])].join("_").replaceAll("-", "_")

/**
 * The tool a command line amounts to: the mode whose `fixed` values the line's values hold
 * (`gate --recheck` is `gate_recheck`), else the mode that fixes nothing; none for a command
 * without modes.
 */
export const modeOf = (spec: CommandSpec, values: Readonly<Record<string, unknown>>): ToolMode | undefined =>
  spec.tools?.find((m) => m.fixed !== undefined && Object.entries(m.fixed).every(([k, v]) => values[k] === v)) ??
    spec.tools?.find((m) => m.fixed === undefined)

/** Declare a command; the handler's `values` are typed from `flags` and `args`. */
export const command = <const F extends Flags, const A extends Args = {}, const R extends ArgSpec = never>(
  spec: TypedCommandSpec<F, A, R>
): CommandSpec => spec as unknown as CommandSpec

/** A group of commands (`dossier plan …`) with its own description. */
export interface GroupSpec {
  readonly name: string
  readonly description: string
}

// Shared flags (explained once, in `dossier --help`).
export const workdir = {
  kind: "workdir",
  name: "workdir",
  description:
    "The work folder. Default: $DOSSIER_WORKDIR, else the nearest folder from the current one upward that holds .dossier/ or a plan.md with a dossier section (the search stops at another file system and at /), else the current directory."
} as const satisfies FlagSpec
export const json = {
  kind: "boolean",
  name: "json",
  description: "Print exactly one JSON object on stdout: {ok: true, ...} or {ok: false, error}."
} as const satisfies FlagSpec
export const input = {
  kind: "text",
  name: "input",
  value: "path",
  description:
    "The input JSON file (at most 64 KiB, inside the work folder): a relative path is taken from the current directory when the file exists there, else from the work folder; '-' reads standard input."
} as const satisfies FlagSpec
export const now = {
  kind: "now",
  name: "now",
  description: "Act as if it were this ISO-8601 instant (with Z or an offset); default: the system clock."
} as const satisfies FlagSpec

/** Flag names every command that has them explains in `dossier --help` instead of on its own page. */
export const SHARED_FLAGS: ReadonlyArray<FlagSpec> = [workdir, json, now, input]

/**
 * A flag whose value is one of a few words (`--status`, `--to`, `--disposition`): another value
 * fails the flag's own validation, a UsageError (exit 2) like `--timeout abc`.
 */
export const isChoiceFlag = (f: FlagSpec): boolean => f.kind === "optionalText" && f.value === "status"

/** Must the flag be given? (A text or integer flag without a default, or a required optionalText.) */
export const isRequired = (f: FlagSpec): boolean =>
  (f.kind === "text" && f.default === undefined) ||
  (f.kind === "integer" && f.default === undefined && f.optional !== true) ||
  (f.kind === "optionalText" && f.required === true)

/** What to give in place of an empty value of that kind: "give a status", "give a value". */
export const giveA = (kind: string | undefined): string =>
  kind === undefined || kind === "text"
    ? "give a value"
    : `give ${/^(?:[aeio]|u(?!r[il]))/.test(kind) ? "an" : "a"} ${kind}`

/** The placeholder of a flag's value in usage lines and help (`<integer>`, `<instant>`…). */
export const valueKindOf = (f: FlagSpec | ArgSpec): string | undefined => {
  if (!("kind" in f)) return f.value ?? "text"
  switch (f.kind) {
    case "boolean":
      return undefined
    case "integer":
      return "integer"
    case "now":
      return "instant"
    case "workdir":
      return "path"
    default:
      return f.value ?? "text"
  }
}

// Value parsers shared by the fast path and the @effect/cli commands, so both accept exactly the same.
// A real calendar time, years 0000–9999 (`2026-02-30` is refused, not rolled over to March 2).
export const parseNow = (s: string): Date | string => {
  const ms = parseRealInstant(s)
  return ms === undefined
    ? `--now expects a real ISO-8601 instant such as 2026-11-30T10:00:00Z, got '${s}'`
    : new Date(ms)
}

export const parseInteger = (
  flag: { readonly name: string; readonly min?: number; readonly max?: number },
  s: string
): number | string => {
  // Digits only, as written: `' 1'` or `'1 '` is refused, not trimmed.
  const n = /^-?\d+$/.test(s) ? Number(s) : Number.NaN
  const min = flag.min ?? Number.MIN_SAFE_INTEGER
  const max = flag.max ?? Number.MAX_SAFE_INTEGER
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n
  return flag.min !== undefined || flag.max !== undefined
    ? `--${flag.name} expects a whole number from ${min} to ${max}, got '${s}'`
    : `--${flag.name} expects a whole number, got '${s}'`
}
