/** Runs through the built CLI: one run per window, coalescing, frozen receipts, transitions. */
import { assert, describe, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { copyOfTemplateAsync, leaksNothing, tempWorkdir } from "../support/cli.js"
import { at, literature, mon, monitorState, read, weekWindow } from "./support.js"

const NOW = "2026-11-30T10:00:00Z"

/**
 * A folder holding subscription `lit` created at NOW, the start of most tests here: created once
 * through the CLI per file and its folder copied (./subscriptions.test.ts tests create-subscription).
 */
const subscribed = () =>
  copyOfTemplateAsync("lit", async (dir) => {
    const c = await mon(dir, "create-subscription", literature("lit"), NOW)
    if (c.json?.ok !== true) throw new Error(c.stdout + c.stderr)
  })

describe("monitor runs (CLI)", () => {
  it("not due before window 0; then one run for the latest window, missed windows coalesced, retries answered", async () => {
    const dir = tempWorkdir()
    await mon(dir, "create-subscription", literature("lit", { program: "prog-7", preference: "sel-42" }), NOW)
    const early = await mon(dir, "create-due-run", { subscriptionId: "lit" }, "2026-12-01T07:59:59Z")
    assert.strictEqual(early.json.error._tag, "NotDue")
    assert.strictEqual(early.json.error.nextDueAt, weekWindow(0))
    assert.strictEqual(early.json.error.message, `The subscription is not due until ${weekWindow(0)}.`)

    // Three windows have started (0, 1, 2): one run for window 2, coalescing all three.
    const now = at(weekWindow(2), 3_600_000)
    const r = await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)
    assert.strictEqual(r.code, 0, r.stdout)
    assert.isTrue(r.json.created)
    const run = r.json.run
    assert.strictEqual(run.id, "lit.w2")
    assert.strictEqual(run.windowIndex, 2)
    assert.strictEqual(run.windowStart, weekWindow(2))
    assert.strictEqual(run.coalescedWindows, 3)
    assert.strictEqual(run.status, "planned")
    assert.strictEqual(run.revision, 1)
    assert.match(run.receiptDigest, /^[0-9a-f]{64}$/)
    assert.strictEqual(run.frozen.target, "sparse attention for long documents")
    assert.strictEqual(run.frozen.preference, "sel-42")
    assert.strictEqual(run.frozen.program, "prog-7")
    assert.strictEqual(run.frozen.subscriptionRevision, 1)
    assert.match(run.frozen.scopeDigest, /^[0-9a-f]{64}$/)
    assert.isTrue(leaksNothing(dir, r))

    // A retry (lost answer) for the same window: the same run, created: false, nothing new.
    const before = monitorState(dir)
    const again = await mon(dir, "create-due-run", { subscriptionId: "lit" }, at(now, 60_000))
    assert.isFalse(again.json.created)
    assert.deepStrictEqual(again.json.run, run)
    assert.deepStrictEqual(monitorState(dir), before)
    assert.deepStrictEqual(
      Object.keys(before).filter((p) => p.includes("/runs/")),
      [".dossier/monitor/runs/lit.w2.json"]
    )

    // The next window starts while the run is active: no second run.
    const later = await mon(dir, "create-due-run", { subscriptionId: "lit" }, at(weekWindow(3), 1))
    assert.strictEqual(later.json.error._tag, "ActiveRunExists")
    assert.strictEqual(later.json.error.runId, "lit.w2")
    const due = (await read(dir, ["due", "--now", at(weekWindow(3), 1)])).json.subscriptions[0]
    assert.isFalse(due.due)
    assert.strictEqual(due.activeRunId, "lit.w2")
  })

  it("concurrent create-due-run calls for one window create exactly one run", async () => {
    const dir = await subscribed()
    const now = at(weekWindow(1), 1000)
    const results = await Promise.all(
      Array.from({ length: 6 }, () => mon(dir, "create-due-run", { subscriptionId: "lit" }, now))
    )
    for (const r of results) assert.strictEqual(r.code, 0, r.stdout + r.stderr)
    assert.strictEqual(results.filter((r) => r.json.created === true).length, 1)
    assert.deepStrictEqual([...new Set(results.map((r) => r.json.run.id))], ["lit.w1"])
    assert.deepStrictEqual(fs.readdirSync(path.join(dir, ".dossier/monitor/runs")), ["lit.w1.json"])
  })

  it("a started run never changes under the subscription: pause and edit keep its frozen receipt", async () => {
    const dir = await subscribed()
    const now = at(weekWindow(0), 1000)
    const run = (await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)).json.run
    await mon(dir, "update-subscription", {
      subscriptionId: "lit",
      expectedRevision: 2,
      changes: { target: "another topic", budget: { maxSources: 99, maxMinutes: 99 } }
    }, now)
    await mon(dir, "set-subscription-status", { subscriptionId: "lit", expectedRevision: 3, status: "paused" }, now)
    const shown = (await read(dir, ["show", "--run", run.id])).json.run
    assert.deepStrictEqual(shown.frozen, run.frozen)
    assert.strictEqual(shown.receiptDigest, run.receiptDigest)
    assert.isNull(shown.binding)
    // The paused subscription's run still moves on.
    const t = await mon(dir, "transition-run", { runId: run.id, expectedRevision: 1, to: "running" }, now)
    assert.strictEqual(t.json.run.status, "running")
    const sub = (await read(dir, ["show", "--subscription", "lit"])).json.subscription
    assert.strictEqual(sub.target, "another topic")
    assert.strictEqual(sub.status, "paused")
  })

  it("transitions follow the graph with revision checks; terminal runs never reopen; cancel advances from the anchor", async () => {
    const dir = await subscribed()
    const now = at(weekWindow(0), 1000)
    const id = (await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)).json.run.id
    const step = (rev: number, to: string, reason?: string) =>
      mon(dir, "transition-run", { runId: id, expectedRevision: rev, to, ...(reason ? { reason } : {}) }, now)

    const bad = await step(1, "blocked")
    assert.strictEqual(bad.json.error._tag, "InvalidTransition")
    assert.deepStrictEqual([bad.json.error.from, bad.json.error.to], ["planned", "blocked"])
    assert.strictEqual((await step(1, "completed")).json.error._tag, "InvalidTransition")
    assert.strictEqual((await step(9, "running")).json.error._tag, "StaleRevision")
    assert.strictEqual((await step(1, "running")).json.run.revision, 2)
    assert.strictEqual((await step(2, "blocked", "the connector is down")).json.run.status, "blocked")
    assert.strictEqual((await step(3, "running")).json.run.status, "running")
    assert.strictEqual((await step(4, "failed_retryable")).json.run.status, "failed_retryable")
    assert.strictEqual((await step(5, "planned")).json.error._tag, "InvalidTransition")
    const running = await step(5, "running")
    assert.strictEqual(running.json.run.transitions.length, 5)
    assert.strictEqual(running.json.run.transitions[1].reason, "the connector is down")
    // resume-monitor-run fact while active.
    const facts = (await read(dir, ["next", "--now", now])).json.facts
    assert.deepStrictEqual(facts.map((f: { kind: string }) => f.kind), ["resume-monitor-run"])
    assert.strictEqual(facts[0].runRevision, 6)
    assert.strictEqual(facts[0].status, "running")

    // Cancelled in window 2 (a week later): next due is window 3, the first after the cancel time.
    const cancelAt = at(weekWindow(2), 5000)
    const cancel = await mon(dir, "transition-run", { runId: id, expectedRevision: 6, to: "cancelled" }, cancelAt)
    assert.strictEqual(cancel.json.run.status, "cancelled")
    const sub = (await read(dir, ["show", "--subscription", "lit"])).json.subscription
    assert.strictEqual(sub.nextDueAt, weekWindow(3))
    assert.isNull(sub.activeRunId)
    for (const to of ["running", "cancelled", "blocked"]) {
      const r = await mon(dir, "transition-run", { runId: id, expectedRevision: 7, to }, cancelAt)
      assert.strictEqual(r.json.error._tag, "InvalidTransition")
      assert.strictEqual(r.json.error.from, "cancelled")
    }
    // Terminal runs do not appear in next.
    assert.deepStrictEqual((await read(dir, ["next", "--now", cancelAt])).json.facts, [])
    const nextRun = await mon(dir, "create-due-run", { subscriptionId: "lit" }, at(weekWindow(3), 0))
    assert.strictEqual(nextRun.json.run.id, "lit.w3")
    assert.strictEqual(nextRun.json.run.coalescedWindows, 1)
  })

  it("an altered receipt fails closed on load and is listed by next and due", async () => {
    const dir = await subscribed()
    const now = at(weekWindow(0), 1000)
    const id = (await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)).json.run.id
    const file = path.join(dir, ".dossier/monitor/runs", `${id}.json`)
    const record = JSON.parse(fs.readFileSync(file, "utf8"))
    record.frozen.budget.maxSources = 500 // widen the budget behind the program's back
    fs.writeFileSync(file, JSON.stringify(record))
    const show = await read(dir, ["show", "--run", id])
    assert.strictEqual(show.code, 1)
    assert.strictEqual(show.json.error._tag, "ReceiptDigestMismatch")
    assert.strictEqual(show.json.error.runId, id)
    const t = await mon(dir, "transition-run", { runId: id, expectedRevision: 1, to: "running" }, now)
    assert.strictEqual(t.json.error._tag, "ReceiptDigestMismatch")
    const next = (await read(dir, ["next", "--now", now])).json
    assert.strictEqual(next.ok, true)
    assert.deepStrictEqual(next.facts, [{ kind: "receipt-mismatch", runId: id, runRevision: 1 }])
    const due = (await read(dir, ["due", "--now", now])).json
    assert.deepStrictEqual(due.receiptMismatches, [id])
    // An unparseable run file is a mismatch too, never skipped.
    fs.writeFileSync(file, "{ not json")
    const next2 = (await read(dir, ["next", "--now", now])).json
    assert.deepStrictEqual(next2.facts, [{ kind: "receipt-mismatch", runId: id, runRevision: null }])
  })

  it("next, due and unresolved-outcomes list as a mismatch exactly the run records show refuses (a damage the receipt does not cover)", async () => {
    const dir = await subscribed()
    const now = at(weekWindow(0), 1000)
    const id = (await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)).json.run.id
    const file = path.join(dir, ".dossier/monitor/runs", `${id}.json`)
    const good = fs.readFileSync(file, "utf8")
    const damages: ReadonlyArray<(r: any) => void> = [
      (r) => {
        r.note = "an extra field"
      },
      (r) => {
        r.updatedAt = "yesterday"
      },
      (r) => {
        r.transitions = [{ from: "planned", to: "running", at: "2026-12-01T08:00:00Z", reason: null }]
      },
      (r) => {
        r.windowIndex = -1
      },
      (r) => {
        delete r.outcomes
      }
    ]
    for (const damage of damages) {
      const record = JSON.parse(good)
      damage(record)
      fs.writeFileSync(file, JSON.stringify(record))
      const show = await read(dir, ["show", "--run", id])
      assert.strictEqual(show.json.error?._tag, "ReceiptDigestMismatch", JSON.stringify(record))
      const next = (await read(dir, ["next", "--now", now])).json
      assert.deepStrictEqual(next.facts.map((f: any) => [f.kind, f.runId]), [["receipt-mismatch", id]])
      assert.deepStrictEqual((await read(dir, ["due", "--now", now])).json.receiptMismatches, [id])
      assert.deepStrictEqual((await read(dir, ["unresolved-outcomes"])).json.receiptMismatches, [id])
    }
    fs.writeFileSync(file, good)
    assert.deepStrictEqual((await read(dir, ["next", "--now", now])).json.facts.map((f: any) => f.kind), [
      "resume-monitor-run"
    ])
  })

  it("a subscription record whose time is not an instant is broken for next and corrupt for due (never silently not due)", async () => {
    const dir = await subscribed()
    const file = path.join(dir, ".dossier/monitor/subscriptions/lit.json")
    const record = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.writeFileSync(file, JSON.stringify({ ...record, nextDueAt: "soon" }))
    const next = (await read(dir, ["next", "--now", NOW])).json
    assert.deepStrictEqual(next.facts.map((f: any) => [f.kind, f.missing]), [[
      "broken-link",
      ".dossier/monitor/subscriptions/lit.json"
    ]])
    // `due` lists the damaged record by id, as `next` lists it as a fact (issue 13, item 17).
    const due = await read(dir, ["due", "--now", NOW])
    assert.strictEqual(due.code, 0)
    assert.deepStrictEqual(due.json.subscriptions, [])
    assert.deepStrictEqual(due.json.damaged, [{ id: "lit", damaged: "not a valid subscription record" }])
  })

  it("broken links fail closed: a run whose subscription is gone, a subscription whose run is gone", async () => {
    const dir = tempWorkdir()
    await mon(dir, "create-subscription", literature("a"), NOW)
    await mon(dir, "create-subscription", literature("b"), NOW)
    const now = at(weekWindow(0), 1000)
    const ra = (await mon(dir, "create-due-run", { subscriptionId: "a" }, now)).json.run.id
    const rb = (await mon(dir, "create-due-run", { subscriptionId: "b" }, now)).json.run.id
    fs.rmSync(path.join(dir, ".dossier/monitor/subscriptions/a.json"))
    fs.rmSync(path.join(dir, ".dossier/monitor/runs", `${rb}.json`))
    const facts = (await read(dir, ["next", "--now", now])).json.facts
    assert.deepStrictEqual(
      facts.map((f: any) => [f.kind, f.runId, f.missing]),
      [
        ["broken-link", rb, `.dossier/monitor/runs/${rb}.json`],
        ["broken-link", ra, ".dossier/monitor/subscriptions/a.json"]
      ]
    )
  })
})

