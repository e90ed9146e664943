/**
 * An empty value gets one answer, a `UsageError` with exit 2, whatever is empty: a flag's value,
 * a flag beside a help page or `--version`, a positional argument, exec's program. Every such line
 * of the command table is walked in the test process by test/cli/emptyValues.walk.test.ts, through
 * the parsers the CLI runs; here a few of them run through the built CLI (spawns processes), so
 * that what a person and an agent see — the exit code, the JSON envelope, standard error — is
 * checked end to end.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { runCli, tempWorkdir } from "../support/cli.js"

describe("an empty value, through the built CLI", () => {
  it("is a UsageError (exit 2) naming what is empty, as one JSON object under --json, and nothing is written", () => {
    const dir = tempWorkdir()
    const lines: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["monitor", "set-subscription-status", "--status="], "--status <status>: the value is empty; give a status"],
      [["plan", "start", "--input", ""], "--input <path>: the value is empty; give a path"],
      [["--workdir=", "status"], "--workdir <path>: the value is empty; give a path"],
      [["help", "--workdir="], "--workdir <path>: the value is empty; give a path"],
      [["--version", "--now="], "--now <instant>: the value is empty; give an instant"],
      [["plan", "start", "--help", "--input="], "--input <path>: the value is empty; give a path"],
      [["ingest", ""], "<url>: the value is empty; give a url"],
      [["schema", ""], "<name>: the value is empty; give a value"],
      [["exec", "--grant", "g", "--", ""], "<program>: the value is empty; give a value"]
    ]
    const wrong = lines.flatMap(([line, message]) => {
      // Before `--`, where there is one: after it the words are the program's.
      const at = line.includes("--") ? line.indexOf("--") : line.length
      const r = runCli([...line.slice(0, at), "--json", ...line.slice(at)], { cwd: dir })
      const error = r.json?.error
      return r.code === 2 && error?._tag === "UsageError" && error?.message === message && r.stderr === ""
        ? []
        : [`${line.join(" ")} -> exit ${r.code} ${error?._tag}: ${error?.message} ${r.stderr}`]
    })
    expect(wrong).toEqual([])
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("says it for people too, on standard error, with exit 2", () => {
    const dir = tempWorkdir()
    const r = runCli(["monitor", "set-subscription-status", "--subscription", "s", "--expected", "1", "--status", ""], {
      cwd: dir
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("error UsageError: --status <status>: the value is empty; give a status")
    const help = runCli(["help", "--workdir", ""], { cwd: dir })
    expect({ code: help.code, stdout: help.stdout }).toEqual({ code: 2, stdout: "" })
    expect(help.stderr).toContain("error UsageError: --workdir <path>: the value is empty; give a path")
    const ingest = runCli(["ingest", ""], { cwd: dir })
    expect(ingest.code).toBe(2)
    expect(ingest.stderr).toContain("error UsageError: <url>: the value is empty; give a url")
  })
})
