/**
 * The bundled skill (skills/dossier/SKILL.md) follows the Agent Skills format and cannot drift
 * from the program: every `dossier …` line in its code blocks names a real command, and every
 * flag it uses is one of that command's options (checked through the built CLI's `--help --json`);
 * and an agent that runs its code blocks in order in an empty folder (writing each `json <path>`
 * block as that file) gets from nothing to a gated result, every command answering `ok: true`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { sandboxWorks } from "../exec/support.js"
import { leaksNothing, put, runCli, tempWorkdir } from "../support/cli.js"

const SKILL = path.resolve(__dirname, "../../skills/dossier/SKILL.md")
const text = fs.readFileSync(SKILL, "utf8")

/** Shell words of one line (single and double quotes, no escapes needed here). */
const words = (line: string): Array<string> =>
  [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)

/** Fenced blocks in order: their info string (`sh`, `json research/inputs/plan.json`) and body. */
const blocks = (): Array<{ info: string; body: string }> =>
  [...text.matchAll(/```([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({ info: m[1]!.trim(), body: m[2]! }))

/** A command line without its trailing `# comment`. */
const bare = (line: string): string => line.trim().replace(/\s+#\s.*$/, "")

const commandLines = (): Array<string> => {
  const out: Array<string> = []
  for (const block of text.matchAll(/```[^\n]*\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split("\n")) if (line.trim().startsWith("dossier ")) out.push(line.trim())
  }
  return out
}

/** The `dossier …` command lines shown inline in its prose (`` `dossier pull` ``). */
const inlineLines = (): Array<string> =>
  [...text.replace(/```[^\n]*\n[\s\S]*?```/g, "").matchAll(/`(dossier [^`]+)`/g)].map((m) => m[1]!)

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

  it("run in order in an empty folder, its commands and input files get from nothing to a gated result", () => {
    const dir = tempWorkdir("dossier-skill-walk-")
    // What the agent brings itself: the page its browser saved, an experiment's input root and script.
    put(
      dir,
      "research/inputs/saved.html",
      "<!doctype html><html lang=\"en\"><head><title>Service SLO</title></head><body><h1>Latency budget</h1>" +
        "<p>The service p95 must stay under 400 ms for every batch we send.</p></body></html>\n"
    )
    put(dir, "research/exp/code/README.md", "Experiment code.\n")
    put(dir, "experiments/exp-7/train.py", "open('result.txt', 'w').write('p95 380\\n')\n")
    // The skill's subscription anchor is a fixed date: its monitor lines run at a fixed time after it.
    const NOW = "2026-12-06T10:00:00.000Z"
    // Fetches from the internet: only its flags are checked (above).
    const offline = new Set(["dossier ingest https://example.org/paper --json"])
    // The skill says these refuse in a folder like this one.
    const refusals: Record<string, string> = { "dossier journal import --study latency --json": "InvalidManifest" }
    const takesNow = (command: ReadonlyArray<string>) =>
      (runCli([...command, "--help", "--json"]).json.options as Array<{ name: string }>).some((o) =>
        o.name.startsWith("--now")
      )
    const answers: Array<any> = []
    const fill = (t: string) =>
      t.replace(/<([A-Za-z]+(?:\.[A-Za-z]+)+)>/g, (whole, name: string) => {
        const found = [...answers].reverse().map((a) => name.split(".").reduce((o, k) => o?.[k], a)).find((v) =>
          v !== undefined
        )
        expect(found, `${whole}: no earlier answer has it`).toBeTypeOf("string")
        return found as string
      })
    const ran: Array<string> = []
    for (const { body, info } of blocks()) {
      const file = /^(?:json|md) (\S+)$/.exec(info)
      if (file !== null) {
        const content = fill(body)
        if (info.startsWith("json")) expect(() => JSON.parse(content), info).not.toThrow()
        put(dir, file[1]!, content)
        continue
      }
      for (const line of body.split("\n").map(bare).filter((l) => l.startsWith("dossier "))) {
        if (offline.has(line)) continue
        if (!sandboxWorks && /^dossier exec /.test(line)) continue
        const argv = words(fill(line)).slice(1)
        const cut = argv.includes("--") ? argv.indexOf("--") : argv.length
        if (argv[0] === "monitor" && takesNow(argv.slice(0, 2))) argv.splice(cut, 0, "--now", NOW)
        const r = runCli(argv, { cwd: dir })
        ran.push(line)
        if (argv.includes("--help")) {
          expect(r.code, line).toBe(0)
          continue
        }
        expect(leaksNothing(dir, r), line).toBe(true)
        const tag = refusals[line]
        if (tag !== undefined) {
          expect({ code: r.code, tag: r.json?.error?._tag }, line).toEqual({ code: 1, tag })
          continue
        }
        expect({ code: r.code, ok: r.json?.ok, error: r.json?.error }, `${line}\n${r.stdout}${r.stderr}`).toMatchObject(
          {
            code: 0,
            ok: true
          }
        )
        answers.push(r.json)
        if (argv[0] === "source") {
          // Each follow example finds the one passage it shows, in the source the skill captured.
          expect(r.json.matches, line).toHaveLength(1)
          expect(r.json.matches[0].path, line).toBe(fill("<source.path>"))
          expect(r.json.matches[0].registered, line).toBe(true)
        }
        if (argv[0] === "gate" && !argv.includes("--recheck")) expect(r.json.decision, line).toBe("proceed")
        if (argv[0] === "gate" && argv.includes("--recheck")) expect(r.json.continue, line).toBe(true)
      }
    }
    for (const line of [...offline, ...Object.keys(refusals)]) expect(commandLines(), line).toContain(line)
    for (const line of Object.keys(refusals)) expect(ran, line).toContain(line)
    expect(ran[0]).toBe("dossier status --json")
    expect(ran.length).toBeGreaterThan(30)
  }, 600_000)
})
