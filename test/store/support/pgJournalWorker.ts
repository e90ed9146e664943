/**
 * One journal writer for test/store/pg.journal.test.ts, run as its own process (bundled by the
 * test): `node pgJournalWorker.mjs <json>` with `{url, dossier, study, op, startAt, events}`.
 * `append` appends the batch through the PostgreSQL JournalStore inside `PgLock.withLock` and
 * prints one JSON line (`{ok: true, value}` or `{ok: false, tag}`); `hold` appends it inside the
 * lock, prints `held`, and waits (for the test's SIGKILL) before it would commit.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type { JournalEvent } from "../../../src/domain/Journal.js"
import { checkBatch, entryOf } from "../../../src/domain/JournalAppend.js"
import { makeJournalStorePostgres } from "../../../src/layers/postgres/JournalStorePostgres.js"
import { PgLock, PgLockLayer } from "../../../src/layers/postgres/PgLock.js"
import { PgStore, PgStoreLayer } from "../../../src/layers/postgres/PgStore.js"
import { answerAndExit } from "./answer.js"

interface Job {
  readonly url: string
  readonly dossier: string
  readonly study: string
  readonly op: "append" | "hold"
  readonly startAt: number
  readonly events: ReadonlyArray<JournalEvent>
}

const job = JSON.parse(process.argv[2]!) as Job
const runtime = ManagedRuntime.make(
  PgLockLayer.pipe(Layer.provideMerge(PgStoreLayer({ url: job.url, dossier: job.dossier, lockTimeoutMs: 20_000 })))
)

const program = Effect.gen(function*() {
  const journals = makeJournalStorePostgres(yield* PgStore)
  const lock = yield* PgLock
  const wait = job.startAt - Date.now()
  if (wait > 0) yield* Effect.sleep(wait)
  const entries = job.events.map(entryOf)
  const append = journals.append(
    job.study,
    entries,
    checkBatch(entries, (_, candidateId) => ({ _tag: "DuplicateCandidate" as const, candidateId }))
  )
  if (job.op === "hold") {
    return yield* lock.withLock(
      Effect.zipRight(append, Effect.zipRight(Effect.sync(() => process.stdout.write("held\n")), Effect.never))
    )
  }
  return yield* lock.withLock(append)
})

answerAndExit(runtime, program)
