import { describe, expect, it } from "@effect/vitest"
import * as fc from "effect/FastCheck"
import { createHash } from "node:crypto"
import {
  canonicalDigest,
  canonicalJson,
  canonicalJsonReference,
  normalizeTimestamp,
  sha256Hex
} from "../../src/domain/Canonical.js"

describe("canonical JSON (RFC 8785)", () => {
  it("sorts keys by UTF-16 code units, formats numbers as ECMAScript, escapes minimally", () => {
    // Examples after RFC 8785 section 3.2.2/3.2.3.
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "\u20ac": 2, "\r": 3, "1": 4 })).toBe(
      "{\"\\r\":3,\"1\":4,\"a\":[true,null,\"x\"],\"b\":1,\"€\":2}"
    )
    expect(canonicalJson({ n: [1e30, 4.5, 0.002, -0, 1e-7] })).toBe("{\"n\":[1e+30,4.5,0.002,0,1e-7]}")
    expect(canonicalJson("\u2028\u0007")).toBe("\"\u2028\\u0007\"")
  })

  it("normalizes timestamps inside hashed content to millisecond UTC", () => {
    expect(normalizeTimestamp("2026-11-30T11:00:00+01:00")).toBe("2026-11-30T10:00:00.000Z")
    expect(normalizeTimestamp("2026-11-30T10:00Z")).toBe("2026-11-30T10:00:00.000Z")
    expect(normalizeTimestamp("not a time")).toBe("not a time")
    expect(canonicalDigest({ at: "2026-11-30T10:00:00Z" })).toBe(canonicalDigest({ at: "2026-11-30T10:00:00.000Z" }))
    expect(canonicalJson({ fetchedAt: "2026-11-30T11:00+01:00" })).toBe("{\"fetchedAt\":\"2026-11-30T10:00:00.000Z\"}")
    // Content that merely looks like a time is never rewritten.
    expect(canonicalJson({ title: "2026-01-01T00:00Z", list: ["2026-01-01T00:00Z"] })).toBe(
      "{\"list\":[\"2026-01-01T00:00Z\"],\"title\":\"2026-01-01T00:00Z\"}"
    )
  })

  it.prop("is independent of key order and idempotent", [fc.jsonValue()], ([v]) => {
    const shuffled = JSON.parse(
      JSON.stringify(
        v,
        (
          _k,
          x
        ) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).reverse()) : x)
      )
    )
    expect(canonicalJson(shuffled)).toBe(canonicalJson(v))
    expect(canonicalJson(JSON.parse(canonicalJson(v)))).toBe(canonicalJson(v))
  })

  const outcome = (f: () => string) => {
    try {
      return { ok: f() }
    } catch (e) {
      return { threw: e instanceof Error ? e.constructor.name : typeof e }
    }
  }
  const timestampish = fc.oneof(
    fc.constantFrom(
      "2026-11-30T11:00:00+01:00",
      "2026-11-30T10:00Z",
      "2026-11-30T10:00:00.123456789Z",
      "2026-02-30T10:00Z",
      "x"
    ),
    fc.string({ unit: "binary" })
  )
  const keyish = fc.oneof(
    fc.constantFrom("at", "createdAt", "At", "xAt", "__proto__", "\uD800", "a\uDC00", ""),
    fc.string({ unit: "binary" })
  )
  const valueish = fc.letrec((tie) => ({
    leaf: fc.oneof(
      timestampish,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-324)
    ),
    node: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("array"), tie("object")),
    array: fc.array(tie("node"), { maxLength: 4 }),
    object: fc.dictionary(keyish, tie("node"), { maxKeys: 5 })
  })).node
  it.prop("the one-pass form gives exactly the reference output (or fails where the reference fails)", [
    fc.oneof(fc.jsonValue(), valueish, fc.anything())
  ], ([v]) => {
    expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => canonicalJsonReference(v)))
  }, { fastCheck: { numRuns: 2000 } })
  it("the one-pass form leaves odd values to the reference", () => {
    const sparse = [1, , 3]
    const withToJSON = { a: 1, toJSON: () => ({ b: 2 }) }
    for (
      const v of [
        sparse,
        withToJSON,
        { at: new Date(0) },
        { n: 10n },
        { s: "\uD800" },
        [undefined],
        () => 1,
        Symbol("s")
      ]
    ) {
      expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => canonicalJsonReference(v)))
    }
    expect(canonicalJson({ at: "2026-11-30T11:00:00+01:00", t: ["2026-11-30T11:00:00+01:00"], u: undefined })).toBe(
      "{\"at\":\"2026-11-30T10:00:00.000Z\",\"t\":[\"2026-11-30T11:00:00+01:00\"]}"
    )
  })

  it.prop("sha256Hex agrees with node:crypto createHash for strings (as UTF-8) and bytes", [
    fc.string({ unit: "binary" }),
    fc.uint8Array()
  ], ([text, bytes]) => {
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"))
    expect(sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"))
    // A view into a larger buffer hashes only its own bytes.
    const big = new Uint8Array(bytes.length + 8)
    big.set(bytes, 4)
    expect(sha256Hex(big.subarray(4, 4 + bytes.length))).toBe(createHash("sha256").update(bytes).digest("hex"))
  })
  it("sha256Hex of a known value", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    for (const s of ["\uD800", "a\uDC00b", "\uD83D\uDE00"]) {
      expect(sha256Hex(s)).toBe(createHash("sha256").update(s, "utf8").digest("hex"))
    }
  })
})
