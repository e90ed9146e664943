/**
 * Contract slips of issue 13 (items 15–17: the monitor's due runs and retries, a plan
 * checkpoint's step ids, a gate run with nothing left to research), each through the built CLI as
 * an agent meets it. A refusal is checked to be typed, to leak no path or stack trace, and to
 * change nothing in the work folder.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { folder, NOW, parkedMaturity } from "../gate/support.js"
import { at, finishInput, literature, mon, read, runningRun, weekWindow } from "../monitor/support.js"
import { put, putInput, snapshot, tempWorkdir } from "../support/cli.js"
import { cli, refused } from "./support.js"

afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))

describe("15–17: monitor contract slips", () => {
  it("15: create-due-run after the window's run was cancelled answers NotDue with the next window", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRun(dir, "lit", now)
    expect(
      (await mon(dir, "transition-run", { runId: run.id, expectedRevision: run.revision, to: "cancelled" }, now)).code
    ).toBe(0)
    const r = await mon(dir, "create-due-run", { subscriptionId: "lit" }, at(now, 1000))
    expect(r.code, r.stdout).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "NotDue", nextDueAt: weekWindow(1) })
  })

  it("16: an exact repeat of a successful finish-run answers the completed run with changed: false", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRun(dir, "lit", now)
    const input = finishInput(dir, run)
    const first = await mon(dir, "finish-run", input, now)
    expect(first.code, first.stdout).toBe(0)
    expect(first.json.changed).toBe(true)
    const before = snapshot(dir)
    const again = await mon(dir, "finish-run", input, at(now, 5000))
    expect(again.code, again.stdout).toBe(0)
    expect(again.json).toMatchObject({
      ok: true,
      changed: false,
      run: first.json.run,
      subscription: first.json.subscription
    })
    const after = snapshot(dir)
    for (const k of Object.keys(after)) if (!k.startsWith("research/inputs/")) expect(after[k]).toBe(before[k])
    // A different input after the success is still refused.
    const other = await mon(dir, "finish-run", { ...input, outcomes: [] }, now)
    expect(other.json.error._tag).toBe("StaleRevision")
  })

  it("16: a finish-run whose stage sha256 was left out (computed) is still a harmless retry", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRun(dir, "lit", now)
    const { stage, ...rest } = finishInput(dir, run)
    const input = { ...rest, stage: { path: stage.path } }
    const first = await mon(dir, "finish-run", input, now)
    expect(first.code, first.stdout).toBe(0)
    expect(first.json.run.completion.stage.sha256).toBe(stage.sha256)
    const before = snapshot(dir)
    const again = await mon(dir, "finish-run", input, at(now, 5000))
    expect(again.code, again.stdout).toBe(0)
    expect(again.json).toMatchObject({ ok: true, changed: false, run: first.json.run })
    const after = snapshot(dir)
    for (const k of Object.keys(after)) if (!k.startsWith("research/inputs/")) expect(after[k]).toBe(before[k])
    // Once the stage file changed, the same input no longer names what was finished.
    put(dir, stage.path, "edited\n")
    expect((await mon(dir, "finish-run", input, now)).json.error._tag).toBe("StaleRevision")
  })

  it("16: plan checkpoint refuses two steps with the same id in one input", () => {
    const dir = tempWorkdir()
    expect(
      cli(dir, ["plan", "start", "--input", putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" })]).code
    ).toBe(0)
    const cp = putInput(dir, "c.json", { completedSteps: [{ summary: "a", id: "s1" }, { summary: "b", id: "s1" }] })
    const r = refused(dir, () => cli(dir, ["plan", "checkpoint", "--input", cp, "--expected", "1"]), 1, "InvalidInput")
    expect(r.json.error.issues).toEqual([{
      path: "completedSteps.1.id",
      message: "duplicate id 's1' (also at completedSteps.0)"
    }])
  })

  it("16: a gate run with nothing left to research records no round", () => {
    const f = folder()
    f.writeState(parkedMaturity([]))
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [] })
    const r = f.gate(["--record-attempt"])
    expect(r.code, r.stdout).toBe(0)
    expect(r.json).toMatchObject({ decision: "proceed", researchRounds: 0 })
    // The row records the answer, which counts no round.
    const rows = fs.readFileSync(path.join(f.dir, ".dossier/gate/attempted.jsonl"), "utf8").trim().split("\n").map((
      l
    ) => JSON.parse(l))
    expect(rows).toEqual([{ item: "PROJ-12", at: NOW, researchRounds: 0, decision: "proceed" }])
  })

  it("17: monitor due lists the healthy subscriptions and reports a damaged one; a garbage run file is a corrupt record", async () => {
    const dir = tempWorkdir()
    const run = await runningRun(dir, "lit", at(weekWindow(0), 1000))
    expect((await mon(dir, "create-subscription", literature("other"), NOW)).code).toBe(0)
    put(dir, ".dossier/monitor/subscriptions/broken.json", "{ not json")
    const due = await read(dir, ["due"])
    expect(due.code, due.stdout).toBe(0)
    expect(due.json.subscriptions.map((s: { id: string }) => s.id).sort()).toEqual(["lit", "other"])
    expect(due.json.damaged).toEqual([{ id: "broken", damaged: "not a valid subscription record" }])
    put(dir, `.dossier/monitor/runs/${run.id}.json`, "garbage")
    const show = await read(dir, ["show", "--run", run.id])
    expect(show.code).toBe(1)
    expect(show.json.error).toMatchObject({
      _tag: "CorruptMonitorRecord",
      path: `.dossier/monitor/runs/${run.id}.json`,
      reason: "not a JSON object"
    })
  })
})
