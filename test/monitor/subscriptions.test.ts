/** Subscriptions through the built CLI: creation, idempotent retries, updates, status rules, due. */
import { assert, describe, it } from "@effect/vitest"
import { leaksNothing, put, runCliAsync, tempWorkdir } from "../support/cli.js"
import { at, literature, mon, monitorState, read, weekWindow } from "./support.js"

const NOW = "2026-11-30T10:00:00Z"

describe("monitor subscriptions (CLI)", () => {
  it("creates with defaults and answers a retry with created: false", async () => {
    const dir = tempWorkdir()
    const input = { kind: "literature", target: "graph neural networks", timezone: "Europe/Berlin", id: "gnn" }
    const r = await mon(dir, "create-subscription", input, NOW)
    assert.strictEqual(r.code, 0, r.stdout)
    const s = r.json.subscription
    assert.isTrue(r.json.created)
    assert.strictEqual(s.id, "gnn")
    assert.strictEqual(s.revision, 1)
    assert.strictEqual(s.status, "active")
    assert.deepStrictEqual(s.cadence, { every: 2, unit: "week" })
    assert.strictEqual(s.mode, "remind")
    assert.deepStrictEqual(s.budget, { maxSources: 20, maxMinutes: 30 })
    // default anchor: now (11:00 in Berlin) + 2 weeks, local.
    assert.strictEqual(s.anchor, "2026-12-14T11:00")
    assert.strictEqual(s.nextDueAt, "2026-12-14T10:00:00.000Z")
    assert.match(s.contentDigest, /^[0-9a-f]{64}$/)
    assert.isTrue(leaksNothing(dir, r))

    // Same id, same request, later: no-op even though the default anchor would differ now.
    const again = await mon(dir, "create-subscription", input, "2026-12-03T10:00:00Z")
    assert.strictEqual(again.code, 0)
    assert.isFalse(again.json.created)
    assert.deepStrictEqual(again.json.subscription, s)

    const other = await mon(dir, "create-subscription", { ...input, target: "something else" }, NOW)
    assert.strictEqual(other.code, 1)
    assert.strictEqual(other.json.error._tag, "ConflictingSubscription")
    assert.strictEqual(other.json.error.id, "gnn")
    assert.isFalse(other.json.error.retryable)
  })

  it("derives an id from the request when none is given, so a retry finds the same subscription", async () => {
    const dir = tempWorkdir()
    const input = { kind: "literature", target: "retrieval augmentation", timezone: "UTC", anchor: "2026-12-01T09:00" }
    const a = await mon(dir, "create-subscription", input, NOW)
    const b = await mon(dir, "create-subscription", input, NOW)
    assert.isTrue(a.json.created)
    assert.isFalse(b.json.created)
    assert.strictEqual(a.json.subscription.id, b.json.subscription.id)
    assert.match(a.json.subscription.id, /^sub-[0-9a-f]{16}$/)
    assert.strictEqual((await read(dir, ["due", "--now", NOW])).json.subscriptions.length, 1)
  })

  it("refuses bad input with the field named, and changes nothing", async () => {
    const dir = tempWorkdir()
    const cases: Array<[unknown, string]> = [
      [{ ...literature("a"), timezone: "Mars/Olympus" }, "timezone"],
      [{ ...literature("a"), anchor: "2026-12-01T09:00:00" }, "anchor"],
      [{ ...literature("a"), anchor: "2026-02-30T09:00" }, "anchor"],
      [{ ...literature("a"), cadence: { every: 0, unit: "week" } }, "cadence.every"],
      [{ ...literature("a"), cadence: { every: 1, unit: "year" } }, "cadence.unit"],
      [{ ...literature("a"), mode: "auto" }, "mode"],
      [{ ...literature("a"), kind: "news" }, "kind"],
      [{ ...literature("a"), id: "../x" }, "id"],
      [{ ...literature("a"), id: "a.b" }, "id"],
      [{ ...literature("a"), extra: 1 }, "extra"],
      [{ ...literature("a"), kind: "unit-recheck" }, "units"],
      [{ ...literature("a"), kind: "unit-recheck", units: [] }, "units"],
      [{ ...literature("a"), units: ["u1"] }, "units"],
      [{ ...literature("a"), kind: "survey-freshness" }, "survey"],
      [{ ...literature("a"), budget: { maxSources: -1, maxMinutes: 3 } }, "budget.maxSources"]
    ]
    const results = await Promise.all(cases.map(([input]) => mon(dir, "create-subscription", input, NOW)))
    for (const [i, [input, field]] of cases.entries()) {
      const r = results[i]!
      assert.strictEqual(r.code, 1, JSON.stringify(input))
      assert.strictEqual(r.json.error._tag, "InvalidInput", JSON.stringify(input))
      assert.include(r.json.error.issues.map((i: { path: string }) => i.path), field, JSON.stringify(r.json.error))
    }
    const missingSurvey = await mon(dir, "create-subscription", {
      ...literature("s"),
      kind: "survey-freshness",
      survey: "research/survey.md"
    }, NOW)
    assert.strictEqual(missingSurvey.json.error._tag, "FileNotFound")
    assert.strictEqual(missingSurvey.json.error.path, "research/survey.md")
    const escaping = await mon(dir, "create-subscription", {
      ...literature("s"),
      kind: "survey-freshness",
      survey: "../survey.md"
    }, NOW)
    assert.strictEqual(escaping.json.error._tag, "UnsafePath")
    assert.deepStrictEqual(monitorState(dir), {})
    put(dir, "research/survey.md", "# survey\n")
    const ok = await mon(dir, "create-subscription", {
      ...literature("s"),
      kind: "survey-freshness",
      survey: "./research/survey.md"
    }, NOW)
    assert.strictEqual(ok.code, 0, ok.stdout)
    assert.strictEqual(ok.json.subscription.survey, "research/survey.md")
  })

  it("update: revision check, new digest, and a grid change never makes it due right away", async () => {
    const dir = tempWorkdir()
    await mon(dir, "create-subscription", literature("lit"), NOW)
    const later = "2026-12-20T12:00:00Z" // windows 0..2 have started; it is due.
    assert.isTrue((await read(dir, ["due", "--now", later])).json.subscriptions[0].due)

    const stale = await mon(dir, "update-subscription", {
      subscriptionId: "lit",
      expectedRevision: 7,
      changes: { mode: "run" }
    }, later)
    assert.strictEqual(stale.json.error._tag, "StaleRevision")
    assert.deepStrictEqual([stale.json.error.expected, stale.json.error.actual], [7, 1])

    const mode = await mon(dir, "update-subscription", {
      subscriptionId: "lit",
      expectedRevision: 1,
      changes: { mode: "run" }
    }, later)
    assert.strictEqual(mode.code, 0, mode.stdout)
    assert.isFalse(mode.json.gridChanged)
    assert.strictEqual(mode.json.subscription.revision, 2)
    assert.strictEqual(mode.json.subscription.nextDueAt, weekWindow(0))
    assert.notStrictEqual(mode.json.subscription.contentDigest, mode.json.subscription.requestDigest)

    const grid = await mon(
      dir,
      "update-subscription",
      {
        subscriptionId: "lit",
        expectedRevision: 2,
        changes: { cadence: { every: 1, unit: "day" }, anchor: "2026-12-01T07:00" }
      },
      later
    )
    assert.isTrue(grid.json.gridChanged)
    // First window of the new grid after now: 2026-12-21 07:00 Berlin = 06:00Z.
    assert.strictEqual(grid.json.subscription.nextDueAt, "2026-12-21T06:00:00.000Z")
    assert.isFalse((await read(dir, ["due", "--now", later])).json.subscriptions[0].due)
    assert.strictEqual((await mon(dir, "create-due-run", { subscriptionId: "lit" }, later)).json.error._tag, "NotDue")
    assert.isTrue((await read(dir, ["due", "--now", "2026-12-21T06:00:00Z"])).json.subscriptions[0].due)

    const missing = await mon(
      dir,
      "update-subscription",
      { subscriptionId: "nope", expectedRevision: 1, changes: {} },
      later
    )
    assert.strictEqual(missing.json.error._tag, "SubscriptionNotFound")
  })

  it("status: active ⇄ paused, completed never returns, no completion with an active run", async () => {
    const dir = tempWorkdir()
    await mon(dir, "create-subscription", literature("lit"), NOW)
    const now = at(weekWindow(0), 60_000)
    const paused = await mon(dir, "set-subscription-status", {
      subscriptionId: "lit",
      expectedRevision: 1,
      status: "paused"
    }, now)
    assert.strictEqual(paused.json.subscription.status, "paused")
    assert.isFalse((await read(dir, ["due", "--now", now])).json.subscriptions[0].due)
    const notDue = await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)
    assert.strictEqual(notDue.json.error._tag, "NotDue")
    assert.strictEqual(notDue.json.error.status, "paused")
    // Its window has started: the message does not say "not due until" a time already past.
    assert.strictEqual(
      notDue.json.error.message,
      `The subscription is paused: it is not due until it is resumed (its next window starts ${weekWindow(0)}).`
    )

    const same = await mon(dir, "set-subscription-status", {
      subscriptionId: "lit",
      expectedRevision: 2,
      status: "paused"
    }, now)
    assert.isFalse(same.json.changed)
    const stale = await mon(dir, "set-subscription-status", {
      subscriptionId: "lit",
      expectedRevision: 1,
      status: "active"
    }, now)
    assert.strictEqual(stale.json.error._tag, "StaleRevision")

    await mon(dir, "set-subscription-status", { subscriptionId: "lit", expectedRevision: 2, status: "active" }, now)
    const run = await mon(dir, "create-due-run", { subscriptionId: "lit" }, now)
    assert.isTrue(run.json.created)
    const complete = await mon(dir, "set-subscription-status", {
      subscriptionId: "lit",
      expectedRevision: 4,
      status: "completed"
    }, now)
    assert.strictEqual(complete.json.error._tag, "ActiveRunExists")
    assert.strictEqual(complete.json.error.runId, run.json.run.id)

    await mon(dir, "transition-run", { runId: run.json.run.id, expectedRevision: 1, to: "cancelled" }, now)
    const done = await mon(dir, "set-subscription-status", {
      subscriptionId: "lit",
      expectedRevision: 5,
      status: "completed"
    }, now)
    assert.strictEqual(done.json.subscription.status, "completed")
    const back = await mon(dir, "set-subscription-status", {
      subscriptionId: "lit",
      expectedRevision: 6,
      status: "active"
    }, now)
    assert.strictEqual(back.json.error._tag, "SubscriptionCompleted")
    const edit = await mon(dir, "update-subscription", {
      subscriptionId: "lit",
      expectedRevision: 6,
      changes: { mode: "run" }
    }, now)
    assert.strictEqual(edit.json.error._tag, "SubscriptionCompleted")
    const due = await mon(dir, "create-due-run", { subscriptionId: "lit" }, at(weekWindow(5), 0))
    assert.strictEqual(due.json.error._tag, "NotDue")
    assert.strictEqual(due.json.error.nextDueAt, null)
    assert.strictEqual(due.json.error.message, "The subscription is completed: it is never due again.")
  })

  it("due lists every subscription with due, nextDueAt, activeRunId and mode", async () => {
    const dir = tempWorkdir()
    await mon(dir, "create-subscription", literature("a"), NOW)
    await mon(dir, "create-subscription", { ...literature("b"), anchor: "2027-01-05T09:00", mode: "run" }, NOW)
    const before = await read(dir, ["due", "--now", "2026-12-01T07:59:59Z"])
    assert.deepStrictEqual(before.json.subscriptions.map((s: { due: boolean }) => s.due), [false, false])
    const r = await read(dir, ["due", "--now", "2026-12-01T08:00:00Z"])
    assert.deepStrictEqual(
      r.json.subscriptions.map((s: any) => [s.id, s.due, s.nextDueAt, s.activeRunId, s.mode]),
      [
        ["a", true, "2026-12-01T08:00:00.000Z", null, "remind"],
        ["b", false, "2027-01-05T08:00:00.000Z", null, "run"]
      ]
    )
    const human = await runCliAsync(["monitor", "due", "--workdir", dir, "--now", "2026-12-01T08:00:00Z"])
    assert.strictEqual(human.code, 0)
    assert.include(human.stdout, "DUE a")
    assert.include(human.stdout, "remind the user first")
  })

  it("usage errors: unknown flag, bad --now, show without a target", async () => {
    const dir = tempWorkdir()
    assert.strictEqual((await runCliAsync(["monitor", "due", "--workdir", dir, "--bogus", "--json"])).code, 2)
    const badNow = await runCliAsync(["monitor", "due", "--workdir", dir, "--now", "tomorrow", "--json"])
    assert.strictEqual(badNow.code, 2)
    assert.strictEqual(badNow.json.error._tag, "UsageError")
    const neither = await runCliAsync(["monitor", "show", "--workdir", dir, "--json"])
    assert.strictEqual(neither.code, 2)
    assert.strictEqual(neither.json.error._tag, "UsageError")
    const both = await runCliAsync([
      "monitor",
      "show",
      "--workdir",
      dir,
      "--subscription",
      "a",
      "--run",
      "a.w0",
      "--json"
    ])
    assert.strictEqual(both.code, 2)
    const badId = await read(dir, ["show", "--subscription", "../../plan"])
    assert.strictEqual(badId.json.error._tag, "InvalidInput")
    assert.strictEqual((await read(dir, ["show", "--subscription", "nope"])).json.error._tag, "SubscriptionNotFound")
    assert.strictEqual((await read(dir, ["show", "--run", "nope.w0"])).json.error._tag, "RunNotFound")
    const help = await runCliAsync(["monitor", "create-subscription", "--help"])
    for (
      const field of [
        "kind",
        "target",
        "scope",
        "budget",
        "cadence",
        "timezone",
        "anchor",
        "mode",
        "units",
        "survey",
        "program",
        "preference",
        "id"
      ]
    ) {
      assert.include(help.stdout, field)
    }
  })
})
