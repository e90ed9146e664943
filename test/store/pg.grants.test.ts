/**
 * The grant and execution stores on PostgreSQL (src/layers/postgres/GrantStorePostgres.ts,
 * ExecutionStorePostgres.ts) against a real server (the test's own cluster, or DOSSIER_TEST_PG):
 * the GrantStore conformance suite (its contract, and random compare-and-set sequences against
 * its model); races between connections, each with its own pool and without the dossier's lock
 * (two appends naming the same count: one wins, the other is `StaleRevision`; the same grant
 * created from several connections: one row); refusals inside a command's transaction leaving
 * the rest of the command; rows damaged behind dossier's back read fail closed; every read
 * answering the same under a role with SELECT only; and the grants' logic (`GrantsLive`) over
 * these stores with `PgLockLayer` as its Lock, from several hosts at once; and a real `exec`
 * (bubblewrap; skipped loudly by test/exec/support.ts without it) over them.
 *
 * Over 400 lines: every case runs on the one cluster and the hosts its single `describe` sets up
 * at the top, so each reads beside the set-up it relies on.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { executionPaths } from "../../src/domain/Execution.js"
import type { GrantEvent } from "../../src/domain/Grant.js"
import { EvidenceKeyLive } from "../../src/layers/EvidenceKeyLive.js"
import { ExecLive } from "../../src/layers/ExecLive.js"
import { FileStoreLive } from "../../src/layers/FileStoreLive.js"
import { ExecFilesLive } from "../../src/layers/folder/ExecFilesLive.js"
import { damagedEvent } from "../../src/layers/folder/GrantStoreFolder.js"
import { GrantsLive } from "../../src/layers/GrantsLive.js"
import { JournalLive } from "../../src/layers/JournalLive.js"
import {
  EXECUTION_KIND,
  EXECUTION_LOG_KIND,
  EXECUTION_MARKER_KIND,
  ExecutionStorePostgres,
  hostKey,
  makeExecutionStorePostgres,
  markerKind
} from "../../src/layers/postgres/ExecutionStorePostgres.js"
import {
  GRANT_EVENTS_LOG,
  GRANT_KIND,
  GrantStorePostgres,
  makeGrantStorePostgres
} from "../../src/layers/postgres/GrantStorePostgres.js"
import { PgLock, PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { ensureDossier } from "../../src/layers/postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreShape } from "../../src/layers/postgres/PgStore.js"
import { SandboxBwrap } from "../../src/layers/SandboxBwrap.js"
import { WorkTreeLive } from "../../src/layers/WorkTreeLive.js"
import { Exec } from "../../src/services/Exec.js"
import { Grants } from "../../src/services/Grants.js"
import type { ExecutionStoreShape } from "../../src/services/ports/ExecutionStore.js"
import type { GrantStoreShape } from "../../src/services/ports/GrantStore.js"
import { Workdir } from "../../src/services/Workdir.js"
import * as GrantStoreConformance from "../../src/testing/GrantStoreConformance.js"
import { grantOf, markerOf, recordOf } from "../../src/testing/GrantStoreConformance.js"
import { sandboxWorks } from "../exec/support.js"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"

type Host = ManagedRuntime.ManagedRuntime<PgStore | PgLock, unknown>

/** A connection (its own pool) to `dossier`, with the dossier's lock. */
const hostOn = (url: string, dossier: string, mode?: "read"): Host =>
  ManagedRuntime.make(
    PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url, dossier, ...(mode === undefined ? {} : { mode }) })))
  )

const narrowed = (n: number): GrantEvent => ({
  type: "narrowed",
  at: "2026-01-02T00:00:00.000Z",
  deadline: null,
  budget: { runs: n },
  reason: `host ${n}`
})

const X1 = "x-20260102T030405-0000000a"
const X2 = "x-20260102T030405-0000000b"
const X3 = "x-20260102T030406-00000001"
const HOSTS = 5
const sha = (text: string) => createHash("sha256").update(text).digest("hex")

