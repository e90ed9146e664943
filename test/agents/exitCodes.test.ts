/**
 * Every exit code the CLI can end with (the `EXIT_*` constants of src/cli/Render.ts) is listed
 * wherever a reader is told the exit codes — the skill an agent follows, the README, `dossier
 * --help` and docs/guarantees.md — and no other code is (spawns the built CLI once).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as Render from "../../src/cli/Render.js"
import { runCli, tempWorkdir } from "../support/cli.js"

const ROOT = path.resolve(__dirname, "../..")
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), "utf8")

const defined = Object.entries(Render)
  .filter(([name, value]) => name.startsWith("EXIT_") && typeof value === "number")
  .map(([, value]) => value as number)
  .sort((a, b) => a - b)

/**
 * The numbers of the passage that tells the exit codes: from "exit code(s)" followed by `0` to the
 * end of its sentence.
 */
const listed = (where: string, text: string): Array<number> => {
  const at = text.search(/exit codes?\W*0\b/i)
  expect(at, `${where} tells no exit codes`).toBeGreaterThanOrEqual(0)
  const rest = text.slice(at)
  const end = rest.search(/\.(\s|$)/)
  const passage = (end === -1 ? rest : rest.slice(0, end)).replace(/\s+/g, " ")
  return [...passage.matchAll(/(?<![\w.-])(\d{1,3})(?![\w.])/g)].map((m) => Number(m[1])).sort((a, b) => a - b)
}

describe("exit codes", () => {
  it("the CLI defines 0, 1, 2, 70 and 74", () => {
    expect(defined).toEqual([0, 1, 2, 70, 74])
  })

  it("the skill lists every one of them, and only them", () => {
    expect(listed("skills/dossier/SKILL.md", read("skills/dossier/SKILL.md"))).toEqual(defined)
  })

  it("the README and docs/guarantees.md list every one of them, and only them", () => {
    expect(listed("README.md", read("README.md"))).toEqual(defined)
    expect(listed("docs/guarantees.md", read("docs/guarantees.md"))).toEqual(defined)
  })

  it("dossier --help lists every one of them, and only them", () => {
    const r = runCli(["--help"], { cwd: tempWorkdir() })
    expect(r.code).toBe(0)
    expect(listed("dossier --help", r.stdout)).toEqual(defined)
  })
})
