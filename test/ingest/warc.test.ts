/**
 * The WARC/1.1 record of a fetch, read back with an independent reader (the `warcio` package):
 * every record, its digests, the pinned address, and the response payload against the retained
 * original. The fetch runs through the same SafeHttp code as the CLI, with the test resolver
 * and a policy that lets exactly 127.0.0.1 through (the CLI itself can never reach loopback).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import base32Encode from "base32-encode"
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { gunzipSync } from "node:zlib"
import { WARCParser, type WARCRecord } from "warcio"
import { CAPTURES_LOG, parseCaptures } from "../../src/domain/IngestContent.js"
import { base32 } from "../../src/domain/Warc.js"
import { Ingest } from "../../src/services/Ingest.js"
import { tempWorkdir } from "../support/cli.js"
import { httpLayer, ingestLayer, loopbackForTests, recorder, startServer, type TestServer } from "./support.js"

const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex")
/** `sha256:<base32>` computed with warcio's own base32 dependency, not dossier's. */
const digest = (b: Uint8Array) => `sha256:${base32Encode(createHash("sha256").update(b).digest(), "RFC4648")}`

const PAGE_PARTS = [
  "<!doctype html><html><head><title>Pegel</title></head><body><main><h1>Pegelstände</h1>",
  "<p>Der Fluss stieg über Nacht um <a href=\"/gauge\">zwei Meter</a>.</p></main></body></html>"
]
const PAGE = PAGE_PARTS.join("")

let server: TestServer

beforeAll(async () => {
  server = await startServer({
    "/start": (_req, res) => {
      res.writeHead(301, { location: "/moved", "content-type": "text/plain", "X-Custom-Case": "Kept" })
      res.end("Moved here")
    },
    "/moved": (_req, res) => {
      res.writeHead(302, { location: `http://site.test:${server.port}/page` })
      res.end()
    },
    // Chunked: no content-length, two writes.
    "/page": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.write(PAGE_PARTS[0])
      setTimeout(() => res.end(PAGE_PARTS[1]), 5)
    }
  })
})

afterAll(() => server.close())

const names = () => ({ "site.test": ["127.0.0.1"] })

/** Every record of a WARC, read by warcio: WARC headers, raw block (parseHttp off) and HTTP view. */
const readWarc = async (bytes: Uint8Array) => {
  const raw: Array<{ headers: { get: (name: string) => string | null | undefined }; block: Uint8Array }> = []
  for await (const r of new WARCParser([bytes], { parseHttp: false })) {
    raw.push({ headers: r.warcHeaders.headers, block: await r.readFully(false) })
  }
  const http: Array<
    { type: string; status: number | null; headers: Headers | null; payload: Uint8Array; content: Uint8Array }
  > = []
  for await (const r of new WARCParser([bytes]) as AsyncIterable<WARCRecord>) {
    const type = r.warcType ?? ""
    const status = r.httpHeaders?.statusCode === undefined ? null : Number(r.httpHeaders.statusCode)
    const headers = (r.httpHeaders?.headers as Headers | undefined) ?? null
    const payload = await r.readFully(false)
    const content = r.httpHeaders ? await r.readFully(true) : payload
    http.push({ type, status, headers, payload, content })
  }
  return { raw, http }
}

