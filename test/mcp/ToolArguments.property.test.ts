/**
 * A tool call's arguments decode to exactly the values the CLI's parser gives the same command
 * for the same flags (workdir, json and the input file aside), for every tool of the table.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { fastParse } from "../../src/cli/FastPath.js"
import { allSpecs } from "../../src/cli/Specs.js"
import { allSchemas } from "../../src/commands/schemas/index.js"
import { type CommandSpec, type FlagSpec, giveA, valueKindOf } from "../../src/commands/Spec.js"
import { toolArguments } from "../../src/mcp/ToolArguments.js"
import { isTool, modesOf } from "../../src/mcp/Tools.js"
import { InlineInput } from "../../src/services/InputFile.js"

const valueOf = (f: FlagSpec): fc.Arbitrary<{ cli: Array<string>; tool: unknown } | undefined> => {
  switch (f.kind) {
    case "boolean":
      return fc.boolean().map((b) => (b ? { cli: [`--${f.name}`], tool: true } : undefined))
    case "integer": {
      const min = f.min ?? 0
      const max = f.max ?? 1000
      return fc.integer({ min, max }).map((n) => ({ cli: [`--${f.name}`, String(n)], tool: n }))
    }
    case "now":
      return fc.constantFrom("2026-11-30T10:00:00Z", "2026-11-30T10:00:00.123+02:00").map((s) => ({
        cli: ["--now", s],
        tool: s
      }))
    default:
      // Now and then an empty value, which both refuse, whatever the flag (an empty path would name
      // the folder itself).
      return fc.oneof(
        { arbitrary: fc.constantFrom("research/inputs/a.json", "x y", "lit.w0"), weight: 9 },
        { arbitrary: fc.constant(""), weight: 1 }
      ).map((s) => ({
        cli: [`--${f.name}`, s],
        tool: s
      }))
  }
}

const tools = allSpecs.filter(isTool).flatMap((spec) => modesOf(spec).map((mode) => ({ spec, mode })))

describe("tool arguments agree with the CLI's parser", () => {
  for (const { spec, mode } of tools) {
    const name = [...spec.path, mode?.suffix ?? ""].join(" ").trim()
    const keys = Object.entries(spec.flags).filter(([k, f]) =>
      k !== "workdir" && k !== "json" && f.name !== "input" && (mode === undefined || mode.takes.includes(k))
    )
    const args = Object.entries(spec.args ?? {}).filter(([k]) => mode === undefined || mode.takes.includes(k))
    // The tool's decoder is built once per tool, as the server builds it once at start.
    const decoder = toolArguments(spec as CommandSpec, allSchemas(), mode)
    it.prop(`${name}`, {
      flags: fc.tuple(...keys.map(([, f]) => fc.option(valueOf(f), { nil: undefined }))),
      positional: fc.constantFrom("https://example.org/a", undefined)
    }, ({ flags, positional }) => {
      const cli: Array<string> = [...spec.path]
      const tool: Record<string, unknown> = {}
      keys.forEach(([k], i) => {
        const v = flags[i]
        if (v === undefined) return
        for (const arg of v.cli) cli.push(arg)
        tool[k] = v.tool
      })
      const needsInput = spec.flags["input"] !== undefined && spec.flags["input"].kind === "text"
      if (needsInput) {
        cli.push("--input", "research/inputs/x.json")
        tool["input"] = { any: 1 }
      }
      for (const [k] of args) {
        if (positional === undefined) continue
        cli.push(positional)
        tool[k] = positional
      }
      const parsed = fastParse(allSpecs, cli)
      const decoded = decoder.decode(tool)
      const emptied = keys.filter(([k]) => tool[k] === "").map(([k]) => k)
      if (emptied.length > 0) {
        expect(parsed, cli.join(" ")).toBeUndefined()
        expect(Either.isLeft(decoded), JSON.stringify(tool)).toBe(true)
        // Refused for that, when nothing else is wrong.
        const filled = { ...tool, ...Object.fromEntries(emptied.map((k) => [k, "x"])) }
        expect(Either.isLeft(decoded) && decoded.left._tag, JSON.stringify(tool)).toBe("UsageError")
        if (Either.isRight(decoder.decode(filled)) && Either.isLeft(decoded)) {
          const [k] = emptied
          expect(decoded.left.message).toContain(
            `argument '${k}': the value is empty; ${giveA(valueKindOf(spec.flags[k!]!))}`
          )
        }
        return
      }
      if (parsed === undefined) return // a required flag was left out: the CLI declines, the tool refuses (checked below)
      expect(Either.isRight(decoded), JSON.stringify(tool)).toBe(true)
      const values = Either.getOrThrow(decoded)
      for (const [k, v] of Object.entries(parsed.values)) {
        if (k === "workdir" || k === "json") continue
        if (k === "input") {
          const inline = Option.isOption(values[k])
            ? Option.getOrUndefined(values[k] as Option.Option<unknown>)
            : values[k]
          if (needsInput) expect(inline).toBeInstanceOf(InlineInput)
          continue
        }
        expect(values[k], `${name}: ${k}`).toStrictEqual(mode?.fixed?.[k] ?? v)
      }
    })
  }

  it("a tool refuses what it does not take and what is missing", () => {
    const checkpoint = allSpecs.find((s) => s.path.join(" ") === "plan checkpoint")!
    const args = toolArguments(checkpoint, allSchemas())
    expect(Either.isLeft(args.decode({}))).toBe(true) // the input is required
    // The revision may be `expected` or the input's `expectedRevision`: the command checks that one is given.
    expect(Either.isRight(args.decode({ input: { expectedRevision: 1 } }))).toBe(true)
    expect(Either.isLeft(args.decode({ expected: 1, input: {}, workdir: "/" }))).toBe(true)
    expect(Either.isRight(args.decode({ expected: 1, input: {} }))).toBe(true)
  })

  it("a refused argument is named once, with what the tool takes instead", () => {
    const refusal = (path: string, args: unknown) => {
      const spec = allSpecs.find((s) => s.path.join(" ") === path)!
      const decoded = toolArguments(spec, allSchemas()).decode(args)
      return Either.isLeft(decoded) ? decoded.left.message : undefined
    }
    // The bounds, not the argument's description; never "Expected undefined".
    expect(refusal("plan checkpoint", { expected: -1, input: {} })).toBe(
      "argument 'expected': expected an integer of at least 1, got -1"
    )
    expect(refusal("ingest", { url: "https://example.org/", timeout: 500 })).toBe(
      "argument 'timeout': expected an integer from 1 to 120, got 500"
    )
    expect(refusal("ingest", { url: "https://example.org/", timeout: "5" })).toBe(
      "argument 'timeout': expected an integer from 1 to 120, got \"5\""
    )
    expect(refusal("ingest", { url: "https://example.org/", dryRun: "yes" })).toBe(
      "argument 'dryRun': Expected boolean, actual \"yes\""
    )
    expect(refusal("monitor due", { now: "yesterday" })).not.toContain("undefined")
    expect(refusal("exec", { grant: "g1", program: "ls -l" })).toBe(
      "argument 'program': expected an array of strings, [\"<program>\", \"<arg>\", \u2026], got \"ls -l\""
    )
    // `input` is the JSON itself, typed as its inputSchema says: not that JSON encoded as a string.
    expect(refusal("plan start", { input: "{\"goal\": \"g\"}" })).toBe(
      "argument 'input': expected the input's JSON itself (object), got a string \"{\\\"goal\\\": \\\"g\\\"}\""
    )
    expect(refusal("journal append", { study: "s", input: 5 })).toBe(
      "argument 'input': expected the input's JSON itself (object or array), got 5"
    )
    expect(refusal("journal append", { study: "s", input: [] })).toBeUndefined()
    expect(refusal("monitor transition-run", { input: null })).toBe(
      "argument 'input': expected the input's JSON itself (object), got null"
    )
    // The tool that refuses is named as the client calls it: a mode by its own name.
    expect(refusal("plan inspect", { bogus: 1 })).toBe("unknown argument 'bogus'; plan_inspect takes none")
    const gate = allSpecs.find((s) => s.path.join(" ") === "gate")!
    const recheck = modesOf(gate).find((m) => m?.suffix === "recheck")
    const decoded = toolArguments(gate, allSchemas(), recheck).decode({ state: "s", descriptor: "d", researchDir: "r" })
    expect(Either.isLeft(decoded) ? decoded.left.message : undefined).toBe(
      "unknown argument 'researchDir'; gate_recheck takes state, descriptor, now"
    )
    // What it quotes of a huge argument is clipped.
    expect(refusal("plan inspect", { ["k".repeat(100_000)]: 1 })!.length).toBeLessThan(200)
  })
})
