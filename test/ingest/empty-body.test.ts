/**
 * A page with no content — a `204 No Content`, a `200` with an empty body, a body of white space
 * only — is no capture: it is refused as `UnsupportedContent` with `detected: "empty"`, and
 * nothing is written (no original and readable copy of nothing, no WARC, no line in the capture
 * log). An imported file that is empty is refused the same way.
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fs from "node:fs"
import * as path from "node:path"
import { Ingest } from "../../src/services/Ingest.js"
import { tempWorkdir } from "../support/cli.js"
import { httpLayer, ingestLayer, loopbackForTests, recorder, startServer, type TestServer } from "./support.js"

let server: TestServer

const answer = (status: number, headers: Record<string, string>, body: string | Buffer = "") =>
(
  _req: unknown,
  res: import("node:http").ServerResponse
) => {
  res.writeHead(status, headers)
  res.end(body)
}

beforeAll(async () => {
  server = await startServer({
    "/204": answer(204, {}),
    "/204-typed": answer(204, { "content-type": "text/html; charset=utf-8" }),
    "/205": answer(205, { "content-type": "text/html" }),
    "/empty": answer(200, { "content-type": "text/html", "content-length": "0" }),
    "/empty-chunked": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" })
      res.flushHeaders()
      setTimeout(() => res.end(), 10)
    },
    "/blank": answer(200, { "content-type": "text/plain" }, Buffer.from("\ufeff \r\n\t\n ", "utf8")),
    "/one-word": answer(200, { "content-type": "text/plain" }, "x\n")
  })
})

afterAll(() => server.close())

/** Every file under the work folder (the lock file aside). */
const files = (dir: string): Array<string> =>
  (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<fs.Dirent>)
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .filter((p) => !p.startsWith(".dossier/lock"))
    .sort()

const layerFor = (dir: string) => ingestLayer(dir, httpLayer(recorder(), {}, loopbackForTests))

const capture = (dir: string, route: string) =>
  Effect.flatMap(Ingest, (i) => i.capture(`http://127.0.0.1:${server.port}${route}`, { timeoutSeconds: 5 })).pipe(
    Effect.either,
    Effect.provide(layerFor(dir))
  )

describe("a fetched page with no content", () => {
  for (const route of ["/204", "/204-typed", "/205", "/empty", "/empty-chunked", "/blank"]) {
    it.live(`${route}: UnsupportedContent (detected: empty), nothing written`, () =>
      Effect.gen(function*() {
        const dir = tempWorkdir("dossier-empty-")
        const before = files(dir)
        const r = yield* capture(dir, route)
        assert(Either.isLeft(r), `${route} was captured`)
        expect(r.left).toMatchObject({ _tag: "UnsupportedContent", detected: "empty" })
        expect(r.left.message).toMatch(/empty/)
        expect(r.left.message).not.toMatch(/not valid UTF-8|is not accepted/)
        expect(files(dir)).toEqual(before)
      }))
  }

  it.live("one word is content: captured", () =>
    Effect.gen(function*() {
      const dir = tempWorkdir("dossier-empty-")
      const r = yield* capture(dir, "/one-word")
      assert(Either.isRight(r), JSON.stringify(r))
      expect(r.right.original.bytes).toBe(2)
    }))
})

describe("an imported file with no content", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["saved/empty.html", ""],
    ["saved/blank.txt", "  \n\n\t"],
    ["saved/bom.md", "\ufeff\n"]
  ]
  for (const [name, content] of cases) {
    it.live(`${name}: UnsupportedContent (detected: empty), nothing retained`, () =>
      Effect.gen(function*() {
        const dir = tempWorkdir("dossier-empty-")
        fs.mkdirSync(path.join(dir, "saved"))
        fs.writeFileSync(path.join(dir, name), content)
        const before = files(dir)
        const r = yield* Effect.flatMap(Ingest, (i) => i.importFile(name, "https://example.com/page")).pipe(
          Effect.either,
          Effect.provide(layerFor(dir))
        )
        assert(Either.isLeft(r), `${name} was imported`)
        expect(r.left).toMatchObject({ _tag: "UnsupportedContent", detected: "empty" })
        expect(files(dir)).toEqual(before)
      }))
  }
})
