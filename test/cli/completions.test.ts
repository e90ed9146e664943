/**
 * The completion scripts (`dossier --completions <shell>`) offer only what the program accepts:
 * @effect/cli adds `--log-level` and `--wizard` to every command, which dossier refuses.
 */
import { describe, expect, it } from "@effect/vitest"
import { runCli } from "../support/cli.js"

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
})
