/**
 * A folder bound to a database that does not hold dossier's schema (recreated empty, restored
 * without it, or another database under the same URL), through the built CLI with --json against
 * the test's own throwaway cluster: `pull` and `export --to` read as readers and refuse with
 * `StoreUnavailable` saying that a writer creates the schema (they were a Defect, exit 70: they
 * read tables that were not there), writing nothing and creating nothing; `store status` says
 * version 0; `init --store` again creates the schema, after which the same `pull` works.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type CliResult, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase, withDatabase } from "../support/postgres.js"

const unavailable = (r: CliResult) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
    code: 1,
    ok: false,
    tag: "StoreUnavailable"
  })
  expect(r.json.error.retryable).toBe(true)
  expect(r.json.error.reason).toContain("schema")
  expect(r.json.error.reason).toContain("dossier init --store")
  return r.json.error
}

describe.skipIf(!pgAvailable)("a bound folder whose database lacks dossier's schema", () => {
  const db = useTestDatabase()

  it("pull and export refuse (StoreUnavailable, nothing written); init --store again creates the schema", async () => {
    const name = `${db.name}_bare`.slice(0, 60)
    await adminQuery(db.url, `CREATE DATABASE ${name}`)
    const url = withDatabase(db.url, name)
    const dir = tempWorkdir("dossier-noschema-")
    expect(runCli(["init", "--store", url, "--dossier", "gone", "--workdir", dir, "--json"]).json?.ok).toBe(true)
    // The database loses dossier's schema (recreated, restored without it).
    await adminQuery(url, "DROP SCHEMA dossier CASCADE")
    const schemas = async () =>
      (await adminQuery(url, "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'dossier'")).rows[0]?.n

    const before = snapshot(dir)
    unavailable(runCli(["pull", "--workdir", dir, "--json"]))
    const parent = tempWorkdir("dossier-noschema-export-")
    unavailable(runCli(["export", "--to", path.join(parent, "copy"), "--workdir", dir, "--json"]))
    expect(fs.existsSync(path.join(parent, "copy"))).toBe(false)
    expect(snapshot(dir)).toEqual(before)
    expect(await schemas()).toBe(0)

    // store status reads the version itself: none.
    const status = runCli(["store", "status", "--workdir", dir, "--json"])
    expect(status.json, status.stdout + status.stderr).toMatchObject({
      ok: true,
      bound: true,
      store: { dossier: "gone", schema: { version: 0 }, exists: false }
    })

    // init --store again in the bound folder creates the schema, as the first bind did.
    const again = runCli(["init", "--store", url, "--dossier", "gone", "--workdir", dir, "--json"])
    expect(again.json, again.stdout + again.stderr).toMatchObject({
      ok: true,
      store: { dossier: "gone", imported: false, pulled: false }
    })
    expect(await schemas()).toBe(1)
    expect(runCli(["pull", "--workdir", dir, "--json"]).json).toMatchObject({ ok: true, dossier: "gone" })
    await adminQuery(db.url, `DROP DATABASE ${name}`)
  }, 120_000)
})
