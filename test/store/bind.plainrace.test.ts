/**
 * A plain folder's writing command racing `init --store`: the command found the folder plain at
 * start, then waited for the folder's lock while the folder was bound (its state imported into
 * the shared dossier). Its write must reach the store or be refused; it used to go to the
 * folder's files only, never reaching the store, the view then ahead of the dossier. Now the
 * binding is read again under the lock: nothing is written and the answer is `StoreUnavailable`
 * (retryable), and the same command run again runs over the shared dossier. The bind is played
 * deterministically: the test holds the folder's lock (as `init --store` does for its whole bind)
 * while the command waits, and writes the binding of a dossier that holds exactly the folder's
 * state (an import of a copy). The same for `dossier mcp` started in the plain folder, which
 * serves many calls from one start: a call after the bind runs over the shared dossier, and one
 * that waited for the lock while the bind held it is refused the same way. And `exec`, which takes
 * the lock before its run and again after it to write its record: the bind waits for a run under
 * way (bounded: `LockTimeout`), so the record never lands in the folder alone. Against the test's own
 * throwaway cluster (skipped with a note without the server binaries).
 */
import Sqlite from "better-sqlite3"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { sandboxWorks } from "../exec/support.js"
import { connect } from "../mcp/support.js"
import { put, putInput, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok } from "./support/populated.js"

const revisionOf = (dir: string) => ok(runCli(["plan", "inspect", "--workdir", dir, "--json"])).revision as number

/** A plain folder with a plan at revision 1, and a bound copy whose dossier `dossier` holds exactly its state. */
const plainAndImported = (url: string, dossier: string) => {
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
  const copy = path.join(tempWorkdir("dossier-plainrace-copy-"), "copy")
  fs.cpSync(a, copy, { recursive: true })
  const bound = ok(runCli(["init", "--store", url, "--dossier", dossier, "--workdir", copy, "--json"]))
  expect(bound.store.imported).toBe(true)
  return { a, copy }
}

/**
 * What the bind (`init --store` of `a`, whose state the dossier holds exactly) leaves in `a`: the
 * binding, and the record of the plan.md it holds as the view's copy (`.dossier/plan-view.json`,
 * docs/store.md), both as the import left them in `copy`, a byte copy of `a`.
 */
const bindAsCopy = (a: string, copy: string) => {
  fs.copyFileSync(path.join(copy, ".dossier/plan-view.json"), path.join(a, ".dossier/plan-view.json"))
  fs.copyFileSync(path.join(copy, ".dossier/store.json"), path.join(a, ".dossier/store.json"))
}

