/**
 * One racing writer for test/store/pg.race.test.ts, run as its own process (bundled by the test):
 * `node pgWorker.mjs <json>` with `{url, dossier, op, ...}`; prints one JSON line with the answer
 * (`{ok: true, value}` or `{ok: false, tag}`) and exits 0. It waits for `startAt` (epoch ms) so
 * that every process starts its command at the same moment.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import { PgLock, PgLockLayer } from "../../../src/layers/postgres/PgLock.js"
import { pgEventLog, pgVersionedRecords } from "../../../src/layers/postgres/PgRecords.js"
import { PgStore, PgStoreLayer } from "../../../src/layers/postgres/PgStore.js"
import { answerAndExit } from "./answer.js"

interface Job {
  readonly url: string
  readonly dossier: string
  readonly op: "checkpoint" | "append" | "hold"
  readonly startAt: number
  /** For `hold`: after its first append, print `held` and wait for this file before the second. */
  readonly goFile?: string
  readonly connectTimeoutMs?: number
  readonly statementTimeoutMs?: number
  readonly deadlineMs?: number
  readonly expected?: number
  readonly value?: string
  readonly batch?: ReadonlyArray<{ id: string; digest: string; event: string }>
}

class Conflict extends Schema.TaggedError<Conflict>()("ConflictingEvent", { id: Schema.String }) {}

const job = JSON.parse(process.argv[2]!) as Job
const layer = PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({
  url: job.url,
  dossier: job.dossier,
  lockTimeoutMs: 20_000,
  ...(job.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: job.connectTimeoutMs }),
  ...(job.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: job.statementTimeoutMs }),
  ...(job.deadlineMs === undefined ? {} : { deadlineMs: job.deadlineMs })
})))
const runtime = ManagedRuntime.make(layer)

const program = Effect.gen(function*() {
  const store = yield* PgStore
  const lock = yield* PgLock
  const wait = job.startAt - Date.now()
  if (wait > 0) yield* Effect.sleep(wait)
  if (job.op === "checkpoint") {
    const records = pgVersionedRecords(store, "plan", Schema.String)
    return yield* lock.withLock(records.put("plan", job.value!, job.expected!))
  }
  const events = pgEventLog(store, "journal", Schema.String, (id) => new Conflict({ id }))
  if (job.op === "hold") {
    const [first, ...rest] = job.batch!
    return yield* lock.withLock(
      Effect.gen(function*() {
        yield* events.append("s1", [first!])
        process.stdout.write("held\n")
        while (!fs.existsSync(job.goFile!)) yield* Effect.sleep(50)
        return yield* events.append("s1", rest)
      })
    )
  }
  return yield* lock.withLock(events.append("s1", job.batch!))
})

answerAndExit(runtime, program)
