/**
 * Host names with a trailing dot (`host.`, the absolute spelling of `host`). The policy refuses
 * `localhost.` and `127.0.0.1.` exactly as `localhost` and `127.0.0.1` (the URL parser reads an
 * address's trailing dot away; a localhost name is known with any trailing dots), and a name's
 * absolute spelling is refused whenever its plain spelling would be: the system's hosts file
 * (and a test's resolver table) names `host`, not `host.`, so `host.` is also looked up as
 * `host` and every answer of both must pass. Servers on 127.0.0.1 only.
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { checkUrl, publicUnicastPolicy } from "../../src/domain/DestinationPolicy.js"
import { SafeHttp } from "../../src/services/SafeHttp.js"
import { httpLayer, loopbackForTests, recorder, startServer, type TestServer } from "./support.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer({
    "/page": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" })
      res.end("the gauge read 4.2 m at noon\n")
    }
  })
})

afterAll(() => server.close())

describe("the policy on trailing-dot spellings (pure)", () => {
  const refusal = (url: string) => {
    const r = checkUrl(publicUnicastPolicy, url)
    return Either.isLeft(r) ? { tag: r.left._tag, range: "range" in r.left ? r.left.range : undefined } : "allowed"
  }

  it("refuses localhost., 127.0.0.1. and their kin exactly as their plain spellings", () => {
    for (
      const [dotted, plain] of [
        ["http://localhost./", "http://localhost/"],
        ["http://LocalHost../x", "http://localhost/x"],
        ["http://a.b.localhost./", "http://a.b.localhost/"],
        ["http://127.0.0.1./", "http://127.0.0.1/"],
        ["http://0x7f.1./", "http://127.0.0.1/"],
        ["http://2130706433./", "http://127.0.0.1/"],
        ["http://10.0.0.1./", "http://10.0.0.1/"],
        ["http://169.254.169.254./", "http://169.254.169.254/"]
      ] as const
    ) {
      expect(refusal(dotted), dotted).toEqual(refusal(plain))
      expect(refusal(dotted), dotted).not.toBe("allowed")
    }
    // An address literal's trailing dot is read away by the parser: the refusal names the address.
    const r = checkUrl(publicUnicastPolicy, "http://127.0.0.1./")
    assert(Either.isLeft(r))
    expect(r.left).toMatchObject({ _tag: "ForbiddenDestination", host: "127.0.0.1", address: "127.0.0.1" })
    // A bracketed IPv6 literal cannot take a dot.
    expect(refusal("http://[::1]./")).toEqual({ tag: "InvalidUrl", range: undefined })
  })

  it("refuses a name with an empty label, which no resolver answers, as InvalidUrl (not a retryable DnsFailure)", () => {
    for (const url of ["http://a..example/", "http://127.0.0.1../", "http://example.com../", "http://.example.com/"]) {
      expect(refusal(url), url).toEqual({ tag: "InvalidUrl", range: undefined })
    }
    // The localhost names stay refused as such, and one final dot is the absolute spelling, not an empty label.
    expect(refusal("http://localhost../")).toEqual({ tag: "ForbiddenDestination", range: "localhost" })
    expect(refusal("http://example.com./")).toBe("allowed")
  })
})

const fetchWith = (
  url: string,
  table: Record<string, ReadonlyArray<string>>,
  rec = recorder(),
  policy = loopbackForTests
) =>
  Effect.flatMap(SafeHttp, (h) => h.fetch(url, { timeoutSeconds: 5 })).pipe(
    Effect.either,
    Effect.provide(httpLayer(rec, table, policy))
  )

describe("a fetch of a trailing-dot name", () => {
  it.live("is refused when the plain name resolves to a refused address, though the dotted one resolves nowhere", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* fetchWith(`http://internal.test.:${server.port}/page`, { "internal.test": ["10.0.0.1"] }, rec)
      assert(Either.isLeft(r))
      expect(r.left).toMatchObject({
        _tag: "ForbiddenDestination",
        host: "internal.test.",
        address: "10.0.0.1",
        range: "private"
      })
      expect(rec.connecting()).toBe(0)
      expect([...rec.resolved].sort()).toEqual(["internal.test", "internal.test."])
    }))

  it.live("is refused when the plain name's answers include a refused one, whatever the dotted name answers", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* fetchWith(
        `http://site.test.:${server.port}/page`,
        { "site.test.": ["127.0.0.1"], "site.test": ["0.0.0.0"] },
        rec
      )
      assert(Either.isLeft(r))
      expect(r.left).toMatchObject({ _tag: "ForbiddenDestination", address: "0.0.0.0", range: "unspecified" })
      expect(rec.connecting()).toBe(0)
    }))

  it.live("connects to the dotted name's own checked answers when both spellings pass", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* fetchWith(
        `http://site.test.:${server.port}/page`,
        { "site.test.": ["127.0.0.1"], "site.test": ["127.0.0.1"] },
        rec
      )
      assert(Either.isRight(r), JSON.stringify(r))
      expect(rec.connectedTo()).toEqual(["127.0.0.1"])
      expect(server.requests().at(-1)!.headers.host).toBe(`site.test.:${server.port}`)
    }))

  it.live("a dotted name that resolves nowhere while the plain one passes is DnsFailure (no connection)", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* fetchWith(`http://site.test.:${server.port}/page`, { "site.test": ["127.0.0.1"] }, rec)
      assert(Either.isLeft(r))
      expect(r.left).toMatchObject({ _tag: "DnsFailure", host: "site.test." })
      expect(rec.connecting()).toBe(0)
    }))

  it.live("localhost. and 127.0.0.1. are refused before any lookup or connection, as localhost is", () =>
    Effect.gen(function*() {
      for (const host of ["localhost.", "LOCALHOST..", "127.0.0.1.", "0x7f.1."]) {
        const rec = recorder()
        const r = yield* fetchWith(`http://${host}:${server.port}/page`, {}, rec, publicUnicastPolicy)
        assert(Either.isLeft(r), host)
        expect(r.left._tag, host).toBe("ForbiddenDestination")
        expect(rec.resolved, host).toEqual([])
        expect(rec.connecting(), host).toBe(0)
      }
    }))
})
