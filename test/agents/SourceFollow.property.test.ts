/**
 * Exact source follow: for any retained text and any substring of at least 20 characters
 * (optionally with interior words replaced by … or ...), follow finds it at the right offsets.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { checkQuote } from "../../src/domain/Quote.js"
import { excerptPieces, follow } from "../../src/domain/SourceFollow.js"

/** Paragraphs of unique words (so a substring occurs once), some lines broken, blank lines between. */
const document = fc.array(fc.array(fc.stringMatching(/^[a-zA-Zé]{1,8}$/), { minLength: 4, maxLength: 30 }), {
  minLength: 1,
  maxLength: 5
})
  .map((paras) => {
    let n = 0
    return paras.map((words) => words.map((w) => `${w}${n++}`))
  })

const follows = (text: string, excerpt: string, format: "text" | "markdown" = "text") =>
  follow(text, format, Either.getOrThrow(excerptPieces(excerpt)))

describe("source follow", () => {
  it.prop("finds any substring of at least 20 characters at its offsets, as the gate's matcher does", {
    doc: document,
    pick: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
    breaks: fc.boolean()
  }, ({ doc, pick: [p, a, len], breaks }) => {
    const paragraphs = doc.map((words) => words.join(breaks ? "\n" : " "))
    const text = paragraphs.join("\n\n")
    const para = paragraphs[p % paragraphs.length]!
    const base = text.indexOf(para)
    if (para.length < 20) return
    const start = a % (para.length - 19)
    const end = Math.min(para.length, start + 20 + (len % 40))
    const sub = para.slice(start, end)
    if (sub.trim().length < 20 || /^\s|\s$/.test(sub)) return
    const matches = follows(text, sub)
    expect(matches.map((m) => [m.start, m.end])).toEqual([[base + start, base + end]])
    const gate = checkQuote(sub, text)
    expect(gate).toEqual({ matched: true, start: base + start, end: base + end })
    expect(matches[0]!.paragraph).toBe(para.replace(/\s+/g, " "))
    expect(matches[0]!.line).toBe(text.slice(0, base + start).split("\n").length)
  })

  it.prop("finds it with interior words left out (… or ...), still at the offsets of its first and last piece", {
    doc: document,
    pick: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()),
    ellipsis: fc.constantFrom("…", "...", " … ", " ... "),
    clipped: fc.boolean()
  }, ({ doc, pick: [p, a, len, gap], ellipsis, clipped }) => {
    const words = doc[p % doc.length]!
    if (words.length < 5) return
    const i = a % (words.length - 4)
    const j = Math.min(words.length, i + 5 + (len % 10))
    const chosen = words.slice(i, j)
    const cut = 1 + (gap % (chosen.length - 2))
    const excerpt = `${clipped ? ellipsis : ""}${chosen.slice(0, cut).join(" ")}${ellipsis}${
      chosen.slice(cut + 1).join(" ")
    }${clipped ? ellipsis : ""}`
    if (Either.isLeft(excerptPieces(excerpt))) return
    const text = doc.map((w) => w.join(" ")).join("\n\n")
    const para = words.join(" ")
    const base = text.indexOf(para)
    const startIn = words.slice(0, i).join(" ").length + (i > 0 ? 1 : 0)
    const endIn = startIn + chosen.join(" ").length
    expect(follows(text, excerpt).map((m) => [m.start, m.end])).toEqual([[base + startIn, base + endIn]])
  })

  it("keeps the pieces inside one paragraph, and answers the block and its heading", () => {
    const md =
      "# Limits\n\nThe p95 latency must stay under 400 ms.\n\nIt is measured at the gateway.\n\n## Retries\n\n- retries are capped at three attempts\n- then the call fails\n"
    expect(follows(md, "p95 latency … measured at the gateway", "markdown")).toEqual([])
    const m = follows(md, "…must stay under 400 ms…", "markdown")
    expect(m).toHaveLength(1)
    expect(m[0]).toMatchObject({ paragraph: "The p95 latency must stay under 400 ms.", section: "Limits", line: 3 })
    expect(md.slice(m[0]!.start, m[0]!.end)).toBe("must stay under 400 ms")
    expect(follows(md, "retries are capped ... attempts", "markdown")[0]).toMatchObject({
      paragraph: "retries are capped at three attempts",
      section: "Retries",
      line: 9
    })
    const html =
      "<h2>Limits</h2><p>The p95 <b>latency</b> must stay under 400&nbsp;ms for checkout.</p><table><tr><td>retries</td><td>three attempts per call</td></tr></table>"
    expect(follows(html.replace("&nbsp;", " "), "p95 latency must stay … checkout", "text")).toEqual([])
    const h = follow(html, "html", Either.getOrThrow(excerptPieces("p95 latency must stay … checkout")))
    expect(h[0]).toMatchObject({
      section: "Limits",
      paragraph: "The p95 latency must stay under 400\u00a0ms for checkout.".replace("\u00a0", " ")
    })
    expect(follow(html, "html", Either.getOrThrow(excerptPieces("retries … three attempts per call")))[0]?.paragraph)
      .toBe("retries three attempts per call")
    expect(Either.isLeft(excerptPieces("… short … bits …"))).toBe(true)
  })
})
