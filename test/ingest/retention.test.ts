/** Ingest's retention through FileStore, fetching from a local server on 127.0.0.1 through the test layer. */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { CAPTURES_LOG, parseCaptures } from "../../src/domain/IngestContent.js"
import { BaseLive } from "../../src/layers/Base.js"
import { tableResolver } from "../../src/layers/SafeHttpTest.js"
import { FileStore } from "../../src/services/FileStore.js"
import { Ingest, readCaptures } from "../../src/services/Ingest.js"
import { tempWorkdir } from "../support/cli.js"
import {
  httpLayer,
  ingestLayer,
  loopbackForTests,
  recorder,
  redirect,
  startServer,
  type TestServer
} from "./support.js"

const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex")

const PAGE = `<!doctype html><html><head><title>Field notes</title><script>var x = 1</script></head>
<body><nav><a href="/">Home</a></nav><main><h1>Field notes</h1><p>The river rose <a href="/gauge">two metres</a> overnight.</p>
<ul><li>first</li><li>second</li></ul></main><footer>© someone</footer></body></html>`

let server: TestServer

beforeAll(async () => {
  server = await startServer({
    "/page": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.end(PAGE)
    },
    "/plain": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" })
      res.end("plain words, kept as they are\nsecond line\n")
    },
    "/r1": redirect(302, () => "/r2"),
    "/r2": redirect(301, () => `http://site.test:${server.port}/page`),
    "/png": (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" })
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    },
    "/xhtml": (_req, res) => {
      res.writeHead(200, { "content-type": "application/xhtml+xml" })
      res.end(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>X</title></head><body><p>xhtml body text</p></body></html>"
      )
    }
  })
})

afterAll(async () => {
  await server.close()
})

const names = (): Record<string, ReadonlyArray<string>> => ({
  "site.test": ["127.0.0.1"],
  "internal.test": ["10.0.0.1"]
})

const refusedWith = <A, E extends { _tag: string }>(r: Either.Either<A, E>, tag: string): E => {
  assert(Either.isLeft(r), `expected ${tag}, got success`)
  expect(r.left._tag).toBe(tag)
  return r.left
}

