/**
 * `--version` beside a word it does not know is the UsageError (exit 2) an unknown option or
 * argument is everywhere else, not the version; with the shared options (or a command's own) it
 * prints the version as before. Through the built CLI (spawns processes).
 */
import { describe, expect, it } from "vitest"
import { runCli, tempWorkdir } from "../support/cli.js"

describe("--version", () => {
  it("with an unknown option or a stray argument is a UsageError naming it, as one JSON object under --json", () => {
    const dir = tempWorkdir()
    const lines: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["--version", "--bogus"], "unknown option '--bogus' for 'dossier --version'"],
      [["-V", "--bogus"], "unknown option '--bogus' for 'dossier --version'"],
      [["--version", "bogus"], "unexpected argument 'bogus' for 'dossier --version'"],
      [["plan", "start", "--version", "--bogus"], "unknown option '--bogus' for 'dossier plan start'"]
    ]
    for (const [line, message] of lines) {
      const r = runCli([...line, "--json"], { cwd: dir })
      expect({ code: r.code, tag: r.json?.error?._tag, stderr: r.stderr }, line.join(" "))
        .toEqual({ code: 2, tag: "UsageError", stderr: "" })
      expect(r.json.error.message).toContain(message)
      const human = runCli(line, { cwd: dir })
      expect({ code: human.code, stdout: human.stdout }, line.join(" ")).toEqual({ code: 2, stdout: "" })
      expect(human.stderr).toContain(`error UsageError: ${message}`)
    }
  })

  it("with the shared options, or a command's own, prints the version", () => {
    const dir = tempWorkdir()
    for (
      const line of [
        ["--version"],
        ["-V"],
        ["--version", "--workdir", "."],
        ["--version", "--now", "2026-01-01T00:00:00Z"],
        ["plan", "start", "--input", "x.json", "--version"]
      ]
    ) {
      const r = runCli([...line, "--json"], { cwd: dir })
      expect({ code: r.code, json: r.json }, line.join(" "))
        .toEqual({ code: 0, json: { ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) } })
    }
  })
})
