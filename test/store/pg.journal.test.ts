/**
 * The journal's PostgreSQL adapter (src/layers/postgres/JournalStorePostgres.ts) against a real
 * server (the test's own cluster, or DOSSIER_TEST_PG): the JournalStore conformance suite, the
 * folder adapter's bytes for the same appends, the same batch from several connections and
 * processes at once stored once, a conflicting retry storing nothing, a batch interrupted
 * mid-transaction (the fiber interrupted, the connection killed, the process SIGKILLed) leaving
 * nothing, and linked artifacts' bytes uploaded in the append's transaction.
 *
 * Over 400 lines: the cases share one cluster, the store layers and the batch helpers above, so
 * each reads beside the set-up it relies on.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as fc from "effect/FastCheck"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as fcx from "fast-check"
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { IoError } from "../../src/domain/Errors.js"
import type { JournalEvent } from "../../src/domain/Journal.js"
import { checkBatch, entryOf } from "../../src/domain/JournalAppend.js"
import { encodeLine, eventText } from "../../src/domain/JournalLines.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { FileStoreMemory } from "../../src/layers/FileStoreMemory.js"
import { JournalArtifactsFolder } from "../../src/layers/folder/JournalArtifactsFolder.js"
import { makeJournalFolderStore } from "../../src/layers/folder/JournalStoreFolder.js"
import { JournalFromStore } from "../../src/layers/JournalLive.js"
import { LockMemory } from "../../src/layers/LockMemory.js"
import { JournalStoreMemory } from "../../src/layers/memory/JournalStoreMemory.js"
import { JournalPostgres, makeJournalStorePostgres } from "../../src/layers/postgres/JournalStorePostgres.js"
import { PgLock, PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { ensureDossier } from "../../src/layers/postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreOptions } from "../../src/layers/postgres/PgStore.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"
import { Journal } from "../../src/services/Journal.js"
import type { AppendView, JournalStoreShape } from "../../src/services/ports/JournalStore.js"
import { JournalStoreConformance } from "../../src/testing.js"
import { eventsArb } from "../journal/arbitraries.js"
import { created, evaluation } from "../journal/events.js"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"
import { underLock } from "./support/lockedJournal.js"
import { bundleWorker } from "./support/workers.js"

const storeLayer = (options: PgStoreOptions) => PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer(options)))
type Runtime = ManagedRuntime.ManagedRuntime<PgStore | PgLock, unknown>

/** The journal store of dossier `name` (created when new), over the runtime's pool. */
const journalOf = (name: string) =>
  Effect.gen(function*() {
    const store = yield* PgStore
    yield* store.mapErrors(ensureDossier(store.sql, name))
    return makeJournalStorePostgres({ ...store, config: { ...store.config, dossier: name } })
  })

const onDuplicate = (index: number, candidateId: string) => ({
  _tag: "DuplicateCandidate" as const,
  index,
  candidateId
})

/** Append with the journal's rules as the check. */
const appendRules = (journals: JournalStoreShape, study: string, events: ReadonlyArray<JournalEvent>) => {
  const entries = events.map(entryOf)
  return journals.append(study, entries, checkBatch(entries, onDuplicate))
}

const checkpoint = (id: string, summary: string): JournalEvent => ({
  id,
  type: "checkpoint_saved",
  checkpoint: { summary, nextAction: "next", reviewed: false }
})

/** A batch with candidates (claims), evaluations and a checkpoint whose text needs escaping. */
const batchOf = (prefix: string, n: number): Array<JournalEvent> =>
  Array.from({ length: n }, (_, i): Array<JournalEvent> => [
    created(`${prefix}c${i}`, `${prefix}cand-${i}`),
    evaluation(`${prefix}e${i}`, `${prefix}cand-${i}`)
  ]).flat().concat([checkpoint(`${prefix}k`, "naïve — 🙂 \u0001 \"quoted\" \\ end")])

const tagOf = (e: Either.Either<unknown, unknown>) => (Either.isLeft(e) ? (e.left as { _tag: string })._tag : "Right")

