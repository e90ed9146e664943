/**
 * Racing writers from several processes on one shared dossier (each its own process, pool and
 * connection, started at the same instant): compare-and-set has exactly one winner, and the same
 * journal batch sent by every process is stored once.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"
import { bundleWorker, runWorkers as runWorkersOf } from "./support/workers.js"

const WRITERS = 6

interface Answer {
  readonly ok: boolean
  readonly value?: unknown
  readonly tag?: string
}

describe.skipIf(!pgAvailable)("racing writers from several processes", () => {
  let db: TestDatabase
  let dir: string
  let worker: string
  beforeAll(async () => {
    db = await openTestDatabase()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-race-"))
    worker = await bundleWorker("pgWorker", dir)
  })
  afterAll(async () => {
    await db?.close()
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true })
  })

  const runWorkers = (jobs: ReadonlyArray<object>) => runWorkersOf<Answer>(worker, jobs)

  it("N processes racing a checkpoint at revision 1: one winner at revision 2, the rest StaleRevision", async () => {
    const dossier = "race-cas"
    // Revision 1 first, from one process (which also creates the schema on this fresh database).
    const [created] = await runWorkers([{
      url: db.url,
      dossier,
      op: "checkpoint",
      startAt: 0,
      expected: null,
      value: "r1"
    }])
    expect(created).toEqual({ ok: true, value: 1 })
    const startAt = Date.now() + 3_000
    const answers = await runWorkers(
      Array.from(
        { length: WRITERS },
        (_, i) => ({ url: db.url, dossier, op: "checkpoint", startAt, expected: 1, value: `writer ${i}` })
      )
    )
    const winners = answers.filter((a) => a.ok)
    expect(winners).toEqual([{ ok: true, value: 2 }])
    expect(answers.filter((a) => !a.ok).map((a) => a.tag)).toEqual(Array(WRITERS - 1).fill("StaleRevision"))
    const rows = await adminQuery(db.url, "SELECT revision, value FROM dossier.records WHERE dossier = $1", [dossier])
    expect(rows.rows).toHaveLength(1)
    expect(rows.rows[0]!.revision).toBe(2)
    expect(JSON.parse(String(rows.rows[0]!.value))).toMatch(/^writer \d$/)
  }, 120_000)

  it("the same batch from N processes at once: each event stored once, in batch order", async () => {
    const dossier = "race-batch"
    const batch = Array.from({ length: 20 }, (_, i) => {
      const event = `event ${i}`
      return {
        id: `e${String(i).padStart(2, "0")}`,
        digest: createHash("sha256").update(JSON.stringify(event)).digest("hex"),
        event
      }
    })
    const startAt = Date.now() + 3_000
    const answers = await runWorkers(
      Array.from({ length: WRITERS }, () => ({ url: db.url, dossier, op: "append", startAt, batch }))
    )
    for (const a of answers) expect(a.ok, JSON.stringify(a)).toBe(true)
    const outcomes = answers.map((a) => a.value as { appended: Array<string>; existing: Array<string> })
    // One process stored the whole batch; every other found all of it there.
    const ids = batch.map((e) => e.id)
    expect(outcomes.filter((o) => o.appended.length > 0).map((o) => o.appended)).toEqual([ids])
    expect(outcomes.filter((o) => o.appended.length === 0).map((o) => o.existing)).toEqual(Array(WRITERS - 1).fill(ids))
    const rows = await adminQuery(
      db.url,
      "SELECT id, position FROM dossier.events WHERE dossier = $1 ORDER BY position",
      [dossier]
    )
    expect(rows.rows.map((r) => r.id)).toEqual(ids)
    expect(rows.rows.map((r) => r.position)).toEqual(ids.map((_, i) => i + 1))
  }, 120_000)
})
