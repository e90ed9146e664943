/**
 * A server that refuses the binding itself, through the built CLI with --json against the test's
 * own throwaway cluster: a wrong password (SQLSTATE 28P01), a role pg_hba.conf rejects (28000) and
 * a database the server does not have (3D000), and a password the server asks for that the client
 * does not have, answer the same whenever the command is run again unchanged, so each is
 * `BindingRefused` (exit 1, not retryable) with its own `reason`, never `StoreUnavailable`
 * (retryable), and the password is never shown.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Pg from "pg"
import { describe, expect, it } from "vitest"
import { DossierPostgres } from "../../src/postgres.js"
import * as Errors from "../../src/public/Errors.js"
import { type CliResult, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase, withDatabase } from "../support/postgres.js"

const WRONG = "wrong-Kx7-never-shown"

const refused = (r: CliResult, reason: string) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
    code: 1,
    ok: false,
    tag: "BindingRefused"
  })
  expect(r.json.error).toMatchObject({ reason, retryable: false })
  expect(r.stdout + r.stderr).not.toContain(WRONG)
  return r.json.error
}

/** A folder bound to `dossier` at `url` (as `init --store` writes it). */
const boundTo = (url: string, dossier: string) => {
  const dir = tempWorkdir("dossier-refused-")
  fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
  fs.writeFileSync(path.join(dir, ".dossier/store.json"), JSON.stringify({ kind: "postgres", url, dossier }))
  return dir
}

/** Whether connecting as `url` with `password` is refused with the SQLSTATE `code` (pg_hba.conf reloaded). */
const refusedWith = async (url: string, password: string, code: string) => {
  const u = new URL(url)
  u.password = password
  const client = new Pg.Client({ connectionString: u.toString() })
  try {
    await client.connect()
    await client.end()
    return false
  } catch (e) {
    return (e as { code?: string }).code === code
  }
}

