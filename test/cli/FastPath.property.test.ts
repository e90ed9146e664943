/**
 * The start-up fast path and @effect/cli must agree: whenever the fast path accepts a command
 * line, @effect/cli parses the same line to the same command and the same values.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { buildRoot, runApp } from "../../src/cli/App.js"
import { fastParse } from "../../src/cli/FastPath.js"
import { allSpecs } from "../../src/cli/Specs.js"
import { route } from "../../src/cli/Usage.js"
import type { CommandSpec } from "../../src/commands/Spec.js"

const valueFor = (kind: string) =>
  kind === "integer"
    ? fc.constantFrom("1", "7", "0", "-3", "abc", "1.5", "99999999999999999999", " 4", "0x10")
    : kind === "now"
    ? fc.constantFrom(
      "2026-11-30T10:00:00Z",
      "2026-11-30T10:00:00.123+02:00",
      "2026-11-30",
      "garbage",
      "2026-02-30T10:00:00Z"
    )
    : fc.constantFrom("research/inputs/a.json", ".", "x y", "-dash", "--json", "true", "=")

const lineFor = (spec: CommandSpec) => {
  // Mostly well-formed flags (so the fast path often accepts), sometimes odd forms.
  const flagTokens = Object.values(spec.flags).map((f) =>
    f.kind === "boolean"
      ? fc.oneof(
        { weight: 6, arbitrary: fc.constant([`--${f.name}`]) },
        { weight: 1, arbitrary: fc.constantFrom([`--${f.name}`, "true"], [`--${f.name}=true`], []) }
      )
      : valueFor(f.kind).chain((v) =>
        fc.oneof(
          { weight: 6, arbitrary: fc.constant([`--${f.name}`, v]) },
          { weight: 1, arbitrary: fc.constantFrom([`--${f.name}=${v}`], [`--${f.name}`], []) }
        )
      )
  )
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant<ReadonlyArray<string>>([]) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<ReadonlyArray<string>>(["--help"], ["-h"], ["--bogus"], ["positional"], ["--json"], [
        "--workdir",
        "."
      ])
    }
  )
  return fc.tuple(fc.tuple(...flagTokens), extras, fc.boolean()).chain(([groups, extra, positionalFirst]) =>
    fc.shuffledSubarray(groups as Array<Array<string>>, { minLength: Math.max(0, groups.length - 1) }).map((picked) => {
      const pos = spec.args === undefined ? [] : ["name-or-url"]
      const body = [...picked.flat(), ...extra]
      // Words after `--` belong to the program, flags included.
      const rest = spec.rest === undefined ? [] : ["--", "prog", "-x", "--json"]
      return [...spec.path, ...(positionalFirst ? [...pos, ...body] : [...body, ...pos]), ...rest]
    })
  )
}

const cliParse = (argv: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    let captured: { path: ReadonlyArray<string>; values: Record<string, unknown> } | undefined
    const root = buildRoot((spec, values) => Effect.sync(() => void (captured = { path: spec.path, values })))
    const out = process.stdout.write.bind(process.stdout)
    const err = process.stderr.write.bind(process.stderr)
    // Silence help/usage output of declined lines.
    process.stdout.write = (() => true) as typeof process.stdout.write
    process.stderr.write = (() => true) as typeof process.stderr.write
    try {
      yield* Effect.exit(runApp(["node", "dossier", ...argv], root))
    } finally {
      process.stdout.write = out
      process.stderr.write = err
      process.exitCode = 0
    }
    return captured
  })

let accepted = 0

describe("fast path agrees with @effect/cli", () => {
  it.effect.prop(
    "every line the fast path accepts parses identically with @effect/cli",
    { argv: fc.constantFrom(...allSpecs).chain(lineFor) },
    ({ argv }) =>
      Effect.gen(function*() {
        const fast = fastParse(allSpecs, argv)
        if (fast === undefined) return
        accepted++
        const slow = yield* cliParse(argv)
        expect(slow, argv.join(" ")).toBeDefined()
        expect(slow!.path).toEqual(fast.spec.path)
        expect(slow!.values).toEqual(fast.values)
      }),
    { fastCheck: { numRuns: 300 } }
  )

  it.prop(
    "every line the fast path accepts, the full parser (src/cli/Usage.ts) runs with the same values",
    { argv: fc.constantFrom(...allSpecs).chain(lineFor) },
    ({ argv }) => {
      const fast = fastParse(allSpecs, argv)
      if (fast === undefined) return
      const full = route(argv)
      expect(full._tag, argv.join(" ")).toBe("Run")
      if (full._tag !== "Run") return
      expect(full.spec.path).toEqual(fast.spec.path)
      expect(full.values).toEqual(fast.values)
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("the property above exercised accepted lines", () => {
    expect(accepted).toBeGreaterThan(30)
  })

  it("accepts the plain lines agents use, and declines help and unknown flags", () => {
    expect(fastParse(allSpecs, ["plan", "inspect", "--workdir", "w", "--json"])).toBeDefined()
    expect(fastParse(allSpecs, ["plan", "checkpoint", "--input", "i.json", "--expected", "3", "--json"])).toBeDefined()
    expect(fastParse(allSpecs, ["plan", "inspect", "--help"])).toBeUndefined()
    expect(fastParse(allSpecs, ["plan", "inspect", "--bogus"])).toBeUndefined()
    // --expected may be left out: the input's expectedRevision may give it.
    expect(fastParse(allSpecs, ["plan", "checkpoint", "--input", "i.json", "--json"])?.values).toMatchObject({
      input: "i.json"
    })
    expect(fastParse(allSpecs, ["plan", "checkpoint", "--input", "i.json", "--expected", "x"])).toBeUndefined()
    expect(fastParse(allSpecs, ["plan"])).toBeUndefined()
    expect(fastParse(allSpecs, ["exec", "--grant", "g", "--json", "--", "ls", "--json"])?.values["program"]).toEqual([
      "ls",
      "--json"
    ])
    expect(fastParse(allSpecs, ["exec", "show", "--execution", "x"])?.spec.path).toEqual(["exec", "show"])
    expect(fastParse(allSpecs, ["exec", "--grant", "g", "--"])).toBeUndefined()
  })
})
