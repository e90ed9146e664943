/**
 * `source follow` without `--path` searches every readable copy and text original under
 * `research/sources/`; a file it cannot read as text (a hard link, a symlink, bytes that are not
 * UTF-8) is passed over, and the answer names it in `skipped` with the refusal `--path` would
 * give for it, so a registered source is never hidden from the search without a word.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { MAX_LISTED_SOURCES } from "../../src/services/Sources.js"
import { put, putInput, runCli, tempWorkdir } from "../support/cli.js"

const QUOTE = "river gauge reading must stay under four metres"
const LINE = "The river gauge reading must stay under four metres all year."

describe("source follow without --path", () => {
  it("names each file it could not search, with the refusal --path gives for it", () => {
    const dir = tempWorkdir("dossier-follow-skipped-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    put(dir, "research/sources/linked.md", `${LINE}\n`)
    put(dir, "research/sources/plain.md", `${LINE} Also here.\n`)
    const sources = putInput(dir, "checkpoint.json", {
      sources: [{ path: "research/sources/linked.md", origin: "https://example.com/gauge" }]
    })
    const started = putInput(dir, "start.json", { goal: "Gauge limits", limits: [], nextAction: "read" })
    expect(runCli(["plan", "start", "--workdir", dir, "--input", started]).code).toBe(0)
    const checkpoint = runCli([
      "plan",
      "checkpoint",
      "--workdir",
      dir,
      "--input",
      sources,
      "--expected",
      "1"
    ])
    expect(checkpoint.code, checkpoint.stdout + checkpoint.stderr).toBe(0)
    // The registered source gains a second name outside the folder; a symlink and a file that is
    // not UTF-8 sit beside it; an HTML original is never searched without --path, so never skipped.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-follow-link-"))
    fs.linkSync(path.join(dir, "research/sources/linked.md"), path.join(outside, "linked.md"))
    fs.symlinkSync("plain.md", path.join(dir, "research/sources/alias.md"))
    put(dir, "research/sources/latin1.txt", new Uint8Array([0x66, 0xe9, 0x65, 0x0a]))
    put(dir, "research/sources/page.html", `<p>${LINE}</p>`)
    fs.linkSync(path.join(dir, "research/sources/page.html"), path.join(outside, "page.html"))

    const r = runCli(["source", "follow", "--quote", QUOTE, "--workdir", dir, "--json"])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.json.matches.map((m: { path: string }) => m.path)).toEqual(["research/sources/plain.md"])
    expect(r.json.skipped).toEqual([
      {
        path: "research/sources/alias.md",
        error: "UnsafePath",
        message:
          "Refused the path 'research/sources/alias.md' (symlink): it goes through a symbolic link, which dossier never follows."
      },
      {
        path: "research/sources/latin1.txt",
        error: "InvalidInput",
        message: "'research/sources/latin1.txt' is not a UTF-8 text file."
      },
      {
        path: "research/sources/linked.md",
        error: "UnsafePath",
        message:
          "Refused the path 'research/sources/linked.md' (hard-link): the file has another hard link, so its bytes could change under another name."
      }
    ])
    // Each is the refusal --path naming that file answers.
    for (
      const [file, tag] of [["linked.md", "UnsafePath"], ["alias.md", "UnsafePath"], ["latin1.txt", "InvalidInput"]]
    ) {
      const one = runCli([
        "source",
        "follow",
        "--quote",
        QUOTE,
        "--path",
        `research/sources/${file}`,
        "--workdir",
        dir,
        "--json"
      ])
      expect(one.code).toBe(1)
      expect(one.json.error._tag).toBe(tag)
    }
    // The human report says it too.
    const human = runCli(["source", "follow", "--quote", QUOTE, "--workdir", dir])
    expect(human.code).toBe(0)
    expect(human.stdout).toContain("not searched (3):")
    expect(human.stdout).toContain("research/sources/linked.md: UnsafePath: Refused the path")
    // No match does not claim that no source holds the excerpt when some were not searched.
    const none = runCli(["source", "follow", "--quote", "a sentence that no file here holds at all", "--workdir", dir])
    expect(none.code).toBe(0)
    expect(none.stdout).not.toContain("not in any retained source")
    expect(none.stdout).toContain("no match in the files searched")
    expect(none.stdout).toContain("not searched (3):")
  })

  it("answers skipped: [] when every file was searched, and with --path", () => {
    const dir = tempWorkdir("dossier-follow-skipped-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    put(dir, "research/sources/plain.md", `${LINE}\n`)
    const all = runCli(["source", "follow", "--quote", QUOTE, "--workdir", dir, "--json"])
    expect(all.json).toMatchObject({ ok: true, skipped: [] })
    expect(all.json.matches).toHaveLength(1)
    const one = runCli([
      "source",
      "follow",
      "--quote",
      QUOTE,
      "--path",
      "research/sources/plain.md",
      "--workdir",
      dir,
      "--json"
    ])
    expect(one.json).toMatchObject({ ok: true, skipped: [] })
  })

  it("says when research/sources/ holds more files than it searches", () => {
    const dir = tempWorkdir("dossier-follow-many-")
    expect(runCli(["init", "--workdir", dir]).code).toBe(0)
    // MAX_LISTED_SOURCES tiny files, then the one that holds the excerpt: it is not searched.
    const sources = path.join(dir, "research/sources")
    for (let i = 0; i < MAX_LISTED_SOURCES; i++) {
      fs.writeFileSync(path.join(sources, `f${String(i).padStart(5, "0")}.txt`), "x\n")
    }
    put(dir, "research/sources/zz-last.md", `${LINE}\n`)
    const all = runCli(["source", "follow", "--quote", QUOTE, "--workdir", dir, "--json"])
    expect(all.code, all.stdout + all.stderr).toBe(0)
    expect(all.json.matches).toEqual([])
    expect(all.json.skipped).toEqual([{
      path: "research/sources",
      error: "LimitExceeded",
      message:
        `Searched only the first ${MAX_LISTED_SOURCES} files under research/sources/ (in name order); the others were not searched: name one as the path to search it.`
    }])
    // The same answer serves a tool call (argument `path`) and a program: no command-line flag.
    expect(all.json.skipped[0].message).not.toMatch(/--[a-z]/)
    const human = runCli(["source", "follow", "--quote", QUOTE, "--workdir", dir])
    expect(human.stdout).not.toContain("not in any retained source")
    expect(human.stdout).toContain("not searched (1):\n  research/sources: LimitExceeded: Searched only the first")
    // --path still reaches the file past the cut-off.
    const one = runCli([
      "source",
      "follow",
      "--quote",
      QUOTE,
      "--path",
      "research/sources/zz-last.md",
      "--workdir",
      dir,
      "--json"
    ])
    expect(one.json).toMatchObject({ ok: true, skipped: [], matches: [{ path: "research/sources/zz-last.md" }] })
  }, 120_000)
})
