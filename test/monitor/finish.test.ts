/** finish-run and outcome dispositions through the built CLI: every check refuses and changes nothing. */
import { assert, describe, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { put, runCliAsync, tempWorkdir } from "../support/cli.js"
import { at, finishInput, mon, monitorState, read, runningRunInProcess, sha, weekWindow } from "./support.js"

describe("monitor finish-run (CLI)", () => {
  it("refuses every failed check with its tag and changes nothing", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRunInProcess(dir, "lit", now)
    const good = finishInput(dir, run)
    const before = monitorState(dir)
    const expectRefusal = async (input: unknown, tag: string, fields: Record<string, unknown> = {}) => {
      const r = await mon(dir, "finish-run", input, now)
      assert.strictEqual(r.code, 1, r.stdout)
      assert.strictEqual(r.json.error._tag, tag, r.stdout)
      for (const [k, v] of Object.entries(fields)) assert.deepStrictEqual(r.json.error[k], v, `${tag}.${k}`)
      assert.deepStrictEqual(monitorState(dir), before, `${tag} changed state`)
      return r.json.error
    }
    await expectRefusal({ ...good, expectedRevision: 1 }, "StaleRevision", { expected: 1, actual: 2 })
    await expectRefusal({ ...good, binding: { ...good.binding, runId: "other.w0" } }, "BindingMismatch")
    await expectRefusal({ ...good, binding: { ...good.binding, taskDigest: "0".repeat(64) } }, "BindingMismatch")
    await expectRefusal({ ...good, stage: { ...good.stage, sha256: "f".repeat(64) } }, "DigestMismatch", {
      path: good.stage.path,
      expected: "f".repeat(64),
      actual: good.stage.sha256
    })
    const none = await expectRefusal(
      { ...good, stage: { path: "research/results/none.md", sha256: good.stage.sha256 } },
      "DigestMismatch",
      {
        actual: null
      }
    )
    // A missing stage file is said to be missing, not to have other bytes.
    assert.strictEqual(
      none.message,
      "There is no file at 'research/results/none.md' to compare with the SHA-256 given."
    )
    // A stage file without the binding in its text.
    put(dir, "research/results/unbound.md", "no binding here\n")
    await expectRefusal(
      { ...good, stage: { path: "research/results/unbound.md", sha256: sha("no binding here\n") } },
      "BindingMismatch"
    )
    const outcome = good.outcomes[0] as any
    await expectRefusal({ ...good, outcomes: [{ ...outcome, label: "confirmed" }] }, "InvalidInput")
    await expectRefusal({ ...good, outcomes: [outcome, outcome] }, "InvalidInput", {
      issues: [{ path: "outcomes.1.id", message: "duplicate outcome id 'o1'" }]
    })
    await expectRefusal(
      {
        ...good,
        outcomes: [{
          ...outcome,
          citations: [{ path: "research/sources/paper.txt", quote: "this sentence is not in the paper at all" }]
        }]
      },
      "CitationNotFound",
      { outcome: "o1", path: "research/sources/paper.txt", reason: "quote-not-found" }
    )
    // A quote that does occur but is too short: the refusal says so, not that it is absent.
    const short = await expectRefusal(
      {
        ...good,
        outcomes: [{ ...outcome, citations: [{ path: "research/sources/paper.txt", quote: "Sparse attention" }] }]
      },
      "CitationNotFound",
      { reason: "quote-too-short" }
    )
    assert.match(short.message, /shorter than 20 characters/)
    assert.notMatch(short.message, /does not occur/)
    await expectRefusal(
      {
        ...good,
        outcomes: [{
          ...outcome,
          citations: [{ path: "research/sources/gone.txt", quote: "block sparsity keeps accuracy" }]
        }]
      },
      "CitationNotFound",
      { path: "research/sources/gone.txt", reason: "file-missing" }
    )
    await expectRefusal(
      {
        ...good,
        outcomes: [{ ...outcome, citations: [{ path: "../outside.txt", quote: "block sparsity keeps accuracy" }] }]
      },
      "UnsafePath"
    )
    await expectRefusal({ ...good, units: ["u1"] }, "InvalidInput")
    await expectRefusal({ ...good, survey: { path: "research/survey.md", sha256: "a".repeat(64) } }, "InvalidInput")
  })

  it("a citation that crosses a link in a readable copy verifies (the text a reader sees)", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRunInProcess(dir, "lit", now)
    put(
      dir,
      "research/sources/paper.md",
      "# Paper\n\nWe find that *block sparsity* keeps [accuracy](https://example.test/acc) within one point.\n"
    )
    const quote = "block sparsity keeps accuracy within one point"
    const input = finishInput(dir, run, [{
      id: "o1",
      label: "new",
      reason: "r",
      citations: [{ path: "research/sources/paper.md", quote }]
    }])
    const r = await mon(dir, "finish-run", input, now)
    assert.strictEqual(r.code, 0, r.stdout)
    assert.deepStrictEqual(r.json.run.outcomes[0].citations, [{ path: "research/sources/paper.md", quote }])
  })

  it("completes atomically: run completed, outcomes undecided, next window from the anchor, one report line", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRunInProcess(dir, "lit", now, { program: "prog-1" })
    // Whitespace and NFC differences do not matter to the shared quote matcher.
    const input = finishInput(dir, run, [
      {
        id: "o1",
        label: "new",
        reason: "new block-sparse result",
        citations: [{ path: "research/sources/paper.txt", quote: "block   sparsity keeps\naccuracy within one point" }]
      },
      { id: "o2", label: "contradiction_candidate", reason: "contradicts the linear claim", citations: [] },
      { id: "o3", label: "no_substantive_change", reason: "nothing else", citations: [] }
    ])
    const finishedAt = at(weekWindow(2), 1000) // finished two weeks later: next is window 3, not finish + cadence
    const r = await mon(dir, "finish-run", input, finishedAt)
    assert.strictEqual(r.code, 0, r.stdout)
    assert.strictEqual(r.json.run.status, "completed")
    assert.strictEqual(r.json.run.revision, 3)
    assert.deepStrictEqual(r.json.run.outcomes.map((o: any) => [o.id, o.disposition]), [["o1", null], ["o2", null], [
      "o3",
      null
    ]])
    assert.strictEqual(r.json.subscription.nextDueAt, weekWindow(3))
    assert.isTrue(r.json.reported)
    assert.include(r.json.note, "not")
    const lines = fs.readFileSync(path.join(dir, ".dossier/monitor/reports.jsonl"), "utf8").trim().split("\n")
    assert.strictEqual(lines.length, 1)
    const line = JSON.parse(lines[0]!)
    assert.deepStrictEqual(
      [
        line.event,
        line.program,
        line.runId,
        line.outcomes,
        line.outcomeCounts.new,
        line.outcomeCounts.contradiction_candidate
      ],
      ["run-completed", "prog-1", run.id, 3, 1, 1]
    )
    assert.notProperty(line, "reason")
    assert.isFalse(fs.existsSync(path.join(dir, ".dossier/monitor/intent.json")))
    const shown = (await read(dir, ["show", "--run", run.id])).json.run
    assert.strictEqual(shown.binding, "verified")
    // A person sees the run's outcomes too, as --json lists them: id, label, reason, disposition.
    const human = await runCliAsync(["monitor", "show", "--run", run.id, "--workdir", dir])
    assert.strictEqual(human.code, 0, human.stderr)
    assert.include(
      human.stdout,
      [
        "3 outcome(s):",
        "  o1: new — new block-sparse result; no disposition yet",
        "  o2: contradiction_candidate — contradicts the linear claim; no disposition yet",
        "  o3: no_substantive_change — nothing else; no disposition yet"
      ].join("\n")
    )
    // Terminal: never reopens, finish again refused.
    const again = await mon(dir, "finish-run", { ...input, expectedRevision: 3 }, finishedAt)
    assert.strictEqual(again.json.error._tag, "InvalidTransition")
    assert.deepStrictEqual(
      (await read(dir, ["unresolved-outcomes"])).json.outcomes.map((o: any) => o.outcomeId),
      ["o1", "o2", "o3"]
    )
    // A record naming its stage file in another spelling of the same path (hand-edited) still
    // finds it: the digest is looked up by the path as the record writes it.
    const record = path.join(dir, ".dossier/monitor/runs", `${run.id}.json`)
    const recordBytes = fs.readFileSync(record)
    const respelled = input.stage.path.replace("research/", "research/./")
    fs.writeFileSync(
      record,
      recordBytes.toString("utf8").replace(JSON.stringify(input.stage.path), JSON.stringify(respelled))
    )
    assert.deepStrictEqual(
      (await read(dir, ["next", "--now", finishedAt])).json.facts.map((f: any) => f.kind),
      ["unresolved-outcome", "unresolved-outcome", "unresolved-outcome"]
    )
    fs.writeFileSync(record, recordBytes)
    // The stage bytes change later: the completion binding is stale, not verified.
    fs.appendFileSync(path.join(dir, input.stage.path), "edited\n")
    assert.strictEqual((await read(dir, ["show", "--run", run.id])).json.run.binding, "stale")
    const facts = (await read(dir, ["next", "--now", finishedAt])).json.facts
    assert.deepStrictEqual(
      facts.map((f: any) => [f.kind, f.outcomeId ?? f.paths ?? null]),
      [
        ["completion-binding-stale", [input.stage.path]],
        ["unresolved-outcome", "o1"],
        ["unresolved-outcome", "o2"],
        ["unresolved-outcome", "o3"]
      ]
    )
    assert.isTrue(facts.every((f: any) => f.runRevision === 3))
  })

  it("unit-recheck lists every frozen unit; survey-freshness binds the survey bytes read", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRunInProcess(dir, "units", now, { kind: "unit-recheck", units: ["u1", "u2"] })
    const input = finishInput(dir, run, [])
    const missing = await mon(dir, "finish-run", { ...input, units: ["u1"] }, now)
    assert.strictEqual(missing.json.error._tag, "MissingUnits")
    assert.deepStrictEqual(missing.json.error.missing, ["u2"])
    assert.strictEqual((await mon(dir, "finish-run", input, now)).json.error._tag, "MissingUnits")
    const extra = await mon(dir, "finish-run", { ...input, units: ["u1", "u2", "u3"] }, now)
    assert.strictEqual(extra.json.error._tag, "InvalidInput")
    const ok = await mon(dir, "finish-run", { ...input, units: ["u2", "u1"] }, now)
    assert.strictEqual(ok.code, 0, ok.stdout)

    put(dir, "research/survey.md", "# Survey\nv1\n")
    const srun = await runningRunInProcess(dir, "survey", now, {
      kind: "survey-freshness",
      survey: "research/survey.md"
    })
    const sinput = finishInput(dir, srun, [])
    assert.strictEqual((await mon(dir, "finish-run", sinput, now)).json.error._tag, "InvalidInput")
    const wrong = await mon(dir, "finish-run", {
      ...sinput,
      survey: { path: "research/survey.md", sha256: sha("# Survey\nv0\n") }
    }, now)
    assert.strictEqual(wrong.json.error._tag, "DigestMismatch")
    assert.strictEqual(wrong.json.error.actual, sha("# Survey\nv1\n"))
    const other = await mon(dir, "finish-run", {
      ...sinput,
      survey: { path: input.stage.path, sha256: input.stage.sha256 }
    }, now)
    assert.strictEqual(other.json.error._tag, "BindingMismatch")
    const done = await mon(dir, "finish-run", {
      ...sinput,
      survey: { path: "research/survey.md", sha256: sha("# Survey\nv1\n") }
    }, now)
    assert.strictEqual(done.code, 0, done.stdout)
    put(dir, "research/survey.md", "# Survey\nv2\n")
    assert.strictEqual((await read(dir, ["show", "--run", srun.id])).json.run.binding, "stale")
    assert.isFalse(done.json.reported)
    assert.isFalse(fs.existsSync(path.join(dir, ".dossier/monitor/reports.jsonl")))
    // A stale survey and a removed stage file: the stage is a broken link, and the stale binding
    // names the stale survey before the gone stage.
    fs.rmSync(path.join(dir, sinput.stage.path))
    const sfacts = (await read(dir, ["next", "--now", now])).json.facts.filter((f: any) => f.runId === srun.id)
    assert.deepStrictEqual(sfacts.map((f: any) => [f.kind, f.missing ?? f.paths]), [
      ["broken-link", sinput.stage.path],
      ["completion-binding-stale", ["research/survey.md", sinput.stage.path]]
    ])
  })
})

