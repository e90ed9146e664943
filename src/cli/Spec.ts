/**
 * Commands as data. Each command is declared once here-style (path, flags, arguments, a lazily
 * loaded handler); from the same declaration come the @effect/cli command (help, completions,
 * usage errors) and the start-up fast path that parses a well-formed command line without
 * loading @effect/cli at all. Anything the fast path is unsure of goes to @effect/cli.
 * This module imports nothing heavy: it is on the start-up path of every command.
 */
import type * as Effect from "effect/Effect"

export type FlagSpec =
  | { readonly kind: "text"; readonly name: string; readonly description: string; readonly default?: string }
  | { readonly kind: "optionalText"; readonly name: string; readonly description: string }
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
  }
  | { readonly kind: "now"; readonly name: "now"; readonly description: string }

export interface ArgSpec {
  readonly name: string
  readonly description: string
  readonly optional: boolean
}

export interface CommandSpec {
  /** Words after `dossier`, e.g. ["plan", "inspect"]. */
  readonly path: ReadonlyArray<string>
  readonly description: string
  /** Keyed by the property name the handler receives. */
  readonly flags: Readonly<Record<string, FlagSpec>>
  readonly args?: Readonly<Record<string, ArgSpec>>
  /** Every word after `--`, as an array under `rest.name` (e.g. the program `exec` runs). */
  readonly rest?: ArgSpec
  /** Load the implementation and run it with the parsed values. */
  readonly run: (values: any) => Promise<Effect.Effect<void>>
}

/** A group of commands (`dossier plan …`) with its own description. */
export interface GroupSpec {
  readonly name: string
  readonly description: string
}

// Shared flags.
export const workdir: FlagSpec = {
  kind: "text",
  name: "workdir",
  description: "The work folder (default: the current directory).",
  default: "."
}
export const json: FlagSpec = {
  kind: "boolean",
  name: "json",
  description: "Print exactly one JSON object on stdout: {ok: true, ...} or {ok: false, error}."
}
export const input: FlagSpec = {
  kind: "text",
  name: "input",
  description:
    "The input JSON file, at most 64 KiB, inside the work folder (a relative path is taken from the work folder)."
}
export const now: FlagSpec = {
  kind: "now",
  name: "now",
  description: "Act as if it were this ISO-8601 instant (with Z or an offset); default: the system clock."
}

// Value parsers shared by the fast path and the @effect/cli commands, so both accept exactly the same.
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

export const parseNow = (s: string): Date | string => {
  const ms = ISO.test(s) ? Date.parse(s) : Number.NaN
  return Number.isNaN(ms) ? `--now expects an ISO-8601 instant such as 2026-11-30T10:00:00Z, got '${s}'` : new Date(ms)
}

export const parseInteger = (flag: { readonly name: string; readonly min?: number; readonly max?: number }, s: string): number | string => {
  const t = s.trim()
  const n = /^-?\d+$/.test(t) ? Number(t) : Number.NaN
  const min = flag.min ?? Number.MIN_SAFE_INTEGER
  const max = flag.max ?? Number.MAX_SAFE_INTEGER
  if (Number.isSafeInteger(n) && n >= min && n <= max) return n
  return flag.min !== undefined || flag.max !== undefined
    ? `--${flag.name} expects a whole number from ${min} to ${max}, got '${s}'`
    : `--${flag.name} expects a whole number, got '${s}'`
}
