/**
 * Binding a folder and moving a dossier, through the built CLI with --json: `init --store`,
 * `store status`, `pull` and `export --to`, against the test's own throwaway cluster (skipped with
 * a note without the server binaries). The password given in a URL never reaches store.json, an
 * answer, an error or any file. `export` of an unbound folder, read back as a folder, gives the
 * same answers.
 *
 * Over 400 lines: binding, pulling and exporting share one cluster and one set of folders here, so
 * each case reads beside the set-up it relies on.
 */
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as fs from "node:fs"
import * as path from "node:path"
import * as Pg from "pg"
import { describe, expect, it } from "vitest"
import { makeGrantStorePostgres } from "../../src/layers/postgres/GrantStorePostgres.js"
import { SCHEMA_VERSION } from "../../src/layers/postgres/PgSchema.js"
import { PgStore, PgStoreLayer } from "../../src/layers/postgres/PgStore.js"
import { type CliResult, leaksNothing, putInput, runCli, runCliAsync, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, freePort, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { addEvidence, evidenceAnswers, GRANT_ROOTS } from "./support/evidence.js"
import { NOW, ok, populated } from "./support/populated.js"

const PASSWORD = "pw-Zq8-never-shown"

/** The URL with a password in it (the test cluster trusts its clients, so any password connects). */
const withPassword = (url: string) => {
  const u = new URL(url)
  u.password = PASSWORD
  return u.toString()
}
const withoutPassword = (url: string) => {
  const u = new URL(url)
  u.password = ""
  return u.toString()
}

/** No file under the folder, and nothing the command printed, holds the password. */
const noPassword = (dir: string, r: CliResult) => {
  expect(r.stdout + r.stderr).not.toContain(PASSWORD)
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = path.join(rel, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) expect(fs.readFileSync(path.join(dir, p), "latin1"), p).not.toContain(PASSWORD)
    }
  }
  walk("")
}

const refused = (r: CliResult, tag: string) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
    code: r.code === 2 ? 2 : 1,
    ok: false,
    tag
  })
  return r.json.error
}

const storeFile = (dir: string) => path.join(dir, ".dossier/store.json")

/** A new folder whose plan `plan start` made with `goal`. */
const planned = (prefix: string, goal: string) => {
  const dir = tempWorkdir(prefix)
  ok(runCli([
    "plan",
    "start",
    "--workdir",
    dir,
    "--input",
    putInput(dir, "s.json", { goal, limits: [], nextAction: "n" }),
    "--json"
  ]))
  return dir
}

