/** The test cluster itself: a fresh database answers, and the server stops and starts again. */
import { describe, expect, it } from "vitest"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"

describe.skipIf(!pgAvailable)("the test's own PostgreSQL", () => {
  const db = useTestDatabase()

  it("serves a fresh, empty database on 127.0.0.1", async () => {
    const r = await adminQuery(
      db.url,
      "SELECT current_database() AS name, count(*)::int AS tables FROM pg_tables WHERE schemaname = 'public'"
    )
    expect(r.rows[0]).toEqual({ name: db.name, tables: 0 })
    expect(new URL(db.url).hostname).toBe("127.0.0.1")
  })

  it.skipIf(process.env.DOSSIER_TEST_PG)("stops and starts again with its data", async () => {
    await adminQuery(db.url, "CREATE TABLE kept (n int)")
    await adminQuery(db.url, "INSERT INTO kept VALUES (7)")
    db.cluster!.stop("immediate")
    await expect(adminQuery(db.url, "SELECT 1")).rejects.toThrow()
    db.cluster!.start()
    const r = await adminQuery(db.url, "SELECT n FROM kept")
    expect(r.rows).toEqual([{ n: 7 }])
  })
})
