/**
 * Two binds of one folder at once (`init --store` from two shells over a shared disk, or a retry
 * while the first still runs), through the built CLI against the test's own throwaway cluster:
 * they take turns on the folder's lock, so a folder holding state is imported into one dossier
 * only — the one it ends bound to — and every answer that says `imported` names that dossier.
 */
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
