/**
 * Issue 13, items 2–5: paths dossier was given or keeps for itself, refused before anything is
 * written, through the built CLI. Each refusal is `UnsafePath` (or `CorruptMonitorRecord` for a
 * transaction record naming a foreign file), exit 1, and nothing inside or outside changes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Ingest } from "../../src/services/Ingest.js"
import { folder, NOW, parkedMaturity } from "../gate/support.js"
import { httpLayer, ingestLayer, loopbackForTests, recorder, startServer, type TestServer } from "../ingest/support.js"
import { at, finishInput, mon, runningRun, weekWindow } from "../monitor/support.js"
import { leaksNothing, put, putInput, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const planStart = (dir: string) =>
  runCli([
    "plan",
    "start",
    "--workdir",
    dir,
    "--json",
    "--input",
    putInput(dir, `start-${Math.random()}.json`, { goal: "g", limits: [], nextAction: "n" })
  ])

/** A folder's files without the scan index (derived, rewritten by read-only commands too) and the input files the test writes. */
const stateOf = (files: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(files).filter(([k]) => k !== ".dossier/monitor/scan.index" && !k.startsWith("research/inputs/"))
  )

const refusedWith = (dir: string, r: ReturnType<typeof runCli>, error: Record<string, unknown>) => {
  expect(leaksNothing(dir, r), r.stdout + r.stderr).toBe(true)
  expect({ code: r.code, error: r.json?.error }).toMatchObject({ code: 1, error })
}

describe("the lock file is checked like any other path (item 2)", () => {
  const lockAt = (dir: string) => path.join(dir, ".dossier/lock.sqlite")

  it("a symlink to a new outside path: UnsafePath, and nothing is created there", () => {
    const dir = tempWorkdir()
    const outside = path.join(tempWorkdir("dossier-outside-"), "lock.sqlite")
    fs.mkdirSync(path.join(dir, ".dossier"))
    fs.symlinkSync(outside, lockAt(dir))
    refusedWith(dir, planStart(dir), {
      _tag: "UnsafePath",
      path: ".dossier/lock.sqlite",
      reason: "symlink",
      retryable: false
    })
    expect(fs.existsSync(outside)).toBe(false)
    expect(fs.existsSync(path.join(dir, "plan.md"))).toBe(false)
  })

  it("a symlink to an existing outside file or to /dev/zero: UnsafePath, the file untouched", () => {
    const dir = tempWorkdir()
    const outside = path.join(tempWorkdir("dossier-outside-"), "precious")
    fs.writeFileSync(outside, "precious bytes")
    fs.mkdirSync(path.join(dir, ".dossier"))
    fs.symlinkSync(outside, lockAt(dir))
    refusedWith(dir, planStart(dir), { _tag: "UnsafePath", path: ".dossier/lock.sqlite", reason: "symlink" })
    expect(fs.readFileSync(outside, "utf8")).toBe("precious bytes")
    fs.rmSync(lockAt(dir))
    fs.symlinkSync("/dev/zero", lockAt(dir))
    refusedWith(dir, planStart(dir), { _tag: "UnsafePath", path: ".dossier/lock.sqlite", reason: "symlink" })
  })

  it("a hard link and a FIFO: UnsafePath (hard-link, not-regular-file)", () => {
    const dir = tempWorkdir()
    const outside = path.join(tempWorkdir("dossier-outside-"), "other.sqlite")
    fs.writeFileSync(outside, "")
    fs.mkdirSync(path.join(dir, ".dossier"))
    fs.linkSync(outside, lockAt(dir))
    refusedWith(dir, planStart(dir), { _tag: "UnsafePath", path: ".dossier/lock.sqlite", reason: "hard-link" })
    fs.rmSync(lockAt(dir))
    execFileSync("mkfifo", [lockAt(dir)])
    refusedWith(dir, planStart(dir), { _tag: "UnsafePath", path: ".dossier/lock.sqlite", reason: "not-regular-file" })
    fs.rmSync(lockAt(dir))
    expect(planStart(dir).code).toBe(0)
  })
})

