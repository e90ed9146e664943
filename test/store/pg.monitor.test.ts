/**
 * The monitor's store on PostgreSQL (src/layers/postgres/MonitorStorePostgres.ts) against a real
 * server (the test's own cluster, or DOSSIER_TEST_PG): the MonitorStore conformance suite (its
 * scenarios, and random sequences answered as the memory adapter answers), a commit whose second
 * write is stale storing nothing, `create-due-run` from several connections at once creating one
 * run per window (through the monitor's logic, with `PgLock` as the lock, and again with no
 * dossier lock at all), and a completed run's stage bytes stored with it.
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
import type { LockTimeout } from "../../src/domain/Errors.js"
import { newSubscription } from "../../src/domain/MonitorRules.js"
import type { SubscriptionInput } from "../../src/domain/MonitorSchema.js"
import type { StoreUnavailable } from "../../src/domain/StoreErrors.js"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMonitorFilesFolder } from "../../src/layers/folder/MonitorStoreFolder.js"
import { MonitorFromStore } from "../../src/layers/MonitorLive.js"
import {
  makeMonitorStorePostgres,
  MonitorStorePostgres,
  RUN_KIND
} from "../../src/layers/postgres/MonitorStorePostgres.js"
import { PgLock, PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { ensureDossier } from "../../src/layers/postgres/PgSchema.js"
import { PgStore, PgStoreLayer, type PgStoreShape } from "../../src/layers/postgres/PgStore.js"
import { Lock } from "../../src/services/Lock.js"
import { Monitor, type MonitorShape } from "../../src/services/Monitor.js"
import { MonitorFiles, type MonitorStore, type MonitorStoreShape } from "../../src/services/ports/MonitorStore.js"
import * as MonitorStoreConformance from "../../src/testing/MonitorStoreConformance.js"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"

const storeLayer = (url: string, dossier: string) =>
  PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url, dossier })))
type Host = ManagedRuntime.ManagedRuntime<PgStore | PgLock, unknown>

const HOSTS = 5
const sha = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex")

/** A daily subscription anchored 2026-12-01T09:00 UTC (window k opens k days later). */
const daily = (id: string) => ({
  id,
  kind: "literature" as const,
  target: `topic ${id}`,
  timezone: "UTC",
  anchor: "2026-12-01T09:00",
  cadence: { every: 1, unit: "day" as const }
})
const CREATED = new Date("2026-11-30T10:00:00.000Z")
const DUE = new Date("2026-12-01T09:30:00.000Z")

/** Rows of the monitor in `dossier`, by kind (for what the database holds, not what an adapter says). */
const rowsIn = async (url: string, dossier: string) => {
  const r = await adminQuery(
    url,
    "SELECT kind, key, revision FROM dossier.records WHERE dossier = $1 ORDER BY kind, key",
    [dossier]
  )
  const e = await adminQuery(url, "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1", [dossier])
  return { records: r.rows as Array<{ kind: string; key: string; revision: number }>, events: e.rows[0]!.n as number }
}

