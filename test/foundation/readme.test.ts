/**
 * The README is a user's guide that cannot drift: its generated part (the error catalogue)
 * matches the code, it stays under 500 lines, every link into docs/ resolves, and its quick start
 * runs, line by line as a person would paste it, in a fresh folder against the built CLI.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EVENT_TYPES } from "../../src/domain/Journal.js"
import { CLI, tempWorkdir } from "../support/cli.js"

const root = path.resolve(__dirname, "../..")
const readme = () => fs.readFileSync(path.join(root, "README.md"), "utf8")

/** The shell block between the quickstart markers. */
export const quickStart = (text: string): string => {
  const m = /<!-- quickstart:begin -->\s*```sh\n([\s\S]*?)```\s*<!-- quickstart:end -->/.exec(text)
  if (m === null) throw new Error("README.md lacks the quick start block")
  return m[1]!
}

describe("README", () => {
  it("is up to date with the error catalogue (npm run docs)", () => {
    const r = spawnSync(process.execPath, ["scripts/run-ts.mjs", "scripts/docs.ts", "--check"], {
      cwd: root,
      encoding: "utf8"
    })
    expect(r.stderr + r.stdout).toContain("up to date")
    expect(r.status).toBe(0)
  })

  it("is a short guide: under 500 lines, and every docs/ link resolves", () => {
    const text = readme()
    expect(text.split("\n").length).toBeLessThan(500)
    const links = [...text.matchAll(/\]\((docs\/[^)#]+)\)/g)].map((m) => m[1]!)
    expect(links.length).toBeGreaterThan(5)
    for (const link of links) expect(fs.existsSync(path.join(root, link)), link).toBe(true)
  })

  it("its quick start runs in a fresh folder, every command succeeding", () => {
    const dir = tempWorkdir("dossier-readme-")
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-bin-"))
    fs.writeFileSync(path.join(bin, "dossier"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
      mode: 0o755
    })
    const script = quickStart(readme())
    // -e: the first failing command fails the test; -x: the failing line is named in the output.
    const r = spawnSync("bash", ["-e", "-x", "-c", script], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env["PATH"]}`, DOSSIER_WORKDIR: "" }
    })
    expect(r.status, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain("Plan created (revision 1).")
    expect(r.stdout).toContain("Verified 1 artifact(s): 0 finding(s)")
    expect(r.stdout).toContain("DUE sparse-attention")
    expect(r.stdout).toContain("next: dossier monitor show --run sparse-attention.w")
    // Nothing was written outside the folder it ran in.
    expect(fs.readdirSync(dir).sort()).toEqual([".dossier", "plan.md", "research"])
    fs.rmSync(bin, { recursive: true, force: true })
  })
})

describe("journal event types", () => {
  it("the README, the skill and journal append --help list every type append accepts", () => {
    const skill = fs.readFileSync(path.join(root, "skills/dossier/SKILL.md"), "utf8")
    const help = spawnSync(process.execPath, [CLI, "journal", "append", "--help"], { encoding: "utf8" }).stdout
    const lists = {
      README: /`append`: one event or a batch[\s\S]*?\n- /.exec(readme())?.[0],
      skill: /Event types: [\s\S]*?\n\n/.exec(skill)?.[0],
      "--help": help
    }
    for (const [where, list] of Object.entries(lists)) {
      expect(list, where).toBeDefined()
      for (const type of EVENT_TYPES) expect(list, `${where} names ${type}`).toContain(type)
    }
  })
})

describe("README figures", () => {
  it("are the latest ones docs/ingest.md gives (the article set's F, WCXB's word F1 by type)", () => {
    const text = readme().replace(/\s+/g, " ")
    const ingest = fs.readFileSync(path.join(root, "docs/ingest.md"), "utf8")
    const f = /F (0\.\d{3}) on an 884-page article set, Readability (0\.\d{3})/.exec(text)
    expect(f, "README: F on the article set").not.toBeNull()
    // The figures section says where the article set's F stands now.
    const figures = ingest.slice(ingest.indexOf("#### Figures")).replace(/\s+/g, " ")
    const latest = `F ${f![1]} against Readability's ${f![2]}`
    expect(figures.includes(latest), `docs/ingest.md's figures section says ${latest}`).toBe(true)
    // WCXB: the "all" column of each type's row.
    const all = (type: string) =>
      new RegExp(`^\\| \\**${type}\\** \\|(?: [^|]+ \\|){4} \\**(0\\.\\d{3})\\**`, "m").exec(ingest)?.[1]
    const words: ReadonlyArray<readonly [string, string]> = [
      ["word F1", "all"],
      ["articles", "article"],
      ["documentation", "documentation"],
      ["service pages", "service"],
      ["forums", "forum"],
      ["listings", "listing"],
      ["collections", "collection"],
      ["products", "product"]
    ]
    for (const [word, type] of words) {
      const said = new RegExp(`${word} (0\\.\\d{3})`).exec(text)?.[1]
      expect(said, `README: ${word}`).toBeDefined()
      expect(said, `README's ${word} against docs/ingest.md's ${type}`).toBe(all(type))
    }
  })
})

const helpPages = new Map<string, { readonly status: number | null; readonly stdout: string }>()
/**
 * `dossier <words> --help --json` of the built CLI, run once per command in this file: the usage
 * lines name the same commands many times, and the two tests below read the same pages.
 */
const helpPage = (words: ReadonlyArray<string>) => {
  const key = words.join(" ")
  let page = helpPages.get(key)
  if (page === undefined) {
    const r = spawnSync(process.execPath, [CLI, ...words, "--help", "--json"], { encoding: "utf8" })
    page = { status: r.status, stdout: r.stdout }
    helpPages.set(key, page)
  }
  return page
}

/** `dossier <words> --help --json` of the built CLI, parsed when it succeeds. */
const helpOf = (
  words: ReadonlyArray<string>
): { options: ReadonlyArray<{ name: string; type: string }> } | undefined => {
  const r = helpPage(words)
  return r.status === 0 ? JSON.parse(r.stdout) : undefined
}

/** The docs/ pages that are reference, not a record of what was measured then. */
const referenceDocs = () =>
  fs.readdirSync(path.join(root, "docs")).filter((f) =>
    f.endsWith(".md") && !/^(readable-rounds|performance)\.md$/.test(f)
  )

describe("README and docs usage lines", () => {
  it("name each option with the kind of value --help gives it (<path>, <id>, <integer>…)", () => {
    const texts = [readme(), ...referenceDocs().map((f) => fs.readFileSync(path.join(root, "docs", f), "utf8"))]
    const blocks = texts.flatMap((text) => [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!))
    const lines = blocks.flatMap((b) => b.split("\n")).filter((l) => l.startsWith("dossier ") && / <[a-z]+>/.test(l))
    expect(lines.length).toBeGreaterThan(40)
    const mismatches: Array<string> = []
    for (const line of lines) {
      const words = line.split(/ +/).slice(1)
      const command = words.slice(0, words.findIndex((w) => !/^[a-z-]+$/.test(w) || w.startsWith("-")))
      // The longest command path --help knows (`exec show` before `exec`).
      let help: ReturnType<typeof helpOf>
      for (let n = Math.min(command.length, 2); n >= 1 && help === undefined; n--) help = helpOf(command.slice(0, n))
      if (help === undefined) {
        mismatches.push(`${line}: no such command`)
        continue
      }
      for (const m of line.matchAll(/(--[a-z-]+) <([a-z]+)>/g)) {
        const option = help.options.find((o) => o.name === m[1])
        if (option === undefined) mismatches.push(`${line}: ${m[1]} is not an option of it`)
        else if (option.type !== m[2]) mismatches.push(`${line}: ${m[1]} <${m[2]}>, but --help says <${option.type}>`)
      }
    }
    expect(mismatches).toEqual([])
  }, 120_000)
})

describe("README, skill, docs and --help prose", () => {
  it("write a flag's value the way --help does: <path> for a path, never <dir>, <file> or <folder>", () => {
    // Every option of every command, with the kinds --help gives it (`--to` is <path> or <status>).
    const kinds = new Map<string, Set<string>>()
    const prose: Array<readonly [string, string]> = []
    const top = helpPage([])
    const commands: Array<Array<string>> = [
      [],
      ...JSON.parse(top.stdout).subcommands.map((c: { name: string }) => c.name.split(" "))
        .filter((w: Array<string>) => w[0] !== "help")
    ]
    for (const words of commands) {
      const r = helpPage(words)
      const help = JSON.parse(r.stdout) as {
        description: string
        options: ReadonlyArray<{ name: string; type: string; description: string }>
      }
      prose.push([
        `dossier ${words.join(" ")} --help`,
        [help.description, ...help.options.map((o) => o.description)].join("\n")
      ])
      for (const o of help.options) kinds.set(o.name, (kinds.get(o.name) ?? new Set()).add(o.type))
    }
    const known = new Set([...kinds.values()].flatMap((k) => [...k]))
    for (const f of ["README.md", "skills/dossier/SKILL.md", ...referenceDocs().map((f) => `docs/${f}`)]) {
      prose.push([f, fs.readFileSync(path.join(root, f), "utf8")])
    }
    const wrong: Array<string> = []
    for (const [where, text] of prose) {
      for (const m of text.matchAll(/(--[a-z][a-z-]*)[ =]<([a-z-]+)>/g)) {
        const given = kinds.get(m[1]!)
        if (given === undefined) continue
        const word = m[2]!
        // A name for the value (`<rev>`, `<areas>`) is fine; a kind --help gives another option is not.
        const bad = /^(dir|directory|file|folder)$/.test(word) ||
          (given.has("path") && word !== "path" && !given.has(word)) ||
          (known.has(word) && !given.has(word))
        if (bad) wrong.push(`${where}: ${m[0]} (--help: <${[...given].join("|")}>)`)
      }
    }
    expect(wrong).toEqual([])
  }, 120_000)
})

describe("the status row of the README", () => {
  it("names every field `dossier status --json` answers, down to the plan's, the monitor's and the grants'", () => {
    const row = /^\| `status \[--now\]` \|.*$/m.exec(readme())?.[0]
    expect(row).toBeDefined()
    const schema = spawnSync(process.execPath, [CLI, "schema", "status-output", "--json"], { encoding: "utf8" })
    const top = JSON.parse(schema.stdout).schema
    const keysOf = (s: any): Array<string> => {
      const branch = s?.anyOf?.find((b: any) => b.type === "object") ?? s
      return Object.keys(branch?.properties ?? branch?.items?.properties ?? {})
    }
    const named = (key: string) => new RegExp(`[{\\[ ,]${key}[:,}\\]\\s]`).test(row!)
    const missing = [
      ...keysOf(top).filter((k) => k !== "ok"),
      ...["plan", "studies", "monitor", "grants"].flatMap((k) => keysOf(top.properties[k]))
    ].filter((k) => !named(k))
    expect(missing).toEqual([])
  })
})

describe("the inspect row of docs/journal.md", () => {
  it("names every field `journal inspect --verify --json` answers, and every field of its verify", () => {
    const doc = fs.readFileSync(path.join(root, "docs/journal.md"), "utf8")
    const row = /^\| `inspect` \|.*$/m.exec(doc)?.[0]
    expect(row).toBeDefined()
    const schema = spawnSync(process.execPath, [CLI, "schema", "journal-inspect-output", "--json"], {
      encoding: "utf8"
    })
    const top = JSON.parse(schema.stdout).schema
    const named = (text: string, key: string) => new RegExp(`[{\\[ ,\`]${key}[:,}\\]\\s\`]`).test(text)
    expect(Object.keys(top.properties).filter((k) => k !== "ok" && k !== "workdir" && !named(row!, k))).toEqual([])
    // The verify object's own list, where `executions` is not the candidates' field of that name.
    const verify = /`verify: \{[^}]*\}`/.exec(row!)?.[0] ?? ""
    expect(Object.keys(top.properties.verify.properties).filter((k) => !named(verify, k))).toEqual([])
  })
})

describe("the ingest answer in the README", () => {
  it("names every field `dossier ingest --json` answers, and those of original, source and warc", () => {
    const answer = /Answer: `\{network,[\s\S]*?\}`\./.exec(readme())?.[0].replace(/\s+/g, " ")
    expect(answer).toBeDefined()
    const schema = spawnSync(process.execPath, [CLI, "schema", "ingest-output", "--json"], { encoding: "utf8" })
    const p = JSON.parse(schema.stdout).schema.properties
    const named = (text: string, key: string) => new RegExp(`[{ ,]${key}[,}\\s]`).test(text)
    expect(Object.keys(p).filter((k) => k !== "ok" && k !== "workdir" && !named(answer!, k))).toEqual([])
    for (const part of ["original", "source", "warc"]) {
      const inner = new RegExp(`${part} \\{[^}]*\\}`).exec(answer!)?.[0] ?? ""
      expect(Object.keys(p[part].properties).filter((k) => !named(inner, k)), part).toEqual([])
    }
  })
})
