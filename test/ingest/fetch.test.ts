/**
 * SafeHttp against a local server on 127.0.0.1, reached through the test layer (what Ingest retains
 * from such a fetch: retention.test.ts).
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { gzipSync } from "node:zlib"
import { SafeHttpTest } from "../../src/layers/SafeHttpTest.js"
import { SafeHttp } from "../../src/services/SafeHttp.js"
import {
  httpLayer,
  loopbackForTests,
  recorder,
  redirect,
  redirectChain,
  startServer,
  type TestServer
} from "./support.js"

const PAGE = `<!doctype html><html><head><title>Field notes</title><script>var x = 1</script></head>
<body><nav><a href="/">Home</a></nav><main><h1>Field notes</h1><p>The river rose <a href="/gauge">two metres</a> overnight.</p>
<ul><li>first</li><li>second</li></ul></main><footer>© someone</footer></body></html>`

let server: TestServer
const slowTimers: Array<NodeJS.Timeout> = []

const html =
  (body: string | Uint8Array, extra: Record<string, string | number> = {}) =>
  (_req: unknown, res: import("node:http").ServerResponse) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...extra })
    res.end(body)
  }

beforeAll(async () => {
  server = await startServer({
    "/page": html(PAGE),
    "/r1": redirect(302, () => "/r2"),
    "/r2": redirect(301, () => `http://site.test:${server.port}/page`),
    ...redirectChain(),
    "/hop/7": html(PAGE),
    "/to-private": redirect(302, () => "http://10.0.0.1/"),
    "/to-private-hex": redirect(307, () => "http://0x0a000001/"),
    "/to-localhost": redirect(302, () => `http://localhost:${server.port}/page`),
    "/to-private-name": redirect(302, () => "http://internal.test/"),
    "/to-ftp": redirect(302, () => "ftp://site.test/x"),
    "/no-location": (_req, res) => {
      res.writeHead(302)
      res.end()
    },
    "/rebind-self": redirect(302, () => `http://rebind.test:${server.port}/page`),
    "/big": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" })
      const chunk = Buffer.alloc(64 * 1024, 0x61)
      for (let i = 0; i < 32; i++) res.write(chunk)
      res.end("b")
    },
    "/big-declared": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-length": String(3 * 1024 * 1024) })
      res.write("<p>start</p>")
      setTimeout(() => res.destroy(), 200)
    },
    "/exact": html(Buffer.alloc(2 * 1024 * 1024, 0x62)),
    "/slow": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" })
      res.write("<p>part one</p>")
      slowTimers.push(setTimeout(() => res.end("<p>part two</p>"), 3000))
    },
    "/gzip": html(gzipSync(Buffer.from(PAGE)), { "content-encoding": "gzip" }),
    "/png": (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" })
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    },
    "/latin1": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" })
      res.end(Buffer.from("caf\xe9", "latin1"))
    },
    "/latin1-undeclared": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" })
      res.end(Buffer.from("<p>caf\xe9</p>", "latin1"))
    },
    "/no-type": (_req, res) => {
      res.writeHead(200)
      res.end("<p>x</p>")
    }
  })
})

afterAll(async () => {
  for (const t of slowTimers) clearTimeout(t)
  await server.close()
})

const names = (): Record<string, ReadonlyArray<string>> => ({
  "site.test": ["127.0.0.1"],
  "internal.test": ["10.0.0.1"]
})

const fetchWith = (url: string, rec = recorder(), table = names(), timeoutSeconds = 5) =>
  Effect.flatMap(SafeHttp, (h) => h.fetch(url, { timeoutSeconds })).pipe(
    Effect.either,
    Effect.provide(httpLayer(rec, table, loopbackForTests))
  )

const refusedWith = <A, E extends { _tag: string }>(r: Either.Either<A, E>, tag: string): E => {
  assert(Either.isLeft(r), `expected ${tag}, got success`)
  expect(r.left._tag).toBe(tag)
  return r.left
}

describe("SafeHttp through the test layer", () => {
  it.live("fetches a page, sending Accept-Encoding: identity, connecting only to the checked address", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* fetchWith(`http://site.test:${server.port}/page`, rec)
      assert(Either.isRight(r))
      expect(r.right.status).toBe(200)
      expect(Buffer.from(r.right.body).toString("utf8")).toBe(PAGE)
      expect(r.right.contentType).toBe("text/html")
      expect(rec.resolved).toEqual(["site.test"])
      expect(rec.connectedTo()).toEqual(["127.0.0.1"])
      const last = server.requests().at(-1)!
      expect(last.headers["accept-encoding"]).toBe("identity")
      expect(last.headers.host).toBe(`site.test:${server.port}`)
    }))

  it.live("follows redirects by hand, each hop checked, and reports them", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* fetchWith(`http://127.0.0.1:${server.port}/r1`, rec)
      assert(Either.isRight(r))
      expect(r.right.redirects).toEqual([`http://127.0.0.1:${server.port}/r2`, `http://site.test:${server.port}/page`])
      expect(r.right.finalUrl).toBe(`http://site.test:${server.port}/page`)
      expect(rec.resolved).toEqual(["site.test"])
    }))

  it.live("DNS answers that mix an allowed and a private address are refused, with no connection", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const table = { "mixed.test": ["127.0.0.1", "10.0.0.1"], "mixed6.test": ["127.0.0.1", "fe80::1"] }
      const e1 = refusedWith(
        yield* fetchWith(`http://mixed.test:${server.port}/page`, rec, table),
        "ForbiddenDestination"
      )
      expect(e1).toMatchObject({ host: "mixed.test", address: "10.0.0.1", range: "private" })
      const e2 = refusedWith(
        yield* fetchWith(`http://mixed6.test:${server.port}/page`, rec, table),
        "ForbiddenDestination"
      )
      expect(e2).toMatchObject({ host: "mixed6.test", address: "fe80::1", range: "linkLocal" })
      expect(rec.events).toEqual([])
    }))

  it.live("a resolver that answers an allowed address first and a private one next cannot steer the socket", () =>
    Effect.gen(function*() {
      const rec = recorder()
      let calls = 0
      const answers = [["127.0.0.1"], ["::1"]]
      const resolve = (host: string) => {
        rec.resolved.push(host)
        const list = answers[Math.min(calls++, 1)]!
        return Promise.resolve(list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))
      }
      const layer = SafeHttpTest({ resolve, policy: loopbackForTests, observe: (e) => rec.events.push(e) })
      // One hop: one lookup; the socket uses the checked answer, never a second lookup.
      const ok = yield* Effect.flatMap(SafeHttp, (h) => h.fetch(`http://rebind.test:${server.port}/page`)).pipe(
        Effect.either,
        Effect.provide(layer)
      )
      assert(Either.isRight(ok))
      expect(rec.resolved).toEqual(["rebind.test"])
      expect(rec.connectedTo()).toEqual(["127.0.0.1"])
      // A redirect to the same name is a new hop: checked again, and the private answer is refused.
      const hop = yield* Effect.flatMap(SafeHttp, (h) => h.fetch(`http://127.0.0.1:${server.port}/rebind-self`)).pipe(
        Effect.either,
        Effect.provide(layer)
      )
      expect(refusedWith(hop, "ForbiddenDestination")).toMatchObject({
        host: "rebind.test",
        address: "::1",
        range: "loopback"
      })
      expect(rec.connectedTo()).toEqual(["127.0.0.1", "127.0.0.1"])
    }))

  it.live("redirects to a private literal, a hex-spelled private literal, localhost, a private name or ftp are refused", () =>
    Effect.gen(function*() {
      const rec = recorder()
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/to-private`, rec), "ForbiddenDestination"))
        .toMatchObject({ address: "10.0.0.1", range: "private" })
      expect(
        refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/to-private-hex`, rec), "ForbiddenDestination")
      ).toMatchObject({ address: "10.0.0.1" })
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/to-localhost`, rec), "ForbiddenDestination"))
        .toMatchObject({ range: "localhost" })
      expect(
        refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/to-private-name`, rec), "ForbiddenDestination")
      ).toMatchObject({ host: "internal.test" })
      refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/to-ftp`, rec), "UnsupportedScheme")
      refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/no-location`, rec), "HttpStatus")
      // Only the first hops (to our own server) ever connected.
      expect(new Set(rec.connectedTo())).toEqual(new Set(["127.0.0.1"]))
      expect(rec.connectedTo().length).toBe(6)
    }))

  it.live("5 redirects are followed; a 6th is TooManyRedirects", () =>
    Effect.gen(function*() {
      const five = yield* fetchWith(`http://127.0.0.1:${server.port}/hop/2`)
      assert(Either.isRight(five))
      expect(five.right.redirects.length).toBe(5)
      const six = refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/hop/1`), "TooManyRedirects")
      expect(six).toMatchObject({ max: 5 })
    }))

  it.live("an oversize body is cut off (streamed or declared); exactly 2 MiB is accepted", () =>
    Effect.gen(function*() {
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/big`), "ResponseTooLarge")).toMatchObject({
        max: 2 * 1024 * 1024
      })
      refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/big-declared`), "ResponseTooLarge")
      const exact = yield* fetchWith(`http://127.0.0.1:${server.port}/exact`)
      assert(Either.isRight(exact))
      expect(exact.right.body.byteLength).toBe(2 * 1024 * 1024)
    }))

  it.live("a body slower than the deadline is a Timeout; so is a DNS answer slower than it", () =>
    Effect.gen(function*() {
      const started = Date.now()
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/slow`, recorder(), names(), 1), "Timeout"))
        .toMatchObject({ seconds: 1 })
      expect(Date.now() - started).toBeLessThan(2500)
      const hanging = SafeHttpTest({ resolve: () => new Promise(() => {}), policy: loopbackForTests })
      const dns = yield* Effect.flatMap(SafeHttp, (h) => h.fetch("http://slow-dns.test/", { timeoutSeconds: 1 })).pipe(
        Effect.either,
        Effect.provide(hanging)
      )
      refusedWith(dns, "Timeout")
    }))

  it.live("gzip, image/png, declared Latin-1, undeclared non-UTF-8 and a missing type are refused with their tags", () =>
    Effect.gen(function*() {
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/gzip`), "CompressedResponse")).toMatchObject(
        { encoding: "gzip" }
      )
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/png`), "UnsupportedContent")).toMatchObject({
        contentType: "image/png"
      })
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/latin1`), "UnsupportedContent"))
        .toMatchObject({ contentType: "text/plain; charset=iso-8859-1" })
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/latin1-undeclared`), "UnsupportedContent"))
        .toMatchObject({ contentType: "text/html" })
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/no-type`), "UnsupportedContent"))
        .toMatchObject({ contentType: "" })
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${server.port}/missing`), "HttpStatus")).toMatchObject({
        status: 404
      })
    }))

  it.live("an unresolvable name is DnsFailure; a refused connection is ConnectionFailed", () =>
    Effect.gen(function*() {
      expect(refusedWith(yield* fetchWith("http://nowhere.test/"), "DnsFailure")).toMatchObject({
        host: "nowhere.test"
      })
      // A port nothing listens on (our server's port, after a throwaway server is closed).
      const gone = yield* Effect.promise(() => startServer({}))
      yield* Effect.promise(() => gone.close())
      expect(refusedWith(yield* fetchWith(`http://127.0.0.1:${gone.port}/`), "ConnectionFailed")).toMatchObject({
        reason: "ECONNREFUSED"
      })
    }))
})
