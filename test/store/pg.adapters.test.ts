/**
 * The PostgreSQL adapters of the storage shapes against a real server (the test's own cluster,
 * or DOSSIER_TEST_PG): schema and migration, compare-and-set, idempotent event batches, bytes by
 * SHA-256, the lock as one transaction, a read-only role, and the errors of a server that is not
 * there or goes away.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { PgLock, PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { pgContentStore, pgEventLog, pgVersionedRecords } from "../../src/layers/postgres/PgRecords.js"
import { SCHEMA_VERSION } from "../../src/layers/postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreOptions } from "../../src/layers/postgres/PgStore.js"
import { adminQuery, freePort, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { holdLock } from "./support/pgWire.js"

class Conflict extends Schema.TaggedError<Conflict>()("ConflictingEvent", { id: Schema.String }) {}

const Value = Schema.Struct({ goal: Schema.String, n: Schema.Number })

const storeLayer = (options: PgStoreOptions) => PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer(options)))

/** Run `f` over a fresh runtime of the store (disposed after). */
const withStore = async <A, E>(options: PgStoreOptions, f: Effect.Effect<A, E, PgStore | PgLock>) => {
  const rt = ManagedRuntime.make(storeLayer(options))
  try {
    return await rt.runPromise(Effect.either(f))
  } finally {
    await rt.dispose()
  }
}

const tagOf = (e: Either.Either<unknown, unknown>) => (Either.isLeft(e) ? (e.left as { _tag: string })._tag : "Right")

const event = (id: string, body: string) => ({
  id,
  digest: createHash("sha256").update(body).digest("hex"),
  event: body
})