describe("smaller holes (item 5)", () => {
  it("a symlinked .dossier is UnsafePath, not a retryable IoError; nothing is written through it", () => {
    const dir = tempWorkdir()
    const outside = tempWorkdir("dossier-outside-")
    fs.symlinkSync(outside, path.join(dir, ".dossier"))
    refusedWith(dir, planStart(dir), { _tag: "UnsafePath", path: ".dossier", reason: "symlink", retryable: false })
    expect(fs.readdirSync(outside)).toEqual([])
  })

  it("an absolute --input through a symlink inside the folder is refused, not resolved", () => {
    const dir = tempWorkdir()
    putInput(dir, "start.json", { goal: "g", limits: [], nextAction: "n" })
    fs.symlinkSync(path.join(dir, "research/inputs"), path.join(dir, "research/linked"))
    const r = runCli([
      "plan",
      "start",
      "--workdir",
      dir,
      "--json",
      "--input",
      path.join(dir, "research/linked/start.json")
    ])
    refusedWith(dir, r, { _tag: "UnsafePath", path: "research/linked/start.json", reason: "symlink" })
    expect(
      runCli(["plan", "start", "--workdir", dir, "--json", "--input", path.join(dir, "research/inputs/start.json")])
        .code
    ).toBe(0)
  })

  it("a symlinked unitPath or reviewItem is UnsafePath; a hard-linked citation is refused by finish-run", async () => {
    const dir = tempWorkdir()
    const now = at(weekWindow(0), 1000)
    const run = await runningRun(dir, "lit", now)
    const input = finishInput(dir, run, [
      {
        id: "n1",
        label: "new",
        reason: "r",
        citations: [{ path: "research/sources/paper.txt", quote: "block sparsity keeps accuracy within one point" }]
      }
    ])
    // The cited file hard-linked to a file elsewhere: refused like every retained file.
    const elsewhere = path.join(tempWorkdir("dossier-outside-"), "paper.txt")
    fs.linkSync(path.join(dir, "research/sources/paper.txt"), elsewhere)
    const before = snapshot(dir)
    const linked = await mon(dir, "finish-run", input, now)
    expect({ code: linked.code, error: linked.json?.error }).toMatchObject({
      code: 1,
      error: { _tag: "UnsafePath", path: "research/sources/paper.txt", reason: "hard-link" }
    })
    expect(stateOf(snapshot(dir))).toEqual(stateOf(before))
    fs.rmSync(elsewhere)
    expect((await mon(dir, "finish-run", input, now)).code).toBe(0)

    const target = path.join(tempWorkdir("dossier-outside-"), "u1.md")
    fs.writeFileSync(target, "# unit\n")
    fs.mkdirSync(path.join(dir, "units"))
    fs.symlinkSync(target, path.join(dir, "units/u1.md"))
    const m = await mon(dir, "set-outcome-disposition", {
      runId: run.id,
      outcomeId: "n1",
      disposition: "materialized",
      authorization: { messageId: "m" },
      unitPath: "units/u1.md"
    }, now)
    expect({ code: m.code, error: m.json?.error }).toMatchObject({
      code: 1,
      error: { _tag: "UnsafePath", path: "units/u1.md", reason: "symlink" }
    })
    fs.mkdirSync(path.join(dir, "units/dir.md"))
    const d = await mon(dir, "set-outcome-disposition", {
      runId: run.id,
      outcomeId: "n1",
      disposition: "materialized",
      authorization: { messageId: "m" },
      unitPath: "units/dir.md"
    }, now)
    expect(d.json?.error).toMatchObject({ _tag: "UnsafePath", reason: "not-regular-file" })
  }, 60_000)
})

describe("transaction recovery touches only the monitor's own records (item 3)", () => {
  const intentWith = (files: ReadonlyArray<unknown>) =>
    JSON.stringify({ version: 1, id: "feedfacefeedface", committed: true, files })

  for (
    const [label, files] of [
      ["a path that escapes after normalization", [{
        kind: "replace",
        path: ".dossier/monitor/../../plan.md",
        before: null,
        after: null
      }]],
      ["a registered source through ..", [{
        kind: "replace",
        path: ".dossier/monitor/../../research/sources/s.md",
        before: null,
        after: "overwritten"
      }]],
      ["an append to a file that is not the reports log", [{
        kind: "append",
        path: ".dossier/monitor/runs/../../../plan.md",
        sizeBefore: 0,
        data: "x"
      }]],
      ["a monitor path that is no record file", [{
        kind: "replace",
        path: ".dossier/monitor/scan.index",
        before: null,
        after: null
      }]],
      ["a record path spelled with ./", [{
        kind: "replace",
        path: ".dossier/monitor/./subscriptions/a.json",
        before: null,
        after: null
      }]]
    ] as const
  ) {
    it(`${label}: CorruptMonitorRecord, nothing touched`, async () => {
      const dir = tempWorkdir()
      expect(planStart(dir).code).toBe(0)
      put(dir, "research/sources/s.md", "registered bytes\n")
      put(dir, ".dossier/monitor/intent.json", intentWith(files))
      const before = snapshot(dir)
      const r = runCli(["monitor", "due", "--workdir", dir, "--now", NOW, "--json"])
      refusedWith(dir, r, { _tag: "CorruptMonitorRecord", path: ".dossier/monitor/intent.json" })
      expect(snapshot(dir)).toEqual(before)
    })
  }

  it("an intent naming the monitor's own records is still recovered", async () => {
    const dir = tempWorkdir()
    // A writer left the intent, so the folder has its lock file (readers take the lock only then).
    put(dir, ".dossier/lock.sqlite", "")
    put(
      dir,
      ".dossier/monitor/intent.json",
      intentWith([{ kind: "append", path: ".dossier/monitor/reports.jsonl", sizeBefore: 0, data: "{}\n" }])
    )
    const r = runCli(["monitor", "due", "--workdir", dir, "--now", NOW, "--json"])
    expect(r.code, r.stdout).toBe(0)
    expect(fs.existsSync(path.join(dir, ".dossier/monitor/intent.json"))).toBe(false)
  })
})

