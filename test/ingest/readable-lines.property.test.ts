/**
 * The line marks of the readable copy: what the writer escapes (`escapeLineStart`) and what the
 * block rules read as a block of its own (`opensBlock`: render.ts's run-on words,
 * shippingPromise.ts's plain paragraphs, titleEchoes.ts's echoes) agree. A line of text the copy
 * escaped never reads as a heading, an item or a quote; the marks the copy writes always do.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { escapeLineStart, opensBlock } from "../../src/domain/readable/inline.js"

/** Lines of text that start with the characters Markdown reads as syntax, and words after. */
const line = fc
  .tuple(
    fc.constantFrom(
      "",
      "-",
      "*",
      "+",
      "#",
      "##",
      "###",
      "#1",
      ">",
      "|",
      "1.",
      "1)",
      "12)",
      "===",
      "---",
      "***",
      "___",
      "* * *",
      "```",
      "~~~",
      "_ _ _"
    ),
    fc.constantFrom("", " ", "\t"),
    fc.constantFrom("", "Free shipping", "Choose the pot", "x")
  )
  .map(([mark, space, words]) => `${mark}${space}${words}`)
  .filter((l) => l.length > 0 && !/^[ \t]/.test(l))

describe("readable copy: the marks that open a block", () => {
  it.prop("a line the copy escaped opens no block of its own", { line }, ({ line }) => {
    expect(opensBlock(escapeLineStart(line))).toBe(false)
  }, { fastCheck: { numRuns: 300 } })

  it.prop("a line opens a block of its own exactly when the copy would escape it as text", { line }, ({ line }) => {
    expect(opensBlock(line)).toBe(escapeLineStart(line) !== line)
  }, { fastCheck: { numRuns: 300 } })

  it("reads the marks the copy writes, and indented code, as blocks of their own", () => {
    for (const block of ["# Title", "### Care", "- item", "* item", "2. Step", "2) Step", "> quote", "| a | b |"]) {
      expect(opensBlock(block), block).toBe(true)
    }
    for (const block of ["```ts", "~~~", "---", "    code", "\tcode"]) expect(opensBlock(block), block).toBe(true)
    // "#1" with no space is no heading: a shop's "#1 seller: order by 4pm…" is a plain paragraph
    // (the dispatch rule reads it so; the pattern it replaced read any "#" as a mark).
    for (const text of ["Free shipping over $50", "#1 in its class", "#1 seller", "2.5 kg", "-20% today", "\\- item"]) {
      expect(opensBlock(text), text).toBe(false)
    }
  })
})
