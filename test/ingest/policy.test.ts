import { assert, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { checkUrl, isLocalhostName, publicUnicastPolicy } from "../../src/domain/DestinationPolicy.js"
import { SafeHttp } from "../../src/services/SafeHttp.js"
import { corpus, hostileDns } from "./corpus.js"
import { httpLayer, recorder } from "./support.js"

const octet = fc.integer({ min: 0, max: 255 })

/** Every spelling of an IPv4 address the WHATWG parser folds to the same address. */
const spellings = (a: number, b: number, c: number, d: number): ReadonlyArray<string> => {
  const n = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d
  return [
    `${a}.${b}.${c}.${d}`,
    `${n}`,
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    `0x${a.toString(16)}.0x${b.toString(16)}.0x${c.toString(16)}.0x${d.toString(16)}`,
    `0${a.toString(8)}.0${b.toString(8)}.0${c.toString(8)}.0${d.toString(8)}`,
    `${a}.${(b << 16) + (c << 8) + d}`,
    `${a}.${b}.${(c << 8) + d}`,
    `${a}.${b}.${c}.${d}.`,
    `[::ffff:${a}.${b}.${c}.${d}]`
  ]
}

describe("destination policy (pure)", () => {
  it("the corpus has at least 80 hostile URLs", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(80)
  })

  for (const entry of corpus) {
    it(`refuses ${JSON.stringify(entry.url)} with ${entry.tag}${entry.range ? ` (${entry.range})` : ""}`, () => {
      const r = checkUrl(publicUnicastPolicy, entry.url)
      assert(Either.isLeft(r), `accepted ${entry.url}`)
      expect(r.left._tag).toBe(entry.tag)
      if (entry.range !== undefined && r.left._tag === "ForbiddenDestination") expect(r.left.range).toBe(entry.range)
    })
  }

  it.prop("refuses every spelling of a loopback, private, link-local or CGNAT address", [
    fc.oneof(
      fc.tuple(fc.constant(127), octet, octet, octet),
      fc.tuple(fc.constant(10), octet, octet, octet),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), octet, octet),
      fc.tuple(fc.constant(192), fc.constant(168), octet, octet),
      fc.tuple(fc.constant(169), fc.constant(254), octet, octet),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), octet, octet),
      fc.tuple(fc.constant(0), octet, octet, octet),
      fc.tuple(fc.integer({ min: 224, max: 255 }), octet, octet, octet)
    )
  ], ([[a, b, c, d]]) => {
    for (const host of spellings(a, b, c, d)) {
      const r = checkUrl(publicUnicastPolicy, `http://${host}/x`)
      if (Either.isRight(r) || r.left._tag !== "ForbiddenDestination") return false
    }
    return true
  })

  it.prop("allows ordinary public unicast IPv4 in every spelling, as the same address", [
    fc.tuple(fc.integer({ min: 1, max: 9 }), octet, octet, fc.integer({ min: 1, max: 254 }))
  ], ([[a, b, c, d]]) =>
    spellings(a, b, c, d).every((host) => {
      const r = checkUrl(publicUnicastPolicy, `http://${host}/`)
      if (Either.isLeft(r) || Option.isNone(r.right.literal)) return false
      const literal = r.right.literal.value
      return host.startsWith("[") ? literal.startsWith("::ffff:") : literal === `${a}.${b}.${c}.${d}`
    }))

  it.prop("refuses IPv6 outside 2000::/3 and inside the special ranges", [
    fc.tuple(fc.integer({ min: 0, max: 0x1fff }), fc.integer({ min: 0, max: 0xffff }))
  ], ([[hi, lo]]) => Option.isSome(publicUnicastPolicy(`${hi.toString(16)}::${lo.toString(16)}`)))

  it("allows public IPv6 unicast and refuses the embedded-IPv4 forms whatever they carry", () => {
    expect(publicUnicastPolicy("2606:4700::1111")).toEqual(Option.none())
    expect(publicUnicastPolicy("2a00:1450::1")).toEqual(Option.none())
    expect(Option.isSome(publicUnicastPolicy("64:ff9b::102:304"))).toBe(true)
    expect(Option.isSome(publicUnicastPolicy("2002:102:304::1"))).toBe(true)
    expect(Option.isSome(publicUnicastPolicy("::102:304"))).toBe(true)
  })

  it("fails closed on what it cannot parse", () => {
    expect(publicUnicastPolicy("not-an-address")).toEqual(Option.some("invalid"))
    expect(publicUnicastPolicy("")).toEqual(Option.some("invalid"))
  })

  it.prop("localhost names: any case, any number of trailing dots, any subdomain", [
    fc.array(fc.stringMatching(/^[a-z0-9-]{1,10}$/), { maxLength: 3 }),
    fc.integer({ min: 0, max: 3 }),
    fc.boolean()
  ], ([labels, dots, upper]) => {
    const name = [...labels, "localhost"].join(".") + ".".repeat(dots)
    return isLocalhostName(upper ? name.toUpperCase() : name)
  })

  it("does not take names that merely contain localhost for it", () => {
    expect(isLocalhostName("localhost.example.com")).toBe(false)
    expect(isLocalhostName("mylocalhost")).toBe(false)
  })
})

describe("SafeHttp refuses the corpus before any connection", () => {
  it.live("each corpus URL is refused with its tag; no lookup for literals, no connection attempt", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const layer = httpLayer(rec, {})
      for (const entry of corpus) {
        const r = yield* Effect.flatMap(SafeHttp, (h) => h.fetch(entry.url, { timeoutSeconds: 5 })).pipe(
          Effect.either,
          Effect.provide(layer)
        )
        assert(Either.isLeft(r), `fetched ${entry.url}`)
        expect(r.left._tag, entry.url).toBe(entry.tag)
      }
      expect(rec.resolved).toEqual([])
      expect(rec.events).toEqual([])
    }))

  it.live("names whose DNS answers are hostile are refused after the lookup, before any connection", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const layer = httpLayer(rec, hostileDns)
      for (const host of Object.keys(hostileDns)) {
        const r = yield* Effect.flatMap(SafeHttp, (h) => h.fetch(`http://${host}/`)).pipe(
          Effect.either,
          Effect.provide(layer)
        )
        assert(Either.isLeft(r))
        assert(r.left._tag === "ForbiddenDestination", `${host}: ${r.left._tag}`)
        expect(r.left.host).toBe(host)
        expect(r.left.address).toBe(hostileDns[host]![0])
      }
      expect(rec.resolved).toEqual(Object.keys(hostileDns))
      expect(rec.events).toEqual([])
    }))

  it.live("dry run answers not_checked for a public name and refuses a hostile literal", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const layer = httpLayer(rec, {})
      const ok = yield* Effect.flatMap(SafeHttp, (h) => h.check("https://Example.COM./a b?q=1")).pipe(
        Effect.provide(layer)
      )
      expect(ok).toEqual({ url: "https://example.com./a%20b?q=1", host: "example.com.", literal: false })
      const bad = yield* Effect.flatMap(SafeHttp, (h) => h.check("http://0x7f.1/")).pipe(
        Effect.either,
        Effect.provide(layer)
      )
      assert(Either.isLeft(bad) && bad.left._tag === "ForbiddenDestination")
      expect(rec.resolved).toEqual([])
    }))
})