describe.skipIf(!pgAvailable)("a plain folder's command racing a bind", () => {
  const db = useTestDatabase()

  it(
    "a checkpoint that waited for the lock while the folder was bound writes nothing here, then runs over the store",
    async () => {
      // The dossier holds exactly this folder's state (its copy imported), as after the bind's import.
      const { a, copy } = plainAndImported(db.url, "race")
      const checkpoint = putInput(a, "cp.json", { completedSteps: [{ id: "s1", summary: "step" }], nextAction: "m" })
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
      bindAsCopy(a, copy)
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

  it(
    "dossier mcp started in the plain folder: after the bind its calls run over the shared dossier, never the folder alone",
    async () => {
      const { a, copy } = plainAndImported(db.url, "mcprace")
      const server = await connect(a)
      try {
        const first = await server.call("plan_inspect")
        expect(first.body).toMatchObject({ revision: 1 })
        // Another shell binds the folder (the dossier holds exactly its state), and another host checkpoints.
        bindAsCopy(a, copy)
        ok(runCli([
          "plan",
          "checkpoint",
          "--input",
          putInput(copy, "cp0.json", { nextAction: "from the other host" }),
          "--expected",
          "1",
          "--workdir",
          copy,
          "--json"
        ]))
        // A read says what the store holds, not the folder's files.
        const read = await server.call("plan_inspect")
        expect(read.isError, read.text).toBe(false)
        expect(read.body).toMatchObject({ revision: 2, nextAction: "from the other host" })
        // A write reaches the store: the other host sees it.
        const wrote = await server.call("plan_checkpoint", { input: { nextAction: "over the store" }, expected: 2 })
        expect(wrote.isError, wrote.text).toBe(false)
        expect(revisionOf(copy)).toBe(3)
        expect(ok(runCli(["plan", "inspect", "--workdir", copy, "--json"])).nextAction).toBe("over the store")
        // The view the server's call touched was refreshed from the store.
        expect(fs.readFileSync(path.join(a, "plan.md"), "utf8")).toContain("over the store")
      } finally {
        await server.client.close()
      }
    },
    180_000
  )

  it(
    "dossier mcp: a call that waited for the lock while the bind held it writes nothing here, and again runs over the store",
    async () => {
      const { a, copy } = plainAndImported(db.url, "mcpwait")
      const planBefore = fs.readFileSync(path.join(a, "plan.md"), "utf8")
      const server = await connect(a)
      try {
        expect((await server.call("plan_inspect")).body).toMatchObject({ revision: 1 })
        // The bind holds the folder's lock; the call starts over the plain folder and waits for it.
        const lock = new Sqlite(path.join(a, ".dossier", "lock.sqlite"), { timeout: 0, fileMustExist: true })
        lock.exec("BEGIN IMMEDIATE")
        const running = server.call("plan_checkpoint", { input: { nextAction: "m" }, expected: 1 })
        await new Promise((resolve) => setTimeout(resolve, 3_000))
        bindAsCopy(a, copy)
        lock.exec("ROLLBACK")
        lock.close()
        const r = await running
        expect(r.isError, r.text).toBe(true)
        expect(r.body?.error).toMatchObject({ _tag: "StoreUnavailable", retryable: true })
        expect(r.body?.error.reason).toContain("bound to a shared dossier while the call waited")
        expect(fs.readFileSync(path.join(a, "plan.md"), "utf8")).toBe(planBefore)
        expect(revisionOf(copy)).toBe(1)
        // The same call again runs over the shared dossier.
        const again = await server.call("plan_checkpoint", { input: { nextAction: "m" }, expected: 1 })
        expect(again.isError, again.text).toBe(false)
        expect(revisionOf(copy)).toBe(2)
      } finally {
        await server.client.close()
      }
    },
    180_000
  )

  it.skipIf(!sandboxWorks)(
    "init --store while a plain exec's run is under way waits for it (LockTimeout), so the run's record reaches the store",
    async () => {
      const a = tempWorkdir("dossier-plainrace-exec-")
      ok(runCli(["init", "--workdir", a, "--json"]))
      put(a, "research/exp/data/train.csv", "a,b\n1,2\n")
      const grant = {
        id: "g1",
        task: "task",
        inputs: ["research/exp/data"],
        work: "research/exp/runs/r1",
        protected: [],
        tools: ["read", "bash"],
        budget: { runs: 5, wallSeconds: 120, cpuSeconds: 60, memoryMiB: 256, outputMiB: 4 },
        deadline: "2030-01-01T00:00:00Z"
      }
      ok(runCli(["grant", "create", "--input", putInput(a, "g1.json", grant), "--now", NOW, "--workdir", a, "--json"]))
      const running = runCliAsync([
        "exec",
        "--grant",
        "g1",
        "--workdir",
        a,
        "--json",
        "--",
        "/bin/sh",
        "-c",
        "sleep 20"
      ])
      const executions = path.join(a, ".dossier/executions")
      const underWay = () =>
        fs.existsSync(executions) && fs.readdirSync(executions).some((n) => n.endsWith(".running.json"))
      for (let i = 0; i < 300 && !underWay(); i++) await new Promise((r) => setTimeout(r, 100))
      expect(underWay()).toBe(true)

      // The bind waits for the run, bounded, and binds nothing: retryable.
      const during = runCli(["init", "--store", db.url, "--dossier", "execrace", "--workdir", a, "--json"])
      expect(during.code, during.stdout + during.stderr).toBe(1)
      expect(during.json?.error).toMatchObject({ _tag: "LockTimeout", retryable: true })
      expect(fs.existsSync(path.join(a, ".dossier/store.json"))).toBe(false)

      const run = await running
      expect(run.json?.ok, run.stdout + run.stderr).toBe(true)
      const id = run.json.execution.id as string
      // Once the run is recorded, the same bind imports the folder with the run's record.
      const bound = ok(runCli(["init", "--store", db.url, "--dossier", "execrace", "--workdir", a, "--json"]))
      expect(bound.store.imported).toBe(true)
      const stored = await adminQuery(
        db.url,
        "SELECT key FROM dossier.records WHERE dossier = 'execrace' AND kind = 'execution'"
      )
      expect(stored.rows.map((r) => r["key"])).toEqual([id])
    },
    180_000
  )
})