describe("monitor state edited by hand (CLI)", () => {
  it("a subscription record with an impossible time zone is refused as corrupt, never a defect", async () => {
    const dir = await subscribed()
    const file = path.join(dir, ".dossier/monitor/subscriptions/lit.json")
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("Europe/Berlin", "Mars/Olympus"))
    const r = await mon(dir, "create-due-run", { subscriptionId: "lit" }, at(weekWindow(0), 1))
    assert.strictEqual(r.code, 1, r.stdout)
    assert.strictEqual(r.json.error._tag, "CorruptMonitorRecord")
    assert.deepStrictEqual((await read(dir, ["due", "--now", NOW])).json.damaged, [{
      id: "lit",
      damaged: "not a valid subscription record"
    }])
    const next = await read(dir, ["next", "--now", NOW])
    assert.strictEqual(next.code, 0)
  })

  it("a record that lacks a field is corrupt, and the reason names the field, not a missing file", async () => {
    const dir = await subscribed()
    const file = path.join(dir, ".dossier/monitor/subscriptions/lit.json")
    const { revision: _, ...rest } = JSON.parse(fs.readFileSync(file, "utf8"))
    fs.writeFileSync(file, JSON.stringify(rest))
    const r = await read(dir, ["show", "--subscription", "lit"])
    assert.strictEqual(r.code, 1, r.stdout)
    assert.deepInclude(r.json.error, {
      _tag: "CorruptMonitorRecord",
      path: ".dossier/monitor/subscriptions/lit.json",
      reason: "revision: is missing"
    })
    assert.include(r.json.error.message, "(revision: is missing)")
  })
})