describe("export of an unbound folder", () => {
  it("is a plain folder that gives the same answers", async () => {
    const dir = await populated()
    const out = path.join(tempWorkdir("dossier-export-"), "copy")
    const r = ok(runCli(["export", "--to", out, "--workdir", dir, "--json"])).transfer
    expect(r.plan).toEqual({ revision: 2, copied: true })
    expect(r.journals).toEqual([{ study: "s", events: 3 }, { study: "t", events: 1 }])
    expect({ kept: r.kept, missing: r.missing, runs: r.runs, reports: r.reports }).toEqual({
      kept: [],
      missing: [],
      runs: 1,
      reports: 1
    })
    expect(fs.existsSync(storeFile(out))).toBe(false)
    const answers = (d: string) => ({
      plan: runCli(["plan", "inspect", "--workdir", d, "--json"]).json,
      journals: runCli(["journal", "list", "--workdir", d, "--json"]).json,
      s: runCli(["journal", "inspect", "--study", "s", "--verify", "--workdir", d, "--json"]).json,
      t: runCli(["journal", "inspect", "--study", "t", "--workdir", d, "--json"]).json,
      monitor: runCli(["monitor", "list", "--workdir", d, "--json"]).json,
      unresolved: runCli(["monitor", "unresolved-outcomes", "--workdir", d, "--json"]).json,
      next: runCli(["next", "--workdir", d, "--now", NOW, "--json"]).json
    })
    const before = answers(dir)
    expect(before.plan.ok).toBe(true)
    expect(before.s.ok).toBe(true)
    expect(before.monitor.runs).toHaveLength(1)
    expect(answers(out)).toEqual(before)
  }, 120_000)

  it("answers the folder it wrote relative to the work folder, never as an absolute path", () => {
    const dir = planned("dossier-export-src-", "G")
    const parent = tempWorkdir("dossier-export-rel-")
    const shown = (to: string) => path.relative(fs.realpathSync(dir), fs.realpathSync(to)).split(path.sep).join("/")
    const out = path.join(parent, "copy")
    const r = runCli(["export", "--to", out, "--workdir", dir, "--json"])
    expect(ok(r).to).toBe(shown(out))
    expect(r.json.to).toMatch(/^\.\.\//)
    expect(r.stdout).not.toContain(parent)
    // Relative to the current directory as given, answered relative to the work folder.
    const human = runCli(["export", "--to", "again", "--workdir", dir], { cwd: parent })
    expect(human.code).toBe(0)
    expect(human.stdout).toContain(`exported to ${shown(path.join(parent, "again"))}\n`)
    expect(human.stdout).not.toContain(parent)
  })

  it("refuses a folder that holds state or is bound (BindingRefused, exit 1), and the work folder itself", () => {
    const dir = planned("dossier-export-src-", "G")
    const other = planned("dossier-export-busy-", "Other")
    const busy = snapshot(other)
    const r = runCli(["export", "--to", other, "--workdir", dir, "--json"])
    const target = path.relative(fs.realpathSync(dir), fs.realpathSync(other)).split(path.sep).join("/")
    expect(refused(r, "BindingRefused")).toMatchObject({
      command: "export",
      dossier: null,
      reason: "target-state",
      target,
      retryable: false
    })
    expect(r.code).toBe(1)
    expect(r.json.error.message).toContain(`${target} already holds a dossier's state`)
    expect(r.json.error.message).not.toContain("plan plan")
    // The way out of this reason, not a list of every reason's.
    expect(r.json.error.hint).toContain("Export into an empty or new folder")
    expect(r.json.error.hint).not.toMatch(/pg_hba|PGPASSWORD|privilege|dossier init --store/)
    expect(leaksNothing(dir, r)).toBe(true)
    expect(leaksNothing(other, r)).toBe(true)
    expect(snapshot(other)).toEqual(busy)
    // A folder bound to a shared store: refused the same way, before anything is read from it.
    const linked = tempWorkdir("dossier-export-linked-")
    fs.mkdirSync(path.join(linked, ".dossier"))
    fs.writeFileSync(storeFile(linked), JSON.stringify({ kind: "postgres", url: "postgres://h/db", dossier: "q" }))
    const b = runCli(["export", "--to", linked, "--workdir", dir, "--json"])
    expect(refused(b, "BindingRefused")).toMatchObject({ reason: "target-bound", dossier: null })
    expect({ code: b.code, leaks: leaksNothing(linked, b) }).toEqual({ code: 1, leaks: true })
    refused(runCli(["export", "--to", dir, "--workdir", dir, "--json"]), "UsageError")
  })

  it("refuses a folder inside the work folder, before making anything", () => {
    const dir = planned("dossier-export-src-", "G")
    fs.mkdirSync(path.join(dir, "research/sources"), { recursive: true })
    const before = snapshot(dir)
    for (const to of ["research/sources", "research/sources/copy", ".dossier/x", "research/new/copy"]) {
      const r = runCli(["export", "--to", path.join(dir, to), "--workdir", dir, "--json"])
      expect(refused(r, "UsageError").message, to).toContain("inside the work folder")
      expect(leaksNothing(dir, r)).toBe(true)
    }
    expect(snapshot(dir)).toEqual(before)
    expect(fs.existsSync(path.join(dir, "research/new"))).toBe(false)
  })

  it("refuses a --to that names a file, or a folder under one: IoError at the path relative to the work folder", () => {
    const dir = planned("dossier-export-src-", "G")
    const parent = tempWorkdir("dossier-export-file-")
    const file = path.join(parent, "notes.txt")
    fs.writeFileSync(file, "not a folder")
    const before = snapshot(parent)
    for (const [to, code] of [[file, "EEXIST"], [path.join(file, "copy"), "ENOTDIR"]] as const) {
      const r = runCli(["export", "--to", to, "--workdir", dir, "--json"])
      const shown = path.relative(fs.realpathSync(dir), to).split(path.sep).join("/")
      // As `to` and `target` are: never the machine's absolute path, however --to was given.
      expect(refused(r, "IoError"), to).toMatchObject({ path: shown, operation: "mkdir", code })
      expect(r.stdout).not.toContain(parent)
      expect(leaksNothing(dir, r)).toBe(true)
    }
    expect(snapshot(parent)).toEqual(before)
  })

  it("pull and store status in an unbound folder", () => {
    const dir = tempWorkdir()
    expect(ok(runCli(["store", "status", "--workdir", dir, "--json"]))).toEqual({ ok: true, bound: false, store: null })
    // A well-formed command line the folder's state refuses: a typed refusal, exit 1, not a usage error.
    const r = runCli(["pull", "--workdir", dir, "--json"])
    expect(r.code).toBe(1)
    expect(refused(r, "BindingRefused")).toMatchObject({ command: "pull", dossier: null, retryable: false })
    expect(r.json.error.hint).toContain("dossier init --store")
    expect(r.json.error.hint).not.toMatch(/pg_hba|PGPASSWORD|export/)
    expect(fs.readdirSync(dir)).toEqual([])
  })
})

/** Every entry under `dir` (directories, the lock file and links too), to show nothing was left. */
const entries = (dir: string): Array<string> => {
  const out: Array<string> = []
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel === "" ? e.name : `${rel}/${e.name}`
      out.push(p)
      if (e.isDirectory()) walk(p)
    }
  }
  walk("")
  return out.sort()
}

