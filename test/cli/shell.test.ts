/**
 * The shell conventions of spec cli.md, through the built CLI in temporary folders: discovery,
 * `--input` from the current directory and from stdin, init, status, the lists, the flag forms of
 * the small monitor actions, computed digests, read-only commands, help and usage errors.
 *
 * Over 400 lines: one spec file's conventions, each a few short checks through the same helpers
 * above (`at`, `okJson`, `refusal`, the plan input), which every section uses; split by topic,
 * each file would repeat them.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { allSpecs } from "../../src/cli/Specs.js"
import { finishInput, literature, runningRunInProcess, sha } from "../monitor/support.js"
import { CLI, leaksNothing, put, putInput, runCli, type RunOptions, snapshot, tempWorkdir } from "../support/cli.js"

/** `dossier <args> --json` without --workdir, from `cwd`; DOSSIER_WORKDIR cleared unless given. */
const at = (cwd: string, args: ReadonlyArray<string>, options: RunOptions = {}) =>
  runCli([...args, "--json"], { cwd, ...options, env: { DOSSIER_WORKDIR: "", ...options.env } })

const okJson = (r: ReturnType<typeof runCli>) => {
  expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
  expect(r.code).toBe(0)
  return r.json
}
const refusal = (r: ReturnType<typeof runCli>, tag: string, code = 1) => {
  expect({ code: r.code, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({ code, tag })
  return r.json.error
}

const PLAN = {
  goal: "Compare sparse attention methods",
  limits: ["public sources only"],
  nextAction: "capture two papers"
}

/** Every path under a folder (files and directories), to show a command created nothing. */
const tree = (dir: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`
      out.push(r)
      if (e.isDirectory()) walk(r)
    }
  }
  walk("")
  return out.sort()
}

describe("finding the work folder", () => {
  it("is discovered from two levels down; answers name it relative to the current directory", () => {
    const dir = tempWorkdir()
    okJson(at(dir, ["plan", "start", "--input", putInput(dir, "plan.json", PLAN)]))
    const deep = path.join(dir, "research", "notes")
    fs.mkdirSync(deep, { recursive: true })
    const r = okJson(at(deep, ["plan", "inspect"]))
    expect(r).toMatchObject({ workdir: "../..", state: "active", goal: PLAN.goal })
    const human = runCli(["plan", "inspect"], { cwd: deep, env: { DOSSIER_WORKDIR: "" } })
    expect(human.stdout.split("\n")[0]).toBe("work folder: ../..")
    expect(human.stdout).toContain(PLAN.goal)
    // In the folder itself nothing is added.
    expect(okJson(at(dir, ["plan", "inspect"])).workdir).toBeUndefined()
    // A .dossier/ marks a work folder too (init makes one), and the nearest one wins.
    const inner = path.join(dir, "research", "sub")
    fs.mkdirSync(path.join(inner, ".dossier"), { recursive: true })
    fs.mkdirSync(path.join(inner, "x"))
    expect(okJson(at(path.join(inner, "x"), ["plan", "inspect"]))).toMatchObject({ workdir: "..", state: "none" })
    expect(leaksNothing(dir, human)).toBe(true)
  })

  it("DOSSIER_WORKDIR wins over the search; --workdir wins over both", () => {
    const a = tempWorkdir()
    const b = tempWorkdir()
    okJson(at(a, ["plan", "start", "--input", putInput(a, "plan.json", PLAN)]))
    okJson(at(b, ["plan", "start", "--input", putInput(b, "plan.json", { ...PLAN, goal: "other goal" })]))
    expect(okJson(at(a, ["plan", "inspect"], { env: { DOSSIER_WORKDIR: b } })).goal).toBe("other goal")
    expect(okJson(at(a, ["plan", "inspect", "--workdir", a], { env: { DOSSIER_WORKDIR: b } })).goal).toBe(PLAN.goal)
  })

  it("a missing --workdir is WorkdirNotFound, not a file the hint calls an input", () => {
    const dir = tempWorkdir()
    const e = refusal(at(dir, ["plan", "inspect", "--workdir", path.join(dir, "nope")]), "WorkdirNotFound")
    expect(e).toMatchObject({ reason: "missing" })
    const human = runCli(["plan", "inspect", "--workdir", path.join(dir, "nope")])
    expect(human.stderr).toContain("The work folder does not exist")
    expect(human.stderr).not.toContain("input")
    put(dir, "file", "x")
    expect(refusal(at(dir, ["next", "--workdir", path.join(dir, "file")]), "WorkdirNotFound").reason).toBe(
      "not-directory"
    )
  })

  it("WorkdirNotFound tells what to do on the command line: the human hint and the --json hint name the flags", () => {
    const dir = tempWorkdir()
    put(dir, "file", "x")
    for (const [name, reason] of [["nope", "missing"], ["file", "not-directory"]] as const) {
      const given = path.join(dir, name)
      const e = refusal(at(dir, ["plan", "inspect", "--workdir", given]), "WorkdirNotFound")
      expect(e.reason).toBe(reason)
      expect(e.message).toMatch(/^The work folder (does not exist|is not a directory): /)
      expect(e.hint).toContain("Give an existing folder (on the command line with --workdir or DOSSIER_WORKDIR;")
      expect(refusal(at(dir, ["plan", "inspect"], { env: { DOSSIER_WORKDIR: given } }), "WorkdirNotFound").message)
        .toBe(
          e.message
        )
      const human = runCli(["plan", "inspect", "--workdir", given], { cwd: dir })
      expect(human.code).toBe(1)
      expect(human.stderr.split("\n")[0]).toBe(`work folder: ${name}`)
      expect(human.stderr.split("\n")[1]).toMatch(
        /^error WorkdirNotFound: The work folder (does not exist|is not a directory): /
      )
      expect(human.stderr).toContain("Give an existing folder (on the command line with --workdir or DOSSIER_WORKDIR;")
      expect(human.stderr).not.toContain(dir)
      expect(JSON.stringify(e)).not.toContain(dir)
    }
  })

  it("WorkdirNotFound names the folder it could not use, relative, however it was given", () => {
    const dir = tempWorkdir()
    const sub = path.join(dir, "sub")
    fs.mkdirSync(sub)
    const error = expect.objectContaining({ _tag: "WorkdirNotFound", reason: "missing" })
    for (
      const r of [
        at(sub, ["status", "--workdir", "../nope"]),
        at(sub, ["status", "--workdir=../nope"]),
        at(sub, ["status", "--workdir", path.join(dir, "nope")]),
        at(sub, ["status"], { env: { DOSSIER_WORKDIR: "../nope" } }),
        at(sub, ["status"], { env: { DOSSIER_WORKDIR: path.join(dir, "nope") } })
      ]
    ) {
      expect({ code: r.code, ...r.json }, r.stdout + r.stderr).toEqual({
        code: 1,
        ok: false,
        workdir: "../nope",
        error
      })
      expect(r.stdout).not.toContain(dir)
    }
  })
})

describe("--input", () => {
  it("is taken from the current directory when it exists there, else from the work folder; never outside", () => {
    const dir = tempWorkdir()
    okJson(at(dir, ["init"]))
    const sub = path.join(dir, "research", "inputs")
    putInput(dir, "plan.json", PLAN)
    // From research/inputs/ tab completion gives `plan.json`.
    expect(okJson(at(sub, ["plan", "start", "--input", "plan.json"]))).toMatchObject({
      created: true,
      workdir: "../.."
    })
    // Not there: from the work folder.
    putInput(dir, "c.json", { nextAction: "write the comparison" })
    const deeper = path.join(dir, "research", "results")
    fs.mkdirSync(deeper, { recursive: true })
    expect(okJson(at(deeper, ["plan", "checkpoint", "--expected", "1", "--input", "research/inputs/c.json"])).revision)
      .toBe(2)
    // Outside: the path relative to the work folder, never the base name alone, never absolute.
    const outside = tempWorkdir()
    put(outside, "x.json", "{}")
    const r = at(dir, ["plan", "checkpoint", "--expected", "2", "--input", path.join(outside, "x.json")])
    const e = refusal(r, "InputOutsideWorkdir")
    expect(e.path).toBe(`../${path.basename(outside)}/x.json`)
    expect(leaksNothing(dir, r) && leaksNothing(outside, r)).toBe(true)
    const rel = refusal(
      at(dir, ["plan", "checkpoint", "--expected", "2", "--input", "../../x.json"]),
      "InputOutsideWorkdir"
    )
    expect(rel.path).toBe("../../x.json")
  })

  it("the gate names its own flags: --research-dir is not called the input file", () => {
    const dir = tempWorkdir()
    put(dir, "state.json", "{}")
    const human = runCli(["gate", "--workdir", dir, "--state", "state.json", "--research-dir", "../../elsewhere"], {
      env: { DOSSIER_UNATTENDED: "1" }
    })
    expect(human.code).toBe(1)
    expect(human.stderr).toContain("The research dir path '../../elsewhere' is not inside the work folder")
  })

  it("a refusal of a value given as an option names the option, not the library's parameter", () => {
    const dir = tempWorkdir()
    const cases: ReadonlyArray<[ReadonlyArray<string>, string]> = [
      [["journal", "inspect", "--study", "BAD!"], "--study"],
      [["journal", "import", "--study", "BAD!"], "--study"],
      [["source", "follow", "--quote", "short"], "--quote"],
      [["grant", "show", "--grant", "b!"], "--grant"],
      [["exec", "show", "--execution", "zz!"], "--execution"]
    ]
    for (const [args, flag] of cases) {
      const e = refusal(at(dir, args), "InvalidInput")
      expect(e.issues.map((i: { path: string }) => i.path), args.join(" ")).toEqual([flag])
      expect(e.message).toContain(`at '${flag}'`)
      // Without --json too: the issue line names the option.
      const human = runCli([...args, "--workdir", dir])
      expect(human.stderr).toContain(`    ${flag}: `)
    }
    // A path inside an input file keeps its dotted path (the option --study is given too).
    put(dir, "research/inputs/e.json", JSON.stringify([{ id: "e1", type: "candidate_created" }]))
    const inFile = refusal(
      at(dir, ["journal", "append", "--study", "s1", "--input", "research/inputs/e.json"]),
      "InvalidInput"
    )
    expect(inFile.issues.every((i: { path: string }) => /^0\./.test(i.path))).toBe(true)
  })

  it("--research-dir naming the work folder itself is refused as that, not as outside it", () => {
    const dir = tempWorkdir()
    put(dir, "state.json", "{}")
    for (const [given, cwd] of [[".", dir], [dir, undefined], ["./", dir]] as const) {
      const r = runCli(["gate", "--workdir", dir, "--state", "state.json", "--research-dir", given, "--json"], {
        env: { DOSSIER_UNATTENDED: "1" },
        ...(cwd === undefined ? {} : { cwd })
      })
      expect(r.code, given).toBe(1)
      expect(r.json.error).toMatchObject({ _tag: "InputOutsideWorkdir", path: ".", flag: "--research-dir" })
      expect(r.json.error.message).toBe("The research dir path '.' is the work folder itself, not a folder inside it.")
    }
  })

  it("'-' reads standard input, with the same 64 KiB limit", () => {
    const dir = tempWorkdir()
    expect(okJson(at(dir, ["plan", "start", "--input", "-"], { input: JSON.stringify(PLAN) }))).toMatchObject({
      created: true
    })
    const big = JSON.stringify({ ...PLAN, goal: "x".repeat(70 * 1024) })
    expect(refusal(at(dir, ["plan", "start", "--input", "-"], { input: big }), "InputTooLarge")).toMatchObject({
      path: "-",
      max: 65536
    })
    expect(refusal(at(dir, ["plan", "start", "--input", "-"], { input: "{nope" }), "InvalidInput").issues.length)
      .toBeGreaterThan(0)
  })
})

describe("init, status and the lists", () => {
  it("init creates the folders and .dossier/.gitignore once, and nothing else", () => {
    const dir = tempWorkdir()
    const r = okJson(at(dir, ["init"]))
    expect(r).toEqual({
      ok: true,
      created: true,
      paths: ["research/inputs/", "research/sources/", "research/results/", ".dossier/", ".dossier/.gitignore"]
    })
    expect(tree(dir)).toEqual([
      ".dossier",
      ".dossier/.gitignore",
      "research",
      "research/inputs",
      "research/results",
      "research/sources"
    ])
    expect(fs.readFileSync(path.join(dir, ".dossier/.gitignore"), "utf8")).toContain("lock.sqlite")
    expect(okJson(at(dir, ["init"]))).toEqual({ ok: true, created: false, paths: [] })
    expect(runCli(["init", "--workdir", dir]).stdout).toContain("already initialized")
  })

  it("init that meets a file or a link where a folder goes refuses before it creates anything", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["file", "research/sources"],
      ["link", "research/results"],
      ["file", ".dossier"]
    ]
    for (const [what, place] of cases) {
      const dir = tempWorkdir()
      if (what === "file") put(dir, place, "not a folder")
      else {
        fs.mkdirSync(path.join(dir, "research"))
        fs.symlinkSync(os.tmpdir(), path.join(dir, place))
      }
      const before = tree(dir)
      const r = at(dir, ["init"])
      expect(refusal(r, "UnsafePath"), place).toMatchObject({ path: place })
      // Nothing made before the refusal: not research/inputs/, not the folders before `place`.
      expect(tree(dir), place).toEqual(before)
    }
  })

  it("status is one overview across the subsystems, with the facts of next", () => {
    const dir = tempWorkdir()
    const empty = okJson(at(dir, ["status"]))
    expect(empty).toMatchObject({
      workdir: ".",
      plan: null,
      studies: [],
      monitor: { subscriptions: 0, due: 0, activeRuns: 0, unresolvedOutcomes: 0 },
      grants: { active: 0 },
      facts: []
    })
    okJson(at(dir, ["plan", "start", "--input", putInput(dir, "plan.json", PLAN)]))
    okJson(
      at(dir, [
        "journal",
        "append",
        "--study",
        "s1",
        "--input",
        putInput(dir, "e.json", { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } })
      ])
    )
    okJson(
      at(dir, [
        "monitor",
        "create-subscription",
        "--input",
        putInput(dir, "sub.json", literature("lit")),
        "--now",
        "2026-11-30T10:00:00Z"
      ])
    )
    const now = "2026-12-02T10:00:00Z"
    const r = okJson(at(dir, ["status", "--now", now]))
    expect(r.plan).toMatchObject({ goal: PLAN.goal, status: "in_progress", revision: 1, nextAction: PLAN.nextAction })
    expect(r.plan.verification.state).toBe("current")
    expect(r.studies).toEqual([{
      study: "s1",
      events: 1,
      head: { seq: 1, id: "c1" },
      tail: "clean",
      selected: null,
      checkpoint: null
    }])
    expect(r.monitor).toEqual({ subscriptions: 1, due: 1, activeRuns: 0, unresolvedOutcomes: 0 })
    const next = okJson(at(dir, ["next", "--now", now]))
    expect(r.facts).toEqual(next.facts)
    expect(r.suggestion).toBe("dossier monitor create-due-run --subscription lit")
    const human = runCli(["status", "--workdir", dir, "--now", now])
    expect(human.stdout).toContain(`plan (revision 1, in_progress): ${PLAN.goal}`)
    expect(human.stdout).toContain("monitor: 1 subscription(s), 1 due")
    expect(human.stdout).toContain("next: dossier monitor create-due-run --subscription lit")
  })

  it("journal list and monitor list; readers of one record refuse a missing one", async () => {
    const dir = tempWorkdir()
    expect(okJson(at(dir, ["journal", "list"]))).toMatchObject({ count: 0, studies: [] })
    okJson(
      at(dir, [
        "journal",
        "append",
        "--study",
        "s1",
        "--input",
        putInput(dir, "e.json", { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } })
      ])
    )
    expect(okJson(at(dir, ["journal", "list"])).studies).toEqual([{
      study: "s1",
      events: 1,
      head: { seq: 1, id: "c1" },
      tail: "clean"
    }])
    expect(refusal(at(dir, ["journal", "inspect", "--study", "typo"]), "StudyNotFound").study).toBe("typo")
    const run = await runningRunInProcess(dir, "lit", "2026-12-02T10:00:00Z")
    const list = okJson(at(dir, ["monitor", "list"]))
    expect(list.subscriptions).toMatchObject([{ id: "lit", status: "active", activeRunId: run.id }])
    expect(list.runs).toMatchObject([{ id: run.id, subscriptionId: "lit", status: "running", revision: 2 }])
    expect(refusal(at(dir, ["monitor", "show", "--subscription", "nope"]), "SubscriptionNotFound").subscriptionId).toBe(
      "nope"
    )
    expect(refusal(at(dir, ["monitor", "show", "--run", "lit.w99"]), "RunNotFound").runId).toBe("lit.w99")
    expect(runCli(["monitor", "list", "--workdir", dir]).stdout).toContain(`${run.id} (revision 2, running) of lit`)
  })
})

describe("flags instead of input files", () => {
  it("the four small monitor actions take flags; --input with them is a UsageError", async () => {
    const dir = tempWorkdir()
    okJson(
      at(dir, [
        "monitor",
        "create-subscription",
        "--input",
        putInput(dir, "sub.json", literature("lit")),
        "--now",
        "2026-11-30T10:00:00Z"
      ])
    )
    const now = "2026-12-02T10:00:00Z"
    const created = okJson(at(dir, ["monitor", "create-due-run", "--subscription", "lit", "--now", now]))
    const runId = created.run.id
    const both = at(dir, [
      "monitor",
      "transition-run",
      "--input",
      putInput(dir, "t.json", {}),
      "--run",
      runId,
      "--now",
      now
    ])
    expect(refusal(both, "UsageError", 2).message).toContain("not both")
    expect(refusal(at(dir, ["monitor", "transition-run", "--run", runId, "--now", now]), "UsageError", 2).message)
      .toContain("--expected, --to")
    expect(
      refusal(
        at(dir, ["monitor", "transition-run", "--run", runId, "--expected", "1", "--to", "flying", "--now", now]),
        "UsageError",
        2
      ).message
    ).toMatch(/^--to <status>: /)
    const t = okJson(
      at(dir, [
        "monitor",
        "transition-run",
        "--run",
        runId,
        "--expected",
        "1",
        "--to",
        "running",
        "--reason",
        "start now",
        "--now",
        now
      ])
    )
    expect(t.run).toMatchObject({ status: "running", revision: 2 })
    const paused = okJson(
      at(dir, [
        "monitor",
        "set-subscription-status",
        "--subscription",
        "lit",
        "--expected",
        "2",
        "--status",
        "paused",
        "--now",
        now
      ])
    )
    expect(paused.subscription.status).toBe("paused")
    const fin = finishInput(dir, t.run)
    const { sha256: _omitted, ...stage } = fin.stage
    const done = okJson(
      at(dir, ["monitor", "finish-run", "--input", putInput(dir, "f.json", { ...fin, stage }), "--now", now])
    )
    expect(done.run.completion.stage.sha256).toBe(fin.stage.sha256)
    const d = okJson(
      at(dir, [
        "monitor",
        "set-outcome-disposition",
        "--run",
        runId,
        "--outcome",
        "o1",
        "--disposition",
        "acknowledged",
        "--now",
        now
      ])
    )
    expect(d.outcome.disposition.value).toBe("acknowledged")
  })
})

describe("computed digests", () => {
  it("journal append fills sha256 and bytes; given values must match; a retry after the file changed conflicts", () => {
    const dir = tempWorkdir()
    put(dir, "research/results/a.csv", "a,b\n1,2\n")
    const events = [
      { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } },
      { id: "l1", type: "artifact_linked", candidateId: "a", artifact: { path: "research/results/a.csv" } }
    ]
    const input = putInput(dir, "e.json", events)
    okJson(at(dir, ["journal", "append", "--study", "s", "--input", input]))
    const r = okJson(at(dir, ["journal", "inspect", "--study", "s"]))
    expect(r.candidates[0].artifacts[0]).toMatchObject({
      path: "research/results/a.csv",
      sha256: sha("a,b\n1,2\n"),
      bytes: 8
    })
    // The same batch again is a harmless retry.
    expect(okJson(at(dir, ["journal", "append", "--study", "s", "--input", input])).skipped).toEqual(["c1", "l1"])
    // A typo in a given digest is refused, not recorded.
    const typo = putInput(dir, "t.json", {
      id: "l2",
      type: "artifact_linked",
      candidateId: "a",
      artifact: { path: "research/results/a.csv", sha256: "0".repeat(64) }
    })
    expect(refusal(at(dir, ["journal", "append", "--study", "s", "--input", typo]), "DigestMismatch")).toMatchObject({
      path: "research/results/a.csv",
      expected: "0".repeat(64),
      actual: sha("a,b\n1,2\n")
    })
    const bytes = putInput(dir, "b.json", {
      id: "l3",
      type: "artifact_linked",
      candidateId: "a",
      artifact: { path: "research/results/a.csv", bytes: 9 }
    })
    expect(refusal(at(dir, ["journal", "append", "--study", "s", "--input", bytes]), "DigestMismatch").expected).toBe(
      "9 bytes"
    )
    // The file changed, then the first batch is retried: its digest is computed first, so it conflicts.
    put(dir, "research/results/a.csv", "changed\n")
    expect(refusal(at(dir, ["journal", "append", "--study", "s", "--input", input]), "ConflictingEvent")).toBeDefined()
  })

  it("a bad artifact path is the only issue: the digests it left out are not reported missing", () => {
    const dir = tempWorkdir()
    const link = (id: string, artifact: Record<string, unknown>) => ({
      id,
      type: "artifact_linked",
      candidateId: "a",
      artifact
    })
    const create = { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } }
    const one = putInput(dir, "one.json", link("l1", { path: "../outside.csv" }))
    expect(refusal(at(dir, ["journal", "append", "--study", "s", "--input", one]), "InvalidInput").issues).toEqual([
      { path: "artifact.path", message: "a normalized path relative to the work folder, with /" }
    ])
    const batch = putInput(dir, "batch.json", [create, link("l2", { path: "/abs/a.csv", sha256: "x" })])
    expect(refusal(at(dir, ["journal", "append", "--study", "s", "--input", batch]), "InvalidInput").issues).toEqual([
      { path: "1.artifact.path", message: "a normalized path relative to the work folder, with /" },
      { path: "1.artifact.sha256", message: expect.any(String) }
    ])
  })
})

describe("read-only commands", () => {
  const READERS: ReadonlyArray<ReadonlyArray<string>> = [
    ["plan", "inspect"],
    ["journal", "list"],
    ["monitor", "due"],
    ["monitor", "list"],
    ["monitor", "unresolved-outcomes"],
    ["next"],
    ["status"],
    ["schema"],
    ["grant", "list"]
  ]

  it("create nothing in a folder dossier never wrote (no lock file, no directory)", () => {
    const dir = tempWorkdir()
    put(dir, "notes.txt", "mine\n")
    for (const args of READERS) okJson(at(dir, args))
    expect(refusal(at(dir, ["journal", "inspect", "--study", "s"]), "StudyNotFound")).toBeDefined()
    expect(tree(dir)).toEqual(["notes.txt"])
  })

  it("refuse with RecoveryNeeded when an interrupted transaction would need a write they cannot make", () => {
    const dir = tempWorkdir()
    put(dir, ".dossier/monitor/intent.json", "{}")
    const before = snapshot(dir)
    for (const args of [["next"], ["status"], ["monitor", "due"]]) {
      expect(refusal(at(dir, args), "RecoveryNeeded").path).toBe(".dossier/monitor/intent.json")
    }
    expect(snapshot(dir)).toEqual(before)
    expect(fs.existsSync(path.join(dir, ".dossier/lock.sqlite"))).toBe(false)
  })

  /** A folder with a plan, a journal, a subscription and a completed run: every reader has something to read. */
  const populated = async () => {
    const dir = tempWorkdir()
    okJson(at(dir, ["plan", "start", "--input", putInput(dir, "plan.json", PLAN)]))
    okJson(
      at(dir, [
        "journal",
        "append",
        "--study",
        "s1",
        "--input",
        putInput(dir, "e.json", { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } })
      ])
    )
    const run = await runningRunInProcess(dir, "lit", "2026-12-02T10:00:00Z")
    okJson(
      at(dir, [
        "monitor",
        "finish-run",
        "--input",
        putInput(dir, "f.json", finishInput(dir, run)),
        "--now",
        "2026-12-02T11:00:00Z"
      ])
    )
    return dir
  }

  const T = "2026-12-03T00:00:00Z"
  const READ_LINES: ReadonlyArray<ReadonlyArray<string>> = [
    ["plan", "inspect"],
    ["journal", "list"],
    ["journal", "inspect", "--study", "s1", "--verify"],
    ["monitor", "due", "--now", T],
    ["monitor", "list"],
    ["monitor", "unresolved-outcomes"],
    ["monitor", "show", "--subscription", "lit"],
    ["next", "--now", T],
    ["status", "--now", T],
    ["schema", "errors"]
  ]

  const answersOf = (run: (args: ReadonlyArray<string>) => { code: number | null; stdout: string; stderr: string }) =>
    READ_LINES.map((args) => {
      const r = run([...args, "--json"])
      expect(r.code, `${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(0)
      return JSON.parse(r.stdout)
    })

  /**
   * The populated folder and its readers' answers, made once for the two tests below: each reads it
   * on a read-only view of its own (a bind mount of it, a copy made unwritable) and changes
   * nothing in it, so the 16 CLI starts that make and read it need not run twice.
   */
  let readable: Promise<{ readonly dir: string; readonly expected: ReadonlyArray<unknown> }> | undefined
  const populatedAndAnswers = () => (readable ??= populated().then((dir) => ({
    dir,
    expected: answersOf((args) => runCli(args, { cwd: dir, env: { DOSSIER_WORKDIR: "" } }))
  })))

  it("work on a read-only bind mount (where mounting is permitted) with the same answers", async () => {
    const { dir, expected } = await populatedAndAnswers()
    const ro = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-ro-"))
    const mounted = spawnSync("mount", ["--bind", "-o", "ro", dir, ro])
    if (mounted.status !== 0) {
      console.warn(
        "SKIPPED: read-only bind mount not permitted here (needs root); the non-root test below covers read-only folders"
      )
      return
    }
    try {
      expect(spawnSync("touch", [path.join(ro, "probe")]).status).not.toBe(0)
      const got = answersOf((args) => runCli(args, { cwd: ro, env: { DOSSIER_WORKDIR: "" } }))
      expect(got).toEqual(expected)
    } finally {
      spawnSync("umount", [ro])
      fs.rmdirSync(ro)
    }
  })

  it("work on a chmod -R a-w copy run by a user who cannot write it (setpriv to nobody)", async () => {
    if (process.getuid?.() !== 0 || spawnSync("setpriv", ["--version"]).status !== 0) {
      console.warn("SKIPPED: needs root and setpriv to run the CLI as a non-writing user")
      return
    }
    const { dir, expected } = await populatedAndAnswers()
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-copy-"))
    fs.cpSync(dir, copy, { recursive: true })
    fs.chmodSync(copy, 0o755)
    spawnSync("chmod", ["-R", "a-w,a+rX", copy])
    const asNobody = (args: ReadonlyArray<string>) => {
      const r = spawnSync("setpriv", [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        process.execPath,
        CLI,
        ...args
      ], {
        cwd: copy,
        encoding: "utf8",
        env: { ...process.env, DOSSIER_WORKDIR: "" }
      })
      return { code: r.status, stdout: r.stdout, stderr: r.stderr }
    }
    try {
      const before = snapshot(copy)
      expect(answersOf(asNobody)).toEqual(expected)
      expect(snapshot(copy)).toEqual(before)
      // A write is refused as an IoError, never a defect.
      const w = asNobody(["init", "--json"])
      expect(w.code).toBe(1)
      expect(JSON.parse(w.stdout).error._tag).toBe("IoError")
    } finally {
      spawnSync("chmod", ["-R", "u+w", copy])
      fs.rmSync(copy, { recursive: true, force: true })
    }
  })
})