describe("the gate writes only files it may own (item 4)", () => {
  const activeFolder = () => {
    const f = folder()
    f.writeState(parkedMaturity([{ id: "b1", category: "description" }]))
    f.writeResearch({ item: "PROJ-12", kind: "maturity", gaps: [] })
    return f
  }

  it("--attempts naming a journal, a retained file, dossier's own state or the state itself: UnsafePath naming why", () => {
    const f = activeFolder()
    const journal = runCli([
      "journal",
      "append",
      "--workdir",
      f.dir,
      "--study",
      "s",
      "--json",
      "--input",
      putInput(f.dir, "ev.json", [{ id: "c0", type: "candidate_created", candidate: { id: "k0", title: "T" } }])
    ])
    expect(journal.code).toBe(0)
    const before = snapshot(f.dir)
    for (
      const [attempts, reason] of [
        ["research/s/research-events.jsonl", "journal-file"],
        ["research/s/index.json", "journal-file"],
        ["research/sources/billing.md", "retained-file"],
        [".dossier/monitor/reports.jsonl", "dossier-state"],
        ["plan.md", "plan-file"],
        ["run/state.json", "run-state"]
      ] as const
    ) {
      const r = f.gate(["--attempts", attempts, "--record-attempt"])
      expect({ code: r.code, error: r.json?.error }, attempts).toMatchObject({
        code: 1,
        error: { _tag: "UnsafePath", path: attempts, reason }
      })
    }
    expect(snapshot(f.dir)).toEqual(before)
    // The default log and a log of the runner's own are fine.
    expect(f.gate(["--record-attempt"]).code).toBe(0)
    expect(fs.existsSync(path.join(f.dir, ".dossier/gate/attempted.jsonl"))).toBe(true)
  })

  it("--state naming a registered file, a journal or dossier's state: UnsafePath, the file not rewritten", () => {
    const f = activeFolder()
    const state = JSON.stringify(parkedMaturity([{ id: "b1", category: "description" }]), null, 2)
    // A registered output that happens to hold a valid run state.
    put(f.dir, "research/results/out.json", state)
    const revision = runCli(["plan", "inspect", "--workdir", f.dir, "--json"]).json.revision
    const cp = runCli([
      "plan",
      "checkpoint",
      "--workdir",
      f.dir,
      "--json",
      "--expected",
      String(revision),
      "--input",
      putInput(f.dir, "cp-out.json", {
        outputs: [{ path: "research/results/out.json", dependsOn: ["research/sources/billing.md"] }]
      })
    ])
    expect(cp.code, cp.stdout).toBe(0)
    put(f.dir, ".dossier/gate/state.json", state)
    put(f.dir, "research/s/index.json", state)
    const before = snapshot(f.dir)
    for (
      const [statePath, reason] of [
        ["research/results/out.json", "registered-file"],
        [".dossier/gate/state.json", "dossier-state"],
        ["research/s/index.json", "journal-file"]
      ] as const
    ) {
      const r = runCli(["gate", "--state", statePath, "--now", NOW, "--json"], { cwd: f.dir })
      refusedWith(f.dir, r, { _tag: "UnsafePath", path: statePath, reason })
    }
    expect(snapshot(f.dir)).toEqual(before)
  })
})

describe("ingest checks every target before writing any (item 5)", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({
      "/page": (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" })
        res.end("a page to retain\n")
      }
    })
  })
  afterAll(() => server.close())

  it.live(
    "an unsafe capture log (symlink, hard link, directory) refuses the capture before any retained file is written",
    () =>
      Effect.gen(function*() {
        for (const make of ["symlink", "hard-link", "directory"] as const) {
          const dir = tempWorkdir()
          const outside = path.join(tempWorkdir("dossier-outside-"), "log")
          fs.writeFileSync(outside, "")
          fs.mkdirSync(path.join(dir, ".dossier"))
          const log = path.join(dir, ".dossier/captures.jsonl")
          if (make === "symlink") fs.symlinkSync(outside, log)
          else if (make === "hard-link") fs.linkSync(outside, log)
          else fs.mkdirSync(log)
          const layer = ingestLayer(dir, httpLayer(recorder(), { "site.test": ["127.0.0.1"] }, loopbackForTests))
          const r = yield* Effect.flatMap(Ingest, (i) => i.capture(`http://site.test:${server.port}/page`)).pipe(
            Effect.either,
            Effect.provide(layer)
          )
          expect(Either.isLeft(r) && r.left, make).toMatchObject({
            _tag: "UnsafePath",
            path: ".dossier/captures.jsonl",
            reason: make === "directory" ? "not-regular-file" : make
          })
          expect(
            fs.existsSync(path.join(dir, "research/sources")) ? fs.readdirSync(path.join(dir, "research/sources")) : []
          ).toEqual([])
          expect(fs.readFileSync(outside, "utf8")).toBe("")
        }
      }),
    30_000
  )
})
