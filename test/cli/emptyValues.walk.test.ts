/**
 * An empty value is the same mistake wherever it is given, and gets one answer: a `UsageError`
 * naming what is empty, before anything else on the line is judged. Walked here in the test
 * process, through the same parsers the CLI runs (src/cli/main.ts: the shared options moved after
 * the command words, the fast path, then src/cli/Usage.ts) and the MCP server's argument decoder:
 * - every value-taking flag of every command (from `dossier --help`), as `--flag=` and `--flag ""`;
 * - those flags beside a help page or `--version` (`dossier help --workdir=`);
 * - every positional argument (`ingest ""`, `schema ""`) and `exec`'s program after `--`;
 * - over MCP, every argument a flag or a positional carries, and exec's program.
 * And its sibling, a value left out: every command given none of its flags says what it needs
 * whole, within what a refusal repeats (src/domain/Clip.ts), never clipped mid-word.
 * test/cli/emptyValues.test.ts runs a few of these lines through the built CLI (exit code 2, the
 * JSON envelope, standard error).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { commandFirst } from "../../src/cli/Bundles.js"
import { fastParse } from "../../src/cli/FastPath.js"
import { allSpecs } from "../../src/cli/Specs.js"
import { helpDoc, route } from "../../src/cli/Usage.js"
import { envelopeOf } from "../../src/commands/Envelope.js"
import { allSchemas } from "../../src/commands/schemas/index.js"
import { toolName } from "../../src/commands/Spec.js"
import { UsageError } from "../../src/domain/CliErrors.js"
import { toolArguments } from "../../src/mcp/ToolArguments.js"
import { isTool, modesOf } from "../../src/mcp/Tools.js"

/** What the CLI does with a command line before it runs anything (src/cli/main.ts). */
const answerOf = (line: ReadonlyArray<string>): string => {
  const argv = commandFirst(line)
  if (fastParse(allSpecs, argv) !== undefined) return "runs"
  const r = route(argv)
  return r._tag === "Usage" ? `UsageError: ${r.message}` : r._tag
}

/** Every command (as its words) with its help page; `help` itself prints a page and judges no value. */
const commands = helpDoc([]).subcommands.map((s) => s.command.split(" ").slice(1))
  .filter((path) => path.join(" ") !== "help")
  .map((path) => [path, helpDoc(path)] as const)

const valued = (doc: ReturnType<typeof helpDoc>) => doc.options.filter((o) => o.type !== "boolean")

/** Each line whose answer is not a UsageError starting with `message`. */
const wrongOf = (cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]>): ReadonlyArray<string> =>
  cases.flatMap(([line, message]) => {
    const answer = answerOf(line)
    return answer.startsWith(`UsageError: ${message}`) ? [] : [`${JSON.stringify(line)} -> ${answer}`]
  })