describe.skipIf(!pgAvailable)("the journal on PostgreSQL", () => {
  let db: TestDatabase
  let rt: Runtime
  let dir: string
  let worker: string
  beforeAll(async () => {
    db = await openTestDatabase()
    rt = ManagedRuntime.make(storeLayer({ url: db.url, dossier: "journal" }))
    await rt.runPromise(Effect.void)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pgjournal-"))
    worker = await bundleWorker("pgJournalWorker", dir)
  }, 120_000)
  afterAll(async () => {
    await rt?.dispose()
    await db?.close()
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true })
  })

  const rowsOf = async (dossier: string, log = "journal") =>
    (await adminQuery(
      db.url,
      "SELECT stream, position, id FROM dossier.events WHERE dossier = $1 AND log = $2 ORDER BY stream, position",
      [dossier, log]
    )).rows as Array<{ stream: string; position: number; id: string }>

  let dossiers = 0
  const fresh = (prefix: string) => `${prefix}-${dossiers++}`

  it("conforms to the JournalStore contract, each call alone", async () => {
    await fc.assert(
      fc.asyncProperty(JournalStoreConformance.operations, (ops) =>
        rt.runPromise(
          Effect.flatMap(journalOf(fresh("conf")), (store) => JournalStoreConformance.check(() => ({ store }), ops))
        )),
      { numRuns: 30, seed: 2611 }
    )
  }, 120_000)

  it(
    "conforms with each call inside PgLock.withLock (the adapter's transaction a savepoint of the command's)",
    async () => {
      await fc.assert(
        fc.asyncProperty(JournalStoreConformance.operations, (ops) =>
          rt.runPromise(Effect.gen(function*() {
            const inner = yield* journalOf(fresh("conf-locked"))
            const lock = yield* PgLock
            const store = underLock(inner, lock)
            return yield* JournalStoreConformance.check(() => ({ store }), ops)
          }))),
        { numRuns: 15, seed: 2612 }
      )
    },
    120_000
  )

  it("answers and `lines` are the folder adapter's, byte for byte, after the same appends", async () => {
    const batches = eventsArb(24).chain((events) =>
      fcx.array(fcx.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }).map((sizes) => {
        const all = [...events, checkpoint("odd", "tab\t, nul \u0000, é, 𝄞, \u2028, \"q\", \\")]
        const out: Array<Array<JournalEvent>> = []
        let at = 0
        for (const n of sizes) {
          if (at >= all.length) break
          out.push(all.slice(at, at + n))
          at += n
        }
        if (at < all.length) out.push(all.slice(at))
        // Retry an earlier batch (stored already: existing) and the last one again.
        return out.length > 1 ? [...out, out[0]!, out[out.length - 1]!] : out
      })
    )
    await fcx.assert(
      fcx.asyncProperty(batches, (bs) =>
        rt.runPromise(Effect.gen(function*() {
          const pg = yield* journalOf(fresh("bytes"))
          const folder = makeJournalFolderStore(makeMemoryFs().store).port
          for (const batch of bs) {
            for (const study of ["s1", "study-two"]) {
              const a = yield* Effect.either(appendRules(pg, study, batch))
              const b = yield* Effect.either(appendRules(folder, study, batch))
              expect(a).toEqual(b)
            }
          }
          for (const study of ["s1", "study-two", "none"]) {
            const a = yield* pg.lines(study, 10_000_000)
            const b = yield* folder.lines(study, 10_000_000)
            expect(Option.map(a, (x) => Buffer.from(x).toString("hex"))).toEqual(
              Option.map(b, (x) => Buffer.from(x).toString("hex"))
            )
            const ra = Option.map(yield* pg.read(study), (h) => h.events.map((e) => [e.id, e.digest, e.event]))
            const rb = Option.map(yield* folder.read(study), (h) => h.events.map((e) => [e.id, e.digest, e.event]))
            expect(ra).toEqual(rb)
          }
          expect(yield* pg.studies).toEqual(yield* folder.studies)
        }))),
      { numRuns: 20, seed: 2613 }
    )
  }, 120_000)

  it(
    "the same batch from eight connections at once (fibers; alone and under PgLock) stores each event once",
    async () => {
      const runtimes = Array.from(
        { length: 4 },
        () => ManagedRuntime.make(storeLayer({ url: db.url, dossier: "journal", lockTimeoutMs: 20_000 }))
      )
      try {
        for (const locked of [false, true]) {
          const dossier = fresh(locked ? "same-locked" : "same")
          await rt.runPromise(journalOf(dossier))
          const batch = batchOf("", 10)
          // Every writer holds a connection of its own and waits at the barrier; then all go at once.
          const go = Effect.runSync(Deferred.make<void>())
          const ready: Array<Promise<void>> = []
          const appendOne = (r: Runtime) => {
            let isReady!: () => void
            ready.push(new Promise<void>((resolve) => (isReady = resolve)))
            return r.runPromise(Effect.gen(function*() {
              const journals = yield* journalOf(dossier)
              const lock = yield* PgLock
              const store = yield* PgStore
              const append = appendRules(journals, "s", batch)
              const waitThenAppend = Effect.zipRight(
                Effect.zipRight(Effect.sync(() => isReady()), Deferred.await(go)),
                locked ? lock.withLock(append) : append
              )
              // Inside a transaction: its connection is taken before the barrier.
              return yield* store.mapErrors(store.sql.withTransaction(waitThenAppend))
            }))
          }
          const running = runtimes.flatMap((r) => [appendOne(r), appendOne(r)])
          await Promise.all(ready)
          await Effect.runPromise(Deferred.succeed(go, undefined))
          const answers = await Promise.all(running)
          const ids = batch.map((e) => e.id)
          expect(answers.filter((a) => a.appended.length > 0).map((a) => a.appended)).toEqual([ids])
          expect(answers.filter((a) => a.appended.length === 0).map((a) => a.existing)).toEqual(Array(7).fill(ids))
          for (const a of answers) expect(a.head).toEqual({ seq: ids.length, id: ids[ids.length - 1] })
          const rows = await rowsOf(dossier)
          expect(rows.map((r) => [r.position, r.id])).toEqual(ids.map((id, i) => [i + 1, id]))
          expect((await rowsOf(dossier, "journal-claims")).map((r) => r.id)).toEqual(
            Array.from({ length: 10 }, (_, i) => `cand-${i}`)
          )
        }
      } finally {
        await Promise.all(runtimes.map((r) => r.dispose()))
      }
    },
    120_000
  )

  it(
    "eight connections appending different batches to one study: nothing lost, nothing twice, each batch whole",
    async () => {
      const runtimes = Array.from(
        { length: 4 },
        () => ManagedRuntime.make(storeLayer({ url: db.url, dossier: "journal", lockTimeoutMs: 20_000 }))
      )
      const dossier = fresh("many")
      try {
        await rt.runPromise(journalOf(dossier))
        const batches = Array.from({ length: 8 }, (_, w) => batchOf(`w${w}-`, 3))
        const answers = await Promise.all(
          batches.map((batch, w) =>
            runtimes[w % runtimes.length]!.runPromise(
              Effect.flatMap(journalOf(dossier), (j) => appendRules(j, "s", batch))
            )
          )
        )
        for (const [w, a] of answers.entries()) expect(a.appended).toEqual(batches[w]!.map((e) => e.id))
        const rows = await rowsOf(dossier)
        expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 8 * 7 }, (_, i) => i + 1))
        // Each batch is contiguous, in its order.
        for (const batch of batches) {
          const at = rows.findIndex((r) => r.id === batch[0]!.id)
          expect(rows.slice(at, at + batch.length).map((r) => r.id)).toEqual(batch.map((e) => e.id))
        }
        const history = await rt.runPromise(Effect.flatMap(journalOf(dossier), (j) => j.read("s")))
        expect(Option.getOrThrow(history).events).toHaveLength(8 * 7)
      } finally {
        await Promise.all(runtimes.map((r) => r.dispose()))
      }
    },
    120_000
  )

  const runWorker = (job: object, onLine?: (line: string, kill: () => void) => void) =>
    new Promise<{ answer: unknown; signal: NodeJS.Signals | null }>((resolve) => {
      const child = spawn(process.execPath, [worker, JSON.stringify(job)], { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      child.stdout.on("data", (d) => {
        out += d
        if (onLine !== undefined && out.includes("held\n")) onLine("held", () => child.kill("SIGKILL"))
      })
      child.on("close", (_code, signal) => {
        const last = out.trim().split("\n").pop() ?? ""
        let answer: unknown = last
        try {
          answer = JSON.parse(last)
        } catch {
          // `held`, or nothing: the process was killed.
        }
        resolve({ answer, signal })
      })
    })

  it("the same batch from six processes at once stores each event once", async () => {
    const dossier = fresh("procs")
    const batch = batchOf("", 5)
    const startAt = Date.now() + 3_000
    const results = await Promise.all(
      Array.from(
        { length: 6 },
        () => runWorker({ url: db.url, dossier, study: "s", op: "append", startAt, events: batch })
      )
    )
    const answers = results.map((r) => r.answer as { ok: boolean; value: { appended: Array<string> } })
    for (const a of answers) expect(a.ok, JSON.stringify(a)).toBe(true)
    const ids = batch.map((e) => e.id)
    expect(answers.filter((a) => a.value.appended.length > 0).map((a) => a.value.appended)).toEqual([ids])
    expect((await rowsOf(dossier)).map((r) => [r.position, r.id])).toEqual(ids.map((id, i) => [i + 1, id]))
  }, 120_000)

  it("a conflicting retry stores nothing (the rules' conflict, and the store's own)", async () => {
    const dossier = fresh("conflict")
    const first = [created("c1", "a"), evaluation("e1", "a")]
    const r = await rt.runPromise(Effect.gen(function*() {
      const j = yield* journalOf(dossier)
      yield* appendRules(j, "s", first)
      const retry = [created("c2", "b"), checkpoint("k1", "new"), evaluation("e1", "a", "reject")]
      const ruled = yield* Effect.either(appendRules(j, "s", retry))
      const entries = retry.map(entryOf)
      let seen: AppendView | undefined
      const own = yield* Effect.either(j.append("s", entries, (view) => {
        seen = view
        return null
      }))
      return { ruled, own, seen, lines: yield* j.lines("s", 1_000_000) }
    }))
    expect(r.ruled).toEqual(Either.left(expect.objectContaining({ _tag: "ConflictingEvent", id: "e1" })))
    expect(r.own).toEqual(Either.left(expect.objectContaining({ _tag: "ConflictingEvent", id: "e1" })))
    expect(r.seen?.events).toBe(2)
    expect(r.seen?.claimed("a")).toBe(true)
    expect(r.seen?.claimed("b")).toBe(false)
    expect((await rowsOf(dossier)).map((x) => x.id)).toEqual(["c1", "e1"])
    expect((await rowsOf(dossier, "journal-claims")).map((x) => x.id)).toEqual(["a"])
    expect(Buffer.from(Option.getOrThrow(r.lines)).toString()).toBe(
      first.map((e, i) => encodeLine(i + 1, eventText(e))).join("")
    )
  })

  it("a batch interrupted mid-transaction leaves nothing: the fiber interrupted, the connection killed", async () => {
    const dossier = fresh("interrupted")
    const batch = batchOf("", 3)
    const held = (after: Effect.Effect<unknown, unknown>) =>
      Effect.gen(function*() {
        const j = yield* journalOf(dossier)
        const lock = yield* PgLock
        const store = yield* PgStore
        const inside = yield* Deferred.make<number>()
        const fiber = yield* Effect.fork(lock.withLock(Effect.gen(function*() {
          yield* appendRules(j, "s", batch)
          const [pid] = yield* store.sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`
          yield* Deferred.succeed(inside, pid!.pid)
          yield* after
          return yield* appendRules(j, "s", [checkpoint("late", "x")])
        })))
        return { fiber, pid: yield* Deferred.await(inside) }
      })
    // The fiber interrupted while its transaction is open.
    const interrupted = await rt.runPromise(Effect.gen(function*() {
      const { fiber } = yield* held(Effect.never)
      return yield* Fiber.interrupt(fiber)
    }))
    expect(Exit.isInterrupted(interrupted)).toBe(true)
    expect(await rowsOf(dossier)).toEqual([])
    // The connection killed by the server while the transaction is open.
    const gate = Effect.runSync(Deferred.make<void>())
    const killed = await rt.runPromise(Effect.gen(function*() {
      const { fiber, pid } = yield* held(Deferred.await(gate))
      yield* Effect.promise(() => adminQuery(db.url, "SELECT pg_terminate_backend($1)", [pid]))
      yield* Deferred.succeed(gate, undefined)
      return yield* Effect.either(Fiber.join(fiber))
    }))
    expect(tagOf(killed)).toBe("StoreUnavailable")
    expect(await rowsOf(dossier)).toEqual([])
    expect(await rowsOf(dossier, "journal-claims")).toEqual([])
    // The same command again stores all of it, once.
    const again = await rt.runPromise(Effect.flatMap(journalOf(dossier), (j) => appendRules(j, "s", batch)))
    expect(again.appended).toEqual(batch.map((e) => e.id))
  }, 60_000)

  it("a writer process SIGKILLed mid-transaction leaves nothing; the same batch later is stored whole", async () => {
    const dossier = fresh("sigkill")
    const batch = batchOf("", 4)
    for (let round = 0; round < 3; round++) {
      const { signal } = await runWorker(
        { url: db.url, dossier, study: "s", op: "hold", startAt: 0, events: batch },
        (_, kill) => kill()
      )
      expect(signal).toBe("SIGKILL")
      expect(await rowsOf(dossier)).toEqual([])
    }
    // The killed sessions' locks are gone with them: the next writer is not kept waiting.
    const { answer } = await runWorker({ url: db.url, dossier, study: "s", op: "append", startAt: 0, events: batch })
    expect(answer).toMatchObject({ ok: true, value: { appended: batch.map((e) => e.id), existing: [] } })
    expect((await rowsOf(dossier)).map((r) => r.id)).toEqual(batch.map((e) => e.id))
  }, 120_000)

  it("an appended artifact_linked uploads the file's bytes in the event's transaction; a failure undoes both", async () => {
    const dossier = fresh("artifacts")
    const fsys = makeMemoryFs().store
    const good = "metric,value\naccuracy,0.93\n"
    const files: FileStoreShape = {
      ...fsys,
      // Read inside the lock: one file unreadable, one changed since `journal append` hashed it.
      read: (p, options) =>
        p === "results/broken.csv"
          ? Effect.fail(new IoError({ path: p, operation: "read", code: "EIO" }))
          : p === "results/changed.csv"
          ? Effect.succeed(new TextEncoder().encode("changed since"))
          : fsys.read(p, options)
    }
    const sha = (text: string) => createHash("sha256").update(text).digest("hex")
    const linked = (id: string, path: string): JournalEvent => ({
      id,
      type: "artifact_linked",
      candidateId: "a",
      artifact: { path, sha256: sha(good), bytes: good.length }
    })
    const layer = JournalPostgres.pipe(
      Layer.provide(Layer.succeed(FileStore, files)),
      Layer.provide(PgLockLayer),
      Layer.provide(Layer.effect(PgStore, Effect.map(PgStore, (st) => ({ ...st, config: { ...st.config, dossier } }))))
    )
    const r = await rt.runPromise(Effect.provide(
      Effect.gen(function*() {
        yield* journalOf(dossier)
        for (const f of ["a.csv", "broken.csv", "changed.csv"]) yield* fsys.writeAtomic(`results/${f}`, good)
        const j = yield* Journal
        const ok = yield* j.append("s", [created("c1", "a"), linked("l1", "results/a.csv")])
        const broken = yield* Effect.either(j.append("s", [checkpoint("k1", "x"), linked("l2", "results/broken.csv")]))
        const changed = yield* Effect.either(j.append("s", linked("l3", "results/changed.csv")))
        // A retry stores nothing again (the event is `existing`: nothing to register).
        const retry = yield* j.append("s", linked("l1", "results/a.csv"))
        return { ok, broken, changed, retry }
      }),
      layer
    ))
    expect(r.ok.appended).toEqual(["c1", "l1"])
    expect(tagOf(r.broken)).toBe("IoError")
    expect(r.changed).toEqual(
      Either.left(expect.objectContaining({ _tag: "DigestMismatch", path: "results/changed.csv" }))
    )
    expect(r.retry.skipped).toEqual(["l1"])
    expect((await rowsOf(dossier)).map((x) => x.id)).toEqual(["c1", "l1"])
    const stored = await adminQuery(
      db.url,
      "SELECT sha256, convert_from(bytes, 'UTF8') AS text FROM dossier.content WHERE dossier = $1",
      [dossier]
    )
    expect(stored.rows).toEqual([{ sha256: sha(good), text: good }])
  })

  it("the Journal service over it answers as over memory (append, retry, conflict, inspect, lines, studies)", async () => {
    const dossier = fresh("service")
    await rt.runPromise(journalOf(dossier))
    const script = Effect.gen(function*() {
      const j = yield* Journal
      const out: Array<unknown> = []
      const cand = created("c1", "a")
      out.push(yield* j.append("s", cand))
      out.push(yield* j.append("s", [cand, evaluation("e1", "a"), checkpoint("k1", "é 🙂")]))
      out.push(
        yield* Effect.either(
          j.append("s", { id: "c1", type: "candidate_created", candidate: { id: "a", title: "other" } })
        )
      )
      out.push(yield* Effect.either(j.append("s", evaluation("e2", "zz"))))
      out.push(yield* j.inspect("s"))
      out.push(yield* Effect.either(j.inspect("none")))
      out.push(Buffer.from(yield* j.lines("s", 1_000_000)).toString())
      out.push(yield* j.studies)
      return JSON.parse(JSON.stringify(out)) as unknown
    })
    const artifacts = JournalArtifactsFolder.pipe(Layer.provide(FileStoreMemory))
    // The shared composition: JournalPostgres with PgLockLayer as the Lock.
    const onPg = await rt.runPromise(
      Effect.provide(
        script,
        JournalPostgres.pipe(
          Layer.provide(FileStoreMemory),
          Layer.provide(PgLockLayer),
          Layer.provide(Layer.effect(PgStore, Effect.map(PgStore, (s) => ({ ...s, config: { ...s.config, dossier } }))))
        )
      )
    )
    const inMemory = await Effect.runPromise(
      Effect.provide(
        script,
        JournalFromStore.pipe(Layer.provide(Layer.mergeAll(JournalStoreMemory, artifacts, LockMemory)))
      )
    )
    expect(onPg).toEqual(inMemory)
  })
})
