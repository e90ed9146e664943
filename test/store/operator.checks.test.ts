/**
 * What an operator checks of a shared store, through the built CLI and `dossier mcp` against the
 * test's own throwaway cluster (it changes pg_hba.conf and restarts the server, so it is skipped
 * on a server of DOSSIER_TEST_PG):
 * - a password (with `@`, `:`, `/`, `#`, `?`, `%`: %-escaped in the URL), given in the URL, in
 *   `PGPASSWORD` or in a password file, appears in no answer (`--json`, human, with
 *   `DOSSIER_DEBUG=1`), no error (a wrong password, an unreachable host, a missing database, a TLS
 *   failure, each malformed URL), no file of the folder, and no MCP answer, tool or resource;
 * - a writer that waits out the lock wait behind another session holding the shared dossier's lock
 *   answers `LockTimeout` naming that dossier, not this folder's lock;
 * - `dossier mcp` answers `StoreUnavailable` while the server is down and serves again once it is
 *   back, and after its connections are ended by `pg_terminate_backend`, without a restart.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as Pg from "pg"
import { describe, expect, it } from "vitest"
import { connect } from "../mcp/support.js"
import { type CliResult, putInput, runCli, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"

const SECRET = "Zq9@x:y%2F/#?never-shown"
const PIECES = [SECRET, encodeURIComponent(SECRET), "Zq9", "never-shown"]

/** The parts of the password found in `text`. */
const leaks = (text: string) => PIECES.filter((p) => text.includes(p))

const files = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : []
  )

