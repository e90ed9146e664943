/**
 * The completion scripts (`dossier --completions <shell>`) offer only what the program accepts:
 * @effect/cli adds `--log-level` and `--wizard` to every command, which dossier refuses.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { runCli, tempWorkdir } from "../support/cli.js"

const REFUSED = ["--log-level", "--wizard"]

describe("--completions", () => {
  it("no script offers an option the program refuses", () => {
    for (const shell of ["sh", "bash", "zsh", "fish"]) {
      const r = runCli(["--completions", shell])
      expect(r.code, r.stderr).toBe(0)
      for (const flag of REFUSED) {
        expect(r.stdout, `${shell} ${flag}`).not.toContain(flag.slice(2))
        // The program does refuse it (a usage error, exit 2), before and after a command.
        expect(runCli([flag, "status", "--json"]).code).toBe(2)
        expect(runCli(["status", flag, "--json"]).code).toBe(2)
      }
      // What the scripts still offer: the commands' own options and the shared ones.
      expect(r.stdout).toContain("workdir")
      expect(r.stdout).toContain("help")
    }
  })

  it("the bash script still parses and completes each command's own options", () => {
    const dir = tempWorkdir("dossier-completions-")
    const script = path.join(dir, "dossier.bash")
    fs.writeFileSync(script, runCli(["--completions", "bash"]).stdout)
    const check = spawnSync("bash", ["-n", script], { encoding: "utf8" })
    expect(check.status, check.stderr).toBe(0)
    /** What bash offers after these words, as it calls the function `complete -F` names. */
    const offered = (words: ReadonlyArray<string>) => {
      const r = spawnSync(
        "bash",
        [
          "-c",
          `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dossier_bash_completions dossier; printf '%s\n' "\${COMPREPLY[@]}"`,
          "bash",
          script,
          ...words
        ],
        { encoding: "utf8" }
      )
      expect(r.status, r.stderr).toBe(0)
      return r.stdout.trim().split("\n")
    }
    const start = offered(["dossier", "plan", "start", "--"])
    expect(start).toEqual(expect.arrayContaining(["--workdir", "--json", "--input", "--expected", "--now"]))
    for (const flag of REFUSED) expect(start).not.toContain(flag)
    // A dashed command name, and a group's commands.
    expect(offered(["dossier", "journal", "recover-tail", "--"])).toEqual(
      expect.arrayContaining(["--study", "--workdir"])
    )
    expect(offered(["dossier", "journal", ""])).toEqual(expect.arrayContaining(["append", "recover-tail"]))
  })
})
