/**
 * What the command line tells its users agrees with what it does, through the built CLI: the
 * revision named in an input file, the maturity scale, the next window while a run is active,
 * one tag per mistake, hints that name the way out, `plan inspect`'s lists, usage without a
 * command, the shared options and exit codes of `dossier --help`, and `--completions`.
 *
 * Over 400 lines: one short check per promise the help and the messages make, sharing the
 * helpers above; split by topic, each file would repeat them.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { allSpecs } from "../../src/cli/Specs.js"
import { literature, mon, runningRunInProcess } from "../monitor/support.js"
import { CLI, put, putInput, runCli, tempWorkdir } from "../support/cli.js"

const run = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir])

const started = (goal = "g") => {
  const dir = tempWorkdir("dossier-surface-")
  const r = run(dir, [
    "plan",
    "start",
    "--input",
    putInput(dir, "start.json", { goal, limits: [], nextAction: "read" }),
    "--json"
  ])
  expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
  return dir
}

describe("the revision in input files (expectedRevision)", () => {
  it("plan checkpoint takes it in the input, as --expected; the two must agree; neither is refused", () => {
    const dir = started()
    const ok = run(dir, [
      "plan",
      "checkpoint",
      "--input",
      putInput(dir, "c1.json", { nextAction: "next", expectedRevision: 1 }),
      "--json"
    ])
    expect(ok.json, ok.stdout + ok.stderr).toEqual({ ok: true, revision: 2 })
    const stale = run(dir, [
      "plan",
      "checkpoint",
      "--input",
      putInput(dir, "c2.json", { nextAction: "again", expectedRevision: 1 }),
      "--json"
    ])
    expect(stale.json.error).toMatchObject({ _tag: "StaleRevision", expected: 1, actual: 2 })
    const differ = run(dir, [
      "plan",
      "checkpoint",
      "--input",
      putInput(dir, "c3.json", { expectedRevision: 2 }),
      "--expected",
      "3",
      "--json"
    ])
    expect(differ.code).toBe(1)
    expect(differ.json.error._tag).toBe("InvalidInput")
    expect(differ.json.error.issues[0].path).toBe("expectedRevision")
    const neither = run(dir, ["plan", "checkpoint", "--input", putInput(dir, "c4.json", { nextAction: "x" }), "--json"])
    expect(neither.json.error._tag).toBe("InvalidInput")
    expect(neither.json.error.issues[0].message).toContain("--expected")
    // --expected alone still works.
    expect(run(dir, ["plan", "checkpoint", "--input", "research/inputs/c4.json", "--expected", "2", "--json"]).json)
      .toEqual({ ok: true, revision: 3 })
  })

  it("plan start --replace-goal takes it in the input too", () => {
    const dir = started("old goal")
    const r = run(dir, [
      "plan",
      "start",
      "--replace-goal",
      "--input",
      putInput(dir, "s2.json", { goal: "new goal", limits: [], nextAction: "n", expectedRevision: 1 }),
      "--json"
    ])
    expect(r.json, r.stdout + r.stderr).toMatchObject({ ok: true, replaced: true, revision: 2 })
  })

  it("the schema and --help of every input with a revision name expectedRevision", () => {
    for (
      const name of [
        "plan-start",
        "plan-checkpoint",
        "subscription-update",
        "subscription-status",
        "transition-run",
        "finish-run"
      ]
    ) {
      const schema = runCli(["schema", name]).stdout
      expect(schema, name).toContain("expectedRevision")
    }
    expect(runCli(["plan", "checkpoint", "--help"]).stdout).toContain("expectedRevision")
  })
})

/** Every property name a JSON Schema lets a file hold, nested objects and array items included. */
const fieldsOf = (root: any): Set<string> => {
  const out = new Set<string>()
  const seen = new Set<string>()
  const walk = (s: any): void => {
    if (s === null || typeof s !== "object") return
    if (Array.isArray(s)) return s.forEach(walk)
    if (typeof s.$ref === "string") {
      if (seen.has(s.$ref)) return
      seen.add(s.$ref)
      return walk(s.$ref.replace(/^#\//, "").split("/").reduce((t: any, k: string) => t?.[k], root))
    }
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      out.add(k)
      walk(v)
    }
    for (const k of ["items", "anyOf", "oneOf", "allOf", "additionalProperties"]) walk(s[k])
  }
  walk(root)
  return out
}

describe("the options dossier --help explains once", () => {
  it("are not said to be every command's: --now is only on the commands whose answer depends on the time", () => {
    const takesNow = (s: (typeof allSpecs)[number]) => Object.values(s.flags).some((f) => f.name === "now")
    const without = allSpecs.filter((s) => !takesNow(s)).map((s) => s.path.join(" "))
    expect(without).toContain("init")
    expect(allSpecs.some(takesNow)).toBe(true)
    // Such a command refuses it as an unknown option, so the root page must not say every command takes it.
    const refused = runCli(["init", "--now", "2026-01-01T00:00:00Z", "--json"])
    expect({ code: refused.code, tag: refused.json?.error?._tag }).toEqual({ code: 2, tag: "UsageError" })
    const page = runCli(["--help"]).stdout
    expect(page).toContain("--now <instant>")
    expect(page).not.toMatch(/every command/i)
    const now = runCli(["--help", "--json"]).json.options.find((o: { name: string }) => o.name === "--now")
    expect(now.description).toMatch(/only commands whose answer depends on the time take it/i)
  })

  it("lists every exit code the CLI ends with, 74 (the answer could not be written) too", () => {
    if (!fs.existsSync("/dev/full")) return void console.warn("skipped: no /dev/full on this system")
    const out = fs.openSync("/dev/full", "w")
    const full = spawnSync(process.execPath, [CLI, "--version"], { stdio: ["ignore", out, "pipe"], encoding: "utf8" })
    fs.closeSync(out)
    const codes = [
      runCli(["--version"]).code,
      runCli(["journal", "inspect", "--study", "nope", "--json"], { cwd: tempWorkdir() }).code,
      runCli(["bogus", "--json"]).code,
      full.status
    ]
    expect(codes).toEqual([0, 1, 2, 74])
    const page = runCli(["--help"]).stdout
    const line = page.slice(page.indexOf("Exit codes:"), page.indexOf("Environment:")).replace(/\s+/g, " ")
    expect(line).toMatch(/^Exit codes: /)
    for (const code of [...codes, 70]) expect(line, line).toMatch(new RegExp(`\\b${code} `))
  })
})

describe("--help and the input Schemas", () => {
  it("every command's --help names every field of its input files, the fields of nested objects too", () => {
    const pages: Array<[string, ReadonlyArray<string>]> = [
      ...allSpecs.flatMap((
        s
      ) => (s.inputSchema === undefined ? [] : [[s.inputSchema, s.path] as [string, ReadonlyArray<string>]])),
      // The gate's files (--state, --research-dir, --descriptor).
      ["run-state", ["gate"]],
      ["research-output", ["gate"]],
      ["context", ["gate"]],
      ["descriptor", ["gate"]]
    ]
    expect(pages.map(([name]) => name)).toContain("subscription-update")
    for (const [name, words] of pages) {
      const schema = runCli(["schema", name, "--json"]).json.schema
      const help = runCli([...words, "--help"]).stdout
      const missing = [...fieldsOf(schema)].filter((f) => !new RegExp(`\\b${f}\\b`).test(help))
      expect(missing, `${words.join(" ")} --help, fields of ${name}`).toEqual([])
    }
  })
})

describe("the gate's maturity scale", () => {
  const gateState = (dir: string, maturity: object) => {
    put(
      dir,
      "run/state.json",
      JSON.stringify({
        item: "PROJ-1",
        autopilot: true,
        status: "parked",
        waitingFor: "maturity",
        pendingQuestion: null,
        maturity: { blockers: [{ id: "b1", category: "description" }], ...maturity }
      })
    )
    return run(dir, ["gate", "--state", "run/state.json", "--json"])
  }

  it("is 0 to 100, said in help and schema; a score outside it or a 0-1 scale is InvalidInput, nothing written", () => {
    const dir = tempWorkdir("dossier-surface-")
    const fractional = gateState(dir, { score: 0.4, threshold: 0.8 })
    expect(fractional.code).toBe(1)
    expect(fractional.json.error._tag).toBe("InvalidInput")
    // The one issue: not also "Expected null" from the maturity field's null alternative.
    expect(fractional.json.error.issues).toHaveLength(1)
    expect(fractional.json.error.issues[0]).toMatchObject({ path: "maturity.threshold" })
    expect(fractional.json.error.issues[0].message).toContain("0 to 100")
    expect(JSON.parse(fs.readFileSync(path.join(dir, "run/state.json"), "utf8")).research).toBeUndefined()
    const above = gateState(dir, { score: 140, threshold: 70 })
    expect(above.json.error.issues).toEqual([expect.objectContaining({ path: "maturity.score" })])
    expect(runCli(["gate", "--help"]).stdout).toMatch(/score, threshold \(numbers from 0 to\s+100/)
    expect(runCli(["schema", "run-state"]).stdout).toContain("\"maximum\": 100")
  })
})

describe("monitor show while a run is active", () => {
  it("shows the next window after the active run's, not the past one it covers", async () => {
    const dir = tempWorkdir("dossier-surface-")
    // Window 0 starts 2026-12-01T08:00Z; the run is created on 12-02 for window 0.
    const r = await runningRunInProcess(dir, "lit", "2026-12-02T10:00:00Z")
    const shown = run(dir, ["monitor", "show", "--subscription", "lit", "--json"])
    expect(shown.json.subscription.activeRunId).toBe(r.id)
    expect(shown.json.nextWindowAt).toBe("2026-12-08T08:00:00.000Z")
    const human = run(dir, ["monitor", "show", "--subscription", "lit"]).stdout
    expect(human).toContain("next window after it 2026-12-08T08:00:00.000Z")
    expect(human).not.toContain("next due 2026-12-01")
    // Without an active run it is nextDueAt.
    const dir2 = tempWorkdir("dossier-surface-")
    await mon(dir2, "create-subscription", literature("idle"), "2026-11-30T10:00:00Z")
    const idle = run(dir2, ["monitor", "show", "--subscription", "idle", "--json"]).json
    expect(idle.nextWindowAt).toBe(idle.subscription.nextDueAt)
  })

  it("after coalesced windows, show and list say since when it is due, not that its run's window started then", async () => {
    const dir = tempWorkdir("dossier-surface-")
    await mon(dir, "create-subscription", literature("lit"), "2026-11-30T10:00:00Z")
    // Windows 0 (12-01) and 1 (12-08) have started: one run, for window 1, from 2026-12-08.
    const created = await mon(dir, "create-due-run", { subscriptionId: "lit" }, "2026-12-10T12:00:00Z")
    expect(created.json.run).toMatchObject({
      id: "lit.w1",
      windowStart: "2026-12-08T08:00:00.000Z",
      coalescedWindows: 2
    })
    const shown = run(dir, ["monitor", "show", "--subscription", "lit"]).stdout
    expect(shown).toContain("active run lit.w1 (due since 2026-12-01T08:00:00.000Z)")
    expect(shown).not.toContain("window from 2026-12-01")
    const listed = run(dir, ["monitor", "list"]).stdout
    expect(listed).toContain("active run lit.w1 (due since 2026-12-01T08:00:00.000Z)")
    expect(listed).not.toContain("next due 2026-12-01")
  })

  it("list, due and status say when it is next due as show does: the window after the active run's", async () => {
    const dir = tempWorkdir("dossier-surface-")
    await mon(dir, "create-subscription", literature("lit"), "2026-11-30T10:00:00Z")
    await mon(dir, "create-due-run", { subscriptionId: "lit" }, "2026-12-10T12:00:00Z")
    const shown = run(dir, ["monitor", "show", "--subscription", "lit", "--json"]).json
    // Windows start on 12-01, 12-08, 12-15: the run covers 12-08, so the next is 12-15.
    expect(shown.nextWindowAt).toBe("2026-12-15T08:00:00.000Z")
    const said = "active run lit.w1 (due since 2026-12-01T08:00:00.000Z); next window after it 2026-12-15T08:00:00.000Z"
    expect(run(dir, ["monitor", "show", "--subscription", "lit"]).stdout).toContain(said)
    expect(run(dir, ["monitor", "list"]).stdout).toContain(said)
    const now = ["--now", "2026-12-11T00:00:00Z"]
    const due = run(dir, ["monitor", "due", ...now]).stdout
    expect(due).toContain(said)
    expect(due).not.toMatch(/next 2026-12-01/)
    const listed = run(dir, ["monitor", "list", "--json"]).json.subscriptions[0]
    expect(listed).toMatchObject({ nextDueAt: shown.subscription.nextDueAt, nextWindowAt: shown.nextWindowAt })
    const dueJson = run(dir, ["monitor", "due", ...now, "--json"]).json.subscriptions[0]
    expect(dueJson).toMatchObject({ due: false, nextWindowAt: shown.nextWindowAt, activeRunId: "lit.w1" })
    // status does not call it due: it names the run to resume, and nothing due.
    const status = run(dir, ["status", ...now]).stdout
    expect(status).toContain("0 due, 1 active run(s)")
    expect(status).toContain("run lit.w1 is planned: resume it")
    expect(status).not.toContain("due since")
  })
})

describe("hints that name the way out", () => {
  it("InvalidTransition to completed names finish-run; a missing review item names --review-item as options, reviewItem in a file", async () => {
    const dir = tempWorkdir("dossier-surface-")
    const r = await runningRunInProcess(dir, "lit", "2026-12-02T10:00:00Z")
    const t = run(dir, [
      "monitor",
      "transition-run",
      "--run",
      r.id,
      "--expected",
      String(r.revision),
      "--to",
      "completed",
      "--json"
    ])
    expect(t.json.error).toMatchObject({
      _tag: "InvalidTransition",
      from: "running",
      to: "completed",
      allowed: ["blocked", "failed_retryable", "cancelled"]
    })
    // The message is true on every face; the hint names the command line's way out.
    expect(t.json.error.message).toContain("only finishing the run completes it")
    expect(t.json.error.message).not.toContain("finish-run")
    expect(t.json.error.hint).toContain("monitor finish-run")
    const human = run(dir, [
      "monitor",
      "transition-run",
      "--run",
      r.id,
      "--expected",
      String(r.revision),
      "--to",
      "completed"
    ])
    expect(human.stderr).toContain("finish-run")
  })

  it("DispositionRefused names the option when the action was given as options", async () => {
    const dir = tempWorkdir("dossier-surface-")
    const r = await runningRunInProcess(dir, "lit", "2026-12-02T10:00:00Z")
    put(
      dir,
      "research/sources/paper.txt",
      "A contradiction: block sparsity loses five points of accuracy on long documents.\n"
    )
    const stage = `stage\nmonitor_binding: run_id=${r.id} task_digest=${r.receiptDigest}\n`
    put(dir, `research/results/${r.id}.md`, stage)
    const finished = await mon(dir, "finish-run", {
      runId: r.id,
      expectedRevision: r.revision,
      binding: { runId: r.id, taskDigest: r.receiptDigest },
      stage: { path: `research/results/${r.id}.md` },
      outcomes: [{
        id: "o1",
        label: "contradiction_candidate",
        reason: "r",
        citations: [{ path: "research/sources/paper.txt", quote: "block sparsity loses five points of accuracy" }]
      }]
    }, "2026-12-02T11:00:00Z")
    expect(finished.json?.ok, finished.stdout + finished.stderr).toBe(true)
    const flags = run(dir, [
      "monitor",
      "set-outcome-disposition",
      "--run",
      r.id,
      "--outcome",
      "o1",
      "--disposition",
      "sent_to_review",
      "--json"
    ])
    expect(flags.json.error).toMatchObject({ _tag: "DispositionRefused", missing: "--review-item" })
    expect(flags.json.error.message).toContain("--review-item")
    const file = await mon(dir, "set-outcome-disposition", {
      runId: r.id,
      outcomeId: "o1",
      disposition: "sent_to_review"
    }, "2026-12-02T11:00:00Z")
    expect(file.json.error).toMatchObject({ _tag: "DispositionRefused", missing: "reviewItem" })
  })
})

describe("one tag per mistake", () => {
  it("a path outside the folder is InputOutsideWorkdir naming the option, for --input and --file alike", () => {
    const dir = tempWorkdir("dossier-surface-")
    const outside = tempWorkdir("dossier-outside-")
    put(outside, "page.html", "<p>x</p>")
    const input = run(dir, ["plan", "start", "--input", path.join(outside, "page.html"), "--json"])
    expect(input.json.error._tag).toBe("InputOutsideWorkdir")
    const file = run(dir, [
      "ingest",
      "--file",
      path.join(outside, "page.html"),
      "--origin",
      "https://example.org/",
      "--json"
    ])
    expect(file.json.error).toMatchObject({ _tag: "InputOutsideWorkdir", flag: "--file" })
  })

  it("an unknown extension: the message says to name a type, the hint names --content-type", () => {
    const dir = tempWorkdir("dossier-surface-")
    put(dir, "saved/data.json", "{}")
    const r = run(dir, ["ingest", "--file", "saved/data.json", "--origin", "https://example.org/", "--json"])
    expect(r.json.error).toMatchObject({ _tag: "UnsupportedContent", contentType: null, extension: "json" })
    expect(r.json.error.message).toContain("name its content type")
    expect(r.json.error.message).not.toContain("--content-type")
    expect(r.json.error.hint).toContain("--content-type")
  })

  it("every path option's value is <path> in help (the gate's included)", () => {
    const gate = runCli(["gate", "--help", "--json"]).json
    for (const name of ["--state", "--research-dir", "--descriptor", "--attempts"]) {
      expect(gate.options.find((o: any) => o.name === name).type, name).toBe("path")
    }
    expect(runCli(["ingest", "--help", "--json"]).json.options.find((o: any) => o.name === "--file").type).toBe("path")
  })
})

describe("plan inspect without --json", () => {
  it("lists which sources, outputs and findings, not only their counts", () => {
    const dir = started()
    put(dir, "research/sources/a.txt", "alpha")
    put(dir, "research/results/r.md", "result")
    const c = run(dir, [
      "plan",
      "checkpoint",
      "--expected",
      "1",
      "--input",
      putInput(dir, "c.json", {
        sources: [{ path: "research/sources/a.txt", origin: "https://example.org/a" }],
        outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.txt"] }],
        unresolved: [{ id: "u1", text: "which year?" }]
      }),
      "--json"
    ])
    expect(c.json?.ok, c.stdout + c.stderr).toBe(true)
    put(dir, "research/results/r.md", "changed")
    const text = run(dir, ["plan", "inspect"]).stdout
    expect(text).toContain("research/sources/a.txt (https://example.org/a)")
    expect(text).toContain("research/results/r.md (depends on research/sources/a.txt)")
    expect(text).toContain("u1: which year?")
    expect(text).toContain("output-changed: research/results/r.md")
  })
})

describe("usage without a command", () => {
  it("is a usage error (exit 2) naming the commands; --help stays exit 0", () => {
    const bare = runCli([])
    expect(bare.code).toBe(2)
    expect(bare.stderr).toContain("no command given")
    expect(bare.stdout).toBe("")
    const json = runCli(["--json"])
    expect(json.code).toBe(2)
    expect(json.json.error._tag).toBe("UsageError")
    expect(runCli(["--help"]).code).toBe(0)
  })
})

describe("--completions", () => {
  it("prints a script for a shell; a missing or unknown shell, or --json, is a usage error that says so", () => {
    const bash = runCli(["--completions", "bash"])
    expect(bash.code).toBe(0)
    expect(bash.stdout).toContain("_dossier_bash_completions")
    for (const args of [["--completions"], ["--completions", "pwsh"], ["plan", "inspect", "--completions"]]) {
      const r = runCli(args)
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.stderr).toContain("--completions needs a shell: sh, bash, fish, zsh")
      expect(r.stderr).not.toContain("subcommand")
    }
    const json = runCli(["--completions", "bash", "--json"])
    expect(json.code).toBe(2)
    expect(json.json.error._tag).toBe("UsageError")
    expect(json.json.error.message).toContain("leave out --json")
  })
})

describe("status", () => {
  it("reports an unreadable plan as unreadable, never as no plan", () => {
    const dir = started()
    const text = fs.readFileSync(path.join(dir, "plan.md"), "utf8")
    fs.writeFileSync(path.join(dir, "plan.md"), `${text}\n${text}`)
    const json = run(dir, ["status", "--json"]).json
    expect(json.plan).toBeNull()
    expect(json.planError._tag).toBe("CorruptPlan")
    expect(json.facts.map((f: any) => f.kind)).toContain("plan-corrupt")
    const human = run(dir, ["status"]).stdout
    expect(human).not.toContain("plan: none yet")
    expect(human).toContain("plan: unreadable (CorruptPlan)")
  })

  it("says plainly which checks it does not run when nothing needs attention", () => {
    const dir = started()
    put(dir, "research/results/r.txt", "result")
    const events = [
      { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } },
      { id: "l1", type: "artifact_linked", candidateId: "a", artifact: { path: "research/results/r.txt" } }
    ]
    expect(
      run(dir, ["journal", "append", "--study", "s1", "--input", putInput(dir, "e.json", events), "--json"]).json?.ok
    ).toBe(true)
    put(dir, "research/results/r.txt", "changed since it was linked")
    const json = run(dir, ["status", "--json"]).json
    expect(json.unchecked).toEqual(["journal-artifacts", "execution-outputs"])
    const human = run(dir, ["status"]).stdout
    expect(human).not.toMatch(/^nothing needs attention$/m)
    expect(human).toContain("journal inspect --study <id> --verify")
  })
})
