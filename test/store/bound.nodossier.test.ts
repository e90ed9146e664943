/**
 * Every command of a folder bound to a dossier the store does not hold (its name mistyped in
 * `.dossier/store.json`, the dossier removed on the server, the database's dossier schema gone),
 * through the built CLI with --json and `dossier mcp`, against the test's own throwaway cluster:
 * reading and writing commands alike refuse (`BindingRefused`, reason `no-dossier`, exit 1; no
 * schema at all: `StoreUnavailable`, as `pull` says it), write nothing in the folder and create
 * nothing in the store (no dossier's row, no schema); only
 * `init --store` creates a dossier (a folder whose dossier was removed, its binding removed, is
 * imported into a new one).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type CliResult, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"

const noDossier = (r: CliResult, command: string, dossier: string) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag, reason: r.json?.error?.reason }, r.stdout + r.stderr)
    .toEqual({ code: 1, ok: false, tag: "BindingRefused", reason: "no-dossier" })
  expect(r.json.error).toMatchObject({ command, dossier, retryable: false })
  expect(r.json.error.message).toContain(`'${dossier}' does not exist`)
}

const put = (dir: string, rel: string, value: unknown) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  fs.writeFileSync(path.join(dir, rel), JSON.stringify(value))
}

const START = { goal: "a goal", limits: [], nextAction: "go" }
const EVENTS = [{ id: "c1", type: "candidate_created", candidate: { id: "cand", title: "t", protocolVersion: "p1" } }]

describe.skipIf(!pgAvailable)("a bound folder whose dossier the store does not hold: every command refuses", () => {
  const db = useTestDatabase()
  const dossiers = async () =>
    (await adminQuery(db.url, "SELECT name FROM dossier.dossiers ORDER BY name")).rows.map((r) => r.name)

  it("a mistyped name: reads and writes, CLI and MCP, BindingRefused no-dossier; nothing created", async () => {
    const a = tempWorkdir("dossier-nodossier-cmd-a-")
    expect(runCli(["init", "--store", db.url, "--dossier", "real", "--workdir", a, "--json"]).json?.ok).toBe(true)
    put(a, "research/inputs/start.json", START)
    expect(runCli(["plan", "start", "--input", "research/inputs/start.json", "--workdir", a, "--json"]).json?.ok)
      .toBe(true)

    const b = tempWorkdir("dossier-nodossier-cmd-b-")
    expect(runCli(["init", "--store", db.url, "--dossier", "real", "--workdir", b, "--json"]).json?.ok).toBe(true)
    const binding = path.join(b, ".dossier/store.json")
    fs.writeFileSync(binding, fs.readFileSync(binding, "utf8").replace("\"real\"", "\"reel\""))
    put(b, "research/inputs/cp.json", { nextAction: "next" })
    put(b, "research/inputs/events.json", EVENTS)
    const before = snapshot(b)

    // Writing commands: never create the dossier they are bound to.
    noDossier(
      runCli(["plan", "checkpoint", "--input", "research/inputs/cp.json", "--expected", "1", "--workdir", b, "--json"]),
      "plan checkpoint",
      "reel"
    )
    noDossier(
      runCli([
        "journal",
        "append",
        "--study",
        "s1",
        "--input",
        "research/inputs/events.json",
        "--workdir",
        b,
        "--json"
      ]),
      "journal append",
      "reel"
    )
    // Reading commands: never answer as if the dossier were empty.
    noDossier(runCli(["plan", "inspect", "--workdir", b, "--json"]), "plan inspect", "reel")
    noDossier(runCli(["journal", "list", "--workdir", b, "--json"]), "journal list", "reel")
    noDossier(runCli(["status", "--workdir", b, "--json"]), "status", "reel")
    noDossier(runCli(["monitor", "list", "--workdir", b, "--json"]), "monitor list", "reel")

    // The MCP server, offering writing tools or reading ones only, does not start over it.
    for (const flags of [[], ["--read-only"]]) {
      const r = runCli(["mcp", ...flags, "--workdir", b], { input: "" })
      expect({ code: r.code, stdout: r.stdout }, r.stderr).toEqual({ code: 1, stdout: "" })
      expect(r.stderr).toContain("BindingRefused")
      expect(r.stderr).toContain("no-dossier")
    }

    expect(snapshot(b)).toEqual(before)
    expect(await dossiers()).toEqual(["real"])

    // The name put right, the same commands run over the dossier.
    fs.writeFileSync(binding, fs.readFileSync(binding, "utf8").replace("\"reel\"", "\"real\""))
    const cp = runCli([
      "plan",
      "checkpoint",
      "--input",
      "research/inputs/cp.json",
      "--expected",
      "1",
      "--workdir",
      b,
      "--json"
    ])
    expect(cp.json, cp.stdout + cp.stderr).toMatchObject({ ok: true, revision: 2 })
    expect(runCli(["plan", "inspect", "--workdir", a, "--json"]).json).toMatchObject({ ok: true, revision: 2 })
  }, 180_000)

  it("the dossier removed on the server: a command refuses; the folder unbound and bound again imports", async () => {
    const c = tempWorkdir("dossier-nodossier-removed-")
    expect(runCli(["init", "--store", db.url, "--dossier", "gone", "--workdir", c, "--json"]).json?.ok).toBe(true)
    put(c, "research/inputs/start.json", START)
    expect(runCli(["plan", "start", "--input", "research/inputs/start.json", "--workdir", c, "--json"]).json?.ok)
      .toBe(true)
    for (const table of ["records", "events", "content", "dossiers"]) {
      await adminQuery(
        db.url,
        `DELETE FROM dossier.${table} WHERE ${table === "dossiers" ? "name" : "dossier"} = 'gone'`
      )
    }
    put(c, "research/inputs/cp.json", { nextAction: "next" })
    const before = snapshot(c)
    noDossier(
      runCli(["plan", "checkpoint", "--input", "research/inputs/cp.json", "--expected", "1", "--workdir", c, "--json"]),
      "plan checkpoint",
      "gone"
    )
    noDossier(runCli(["plan", "inspect", "--workdir", c, "--json"]), "plan inspect", "gone")
    expect(snapshot(c)).toEqual(before)
    expect(await dossiers()).not.toContain("gone")

    // A way out: the binding removed, the folder (a plain one now) bound again imports its view
    // into a new dossier of that name.
    fs.rmSync(path.join(c, ".dossier/store.json"))
    const again = runCli(["init", "--store", db.url, "--dossier", "gone", "--workdir", c, "--json"])
    expect(again.json, again.stdout + again.stderr).toMatchObject({
      ok: true,
      store: { dossier: "gone", imported: true }
    })
    expect(runCli(["plan", "inspect", "--workdir", c, "--json"]).json).toMatchObject({ ok: true, revision: 1 })
  }, 180_000)

  it("a database without dossier's schema: a writing command creates no schema and no dossier", async () => {
    const d = tempWorkdir("dossier-nodossier-schema-")
    expect(runCli(["init", "--store", db.url, "--dossier", "real", "--workdir", d, "--json"]).json?.ok).toBe(true)
    await adminQuery(db.url, "DROP SCHEMA dossier CASCADE")
    put(d, "research/inputs/start.json", START)
    const before = snapshot(d)
    // As `pull` and `export` say it (test/store/schema.missing.test.ts): `init --store` creates it.
    for (const args of [["plan", "start", "--input", "research/inputs/start.json"], ["plan", "inspect"]]) {
      const r = runCli([...args, "--workdir", d, "--json"])
      expect({ code: r.code, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
        code: 1,
        tag: "StoreUnavailable"
      })
      expect(r.json.error.reason).toContain("dossier init --store")
    }
    expect(snapshot(d)).toEqual(before)
    expect((await adminQuery(db.url, "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'dossier'")).rows)
      .toEqual([{ n: 0 }])
  }, 180_000)
})
