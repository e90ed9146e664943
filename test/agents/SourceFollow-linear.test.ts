/**
 * `source follow` searches retained files of up to 16 MiB, and through `dossier mcp` a call that
 * takes minutes holds the one server thread (no other call, nor the client's cancel, is served
 * meanwhile). An excerpt that occurs on every paragraph of a large file, or whose pieces occur in
 * every block but never together, must still take time linear in the file's length: the line,
 * the code-point offset, the section and the block of each match used to be found by scanning
 * from the start of the file (minutes for these 1 MiB files; one pass takes well under a second).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { excerptPieces, follow } from "../../src/domain/SourceFollow.js"

const SIZE = 1024 * 1024
// One pass takes well under a second for each of these files on an idle machine; the scans it
// replaced took minutes. The bound leaves room for a loaded machine.
const BOUND_MS = 30_000

const PARAGRAPH = "The service p95 must stay under 400 ms for every batch we send \u{1F600} said the note.\n\n"
const file = (head: string) => head + PARAGRAPH.repeat(Math.floor(SIZE / PARAGRAPH.length))
const timed = (text: string, format: "text" | "markdown", excerpt: string) => {
  const started = Date.now()
  const matches = follow(text, format, Either.getOrThrow(excerptPieces(excerpt)))
  return { matches, ms: Date.now() - started }
}

describe("source follow reads a large file in time linear in its length", () => {
  const count = Math.floor(SIZE / PARAGRAPH.length)
  // Each paragraph holds one astral character (two UTF-16 units, one code point).
  const units = PARAGRAPH.length
  const points = [...PARAGRAPH].length

  it("an excerpt found in every paragraph of a text file", () => {
    const { matches, ms } = timed(file(""), "text", "The service p95 must stay under 400 ms")
    expect(matches.length).toBe(count)
    const last = matches[count - 1]!
    expect(last).toEqual({
      start: (count - 1) * points,
      end: (count - 1) * points + 38,
      line: (count - 1) * 2 + 1,
      paragraph: PARAGRAPH.trim(),
      section: null
    })
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)

  it("an excerpt in pieces found in every paragraph under one heading of a Markdown file", () => {
    const { matches, ms } = timed(file("# Budget\n\n"), "markdown", "p95 must stay … said the note.")
    expect(matches.length).toBe(count)
    const last = matches[count - 1]!
    expect(last.section).toBe("Budget")
    expect(last.line).toBe((count - 1) * 2 + 3)
    expect(last.start).toBe(10 + (count - 1) * points + 12)
    expect(last.end).toBe(10 + count * points - 2)
    expect(units).toBe(points + 1)
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)

  it("an excerpt whose first piece is in every paragraph and whose second is nowhere", () => {
    const { matches, ms } = timed(file("# Budget\n\n"), "markdown", "p95 must stay … under 300 ms for nobody")
    expect(matches).toEqual([])
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)
})