describe("WARC/1.1 of a fetch", () => {
  it("every hop's request and response, digests, pinned address and the payload equal to the retained original", async () => {
    const dir = tempWorkdir("dossier-warc-")
    const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
    const start = `http://127.0.0.1:${server.port}/start`
    const r = await Effect.runPromise(Effect.flatMap(Ingest, (i) => i.capture(start)).pipe(Effect.provide(layer)))
    const file = fs.readFileSync(path.join(dir, r.warc.path))
    expect(r.warc).toEqual({
      path: `research/sources/site.test-page-${sha(file).slice(0, 12)}.warc.gz`,
      bytes: file.byteLength,
      sha256: sha(file)
    })
    const original = fs.readFileSync(path.join(dir, r.original.path))
    expect(original.toString("utf8")).toBe(PAGE)

    const { raw, http } = await readWarc(file)
    expect(raw.map((x) => x.headers.get("WARC-Type"))).toEqual([
      "warcinfo",
      "request",
      "response",
      "request",
      "response",
      "request",
      "response"
    ])
    const hops = [start, `http://127.0.0.1:${server.port}/moved`, `http://site.test:${server.port}/page`]
    const ids = raw.map((x) => x.headers.get("WARC-Record-ID")!)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^<urn:uuid:[0-9a-f-]{36}>$/)
    for (const [i, x] of raw.entries()) {
      // Every record: its length, its block digest, a date.
      expect(Number(x.headers.get("Content-Length"))).toBe(x.block.byteLength)
      expect(x.headers.get("WARC-Block-Digest")).toBe(digest(x.block))
      expect(Number.isNaN(Date.parse(x.headers.get("WARC-Date")!))).toBe(false)
      if (i === 0) {
        expect(x.headers.get("Content-Type")).toBe("application/warc-fields")
        expect(Buffer.from(x.block).toString("utf8")).toContain("software: dossier/")
        continue
      }
      const hop = Math.floor((i - 1) / 2)
      const isRequest = (i - 1) % 2 === 0
      expect(x.headers.get("WARC-Target-URI")).toBe(hops[hop])
      expect(x.headers.get("WARC-IP-Address")).toBe("127.0.0.1")
      expect(x.headers.get("WARC-Warcinfo-ID")).toBe(ids[0])
      // A request and its response name each other.
      expect(x.headers.get("WARC-Concurrent-To")).toBe(ids[isRequest ? i + 1 : i - 1])
      expect(x.headers.get("Content-Type")).toBe(`application/http;msgtype=${isRequest ? "request" : "response"}`)
      expect(x.headers.get("WARC-Payload-Digest")).toBe(digest(http[i]!.content))
    }
    // Requests: the request line and headers dossier sent.
    const requestHead = (i: number) => Buffer.from(raw[i]!.block).toString("latin1")
    expect(requestHead(1)).toMatch(/^GET \/start HTTP\/1\.1\r\n/)
    expect(requestHead(1)).toMatch(/\r\naccept-encoding: identity\r\n/i)
    expect(requestHead(5)).toMatch(/^GET \/page HTTP\/1\.1\r\n/)
    expect(requestHead(5)).toMatch(/\r\nhost: site\.test:\d+\r\n/i)
    // Responses: status lines, headers as received (case kept), bodies.
    expect(http.filter((x) => x.type === "response").map((x) => x.status)).toEqual([301, 302, 200])
    const first = Buffer.from(raw[2]!.block).toString("latin1")
    expect(first).toMatch(/^HTTP\/1\.1 301 Moved Permanently\r\n/)
    expect(first).toContain("\r\nX-Custom-Case: Kept\r\n")
    expect(Buffer.from(http[2]!.content).toString("utf8")).toBe("Moved here")
    const last = http[6]!
    expect(last.headers?.get("transfer-encoding")).toBe("chunked")
    // The block keeps the chunked framing as received; the payload is the retained original, byte for byte.
    expect(Buffer.from(last.payload).equals(original)).toBe(false)
    expect(Buffer.from(last.content).equals(original)).toBe(true)

    // Each record is its own gzip member: the reader's offsets cut the file into members that
    // each decompress to exactly one record.
    const index = execFileSync(process.execPath, [
      path.resolve("node_modules/warcio/dist/cli.js"),
      "index",
      path.join(dir, r.warc.path)
    ], { encoding: "utf8" })
    const rows = index.trim().split("\n").map((l) => JSON.parse(l))
    expect(rows.map((x) => x["warc-type"])).toEqual(raw.map((x) => x.headers.get("WARC-Type")))
    expect(rows.slice(1).map((x) => x["warc-target-uri"])).toEqual(hops.flatMap((h) => [h, h]))
    const offsets = [...rows.map((x) => Number(x.offset)), file.byteLength]
    for (let i = 0; i < rows.length; i++) {
      const member = gunzipSync(file.subarray(offsets[i]!, offsets[i + 1]!)).toString("latin1")
      expect(member.startsWith("WARC/1.1\r\n")).toBe(true)
      expect(member.indexOf("WARC/1.1\r\n", 1)).toBe(-1)
    }

    // captures.jsonl lists it.
    const log = parseCaptures(fs.readFileSync(path.join(dir, CAPTURES_LOG), "utf8"))
    expect(log.filter((x) => x.kind === "warc")).toEqual([
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
  })

  it("each fetch writes its own WARC (write-once), while identical page bytes are reused", async () => {
    const dir = tempWorkdir("dossier-warc-")
    const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
    const url = `http://site.test:${server.port}/page`
    const a = await Effect.runPromise(Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.provide(layer)))
    const b = await Effect.runPromise(Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.provide(layer)))
    expect(b.reused).toBe(true)
    expect(b.original).toEqual(a.original)
    expect(b.warc.path).not.toBe(a.warc.path)
    expect(sha(fs.readFileSync(path.join(dir, a.warc.path)))).toBe(a.warc.sha256)
    expect(sha(fs.readFileSync(path.join(dir, b.warc.path)))).toBe(b.warc.sha256)
  })

  it("names the resource without the URL's fragment (never sent); the answer keeps the URL as given", async () => {
    const dir = tempWorkdir("dossier-warc-")
    const layer = ingestLayer(dir, httpLayer(recorder(), names(), loopbackForTests))
    const url = `http://site.test:${server.port}/page#gauge-2`
    const r = await Effect.runPromise(Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.provide(layer)))
    expect(r.url).toBe(url)
    const { raw } = await readWarc(fs.readFileSync(path.join(dir, r.warc.path)))
    const targets = raw.slice(1).map((x) => x.headers.get("WARC-Target-URI"))
    expect(targets).toEqual([`http://site.test:${server.port}/page`, `http://site.test:${server.port}/page`])
    expect(Buffer.from(raw[1]!.block).toString("latin1")).toMatch(/^GET \/page HTTP\/1\.1\r\n/)
  })

  it("base32 is RFC 4648's (the test vectors)", () => {
    const vectors: Record<string, string> = {
      "": "",
      f: "MY======",
      fo: "MZXQ====",
      foo: "MZXW6===",
      foob: "MZXW6YQ=",
      fooba: "MZXW6YTB",
      foobar: "MZXW6YTBOI======"
    }
    for (const [input, out] of Object.entries(vectors)) expect(base32(Buffer.from(input))).toBe(out)
  })
})
