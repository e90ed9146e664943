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
import { errorCatalogue } from "../../src/commands/ErrorCatalogue.js"
import { sandboxWorks } from "../exec/support.js"
import { connect } from "../mcp/support.js"
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
    // `--help` prints the command's page whatever flags come with it: a command the skill shows on
    // several lines is asked once (with the first line's flags), and every line's flags are
    // checked against its page.
    const pages = new Map<string, ReturnType<typeof runCli>>()
    for (const line of [...lines, ...inlineLines()]) {
      // Words after `--` are the program's (exec), not dossier's.
      const all = words(line).slice(1)
      const argv = all.includes("--") ? all.slice(0, all.indexOf("--")) : all
      const firstFlag = argv.findIndex((w) => w.startsWith("-"))
      const command = (firstFlag === -1 ? argv : argv.slice(0, firstFlag)).join(" ")
      let r = pages.get(command)
      if (r === undefined) {
        r = runCli([...argv, "--help", "--json"])
        pages.set(command, r)
      }
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

  it("names only real error tags, and exactly the retryable ones as retryable", () => {
    const tags = Object.keys(errorCatalogue)
    const envelopes = [...tags, "UsageError", "Defect"]
    // Every CamelCase name in backticks (`StaleRevision`, `GrantWidening {field}`) is an error tag.
    const named = [...text.matchAll(/`([A-Z][a-z]+(?:[A-Z][a-z]*)+)\b[^`]*`/g)].map((m) => m[1]!)
    expect(named.length).toBeGreaterThan(15)
    for (const tag of named) expect(envelopes, tag).toContain(tag)
    // The rule on retrying lists every tag whose refusal may succeed unchanged later, and no other.
    const rule = /Retry a refusal unchanged[\s\S]*?\.\n/.exec(text)
    expect(rule).not.toBeNull()
    const listed = [...rule![0].matchAll(/`([A-Z][A-Za-z]+)`/g)].map((m) => m[1]!)
    const retryable = tags.filter((t) => errorCatalogue[t as keyof typeof errorCatalogue].retryable)
    expect([...listed].sort()).toEqual([...retryable].sort())
  })

  it("run in order in an empty folder, its commands and input files get from nothing to a gated result", async () => {
    const dir = walkFolder()
    const ran = await walk(dir, async (line, argv) => {
      const r = runCli(argv, { cwd: dir })
      if (argv.includes("--help")) {
        expect(r.code, line).toBe(0)
        return undefined
      }
      expect(leaksNothing(dir, r), line).toBe(true)
      // Exit 0 with ok: true, 1 with ok: false (a refusal); nothing else.
      expect({ code: r.code, ok: r.json?.ok }, `${line}\n${r.stdout}${r.stderr}`).toEqual({
        code: r.json?.ok === true ? 0 : 1,
        ok: r.json?.ok
      })
      return r.json
    })
    expect(ran[0]).toBe("dossier status --json")
    expect(ran.length).toBeGreaterThan(30)
  }, 600_000)

  it(
    "walked through `dossier mcp` as its MCP paragraph says (tools named by the words, flags in camelCase, input inline), reaches the same gated result",
    async () => {
      const dir = walkFolder()
      const server = await connect(dir)
      try {
        const tools = new Map(
          (await server.client.listTools()).tools.map((
            t
          ) => [t.name, t.inputSchema as { properties?: Record<string, any> }])
        )
        const camel = (flag: string) => flag.replace(/^--/, "").replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
        const ran = await walk(dir, async (line, argv) => {
          if (argv.includes("--help")) return undefined
          const cut = argv.includes("--") ? argv.indexOf("--") : argv.length
          const before = argv.slice(0, cut)
          const first = before.findIndex((w) => w.startsWith("--"))
          const head = first === -1 ? before : before.slice(0, first)
          const flags = first === -1 ? [] : before.slice(first)
          // The tool is the longest run of the command's words that names one; the rest are positional.
          const toolOf = (n: number) => head.slice(0, n).join("_").replace(/-/g, "_")
          let n = head.length
          while (n > 1 && !tools.has(toolOf(n))) n--
          let name = toolOf(n)
          const positional = head.slice(n)
          // A mode that is a tool of its own (`ingest --file` is ingest_file, `gate --recheck` gate_recheck).
          const mode = flags.find((f) => tools.has(`${name}_${camel(f)}`))
          if (mode !== undefined) name = `${name}_${camel(mode)}`
          const schema = tools.get(name)
          expect(schema, `${line}: no tool ${name}`).toBeDefined()
          const props = schema!.properties ?? {}
          const args: Record<string, unknown> = {}
          for (let i = 0; i < flags.length; i++) {
            const flag = flags[i]!
            if (flag === "--json") continue
            const key = camel(flag)
            const value = flags[i + 1]
            if (value === undefined || value.startsWith("--")) {
              args[key] = true
              continue
            }
            i++
            args[key] = key === "input"
              ? JSON.parse(fs.readFileSync(path.join(dir, value), "utf8"))
              : props[key]?.type === "integer"
              ? Number(value)
              : value
          }
          if (mode !== undefined && args[camel(mode)] === true) delete args[camel(mode)]
          // Positional arguments by name: the required ones the flags left unset.
          const open = ((schema as { required?: Array<string> }).required ?? []).filter((k) =>
            args[k] === undefined && k !== "program"
          )
          positional.forEach((w, i) => (args[open[i] ?? Object.keys(props).find((k) => !(k in args))!] = w))
          if (cut < argv.length) args["program"] = argv.slice(cut + 1)
          for (const k of Object.keys(args)) expect(Object.keys(props), `${line}: ${name} takes ${k}`).toContain(k)
          const r = await server.call(name, args)
          expect(r.isError, line).toBe(r.body?.ok !== true)
          expect(JSON.parse(r.text), line).toEqual(r.body)
          return r.body
        })
        expect(ran.length).toBeGreaterThan(30)
      } finally {
        await server.client.close()
      }
    },
    600_000
  )
})

/** A fresh folder with what the agent brings itself: the page its browser saved, an experiment's code and script. */
const walkFolder = (): string => {
  const dir = tempWorkdir("dossier-skill-walk-")
  put(
    dir,
    "research/inputs/saved.html",
    "<!doctype html><html lang=\"en\"><head><title>Service SLO</title></head><body><h1>Latency budget</h1>" +
      "<p>The service p95 must stay under 400 ms for every batch we send.</p></body></html>\n"
  )
  put(dir, "research/exp/code/README.md", "Experiment code.\n")
  put(dir, "experiments/exp-7/train.py", "open('result.txt', 'w').write('p95 380\\n')\n")
  return dir
}

/**
 * The skill's subscription anchor is a fixed date: its monitor lines run at a fixed time long after
 * it, as an agent reads the skill months later, when the run `create-due-run` makes is no longer
 * the first window's (`lit.w0`): every later line must name the run the answer gave.
 */
const NOW = "2027-03-01T10:00:00.000Z"
/** Fetches from the internet: only its flags are checked. */
const OFFLINE = new Set(["dossier ingest https://example.org/paper --json"])
/** The skill says these refuse in a folder like this one. */
const REFUSALS: Record<string, string> = { "dossier journal import --study latency --json": "InvalidManifest" }

const nowTakers = new Map<string, boolean>()
/** Whether `--help --json` of the command lists --now: asked once per command in this file (both walks ask). */
const takesNow = (command: ReadonlyArray<string>) => {
  const key = command.join(" ")
  let takes = nowTakers.get(key)
  if (takes === undefined) {
    takes = (runCli([...command, "--help", "--json"]).json.options as Array<{ name: string }>).some((o) =>
      o.name.startsWith("--now")
    )
    nowTakers.set(key, takes)
  }
  return takes
}

/**
 * Walk the skill as an agent would: each `json <path>` / `md <path>` block is written as that file
 * (its `<a.b>` placeholders filled from earlier answers), each `dossier …` line is run in order
 * through `run` (which answers the JSON envelope, or undefined for `--help`), and every answer
 * must be `ok: true` but the refusals the skill names. Answers the lines it ran.
 */
const walk = async (
  dir: string,
  run: (line: string, argv: Array<string>) => Promise<any>
): Promise<Array<string>> => {
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
      if (OFFLINE.has(line)) continue
      if (!sandboxWorks && /^dossier exec /.test(line)) continue
      const argv = words(fill(line)).slice(1)
      const cut = argv.includes("--") ? argv.indexOf("--") : argv.length
      if (argv[0] === "monitor" && takesNow(argv.slice(0, 2))) argv.splice(cut, 0, "--now", NOW)
      const json = await run(line, argv)
      ran.push(line)
      if (json === undefined) continue
      const tag = REFUSALS[line]
      if (tag !== undefined) {
        expect({ ok: json.ok, tag: json.error?._tag }, line).toEqual({ ok: false, tag })
        continue
      }
      expect({ ok: json.ok, error: json.error }, line).toEqual({ ok: true, error: undefined })
      answers.push(json)
      if (argv[0] === "source") {
        // Each follow example finds the one passage it shows, in the source the skill captured.
        expect(json.matches, line).toHaveLength(1)
        expect(json.matches[0].path, line).toBe(fill("<source.path>"))
        expect(json.matches[0].registered, line).toBe(true)
      }
      if (argv[0] === "gate" && !argv.includes("--recheck")) expect(json.decision, line).toBe("proceed")
      if (argv[0] === "gate" && argv.includes("--recheck")) expect(json.continue, line).toBe(true)
      if (argv[0] === "exec" && argv[1] !== "show") expect(json.execution.exitCode, line).toBe(0)
    }
  }
  for (const line of [...OFFLINE, ...Object.keys(REFUSALS)]) expect(commandLines(), line).toContain(line)
  for (const line of Object.keys(REFUSALS)) expect(ran, line).toContain(line)
  return ran
}
