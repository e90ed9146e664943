/**
 * An empty value is the same mistake wherever it is given, and gets one answer: a `UsageError`
 * naming what is empty, before anything else on the line is judged. Walked here in the test
 * process, through the same parsers the CLI runs (src/cli/main.ts: the shared options moved after
 * the command words, the fast path, then src/cli/Usage.ts):
 * - every value-taking flag of every command (from `dossier --help`), as `--flag=` and `--flag ""`.
 * test/cli/emptyValues.test.ts runs a few of these lines through the built CLI (exit code 2, the
 * JSON envelope, standard error).
 */
import { describe, expect, it } from "@effect/vitest"
import { commandFirst } from "../../src/cli/Bundles.js"
import { fastParse } from "../../src/cli/FastPath.js"
import { allSpecs } from "../../src/cli/Specs.js"
import { helpDoc, route } from "../../src/cli/Usage.js"

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
})