describe.skipIf(!pgAvailable)("the grant and execution stores on PostgreSQL", () => {
  let db: TestDatabase
  let base: Host
  let basePg: PgStoreShape
  let counter = 0
  beforeAll(async () => {
    db = await openTestDatabase()
    base = hostOn(db.url, "grants-base")
    basePg = await base.runPromise(PgStore)
  })
  afterAll(async () => {
    await base?.dispose()
    await db?.close()
  })

  /** The base connection's stores, retargeted at a new, empty dossier. */
  const freshPg = Effect.gen(function*() {
    const pg = basePg
    const dossier = `grants-${counter++}`
    yield* Effect.orDie(ensureDossier(pg.sql, dossier))
    const retargeted: PgStoreShape = { ...pg, config: { ...pg.config, dossier } }
    return { pg: retargeted, dossier }
  })
  const make: GrantStoreConformance.Make = () =>
    Effect.map(freshPg, ({ pg }) => ({
      grants: makeGrantStorePostgres(pg),
      executions: makeExecutionStorePostgres(pg)
    }))

  const run = <A, E>(host: Host, effect: Effect.Effect<A, E, PgStore | PgLock>) => host.runPromise(effect)

  it("passes the GrantStore conformance suite", async () => {
    const r = await run(base, Effect.either(GrantStoreConformance.check(make)))
    if (Either.isLeft(r)) throw new Error(String((r.left as Error).message ?? r.left))
  }, 60_000)

  it("grant events' compare-and-set agrees with the model on random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(GrantStoreConformance.steps, async (steps) => {
        const r = await run(base, Effect.either(GrantStoreConformance.checkSteps(make, steps)))
        if (Either.isLeft(r)) throw new Error(String((r.left as Error).message ?? r.left))
      }),
      { numRuns: 25 }
    )
  }, 120_000)

  /** Two or more connections to one new dossier, each with its own pool, and their stores. */
  const hostsOn = async (dossier: string, n: number) => {
    const hosts = Array.from({ length: n }, () => hostOn(db.url, dossier))
    const stores: Array<{ pg: PgStoreShape; grants: GrantStoreShape; executions: ExecutionStoreShape }> = []
    for (const h of hosts) {
      const pg = await h.runPromise(PgStore)
      stores.push({ pg, grants: makeGrantStorePostgres(pg), executions: makeExecutionStorePostgres(pg) })
    }
    return { hosts, stores, dispose: () => Promise.all(hosts.map((h) => h.dispose())) }
  }

  /** A promise and the function that resolves it. */
  const signal = () => {
    let resolve!: () => void
    const promise = new Promise<void>((r) => (resolve = r))
    return { promise, resolve }
  }

  const rows = async (dossier: string) => ({
    records: (await adminQuery(
      db.url,
      "SELECT kind, key, revision FROM dossier.records WHERE dossier = $1 ORDER BY kind, key",
      [dossier]
    )).rows,
    events: (await adminQuery(
      db.url,
      "SELECT log, stream, position, id FROM dossier.events WHERE dossier = $1 ORDER BY log, stream, position",
      [dossier]
    )).rows,
    content: (await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.content WHERE dossier = $1", [dossier]))
      .rows[0]!.n as number
  })

  it("two appends naming the same count from two connections: the second waits, then is StaleRevision", async () => {
    const { dispose, hosts, stores } = await hostsOn("race-append-2", 2)
    const [a, b] = [stores[0]!, stores[1]!]
    try {
      await hosts[0]!.runPromise(a.grants.create(grantOf("g1")))
      // A appends in an open transaction and holds it; B, naming the same count, waits for A's row.
      const appended = signal()
      const release = signal()
      const first = hosts[0]!.runPromise(a.pg.mapErrors(a.pg.sql.withTransaction(Effect.gen(function*() {
        const n = yield* a.grants.appendEvent("g1", narrowed(1), 0)
        appended.resolve()
        yield* Effect.promise(() => release.promise)
        return n
      }))))
      await appended.promise
      let settled = false
      const second = hosts[1]!.runPromise(Effect.either(b.grants.appendEvent("g1", narrowed(2), 0))).finally(() => {
        settled = true
      })
      await new Promise((r) => setTimeout(r, 300))
      expect(settled).toBe(false)
      release.resolve()
      expect(await first).toBe(1)
      const lost = await second
      expect(Either.isLeft(lost) ? lost.left : lost).toMatchObject({ _tag: "StaleRevision", expected: 0, actual: 1 })
      expect(await hosts[1]!.runPromise(b.grants.events("g1"))).toEqual({ revision: 1, value: [narrowed(1)] })

      // A winner that rolls back leaves the count to the next writer.
      const rolledBack = await hosts[0]!.runPromise(Effect.either(a.pg.mapErrors(a.pg.sql.withTransaction(
        Effect.zipRight(a.grants.appendEvent("g1", narrowed(3), 1), Effect.fail("abort" as const))
      ))))
      expect(rolledBack).toEqual(Either.left("abort"))
      expect(await hosts[1]!.runPromise(b.grants.appendEvent("g1", narrowed(4), 1))).toBe(2)
      expect((await rows("race-append-2")).events).toEqual([
        { log: GRANT_EVENTS_LOG, stream: "g1", position: 1, id: "1" },
        { log: GRANT_EVENTS_LOG, stream: "g1", position: 2, id: "2" }
      ])
    } finally {
      await dispose()
    }
  }, 60_000)

  it(`appends naming the same count from ${HOSTS} connections at once: one winner per count`, async () => {
    const { dispose, hosts, stores } = await hostsOn("race-append-n", HOSTS)
    try {
      await hosts[0]!.runPromise(stores[0]!.grants.create(grantOf("g1")))
      for (const expected of [0, 1, 2]) {
        const answers = await Promise.all(
          stores.map((s, i) =>
            hosts[i]!.runPromise(Effect.either(s.grants.appendEvent("g1", narrowed(10 * expected + i), expected)))
          )
        )
        const won = answers.filter(Either.isRight)
        expect(won.map((w) => w.right)).toEqual([expected + 1])
        for (const a of answers.filter(Either.isLeft)) {
          expect(a.left).toMatchObject({ _tag: "StaleRevision", expected, actual: expected + 1 })
        }
      }
      const events = await hosts[1]!.runPromise(stores[1]!.grants.events("g1"))
      expect(events.revision).toBe(3)
      expect((await rows("race-append-n")).events.map((e) => e.position)).toEqual([1, 2, 3])
    } finally {
      await dispose()
    }
  }, 60_000)

  it(
    `the same grant created from ${HOSTS} connections at once is one record; another one under its id is refused`,
    async () => {
      const { dispose, hosts, stores } = await hostsOn("race-create", HOSTS)
      try {
        const g = grantOf("g1")
        const answers = await Promise.all(stores.map((s, i) => hosts[i]!.runPromise(Effect.either(s.grants.create(g)))))
        expect(answers.map((a) => (Either.isRight(a) ? a.right : a.left)).sort()).toEqual([
          false,
          false,
          false,
          false,
          true
        ])
        const different = await Promise.all(
          stores.map((s, i) => hosts[i]!.runPromise(Effect.either(s.grants.create(grantOf("g1", `task ${i}`)))))
        )
        for (const d of different) {
          expect(Either.isLeft(d) ? d.left : d).toMatchObject({ _tag: "ConflictingGrant", grantId: "g1" })
        }
        // Interleaved: A creates in an open transaction; B's create waits for it and answers by what A left.
        const created = signal()
        const release = signal()
        const [a, b] = [stores[0]!, stores[1]!]
        const first = hosts[0]!.runPromise(
          Effect.either(a.pg.mapErrors(a.pg.sql.withTransaction(Effect.gen(function*() {
            yield* a.grants.create(grantOf("g2"))
            created.resolve()
            yield* Effect.promise(() => release.promise)
            return yield* Effect.fail("abort" as const)
          }))))
        )
        await created.promise
        const second = hosts[1]!.runPromise(b.grants.create(grantOf("g2", "B's task")))
        release.resolve()
        expect(await first).toEqual(Either.left("abort"))
        expect(await second).toBe(true)
        expect(Option.getOrThrow(await hosts[2]!.runPromise(stores[2]!.grants.get("g2"))).task).toBe("B's task")
        expect((await rows("race-create")).records).toEqual([
          { kind: GRANT_KIND, key: "g1", revision: 1 },
          { kind: GRANT_KIND, key: "g2", revision: 1 }
        ])
        // Execution records and logs likewise: written once whoever writes them.
        const r = recordOf(X1)
        const puts = await Promise.all(stores.map((s, i) => hosts[i]!.runPromise(Effect.either(s.executions.put(r)))))
        expect(puts.every(Either.isRight)).toBe(true)
        const path = executionPaths(X1).stdout
        const logs = await Promise.all(
          stores.map((s, i) =>
            hosts[i]!.runPromise(Effect.either(s.executions.putLog(path, new TextEncoder().encode(`host ${i % 2}\n`))))
          )
        )
        const kept = await hosts[0]!.runPromise(stores[0]!.executions.readLog(path))
        const keptText = new TextDecoder().decode(Option.getOrThrow(kept))
        for (const l of logs) {
          if (Either.isRight(l)) expect(l.right.sha256).toBe(sha(keptText))
          else expect(l.left).toMatchObject({ _tag: "EditedRetainedFile", path, actual: sha(keptText) })
        }
        expect(logs.filter((l) => Either.isRight(l) && !l.right.reused)).toHaveLength(1)
        const held = await rows("race-create")
        expect(held.records.filter((x) => x.kind !== GRANT_KIND)).toEqual([
          { kind: EXECUTION_KIND, key: X1, revision: 1 },
          { kind: EXECUTION_LOG_KIND, key: path, revision: 1 }
        ])
        expect(held.content).toBe(1)
      } finally {
        await dispose()
      }
    },
    60_000
  )

  it(
    "refusals inside a command's transaction keep the rest of the command; a failed command keeps nothing",
    async () => {
      const { dispose, hosts, stores } = await hostsOn("in-command", 1)
      const [host, s] = [hosts[0]!, stores[0]!]
      try {
        const path = executionPaths(X1).stdout
        await host.runPromise(Effect.all([
          s.grants.create(grantOf("g1")),
          s.executions.put(recordOf(X1)),
          s.executions.putLog(path, new TextEncoder().encode("ok\n"))
        ]))
        const lock = await host.runPromise(PgLock)
        const refused = await host.runPromise(lock.withLock(Effect.gen(function*() {
          const out = [
            yield* Effect.flip(s.grants.appendEvent("g1", narrowed(1), 3)),
            yield* Effect.flip(s.grants.create(grantOf("g1", "other"))),
            yield* Effect.flip(s.executions.put(recordOf(X1, "g2"))),
            yield* Effect.flip(s.executions.putLog(path, new TextEncoder().encode("other\n")))
          ]
          yield* s.grants.appendEvent("g1", narrowed(1), 0)
          yield* s.executions.admit(markerOf(X2))
          return out.map((e) => e._tag)
        })))
        expect(refused).toEqual(["StaleRevision", "ConflictingGrant", "EditedRetainedFile", "EditedRetainedFile"])
        expect(await host.runPromise(s.grants.events("g1"))).toEqual({ revision: 1, value: [narrowed(1)] })
        expect(await host.runPromise(s.executions.markers)).toEqual([markerOf(X2)])

        const before = await rows("in-command")
        const failed = await host.runPromise(Effect.either(lock.withLock(Effect.gen(function*() {
          yield* s.grants.create(grantOf("g3"))
          yield* s.grants.appendEvent("g1", narrowed(2), 1)
          yield* s.executions.put(recordOf(X3))
          yield* s.executions.putLog(executionPaths(X3).stdout, new TextEncoder().encode("lost\n"))
          yield* s.executions.finish(X2)
          return yield* Effect.fail("abort" as const)
        }))))
        expect(failed).toEqual(Either.left("abort"))
        expect(await rows("in-command")).toEqual(before)
      } finally {
        await dispose()
      }
    },
    60_000
  )

  it("rows edited behind dossier's back read fail closed", async () => {
    const { dispose, hosts, stores } = await hostsOn("damaged", 1)
    const [host, s] = [hosts[0]!, stores[0]!]
    try {
      await host.runPromise(Effect.all([
        s.grants.create(grantOf("g1")),
        s.grants.create(grantOf("g2")),
        s.grants.appendEvent("g2", narrowed(1), 0),
        s.grants.appendEvent("g2", narrowed(2), 1),
        s.executions.put(recordOf(X1)),
        s.executions.put(recordOf(X2)),
        s.executions.admit(markerOf(X3))
      ]))
      const edit = (sql: string, values: ReadonlyArray<unknown>) => adminQuery(db.url, sql, ["damaged", ...values])
      await edit("UPDATE dossier.records SET value = '{' WHERE dossier = $1 AND kind = $2 AND key = 'g1'", [GRANT_KIND])
      await edit(
        "UPDATE dossier.events SET event = '{\"type\":\"widened\"}' WHERE dossier = $1 AND log = $2 AND position = 1",
        [GRANT_EVENTS_LOG]
      )
      await edit("UPDATE dossier.records SET value = $3 WHERE dossier = $1 AND kind = $2 AND key = $4", [
        EXECUTION_KIND,
        JSON.stringify(recordOf(X2)),
        X1
      ])
      const moved = await edit("UPDATE dossier.records SET key = $3 WHERE dossier = $1 AND kind = $2", [
        markerKind(hostKey()),
        X1
      ])
      expect(moved.rowCount).toBe(1)
      const answers = await host.runPromise(Effect.all({
        get: Effect.flip(s.grants.get("g1")),
        ids: s.grants.ids,
        create: Effect.flip(s.grants.create(grantOf("g1"))),
        events: s.grants.events("g2"),
        record: Effect.flip(s.executions.get(X1)),
        has: s.executions.has(X1),
        markers: s.executions.markers
      }))
      expect(answers.get).toMatchObject({ _tag: "GrantDigestMismatch", grantId: "g1" })
      expect(answers.ids).toEqual(["g1", "g2"])
      expect(answers.create).toMatchObject({ _tag: "ConflictingGrant", grantId: "g1" })
      expect(answers.events).toEqual({ revision: 2, value: [damagedEvent, narrowed(2)] })
      expect(answers.record).toMatchObject({ _tag: "ExecutionDigestMismatch", executionId: X1 })
      expect(answers.has).toBe(true)
      expect(answers.markers).toEqual([])
    } finally {
      await dispose()
    }
  }, 60_000)

  it("every read answers the same under a role with SELECT only", async () => {
    const { dispose, hosts, stores } = await hostsOn("reader", 1)
    const role = `grants_reader_${db.name}`.slice(0, 60)
    await adminQuery(db.url, `CREATE ROLE ${role} LOGIN`)
    await adminQuery(db.url, `GRANT USAGE ON SCHEMA dossier TO ${role}`)
    await adminQuery(db.url, `GRANT SELECT ON ALL TABLES IN SCHEMA dossier TO ${role}`)
    const readerUrl = new URL(db.url)
    readerUrl.username = role
    const reader = hostOn(readerUrl.toString(), "reader", "read")
    try {
      const s = stores[0]!
      const path = executionPaths(X1).stdout
      await hosts[0]!.runPromise(Effect.all([
        s.grants.create(grantOf("g1")),
        s.grants.appendEvent("g1", narrowed(1), 0),
        s.executions.put(recordOf(X1)),
        s.executions.putLog(path, new TextEncoder().encode("ok\n")),
        s.executions.admit(markerOf(X2))
      ]))
      const reads = (on: Host) =>
        on.runPromise(Effect.flatMap(PgStore, (pg) => {
          const grants = makeGrantStorePostgres(pg)
          const executions = makeExecutionStorePostgres(pg)
          return Effect.flatMap(PgLock, (lock) =>
            lock.withReadLock(() =>
              Effect.all([
                grants.get("g1"),
                grants.ids,
                grants.events("g1"),
                executions.get(X1),
                executions.has(X1),
                executions.ids,
                executions.logDigest(path),
                Effect.map(executions.readLog(path), Option.map((b) => Buffer.from(b).toString("utf8"))),
                executions.markers
              ])
            ))
        }))
      const asReader = await reads(reader)
      expect(asReader).toEqual(await reads(hosts[0]!))
      expect(asReader[7]).toEqual(Option.some("ok\n"))
    } finally {
      await reader.dispose()
      await dispose()
    }
  }, 60_000)

  /**
   * The grants' logic of a shared dossier as a library would compose it: `GrantsLive` over these
   * stores with `PgLockLayer` as the Lock, one work folder (the grant's roots) on this host.
   */
  const grantsOn = (dossier: string, dir: string) => {
    const local = Layer.mergeAll(FileStoreLive, EvidenceKeyLive, WorkTreeLive).pipe(
      Layer.provideMerge(Workdir.live(dir))
    )
    const store = PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url: db.url, dossier })))
    return ManagedRuntime.make(
      GrantsLive.pipe(
        Layer.provide(Layer.mergeAll(GrantStorePostgres, ExecutionStorePostgres, ExecFilesLive)),
        Layer.provideMerge(store),
        Layer.provideMerge(local)
      )
    )
  }

  it(
    `Grants over these stores from ${HOSTS} hosts at once: narrowings take turns, one revocation is stored`,
    async () => {
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-grants-")))
      fs.mkdirSync(path.join(dir, "research/exp/data"), { recursive: true })
      fs.writeFileSync(path.join(dir, "research/exp/data/train.csv"), "a,b\n1,2\n")
      const hosts = Array.from({ length: HOSTS }, () => grantsOn("service", dir))
      const now = new Date("2026-12-08T10:00:00.000Z")
      try {
        const created = await hosts[0]!.runPromise(Effect.flatMap(Grants, (g) =>
          g.create({
            id: "g1",
            task: "task",
            inputs: ["research/exp/data"],
            work: "research/exp/runs/r1",
            protected: [],
            tools: ["read"],
            budget: { runs: 20, wallSeconds: 120, cpuSeconds: 120, memoryMiB: 256, outputMiB: 16 },
            deadline: "2030-01-01T00:00:00Z"
          }, { now })))
        expect(created.created).toBe(true)
        // Host i narrows runs to 10 - i: in whatever order they take turns, a wider one is refused.
        const narrowed = await Promise.all(
          hosts.map((h, i) =>
            h.runPromise(
              Effect.either(Effect.flatMap(Grants, (g) => g.narrow("g1", { budget: { runs: 10 - i } }, { now })))
            )
          )
        )
        for (const n of narrowed) {
          if (Either.isLeft(n)) expect(n.left._tag).toBe("GrantWidening")
        }
        const revoked = await Promise.all(
          hosts.map((h) => h.runPromise(Effect.flatMap(Grants, (g) => g.revoke("g1", { reason: "done", now }))))
        )
        expect(revoked.filter((r) => r.appended)).toHaveLength(1)
        const shown = await hosts[HOSTS - 1]!.runPromise(Effect.flatMap(Grants, (g) => g.show("g1", { now })))
        const runs = shown.events.flatMap((e) => (e.type === "narrowed" ? [e.budget.runs!] : []))
        expect(runs).toHaveLength(narrowed.filter(Either.isRight).length)
        expect(runs.every((r, i) => i === 0 || r < runs[i - 1]!)).toBe(true)
        expect(shown.budget.runs).toBe(10 - (HOSTS - 1))
        expect(shown.events.filter((e) => e.type === "revoked")).toHaveLength(1)
        expect(shown.state).toBe("revoked")
        expect((await rows("service")).events.map((e) => e.position)).toEqual(shown.events.map((_, i) => i + 1))
      } finally {
        await Promise.all(hosts.map((h) => h.dispose()))
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
    60_000
  )

  it.skipIf(!sandboxWorks)(
    "a real exec over these stores keeps its record and logs in the dossier, its outputs here",
    async () => {
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-exec-")))
      fs.mkdirSync(path.join(dir, "research/exp/data"), { recursive: true })
      fs.writeFileSync(path.join(dir, "research/exp/data/train.csv"), "a,b\n1,2\n")
      const local = Layer.mergeAll(FileStoreLive, EvidenceKeyLive, WorkTreeLive, SandboxBwrap).pipe(
        Layer.provideMerge(Workdir.live(dir))
      )
      const store = PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url: db.url, dossier: "exec" })))
      const host = ManagedRuntime.make(
        ExecLive.pipe(
          Layer.provideMerge(Layer.mergeAll(GrantsLive, JournalLive)),
          Layer.provideMerge(Layer.mergeAll(GrantStorePostgres, ExecutionStorePostgres, ExecFilesLive)),
          Layer.provideMerge(store),
          Layer.provideMerge(local)
        )
      )
      const other = grantsOn("exec", dir)
      try {
        await host.runPromise(Effect.flatMap(Grants, (g) =>
          g.create({
            id: "g1",
            task: "task",
            inputs: ["research/exp/data"],
            work: "research/exp/runs/r1",
            protected: [],
            tools: ["read", "bash"],
            budget: { runs: 3, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 4 },
            deadline: "2030-01-01T00:00:00Z"
          })))
        const { execution } = await host.runPromise(
          Effect.flatMap(Exec, (x) => x.run("g1", ["/bin/sh", "-c", "echo out; echo err >&2; echo 1 > result.txt"]))
        )
        expect(execution).toMatchObject({ status: "exited", exitCode: 0 })
        const shown = await host.runPromise(Effect.flatMap(Exec, (x) => x.show(execution.id, { verify: true })))
        expect(shown.authentication.authenticity).toBe("signed")
        expect(shown.verify?.findings).toEqual([])
        // The record, its logs and their bytes are the dossier's; no marker is left; the folder holds the outputs only.
        const held = await rows("exec")
        expect(held.records.filter((r) => String(r.kind).startsWith("execution"))).toEqual([
          { kind: EXECUTION_KIND, key: execution.id, revision: 1 },
          { kind: EXECUTION_LOG_KIND, key: executionPaths(execution.id).stderr, revision: 1 },
          { kind: EXECUTION_LOG_KIND, key: executionPaths(execution.id).stdout, revision: 1 }
        ])
        const logs = await adminQuery(
          db.url,
          "SELECT convert_from(bytes, 'UTF8') AS text FROM dossier.content WHERE dossier = $1 AND sha256 = ANY($2) ORDER BY 1",
          ["exec", [execution.stdout.sha256, execution.stderr.sha256]]
        )
        expect(logs.rows).toEqual([{ text: "err\n" }, { text: "out\n" }])
        expect(fs.existsSync(path.join(dir, executionPaths(execution.id).record))).toBe(false)
        expect(fs.readFileSync(path.join(dir, "research/exp/runs/r1/result.txt"), "utf8")).toBe("1\n")
        // Another host sees the run spent.
        const status = await other.runPromise(Effect.flatMap(Grants, (g) => g.show("g1")))
        expect(status.remaining.runs).toBe(2)
        // Its row written behind dossier's back so that it no longer decodes: the run is charged to
        // no grant, so no run is admitted (on any host), naming the record; nothing is recorded.
        await adminQuery(
          db.url,
          "UPDATE dossier.records SET value = '{' WHERE dossier = $1 AND kind = $2 AND key = $3",
          [
            "exec",
            EXECUTION_KIND,
            execution.id
          ]
        )
        const refusal = await host.runPromise(Effect.flip(Effect.flatMap(Exec, (x) => x.run("g1", ["/bin/true"]))))
        expect(refusal).toMatchObject({ _tag: "ExecutionDigestMismatch", executionId: execution.id })
        expect(await other.runPromise(Effect.flip(Effect.flatMap(Grants, (g) => g.status("g1"))))).toMatchObject({
          _tag: "ExecutionDigestMismatch",
          executionId: execution.id
        })
        // show answers, naming the record: what is left is not known.
        expect((await other.runPromise(Effect.flatMap(Grants, (g) => g.show("g1")))).unreadableExecutions).toEqual([
          execution.id
        ])
        expect((await rows("exec")).records.filter((r) => r.kind === EXECUTION_KIND)).toHaveLength(1)
      } finally {
        await host.dispose()
        await other.dispose()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    },
    60_000
  )

  it("a run in flight is its host's: another host neither lists nor finishes its marker", async () => {
    const { dispose, hosts, stores } = await hostsOn("markers", 1)
    const pg = stores[0]!.pg
    const [here, there] = [
      makeExecutionStorePostgres(pg, { host: "host-a" }),
      makeExecutionStorePostgres(pg, { host: "host-b" })
    ]
    try {
      const r = await hosts[0]!.runPromise(Effect.gen(function*() {
        yield* here.admit(markerOf(X1))
        yield* there.admit(markerOf(X2))
        yield* there.finish(X1)
        return { here: yield* here.markers, there: yield* there.markers }
      }))
      expect(r).toEqual({ here: [markerOf(X1)], there: [markerOf(X2)] })
      expect((await rows("markers")).records).toEqual([
        { kind: `${EXECUTION_MARKER_KIND}@host-a`, key: X1, revision: 1 },
        { kind: `${EXECUTION_MARKER_KIND}@host-b`, key: X2, revision: 1 }
      ])
      // This machine's key is stable and says nothing of the machine's id.
      expect(hostKey()).toMatch(/^[0-9a-f]{16}$/)
      expect(hostKey()).toBe(hostKey())
      if (fs.existsSync("/etc/machine-id")) {
        expect(hostKey()).not.toContain(fs.readFileSync("/etc/machine-id", "utf8").trim().slice(0, 16))
      }
    } finally {
      await dispose()
    }
  })
})