describe.skipIf(!pgAvailable)("the monitor's store on PostgreSQL", () => {
  let db: TestDatabase
  let base: Host
  let root: string
  let counter = 0
  beforeAll(async () => {
    db = await openTestDatabase()
    base = ManagedRuntime.make(storeLayer(db.url, "monitor-base"))
    await base.runPromise(Effect.void)
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-pg-monitor-")))
  })
  afterAll(async () => {
    await base?.dispose()
    await db?.close()
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true })
  })

  /** The base connection's store, retargeted at a new, empty dossier. */
  const freshStore = (): Promise<{ pg: PgStoreShape; store: MonitorStoreShape; dossier: string }> =>
    base.runPromise(
      Effect.gen(function*() {
        const pg = yield* PgStore
        const dossier = `monitor-${counter++}`
        yield* Effect.orDie(ensureDossier(pg.sql, dossier))
        const retargeted: PgStoreShape = { ...pg, config: { ...pg.config, dossier } }
        return { pg: retargeted, store: makeMonitorStorePostgres(retargeted), dossier }
      })
    )

  describe("conformance", () => {
    for (const s of MonitorStoreConformance.scenarios) {
      it(s.name, async () => {
        const { store } = await freshStore()
        const r = await base.runPromise(Effect.either(s.run(store)))
        if (Either.isLeft(r)) throw new Error(r.left.message)
      })
    }

    it("random sequences answer as the memory adapter", async () => {
      await fc.assert(
        fc.asyncProperty(MonitorStoreConformance.operations, async (ops) => {
          const { store } = await freshStore()
          const r = await base.runPromise(Effect.either(MonitorStoreConformance.check(() => ({ store }), ops)))
          if (Either.isLeft(r)) throw new Error(r.left.message)
        }),
        { numRuns: 30 }
      )
    }, 120_000)
  })

  it("a commit whose second write is stale stores nothing, alone or inside a command's transaction", async () => {
    const { dossier, store } = await freshStore()
    const sub = Either.getOrThrow(newSubscription(daily("s0") as SubscriptionInput, CREATED))
    const other = Either.getOrThrow(newSubscription(daily("s1") as SubscriptionInput, CREATED))
    const lock = base.runSync(PgLock)
    const r = await base.runPromise(
      Effect.gen(function*() {
        yield* store.subscriptions.put("s0", sub, null)
        const staleSecond = [
          { _tag: "Subscription" as const, record: other, expected: null },
          { _tag: "Subscription" as const, record: { ...sub, revision: 3 }, expected: 2 }
        ]
        const alone = yield* Effect.flip(store.commit(staleSecond))
        const afterAlone = yield* Effect.all([store.subscriptions.keys, store.subscriptions.get("s0")])
        // In a command: the refused commit leaves nothing, what the command does next is kept.
        const inCommand = yield* lock.withLock(
          Effect.gen(function*() {
            const refused = yield* Effect.flip(store.commit(staleSecond))
            yield* store.commit([{
              _tag: "Subscription",
              record: { ...sub, revision: 2, target: "changed" },
              expected: 1
            }])
            return refused
          })
        )
        return { alone, afterAlone, inCommand }
      })
    )
    expect(r.alone).toMatchObject({ _tag: "StaleRevision", expected: 2, actual: 1 })
    expect(r.inCommand).toMatchObject({ _tag: "StaleRevision", expected: 2, actual: 1 })
    expect(r.afterAlone[0]).toEqual(["s0"])
    expect(Option.getOrThrow(r.afterAlone[1]).revision).toBe(1)
    expect(await rowsIn(db.url, dossier)).toEqual({
      records: [{ kind: "subscription", key: "s0", revision: 2 }],
      events: 0
    })
  })

  /**
   * The monitor of a shared dossier as a library would compose it: the monitor's logic
   * (`MonitorFromStore`) over this store, the work folder's files and `PgLockLayer` as the `Lock`;
   * or (`withDossierLock` false) a `Lock` that is one plain transaction per command, without the
   * dossier's advisory lock, so that commands race on the rows alone.
   */
  const monitorLayer = (url: string, dossier: string, options: { mode?: "read"; withDossierLock?: boolean } = {}) => {
    const files = Layer.succeed(MonitorFiles, makeMonitorFilesFolder(makeFileStoreLive(root)))
    const pg = PgLockLayer.pipe(
      Layer.provideMerge(PgStoreLayer({ url, dossier, ...(options.mode === undefined ? {} : { mode: options.mode }) }))
    )
    const plainLock = Layer.effect(
      Lock,
      Effect.gen(function*() {
        const store = yield* PgStore
        const lock = yield* PgLock
        return {
          withLock: <A, E, R>(self: Effect.Effect<A, E, R>) =>
            store.mapErrors(store.sql.withTransaction(self)) as Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>,
          withReadLock: lock.withReadLock
        }
      })
    )
    const monitor: Layer.Layer<Monitor, never, MonitorStore | MonitorFiles | Lock | PgStore | PgLock> =
      options.withDossierLock === false ? MonitorFromStore.pipe(Layer.provide(plainLock)) : MonitorFromStore
    return monitor.pipe(Layer.provide(MonitorStorePostgres), Layer.provideMerge(files), Layer.provideMerge(pg))
  }

  /** `HOSTS` connections (each its own pool) to one new dossier, and the monitor over each. */
  const hostsOn = async (dossier: string, withDossierLock: boolean) => {
    const hosts = Array.from(
      { length: HOSTS },
      () => ManagedRuntime.make(monitorLayer(db.url, dossier, { withDossierLock }))
    )
    const monitors: Array<MonitorShape> = []
    for (const h of hosts) monitors.push(await h.runPromise(Monitor))
    return { hosts, monitors, dispose: () => Promise.all(hosts.map((h) => h.dispose())) }
  }

  for (const withDossierLock of [true, false]) {
    it(
      `create-due-run from ${HOSTS} connections at once creates one run per window (${
        withDossierLock ? "PgLock" : "no dossier lock, the run's key alone"
      })`,
      async () => {
        const dossier = `race-${withDossierLock ? "locked" : "plain"}`
        const { dispose, hosts, monitors } = await hostsOn(dossier, withDossierLock)
        try {
          const ids = ["a", "b", "c"]
          for (const id of ids) {
            await hosts[0]!.runPromise(
              monitors[0]!.createSubscription(daily(id) as SubscriptionInput, { now: CREATED })
            )
          }
          for (const id of ids) {
            const answers = await Promise.all(
              monitors.map((m, i) =>
                hosts[i]!.runPromise(Effect.either(m.createDueRun({ subscriptionId: id }, { now: DUE })))
              )
            )
            const ok = answers.map((a) => {
              if (Either.isLeft(a)) throw new Error(`unexpected ${JSON.stringify(a.left)}`)
              return a.right
            })
            expect(ok.filter((a) => a.created)).toHaveLength(1)
            expect(new Set(ok.map((a) => a.run.id))).toEqual(new Set([`${id}.w0`]))
            expect(new Set(ok.map((a) => a.run.receiptDigest)).size).toBe(1)
          }
          const { records } = await rowsIn(db.url, dossier)
          expect(records.filter((r) => r.kind === RUN_KIND).map((r) => [r.key, r.revision])).toEqual([
            ["a.w0", 1],
            ["b.w0", 1],
            ["c.w0", 1]
          ])
          expect(records.filter((r) => r.kind === "subscription").map((r) => r.revision)).toEqual([2, 2, 2])
          // Every host reads the same: one active run per subscription.
          for (const [i, m] of monitors.entries()) {
            const sub = await hosts[i]!.runPromise(m.showSubscription("b"))
            expect(sub).toMatchObject({ activeRunId: "b.w0", revision: 2 })
          }
        } finally {
          await dispose()
        }
      },
      60_000
    )
  }

  it(
    "finishing a run stores the stage file's bytes with the run, in the same transaction; readers need SELECT only",
    async () => {
      const { dispose, hosts, monitors } = await hostsOn("finish", true)
      const [host, monitor] = [hosts[0]!, monitors[0]!]
      try {
        await host.runPromise(monitor.createSubscription(daily("f") as SubscriptionInput, { now: CREATED }))
        const { run } = await host.runPromise(monitor.createDueRun({ subscriptionId: "f" }, { now: DUE }))
        await host.runPromise(
          monitor.transitionRun({ runId: run.id, expectedRevision: 1, to: "running" }, { now: DUE })
        )
        const stage = `# stage\nmonitor_binding: run_id=${run.id} task_digest=${run.receiptDigest}\n`
        fs.mkdirSync(path.join(root, "research/results"), { recursive: true })
        fs.writeFileSync(path.join(root, `research/results/${run.id}.md`), stage)
        const finish = {
          runId: run.id,
          expectedRevision: 2,
          binding: { runId: run.id, taskDigest: run.receiptDigest },
          stage: { path: `research/results/${run.id}.md`, sha256: sha(stage) },
          outcomes: []
        }
        const done = await host.runPromise(monitor.finishRun(finish, { now: DUE }))
        expect(done.run.completion?.stage.sha256).toBe(sha(stage))
        const stored = await adminQuery(db.url, "SELECT sha256, bytes FROM dossier.content WHERE dossier = 'finish'")
        expect(stored.rows.map((r) => [r.sha256, Buffer.from(r.bytes as Uint8Array).toString("utf8")])).toEqual([[
          sha(stage),
          stage
        ]])
        // The bytes go with the record that registers them: a commit refused by its last write stores neither.
        const { dossier, pg } = await freshStore()
        const files = makeMonitorFilesFolder(makeFileStoreLive(root))
        const store = makeMonitorStorePostgres(pg, { files })
        const sub = Either.getOrThrow(newSubscription(daily("f") as SubscriptionInput, CREATED))
        const completed = { ...done.run, revision: 1 }
        const refused = await base.runPromise(
          Effect.flip(
            store.commit([
              { _tag: "Run", record: completed, expected: null },
              { _tag: "Subscription", record: { ...sub, revision: 2 }, expected: 1 }
            ])
          )
        )
        expect(refused._tag).toBe("StaleRevision")
        const none = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.content WHERE dossier = $1", [
          dossier
        ])
        expect(none.rows[0]!.n).toBe(0)
        expect((await rowsIn(db.url, dossier)).records).toEqual([])
        await base.runPromise(
          store.commit([
            { _tag: "Subscription", record: sub, expected: null },
            { _tag: "Run", record: completed, expected: null }
          ])
        )
        const kept = await adminQuery(db.url, "SELECT sha256 FROM dossier.content WHERE dossier = $1", [dossier])
        expect(kept.rows).toEqual([{ sha256: sha(stage) }])

        // The reading commands answer the same under a role with SELECT only (they send no write).
        const role = `monitor_reader_${db.name}`.slice(0, 60)
        await adminQuery(db.url, `CREATE ROLE ${role} LOGIN`)
        await adminQuery(db.url, `GRANT USAGE ON SCHEMA dossier TO ${role}`)
        await adminQuery(db.url, `GRANT SELECT ON ALL TABLES IN SCHEMA dossier TO ${role}`)
        const readerUrl = new URL(db.url)
        readerUrl.username = role
        const reader = ManagedRuntime.make(monitorLayer(readerUrl.toString(), "finish", { mode: "read" }))
        try {
          const reads = (on: typeof reader) =>
            on.runPromise(
              Effect.flatMap(Monitor, (m) =>
                Effect.all([
                  m.due({ now: DUE }),
                  m.list,
                  m.unresolvedOutcomes,
                  m.showSubscription("f"),
                  m.showRun(run.id),
                  m.facts({ now: DUE })
                ]))
            )
          const asReader = await reads(reader)
          expect(asReader).toEqual(await reads(host))
          expect(asReader[4]).toMatchObject({ status: "completed", binding: "verified" })
        } finally {
          await reader.dispose()
        }
      } finally {
        await dispose()
      }
    },
    60_000
  )
})
