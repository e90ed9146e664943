/**
 * Rows a peer with the dossier's role writes straight into the shared store's tables, behind
 * dossier's back, then `pull`, `init --store` (which pulls) and `export --to` through the built
 * CLI: a file a record (a journal artifact, a capture) or a gate attempts log names at a path of
 * dossier's own state — the binding `.dossier/store.json`, `plan.md`, a study's journal — is
 * skipped and named (`transfer.skipped`), never written; so a copy is never bound to a server the
 * peer chose, and no local state file is overwritten or appended to. Against the test's own
 * throwaway cluster (skipped with a note without the server binaries).
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** A binding a peer would like a copy to hold: another server, another dossier. */
const FORGED = `${JSON.stringify({ kind: "postgres", url: "postgres://peer@127.0.0.1:9/x", dossier: "other" })}\n`

const bind = (url: string, dossier: string) => {
  const dir = tempWorkdir("dossier-hostile-")
  ok(runCli(["init", "--store", url, "--dossier", dossier, "--workdir", dir, "--json"]))
  return dir
}

/** A study whose artifact_linked event names `artifact`, its bytes `content` stored by digest. */
const hostileArtifact = async (url: string, dossier: string, study: string, artifact: string, content: string) => {
  const created = JSON.stringify({ candidate: { id: "cand-a", title: "A" }, id: "c1", type: "candidate_created" })
  const linked = JSON.stringify({
    artifact: { bytes: Buffer.byteLength(content), path: artifact, sha256: sha256(content) },
    candidateId: "cand-a",
    id: "a1",
    type: "artifact_linked"
  })
  await adminQuery(url, "INSERT INTO dossier.content VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", [
    dossier,
    sha256(content),
    Buffer.byteLength(content),
    Buffer.from(content)
  ])
  await adminQuery(
    url,
    `INSERT INTO dossier.events VALUES ($1, 'journal', $2, 1, 'c1', $3, $4), ($1, 'journal', $2, 2, 'a1', $5, $6),
      ($1, 'journal-claims', $2, 1, 'cand-a', $3, 'c1')`,
    [dossier, study, sha256(created), created, sha256(linked), linked]
  )
}

/** A capture record naming `at`, its bytes stored, as the next record of the capture log. */
const hostileCapture = async (url: string, dossier: string, at: string, content: string) => {
  const line = JSON.stringify({
    path: at,
    sha256: sha256(content),
    bytes: Buffer.byteLength(content),
    origin: "https://example.org/e",
    fetchedAt: "2026-12-01T10:00:00.000Z",
    kind: "original",
    via: "fetch"
  })
  await adminQuery(url, "INSERT INTO dossier.content VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING", [
    dossier,
    sha256(content),
    Buffer.byteLength(content),
    Buffer.from(content)
  ])
  await adminQuery(url, "INSERT INTO dossier.records VALUES ($1, 'retained', $2, 1, $3)", [
    dossier,
    at,
    JSON.stringify({ sha256: sha256(content), bytes: Buffer.byteLength(content) })
  ])
  await adminQuery(
    url,
    `INSERT INTO dossier.events SELECT $1, 'captures', '', n, n::text, $2, $3
      FROM (SELECT coalesce(max(position), 0) + 1 AS n FROM dossier.events WHERE dossier = $1 AND log = 'captures') AS p`,
    [dossier, sha256(`${line}\n`), line]
  )
}

/** A gate attempts log at `at` holding `lines`. */
const hostileAttempts = async (url: string, dossier: string, at: string, lines: ReadonlyArray<string>) => {
  for (const [i, line] of lines.entries()) {
    await adminQuery(url, "INSERT INTO dossier.events VALUES ($1, 'gate-attempts', $2, $3, $4, $5, $6)", [
      dossier,
      at,
      i + 1,
      String(i + 1),
      sha256(line),
      line
    ])
  }
}

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), "utf8")