describe("monitor outcome dispositions (CLI)", () => {
  it("set once, with the authorization rules; unresolved outcomes stay listed until decided", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRunInProcess(dir, "lit", now)
    const input = finishInput(dir, run, [
      { id: "n1", label: "new", reason: "r", citations: [] },
      { id: "c1", label: "contradiction_candidate", reason: "r", citations: [] },
      { id: "w1", label: "worth_reviewing", reason: "r", citations: [] }
    ])
    // Not completed yet: no outcome to decide.
    assert.strictEqual(
      (await mon(dir, "set-outcome-disposition", { runId: run.id, outcomeId: "n1", disposition: "acknowledged" }, now))
        .json.error._tag,
      "OutcomeNotFound"
    )
    assert.strictEqual((await mon(dir, "finish-run", input, now)).code, 0)
    const set = (body: Record<string, unknown>) => mon(dir, "set-outcome-disposition", { runId: run.id, ...body }, now)

    assert.strictEqual((await set({ outcomeId: "zz", disposition: "dismissed" })).json.error._tag, "OutcomeNotFound")
    const noAuth = await set({ outcomeId: "n1", disposition: "materialized", unitPath: "units/u1.md" })
    assert.strictEqual(noAuth.json.error._tag, "DispositionRefused")
    const noUnit = await set({ outcomeId: "n1", disposition: "materialized", authorization: { messageId: "msg-1" } })
    assert.strictEqual(noUnit.json.error._tag, "DispositionRefused")
    const unitGone = await set({
      outcomeId: "n1",
      disposition: "materialized",
      authorization: { messageId: "msg-1" },
      unitPath: "units/u1.md"
    })
    assert.strictEqual(unitGone.json.error._tag, "FileNotFound")
    const contradiction = await set({
      outcomeId: "c1",
      disposition: "materialized",
      authorization: { messageId: "m" },
      unitPath: "units/u1.md"
    })
    assert.strictEqual(contradiction.json.error._tag, "DispositionRefused")
    assert.include(contradiction.json.error.reason, "never be materialized")
    // Nothing is missing here: the hint does not send the caller looking for a `missing` field alone.
    assert.isUndefined(contradiction.json.error.missing)
    assert.include(contradiction.json.error.hint, "Without it: the disposition does not fit the outcome's label")
    const review = await set({ outcomeId: "n1", disposition: "sent_to_review", reviewItem: "reviews/r1.md" })
    assert.strictEqual(review.json.error._tag, "DispositionRefused")
    const reviewGone = await set({ outcomeId: "c1", disposition: "sent_to_review", reviewItem: "reviews/r1.md" })
    assert.strictEqual(reviewGone.json.error._tag, "FileNotFound")
    const extraField = await set({ outcomeId: "w1", disposition: "dismissed", unitPath: "units/u1.md" })
    assert.strictEqual(extraField.json.error._tag, "InvalidInput")

    put(dir, "units/u1.md", "# unit\n")
    put(dir, "reviews/r1.md", "# review\n")
    const m = await set({
      outcomeId: "n1",
      disposition: "materialized",
      authorization: { messageId: "msg-1" },
      unitPath: "units/u1.md"
    })
    assert.strictEqual(m.code, 0, m.stdout)
    assert.isTrue(m.json.changed)
    assert.deepStrictEqual(m.json.outcome.disposition.authorization, { messageId: "msg-1" })
    const sent = await set({ outcomeId: "c1", disposition: "sent_to_review", reviewItem: "reviews/r1.md" })
    assert.strictEqual(sent.json.outcome.disposition.value, "sent_to_review")

    const sameAgain = await set({
      outcomeId: "n1",
      disposition: "materialized",
      authorization: { messageId: "msg-1" },
      unitPath: "units/u1.md"
    })
    assert.isFalse(sameAgain.json.changed)
    const other = await set({ outcomeId: "n1", disposition: "dismissed" })
    assert.strictEqual(other.json.error._tag, "DispositionAlreadySet")
    assert.strictEqual(other.json.error.current, "materialized")

    const unresolved = (await read(dir, ["unresolved-outcomes"])).json
    assert.strictEqual(unresolved.count, 1)
    assert.strictEqual(unresolved.outcomes[0].outcomeId, "w1")
    assert.strictEqual(unresolved.outcomes[0].label, "worth_reviewing")
    const facts = (await read(dir, ["next", "--now", now])).json.facts
    assert.deepStrictEqual(facts.map((f: any) => [f.kind, f.outcomeId]), [["unresolved-outcome", "w1"]])
    await set({ outcomeId: "w1", disposition: "acknowledged" })
    assert.strictEqual((await read(dir, ["unresolved-outcomes"])).json.count, 0)
    assert.deepStrictEqual((await read(dir, ["next", "--now", now])).json.facts, [])
  })
})
