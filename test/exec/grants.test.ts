/** Grants through the built CLI: storage, digest, idempotence, containment of a child, narrowing, revocation. Needs no sandbox. */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { runCli } from "../support/cli.js"
import { childGrant as child, createGrant, folder, grantInput, ok, put, putInput, refused } from "./support.js"

describe("grants", () => {
  it("are stored once with a digest; the same input again is a no-op, other content ConflictingGrant", () => {
    const dir = folder()
    const a = createGrant(dir)
    expect(a).toMatchObject({
      created: true,
      grant: { id: "g1", state: "active", network: "offline", work: { path: "research/exp/runs/r1" } }
    })
    expect(a.grant.digest).toMatch(/^[0-9a-f]{64}$/)
    expect(a.grant.inputs[0]).toMatchObject({ path: "research/exp/data" })
    expect(fs.statSync(path.join(dir, "research/exp/runs/r1")).isDirectory()).toBe(true)
    expect(createGrant(dir)).toMatchObject({ created: false, grant: { digest: a.grant.digest } })
    refused(
      dir,
      ["grant", "create", "--input", putInput(dir, "other.json", grantInput({ task: "changed" }))],
      "ConflictingGrant"
    )
    // Without an id, the id is derived from the content.
    const b = ok(dir, [
      "grant",
      "create",
      "--input",
      putInput(dir, "noid.json", { ...grantInput({ work: "research/exp/runs/r2" }), id: undefined })
    ])
    expect(b.grant.id).toMatch(/^g-[0-9a-f]{16}$/)
    expect(ok(dir, ["grant", "list"]).grants.map((g: any) => g.id).sort()).toEqual([b.grant.id, "g1"].sort())
  })

  it("an input root that does not exist is InvalidInput at its field of the input, and nothing is made", () => {
    const dir = folder()
    const e = refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(
        dir,
        "missing.json",
        grantInput({ inputs: ["research/exp/data", "research/exp/nope/"], work: "research/exp/runs/new" })
      )
    ], "InvalidInput")
    expect(e.issues).toEqual([{
      path: "inputs.1",
      message: "'research/exp/nope' is not an existing directory inside the work folder"
    }])
    expect(fs.existsSync(path.join(dir, "research/exp/runs/new"))).toBe(false)
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g1.json"))).toBe(false)
  })

  it("a record edited by hand is GrantDigestMismatch and never used", () => {
    const dir = folder()
    createGrant(dir)
    const file = path.join(dir, ".dossier/grants/g1.json")
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("\"runs\": 20", "\"runs\": 2000"))
    refused(dir, ["grant", "show", "--grant", "g1"], "GrantDigestMismatch")
    refused(dir, ["exec", "--grant", "g1", "--", "true"], "GrantDigestMismatch")
    expect(ok(dir, ["grant", "list"]).damaged).toEqual([{ id: "g1", error: "GrantDigestMismatch" }])
    refused(dir, ["grant", "show", "--grant", "nope"], "GrantNotFound")
  })

  it("status reports a damaged record and the children it leaves without a state, as grant list does", () => {
    const dir = folder()
    createGrant(dir)
    ok(dir, ["grant", "create", "--input", putInput(dir, "c.json", child())])
    createGrant(dir, { id: "g5", task: "task-5", work: "research/exp/runs/r5" }, "g5.json")
    // Run in the folder: status names its folder relative to the current directory.
    const status = (json: boolean) => {
      const r = runCli(["status", ...(json ? ["--json"] : [])], { cwd: dir })
      expect(r.code, r.stderr).toBe(0)
      return json ? r.json : r.stdout
    }
    expect(status(true).grants).toEqual({ active: 3, damaged: [], unreadableExecutions: [] })
    const file = path.join(dir, ".dossier/grants/g1.json")
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("\"runs\": 20", "\"runs\": 2000"))
    // g2's own record is sound, but its parent's is not: grant show answers the parent's damage.
    expect(refused(dir, ["grant", "show", "--grant", "g2"], "GrantDigestMismatch").grantId).toBe("g1")
    const damaged = [{ id: "g1", error: "GrantDigestMismatch" }, { id: "g2", error: "GrantDigestMismatch" }]
    const listed = ok(dir, ["grant", "list"])
    expect({ ids: listed.grants.map((g: any) => g.id), damaged: listed.damaged }).toEqual({ ids: ["g5"], damaged })
    expect(status(true)).toMatchObject({ grants: { active: 1, damaged }, suggestion: "dossier grant list" })
    const human = status(false)
    expect(human).toContain(
      "grants: 1 active, 2 damaged (g1: GrantDigestMismatch, g2: GrantDigestMismatch; see dossier grant list)"
    )
    expect(human).not.toContain("nothing needs attention")
  })

  it("a child that widens any field is GrantWidening naming it; the budget is carved from the parent", () => {
    const dir = folder()
    put(dir, "research/exp/elsewhere/x.txt", "x")
    createGrant(dir)
    const widen = (over: object, field: string) => {
      const e = refused(
        dir,
        ["grant", "create", "--input", putInput(dir, `c-${field}.json`, child(over))],
        "GrantWidening"
      )
      expect(e.field).toBe(field)
    }
    widen({ inputs: ["research/exp/elsewhere"] }, "inputs.0")
    widen({ work: "research/exp/runs/r9" }, "work")
    widen({ tools: ["bash", "notebook"] }, "tools")
    widen({ deadline: "2031-01-01T00:00:00Z" }, "deadline")
    for (const f of ["runs", "wallSeconds", "cpuSeconds", "memoryMiB", "outputMiB"]) {
      widen({ budget: { ...child().budget, [f]: 100_000 } }, `budget.${f}`)
    }
    expect(fs.existsSync(path.join(dir, ".dossier/grants/g2.json"))).toBe(false)
    ok(dir, ["grant", "create", "--input", putInput(dir, "c.json", child())])
    const parent = ok(dir, ["grant", "show", "--grant", "g1"])
    expect(parent.remaining).toEqual({ runs: 15, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 12 })
    expect(parent.children).toEqual(["g2"])
    // A second child may take only what is left.
    const e = refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(
        dir,
        "c3.json",
        child({ id: "g3", work: "research/exp/runs/r1/c3", budget: { ...child().budget, wallSeconds: 61 } })
      )
    ], "GrantWidening")
    expect(e.field).toBe("budget.wallSeconds")
    // The child's own work root is off limits to another task's grant.
    const p = refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(
        dir,
        "o.json",
        grantInput({ id: "g4", task: "task-4", inputs: ["research/exp/runs/r1/child"], work: "research/exp/runs/r4" })
      )
    ], "ProtectedPathInGrant")
    expect(p.path).toBe("research/exp/runs/r1")
  })

  it("narrowing only narrows; revoking revokes the descendants; an inactive parent has no children", () => {
    const dir = folder()
    createGrant(dir)
    ok(dir, ["grant", "create", "--input", putInput(dir, "c.json", child())])
    expect(
      refused(dir, [
        "grant",
        "narrow",
        "--grant",
        "g1",
        "--input",
        putInput(dir, "n1.json", { deadline: "2031-01-01T00:00:00Z" })
      ], "GrantWidening").field
    ).toBe("deadline")
    expect(
      refused(
        dir,
        ["grant", "narrow", "--grant", "g1", "--input", putInput(dir, "n2.json", { budget: { runs: 21 } })],
        "GrantWidening"
      ).field
    ).toBe("budget.runs")
    const n = ok(dir, [
      "grant",
      "narrow",
      "--grant",
      "g1",
      "--input",
      putInput(dir, "n3.json", { budget: { runs: 10 }, deadline: "2028-01-01T00:00:00Z", reason: "tighter" })
    ])
    expect(n).toMatchObject({ budget: { runs: 10 }, deadline: "2028-01-01T00:00:00.000Z", remaining: { runs: 5 } })
    // The child's effective deadline follows the narrowed parent.
    expect(ok(dir, ["grant", "show", "--grant", "g2"]).deadline).toBe("2028-01-01T00:00:00.000Z")
    const r = ok(dir, ["grant", "revoke", "--grant", "g1", "--reason", "done"])
    expect(r).toMatchObject({ appended: true, revoked: ["g1", "g2"], state: "revoked" })
    // The grant's status as grant show answers it: the record under `grant`, never nested twice.
    const { appended: _a, revoked: _r, ...status } = r
    // (grant show alone also names the execution records that do not decode: none here.)
    const { unreadableExecutions, ...shown } = ok(dir, ["grant", "show", "--grant", "g1"])
    expect(unreadableExecutions).toEqual([])
    expect(status).toEqual(shown)
    expect(r.grant.id).toBe("g1")
    expect(ok(dir, ["grant", "show", "--grant", "g2"]).state).toBe("revoked")
    expect(ok(dir, ["grant", "revoke", "--grant", "g1"])).toMatchObject({ appended: false, revoked: [] })
    expect(
      refused(dir, [
        "grant",
        "create",
        "--input",
        putInput(dir, "c5.json", child({ id: "g5", work: "research/exp/runs/r1/c5" }))
      ], "GrantInactive").state
    ).toBe("revoked")
    expect(
      fs.readFileSync(path.join(dir, ".dossier/grants/g1.events.jsonl"), "utf8").trim().split("\n").map((l) =>
        JSON.parse(l).type
      )
    ).toEqual(["narrowed", "revoked"])
  })

  it("expires at its deadline (--now), and refuses a deadline already past", () => {
    const dir = folder()
    createGrant(dir, { deadline: "2027-01-01T00:00:00Z" })
    expect(ok(dir, ["grant", "show", "--grant", "g1", "--now", "2027-01-02T00:00:00Z"]).state).toBe("expired")
    refused(dir, [
      "grant",
      "create",
      "--input",
      putInput(
        dir,
        "old.json",
        grantInput({ id: "g9", work: "research/exp/runs/r9", deadline: "2020-01-01T00:00:00Z" })
      )
    ], "InvalidInput")
    expect(
      refused(
        dir,
        ["grant", "create", "--input", putInput(dir, "bad.json", { ...grantInput(), tools: ["root"] })],
        "InvalidInput"
      ).issues[0].path
    ).toBe("tools.0")
  })
})
