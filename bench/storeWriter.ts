/**
 * One journal writer of the store suite (bench/store.ts), run as its own process (bundled by the
 * suite): `node storeWriter.mjs <json>` with `{url, dossier, workdir, study, writer, events,
 * batch}`. It builds `DossierPostgres` (connects, checks the schema), prints `ready`, waits for
 * one line on stdin (the start, given to every writer at once), then appends `events` events to
 * its study in batches of `batch` through the `Journal` service — the first event creates the
 * writer's candidate, the others evaluate it; ids `<study>-w<writer>-<k>` — and prints
 * `{appended, skipped, retries}` as its last line. A retryable failure (`StoreUnavailable`,
 * `LockTimeout`) is retried with the same batch, as a client would: the ids make it idempotent.
 */
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type { JournalEvent } from "../src/domain/Journal.js"
import { DossierPostgres } from "../src/layers/DossierPostgres.js"
import { Journal } from "../src/services/Journal.js"

interface Job {
  readonly url: string
  readonly dossier: string
  readonly workdir: string
  readonly study: string
  readonly writer: number
  readonly events: number
  readonly batch: number
}

const job = JSON.parse(process.argv[2]!) as Job
const study = `${job.study}-w${job.writer}`
const candidate = `cand-w${job.writer}`
const eventAt = (k: number): JournalEvent =>
  k === 0
    ? { id: `${study}-0`, type: "candidate_created", candidate: { id: candidate, title: candidate } }
    : {
      id: `${study}-${k}`,
      type: "evaluation_recorded",
      at: "2026-12-02T10:00:00.000Z",
      candidateId: candidate,
      evaluation: { evaluatorVersion: "ev-1", metrics: { accuracy: 0.5 + k / 10_000 }, decision: "inconclusive" }
    }

const runtime = ManagedRuntime.make(DossierPostgres({ url: job.url, dossier: job.dossier, workdir: job.workdir }))
const RETRYABLE = new Set(["StoreUnavailable", "LockTimeout"])

const main = async () => {
  const journal = await runtime.runPromise(Journal)
  process.stdout.write("ready\n")
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()))
  let appended = 0
  let skipped = 0
  let retries = 0
  for (let k = 0; k < job.events; k += job.batch) {
    const batch = Array.from({ length: Math.min(job.batch, job.events - k) }, (_, i) => eventAt(k + i))
    for (;;) {
      const r = await runtime.runPromise(Effect.either(journal.append(study, batch)))
      if (r._tag === "Right") {
        appended += r.right.appended.length
        skipped += r.right.skipped.length
        break
      }
      if (!RETRYABLE.has(r.left._tag) || retries >= 100) throw new Error(`append refused: ${JSON.stringify(r.left)}`)
      retries++
    }
  }
  process.stdout.write(`${JSON.stringify({ appended, skipped, retries })}\n`)
  await runtime.dispose()
  process.exit(0)
}

main().catch((e) => {
  process.stderr.write(`${String(e)}\n`)
  process.exit(1)
})
