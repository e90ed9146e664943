/**
 * The bundled skill (skills/dossier/SKILL.md) follows the Agent Skills format and cannot drift
 * from the program: every `dossier …` line in its code blocks names a real command, and every
 * flag it uses is one of that command's options (checked through the built CLI's `--help --json`).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { put, runCli, tempWorkdir } from "../support/cli.js"

const SKILL = path.resolve(__dirname, "../../skills/dossier/SKILL.md")
const text = fs.readFileSync(SKILL, "utf8")

/** Shell words of one line (single and double quotes, no escapes needed here). */
const words = (line: string): Array<string> =>
  [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)

const commandLines = (): Array<string> => {
  const out: Array<string> = []
  for (const block of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split("\n")) if (line.trim().startsWith("dossier ")) out.push(line.trim())
  }
  return out
}

/** The `dossier …` command lines shown inline in its prose (`` `dossier pull` ``). */
const inlineLines = (): Array<string> =>
  [...text.replace(/```[a-z]*\n[\s\S]*?```/g, "").matchAll(/`(dossier [^`]+)`/g)].map((m) => m[1]!)

describe("skills/dossier/SKILL.md", () => {
  it("has Agent Skills front matter: name dossier, a description of at most 1024 characters, a body under 500 lines", () => {
    const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)
    expect(m).not.toBeNull()
    const fields = Object.fromEntries(
      m![1]!.split("\n").map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()])
    )
    expect(Object.keys(fields).sort()).toEqual(["description", "name"])
    expect(fields["name"]).toBe("dossier")
    expect(fields["description"]!.length).toBeGreaterThan(100)
    expect(fields["description"]!.length).toBeLessThanOrEqual(1024)
    expect(m![2]!.split("\n").length).toBeLessThan(500)
    expect(m![2]).toContain("dossier status")
  })

  it("ships in the package", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8"))
    expect(pkg.files).toContain("skills")
  })

  it("every dossier line in its code blocks is a real command with real flags", () => {
    const lines = commandLines()
    expect(lines.length).toBeGreaterThan(25)
    const seen = new Set<string>()
    for (const line of [...lines, ...inlineLines()]) {
      // Words after `--` are the program's (exec), not dossier's.
      const all = words(line).slice(1)
      const argv = all.includes("--") ? all.slice(0, all.indexOf("--")) : all
      const r = runCli([...argv, "--help", "--json"])
      expect(r.code, `${line}\n${r.stdout}${r.stderr}`).toBe(0)
      expect(r.json.ok, line).toBe(true)
      const options = new Set<string>((r.json.options as Array<{ name: string }>).map((o) => o.name.split(/[ ,=]/)[0]!))
      for (const flag of argv.filter((w) => w.startsWith("--") && w !== "--help")) {
        expect(options, `${line}: ${flag}`).toContain(flag)
      }
      seen.add(r.json.command)
    }
    // The first thing the skill tells an agent to run.
    expect(lines[0]).toBe("dossier status --json")
    expect(seen.size).toBeGreaterThan(20)
  }, 300_000)

  it("its source follow examples are excerpts the command takes, and find the passage they show", () => {
    const follows = commandLines().filter((l) => l.startsWith("dossier source follow "))
    expect(follows.length).toBeGreaterThan(0)
    const dir = tempWorkdir("dossier-skill-")
    put(
      dir,
      "research/sources/notes.md",
      "# Budget\n\nThe service p95 must stay under 400 ms for every batch we send.\n"
    )
    for (const line of follows) {
      const r = runCli(words(line).slice(1), { cwd: dir })
      expect(r.code, `${line}\n${r.stdout}`).toBe(0)
      expect(r.json.matches, line).toHaveLength(1)
      expect(r.json.matches[0].path, line).toBe("research/sources/notes.md")
    }
  })
})
