/**
 * A grant made for one candidate (`candidateId`) runs for that candidate only, through the built
 * CLI: `exec --candidate` naming another is `GrantWidening {field: "candidateId"}` before anything
 * runs or is recorded (docs/exec.md, "A grant bound to a candidate"); a child of its grant is made
 * for the same candidate. Spawns the CLI.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { childGrant, createGrant, exec, folder, ok, putInput, refused, sandboxWorks } from "./support.js"

const recordsIn = (dir: string) => {
  const d = path.join(dir, ".dossier/executions")
  return fs.existsSync(d) ? fs.readdirSync(d) : []
}

describe("a grant bound to a candidate", () => {
  it("refuses a run for another candidate with GrantWidening {field: candidateId}; nothing runs or is recorded", () => {
    const dir = folder()
    createGrant(dir, { candidateId: "cand-a" })
    const e = refused(dir, ["exec", "--grant", "g1", "--candidate", "cand-b", "--", "true"], "GrantWidening")
    expect(e).toMatchObject({ field: "candidateId", retryable: false })
    expect(e.message).toContain("'cand-a'")
    expect(e.message).toContain("'cand-b'")
    expect(recordsIn(dir)).toEqual([])
    expect(fs.readdirSync(path.join(dir, "research/exp/runs/r1"))).toEqual([])
  })

  it.skipIf(!sandboxWorks)(
    "runs for its own candidate, with or without --candidate; a grant for none runs for any",
    () => {
      const dir = folder()
      createGrant(dir, { candidateId: "cand-a" })
      expect(exec(dir, "g1", ["true"], ["--candidate", "cand-a"])).toMatchObject({ candidateId: "cand-a" })
      expect(exec(dir, "g1", ["true"])).toMatchObject({ candidateId: "cand-a" })
      createGrant(dir, { id: "g9", work: "research/exp/runs/r9" }, "g9.json")
      expect(exec(dir, "g9", ["true"], ["--candidate", "cand-b"])).toMatchObject({ candidateId: "cand-b" })
    },
    120_000
  )

  it("a child of its grant is made for the same candidate: another is GrantWidening, none takes the parent's", () => {
    const dir = folder()
    createGrant(dir, { candidateId: "cand-a" })
    const child = (over: object, name: string) => ["grant", "create", "--input", putInput(dir, name, childGrant(over))]
    const e = refused(dir, child({ candidateId: "cand-b" }, "b.json"), "GrantWidening")
    expect(e).toMatchObject({ field: "candidateId", retryable: false })
    expect(e.message).toContain("'cand-a'")
    expect(ok(dir, child({}, "none.json")).grant).toMatchObject({ id: "g2", candidateId: "cand-a" })
    expect(refused(dir, ["exec", "--grant", "g2", "--candidate", "cand-b", "--", "true"], "GrantWidening"))
      .toMatchObject({ field: "candidateId" })
    expect(recordsIn(dir)).toEqual([])
  })
})
