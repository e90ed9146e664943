/**
 * The start-up fast path: parse a well-formed command line against the command declarations
 * without loading @effect/cli. It accepts only the plain form `dossier <words> [--flag value |
 * --bool | positional]...` with known flags, each once, and valid values; anything else
 * (help, `=`, `--input -`, short flags, unknown or repeated flags, a value that fails validation,
 * a missing required flag) returns undefined and src/cli/Usage.ts handles the line, so usage
 * errors and help always come from one place. Property tests check that the fast path, Usage.ts
 * and @effect/cli agree on every line the fast path accepts.
 */
import type { CommandSpec } from "../commands/Spec.js"
import { toValues } from "./Values.js"

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
  if (positionals.length > Object.keys(spec.args ?? {}).length) return undefined
  const converted = toValues(spec, raw, positionals, forced ?? [])
  return converted._tag === "Miss" ? undefined : { spec, values: converted.values }
}