describe.skipIf(!pgAvailable)("PostgreSQL adapters", () => {
  const db = useTestDatabase()

  it("creates its schema once, even when several writers bind at once, and records the version", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => withStore({ url: db.url, dossier: `d${i}` }, Effect.void))
    )
    for (const r of results) expect(Either.isRight(r)).toBe(true)
    const v = await adminQuery(db.url, "SELECT version FROM dossier.schema_version")
    expect(v.rows).toEqual([{ version: SCHEMA_VERSION }])
    const d = await adminQuery(db.url, "SELECT name FROM dossier.dossiers ORDER BY name")
    expect(d.rows.map((r) => r.name)).toEqual(["d0", "d1", "d2", "d3", "d4"])
  })

  it("refuses a schema newer than it knows (StoreTooNew), for writers and readers, and writes nothing", async () => {
    await withStore({ url: db.url, dossier: "too-new" }, Effect.void)
    await adminQuery(db.url, "UPDATE dossier.schema_version SET version = $1", [SCHEMA_VERSION + 1])
    try {
      for (const mode of ["write", "read"] as const) {
        const rt = ManagedRuntime.make(storeLayer({ url: db.url, dossier: "another", mode }))
        const r = await rt.runPromiseExit(Effect.void)
        await rt.dispose()
        expect(JSON.stringify(r)).toContain("\"StoreTooNew\"")
        expect(JSON.stringify(r)).toContain(`"schema":${SCHEMA_VERSION + 1}`)
      }
      const d = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.dossiers WHERE name = 'another'")
      expect(d.rows[0]!.n).toBe(0)
    } finally {
      await adminQuery(db.url, "UPDATE dossier.schema_version SET version = $1", [SCHEMA_VERSION])
    }
  })

  it("refuses a malformed URL or dossier name with UsageError, before connecting", async () => {
    for (
      const [url, dossier] of [
        ["mysql://h/db", "q"],
        ["not a url", "q"],
        ["postgres://127.0.0.1/", "q"],
        [db.url, "no spaces"],
        [db.url, ""]
      ] as const
    ) {
      const rt = ManagedRuntime.make(storeLayer({ url, dossier }))
      const r = await rt.runPromiseExit(Effect.void)
      await rt.dispose()
      expect(JSON.stringify(r)).toContain("\"UsageError\"")
    }
  })

  it("compare-and-set: a create, then each write names the revision it read; a stale one changes nothing", async () => {
    const r = await withStore(
      { url: db.url, dossier: "cas" },
      Effect.gen(function*() {
        const records = pgVersionedRecords(yield* PgStore, "plan", Value)
        const none = yield* records.get("plan")
        const r1 = yield* records.put("plan", { goal: "a", n: 1 }, null)
        const again = yield* Effect.flip(records.put("plan", { goal: "b", n: 2 }, null))
        const r2 = yield* records.put("plan", { goal: "c", n: 3 }, 1)
        const stale = yield* Effect.flip(records.put("plan", { goal: "d", n: 4 }, 1))
        const got = yield* records.get("plan")
        yield* records.put("other", { goal: "x", n: 0 }, null)
        return { none, r1, again, r2, stale, got, keys: yield* records.keys }
      })
    )
    const v = Either.getOrThrow(r)
    expect(Option.isNone(v.none)).toBe(true)
    expect([v.r1, v.r2]).toEqual([1, 2])
    expect(v.again).toMatchObject({ _tag: "StaleRevision", expected: 0, actual: 1 })
    expect(v.stale).toMatchObject({ _tag: "StaleRevision", expected: 1, actual: 2 })
    expect(Option.getOrThrow(v.got)).toEqual({ revision: 2, value: { goal: "c", n: 3 } })
    expect(v.keys).toEqual(["other", "plan"])
    // Another dossier's records are its own.
    const other = await withStore(
      { url: db.url, dossier: "cas-2" },
      Effect.flatMap(PgStore, (s) => pgVersionedRecords(s, "plan", Value).get("plan"))
    )
    expect(Option.isNone(Either.getOrThrow(other))).toBe(true)
  })

  it("event log: a batch in order, a retry stores nothing twice, other content under a stored id stores nothing", async () => {
    const r = await withStore(
      { url: db.url, dossier: "events" },
      Effect.gen(function*() {
        const log = pgEventLog(yield* PgStore, "journal", Schema.String, (id) => new Conflict({ id }))
        const first = yield* log.append("s1", [event("e1", "one"), event("e2", "two")])
        const retry = yield* log.append("s1", [event("e2", "two"), event("e3", "three"), event("e3", "three")])
        const conflict = yield* Effect.flip(log.append("s1", [event("e4", "four"), event("e1", "ONE")]))
        const inBatch = yield* Effect.flip(log.append("s1", [event("e5", "five"), event("e5", "FIVE")]))
        yield* log.append("s2", [event("e1", "other stream")])
        return { first, retry, conflict, inBatch, s1: yield* log.read("s1"), streams: yield* log.streams }
      })
    )
    const v = Either.getOrThrow(r)
    expect(v.first).toEqual({ appended: ["e1", "e2"], existing: [] })
    expect(v.retry).toEqual({ appended: ["e3"], existing: ["e2"] })
    expect(v.conflict).toEqual(new Conflict({ id: "e1" }))
    expect(v.inBatch).toEqual(new Conflict({ id: "e5" }))
    expect(v.s1.map((e) => [e.id, e.event])).toEqual([["e1", "one"], ["e2", "two"], ["e3", "three"]])
    expect(v.s1[0]!.digest).toBe(event("e1", "one").digest)
    expect(v.streams).toEqual(["s1", "s2"])
    const positions = await adminQuery(
      db.url,
      "SELECT position FROM dossier.events WHERE dossier = 'events' AND stream = 's1' ORDER BY position"
    )
    expect(positions.rows.map((p) => p.position)).toEqual([1, 2, 3])
  })

  it("content: bytes by SHA-256, written once, answered exactly", async () => {
    const data = new Uint8Array([0, 255, 1, 0, 10, 13, 0x5c, 0x27])
    const r = await withStore(
      { url: db.url, dossier: "bytes" },
      Effect.gen(function*() {
        const content = pgContentStore(yield* PgStore)
        const a = yield* content.put(data)
        const b = yield* content.put(data.slice())
        return {
          a,
          b,
          got: yield* content.get(a.sha256),
          has: yield* content.has(a.sha256),
          missing: yield* content.get("0".repeat(64))
        }
      })
    )
    const v = Either.getOrThrow(r)
    const sha = createHash("sha256").update(data).digest("hex")
    expect(v.a).toEqual({ sha256: sha, bytes: 8, reused: false })
    expect(v.b).toEqual({ sha256: sha, bytes: 8, reused: true })
    expect([...Option.getOrThrow(v.got)]).toEqual([...data])
    expect(v.has).toBe(true)
    expect(Option.isNone(v.missing)).toBe(true)
  })

  it("the lock is one transaction: a command that fails after writing leaves nothing", async () => {
    const boom = new Conflict({ id: "late" })
    const r = await withStore(
      { url: db.url, dossier: "atomic" },
      Effect.gen(function*() {
        const store = yield* PgStore
        const lock = yield* PgLock
        const records = pgVersionedRecords(store, "plan", Value)
        const log = pgEventLog(store, "journal", Schema.String, (id) => new Conflict({ id }))
        const content = pgContentStore(store)
        const failed = yield* Effect.flip(
          lock.withLock(
            Effect.gen(function*() {
              yield* records.put("plan", { goal: "g", n: 1 }, null)
              yield* log.append("s", [event("a", "x")])
              yield* content.put(new Uint8Array([1, 2, 3]))
              // A nested region joins the same transaction.
              yield* lock.withLock(log.append("s", [event("b", "y")]))
              return yield* Effect.fail(boom)
            })
          )
        )
        const after = yield* lock.withReadLock((held) =>
          Effect.all({
            held: Effect.succeed(held),
            plan: records.get("plan"),
            events: log.read("s"),
            streams: log.streams
          })
        )
        return { failed, after }
      })
    )
    if (Either.isLeft(r)) throw new Error(`unexpected ${JSON.stringify(r.left)}`)
    const v = r.right
    expect(v.failed).toMatchObject({ _tag: "ConflictingEvent", id: "late" })
    expect(v.after.held).toBe(false)
    expect(Option.isNone(v.after.plan)).toBe(true)
    expect(v.after.events).toEqual([])
    const bytes = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.content WHERE dossier = 'atomic'")
    expect(bytes.rows[0]!.n).toBe(0)
  })

  it("a writer waiting beyond lock_timeout for another is LockTimeout, and its write did not happen", async () => {
    const holder = ManagedRuntime.make(storeLayer({ url: db.url, dossier: "busy" }))
    const waiter = ManagedRuntime.make(storeLayer({ url: db.url, dossier: "busy", lockTimeoutMs: 300 }))
    try {
      await waiter.runPromise(Effect.void)
      const held = await holdLock(holder)
      const started = Date.now()
      const r = await waiter.runPromise(
        Effect.either(
          Effect.gen(function*() {
            const store = yield* PgStore
            const lock = yield* PgLock
            return yield* lock.withLock(pgVersionedRecords(store, "plan", Value).put("plan", { goal: "w", n: 1 }, null))
          })
        )
      )
      const waited = Date.now() - started
      await held.release()
      expect(tagOf(r)).toBe("LockTimeout")
      // The holder let go only after this answer, so only the waiter's lock_timeout (300 ms)
      // ended its wait, and it waited that long: a bound no loaded machine's slowness can fake.
      expect(waited).toBeGreaterThanOrEqual(250)
      const rows = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.records WHERE dossier = 'busy'")
      expect(rows.rows[0]!.n).toBe(0)
    } finally {
      await holder.dispose()
      await waiter.dispose()
    }
  })

  it("a role with SELECT only reads through withReadLock (a reader sends no write)", async () => {
    await withStore(
      { url: db.url, dossier: "readable" },
      Effect.flatMap(PgStore, (s) => pgVersionedRecords(s, "plan", Value).put("plan", { goal: "r", n: 1 }, null))
    )
    const role = `reader_${db.name}`.slice(0, 60)
    await adminQuery(db.url, `CREATE ROLE ${role} LOGIN`)
    await adminQuery(db.url, `GRANT USAGE ON SCHEMA dossier TO ${role}`)
    await adminQuery(db.url, `GRANT SELECT ON ALL TABLES IN SCHEMA dossier TO ${role}`)
    const url = new URL(db.url)
    url.username = role
    const r = await withStore(
      { url: url.toString(), dossier: "readable", mode: "read" },
      Effect.gen(function*() {
        const store = yield* PgStore
        const lock = yield* PgLock
        return yield* lock.withReadLock(() => pgVersionedRecords(store, "plan", Value).get("plan"))
      })
    )
    expect(Option.getOrThrow(Either.getOrThrow(r))).toEqual({ revision: 1, value: { goal: "r", n: 1 } })
  })

  it("no server there: StoreUnavailable within the connect timeout, and the password appears nowhere", async () => {
    const port = await freePort()
    const secret = "s3cret-Pa55word"
    const started = Date.now()
    const rt = ManagedRuntime.make(
      storeLayer({ url: `postgres://someone:${secret}@127.0.0.1:${port}/db`, dossier: "q", connectTimeoutMs: 1_000 })
    )
    const exit = await rt.runPromiseExit(Effect.void)
    await rt.dispose()
    const text = JSON.stringify(exit)
    expect(text).toContain("\"StoreUnavailable\"")
    // The refusal itself answered, not the connect timeout (1 s) nor the deadline waited out.
    expect(text).toContain("the server refused the connection")
    expect(text).not.toContain("within the connect timeout")
    expect(text).not.toContain("deadline")
    expect(text).not.toContain(secret)
    expect(text).not.toContain("someone")
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it.skipIf(process.env.DOSSIER_TEST_PG)(
    "the server stopping mid-command is StoreUnavailable; nothing is half written; the same command succeeds once it is back",
    async () => {
      const cluster = db.cluster!
      const options = { url: db.url, dossier: "restart", connectTimeoutMs: 1_000 }
      await withStore(options, Effect.void)
      const command = (stopFirst: boolean) =>
        Effect.gen(function*() {
          const store = yield* PgStore
          const lock = yield* PgLock
          const log = pgEventLog(store, "journal", Schema.String, (id) => new Conflict({ id }))
          return yield* lock.withLock(
            Effect.gen(function*() {
              yield* log.append("s", [event("a", "1")])
              if (stopFirst) yield* Effect.sync(() => cluster.stop("immediate"))
              return yield* log.append("s", [event("b", "2")])
            })
          )
        })
      const first = await withStore(options, command(true))
      expect(tagOf(first)).toBe("StoreUnavailable")
      expect(Either.isLeft(first) && (first.left as { reason: string }).reason).toMatch(
        /lost|terminat|shutting down|refused|reset/
      )
      cluster.start()
      const rows = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = 'restart'")
      expect(rows.rows[0]!.n).toBe(0)
      const again = await withStore(options, command(false))
      expect(Either.getOrThrow(again)).toEqual({ appended: ["b"], existing: [] })
      const after = await adminQuery(
        db.url,
        "SELECT id FROM dossier.events WHERE dossier = 'restart' ORDER BY position"
      )
      expect(after.rows.map((r) => r.id)).toEqual(["a", "b"])
    }
  )
})
