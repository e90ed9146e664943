import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import {
  checkQuote,
  collapseWhitespace,
  makeQuoteMatcher,
  MIN_QUOTE_LENGTH,
  normalizeForQuote
} from "../../src/domain/Quote.js"

const word = fc.string({ unit: fc.constantFrom("a", "b", "é", "Z", ",", ".", "x", "ü"), minLength: 1, maxLength: 8 })
const ws = fc.constantFrom(" ", "  ", "\n", "\t", " \n ", "\u00a0", "\r\n")
const text = fc.array(fc.tuple(word, ws), { minLength: 1, maxLength: 40 }).map((xs) =>
  xs.map(([w, s]) => w + s).join("")
)

describe("quote matching", () => {
  it.prop("a normalized substring of at least 20 characters always matches, whatever its whitespace", [
    text,
    fc.nat(),
    fc.nat(),
    ws
  ], ([t, a, b, sep]) => {
    const n = normalizeForQuote(t)
    const start = a % Math.max(1, n.length)
    const len = MIN_QUOTE_LENGTH + (b % 30)
    const q = [...n].slice(start, start + len).join("")
    fc.pre([...q.trim()].length >= MIN_QUOTE_LENGTH)
    // Re-space the quote differently: runs of whitespace are one space on both sides.
    const respaced = q.replace(/ /g, sep)
    const r = checkQuote(respaced, t)
    expect(r).toMatchObject({ matched: true })
    expect(makeQuoteMatcher(t)(respaced)).toEqual(r)
    // The offsets hold a passage of the text that normalizes to the quote.
    if (r.matched) expect(normalizeForQuote([...t].slice(r.start, r.end).join(""))).toBe(normalizeForQuote(respaced))
  })

  it.prop("a quote shorter than 20 characters never matches", [text, fc.string({ maxLength: 19 })], ([t, q]) => {
    fc.pre([...normalizeForQuote(q)].length < MIN_QUOTE_LENGTH)
    expect(checkQuote(q, t)).toEqual({ matched: false, reason: "quote-too-short" })
  })

  it.prop("matching is case- and punctuation-exact", [text], ([t]) => {
    const n = normalizeForQuote(t)
    fc.pre([...n].length >= MIN_QUOTE_LENGTH && n !== n.toUpperCase())
    const q = [...n].slice(0, 25).join("")
    fc.pre(q !== q.toUpperCase() && !n.includes(q.toUpperCase()))
    expect(checkQuote(q.toUpperCase(), t).matched).toBe(false)
  })

  it("NFC and NFD spellings match each other", () => {
    const nfd = "Cafe\u0301 au lait, served with crème brûlée".normalize("NFD")
    const r = checkQuote("Café au lait, served with crème", nfd)
    expect(r).toMatchObject({ matched: true })
    // Offsets are in the file's own (NFD) text: the passage ends after crème's combining grave.
    if (r.matched) expect([...nfd].slice(r.start, r.end).join("")).toBe("Cafe\u0301 au lait, served with cre\u0300me")
    expect(checkQuote("a quote that is not there at all", nfd)).toEqual({ matched: false, reason: "quote-not-found" })
  })
})

describe("whitespace collapsing", () => {
  it.prop("is exactly NFC + /\\s+/g → ' ' + trim", [
    fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          " ",
          "\t",
          "\n",
          "\r",
          "\v",
          "\f",
          "\u00a0",
          "\u1680",
          "\u2000",
          "\u200a",
          "\u2028",
          "\u2029",
          "\u202f",
          "\u205f",
          "\u3000",
          "\ufeff",
          "\u200b",
          "\u180e",
          "\u0085"
        ),
        fc.string({ minLength: 1, maxLength: 1 })
      )
    })
  ], ([s]) => {
    expect(normalizeForQuote(s)).toBe(s.normalize("NFC").replace(/\s+/g, " ").trim())
  }, { fastCheck: { numRuns: 2000 } })

  it.prop("collapseWhitespace is exactly /\\s+/g → ' ' (its scan for text with nothing to collapse included)", [
    fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          " ",
          " ",
          " ",
          "\t",
          "\n",
          "\r",
          "\v",
          "\f",
          "\u00a0",
          "\u1680",
          "\u1fff",
          "\u2000",
          "\u200a",
          "\u200b",
          "\u2028",
          "\u2029",
          "\u202f",
          "\u205f",
          "\u3000",
          "\ufeff",
          "\u180e",
          "\u0085",
          "\u0008",
          "\u000e",
          "\u001f",
          "!"
        ),
        fc.string({ minLength: 1, maxLength: 1 })
      )
    })
  ], ([s]) => {
    expect(collapseWhitespace(s)).toBe(s.replace(/\s+/g, " "))
  }, { fastCheck: { numRuns: 5000 } })
})
