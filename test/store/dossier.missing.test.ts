/**
 * A folder bound to a dossier the store does not hold (its name mistyped in
 * `.dossier/store.json`, or the dossier removed on the server), through the built CLI with
 * --json against the test's own throwaway cluster: `pull` and `export --to` have nothing to copy
 * from, so they refuse (`BindingRefused`, reason `no-dossier`, exit 1) rather than answer a copy
 * of nothing as if the folder's view were the dossier's; they write nothing, make no folder and
 * create no dossier. `store status` answers `exists: false`. The dossier's other name still pulls.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type CliResult, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"

const noDossier = (r: CliResult, command: string, dossier: string) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
    code: 1,
    ok: false,
    tag: "BindingRefused"
  })
  expect(r.json.error).toMatchObject({ command, dossier, reason: "no-dossier", retryable: false })
  expect(r.json.error.message).toContain(`'${dossier}' does not exist`)
  expect(r.json.error.hint).toContain("dossier store status")
}

describe.skipIf(!pgAvailable)("a bound folder whose dossier the store does not hold", () => {
  const db = useTestDatabase()

  it("pull and export refuse: BindingRefused no-dossier, nothing written; store status: exists false", async () => {
    const a = tempWorkdir("dossier-nodossier-a-")
    expect(runCli(["init", "--store", db.url, "--dossier", "real", "--workdir", a, "--json"]).json?.ok).toBe(true)
    fs.writeFileSync(path.join(a, "plan.json"), JSON.stringify({ goal: "a goal", limits: [], nextAction: "go" }))
    expect(runCli(["plan", "start", "--input", "plan.json", "--workdir", a, "--json"]).json?.ok).toBe(true)
    const dossiers = async () =>
      (await adminQuery(db.url, "SELECT name FROM dossier.dossiers ORDER BY name")).rows.map((r) => r.name)

    // A second host bound to the dossier, then its binding's name mistyped.
    const b = tempWorkdir("dossier-nodossier-b-")
    expect(runCli(["init", "--store", db.url, "--dossier", "real", "--workdir", b, "--json"]).json?.ok).toBe(true)
    const binding = path.join(b, ".dossier/store.json")
    fs.writeFileSync(binding, fs.readFileSync(binding, "utf8").replace("\"real\"", "\"reel\""))
    fs.rmSync(path.join(b, "plan.md"))

    const before = snapshot(b)
    noDossier(runCli(["pull", "--workdir", b, "--json"]), "pull", "reel")
    const parent = tempWorkdir("dossier-nodossier-export-")
    noDossier(runCli(["export", "--to", path.join(parent, "copy"), "--workdir", b, "--json"]), "export", "reel")
    expect(fs.existsSync(path.join(parent, "copy"))).toBe(false)
    const existing = tempWorkdir("dossier-nodossier-existing-")
    noDossier(runCli(["export", "--to", existing, "--workdir", b, "--json"]), "export", "reel")
    expect(fs.readdirSync(existing)).toEqual([])
    expect(snapshot(b)).toEqual(before)
    expect(await dossiers()).toEqual(["real"])

    const status = runCli(["store", "status", "--workdir", b, "--json"])
    expect(status.json, status.stdout + status.stderr).toMatchObject({
      ok: true,
      bound: true,
      store: { dossier: "reel", schema: { version: 1 }, exists: false, reachable: true }
    })

    // The name put right, the same pull brings the plan.
    fs.writeFileSync(binding, fs.readFileSync(binding, "utf8").replace("\"reel\"", "\"real\""))
    const pulled = runCli(["pull", "--workdir", b, "--json"])
    expect(pulled.json, pulled.stdout + pulled.stderr).toMatchObject({ ok: true, dossier: "real" })
    expect(fs.existsSync(path.join(b, "plan.md"))).toBe(true)
  }, 120_000)
})
