/**
 * The start-up fast path: parse a well-formed command line against the command declarations
 * without loading @effect/cli. It accepts only the plain form `dossier <words> [--flag value |
 * --bool | positional]...` with known flags, each once, and valid values; anything else
 * (help, `=`, `--input -`, short flags, unknown or repeated flags, a value that fails validation,
 * a missing required flag) returns undefined and src/cli/Usage.ts handles the line, so usage
 * errors and help always come from one place. Property tests check that the fast path, Usage.ts
 * and @effect/cli agree on every line the fast path accepts.
 */
import * as Option from "effect/Option"
import { type CommandSpec, parseInteger, parseNow } from "./Spec.js"

const BOOLEAN_WORDS = new Set(["true", "1", "y", "yes", "on", "false", "0", "n", "no", "off"])

export interface FastMatch {
  readonly spec: CommandSpec
  readonly values: Record<string, unknown>
}

export const fastParse = (specs: ReadonlyArray<CommandSpec>, argv: ReadonlyArray<string>): FastMatch | undefined => {
  const spec = specs.find((s) => s.path.every((w, i) => argv[i] === w))
  if (spec === undefined) return undefined
  let rest = argv.slice(spec.path.length)
  let forced: ReadonlyArray<string> | undefined
  if (spec.rest !== undefined) {
    const dashes = rest.indexOf("--")
    if (dashes === -1) return undefined
    forced = rest.slice(dashes + 1)
    rest = rest.slice(0, dashes)
    if (forced.length === 0 && !spec.rest.optional) return undefined
  }
  const byName = new Map<string, { key: string; f: CommandSpec["flags"][string] }>(
    Object.entries(spec.flags).map(([key, f]) => [`--${f.name}`, { key, f }])
  )
  const raw = new Map<string, string | true>()
  const positionals: Array<string> = []
  for (let i = 0; i < rest.length; i++) {
    const tok = rest[i]!
    if (tok.startsWith("-")) {
      const hit = byName.get(tok)
      if (hit === undefined || raw.has(hit.key)) return undefined
      if (hit.f.kind === "boolean") {
        const next = rest[i + 1]
        if (next !== undefined && BOOLEAN_WORDS.has(next.toLowerCase())) return undefined
        raw.set(hit.key, true)
        continue
      }
      const value = rest[i + 1]
      if (value === undefined || value.startsWith("-")) return undefined
      raw.set(hit.key, value)
      i++
      continue
    }
    positionals.push(tok)
  }
  const args = Object.entries(spec.args ?? {})
  if (positionals.length > args.length) return undefined
  const values: Record<string, unknown> = {}
  if (spec.rest !== undefined) values[spec.rest.name] = forced
  for (const [i, [key, a]] of args.entries()) {
    const v = positionals[i]
    if (v === undefined && !a.optional) return undefined
    values[key] = a.optional ? Option.fromNullable(v) : v
  }
  for (const [key, f] of Object.entries(spec.flags)) {
    const v = raw.get(key)
    switch (f.kind) {
      case "boolean":
        values[key] = v === true
        break
      case "text":
        if (v === undefined && f.default === undefined) return undefined
        values[key] = v ?? f.default
        break
      case "optionalText":
      case "workdir":
        values[key] = Option.fromNullable(v as string | undefined)
        break
      case "integer": {
        if (v === undefined) {
          if (f.default !== undefined) values[key] = f.default
          else if (f.optional === true) values[key] = Option.none()
          else return undefined
          break
        }
        const n = parseInteger(f, v as string)
        if (typeof n === "string") return undefined
        values[key] = f.optional === true && f.default === undefined ? Option.some(n) : n
        break
      }
      case "now": {
        if (v === undefined) {
          values[key] = Option.none()
          break
        }
        const d = parseNow(v as string)
        if (typeof d === "string") return undefined
        values[key] = Option.some(d)
        break
      }
    }
  }
  return { spec, values }
}
