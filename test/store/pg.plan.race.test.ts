/**
 * `plan checkpoint` racing from several processes on one shared dossier, through the library's
 * layers (`PlanLive` over `PlanStorePostgres`, `PgLockLayer` as the `Lock`; each process its own
 * pool and work folder, started at the same instant): one winner, the rest `StaleRevision`, and
 * only the winner's registered bytes stored.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"
import { bundleWorker, runWorkers as runWorkersOf } from "./support/workers.js"

const HOSTS = 6

interface Answer {
  readonly ok: boolean
  readonly value?: unknown
  readonly tag?: string
}

describe.skipIf(!pgAvailable)("plan checkpoints racing from several processes", () => {
  let db: TestDatabase
  let dir: string
  let worker: string
  beforeAll(async () => {
    db = await openTestDatabase()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-plan-race-"))
    worker = await bundleWorker("pgPlanWorker", dir)
  }, 60_000)
  afterAll(async () => {
    await db?.close()
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true })
  })

  const runWorkers = (jobs: ReadonlyArray<object>) => runWorkersOf<Answer>(worker, jobs)

  it("N processes racing plan checkpoint at revision 1: one winner, the rest StaleRevision", async () => {
    const dossier = "plan-race-processes"
    const [started] = await runWorkers([{ url: db.url, dossier, op: "start", startAt: 0, index: 0 }])
    expect(started).toEqual({ ok: true, value: { revision: 1, created: true } })
    const startAt = Date.now() + 3_000
    const answers = await runWorkers(
      Array.from({ length: HOSTS }, (_, index) => ({ url: db.url, dossier, op: "checkpoint", startAt, index }))
    )
    const winners = answers.flatMap((a, i) => (a.ok ? [{ i, a }] : []))
    expect(winners.map((w) => w.a)).toEqual([{ ok: true, value: { revision: 2 } }])
    expect(answers.filter((a) => !a.ok).map((a) => a.tag)).toEqual(Array(HOSTS - 1).fill("StaleRevision"))
    const w = winners[0]!.i
    const plan = await adminQuery(
      db.url,
      "SELECT revision, value FROM dossier.records WHERE dossier = $1 AND kind = 'plan'",
      [dossier]
    )
    expect(plan.rows).toHaveLength(1)
    expect(plan.rows[0]!.revision).toBe(2)
    const doc = JSON.parse(String(plan.rows[0]!.value)).document
    expect(doc.completedSteps.map((s: { summary: string }) => s.summary)).toEqual([`racer ${w}`])
    const content = await adminQuery(db.url, "SELECT sha256 FROM dossier.content WHERE dossier = $1", [dossier])
    expect(content.rows).toEqual([{ sha256: createHash("sha256").update(`racer ${w}\n`).digest("hex") }])
  }, 120_000)
})
