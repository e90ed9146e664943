/**
 * The stdin line reader and the id scanner behind the message limits (src/mcp/Lines.ts), and the
 * guard's nesting count: whatever the chunking, lines come out as sent; a line over the limit is
 * never held, and its top-level id is found wherever it stands.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { nestingDepth } from "../../src/mcp/JsonRpcGuard.js"
import { IdScanner, LineReader } from "../../src/mcp/Lines.js"

const depthOf = (u: unknown): number =>
  Array.isArray(u)
    ? 1 + Math.max(0, ...u.map(depthOf))
    : typeof u === "object" && u !== null
    ? 1 + Math.max(0, ...Object.values(u).map(depthOf))
    : 0

const chunked = (bytes: Uint8Array, cuts: ReadonlyArray<number>): Array<Uint8Array> => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const out: Array<Uint8Array> = []
  let at = 0
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(at, p))
    at = p
  }
  return out
}

const id = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))

describe("message limits", () => {
  it.prop("lines come out as sent, whatever the chunks", {
    lines: fc.array(fc.string({ maxLength: 30 }).map((s) => s.replaceAll("\n", " ")), { maxLength: 8 }),
    cuts: fc.array(fc.nat(), { maxLength: 10 })
  }, ({ lines, cuts }) => {
    const reader = new LineReader(1_000)
    const text = lines.map((l) => `${l}\n`).join("")
    const out = chunked(Buffer.from(text, "utf8"), cuts).flatMap((c) => reader.push(c))
    expect(out).toEqual(lines.map((line) => ({ _tag: "Line", line })))
    expect(reader.end()).toEqual([])
  }, { fastCheck: { numRuns: 200 } })

  it.prop("a line over the limit is refused with the id found at the top, wherever it stands", {
    before: fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => k !== "id"), fc.jsonValue({ maxDepth: 3 }), {
      maxKeys: 3
    }),
    after: fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => k !== "id"), fc.jsonValue({ maxDepth: 3 }), {
      maxKeys: 3
    }),
    id,
    cuts: fc.array(fc.nat(), { maxLength: 10 })
  }, ({ before, after, id, cuts }) => {
    const line = `${
      JSON.stringify({ ...before, id, ...after, pad: "p".repeat(300), nested: { id: "not this one" } })
    }\n`
    const reader = new LineReader(200)
    const out = chunked(Buffer.from(line, "utf8"), cuts).flatMap((c) => reader.push(c))
    expect(out).toHaveLength(1)
    const expected = JSON.parse(JSON.stringify(id))
    expect(out[0]).toEqual({ _tag: "TooLarge", id: expected, bytes: Buffer.byteLength(line) - 1 })
  }, { fastCheck: { numRuns: 200 } })

  it.prop("a line that is not UTF-8 is refused with its id and the offset of the first bad byte", {
    id,
    before: fc.string({ maxLength: 20 }),
    bad: fc.constantFrom([0xe9], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff]),
    cuts: fc.array(fc.nat(), { maxLength: 10 })
  }, ({ id, before, bad, cuts }) => {
    // {"jsonrpc":"2.0","method":"ping","params":{"x":"<before><bad bytes>"},"id":<id>}
    const headBytes = Buffer.from(
      `{"jsonrpc":"2.0","method":"ping","params":{"x":${JSON.stringify(before).slice(0, -1)}`
    )
    const tail = `"},"id":${JSON.stringify(id)}}\n`
    const bytes = Buffer.concat([headBytes, Buffer.from(bad), Buffer.from(tail, "utf8")])
    const reader = new LineReader(1_000)
    const out = chunked(bytes, cuts).flatMap((c) => reader.push(c))
    expect(out).toEqual([{ _tag: "NotUtf8", id: JSON.parse(JSON.stringify(id)), offset: headBytes.length }])
  }, { fastCheck: { numRuns: 200 } })

  it.prop("the id scanner agrees with JSON.parse on the top-level id", {
    value: fc.jsonValue({ maxDepth: 4 }),
    id: fc.option(id, { nil: undefined })
  }, ({ value, id }) => {
    const message = typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : { value }
    if (id === undefined) delete (message as Record<string, unknown>)["id"]
    else (message as Record<string, unknown>)["id"] = id
    const text = JSON.stringify(message)
    const scanner = new IdScanner()
    scanner.feed(Buffer.from(text, "utf8"))
    const parsed = JSON.parse(text)["id"]
    expect(scanner.id()).toEqual(typeof parsed === "string" || typeof parsed === "number" ? parsed : null)
  }, { fastCheck: { numRuns: 300 } })

  it.prop("the nesting count is the JSON value's depth", { value: fc.jsonValue({ maxDepth: 6 }) }, ({ value }) => {
    expect(nestingDepth(JSON.stringify(value))).toBe(depthOf(value))
  }, { fastCheck: { numRuns: 300 } })
})
