/**
 * One racing host for test/store/pg.plan.race.test.ts, run as its own process (bundled by the
 * test): `node pgPlanWorker.mjs <json>` with `{url, dossier, op, startAt, index}`. It runs
 * `PlanLive` over `PlanStorePostgres` with `PgLockLayer` as the `Lock` and a work folder of its
 * own (in memory) holding `research/sources/r<index>.md`; `start` starts the plan, `checkpoint`
 * waits for `startAt` (epoch ms) and registers that source at revision 1. Prints one JSON line
 * (`{ok: true, value}` or `{ok: false, tag}`) and exits 0.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { makeMemoryFs } from "../../../src/layers/FileStoreMemory.js"
import { PgLockLayer } from "../../../src/layers/postgres/PgLock.js"
import { PgStoreLayer } from "../../../src/layers/postgres/PgStore.js"
import { PlanPostgres } from "../../../src/layers/postgres/PlanStorePostgres.js"
import { FileStore } from "../../../src/services/FileStore.js"
import { Plan } from "../../../src/services/Plan.js"
import { answerAndExit } from "./answer.js"

interface Job {
  readonly url: string
  readonly dossier: string
  readonly op: "start" | "checkpoint"
  readonly startAt: number
  readonly index: number
}

const job = JSON.parse(process.argv[2]!) as Job
const files = makeMemoryFs().store
Effect.runSync(files.writeAtomic(`research/sources/r${job.index}.md`, `racer ${job.index}\n`))
const runtime = ManagedRuntime.make(
  PlanPostgres.pipe(
    Layer.provideMerge(PgLockLayer),
    Layer.provideMerge(PgStoreLayer({ url: job.url, dossier: job.dossier, lockTimeoutMs: 20_000 })),
    Layer.provideMerge(Layer.succeed(FileStore, files))
  )
)

const program = Effect.gen(function*() {
  const plan = yield* Plan
  // Connect (and check the schema) before the common instant, so that the commands race.
  yield* plan.read
  const wait = job.startAt - Date.now()
  if (wait > 0) yield* Effect.sleep(wait)
  if (job.op === "start") return yield* plan.start({ goal: "G", limits: [], nextAction: "n" })
  return yield* plan.checkpoint({
    completedSteps: [{ summary: `racer ${job.index}` }],
    sources: [{ path: `research/sources/r${job.index}.md`, origin: `https://example.org/${job.index}` }]
  }, { expected: 1 })
})

answerAndExit(runtime, program)