describe("help, version and mistakes", () => {
  it("--help --json and --version --json print one JSON object; dossier help equals --help", () => {
    const dir = tempWorkdir()
    const h = okJson(at(dir, ["plan", "start", "--help"]))
    expect(h).toMatchObject({ command: "dossier plan start", subcommands: [] })
    expect(h.usage).toMatch(/^dossier plan start --input <path> \[--replace-goal\] \[--expected <integer>\]/)
    expect(h.options).toContainEqual({
      name: "--input",
      type: "path",
      required: true,
      description: expect.stringContaining("64 KiB")
    })
    expect(h.options).toContainEqual(expect.objectContaining({ name: "--now", type: "instant", required: false }))
    expect(okJson(at(dir, ["help", "plan", "start"]))).toEqual(h)
    expect(runCli(["help", "plan", "start"]).stdout).toBe(runCli(["plan", "start", "--help"]).stdout)
    expect(okJson(at(dir, ["--version"]))).toEqual({ ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) })
    const root = okJson(at(dir, ["--help"]))
    expect(root.subcommands.map((s: any) => s.name)).toEqual(
      expect.arrayContaining(["init", "status", "next", "journal list", "monitor list", "help"])
    )
    expect(root.options.map((o: any) => o.name)).toEqual(["--workdir", "--json", "--now"])
    // The root page lists every command of the table, the two-word forms of a command
    // (`exec show`) included, each once.
    const names = root.subcommands.map((s: any) => s.name)
    expect([...names].sort()).toEqual([...allSpecs.map((s) => s.path.join(" ")), "help"].sort())
    expect(names.indexOf("exec show")).toBe(names.indexOf("exec") + 1)
    // Every variable a command reads in the user's place is named on the root page.
    const page = runCli(["--help"]).stdout.replace(/\s+/g, " ")
    for (const name of ["DOSSIER_WORKDIR", "DOSSIER_UNATTENDED=1", "DOSSIER_STORE"]) expect(page).toContain(name)
  })

  it("dossier help takes the shared options as any command does: their values are no command words", () => {
    const dir = tempWorkdir()
    const page = (args: ReadonlyArray<string>) => {
      const r = runCli(args, { cwd: dir })
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0)
      return r.stdout
    }
    expect(page(["help", "--workdir", "."])).toBe(page(["--help"]))
    expect(page(["help", "plan", "--workdir", "."])).toBe(page(["plan", "--help"]))
    expect(page(["help", "plan", "start", "--workdir", dir, "--now", "2026-12-01T10:00:00Z"])).toBe(
      page(["plan", "start", "--help"])
    )
    expect(page(["help", "--now", "2026-12-01T10:00:00Z", "journal", "inspect"])).toBe(
      page(["journal", "inspect", "--help"])
    )
    expect(okJson(at(dir, ["help", "monitor", "--workdir", "."])).command).toBe("dossier monitor")
    // A word that is no command is still refused.
    expect(refusal(at(dir, ["help", "--workdir", ".", "plna"]), "UsageError", 2).message).toContain(
      "did you mean 'plan'?"
    )
  })

  it("the shared options work the same before the command as after it, in either form", () => {
    const dir = tempWorkdir()
    okJson(at(dir, ["plan", "start", "--input", putInput(dir, "plan.json", PLAN)]))
    const other = tempWorkdir()
    const answer = (args: ReadonlyArray<string>) => {
      const r = runCli(args, { cwd: other, env: { DOSSIER_WORKDIR: "" } })
      return { code: r.code, json: r.json ?? r.stdout }
    }
    const now = "2026-12-01T10:00:00.000Z"
    const commands: ReadonlyArray<readonly [ReadonlyArray<string>, boolean]> = [
      [["status"], true],
      [["plan", "inspect"], false],
      [["journal", "list"], false]
    ]
    for (const [command, takesNow] of commands) {
      const when = takesNow ? ["--now", now] : []
      const whenEq = takesNow ? [`--now=${now}`] : []
      const after = answer([...command, "--workdir", dir, "--json", ...when])
      expect(after.code, `${command.join(" ")}: ${JSON.stringify(after.json)}`).toBe(0)
      for (
        const before of [
          ["--workdir", dir, "--json", ...when, ...command],
          [...whenEq, `--workdir=${dir}`, ...command, "--json"]
        ]
      ) {
        expect(answer(before), before.join(" ")).toEqual(after)
      }
    }
    // A command's own option before the command stays a usage error; a shared one given twice too.
    expect(refusal(runCli(["--input", "x.json", "plan", "start", "--json"]), "UsageError", 2).message).toContain(
      "'--input' before a command"
    )
    expect(refusal(runCli(["--json", "--workdir", dir, "status", "--json"]), "UsageError", 2).message).toContain(
      "--json is given more than once"
    )
    expect(runCli(["--workdir", dir, "--help"]).stdout).toBe(runCli(["--help"]).stdout)
  }, 120_000)

  it("help pages wrap at 100 columns, show option kinds and explain the shared options once", () => {
    // Each page printed once: the checks below read the same output.
    const pages = new Map<string, string>()
    const pageOf = (args: ReadonlyArray<string>) => {
      const key = args.join(" ")
      if (!pages.has(key)) pages.set(key, runCli(args).stdout)
      return pages.get(key)!
    }
    const lines = (args: ReadonlyArray<string>) => pageOf(args).split("\n")
    for (
      const args of [["--help"], ["help", "gate"], ["monitor", "--help"], [
        "monitor",
        "set-outcome-disposition",
        "--help"
      ], ["ingest", "--help"]]
    ) {
      const out = lines(args)
      expect(Math.max(...out.map((l) => l.length)), args.join(" ")).toBeLessThanOrEqual(100)
    }
    const ingest = pageOf(["ingest", "--help"])
    // The URL is optional since ingest --file (h14b): a fetch names it, an import does not.
    expect(ingest).toContain("Usage: dossier ingest [<url>]")
    expect(ingest).toContain("--timeout <integer>")
    expect(ingest).not.toContain("A user-defined piece of text")
    expect(ingest).not.toContain("nearest folder")
    expect(pageOf(["--help"])).toContain("nearest folder")
    expect(runCli(["monitor", "show", "--help"]).stdout).toContain("--run <id>")
  })

  it("exec's page shows the program after --, and its required --grant as required", () => {
    const dir = tempWorkdir()
    const usage =
      "dossier exec --grant <id> [--candidate <id>] [--study <id>] [--workdir <path>] [--json] -- <program> [args…]"
    const page = runCli(["exec", "--help"]).stdout
    expect(page.replace(/\n +/g, " ")).toContain(`Usage: ${usage}`)
    expect(page).toMatch(/^ {2}-- <program> \[args…\] +\(required\) The program and its arguments/m)
    expect(runCli(["help", "exec"]).stdout).toBe(page)
    const doc = okJson(at(dir, ["help", "exec"]))
    expect(doc.usage).toBe(usage)
    expect(doc.arguments).toEqual([{
      name: "-- <program> [args…]",
      type: "text",
      required: true,
      description: expect.stringContaining("program")
    }])
    expect(doc.options).toContainEqual(expect.objectContaining({ name: "--grant", type: "id", required: true }))
    expect(refusal(at(dir, ["exec", "--", "true"]), "UsageError", 2).message).toContain(
      "'dossier exec' needs --grant <id>"
    )
    // One sentence: the placeholder says what goes after --, the option's description is not repeated.
    expect(refusal(at(dir, ["exec", "--grant", "g1"]), "UsageError", 2).message).toBe(
      "'dossier exec' needs <program> [args…] after --."
    )
  })

  it("mistakes get useful answers: the nearest command, the group's commands, the repeated flag", () => {
    const dir = tempWorkdir()
    const strat = refusal(at(dir, ["plan", "strat"]), "UsageError", 2)
    expect(strat.message).toContain("unknown command 'strat' for 'dossier plan'; did you mean 'start'?")
    expect(strat.message).toContain("start, checkpoint, inspect")
    expect(refusal(at(dir, ["plan"]), "UsageError", 2).message).toContain(
      "'dossier plan' needs a command: start, checkpoint, inspect"
    )
    expect(refusal(at(dir, ["stauts"]), "UsageError", 2).message).toContain("did you mean 'status'?")
    expect(refusal(runCli(["plan", "inspect", "--json", "--json"]), "UsageError", 2).message).toContain(
      "--json is given more than once"
    )
    expect(refusal(at(dir, ["plan", "inspect", "--verbose"]), "UsageError", 2).message).toContain(
      "unknown option '--verbose'"
    )
    expect(refusal(at(dir, ["journal", "inspect", "--stdy", "s"]), "UsageError", 2).message).toContain(
      "did you mean '--study'?"
    )
    expect(refusal(at(dir, ["plan", "inspect", "--wizard"]), "UsageError", 2).message).toContain("--wizard")
    // --expected may be left out (the input's expectedRevision may give it): not a usage mistake.
    expect(refusal(at(dir, ["plan", "checkpoint", "--input", "x.json"]), "FileNotFound").path).toBe("x.json")
    const human = runCli(["plan", "strat"])
    expect(human.code).toBe(2)
    expect(human.stdout).toBe("")
    expect(human.stderr).toContain("did you mean 'start'?")
  })

  it("human refusals show every issue", () => {
    const dir = tempWorkdir()
    const r = runCli(["plan", "start", "--workdir", dir, "--input", putInput(dir, "p.json", { goal: 3, limits: "x" })])
    expect(r.code).toBe(1)
    const issues = r.stderr.split("\n").filter((l) => /^ {4}\S+: /.test(l))
    expect(issues.length).toBeGreaterThanOrEqual(3) // goal, limits, nextAction
    expect(r.stderr).toMatch(/ {4}goal: /)
    expect(r.stderr).toMatch(/ {4}nextAction: /)
  })
})
