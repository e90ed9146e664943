/**
 * Two binds of one folder at once (`init --store` from two shells over a shared disk, or a retry
 * while the first still runs), through the built CLI against the test's own throwaway cluster:
 * they take turns on the folder's lock, so a folder holding state is imported into one dossier
 * only — the one it ends bound to — and every answer that says `imported` names that dossier.
 * Two exports into one new folder at once: one copies, the other is refused, and the refused one
 * never removes what the other wrote.
 */
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { putInput, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

describe.skipIf(!pgAvailable)("init --store of one folder from two processes at once", () => {
  const db = useTestDatabase()

  it("imports the folder into the dossier it ends bound to, and no other", async () => {
    for (const round of [1, 2, 3]) {
      const dir = tempWorkdir("dossier-bind-race-")
      const input = putInput(dir, "s.json", { goal: "G", limits: [], nextAction: "n" })
      ok(runCli(["plan", "start", "--input", input, "--workdir", dir, "--json"]))
      const names = [`race-${round}-a`, `race-${round}-b`, `race-${round}-a`]
      const answers = await Promise.all(
        names.map((name) => runCliAsync(["init", "--store", db.url, "--dossier", name, "--workdir", dir, "--json"]))
      )
      const status = ok(runCli(["store", "status", "--workdir", dir, "--json"]))
      const boundTo: string = status.store.dossier
      // Every answer that says it bound the folder names the dossier it is bound to; the rest refuse.
      for (const r of answers) {
        if (r.json?.ok === true) expect(r.json.store.dossier, r.stdout).toBe(boundTo)
        else {
          expect({ code: r.code, tag: r.json?.error?._tag, reason: r.json?.error?.reason }, r.stdout).toEqual({
            code: 1,
            tag: "BindingRefused",
            reason: "bound-elsewhere"
          })
        }
      }
      expect(answers.filter((r) => r.json?.ok === true && r.json.store.imported === true)).toHaveLength(1)
      // The folder's plan is in the dossier it is bound to, and in no other.
      const plans = await adminQuery(
        db.url,
        "SELECT dossier FROM dossier.records WHERE kind = 'plan' AND dossier LIKE $1 ORDER BY dossier",
        [`race-${round}-%`]
      )
      expect(plans.rows).toEqual([{ dossier: boundTo }])
    }
  }, 300_000)
})

describe("export --to one new folder from two processes at once", () => {
  it("one copies, the other is refused, and the copy is left whole", async () => {
    const dir = tempWorkdir("dossier-export-race-")
    const input = putInput(dir, "s.json", { goal: "G", limits: [], nextAction: "n" })
    ok(runCli(["plan", "start", "--input", input, "--workdir", dir, "--json"]))
    const event = putInput(dir, "j.json", { id: "c1", type: "candidate_created", candidate: { id: "k", title: "K" } })
    ok(runCli(["journal", "append", "--study", "s1", "--input", event, "--workdir", dir, "--json"]))
    for (const round of [1, 2, 3, 4]) {
      const out = path.join(tempWorkdir("dossier-export-race-to-"), `copy-${round}`)
      const answers = await Promise.all(
        [1, 2].map(() => runCliAsync(["export", "--to", out, "--workdir", dir, "--json"]))
      )
      expect(answers.filter((r) => r.json?.ok === true), answers.map((r) => r.stdout).join("\n")).toHaveLength(1)
      const loser = answers.find((r) => r.json?.ok !== true)!
      expect({ code: loser.code, tag: loser.json?.error?._tag, reason: loser.json?.error?.reason }).toEqual({
        code: 1,
        tag: "BindingRefused",
        reason: "target-state"
      })
      // The winner's copy is whole: the same plan and journal as the folder it copied.
      expect(ok(runCli(["journal", "list", "--workdir", out, "--json"])).studies).toMatchObject([
        { study: "s1", events: 1, tail: "clean" }
      ])
      expect(ok(runCli(["plan", "inspect", "--workdir", out, "--json"])).revision).toBe(1)
    }
  }, 300_000)
})
