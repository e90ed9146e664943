/**
 * A file saved with a UTF-8 byte-order mark: the mark is a code point of the file's text, so
 * `start`/`end` count it — the same in `source follow`, the gate and the matcher the monitor
 * uses — and `[...fs.readFileSync(path, "utf8")].slice(start, end)` is the passage; what a reader
 * sees is read without it (a Markdown heading right after the mark is a heading), and the MCP
 * resource of the file keeps it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { checkQuote } from "../../src/domain/Quote.js"
import { follow } from "../../src/domain/SourceFollow.js"
import { closingScopeResearch, folder, parkedMaturity, registerSources } from "../gate/support.js"
import { initialize, raw } from "../mcp/support.js"
import { put, runCli } from "../support/cli.js"

const BOM = "\ufeff"
const MD = `${BOM}# Latency budget\n\nThe p95 latency must stay under 400 ms for every request.\n`
const TXT = `${BOM}The p95 latency must stay under 400 ms for every request.\n`
const QUOTE = "p95 latency must stay under 400 ms"

/** The passage at code-point offsets of a file's text as Node reads it (the mark kept). */
const passage = (text: string, m: { start: number; end: number }) => [...text].slice(m.start, m.end).join("")

describe("a byte-order mark", () => {
  it("is counted by the offsets and never read: the matcher and source follow agree", () => {
    for (const [text, format] of [[MD, "markdown"], [TXT, "text"]] as const) {
      const checked = checkQuote(QUOTE, text, format)
      expect(checked.matched).toBe(true)
      if (!checked.matched) continue
      expect(passage(text, checked)).toBe(QUOTE)
      const [found] = follow(text, format, [QUOTE])
      expect(found).toMatchObject({ start: checked.start, end: checked.end })
      // Without the mark, the same passage one code point earlier.
      const bare = checkQuote(QUOTE, text.slice(1), format)
      expect(bare).toEqual({ matched: true, start: checked.start - 1, end: checked.end - 1 })
    }
    // Read without the mark: the heading is a heading (its `#` is not text), and its section.
    expect(checkQuote("# Latency budget The p95 latency", MD, "markdown").matched).toBe(false)
    expect(checkQuote("Latency budget The p95 latency", MD, "markdown").matched).toBe(true)
    expect(follow(MD, "markdown", [QUOTE])[0]?.section).toBe("Latency budget")
  })

  it("source follow and the gate report the same offsets, which find the passage in the file", () => {
    const f = folder()
    put(f.dir, "research/sources/budget.md", MD)
    put(f.dir, "research/sources/budget.txt", TXT)
    registerSources(f.dir, ["research/sources/budget.md", "research/sources/budget.txt"])
    f.writeState(parkedMaturity([{ id: "scope_unclear", category: "scope" }]))
    f.writeResearch(
      closingScopeResearch("Keep p95 under 400 ms.", [
        { ref: "research/sources/budget.md", quote: QUOTE },
        { ref: "research/sources/budget.txt", quote: QUOTE }
      ])
    )
    const r = f.gate()
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const cited = r.json.research.gaps[0].sources
    for (const [i, file] of ["research/sources/budget.md", "research/sources/budget.txt"].entries()) {
      const text = fs.readFileSync(path.join(f.dir, file), "utf8")
      expect(text.startsWith(BOM)).toBe(true)
      expect(cited[i]).toMatchObject({ verified: true })
      expect(passage(text, cited[i])).toBe(QUOTE)
      const followed = runCli(["source", "follow", "--quote", QUOTE, "--path", file, "--json"], { cwd: f.dir })
      expect(followed.code, followed.stdout + followed.stderr).toBe(0)
      expect(followed.json.matches).toHaveLength(1)
      expect(followed.json.matches[0]).toMatchObject({ start: cited[i].start, end: cited[i].end })
    }
  })

  it("is kept in the text of the MCP resource, so the offsets find the passage there too", async () => {
    const f = folder()
    put(f.dir, "research/sources/budget.md", MD)
    const [found] = follow(MD, "markdown", [QUOTE])
    const s = raw(f.dir)
    s.send(initialize(1))
    await s.next()
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))
    s.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "resources/read",
        params: { uri: "dossier://sources/budget.md" }
      })
    )
    const answer = await s.next()
    expect((await s.end()).code).toBe(0)
    const text: string = answer.result.contents[0].text
    expect(text).toBe(MD)
    expect(passage(text, found!)).toBe(QUOTE)
  })
})