describe.skipIf(!pgAvailable)("a server that refuses the binding", () => {
  const db = useTestDatabase()

  it("a database the server does not have: BindingRefused no-database, from init --store and a bound folder", () => {
    const missing = withDatabase(db.url, "no_such_database")
    const dir = tempWorkdir("dossier-refused-init-")
    const before = snapshot(dir)
    const init = refused(
      runCli(["init", "--store", missing, "--dossier", "q1", "--workdir", dir, "--json"]),
      "no-database"
    )
    expect(init).toMatchObject({ command: "init", dossier: "q1" })
    expect(init.message).toContain("does not exist")
    expect(snapshot(dir)).toEqual(before)
    const bound = boundTo(missing, "q1")
    for (const args of [["plan", "inspect"], ["store", "status"], ["pull"]]) {
      const e = refused(runCli([...args, "--workdir", bound, "--json"]), "no-database")
      expect(e, args.join(" ")).toMatchObject({ command: args.join(" "), dossier: "q1" })
    }
  }, 60_000)

  it("a wrong password (28P01) and a role pg_hba.conf rejects (28000): BindingRefused credentials", async (ctx) => {
    const cluster = db.cluster
    // On a server of DOSSIER_TEST_PG this test cannot change pg_hba.conf.
    if (cluster === null || cluster.dir === null) {
      ctx.skip()
      return
    }
    await adminQuery(cluster.adminUrl, "CREATE ROLE dossier_pw LOGIN PASSWORD 'right-pw'")
    await adminQuery(cluster.adminUrl, "CREATE ROLE dossier_rejected LOGIN")
    const hba = path.join(cluster.dir, "data", "pg_hba.conf")
    // The first line that matches decides: these two come before the cluster's trust lines.
    fs.writeFileSync(
      hba,
      "host all dossier_pw 127.0.0.1/32 scram-sha-256\nhost all dossier_rejected 127.0.0.1/32 reject\n" +
        fs.readFileSync(hba, "utf8")
    )
    await adminQuery(cluster.adminUrl, "SELECT pg_reload_conf()")
    const as = (user: string) => {
      const u = new URL(db.url)
      u.username = user
      return u.toString()
    }
    for (let i = 0; i < 50 && !(await refusedWith(as("dossier_pw"), WRONG, "28P01")); i++) {
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(await refusedWith(as("dossier_pw"), WRONG, "28P01")).toBe(true)

    const env = { PGPASSWORD: WRONG }
    const dir = tempWorkdir("dossier-refused-pw-")
    const before = snapshot(dir)
    const init = refused(
      runCli(["init", "--store", as("dossier_pw"), "--dossier", "q1", "--workdir", dir, "--json"], { env }),
      "credentials"
    )
    expect(init.message).toContain("28P01")
    expect(snapshot(dir)).toEqual(before)
    for (const user of ["dossier_pw", "dossier_rejected"]) {
      const bound = boundTo(as(user), "q1")
      for (const args of [["status"], ["store", "status"]]) {
        const e = refused(runCli([...args, "--workdir", bound, "--json"], { env }), "credentials")
        expect(e, `${user} ${args.join(" ")}`).toMatchObject({ command: args.join(" "), dossier: "q1" })
      }
    }

    // No password at all (none in the URL, PGPASSWORD or the password file): node-postgres refuses
    // before the server answers, and running the command again unchanged never helps.
    const none = { PGPASSWORD: "", PGPASSFILE: path.join(tempWorkdir("dossier-refused-nopass-"), "pgpass") }
    const fresh = tempWorkdir("dossier-refused-nopw-")
    const untouched = snapshot(fresh)
    const first = refused(
      runCli(["init", "--store", as("dossier_pw"), "--dossier", "q1", "--workdir", fresh, "--json"], { env: none }),
      "no-password"
    )
    expect(first).toMatchObject({ command: "init", dossier: "q1" })
    expect(first.message).toContain("PGPASSWORD")
    expect(first.hint).toContain("~/.pgpass")
    expect(snapshot(fresh)).toEqual(untouched)
    const nopw = boundTo(as("dossier_pw"), "q1")
    // The server's own bound on a client that never answers its password request.
    const shown = await adminQuery(
      cluster.adminUrl,
      "SELECT setting::int * 1000 AS ms FROM pg_settings WHERE name = 'authentication_timeout'"
    )
    const authenticationTimeout = Number(shown.rows[0]!.ms)
    expect(authenticationTimeout).toBeGreaterThanOrEqual(60_000)
    for (const args of [["status"], ["store", "status"], ["plan", "inspect"], ["journal", "list"]]) {
      const started = Date.now()
      const e = refused(runCli([...args, "--workdir", nopw, "--json"], { env: none }), "no-password")
      expect(e, args.join(" ")).toMatchObject({ command: args.join(" "), dossier: "q1" })
      // The process ends with its answer: the socket the client gave up on is closed, not left
      // to the server's authentication_timeout (a minute), which a client waiting on the server
      // would wait out whole. (That bound, not a guess at a loaded machine's speed.)
      expect(Date.now() - started, args.join(" ")).toBeLessThan(authenticationTimeout)
    }
    // The right password still works: the refusal was the missing one.
    const right = runCli(["store", "status", "--workdir", nopw, "--json"], { env: { PGPASSWORD: "right-pw" } })
    expect(right.json?.ok, right.stdout + right.stderr).toBe(true)
  }, 240_000)

  it(
    "the library: StoreUnavailable whose reason says what is wrong and that trying again will not help, never retryable, the password nowhere",
    async (ctx) => {
      const cluster = db.cluster
      if (cluster === null || cluster.dir === null) {
        ctx.skip()
        return
      }
      await adminQuery(cluster.adminUrl, "CREATE ROLE dossier_lib LOGIN PASSWORD 'lib-right-pw'")
      const hba = path.join(cluster.dir, "data", "pg_hba.conf")
      fs.writeFileSync(hba, "host all dossier_lib 127.0.0.1/32 scram-sha-256\n" + fs.readFileSync(hba, "utf8"))
      await adminQuery(cluster.adminUrl, "SELECT pg_reload_conf()")
      const as = (user: string, password: string, url = db.url) => {
        const u = new URL(url)
        u.username = user
        u.password = password
        return u.toString()
      }
      for (let i = 0; i < 50 && !(await refusedWith(as("dossier_lib", ""), WRONG, "28P01")); i++) {
        await new Promise((r) => setTimeout(r, 100))
      }
      const workdir = tempWorkdir("dossier-refused-lib-")
      /** What building `DossierPostgres` over `url` fails with (the password given in the URL itself). */
      const failure = async (url: string) => {
        const exit = await Effect.runPromise(
          Effect.exit(
            Effect.scoped(Layer.build(DossierPostgres({ url, dossier: "q1", workdir, connectTimeoutMs: 10_000 })))
          )
        )
        if (!(Exit.isFailure(exit) && Cause.isFailType(exit.cause))) throw new Error(`not a failure: ${String(exit)}`)
        return exit.cause.error as Errors.StoreUnavailable
      }
      for (
        const [url, says] of [
          [as("dossier_lib", WRONG), "28P01"],
          [as("dossier_lib", WRONG, withDatabase(db.url, "no_such_database")), "28P01"],
          [withDatabase(db.url, "no_such_database"), "3D000"]
        ] as const
      ) {
        const e = await failure(url)
        expect(e._tag, url.replace(WRONG, "…")).toBe("StoreUnavailable")
        expect(e).toBeInstanceOf(Errors.StoreUnavailable)
        expect(e.reason).toContain(says)
        // What is wrong, and that the same call again will not help: never counted as retryable.
        expect(e.reason).toContain("will not help")
        expect(Errors.retryable(e)).toBe(false)
        expect(Errors.hint(e)).toContain("will not help")
        expect(Errors.hint(e)).not.toContain("run the same command again")
        for (const text of [e.message, e.reason, Errors.hint(e), JSON.stringify(e), String(e)]) {
          expect(text).not.toContain(WRONG)
        }
      }
      // A server out of reach stays retryable, its hint to try again.
      const gone = await failure("postgres://127.0.0.1:1/research")
      expect(gone._tag).toBe("StoreUnavailable")
      expect(Errors.retryable(gone)).toBe(true)
      expect(Errors.retryable("StoreUnavailable")).toBe(true)
    },
    120_000
  )
})
