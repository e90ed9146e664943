/**
 * A plain folder's writing command racing `init --store`: the command found the folder plain at
 * start, then waited for the folder's lock while the folder was bound (its state imported into
 * the shared dossier). Its write must reach the store or be refused; it used to go to the
 * folder's files only, never reaching the store, the view then ahead of the dossier. Now the
 * binding is read again under the lock: nothing is written and the answer is `StoreUnavailable`
 * (retryable), and the same command run again runs over the shared dossier. The bind is played
 * deterministically: the test holds the folder's lock (as `init --store` does for its whole bind)
 * while the command waits, and writes the binding of a dossier that holds exactly the folder's
 * state (an import of a copy). Against the test's own throwaway cluster (skipped with a note
 * without the server binaries).
 */
import Sqlite from "better-sqlite3"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { putInput, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const revisionOf = (dir: string) => ok(runCli(["plan", "inspect", "--workdir", dir, "--json"])).revision as number

describe.skipIf(!pgAvailable)("a plain folder's command racing a bind", () => {
  const db = useTestDatabase()

  it(
    "a checkpoint that waited for the lock while the folder was bound writes nothing here, then runs over the store",
    async () => {
      const a = tempWorkdir("dossier-plainrace-")
      ok(runCli(["init", "--workdir", a, "--json"]))
      ok(runCli([
        "plan",
        "start",
        "--input",
        putInput(a, "s.json", { goal: "G", limits: [], nextAction: "n" }),
        "--workdir",
        a,
        "--json"
      ]))
      const checkpoint = putInput(a, "cp.json", { completedSteps: [{ id: "s1", summary: "step" }], nextAction: "m" })
      // The dossier holds exactly this folder's state (its copy imported), as after the bind's import.
      const copy = path.join(tempWorkdir("dossier-plainrace-copy-"), "copy")
      fs.cpSync(a, copy, { recursive: true })
      const bound = ok(runCli(["init", "--store", db.url, "--dossier", "race", "--workdir", copy, "--json"]))
      expect(bound.store.imported).toBe(true)
      const planBefore = fs.readFileSync(path.join(a, "plan.md"), "utf8")

      // The bind holds the folder's lock; the command starts in the plain folder and waits for it.
      const lock = new Sqlite(path.join(a, ".dossier", "lock.sqlite"), { timeout: 0, fileMustExist: true })
      lock.exec("BEGIN IMMEDIATE")
      const running = runCliAsync([
        "plan",
        "checkpoint",
        "--input",
        checkpoint,
        "--expected",
        "1",
        "--workdir",
        a,
        "--json"
      ])
      await new Promise((resolve) => setTimeout(resolve, 5_000))
      // The bind writes the binding, then lets the lock go.
      fs.copyFileSync(path.join(copy, ".dossier/store.json"), path.join(a, ".dossier/store.json"))
      lock.exec("ROLLBACK")
      lock.close()
      const r = await running

      // Never a write to the folder alone: refused, retryable, nothing written here.
      expect(r.code, r.stdout + r.stderr).toBe(1)
      expect(r.json?.error).toMatchObject({ _tag: "StoreUnavailable", retryable: true })
      expect(r.json?.error.reason).toContain("bound to a shared dossier while the command waited")
      expect(fs.readFileSync(path.join(a, "plan.md"), "utf8")).toBe(planBefore)
      expect(revisionOf(copy)).toBe(1)
      // The same command again runs over the shared dossier: the store holds it, both hosts see it.
      ok(runCli(["plan", "checkpoint", "--input", checkpoint, "--expected", "1", "--workdir", a, "--json"]))
      expect(revisionOf(copy)).toBe(2)
      expect(revisionOf(a)).toBe(2)
    },
    180_000
  )
})
