/**
 * The plan on PostgreSQL (the test's own cluster, or DOSSIER_TEST_PG): `PlanStorePostgres` passes
 * the PlanStore conformance suite, and `PlanLive` over it with `PgLockLayer` as the `Lock` keeps
 * one winner per revision when fibers of several runtimes (each its own pool, as hosts are) race
 * one checkpoint; the losers' uploaded bytes are rolled back with them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { PgLockLayer } from "../../src/layers/postgres/PgLock.js"
import { PgStore, PgStoreLayer } from "../../src/layers/postgres/PgStore.js"
import { makePlanStorePostgres, PlanPostgres, putPlanProse } from "../../src/layers/postgres/PlanStorePostgres.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"
import { Plan } from "../../src/services/Plan.js"
import { PLAN_KEY, PlanStore } from "../../src/services/ports/PlanStore.js"
import { PlanStoreConformance } from "../../src/testing.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"

const sha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex")
/** A racer's source: large enough that its upload takes a while. */
const body = (i: number) => `racer ${i}\n`.repeat(40_000)

describe.skipIf(!pgAvailable)("the plan on PostgreSQL", () => {
  const db = useTestDatabase()

  let made = 0
  /** A fresh dossier of its own for each store; its pool closes with the scope. */
  const make: PlanStoreConformance.Make = ({ prose }) =>
    Effect.gen(function*() {
      const context = yield* Layer.build(PgStoreLayer({ url: db.url, dossier: `plan-${made++}` }))
      const pg = Context.get(context, PgStore)
      const files = makeMemoryFs().store
      if (prose !== "") yield* putPlanProse(pg, prose)
      return {
        store: makePlanStorePostgres(pg, files),
        keepsProse: true,
        putFile: (p: string, d: string) => files.writeAtomic(p, d)
      }
    })

  it.live("PlanStorePostgres: the contract", () => PlanStoreConformance.check(make), 60_000)
  it.live.prop(
    "PlanStorePostgres: compare-and-set agrees with the model",
    { steps: PlanStoreConformance.steps },
    ({ steps }) => PlanStoreConformance.checkSteps(make, steps),
    { timeout: 120_000, fastCheck: { numRuns: 15 } }
  )

  /** One host: its own pool on the dossier, its own work folder (in memory), Plan over the store. */
  const host = (dossier: string, files: FileStoreShape) =>
    ManagedRuntime.make(
      PlanPostgres.pipe(
        Layer.provideMerge(PgLockLayer),
        Layer.provideMerge(PgStoreLayer({ url: db.url, dossier })),
        Layer.provideMerge(Layer.succeed(FileStore, files))
      )
    )

  const contentRows = async (dossier: string) =>
    (await adminQuery(db.url, "SELECT sha256 FROM dossier.content WHERE dossier = $1 ORDER BY sha256", [dossier]))
      .rows.map((r) => r.sha256 as string)

  it.live(
    "PlanLive with PgLock as the Lock: racing checkpoints at one revision, one winner",
    () =>
      Effect.promise(async () => {
        const dossier = "plan-race"
        const HOSTS = 3
        const FIBERS = 3
        const racers = HOSTS * FIBERS
        const hosts = Array.from({ length: HOSTS }, () => {
          const files = makeMemoryFs().store
          for (let i = 0; i < racers; i++) {
            Effect.runSync(files.writeAtomic(`research/sources/r${i}.md`, body(i)))
          }
          return host(dossier, files)
        })
        try {
          const started = await hosts[0]!.runPromise(
            Effect.flatMap(Plan, (p) => p.start({ goal: "G", limits: [], nextAction: "n" }))
          )
          expect(started).toEqual({ revision: 1, created: true })
          // Every host connected before the race, so that the checkpoints overlap.
          for (const rt of hosts) await rt.runPromise(Effect.flatMap(Plan, (p) => p.read))
          const answers = await Promise.all(
            hosts.flatMap((rt, h) =>
              Array.from({ length: FIBERS }, (_, f) => {
                const i = h * FIBERS + f
                return rt.runPromise(Effect.either(Effect.flatMap(Plan, (p) =>
                  p.checkpoint(
                    {
                      completedSteps: [{ summary: `racer ${i}` }],
                      sources: [{ path: `research/sources/r${i}.md`, origin: `https://example.org/${i}` }]
                    },
                    { expected: 1 }
                  ))))
              })
            )
          )
          const winners = answers.flatMap((a, i) => (Either.isRight(a) ? [{ i, value: a.right }] : []))
          const losers = answers.flatMap((a) => (Either.isLeft(a) ? [a.left] : []))
          expect(winners.length).toBe(1)
          expect(winners[0]!.value).toEqual({ revision: 2 })
          expect(losers.length).toBe(racers - 1)
          for (const l of losers) expect(l).toMatchObject({ _tag: "StaleRevision", expected: 1, actual: 2 })
          // Every host reads the winner's plan; only the winner's source bytes were kept.
          const w = winners[0]!.i
          for (const rt of hosts) {
            const doc = Option.getOrThrow(await rt.runPromise(Effect.flatMap(Plan, (p) => p.read)))
            expect(doc.revision).toBe(2)
            expect(doc.completedSteps.map((s) => s.summary)).toEqual([`racer ${w}`])
            expect(doc.sources).toMatchObject([{ path: `research/sources/r${w}.md`, sha256: sha(body(w)) }])
          }
          // The losers' uploads went with their transactions.
          expect(await contentRows(dossier)).toEqual([sha(body(w))])
          const row = await adminQuery(
            db.url,
            "SELECT revision FROM dossier.records WHERE dossier = $1 AND kind = 'plan' AND key = 'plan'",
            [dossier]
          )
          expect(row.rows).toEqual([{ revision: 2 }])
        } finally {
          await Promise.all(hosts.map((rt) => rt.dispose()))
        }
      }),
    60_000
  )

  it.live(
    "a registered file's bytes are stored with the checkpoint; a refused checkpoint stores none",
    () =>
      Effect.promise(async () => {
        const dossier = "plan-bytes"
        const files = makeMemoryFs().store
        Effect.runSync(files.writeAtomic("research/sources/a.md", "alpha\n"))
        Effect.runSync(files.writeAtomic("research/results/out.txt", "out\n"))
        const rt = host(dossier, files)
        try {
          const run = <A, E>(f: (p: Context.Tag.Service<Plan>) => Effect.Effect<A, E>) =>
            rt.runPromise(Effect.either(Effect.flatMap(Plan, f)))
          await run((p) => p.start({ goal: "G", limits: [], nextAction: "n" }))
          // Completion with an open question is refused after the source and the output were read
          // and uploaded (the completion rule needs their digests).
          const refused = await run((p) =>
            p.checkpoint({
              sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }],
              outputs: [{ path: "research/results/out.txt", dependsOn: ["research/sources/a.md"] }],
              unresolved: [{ id: "q", text: "still open" }],
              status: "complete"
            }, { expected: 1 })
          )
          expect(refused).toMatchObject({ _tag: "Left", left: { _tag: "CompletionRefused" } })
          expect(await contentRows(dossier)).toEqual([])
          const ok = await run((p) =>
            p.checkpoint({
              sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }],
              outputs: [{ path: "research/results/out.txt", dependsOn: ["research/sources/a.md"] }]
            }, { expected: 1 })
          )
          expect(ok).toEqual(Either.right({ revision: 2 }))
          expect(await contentRows(dossier)).toEqual([sha("alpha\n"), sha("out\n")].sort())
          // The stored bytes are the registered ones, whatever the local file holds later.
          Effect.runSync(files.writeAtomic("research/results/out.txt", "changed\n"))
          const bytes = await adminQuery(
            db.url,
            "SELECT convert_from(bytes, 'UTF8') AS text FROM dossier.content WHERE dossier = $1 AND sha256 = $2",
            [dossier, sha("out\n")]
          )
          expect(bytes.rows).toEqual([{ text: "out\n" }])
          const inspect = await run((p) => p.inspect)
          expect(inspect).toMatchObject({ _tag: "Right", right: { verification: { state: "needs-attention" } } })
          const stored = await rt.runPromise(
            Effect.flatMap(PlanStore, (s) => s.plan.get(PLAN_KEY)).pipe(
              Effect.provide(Layer.effect(PlanStore, Effect.zipWith(PgStore, FileStore, makePlanStorePostgres))),
              Effect.either
            )
          )
          expect(Either.isRight(stored) && Option.getOrThrow(stored.right).revision).toBe(2)
        } finally {
          await rt.dispose()
        }
      }),
    60_000
  )

  it.live(
    "a stored plan that does not decode is CorruptPlan, and its revision must be its document's",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(PgStoreLayer({ url: db.url, dossier: "plan-corrupt" }))
        const store = makePlanStorePostgres(Context.get(context, PgStore), makeMemoryFs().store)
        yield* Effect.promise(() =>
          adminQuery(
            db.url,
            "INSERT INTO dossier.records (dossier, kind, key, revision, value) VALUES ($1, 'plan', 'plan', 1, $2)",
            ["plan-corrupt", JSON.stringify({ document: { revision: 1 }, before: "", after: "" })]
          )
        )
        const e = yield* Effect.flip(store.plan.get(PLAN_KEY))
        expect(e._tag).toBe("CorruptPlan")
        // An imported plan keeps its revision: a create stores the document's own.
        const imported = { ...PlanStoreConformance.documentAt(7) }
        const other = makePlanStorePostgres(
          Context.get(yield* Layer.build(PgStoreLayer({ url: db.url, dossier: "plan-imported" })), PgStore),
          makeMemoryFs().store
        )
        expect(yield* other.plan.put(PLAN_KEY, { document: imported, before: "", after: "\n" }, null)).toBe(7)
        expect(Option.map(yield* other.plan.get(PLAN_KEY), (r) => r.revision)).toEqual(Option.some(7))
        yield* Effect.promise(() =>
          adminQuery(
            db.url,
            "UPDATE dossier.records SET revision = 8 WHERE dossier = 'plan-imported' AND kind = 'plan'"
          )
        )
        expect((yield* Effect.flip(other.plan.get(PLAN_KEY)))._tag).toBe("CorruptPlan")
      })),
    60_000
  )
})
