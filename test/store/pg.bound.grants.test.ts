/**
 * Grants and execution records in bound folders, through the built CLI with --json against the
 * test's own throwaway cluster (skipped with a note without the server binaries): two folders
 * (two hosts) bound to one dossier share the grants, their events and the execution records — a
 * grant made on one host is shown and revoked on the other without a pull, a run's record and
 * logs are the store's, and each writing command refreshes the folder's view of them. A grant's
 * roots stay each host's own: the other folder's directories are other directories.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { sandboxWorks } from "../exec/support.js"
import { put, putInput, runCli, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok } from "./support/populated.js"

describe.skipIf(!pgAvailable)("grants and execution records in bound folders", () => {
  const db = useTestDatabase()

  const bind = (name: string) => {
    const dir = tempWorkdir(`dossier-bound-grants-${name}-`)
    ok(runCli(["init", "--store", db.url, "--dossier", "evidence", "--workdir", dir, "--json"]))
    put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
    return dir
  }
  const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])
  const kinds = async () =>
    (await adminQuery(
      db.url,
      `SELECT split_part(kind, '@', 1) AS kind, count(*)::int AS n FROM dossier.records WHERE dossier = 'evidence'
         AND (kind IN ('grant', 'execution', 'execution-log') OR kind LIKE 'execution-marker@%')
         GROUP BY 1 ORDER BY 1`
    )).rows

  it("two hosts share grants, their events and execution records; the views are refreshed", async () => {
    const a = bind("a")
    const b = bind("b")
    const input = {
      id: "g1",
      task: "task",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/r1",
      protected: [],
      tools: ["read", "bash"],
      budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 4 },
      deadline: "2030-01-01T00:00:00Z"
    }
    ok(cli(a, ["grant", "create", "--input", putInput(a, "g1.json", input), "--now", NOW]))
    expect(await kinds()).toEqual([{ kind: "grant", n: 1 }])
    // A's view holds it (refreshed after the command); B reads it from the store without a pull.
    expect(fs.existsSync(path.join(a, ".dossier/grants/g1.json"))).toBe(true)
    const shownOnB = ok(cli(b, ["grant", "show", "--grant", "g1", "--now", NOW]))
    expect(shownOnB).toEqual(ok(cli(a, ["grant", "show", "--grant", "g1", "--now", NOW])))
    expect(shownOnB.state).toBe("active")
    // The same id from B with other content is refused; narrowing from B holds on A.
    expect(
      cli(b, ["grant", "create", "--input", putInput(b, "g1.json", { ...input, task: "other" }), "--now", NOW]).json
    )
      .toMatchObject({ ok: false, error: { _tag: "ConflictingGrant" } })
    ok(
      cli(b, [
        "grant",
        "narrow",
        "--grant",
        "g1",
        "--input",
        putInput(b, "n.json", { budget: { runs: 3 } }),
        "--now",
        NOW
      ])
    )
    expect(ok(cli(a, ["grant", "show", "--grant", "g1", "--now", NOW])).budget.runs).toBe(3)

    let execution: string | null = null
    if (sandboxWorks) {
      // A runs under the grant: the record and the logs are the store's, the outputs A's own.
      const run = ok(runCli(["exec", "--grant", "g1", "--workdir", a, "--json", "--", "/bin/sh", "-c", "echo out"]))
      execution = run.execution.id as string
      expect(await kinds()).toEqual([
        { kind: "execution", n: 1 },
        { kind: "execution-log", n: 2 },
        { kind: "grant", n: 1 }
      ])
      expect(fs.readFileSync(path.join(a, `.dossier/executions/${execution}/stdout`), "utf8")).toBe("out\n")
      // B sees the run spent and shows its record; the record's signature is this user's key on this machine.
      expect(ok(cli(b, ["grant", "show", "--grant", "g1", "--now", NOW])).remaining.runs).toBe(2)
      expect(ok(cli(b, ["exec", "show", "--execution", execution])).authentication.authenticity).toBe("signed")
      // B's roots are other directories than the ones A's grant names: exec there is refused.
      const onB = runCli(["exec", "--grant", "g1", "--workdir", b, "--json", "--", "/bin/true"])
      expect({ ok: onB.json?.ok, tag: onB.json?.error?._tag }, onB.stdout).toEqual({
        ok: false,
        tag: "RootIdentityChanged"
      })
    }

    // B revokes: A's next command sees it, and B's view holds the event.
    const revoked = ok(cli(b, ["grant", "revoke", "--grant", "g1", "--reason", "done", "--now", NOW]))
    expect(revoked.appended).toBe(true)
    expect(ok(cli(a, ["grant", "show", "--grant", "g1", "--now", NOW])).state).toBe("revoked")
    expect(fs.readFileSync(path.join(b, ".dossier/grants/g1.events.jsonl"), "utf8").trim().split("\n")).toHaveLength(2)
    // A pull brings A's view up to the store: the same grant files on both hosts.
    ok(runCli(["pull", "--workdir", a, "--json"]))
    for (const f of [".dossier/grants/g1.json", ".dossier/grants/g1.events.jsonl"]) {
      expect(fs.readFileSync(path.join(a, f), "utf8"), f).toBe(fs.readFileSync(path.join(b, f), "utf8"))
    }
    if (execution !== null) {
      // B's commands refreshed the part of its view they touched (the grants), not A's run: a pull brings it.
      expect(fs.existsSync(path.join(b, `.dossier/executions/${execution}.json`))).toBe(false)
      ok(runCli(["pull", "--workdir", b, "--json"]))
      expect(fs.readFileSync(path.join(b, `.dossier/executions/${execution}.json`), "utf8")).toBe(
        fs.readFileSync(path.join(a, `.dossier/executions/${execution}.json`), "utf8")
      )
    }
  }, 120_000)
})
