/**
 * Hostile input and faults of issue 13 (items 6–10, 14, 18, 19), each through the built CLI as an
 * agent meets it (its contract slips, items 15–17, are in contract.test.ts). Every refusal is
 * checked to be typed (exit 1 or 2), to leak no path or stack trace, and to change nothing in the
 * work folder.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { folder, NOW, parkedMaturity } from "../gate/support.js"
import { at, finishInput, literature, mon, read, runningRun, weekWindow } from "../monitor/support.js"
import { CLI, leaksNothing, put, putInput, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { cli, refused } from "./support.js"

afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))

const nested = (depth: number, leaf = "1") => "[".repeat(depth) + leaf + "]".repeat(depth)

const event = (id: string, params: string) =>
  `{"id":"${id}","type":"candidate_created","candidate":{"id":"c-${id}","title":"t","params":${params}}}`

describe("6: deep nesting is a typed refusal, never a Defect", () => {
  it("journal append: params nested thousands of levels deep (well inside 64 KiB) is InvalidInput naming the field", () => {
    const dir = tempWorkdir()
    const rel = putInput(dir, "deep.json", event("e1", `{"x":${nested(20_000)}}`))
    const r = refused(dir, () => cli(dir, ["journal", "append", "--study", "s", "--input", rel]), 1, "InvalidInput")
    expect(r.json.error.issues[0].path).toMatch(/^candidate\.params\.x\.0\.0/)
    expect(r.json.error.issues[0].message).toBe("nested more than 128 levels deep")
  })

  it("a free-form field is bounded at 64 levels, below the document's 128", () => {
    const dir = tempWorkdir()
    const rel = putInput(dir, "deep.json", event("e1", `{"x":${nested(70)}}`))
    const r = refused(dir, () => cli(dir, ["journal", "append", "--study", "s", "--input", rel]), 1, "InvalidInput")
    expect(r.json.error.issues[0].path).toMatch(/^candidate\.params\.x(\.0)+$/)
    expect(r.json.error.issues[0].message).toBe("nested more than 64 levels deep")
    // 63 levels inside params (64 with params itself) is accepted and stored.
    const ok = cli(dir, [
      "journal",
      "append",
      "--study",
      "s",
      "--input",
      putInput(dir, "ok.json", event("e2", `{"x":${nested(63)}}`))
    ])
    expect(ok.code, ok.stdout).toBe(0)
    expect(cli(dir, ["journal", "inspect", "--study", "s"]).code).toBe(0)
  })

  it("create-subscription with a deep scope, a deep gate state and a deep plan section are refused (exit 1)", () => {
    const dir = tempWorkdir()
    const sub = putInput(
      dir,
      "sub.json",
      JSON.stringify(literature("deep")).replace(/"scope":\{[^}]*\}/, `"scope":{"q":${nested(20_000)}}`)
    )
    const r = refused(
      dir,
      () => cli(dir, ["monitor", "create-subscription", "--input", sub, "--now", NOW]),
      1,
      "InvalidInput"
    )
    expect(r.json.error.issues[0].path).toMatch(/^scope\.q\.0/)

    const f = folder()
    put(
      f.dir,
      "run/state.json",
      JSON.stringify(parkedMaturity([{ id: "b1" }])).replace(/\}$/, `,"extra":${nested(20_000)}}`)
    )
    refused(f.dir, () => f.gate(), 1, "InvalidInput")

    const p = tempWorkdir()
    put(p, "plan.md", `<!-- dossier:plan:begin -->\n\`\`\`json\n${nested(20_000)}\n\`\`\`\n<!-- dossier:plan:end -->\n`)
    const inspect = refused(p, () => cli(p, ["plan", "inspect"]), 1, "CorruptPlan")
    expect(inspect.json.error.reason).toMatch(/nested more than 128 levels deep/)
  })

  it("monitor show of a hand-edited record with a deep scope is a typed refusal", async () => {
    const dir = tempWorkdir()
    const run = await runningRun(dir, "lit", at(weekWindow(0), 1000))
    for (
      const [file, flag, id] of [
        [".dossier/monitor/subscriptions/lit.json", "--subscription", "lit"],
        [`.dossier/monitor/runs/${run.id}.json`, "--run", run.id]
      ] as const
    ) {
      const p = path.join(dir, file)
      const record = fs.readFileSync(p, "utf8")
      fs.writeFileSync(p, record.replace(/"scope": \{/, `"scope": {"deep": ${nested(20_000)},`))
      const r = await read(dir, ["show", flag, id])
      expect(r.code, r.stdout).toBe(1)
      expect(["CorruptMonitorRecord", "ReceiptDigestMismatch"]).toContain(r.json.error._tag)
      expect(leaksNothing(dir, r)).toBe(true)
      fs.writeFileSync(p, record)
    }
  })
})

describe("7: __proto__ keys are refused, never dropped", () => {
  it("journal append and create-subscription refuse a __proto__ key with InvalidInput naming its path", () => {
    const dir = tempWorkdir()
    const rel = putInput(dir, "proto.json", `[${event("e1", `{"__proto__":{"a":1},"x":1}`)}]`)
    const r = refused(dir, () => cli(dir, ["journal", "append", "--study", "s", "--input", rel]), 1, "InvalidInput")
    expect(r.json.error.issues).toEqual([{
      path: "0.candidate.params.__proto__",
      message: "the key '__proto__' is not accepted"
    }])
    const deeper = putInput(dir, "proto2.json", event("e1", `{"x":{"y":[{"__proto__":null}]}}`))
    expect(
      refused(dir, () => cli(dir, ["journal", "append", "--study", "s", "--input", deeper]), 1, "InvalidInput").json
        .error.issues[0].path
    )
      .toBe("candidate.params.x.y.0.__proto__")
    const sub = putInput(
      dir,
      "sub.json",
      JSON.stringify(literature("p")).replace(/"scope":\{/, `"scope":{"__proto__":{"v":2},`)
    )
    expect(
      refused(dir, () => cli(dir, ["monitor", "create-subscription", "--input", sub, "--now", NOW]), 1, "InvalidInput")
        .json.error.issues[0].path
    )
      .toBe("scope.__proto__")
  })
})

describe("8: impossible dates and padded numbers", () => {
  it("--now 2026-02-30 / 2026-06-31 is a UsageError (exit 2), not rolled over", () => {
    const dir = tempWorkdir()
    const rel = putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" })
    for (const now of ["2026-02-30T00:00:00Z", "2026-06-31T12:00:00Z", "2025-02-29T00:00:00Z"]) {
      const r = refused(dir, () => cli(dir, ["plan", "start", "--input", rel, "--now", now]), 2, "UsageError")
      expect(r.json.error.message).toContain("--now")
    }
    expect(cli(dir, ["plan", "start", "--input", rel, "--now", "2024-02-29T00:00:00Z"]).code).toBe(0)
  })

  it("--expected ' 1' is refused (exit 2)", () => {
    const dir = tempWorkdir()
    const rel = putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" })
    expect(cli(dir, ["plan", "start", "--input", rel]).code).toBe(0)
    const cp = putInput(dir, "c.json", { nextAction: "x" })
    for (const e of [" 1", "1 ", "+1"]) {
      refused(
        dir,
        () => cli(dir, ["plan", "checkpoint", "--input", cp, "--expected", e]),
        2,
        "UsageError"
      )
    }
  })

  it("an impossible date inside a file is InvalidInput", () => {
    const dir = tempWorkdir()
    const rel = putInput(dir, "e.json", {
      id: "e1",
      type: "checkpoint_saved",
      at: "2026-02-30T00:00:00Z",
      checkpoint: { summary: "s", nextAction: "n", reviewed: false }
    })
    expect(
      refused(dir, () => cli(dir, ["journal", "append", "--study", "s", "--input", rel]), 1, "InvalidInput").json.error
        .issues[0].path
    ).toBe("at")
    // A plan whose stored time is no real date is corrupt, not read as March 2.
    expect(
      cli(dir, ["plan", "start", "--input", putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" })]).code
    ).toBe(0)
    const plan = path.join(dir, "plan.md")
    fs.writeFileSync(
      plan,
      fs.readFileSync(plan, "utf8").replace(/"updatedAt": "[^"]*"/, "\"updatedAt\": \"2026-02-30T00:00:00.000Z\"")
    )
    expect(refused(dir, () => cli(dir, ["plan", "inspect"]), 1, "CorruptPlan").json.error.reason).toContain("updatedAt")
  })
})

describe("9: times past 9999-12-31", () => {
  it("create-subscription --now 9999-12-31T23:59:59Z without an anchor is LimitExceeded, not a Defect", () => {
    const dir = tempWorkdir()
    const { anchor: _anchor, ...input } = literature("late")
    const rel = putInput(dir, "late.json", input)
    const r = refused(
      dir,
      () => cli(dir, ["monitor", "create-subscription", "--input", rel, "--now", "9999-12-31T23:59:59Z"]),
      1,
      "LimitExceeded"
    )
    expect(r.json.error).toMatchObject({ limit: "year", max: 9999 })
    // An offset that carries the instant into year 10000 is no instant dossier accepts.
    refused(
      dir,
      () => cli(dir, ["monitor", "create-subscription", "--input", rel, "--now", "9999-12-31T23:59:59-01:00"]),
      2,
      "UsageError"
    )
  })

  it("cancelling the last run before year 10000 is LimitExceeded, no six-digit year is stored", async () => {
    const dir = tempWorkdir()
    const sub = { ...literature("y"), timezone: "UTC", anchor: "9999-12-20T00:00" }
    expect((await mon(dir, "create-subscription", sub, "9999-12-01T00:00:00Z")).code).toBe(0)
    const run = await mon(dir, "create-due-run", { subscriptionId: "y" }, "9999-12-28T00:00:00Z")
    expect(run.code, run.stdout).toBe(0)
    const before = snapshot(dir)
    const r = await mon(
      dir,
      "transition-run",
      { runId: run.json.run.id, expectedRevision: 1, to: "cancelled" },
      "9999-12-28T01:00:00Z"
    )
    expect(r.code, r.stdout).toBe(1)
    expect(r.json.error).toMatchObject({ _tag: "LimitExceeded", limit: "year", max: 9999, actual: 10000 })
    const after = snapshot(dir)
    for (const k of Object.keys(after)) if (!k.startsWith("research/inputs/")) expect(after[k]).toBe(before[k])
  })
})

describe("10: the gate never writes a state it would refuse", () => {
  it("a state just under 16 MiB that the research would grow past it is LimitExceeded, the state unchanged", () => {
    const f = folder()
    const state = parkedMaturity([{ id: "b1", category: "scope" }])
    const base = JSON.stringify({ ...state, padding: "" }, null, 2).length + 1
    put(
      f.dir,
      "run/state.json",
      `${JSON.stringify({ ...state, padding: "x".repeat(16 * 1024 * 1024 - base - 10) }, null, 2)}\n`
    )
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [] })
    const r = refused(f.dir, () => f.gate(), 1, "LimitExceeded")
    expect(r.json.error).toMatchObject({ limit: "state-bytes", max: 16 * 1024 * 1024 })
  })
})

describe("14: a failure writing stdout ends quietly", () => {
  it("plan inspect --json > /dev/full: exit 74, one line on stderr, no trace, no path", () => {
    if (!fs.existsSync("/dev/full")) return void console.warn("skipped: no /dev/full on this system")
    const dir = tempWorkdir()
    for (
      const args of [["plan", "inspect", "--workdir", dir, "--json"], ["plan", "inspect", "--workdir", dir], ["--help"]]
    ) {
      const out = fs.openSync("/dev/full", "w")
      const r = spawnSync(process.execPath, [CLI, ...args], { stdio: ["ignore", out, "pipe"], encoding: "utf8" })
      fs.closeSync(out)
      expect(r.status, r.stderr).toBe(74)
      expect(r.stderr).toBe("dossier: could not write the answer to standard output (ENOSPC)\n")
    }
  })
})

describe("18: plan.md prose is kept byte for byte, whatever its encoding", () => {
  it("Latin-1 and stray bytes around the section survive plan start and checkpoint", () => {
    const dir = tempWorkdir()
    const prose = Buffer.concat([
      Buffer.from("# Caf"),
      Buffer.from([0xe9]),
      Buffer.from(" notes "),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("\n")
    ])
    put(dir, "plan.md", prose)
    expect(
      cli(dir, ["plan", "start", "--input", putInput(dir, "s.json", { goal: "g é", limits: [], nextAction: "n" })]).code
    ).toBe(0)
    const started = fs.readFileSync(path.join(dir, "plan.md"))
    expect(started.subarray(0, prose.length).equals(prose)).toBe(true)
    const tail = Buffer.from([0x0a, 0x80, 0x41, 0x0a])
    fs.writeFileSync(path.join(dir, "plan.md"), Buffer.concat([started, tail]))
    expect(
      cli(dir, ["plan", "checkpoint", "--input", putInput(dir, "c.json", { nextAction: "m" }), "--expected", "1"]).code
    ).toBe(0)
    const after = fs.readFileSync(path.join(dir, "plan.md"))
    expect(after.subarray(0, prose.length).equals(prose)).toBe(true)
    expect(after.subarray(after.length - tail.length - 1).equals(Buffer.concat([Buffer.from("\n"), tail]))).toBe(true)
    expect(cli(dir, ["plan", "inspect"]).json).toMatchObject({ goal: "g é", nextAction: "m", revision: 2 })
  })
})

describe("19: absolute paths are never echoed", () => {
  it("an absolute source path is InvalidInput naming the field, not the machine path", () => {
    const dir = tempWorkdir()
    put(dir, "research/sources/x.html", "<p>x</p>")
    expect(
      cli(dir, ["plan", "start", "--input", putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" })]).code
    ).toBe(0)
    const cp = putInput(dir, "c.json", {
      sources: [{ path: path.join(dir, "research/sources/x.html"), origin: "https://example.org/" }]
    })
    const r = refused(dir, () => cli(dir, ["plan", "checkpoint", "--input", cp, "--expected", "1"]), 1, "InvalidInput")
    expect(r.json.error.issues).toEqual([{
      path: "sources.0.path",
      message: "an absolute path; paths are relative to the work folder"
    }])
  })

  it("an absolute stage path in finish-run names no machine path", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRun(dir, "lit", now)
    const input = finishInput(dir, run)
    const r = await mon(dir, "finish-run", {
      ...input,
      stage: { ...input.stage, path: path.join(dir, input.stage.path) }
    }, now)
    expect(r.code).toBe(1)
    expect(leaksNothing(dir, r)).toBe(true)
  })

  it("an absolute root or protected path of a grant names the field, not the machine path", () => {
    const dir = tempWorkdir()
    fs.mkdirSync(path.join(dir, "research/exp/data"), { recursive: true })
    const grant = {
      task: "t",
      inputs: ["research/exp/data"],
      work: "research/exp/runs/a",
      protected: [] as Array<string>,
      tools: ["bash"],
      budget: { runs: 1, wallSeconds: 10, cpuSeconds: 10, memoryMiB: 64, outputMiB: 1 },
      deadline: "2099-01-01T00:00:00Z"
    }
    const abs = path.join(dir, "research/exp/data")
    for (
      const [field, g] of [
        ["inputs", { ...grant, inputs: [abs] }],
        ["work", { ...grant, work: path.join(dir, "research/exp/runs/a") }],
        ["protected", { ...grant, protected: [path.join(abs, "holdout")] }]
      ] as const
    ) {
      const input = putInput(dir, `g-${field}.json`, g)
      const r = refused(dir, () => cli(dir, ["grant", "create", "--input", input]), 1, "UnsafePath")
      expect(r.json.error.path).toBe(`${field}: (an absolute path)`)
      expect(r.json.error.reason).toBe("absolute")
    }
  })
})

describe("terminal escapes in names dossier does not choose", () => {
  // A title and a colour change: the person's terminal would act on them if printed raw.
  const ESCAPES = "\u001b]0;owned\u0007\u001b[31m\u009b2J\r"
  const QUOTE = "the measured latency stays under the budget"

  it("a human report and a human refusal show control characters as \\xNN; --json keeps the name", () => {
    const dir = tempWorkdir()
    const name = `research/sources/a${ESCAPES}b.md`
    put(dir, name, `# Notes\n\n${QUOTE}.\r\n`)
    const shown = runCli(["source", "follow", "--quote", QUOTE], { cwd: dir })
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain("a\\x1b]0;owned\\x07\\x1b[31m\\x9b2J\\x0db.md")

    expect(shown.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    const missing = runCli(["source", "follow", "--quote", QUOTE, "--path", `research/sources/x${ESCAPES}.md`], {
      cwd: dir
    })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("x\\x1b]0;owned\\x07")

    expect(missing.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    const json = runCli(["source", "follow", "--quote", QUOTE, "--json"], { cwd: dir })
    expect(json.json.matches[0].path).toBe(name)
  })
})
