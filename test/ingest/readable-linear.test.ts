/**
 * A page is written by whoever serves it, and its readable copy is made after the fetch, with no
 * deadline: a page built so that the extractor's time grows with the square of its length would
 * hold a capture for minutes or hours. The scans that did (a run of `[`, of `](`, a paragraph of
 * sentences and code spans, a `pre` of spaces or backticks) are written in one pass; each is
 * checked here against the regex it replaced, and each hostile page against a bound that the
 * square of its length overran by far (minutes) and one pass meets in a second or two.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { readableCopy } from "../../src/domain/Readable.js"
import { inlineSpans } from "../../src/domain/readable/passages.js"
import { isLinkOnly } from "../../src/domain/readable/repeats.js"
import { withoutLinkTargets } from "../../src/domain/readable/titleEchoes.js"

const URL_ = "https://example.org/a"

/** Markdown-ish text from the characters the scans look at. */
const markdownish = fc.array(
  fc.constantFrom("[", "]", "(", ")", "!", "`", "\n", " ", "\t", "\u00a0", "a", "b", "\\", "."),
  { maxLength: 60 }
).map((cs) => cs.join(""))

/** What `sentences` (passages.ts) took the spans to be: every match of this regex. */
const INLINE_SPAN = /!?\[[^\]\n]*\]\([^)\s]*\)|`[^`\n]*`/g

describe("the scans of the readable copy read a page once", () => {
  it.prop("inlineSpans finds exactly the regex's matches", [markdownish], ([text]) => {
    const byRegex = [...text.matchAll(INLINE_SPAN)].map((m) => [m.index, m.index + m[0].length])
    expect(inlineSpans(text)).toEqual(byRegex)
  })

  it.prop("withoutLinkTargets replaces exactly what the regex replaces", [markdownish], ([text]) => {
    expect(withoutLinkTargets(text)).toBe(text.replace(/\]\([^)]*\)/g, "]"))
  })

  it.prop("isLinkOnly answers as the regex does", [markdownish], ([text]) => {
    for (const b of [text, `[${text}`, `${text})`, `[${text})`, `[${text}](${text})`]) {
      expect(isLinkOnly(b), JSON.stringify(b)).toBe(/^\[[^\n]*\]\([^\s)]*\)$/.test(b))
    }
  })

  it("a code block's fence is one backtick longer than the longest run inside, at least three", () => {
    const md = (code: string) => readableCopy("html", `<html><body><pre>${code}</pre></body></html>`, URL_)
    expect(md("let a = 1")).toContain("```\nlet a = 1\n```")
    expect(md("a `` b")).toContain("```\na `` b\n```")
    expect(md("a ``` b ` c")).toContain("````\na ``` b ` c\n````")
    expect(md("``````x``")).toContain("```````\n``````x``\n```````")
    // The trailing space of the code is left out, a line's leading space kept.
    expect(md("  x \n \t\n")).toContain("```\n  x\n```")
  })
})

describe("hostile pages are read in time linear in their length", () => {
  const page = (body: string) =>
    `<!doctype html><html><head><title>t</title></head><body><article>${body}</article></body></html>`
  const SIZE = 512 * 1024
  /** The copy of a page made of `unit` again and again inside `open`…`close`, and the time it took. */
  const timed = (open: string, unit: string, close: string) => {
    const started = Date.now()
    const md = readableCopy("html", page(`${open}${unit.repeat(Math.floor(SIZE / unit.length))}${close}`), URL_)
    return { md, ms: Date.now() - started }
  }
  // One pass takes well under a second for each of these pages on an idle machine; the scans they
  // replaced took from one to many minutes. The bound leaves room for a loaded machine.
  const BOUND_MS = 30_000

  it("a paragraph of half a million `[`", () => {
    const { md, ms } = timed("<p>", "[", "x</p>")
    expect(md).toContain("[[[[x")
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)

  it("a paragraph of `[a](` again and again", () => {
    const { md, ms } = timed("<p>", "[a](", "x</p>")
    expect(md).toContain("[a\\]([a\\](x")
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)

  it("a paragraph of `](` again and again", () => {
    const { md, ms } = timed("<p>", "](", "x</p>")
    expect(md).toContain("(\\](x")
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)

  it("a paragraph of short sentences, each with a code span", () => {
    const { md, ms } = timed("<p>", "Said. <code>x</code> ", "end.</p>")
    expect(md).toContain("Said. `x`")
    expect(ms).toBeLessThan(BOUND_MS)
  }, 120_000)

  it("a pre of spaces before its text, and a pre of backticks", () => {
    const spaces = timed("<pre>", " ", "x</pre>")
    expect(spaces.md.endsWith(`\n\`\`\`\n${" ".repeat(SIZE)}x\n\`\`\`\n`)).toBe(true)
    expect(spaces.ms).toBeLessThan(BOUND_MS)
    const ticks = timed("<pre>", "`", "x</pre>")
    expect(ticks.md.endsWith(`\n${"`".repeat(SIZE + 1)}\n${"`".repeat(SIZE)}x\n${"`".repeat(SIZE + 1)}\n`)).toBe(true)
    expect(ticks.ms).toBeLessThan(BOUND_MS)
  }, 120_000)
})