describe("Ingest: retention through FileStore", () => {
  it.live("captures through redirects: both files, named by their own digests, recorded in captures.jsonl", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir("dossier-ingest-")
      const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
      const now = new Date("2026-11-30T10:00:00.000Z")
      const r = yield* Effect.flatMap(Ingest, (i) => i.capture(`http://127.0.0.1:${server.port}/r1`, { now })).pipe(
        Effect.provide(layer)
      )
      expect(r.network).toBe("checked")
      expect(r.url).toBe(`http://127.0.0.1:${server.port}/r1`)
      expect(r.finalUrl).toBe(`http://site.test:${server.port}/page`)
      expect(r.redirects.length).toBe(2)
      expect(r.fetchedAt).toBe("2026-11-30T10:00:00.000Z")
      expect(r.reused).toBe(false)
      expect(r.via).toBe("fetch")
      expect(Object.keys(r).sort()).toEqual([
        "fetchedAt",
        "finalUrl",
        "network",
        "original",
        "redirects",
        "reused",
        "source",
        "url",
        "via",
        "warc"
      ])
      // The original: the served bytes exactly.
      expect(r.original.sha256).toBe(sha(PAGE))
      expect(r.original.bytes).toBe(Buffer.byteLength(PAGE))
      expect(r.original.contentType).toBe("text/html")
      expect(r.original.path).toBe(`research/sources/site.test-page-${sha(PAGE).slice(0, 12)}.html`)
      expect(fs.readFileSync(path.join(dir, r.original.path), "utf8")).toBe(PAGE)
      // The readable copy: its own digest, its own name.
      const md = fs.readFileSync(path.join(dir, r.source.path))
      expect(r.source.sha256).toBe(sha(md))
      expect(r.source.bytes).toBe(md.byteLength)
      expect(r.source.path).toBe(`research/sources/site.test-page-${sha(md).slice(0, 12)}.md`)
      expect(r.source.origin).toBe(r.finalUrl)
      expect(md.toString("utf8")).toContain(
        `The river rose [two metres](http://site.test:${server.port}/gauge) overnight.`
      )
      expect(md.toString("utf8")).not.toContain("var x")
      // The capture log.
      const log = parseCaptures(fs.readFileSync(path.join(dir, CAPTURES_LOG), "utf8"))
      expect(log).toEqual([
        {
          path: r.original.path,
          sha256: r.original.sha256,
          bytes: r.original.bytes,
          origin: r.finalUrl,
          fetchedAt: r.fetchedAt,
          kind: "original",
          via: "fetch"
        },
        {
          path: r.source.path,
          sha256: r.source.sha256,
          bytes: r.source.bytes,
          origin: r.finalUrl,
          fetchedAt: r.fetchedAt,
          kind: "source",
          via: "fetch"
        },
        {
          path: r.warc.path,
          sha256: r.warc.sha256,
          bytes: r.warc.bytes,
          origin: r.finalUrl,
          fetchedAt: r.fetchedAt,
          kind: "warc",
          via: "fetch"
        }
      ])
      const viaReader = yield* readCaptures.pipe(Effect.provide(BaseLive(dir)))
      expect(viaReader).toEqual(log)
    }))

  it.live("an identical capture is reused, bytes untouched; an edited retained file is refused and kept", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir("dossier-ingest-")
      const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
      const url = `http://site.test:${server.port}/page`
      const first = yield* Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.provide(layer))
      const file = path.join(dir, first.original.path)
      const before = fs.statSync(file)
      const second = yield* Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.provide(layer))
      expect(second.reused).toBe(true)
      expect(second.original).toEqual(first.original)
      expect(second.source).toEqual(first.source)
      const after = fs.statSync(file)
      expect(after.ino).toBe(before.ino)
      expect(after.mtimeMs).toBe(before.mtimeMs)
      // Edit the readable copy: the next capture refuses and nothing is overwritten or logged.
      const md = path.join(dir, first.source.path)
      fs.writeFileSync(md, "edited by hand\n")
      const lines = fs.readFileSync(path.join(dir, CAPTURES_LOG), "utf8")
      const third = yield* Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.either, Effect.provide(layer))
      expect(refusedWith(third, "EditedRetainedFile")).toMatchObject({
        path: first.source.path,
        expected: first.source.sha256,
        actual: sha("edited by hand\n")
      })
      expect(fs.readFileSync(md, "utf8")).toBe("edited by hand\n")
      expect(fs.readFileSync(path.join(dir, CAPTURES_LOG), "utf8")).toBe(lines)
    }))

  it.live("text/plain keeps the text as the readable copy; XHTML is extracted", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir("dossier-ingest-")
      const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
      const r = yield* Effect.flatMap(Ingest, (i) => i.capture(`http://127.0.0.1:${server.port}/plain`)).pipe(
        Effect.provide(layer)
      )
      expect(r.original.path.endsWith(".txt")).toBe(true)
      expect(r.source.path.endsWith(".md")).toBe(true)
      expect(fs.readFileSync(path.join(dir, r.source.path), "utf8")).toBe(
        "plain words, kept as they are\nsecond line\n"
      )
      const x = yield* Effect.flatMap(Ingest, (i) => i.capture(`http://127.0.0.1:${server.port}/xhtml`)).pipe(
        Effect.provide(layer)
      )
      expect(x.original.contentType).toBe("application/xhtml+xml")
      expect(x.original.path.endsWith(".xhtml")).toBe(true)
      expect(fs.readFileSync(path.join(dir, x.source.path), "utf8")).toBe(
        "---\ntitle: \"X\"\n---\n\n# X\n\nxhtml body text\n"
      )
    }))

  it.live("a refused fetch writes nothing", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir("dossier-ingest-")
      const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
      const r = yield* Effect.flatMap(Ingest, (i) => i.capture(`http://127.0.0.1:${server.port}/png`)).pipe(
        Effect.either,
        Effect.provide(layer)
      )
      refusedWith(r, "UnsupportedContent")
      expect(fs.readdirSync(dir)).toEqual([])
      const d = yield* Effect.flatMap(Ingest, (i) => i.dryRun("http://Example.com/a")).pipe(Effect.provide(layer))
      expect(d).toEqual({ network: "not_checked", url: "http://example.com/a", host: "example.com", literal: false })
      expect(fs.readdirSync(dir)).toEqual([])
      const stat = yield* Effect.flatMap(FileStore, (f) => f.stat("research/sources")).pipe(
        Effect.provide(BaseLive(dir))
      )
      expect(stat._tag).toBe("None")
    }))

  it.live("a hostile URL through the Ingest service is refused with no lookup and nothing written", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir("dossier-ingest-")
      const rec = recorder()
      const layer = ingestLayer(dir, httpLayer(rec, {}))
      const r = yield* Effect.flatMap(Ingest, (i) => i.capture("http://[::ffff:169.254.169.254]/latest")).pipe(
        Effect.either,
        Effect.provide(layer)
      )
      expect(refusedWith(r, "ForbiddenDestination")).toMatchObject({ range: "metadata" })
      expect(rec.resolved).toEqual([])
      expect(rec.events).toEqual([])
      expect(fs.readdirSync(dir)).toEqual([])
      expect(tableResolver).toBeDefined()
    }))
})