describe("a failed export leaves the file system as it found it", () => {
  /** A folder bound to a store that cannot be reached (a closed port on 127.0.0.1). */
  const unreachable = async () => {
    const dir = tempWorkdir("dossier-export-down-")
    fs.mkdirSync(path.join(dir, ".dossier"))
    fs.writeFileSync(
      storeFile(dir),
      `${
        JSON.stringify({ kind: "postgres", url: `postgres://someone@127.0.0.1:${await freePort()}/db`, dossier: "x" })
      }\n`
    )
    return dir
  }

  it("a store out of reach: StoreUnavailable, and no folder it made is left (nor its parents)", async () => {
    const dir = await unreachable()
    const parent = tempWorkdir("dossier-export-down-to-")
    for (const to of ["new", "a/b/c"]) {
      const r = runCli(["export", "--to", to, "--workdir", dir, "--json"], { cwd: parent })
      expect(refused(r, "StoreUnavailable").retryable).toBe(true)
      expect(entries(parent), to).toEqual([])
    }
    // A folder that was there (empty, or holding a file of the user's) is left as it was found.
    fs.mkdirSync(path.join(parent, "empty"))
    fs.mkdirSync(path.join(parent, "mine"))
    fs.writeFileSync(path.join(parent, "mine/notes.txt"), "mine\n")
    for (const to of ["empty", "mine"]) {
      refused(runCli(["export", "--to", to, "--workdir", dir, "--json"], { cwd: parent }), "StoreUnavailable")
    }
    expect(entries(parent)).toEqual(["empty", "mine", "mine/notes.txt"])
  }, 60_000)

  it("a failure after files were written: what the export wrote is removed", () => {
    const dir = planned("dossier-export-late-", "G")
    // The gate's attempts log is copied last, after the plan: a symlink there is refused then.
    fs.mkdirSync(path.join(dir, ".dossier/gate"), { recursive: true })
    const outside = tempWorkdir("dossier-export-late-outside-")
    fs.writeFileSync(path.join(outside, "log"), "x\n")
    fs.symlinkSync(path.join(outside, "log"), path.join(dir, ".dossier/gate/attempted.jsonl"))
    const parent = tempWorkdir("dossier-export-late-to-")
    refused(runCli(["export", "--to", path.join(parent, "copy"), "--workdir", dir, "--json"]), "UnsafePath")
    expect(entries(parent)).toEqual([])
    fs.mkdirSync(path.join(parent, "there"))
    fs.writeFileSync(path.join(parent, "there/notes.txt"), "mine\n")
    refused(runCli(["export", "--to", path.join(parent, "there"), "--workdir", dir, "--json"]), "UnsafePath")
    expect(entries(parent)).toEqual(["there", "there/notes.txt"])
    expect(fs.readFileSync(path.join(parent, "there/notes.txt"), "utf8")).toBe("mine\n")
    // Once the log is a plain file again, the same export succeeds into the folder that was kept.
    fs.rmSync(path.join(dir, ".dossier/gate/attempted.jsonl"))
    ok(runCli(["export", "--to", path.join(parent, "there"), "--workdir", dir, "--json"]))
    expect(fs.existsSync(path.join(parent, "there/plan.md"))).toBe(true)
  })
})

describe.skipIf(!pgAvailable)("init --store and store status against a real server", () => {
  const db = useTestDatabase()

  it("binds an empty folder: store.json without the password, the dossier created, status reachable", async () => {
    const dir = tempWorkdir("dossier-bind-")
    const r = runCli(["init", "--store", withPassword(db.url), "--dossier", "team-a", "--workdir", dir, "--json"])
    const answer = ok(r)
    expect(answer.store).toEqual({
      kind: "postgres",
      url: withoutPassword(db.url),
      dossier: "team-a",
      imported: false,
      pulled: false
    })
    expect(answer.paths).toContain(".dossier/.gitignore")
    expect(JSON.parse(fs.readFileSync(storeFile(dir), "utf8"))).toEqual({
      kind: "postgres",
      url: withoutPassword(db.url),
      dossier: "team-a"
    })
    noPassword(dir, r)
    const rows = await adminQuery(db.url, "SELECT name FROM dossier.dossiers WHERE name = $1", ["team-a"])
    expect(rows.rows).toEqual([{ name: "team-a" }])

    const s = runCli(["store", "status", "--workdir", dir, "--json"])
    expect(ok(s)).toEqual({
      ok: true,
      bound: true,
      store: {
        kind: "postgres",
        url: withoutPassword(db.url),
        dossier: "team-a",
        schema: { version: SCHEMA_VERSION, supported: SCHEMA_VERSION },
        exists: true,
        reachable: true
      }
    })
    noPassword(dir, s)

    // The same binding again changes nothing; another is refused.
    const before = snapshot(dir)
    expect(ok(runCli(["init", "--store", db.url, "--dossier", "team-a", "--workdir", dir, "--json"])).store.dossier)
      .toBe("team-a")
    // The command line is well-formed: the folder's binding refuses it (exit 1), naming the dossier.
    const other = runCli(["init", "--store", db.url, "--dossier", "team-b", "--workdir", dir, "--json"])
    expect(refused(other, "BindingRefused")).toMatchObject({
      command: "init",
      dossier: "team-a",
      reason: "bound-elsewhere",
      retryable: false
    })
    expect(other.code).toBe(1)
    expect(snapshot(dir)).toEqual(before)
  }, 60_000)

  it("takes the URL from DOSSIER_STORE when --store is not given", () => {
    const dir = tempWorkdir("dossier-bind-env-")
    const r = runCli(["init", "--dossier", "team-env", "--workdir", dir, "--json"], {
      env: { DOSSIER_STORE: withPassword(db.url) }
    })
    expect(ok(r).store.url).toBe(withoutPassword(db.url))
    noPassword(dir, r)
  }, 60_000)

  it(
    "refuses a folder holding state bound to a dossier that has state (StoreConflict), and changes nothing",
    async () => {
      const busy = tempWorkdir("dossier-bind-busy-")
      ok(runCli(["init", "--store", db.url, "--dossier", "busy", "--workdir", busy, "--json"]))
      // The shared dossier gets state (a record), as another host's import would give it.
      await adminQuery(
        db.url,
        "INSERT INTO dossier.records (dossier, kind, key, revision, value) VALUES ('busy', 'plan', 'plan', 1, '{}')"
      )
      const dir = planned("dossier-bind-mine-", "Mine")
      const before = snapshot(dir)
      const r = runCli(["init", "--store", withPassword(db.url), "--dossier", "busy", "--workdir", dir, "--json"])
      expect(refused(r, "StoreConflict")).toMatchObject({ dossier: "busy", retryable: false })
      noPassword(dir, r)
      expect(snapshot(dir)).toEqual(before)
    },
    60_000
  )

  it(
    "round trip: a folder holding state imported into a new dossier, bound from another folder, exported: the same answers",
    async () => {
      const a = await populated()
      const execution = await addEvidence(a)
      const evidence = evidenceAnswers(a, execution)
      expect([evidence.list.ok, evidence.g1.ok, evidence.g2.ok, evidence.execution.ok]).toEqual([
        true,
        true,
        true,
        true
      ])
      /** The grant and exec answers in `d`, its grants' roots (this host's files) made as in `a`. */
      const evidenceIn = (d: string) => {
        fs.cpSync(path.join(a, GRANT_ROOTS), path.join(d, GRANT_ROOTS), { recursive: true })
        return evidenceAnswers(d, execution)
      }
      // The read-only answers, asked at once (each is its own process).
      const answers = async (d: string) => {
        const ask = (args: ReadonlyArray<string>) =>
          runCliAsync([...args, "--workdir", d, "--json"]).then((r) => r.json)
        const [plan, journals, s, t, monitor, unresolved] = await Promise.all([
          ask(["plan", "inspect"]),
          ask(["journal", "list"]),
          ask(["journal", "inspect", "--study", "s"]),
          ask(["journal", "inspect", "--study", "t"]),
          ask(["monitor", "list"]),
          ask(["monitor", "unresolved-outcomes"])
        ])
        return { plan, journals, s, t, monitor, unresolved }
      }
      const before = await answers(a)
      expect(before.plan.ok).toBe(true)
      const imported = ok(runCli(["init", "--store", db.url, "--dossier", "round-trip", "--workdir", a, "--json"]))
      expect(imported.store).toMatchObject({ dossier: "round-trip", imported: true, pulled: false })
      // What the store now holds: the plan at its revision, every journal event, the retained bytes.
      const rows = async (q: string) => (await adminQuery(db.url, q, ["round-trip"])).rows[0]!.n as string
      expect(await rows("SELECT count(*)::text AS n FROM dossier.records WHERE dossier = $1 AND kind = 'plan'")).toBe(
        "1"
      )
      expect(
        Number(await rows("SELECT count(*)::text AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal'"))
      )
        .toBe(4)
      // The grants with their events, the execution record and its two logs.
      const kinds = await adminQuery(
        db.url,
        `SELECT kind, count(*)::int AS n FROM dossier.records WHERE dossier = $1
           AND kind IN ('grant', 'execution', 'execution-log', 'execution-marker') GROUP BY kind ORDER BY kind`,
        ["round-trip"]
      )
      expect(kinds.rows).toEqual([
        { kind: "execution", n: 1 },
        { kind: "execution-log", n: 2 },
        { kind: "grant", n: 2 }
      ])
      expect(Number(await rows("SELECT count(*)::text AS n FROM dossier.events WHERE dossier = $1 AND log = 'grants'")))
        .toBe(2)
      // Another folder (another host) binds to it and pulls: the same answers as the original.
      const b = tempWorkdir("dossier-bind-second-")
      const pulled = ok(runCli(["init", "--store", db.url, "--dossier", "round-trip", "--workdir", b, "--json"]))
      expect(pulled.store).toMatchObject({ imported: false, pulled: true })
      expect(await answers(b)).toEqual(before)
      expect(evidenceIn(b)).toEqual(evidence)
      for (
        const f of [
          ".dossier/grants/g1.json",
          ".dossier/grants/g1.events.jsonl",
          `.dossier/executions/${execution}.json`
        ]
      ) {
        expect(fs.readFileSync(path.join(b, f), "latin1"), f).toBe(fs.readFileSync(path.join(a, f), "latin1"))
      }
      // Exported from the second folder into a plain one: the same answers again, and no binding.
      const out = path.join(tempWorkdir("dossier-bind-export-"), "copy")
      const exported = ok(runCli(["export", "--to", out, "--workdir", b, "--json"])).transfer
      expect([exported.grants, exported.grantEvents, exported.executions]).toEqual([2, 2, 1])
      expect(fs.existsSync(storeFile(out))).toBe(false)
      expect(await answers(out)).toEqual(before)
      // The exported folder imported into a new dossier: the same plan revision, journals and digests.
      const again = ok(runCli(["init", "--store", db.url, "--dossier", "round-trip-2", "--workdir", out, "--json"]))
      expect(again.store).toMatchObject({ dossier: "round-trip-2", imported: true })
      const held = async (dossier: string) => ({
        plan: (await adminQuery(
          db.url,
          "SELECT revision, value FROM dossier.records WHERE dossier = $1 AND kind = 'plan'",
          [dossier]
        )).rows,
        events: (await adminQuery(
          db.url,
          "SELECT log, stream, position, id, digest FROM dossier.events WHERE dossier = $1 AND log = 'journal' ORDER BY stream, position",
          [dossier]
        )).rows,
        content: (await adminQuery(
          db.url,
          "SELECT sha256, size FROM dossier.content WHERE dossier = $1 ORDER BY sha256",
          [dossier]
        )).rows
      })
      const first = await held("round-trip")
      expect(first.events).toHaveLength(4)
      expect(first.content.length).toBeGreaterThan(0)
      expect(await held("round-trip-2")).toEqual(first)
      expect(evidenceIn(out)).toEqual(evidence)

      // An event another host appended to the shared dossier reaches this folder with `pull`.
      const host = ManagedRuntime.make(PgStoreLayer({ url: db.url, dossier: "round-trip" }))
      try {
        await host.runPromise(Effect.flatMap(PgStore, (pg) =>
          makeGrantStorePostgres(pg).appendEvent("g1", {
            type: "revoked",
            at: "2026-12-08T11:00:00.000Z",
            reason: "from another host"
          }, 1)))
      } finally {
        await host.dispose()
      }
      const refreshed = ok(runCli(["pull", "--workdir", b, "--json"])).transfer
      expect([refreshed.grants, refreshed.grantEvents, refreshed.executions]).toEqual([0, 1, 0])
      expect(evidenceIn(b).g1.state).toBe("revoked")
    },
    240_000
  )

  it("binds to a database whose name needs %-escapes (#, @, :, a space), as libpq reads the path", async () => {
    const name = `${new URL(db.url).pathname.slice(1)} odd#@:db`
    await adminQuery(db.url, `CREATE DATABASE "${name}"`)
    try {
      const url = new URL(db.url)
      url.pathname = `/${encodeURIComponent(name)}`
      const dir = tempWorkdir("dossier-bind-odd-db-")
      const bound = ok(runCli(["init", "--store", url.toString(), "--dossier", "odd", "--workdir", dir, "--json"]))
      expect(bound.store.url).toBe(url.toString())
      expect(ok(runCli(["store", "status", "--workdir", dir, "--json"])).store).toMatchObject({ exists: true })
      // The dossier is in that database (pg's own URL parsing would miss it, as dossier's did).
      const admin = new URL(db.url)
      const client = new Pg.Client({
        host: admin.hostname,
        port: Number(admin.port === "" ? 5432 : admin.port),
        user: decodeURIComponent(admin.username),
        ...(admin.password === "" ? {} : { password: decodeURIComponent(admin.password) }),
        database: name
      })
      await client.connect()
      try {
        expect((await client.query("SELECT name FROM dossier.dossiers")).rows).toEqual([{ name: "odd" }])
      } finally {
        await client.end()
      }
    } finally {
      await adminQuery(db.url, `DROP DATABASE "${name}" WITH (FORCE)`)
    }
  }, 60_000)

  it("refuses a malformed URL or name before connecting, and never shows the password", () => {
    const dir = tempWorkdir("dossier-bind-bad-")
    for (
      const [url, name] of [
        ["mysql://u@127.0.0.1/db", "x"],
        [`postgres://u:${PASSWORD}@127.0.0.1/db?password=${PASSWORD}`, "x"],
        [db.url, "-bad name"],
        // Parameters the driver would throw on (a defect before): said before anything connects.
        [`${withPassword(db.url)}?sslmode=verify-ca`, "x"],
        [`${withPassword(db.url)}?uselibpqcompat=true`, "x"],
        [`${withPassword(db.url)}?sslmode=require&sslcert=no-such-cert.pem`, "x"]
      ]
    ) {
      const r = runCli(["init", "--store", url!, "--dossier", name!, "--workdir", dir, "--json"])
      refused(r, "UsageError")
      noPassword(dir, r)
    }
    refused(runCli(["init", "--store", db.url, "--workdir", dir, "--json"]), "UsageError")
    expect(fs.existsSync(storeFile(dir))).toBe(false)
  })

  it(
    "refuses to import a registered file edited since it was registered (DigestMismatch naming it), and stores nothing",
    async () => {
      const dir = planned("dossier-bind-edited-", "Edited output")
      fs.mkdirSync(path.join(dir, "research/results"), { recursive: true })
      fs.writeFileSync(path.join(dir, "research/results/r.md"), "Result: X beats Y.\n")
      ok(runCli([
        "plan",
        "checkpoint",
        "--workdir",
        dir,
        "--input",
        putInput(dir, "cp.json", {
          completedSteps: [{ id: "s1", summary: "wrote the result" }],
          outputs: [{ path: "research/results/r.md", dependsOn: [] }],
          nextAction: "import"
        }),
        "--expected",
        "1",
        "--json"
      ]))
      const registered = ok(runCli(["plan", "inspect", "--workdir", dir, "--json"]))
      expect(JSON.stringify(registered)).toContain("research/results/r.md")
      fs.writeFileSync(path.join(dir, "research/results/r.md"), "Result: Y beats X, edited afterwards.\n")
      const before = snapshot(dir)
      const r = runCli(["init", "--store", db.url, "--dossier", "edited", "--workdir", dir, "--json"])
      const error = refused(r, "DigestMismatch")
      expect(r.code).toBe(1)
      expect(error).toMatchObject({ path: "research/results/r.md", retryable: false })
      expect(error.actual).not.toBe(error.expected)
      expect(error.message).toContain("research/results/r.md")
      expect(snapshot(dir)).toEqual(before)
      const stored = await adminQuery(
        db.url,
        "SELECT (SELECT count(*)::int FROM dossier.records WHERE dossier = 'edited') AS records, " +
          "(SELECT count(*)::int FROM dossier.content WHERE dossier = 'edited') AS content"
      )
      expect(stored.rows).toEqual([{ records: 0, content: 0 }])
    },
    60_000
  )

  it("an unreachable server is StoreUnavailable, retryable, with no password and no binding written", async () => {
    const port = await freePort()
    const dir = tempWorkdir("dossier-bind-down-")
    const url = `postgres://someone:${PASSWORD}@127.0.0.1:${port}/db`
    const r = runCli(["init", "--store", url, "--dossier", "x", "--workdir", dir, "--json"])
    expect(refused(r, "StoreUnavailable").retryable).toBe(true)
    noPassword(dir, r)
    expect(fs.existsSync(storeFile(dir))).toBe(false)
    // A bound folder whose server went away: status says so.
    fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
    fs.writeFileSync(
      storeFile(dir),
      `${JSON.stringify({ kind: "postgres", url: `postgres://someone@127.0.0.1:${port}/db`, dossier: "x" })}\n`
    )
    const s = runCli(["store", "status", "--workdir", dir, "--json"])
    expect(refused(s, "StoreUnavailable").retryable).toBe(true)
    refused(runCli(["pull", "--workdir", dir, "--json"]), "StoreUnavailable")
  }, 60_000)
})
