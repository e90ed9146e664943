/**
 * Captures on PostgreSQL (the test's own cluster, or DOSSIER_TEST_PG): `CaptureStorePostgres`
 * passes the CaptureStore conformance suite, and `IngestLive` over it (with `PgLockLayer` as the
 * `Lock`) keeps one content row per bytes when the same page is captured or imported twice.
 *
 * In a shared dossier the bytes a retained path holds are the store's: the suite's "someone edits
 * a retained file" is, here, the path's row naming other bytes (as an import of a folder whose
 * copy was edited would leave it); the work file is written too, for `readImport`. A bound
 * folder's view of a retained file edited by hand refuses a capture of it as a plain folder does
 * (through the built CLI).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll } from "vitest"
import { FileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { WarcWriterLive } from "../../src/layers/folder/WarcWriter.js"
import { IngestLive } from "../../src/layers/IngestLive.js"
import {
  CaptureStorePostgres,
  makeCaptureStorePostgres,
  RETAINED_KIND,
  retainedBytes,
  RetainedPath,
  retainedPaths
} from "../../src/layers/postgres/CaptureStorePostgres.js"
import { PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { pgContentStore, pgVersionedRecords } from "../../src/layers/postgres/PgRecords.js"
import { PgStore, PgStoreLayer } from "../../src/layers/postgres/PgStore.js"
import { Ingest } from "../../src/services/Ingest.js"
import { CaptureStore } from "../../src/services/ports/CaptureStore.js"
import { Workdir } from "../../src/services/Workdir.js"
import { CaptureStoreConformance } from "../../src/testing.js"
import { httpLayer, loopbackForTests, recorder, startServer, type TestServer } from "../ingest/support.js"
import { put, runCli, tempWorkdir } from "../support/cli.js"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"

const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex")

const PAGE = `<!doctype html><html><head><title>Notice</title></head><body><article><h1>Notice</h1>
<p>Clients must read the migration guide before the removal on June 1; the old endpoint stops then.</p>
</article></body></html>`

describe.skipIf(!pgAvailable)("captures on PostgreSQL", () => {
  let db: TestDatabase
  let server: TestServer
  beforeAll(async () => {
    db = await openTestDatabase()
    server = await startServer({
      "/page": (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        res.end(PAGE)
      }
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await db?.close()
  })

  let made = 0
  const make: CaptureStoreConformance.Make = () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(PgStoreLayer({ url: db.url, dossier: `captures-${made++}` }))
      const pg = Context.get(context, PgStore)
      const mem = makeMemoryFs()
      const rows = pgVersionedRecords(pg, RETAINED_KIND, RetainedPath)
      return {
        store: makeCaptureStorePostgres(pg, mem.store),
        putFile: (p: string, d: string) =>
          Effect.gen(function*() {
            mem.writeRaw(p, d)
            const held = yield* rows.get(p)
            if (Option.isSome(held)) {
              const stored = yield* pgContentStore(pg).put(new Uint8Array(Buffer.from(d, "utf8")))
              yield* rows.put(p, { sha256: stored.sha256, bytes: stored.bytes }, held.value.revision)
            }
          }),
        readFile: (p: string) => retainedBytes(pg, p)
      }
    })

  it.live("CaptureStorePostgres: the contract", () => CaptureStoreConformance.check(make), 60_000)

  it.live(
    "the log keeps positions as ids and answers records in order; one that does not decode is CorruptCaptureLog",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(PgStoreLayer({ url: db.url, dossier: "captures-log" }))
        const pg = Context.get(context, PgStore)
        const store = makeCaptureStorePostgres(pg, makeMemoryFs().store)
        const rec = (i: number) => ({
          path: `research/sources/x/p${i}.html`,
          sha256: sha(`p${i}`),
          bytes: 2,
          origin: "https://example.org/",
          fetchedAt: `2026-01-0${i}T00:00:00.000Z`,
          kind: "original" as const
        })
        yield* store.record([{ path: rec(1).path, data: Buffer.from("p1") }], [rec(1), rec(2)])
        yield* store.record([], [rec(3)])
        const ids = yield* Effect.promise(() =>
          adminQuery(
            db.url,
            "SELECT id, position FROM dossier.events WHERE dossier = 'captures-log' AND log = 'captures' ORDER BY position"
          )
        )
        expect(ids.rows).toEqual([{ id: "1", position: 1 }, { id: "2", position: 2 }, { id: "3", position: 3 }])
        expect(yield* store.records).toEqual([rec(1), rec(2), rec(3)])
        yield* Effect.promise(() =>
          adminQuery(
            db.url,
            "UPDATE dossier.events SET event = '{\"path\": 1}' WHERE dossier = 'captures-log' AND log = 'captures' AND id = '2'"
          )
        )
        expect(yield* Effect.flip(store.records)).toMatchObject({
          _tag: "CorruptCaptureLog",
          line: 2,
          dossier: "captures-log"
        })
        expect(yield* retainedPaths(pg)).toEqual([{ path: rec(1).path, sha256: sha("p1"), bytes: 2 }])
        // A retained path's row written behind dossier's back: a tagged refusal naming it, never a defect.
        yield* Effect.promise(() =>
          adminQuery(
            db.url,
            "UPDATE dossier.records SET value = '{\"sha256\": 1}' WHERE dossier = 'captures-log' AND kind = 'retained'"
          )
        )
        expect(yield* Effect.flip(retainedPaths(pg))).toMatchObject({
          _tag: "CorruptCaptureLog",
          path: rec(1).path,
          dossier: "captures-log"
        })
      })),
    60_000
  )

  it.live(
    "IngestLive with PgLock as the Lock: the same bytes twice keep one content row each",
    () =>
      Effect.promise(async () => {
        const dossier = "ingest-twice"
        const dir = tempWorkdir("dossier-pg-ingest-")
        const rt = ManagedRuntime.make(
          IngestLive.pipe(
            Layer.provideMerge(Layer.merge(CaptureStorePostgres, WarcWriterLive)),
            Layer.provideMerge(PgLockLayer),
            Layer.provideMerge(PgStoreLayer({ url: db.url, dossier })),
            Layer.provideMerge(FileStoreLive),
            Layer.provideMerge(Workdir.live(dir)),
            Layer.provideMerge(httpLayer(recorder(), {}, loopbackForTests)),
            Layer.orDie
          )
        )
        try {
          fs.mkdirSync(path.join(dir, "saved"))
          fs.writeFileSync(path.join(dir, "saved/page.html"), PAGE)
          const importOnce = (at: string) =>
            rt.runPromise(
              Effect.flatMap(
                Ingest,
                (i) => i.importFile("saved/page.html", "https://example.org/notice", { now: new Date(at) })
              )
            )
          const first = await importOnce("2026-01-01T00:00:00.000Z")
          const second = await importOnce("2026-01-02T00:00:00.000Z")
          expect(first.reused).toBe(false)
          expect(second.reused).toBe(true)
          expect(second.original).toEqual(first.original)
          expect(second.source).toEqual(first.source)
          const url = `http://127.0.0.1:${server.port}/page`
          const c1 = await rt.runPromise(Effect.flatMap(Ingest, (i) => i.capture(url)))
          const c2 = await rt.runPromise(Effect.flatMap(Ingest, (i) => i.capture(url)))
          expect(c2.reused).toBe(true)
          expect(c2.original).toEqual(c1.original)
          expect(c2.source).toEqual(c1.source)
          const count = async (sha256: string) =>
            (await adminQuery(
              db.url,
              "SELECT count(*)::int AS n FROM dossier.content WHERE dossier = $1 AND sha256 = $2",
              [dossier, sha256]
            )).rows[0]!.n
          for (const f of [first.original, first.source, c1.original, c1.source, c1.warc, c2.warc]) {
            expect(await count(f.sha256)).toBe(1)
          }
          // The page's bytes are one row whether imported or fetched (the same bytes, one address).
          expect(c1.original.sha256).toBe(first.original.sha256)
          const all = await adminQuery(
            db.url,
            "SELECT count(*)::int AS n FROM dossier.content WHERE dossier = $1",
            [dossier]
          )
          const distinct = new Set(
            [first.original, first.source, c1.original, c1.source, c1.warc, c2.warc].map((f) => f.sha256)
          )
          expect(all.rows[0]!.n).toBe(distinct.size)
          // Every capture is logged (2 files per import, 3 per fetch), in order; nothing was written locally.
          const records = await rt.runPromise(Effect.flatMap(CaptureStore, (s) => s.records))
          expect(records.map((r) => [r.kind, r.via])).toEqual([
            ["original", "file"],
            ["source", "file"],
            ["original", "file"],
            ["source", "file"],
            ["original", "fetch"],
            ["source", "fetch"],
            ["warc", "fetch"],
            ["original", "fetch"],
            ["source", "fetch"],
            ["warc", "fetch"]
          ])
          expect(fs.existsSync(path.join(dir, "research"))).toBe(false)
          expect(fs.existsSync(path.join(dir, ".dossier/captures.jsonl"))).toBe(false)
          const bytes = await rt.runPromise(Effect.flatMap(PgStore, (pg) => retainedBytes(pg, first.original.path)))
          expect(Option.map(bytes, (b) => Buffer.from(b).toString("utf8"))).toEqual(Option.some(PAGE))
        } finally {
          await rt.dispose()
          fs.rmSync(dir, { recursive: true, force: true })
        }
      }),
    60_000
  )

  it("a retained file of the view edited by hand: the capture again is refused as in a plain folder", () => {
    const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])
    const capture = ["ingest", "--file", "saved/page.html", "--origin", "https://example.org/page"]
    const answers = ["plain", "bound"].map((kind) => {
      const dir = tempWorkdir(`dossier-capture-${kind}-`)
      try {
        const init = kind === "plain"
          ? cli(dir, ["init"])
          : cli(dir, ["init", "--store", db.url, "--dossier", `edited-view-${made++}`])
        expect(init.code, init.stdout + init.stderr).toBe(0)
        put(dir, "saved/page.html", PAGE)
        const first = cli(dir, capture)
        expect(first.code, first.stdout + first.stderr).toBe(0)
        const original: string = first.json.original.path
        fs.writeFileSync(path.join(dir, original), "edited by hand\n")
        const again = cli(dir, capture)
        // The edit is kept: never overwritten by the capture or its refresh of the view.
        expect(fs.readFileSync(path.join(dir, original), "utf8")).toBe("edited by hand\n")
        return { code: again.code, answer: again.json }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
    expect(answers[0]).toMatchObject({
      code: 1,
      answer: { ok: false, error: { _tag: "EditedRetainedFile", expected: sha(PAGE), actual: sha("edited by hand\n") } }
    })
    expect(answers[1]).toEqual(answers[0])
  }, 60_000)
})