describe("an empty value, on the command line", () => {
  it("of every flag of every command that takes one: a UsageError naming the flag, as --flag= and --flag \"\"", () => {
    const cases: Array<readonly [ReadonlyArray<string>, string]> = []
    for (const [path, doc] of commands) {
      for (const o of valued(doc)) {
        const message = `${o.name} <${o.type}>: the value is empty`
        cases.push([[...path, `${o.name}=`, "--json"], message], [[...path, o.name, "", "--json"], message])
        // A shared option may stand before the command.
        if (o.name === "--workdir" || o.name === "--now") cases.push([[`${o.name}=`, ...path], message])
      }
    }
    const lines = cases.map(([line]) => line.join(" "))
    // The walk reached the flags the mistake was first met with, not only the shared ones.
    expect(lines).toEqual(expect.arrayContaining([
      "monitor set-subscription-status --status= --json",
      "gate --state= --json",
      "source follow --quote= --json",
      "plan start --input= --json"
    ]))
    expect(cases.length).toBeGreaterThan(250)
    expect(wrongOf(cases)).toEqual([])
  })

  it("beside a help page or --version: the same UsageError, not the page", () => {
    const cases: Array<readonly [ReadonlyArray<string>, string]> = []
    for (const o of valued(helpDoc([]))) {
      const message = `${o.name} <${o.type}>: the value is empty`
      for (
        const line of [
          ["help", `${o.name}=`],
          ["help", o.name, ""],
          ["--help", `${o.name}=`],
          ["-h", `${o.name}=`, "--json"],
          ["--version", `${o.name}=`],
          [`${o.name}=`, "--version", "--json"],
          [`${o.name}=`, "--help"],
          ["help", "plan", `${o.name}=`],
          ["plan", "--help", `${o.name}=`]
        ]
      ) cases.push([line, message])
    }
    for (const [path, doc] of commands) {
      for (const o of valued(doc)) {
        const message = `${o.name} <${o.type}>: the value is empty`
        cases.push([[...path, "--help", `${o.name}=`], message], [["help", ...path, o.name, ""], message])
      }
    }
    expect(wrongOf(cases)).toEqual([])
    // `schema` takes no --workdir: it is an unknown option there, a UsageError all the same.
    expect(answerOf(["schema", "--workdir="])).toMatch(/^UsageError: unknown option '--workdir' for 'dossier schema'/)
    // What is not empty stays as it was: the page, the version.
    expect(answerOf(["help", "--workdir=.", "--json"])).toBe("Help")
    expect(answerOf(["--version", "--workdir", "."])).toBe("Version")
    // After `--`, the words are a program's.
    expect(answerOf(["exec", "--help", "--", "prog", "--workdir="])).toBe("Help")
  })

  it("of a positional argument, and of exec's program: a UsageError naming it", () => {
    const cases: Array<readonly [ReadonlyArray<string>, string]> = []
    for (const [path, doc] of commands) {
      for (const a of doc.arguments) {
        if (a.name.startsWith("-- ")) {
          cases.push([[...path, "--", ""], "<program>: the value is empty"])
          cases.push([[...path, "--grant", "g", "--json", "--", "", "x"], "<program>: the value is empty"])
        } else cases.push([[...path, "", "--json"], `${a.name}: the value is empty; give a`])
      }
    }
    expect(cases.map(([line]) => line.join(" "))).toEqual(expect.arrayContaining([
      "ingest  --json",
      "schema  --json",
      "exec -- "
    ]))
    expect(wrongOf(cases)).toEqual([])
    expect(answerOf(["ingest", ""])).toBe("UsageError: <url>: the value is empty; give a url")
    // A program's own arguments may be empty.
    expect(answerOf(["exec", "--grant", "g", "--", "prog", ""])).toBe("runs")
  })
})

describe("a value left out, on the command line", () => {
  it("every command given no flag: a UsageError that says what it needs whole (nothing left out)", () => {
    const said = commands.map(([path]) => [path.join(" "), answerOf([...path, "--json"])] as const)
      .filter(([, answer]) => answer.startsWith("UsageError: "))
      .map(([line, answer]) => [line, answer.slice("UsageError: ".length)] as const)
    // The walk reached commands with a required flag (exec: before its program after `--`).
    expect(said.map(([line]) => line)).toEqual(
      expect.arrayContaining(["gate", "plan start", "journal append", "export", "exec"])
    )
    // What the JSON envelope and the human report carry: the message as it was said, not clipped
    // to `…[N characters left out]…` (gate's --state used to be, its description being long).
    const clipped = said.filter(([, message]) => envelopeOf(new UsageError({ detail: message })).message !== message)
    expect(clipped).toEqual([])
    expect(Object.fromEntries(said)["gate"]).toMatch(/^'dossier gate' needs --state <path>: The parked run state/)
  })
})

describe("an empty value, over MCP", () => {
  const tools = allSpecs.filter(isTool).flatMap((spec) => modesOf(spec).map((mode) => ({ spec, mode })))

  it("of every argument a flag or a positional carries, and of exec's program: a UsageError at the argument", () => {
    const wrong: Array<string> = []
    const seen: Array<string> = []
    for (const { mode, spec } of tools) {
      const decoder = toolArguments(spec, allSchemas(), mode)
      const properties = Object.keys(decoder.jsonSchema["properties"] as Record<string, unknown>)
      const inline = spec.inputSchema !== undefined
      for (const k of properties) {
        if (k === "input" && inline) continue
        const isRest = k === spec.rest?.name
        const args = { [k]: isRest ? [""] : "" }
        const at = isRest ? `${k}.0` : k
        seen.push(`${toolName(spec, mode)}: ${at}`)
        const decoded = decoder.decode(args)
        const said = Either.isLeft(decoded) ? `${decoded.left._tag}: ${decoded.left.message}` : "accepted"
        if (!said.startsWith(`UsageError: argument '${at}': the value is empty`)) {
          wrong.push(`${JSON.stringify(args)} -> ${said}`)
        }
      }
    }
    expect(seen).toEqual(expect.arrayContaining(["ingest: url", "schema: name", "exec: program.0"]))
    expect(wrong).toEqual([])
  })
})