describe.skipIf(!pgAvailable)("an operator's checks of a shared store", () => {
  const db = useTestDatabase()

  it(
    "the password reaches no answer, error, file or MCP reply; the MCP server outlives the server's restart",
    async (ctx) => {
      const cluster = db.cluster
      if (cluster === null || cluster.dir === null) {
        ctx.skip()
        return
      }
      await adminQuery(db.url, `CREATE ROLE dossier_pw LOGIN PASSWORD '${SECRET}'`)
      await adminQuery(db.url, `GRANT CREATE ON DATABASE ${db.name} TO dossier_pw`)
      const hba = path.join(cluster.dir, "data", "pg_hba.conf")
      fs.writeFileSync(hba, "host all dossier_pw 127.0.0.1/32 scram-sha-256\n" + fs.readFileSync(hba, "utf8"))
      await adminQuery(db.url, "SELECT pg_reload_conf()")
      const as = (password: string, edit: (u: URL) => void = () => {}) => {
        const u = new URL(db.url)
        u.username = "dossier_pw"
        u.password = password
        edit(u)
        return u.toString()
      }
      const withSecret = as(encodeURIComponent(SECRET))
      // The server asks this role for its password once pg_hba.conf is reloaded.
      for (let i = 0; i < 50; i++) {
        const r = runCli([
          "init",
          "--store",
          as(""),
          "--dossier",
          "probe",
          "--workdir",
          tempWorkdir("dossier-op-"),
          "--json"
        ])
        if (r.json?.error?.reason === "no-password") break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const shown: Array<string> = []
      const clean = (what: string, r: CliResult) => {
        expect(leaks(r.stdout + r.stderr), `${what}: ${r.stdout}${r.stderr}`).toEqual([])
        shown.push(what)
        return r
      }

      const dir = tempWorkdir("dossier-op-")
      expect(
        clean("init --store", runCli(["init", "--store", withSecret, "--dossier", "op", "--workdir", dir, "--json"]))
          .json?.ok
      )
        .toBe(true)
      clean("init --store human", runCli(["init", "--store", withSecret, "--dossier", "op", "--workdir", dir]))
      const env = { PGPASSWORD: SECRET }
      const commands: ReadonlyArray<ReadonlyArray<string>> = [
        ["plan", "start", "--input", putInput(dir, "s.json", { goal: "G", limits: [], nextAction: "n" })],
        [
          "journal",
          "append",
          "--study",
          "s",
          "--input",
          putInput(dir, "j.json", { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } })
        ],
        ["store", "status"],
        ["status"],
        ["plan", "inspect"],
        ["journal", "list"],
        ["next"],
        ["pull"],
        ["--help"],
        ["init", "--help"]
      ]
      for (const c of commands) {
        expect(clean(c.join(" "), runCli([...c, "--workdir", dir, "--json"], { env })).json?.ok, c.join(" ")).toBe(true)
        clean(`${c.join(" ")} human`, runCli([...c, "--workdir", dir], { env }))
        clean(`${c.join(" ")} debug`, runCli([...c, "--workdir", dir], { env: { ...env, DOSSIER_DEBUG: "1" } }))
      }
      const exported = path.join(tempWorkdir("dossier-op-export-"), "copy")
      expect(clean("export", runCli(["export", "--to", exported, "--workdir", dir, "--json"], { env })).json?.ok).toBe(
        true
      )

      // The password file, mode 600, with `:` escaped.
      const home = tempWorkdir("dossier-op-home-")
      fs.writeFileSync(path.join(home, ".pgpass"), `127.0.0.1:*:*:dossier_pw:${SECRET.replace(/:/g, "\\:")}\n`, {
        mode: 0o600
      })
      expect(clean("pgpass", runCli(["store", "status", "--workdir", dir, "--json"], { env: { HOME: home } })).json?.ok)
        .toBe(true)

      // Refusals and failures, each with the password in the URL (or a wrong one in PGPASSWORD).
      const refusals: ReadonlyArray<readonly [string, string, string]> = [
        ["wrong password", as(encodeURIComponent(`${SECRET}x`)), "BindingRefused"],
        ["unreachable", `postgres://dossier_pw:${encodeURIComponent(SECRET)}@127.0.0.1:1/x`, "StoreUnavailable"],
        ["no database", as(encodeURIComponent(SECRET), (u) => (u.pathname = "/no_such_db")), "BindingRefused"],
        ["TLS", as(encodeURIComponent(SECRET), (u) => u.searchParams.set("sslmode", "require")), "StoreUnavailable"],
        ["not postgres", `mysql://dossier_pw:${encodeURIComponent(SECRET)}@127.0.0.1/x`, "UsageError"],
        ["bad port", `postgres://dossier_pw:${encodeURIComponent(SECRET)}@127.0.0.1:port/x`, "UsageError"],
        ["unknown parameter", as(encodeURIComponent(SECRET), (u) => u.searchParams.set("sslmod", "x")), "UsageError"],
        [
          "password parameter",
          as(encodeURIComponent(SECRET), (u) => u.searchParams.set("password", SECRET)),
          "UsageError"
        ],
        ["unescaped", `postgres://dossier_pw:${SECRET}@127.0.0.1/x`, "UsageError"]
      ]
      for (const [what, url, tag] of refusals) {
        const r = clean(
          what,
          runCli(["init", "--store", url, "--dossier", "op", "--workdir", tempWorkdir("dossier-op-"), "--json"])
        )
        expect(r.json?.error?._tag, `${what}: ${r.stdout}`).toBe(tag)
        clean(
          `${what} human`,
          runCli(["init", "--store", url, "--dossier", "op", "--workdir", tempWorkdir("dossier-op-")], {
            env: { DOSSIER_DEBUG: "1" }
          })
        )
      }
      clean(
        "wrong PGPASSWORD",
        runCli(["plan", "inspect", "--workdir", dir], { env: { PGPASSWORD: `${SECRET}x`, DOSSIER_DEBUG: "1" } })
      )
      for (const f of [...files(dir), ...files(exported)]) {
        expect(leaks(fs.readFileSync(f, "latin1")), f).toEqual([])
      }

      // Another session holds the shared dossier's lock past the lock wait: LockTimeout names the
      // shared dossier, not this folder's lock (which no process here holds).
      const holder = new Pg.Client({ connectionString: db.url })
      await holder.connect()
      try {
        await holder.query("SELECT pg_advisory_lock(hashtextextended('dossier:op', 0))")
        const waited = runCli([
          "plan",
          "checkpoint",
          "--input",
          putInput(dir, "held.json", { completedSteps: [{ id: "h1", summary: "held" }], nextAction: "n" }),
          "--expected",
          "1",
          "--workdir",
          dir,
          "--json"
        ], { env })
        expect(waited.json?.error, waited.stdout + waited.stderr).toMatchObject({
          _tag: "LockTimeout",
          retryable: true,
          dossier: "op"
        })
        expect(waited.json.error.message).toContain("the shared dossier 'op'")
        expect(waited.json.error.message).not.toContain("work folder")
      } finally {
        await holder.end()
      }

      // MCP: answers, tools and resources; then the server stopped, started, its connections ended.
      const server = await connect(dir, env)
      try {
        for (const name of ["store_status", "status", "plan_inspect", "journal_list"]) {
          const call = await server.call(name, {})
          expect({ isError: call.isError, leaks: leaks(JSON.stringify(call)) }, name).toEqual({
            isError: false,
            leaks: []
          })
        }
        expect(leaks(JSON.stringify(await server.client.listTools()))).toEqual([])
        expect(leaks(JSON.stringify(await server.client.listResources()))).toEqual([])
        cluster.stop("fast")
        const down = await server.call("plan_inspect", {})
        expect(
          { isError: down.isError, tag: down.body?.error?._tag, retryable: down.body?.error?.retryable },
          down.text
        )
          .toEqual({ isError: true, tag: "StoreUnavailable", retryable: true })
        expect(leaks(down.text)).toEqual([])
        cluster.start()
        expect((await server.call("plan_inspect", {})).body).toMatchObject({ ok: true, revision: 1 })
        const ended = await adminQuery(
          db.url,
          "SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'dossier_pw') t"
        )
        expect(ended.rows[0]?.n).toBeGreaterThan(0)
        expect((await server.call("plan_inspect", {})).body).toMatchObject({ ok: true, revision: 1 })
        const written = await server.call("plan_checkpoint", {
          expected: 1,
          input: { completedSteps: [{ id: "s1", summary: "after the restart" }], nextAction: "n" }
        })
        expect(written.body, written.text).toMatchObject({ ok: true, revision: 2 })
        expect(leaks(server.stderr())).toEqual([])
      } finally {
        await server.client.close()
      }
      expect(shown.length).toBeGreaterThan(40)
    },
    600_000
  )
})
