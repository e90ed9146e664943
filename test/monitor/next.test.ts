/** `dossier next` through the built CLI: facts across the work folder, each with its revisions. */
import { assert, describe, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { leaksNothing, put, putInput, runCliAsync, tempWorkdir } from "../support/cli.js"
import { at, literature, mon, read, weekWindow } from "./support.js"

const NOW = "2026-11-30T10:00:00Z"

describe("dossier next (CLI)", () => {
  it("lists plan, journal and monitor facts with their revisions", async () => {
    const dir = tempWorkdir()
    assert.deepStrictEqual((await read(dir, ["next", "--now", NOW])).json.facts, [])
    const p = putInput(dir, "plan.json", { goal: "survey sparse attention", limits: [], nextAction: "read" })
    assert.strictEqual(
      (await runCliAsync(["plan", "start", "--workdir", dir, "--input", p, "--now", NOW, "--json"])).code,
      0
    )
    put(dir, "research/sources/a.txt", "source bytes\n")
    const c = putInput(dir, "cp.json", {
      sources: [{ path: "research/sources/a.txt", origin: "https://example.org/test" }]
    })
    assert.strictEqual(
      (await runCliAsync([
        "plan",
        "checkpoint",
        "--workdir",
        dir,
        "--input",
        c,
        "--expected",
        "1",
        "--now",
        NOW,
        "--json"
      ])).code,
      0
    )
    fs.appendFileSync(path.join(dir, "research/sources/a.txt"), "edited\n")
    put(dir, "research/s1/research-events.jsonl", "{\"id\":\"e1\"")
    put(dir, "research/s2/research-events.jsonl", "garbage\n")
    await mon(dir, "create-subscription", literature("lit", { mode: "run" }), NOW)
    const now = at(weekWindow(1), 5)
    const r = await read(dir, ["next", "--now", now])
    assert.strictEqual(r.code, 0, r.stdout)
    assert.isTrue(leaksNothing(dir, r))
    assert.deepStrictEqual(
      r.json.facts.map((f: any) => f.kind),
      ["plan-needs-attention", "journal-unterminated-tail", "journal-corrupt", "subscription-due"]
    )
    const [plan, tail, corrupt, due] = r.json.facts
    assert.strictEqual(plan.planRevision, 2)
    assert.deepStrictEqual(plan.findings, [{ kind: "source-changed", path: "research/sources/a.txt" }])
    assert.deepStrictEqual([tail.study, tail.tailBytes], ["s1", 10])
    assert.strictEqual(corrupt.study, "s2")
    assert.deepStrictEqual(
      [due.subscriptionId, due.subscriptionRevision, due.mode, due.nextDueAt],
      ["lit", 1, "run", weekWindow(0)]
    )
    assert.strictEqual(r.json.count, 4)
    const human = await runCliAsync(["next", "--workdir", dir, "--now", now])
    assert.strictEqual(human.code, 0)
    assert.include(human.stdout, "subscription lit is due")
    assert.include(human.stdout, "may run straight away")
  })

  it("a corrupt plan is a fact, not a failure", async () => {
    const dir = tempWorkdir()
    put(dir, "plan.md", "# notes\n<!-- dossier:plan:begin -->\nnot closed\n")
    const r = await read(dir, ["next", "--now", NOW])
    assert.strictEqual(r.code, 0, r.stdout)
    assert.deepStrictEqual(r.json.facts.map((f: any) => f.kind), ["plan-corrupt"])
  })

  it("an interrupted transaction is repaired by next (read-only) and reported once", async () => {
    const dir = tempWorkdir()
    await mon(dir, "create-subscription", literature("lit"), NOW)
    const subFile = ".dossier/monitor/subscriptions/lit.json"
    const before = fs.readFileSync(path.join(dir, subFile), "utf8")
    const after = JSON.stringify({ ...JSON.parse(before), mode: "run", revision: 2 })
    // A transaction that died after its commit mark, before replacing the file.
    put(
      dir,
      ".dossier/monitor/intent.json",
      JSON.stringify({
        version: 1,
        id: "t1",
        committed: true,
        files: [{ kind: "replace", path: subFile, before, after }]
      })
    )
    const r = await read(dir, ["next", "--now", NOW])
    assert.deepStrictEqual(r.json.facts, [
      { kind: "transaction-recovered", transactionId: "t1", direction: "rolled-forward", paths: [subFile] }
    ])
    assert.strictEqual(fs.readFileSync(path.join(dir, subFile), "utf8"), after)
    assert.isFalse(fs.existsSync(path.join(dir, ".dossier/monitor/intent.json")))
    assert.deepStrictEqual((await read(dir, ["next", "--now", NOW])).json.facts, [])

    // Uncommitted: rolled back, by any monitor command (here `due`).
    put(
      dir,
      ".dossier/monitor/intent.json",
      JSON.stringify({
        version: 1,
        id: "t2",
        committed: false,
        files: [{ kind: "replace", path: ".dossier/monitor/runs/lit.w0.json", before: null, after: "{}" }]
      })
    )
    put(dir, ".dossier/monitor/runs/lit.w0.json", "{}")
    assert.strictEqual((await read(dir, ["due", "--now", NOW])).code, 0)
    assert.isFalse(fs.existsSync(path.join(dir, ".dossier/monitor/runs/lit.w0.json")))

    // An intent naming a file outside the monitor is refused, not followed.
    put(
      dir,
      ".dossier/monitor/intent.json",
      JSON.stringify({
        version: 1,
        id: "t3",
        committed: true,
        files: [{ kind: "replace", path: "plan.md", before: null, after: "owned" }]
      })
    )
    const refused = await read(dir, ["due", "--now", NOW])
    assert.strictEqual(refused.code, 1)
    assert.strictEqual(refused.json.error._tag, "CorruptMonitorRecord")
    assert.isFalse(fs.existsSync(path.join(dir, "plan.md")))
  })
})