describe.skipIf(!pgAvailable)("rows a peer wrote behind dossier's back", () => {
  const db = useTestDatabase()

  it("a record naming .dossier/store.json: export and pull skip it, never binding the copy elsewhere", async () => {
    const a = bind(db.url, "forged-binding")
    const binding = read(a, ".dossier/store.json")
    await hostileArtifact(db.url, "forged-binding", "s1", ".dossier/store.json", FORGED)
    await hostileCapture(db.url, "forged-binding", ".dossier/store.json", FORGED)
    await hostileAttempts(db.url, "forged-binding", ".dossier/store.json", [FORGED.trimEnd()])

    const out = path.join(tempWorkdir("dossier-hostile-export-"), "copy")
    const exported = ok(runCli(["export", "--to", out, "--workdir", a, "--json"]))
    expect(fs.existsSync(path.join(out, ".dossier/store.json"))).toBe(false)
    expect(exported.transfer.skipped).toEqual([".dossier/store.json", ".dossier/store.json"])
    // The copy is a plain folder: nothing it runs reaches the peer's server.
    expect(ok(runCli(["store", "status", "--workdir", out, "--json"]))).toMatchObject({ bound: false })

    const pulled = ok(runCli(["pull", "--workdir", a, "--json"]))
    expect(pulled.transfer.skipped).toEqual([".dossier/store.json", ".dossier/store.json"])
    expect(pulled.transfer.kept).toEqual([])
    expect(read(a, ".dossier/store.json")).toBe(binding)

    // A new host binding to the dossier pulls it, and keeps its own binding.
    const b = bind(db.url, "forged-binding")
    expect(JSON.parse(read(b, ".dossier/store.json")).dossier).toBe("forged-binding")
  }, 120_000)

  it("an artifact linking plan.md: export copies the plan, not the artifact's bytes over it", async () => {
    const a = bind(db.url, "artifact-plan")
    ok(runCli(["plan", "start", "--workdir", a, "--input", putPlan(a), "--json"]))
    await hostileArtifact(db.url, "artifact-plan", "s1", "plan.md", "not the plan\n")
    const out = path.join(tempWorkdir("dossier-hostile-export-"), "copy")
    const exported = ok(runCli(["export", "--to", out, "--workdir", a, "--json"]))
    expect(exported.transfer.skipped).toEqual(["plan.md"])
    expect(exported.transfer.plan).toEqual({ revision: 1, copied: true })
    expect(read(out, "plan.md")).toBe(read(a, "plan.md"))
  }, 120_000)

  it("an attempts log at a journal's file or the plan: never appended to, on pull or on bind", async () => {
    const a = bind(db.url, "attempts-owned")
    ok(runCli(["plan", "start", "--workdir", a, "--input", putPlan(a), "--json"]))
    const event = { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "A" } }
    fs.writeFileSync(path.join(a, "research/inputs/j.json"), JSON.stringify(event))
    const input = path.join(a, "research/inputs/j.json")
    ok(runCli(["journal", "append", "--study", "s1", "--input", input, "--workdir", a, "--json"]))
    const journal = "research/s1/research-events.jsonl"
    const lines = read(a, journal).split("\n").filter((l) => l !== "")
    await hostileAttempts(db.url, "attempts-owned", journal, [...lines, "{\"forged\":true}"])
    await hostileAttempts(db.url, "attempts-owned", "plan.md", [
      ...read(a, "plan.md").split("\n").slice(0, -1),
      "forged"
    ])
    await hostileAttempts(db.url, "attempts-owned", "../outside.jsonl", ["{}"])
    const before = { journal: read(a, journal), plan: read(a, "plan.md") }

    const pulled = ok(runCli(["pull", "--workdir", a, "--json"]))
    expect(pulled.transfer.skipped).toEqual(["../outside.jsonl", "plan.md", journal])
    expect({ journal: read(a, journal), plan: read(a, "plan.md") }).toEqual(before)
    expect(fs.existsSync(path.join(a, "../outside.jsonl"))).toBe(false)

    const b = bind(db.url, "attempts-owned")
    expect(read(b, journal)).toBe(before.journal)
    expect(ok(runCli(["journal", "list", "--workdir", b, "--json"])).studies).toMatchObject([
      { study: "s1", events: 1, tail: "clean" }
    ])
  }, 120_000)

  it("a capture at a path out of the folder or through a link it holds: UnsafePath, nothing written", async () => {
    const a = bind(db.url, "capture-outside")
    const elsewhere = tempWorkdir("dossier-hostile-elsewhere-")
    fs.symlinkSync(elsewhere, path.join(a, "research/sources/link"))
    for (const at of ["../escaped.html", "research/sources/link/x.html"]) {
      await hostileCapture(db.url, "capture-outside", at, "hostile")
      const r = runCli(["pull", "--workdir", a, "--json"])
      expect({ code: r.code, tag: r.json?.error?._tag, path: r.json?.error?.path }).toEqual({
        code: 1,
        tag: "UnsafePath",
        path: at
      })
      await adminQuery(db.url, "DELETE FROM dossier.events WHERE dossier = 'capture-outside' AND log = 'captures'")
    }
    expect(fs.readdirSync(elsewhere)).toEqual([])
    expect(fs.existsSync(path.join(a, "../escaped.html"))).toBe(false)
    expect(fs.existsSync(path.join(a, ".dossier/captures.jsonl"))).toBe(false)
  }, 120_000)

  it("two dossiers in one database with the same ids: each command reads and changes its own only", () => {
    const one = bind(db.url, "same-ids-one")
    const two = bind(db.url, "same-ids-two")
    for (const [dir, goal] of [[one, "One"], [two, "Two"]] as const) {
      fs.writeFileSync(path.join(dir, "research/inputs/s.json"), JSON.stringify({ goal, limits: [], nextAction: "n" }))
      ok(runCli(["plan", "start", "--input", path.join(dir, "research/inputs/s.json"), "--workdir", dir, "--json"]))
      const event = { id: "c1", type: "candidate_created", candidate: { id: "k", title: goal } }
      fs.writeFileSync(path.join(dir, "research/inputs/j.json"), JSON.stringify(event))
      const input = path.join(dir, "research/inputs/j.json")
      expect(ok(runCli(["journal", "append", "--study", "s1", "--input", input, "--workdir", dir, "--json"])).appended)
        .toEqual(["c1"])
    }
    // A checkpoint at revision 1 in one leaves the other's plan at 1.
    fs.writeFileSync(path.join(one, "research/inputs/cp.json"), JSON.stringify({ nextAction: "m" }))
    const cp = path.join(one, "research/inputs/cp.json")
    ok(runCli(["plan", "checkpoint", "--input", cp, "--expected", "1", "--workdir", one, "--json"]))
    const plan = (dir: string) => ok(runCli(["plan", "inspect", "--workdir", dir, "--json"]))
    expect([plan(one).goal, plan(one).revision, plan(two).goal, plan(two).revision]).toEqual(["One", 2, "Two", 1])
    const titles = (dir: string) =>
      ok(runCli(["journal", "inspect", "--study", "s1", "--workdir", dir, "--json"])).candidates.map((c: {
        readonly title: string
      }) => c.title)
    expect([titles(one), titles(two)]).toEqual([["One"], ["Two"]])
  }, 120_000)

  it(
    "a URL whose options put another schema before pg_catalog: dossier's functions are still pg_catalog's",
    async () => {
      // A schema whose functions shadow the lock and the lock's key, and note each call.
      for (
        const statement of [
          "CREATE SCHEMA shadow",
          "CREATE TABLE shadow.calls (f text)",
          "CREATE FUNCTION shadow.pg_advisory_xact_lock(bigint) RETURNS void LANGUAGE sql AS $$ INSERT INTO shadow.calls VALUES ('lock') $$",
          "CREATE FUNCTION shadow.hashtextextended(text, bigint) RETURNS bigint LANGUAGE sql AS $$ INSERT INTO shadow.calls VALUES ('key'); SELECT 7::bigint $$"
        ]
      ) await adminQuery(db.url, statement)
      const u = new URL(db.url)
      u.searchParams.set("options", "-c search_path=shadow,pg_catalog")
      const dir = tempWorkdir("dossier-hostile-path-")
      ok(runCli(["init", "--store", u.toString(), "--dossier", "search-path", "--workdir", dir, "--json"]))
      const event = { id: "c1", type: "candidate_created", candidate: { id: "k", title: "K" } }
      fs.writeFileSync(path.join(dir, "research/inputs/j.json"), JSON.stringify(event))
      const input = path.join(dir, "research/inputs/j.json")
      ok(runCli(["journal", "append", "--study", "s1", "--input", input, "--workdir", dir, "--json"]))
      ok(runCli(["pull", "--workdir", dir, "--json"]))
      expect((await adminQuery(db.url, "SELECT f FROM shadow.calls")).rows).toEqual([])
    },
    120_000
  )
})

/** The input of `plan start`, in the folder's inputs. */
const putPlan = (dir: string) => {
  fs.mkdirSync(path.join(dir, "research/inputs"), { recursive: true })
  fs.writeFileSync(
    path.join(dir, "research/inputs/s.json"),
    JSON.stringify({ goal: "G", limits: [], nextAction: "n" })
  )
  return path.join(dir, "research/inputs/s.json")
}
