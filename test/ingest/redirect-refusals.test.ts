/**
 * A capture whose page redirects where dossier may not go — a private address, a `file:` URL,
 * another scheme, a loop, a sixth hop — is refused with the tag the policy names, and writes
 * nothing: no retained file, no WARC, no line in the capture log.
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as path from "node:path"
import { policyAllowing } from "../../src/layers/SafeHttpTest.js"
import { Ingest } from "../../src/services/Ingest.js"
import { SafeHttp } from "../../src/services/SafeHttp.js"
import { tempWorkdir } from "../support/cli.js"
import { corpus } from "./corpus.js"
import {
  httpLayer,
  ingestLayer,
  loopbackForTests,
  recorder,
  redirect,
  redirectChain,
  startServer,
  type TestServer
} from "./support.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer({
    ...redirectChain(),
    "/hop/7": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" })
      res.end("the seventh page, never reached\n")
    },
    "/to-private": redirect(302, () => "http://192.168.1.10/"),
    "/to-metadata": redirect(307, () => "http://169.254.169.254/latest/meta-data/"),
    "/to-mapped": redirect(308, () => "http://[::ffff:10.0.0.1]/"),
    "/to-file": redirect(302, () => "file:///etc/passwd"),
    "/to-file-relative": redirect(302, () => "file:passwd"),
    "/to-ftp": redirect(301, () => "ftp://example.com/x"),
    "/to-data": redirect(302, () => "data:text/html,<p>hello there</p>"),
    "/to-javascript": redirect(302, () => "javascript:alert(1)"),
    "/to-gopher": redirect(303, () => "gopher://example.com/"),
    "/to-credentials": redirect(302, () => `http://user:secret@127.0.0.1:${server.port}/hop/7`),
    "/loop": redirect(302, () => "/loop"),
    "/ping": redirect(302, () => "/pong"),
    "/pong": redirect(302, () => "/ping")
  })
})

afterAll(async () => {
  await server.close()
})

/** Every file under the work folder (the lock file aside): a refused capture adds none. */
const files = (dir: string): Array<string> =>
  (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<fs.Dirent>)
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .filter((p) => !p.startsWith(".dossier/lock"))
    .sort()

const capture = (dir: string, route: string) =>
  Effect.flatMap(Ingest, (i) => i.capture(`http://127.0.0.1:${server.port}${route}`, { timeoutSeconds: 5 })).pipe(
    Effect.either,
    Effect.provide(ingestLayer(dir, httpLayer(recorder(), {}, loopbackForTests)))
  )

describe("a capture redirected where it may not go", () => {
  const cases: ReadonlyArray<readonly [string, string, Record<string, unknown>]> = [
    ["/to-private", "ForbiddenDestination", { address: "192.168.1.10", range: "private" }],
    ["/to-metadata", "ForbiddenDestination", { address: "169.254.169.254", range: "metadata" }],
    ["/to-mapped", "ForbiddenDestination", { range: "private" }],
    ["/to-file", "UnsupportedScheme", {}],
    ["/to-file-relative", "UnsupportedScheme", {}],
    ["/to-ftp", "UnsupportedScheme", {}],
    ["/to-data", "UnsupportedScheme", {}],
    ["/to-javascript", "UnsupportedScheme", {}],
    ["/to-gopher", "UnsupportedScheme", {}],
    ["/to-credentials", "CredentialsInUrl", {}],
    ["/loop", "TooManyRedirects", { max: 5 }],
    ["/ping", "TooManyRedirects", { max: 5 }],
    ["/hop/1", "TooManyRedirects", { max: 5 }]
  ]
  for (const [route, tag, fields] of cases) {
    it.live(`${route}: ${tag}, nothing written`, () =>
      Effect.gen(function*() {
        const dir = tempWorkdir("dossier-redirect-")
        fs.mkdirSync(path.join(dir, "research/sources"), { recursive: true })
        const before = files(dir)
        const r = yield* capture(dir, route)
        assert(Either.isLeft(r), `expected ${tag}, got success`)
        expect(r.left._tag).toBe(tag)
        expect(r.left).toMatchObject(fields)
        expect(files(dir)).toEqual(before)
        expect(fs.readdirSync(path.join(dir, "research/sources"))).toEqual([])
      }))
  }
})

describe("a redirect to any URL of the hostile corpus", () => {
  // The page is served from 127.0.0.2, the one address the policy admits here, so the corpus's
  // 127.0.0.1 (and every other address) keeps the real policy's answer.
  let page: TestServer
  beforeAll(async () => {
    page = await startServer({
      "/to": (req, res) => {
        res.writeHead(302, { location: new URL(req.url ?? "", "http://x/").searchParams.get("u") ?? "" })
        res.end("moved")
      }
    }, "127.0.0.2")
  })
  afterAll(async () => {
    await page.close()
  })

  it.live("is refused with the tag the same URL gets as the first one; nothing but the page is connected to", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const layer = httpLayer(rec, {}, policyAllowing(["127.0.0.2"]))
      let checked = 0
      for (const entry of corpus) {
        // A Location is read against the page: what resolves to the page's own host is no way out.
        let resolved: URL | undefined
        try {
          resolved = new URL(entry.url, page.origin)
        } catch {
          resolved = undefined
        }
        if (entry.url === "" || resolved?.host === new URL(page.origin).host) continue
        // A header is bytes: a non-ASCII Location goes percent-encoded (the host parser decodes it).
        const location = /[^\x20-\x7e]/.test(entry.url) ? encodeURI(entry.url) : entry.url
        const r = yield* Effect.flatMap(
          SafeHttp,
          (h) => h.fetch(`${page.origin}/to?u=${encodeURIComponent(location)}`, { timeoutSeconds: 5 })
        ).pipe(Effect.either, Effect.provide(layer))
        assert(Either.isLeft(r), `followed a redirect to ${JSON.stringify(entry.url)}`)
        expect(r.left._tag, entry.url).toBe(entry.tag)
        if (entry.range !== undefined && r.left._tag === "ForbiddenDestination") {
          expect(r.left.range, entry.url).toBe(entry.range)
        }
        checked++
      }
      expect(checked).toBeGreaterThanOrEqual(80)
      expect(new Set(rec.connectedTo())).toEqual(new Set(["127.0.0.2"]))
      expect(rec.connecting()).toBe(checked)
      expect(rec.resolved).toEqual([])
    }))
})
