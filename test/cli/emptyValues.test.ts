/**
 * An empty value is the same mistake for every flag that takes one, and gets one answer: a
 * `UsageError` (exit 2) naming the flag, whichever flag it is and whatever else the line lacks.
 * The flags are walked from `dossier --help --json`, so a new flag is covered as it is added.
 * Runs the built CLI (spawns processes).
 */
import { describe, expect, it } from "@effect/vitest"
import { runCli, tempWorkdir } from "../support/cli.js"

interface Help {
  readonly options: ReadonlyArray<{ readonly name: string; readonly type: string }>
  readonly subcommands: ReadonlyArray<{ readonly command: string }>
}

const help = (path: ReadonlyArray<string>): Help => {
  const r = runCli([...path, "--help", "--json"])
  expect(r.code, `${path.join(" ")}: ${r.stderr}`).toBe(0)
  return r.json as Help
}

/**
 * Every command (as its words) with the options it takes: `dossier --help` lists them all. `help`
 * is left out: it prints a page, as `--help` does, and judges no value.
 */
const commands = (): ReadonlyArray<readonly [ReadonlyArray<string>, Help]> =>
  help([]).subcommands.map((s) => s.command.split(" ").slice(1)).filter((path) => path.join(" ") !== "help")
    .map((path) => [path, help(path)] as const)

describe("an empty flag value", () => {
  it("is a UsageError (exit 2) naming the flag, for every flag of every command that takes a value", () => {
    const dir = tempWorkdir()
    const seen: Array<string> = []
    const wrong: Array<string> = []
    for (const [path, doc] of commands()) {
      for (const option of doc.options.filter((o) => o.type !== "boolean")) {
        const line = `${path.join(" ")} ${option.name}=`
        seen.push(line)
        const r = runCli([...path, `${option.name}=`, "--json"], { cwd: dir })
        const error = r.json?.error
        const message = `${option.name} <${option.type}>: the value is empty`
        if (r.code !== 2 || error?._tag !== "UsageError" || !String(error?.message).startsWith(message)) {
          wrong.push(`${line} -> exit ${r.code} ${error?._tag}: ${error?.message}`)
        }
      }
    }
    // The walk reached the flags the mistake was first met with, not only the shared ones.
    expect(seen).toEqual(expect.arrayContaining([
      "monitor set-subscription-status --status=",
      "gate --state=",
      "source follow --quote=",
      "plan start --input="
    ]))
    expect(wrong).toEqual([])
    // Some 150 command lines, one process each: minutes on a loaded machine.
  }, 600_000)

  it("says it for people too, on standard error, with exit 2", () => {
    const dir = tempWorkdir()
    const r = runCli(["monitor", "set-subscription-status", "--subscription", "s", "--expected", "1", "--status", ""], {
      cwd: dir
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("error UsageError: --status <status>: the value is empty; give a status")
  })
})
