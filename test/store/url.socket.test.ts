/**
 * A store URL naming a Unix-domain socket's folder, the form libpq documents
 * (`postgres://user[:password]@/database?host=/socket/folder&port=N`): bound, status, a command,
 * over the throwaway cluster's own socket. The password stays out of the binding. Skipped without
 * the server binaries, or on `DOSSIER_TEST_PG`'s server (whose socket is not the test's).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const external = (process.env.DOSSIER_TEST_PG ?? "") !== ""

describe.skipIf(!pgAvailable || external)("a store URL naming a Unix-domain socket's folder", () => {
  const db = useTestDatabase()

  it("binds with user:password@/database?host=<folder>&port=<port>, keeps the URL without the password", () => {
    const cluster = db.cluster!
    const socketUrl = (auth: string) =>
      `postgres://${auth}@/${db.name}?host=${encodeURIComponent(cluster.dir!)}&port=${cluster.port}`
    const url = socketUrl("postgres")
    const dir = tempWorkdir("dossier-socket-")
    const bound = ok(
      runCli(["init", "--store", socketUrl("postgres:unused-secret"), "--dossier", "sock", "--workdir", dir, "--json"])
    )
    expect(bound.store).toMatchObject({ url, dossier: "sock", imported: false, pulled: false })
    const binding = fs.readFileSync(path.join(dir, ".dossier/store.json"), "utf8")
    expect(JSON.parse(binding)).toEqual({ kind: "postgres", url, dossier: "sock" })
    expect(binding).not.toContain("unused-secret")
    expect(ok(runCli(["store", "status", "--workdir", dir, "--json"])).store).toMatchObject({
      url,
      reachable: true,
      exists: true
    })
    const input = putInput(dir, "j.json", { id: "c1", type: "candidate_created", candidate: { id: "c", title: "C" } })
    ok(runCli(["journal", "append", "--study", "s", "--input", input, "--workdir", dir, "--json"]))
    // The write reached the store: a folder bound over TCP reads it.
    const other = tempWorkdir("dossier-socket-tcp-")
    const pulled = ok(runCli(["init", "--store", db.url, "--dossier", "sock", "--workdir", other, "--json"]))
    expect(pulled.store.pulled).toBe(true)
    expect(ok(runCli(["journal", "list", "--workdir", other, "--json"])).studies).toMatchObject([{
      study: "s",
      events: 1
    }])
  }, 120_000)

  it("a socket URL with no host parameter is a UsageError naming the form that works", () => {
    const dir = tempWorkdir("dossier-socket-none-")
    const r = runCli([
      "init",
      "--store",
      `postgres://postgres@/${db.name}`,
      "--dossier",
      "sock",
      "--workdir",
      dir,
      "--json"
    ])
    expect(r.code).toBe(2)
    expect(r.json?.error).toMatchObject({ _tag: "UsageError" })
    expect(r.json?.error.message).toContain("postgres://user@/database?host=/socket/folder")
    expect(fs.existsSync(path.join(dir, ".dossier/store.json"))).toBe(false)
  })
})
