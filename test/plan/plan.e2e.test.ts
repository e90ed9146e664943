/**
 * The plan commands through the built CLI, in temporary folders, as an agent runs them.
 *
 * Over 400 lines: the plan commands share `started` and `checkpoint` above; checkpoint's rules
 * alone (steps, sources, outputs and their dependencies, completion, limits) are 400 lines.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { copyOfTemplate, leaksNothing, put, putInput, runCli, snapshot, tempWorkdir } from "../support/cli.js"

const sha = (s: string) => createHash("sha256").update(s).digest("hex")
const NOW = "2026-11-30T10:00:00.000Z"

/**
 * A fresh folder with a plan started: started through the CLI once per file (the answer checked
 * there) and copied per test, since the tests that start from it check what comes after.
 */
const started = () =>
  copyOfTemplate("plan-started", (dir) => {
    const input = putInput(dir, "start.json", {
      goal: "Compare X and Y",
      limits: ["public sources only"],
      nextAction: "search"
    })
    const r = runCli(["plan", "start", "--workdir", dir, "--input", input, "--now", NOW, "--json"])
    expect(r.json).toEqual({ ok: true, revision: 1, created: true })
  })

const checkpoint = (dir: string, value: unknown, expected: number, extra: Array<string> = []) =>
  runCli([
    "plan",
    "checkpoint",
    "--workdir",
    dir,
    "--input",
    putInput(dir, `cp-${Math.random()}.json`, value),
    "--expected",
    String(expected),
    "--now",
    NOW,
    "--json",
    ...extra
  ])

const inspect = (dir: string) => runCli(["plan", "inspect", "--workdir", dir, "--json"])

/** Assert a refusal with the tag, exit 1, no leak, and no change on disk. */
const refuses = (dir: string, run: () => ReturnType<typeof runCli>, tag: string) => {
  const before = snapshot(dir)
  const r = run()
  expect(r.code, r.stdout + r.stderr).toBe(1)
  expect(r.json.ok).toBe(false)
  expect(r.json.error._tag).toBe(tag)
  expect(typeof r.json.error.message).toBe("string")
  expect(typeof r.json.error.retryable).toBe("boolean")
  expect(leaksNothing(dir, r)).toBe(true)
  const after = snapshot(dir)
  // Only the input file written for the call may be new.
  for (const k of Object.keys(after)) if (!k.startsWith("research/inputs/")) expect(after[k]).toBe(before[k])
  for (const k of Object.keys(before)) expect(after[k]).toBe(before[k])
  return r.json.error
}

beforeAll(() => {
  expect(fs.existsSync(path.resolve(__dirname, "../../dist/dossier.cjs"))).toBe(true)
})

describe("plan inspect / start", () => {
  it("inspect without a plan answers state none with a hint", () => {
    const dir = tempWorkdir()
    const r = inspect(dir)
    expect(r.code).toBe(0)
    expect(r.json.ok).toBe(true)
    expect(r.json.state).toBe("none")
    // The command line's way out (the library's names Plan.start instead).
    expect(r.json.hint).toContain("`dossier plan start --input <path>`")
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("start creates, retries are idempotent, another goal conflicts, --replace-goal replaces", () => {
    const dir = started()
    const same = putInput(dir, "same.json", { goal: "Compare X and Y", limits: [], nextAction: "other" })
    expect(runCli(["plan", "start", "--workdir", dir, "--input", same, "--json"]).json).toEqual({
      ok: true,
      revision: 1,
      created: false
    })
    const other = putInput(dir, "other.json", { goal: "Something else", limits: ["l"], nextAction: "n2" })
    const conflict = refuses(
      dir,
      () => runCli(["plan", "start", "--workdir", dir, "--input", other, "--json"]),
      "GoalConflict"
    )
    expect(conflict.current).toBe("Compare X and Y")
    const noRevision = runCli(["plan", "start", "--workdir", dir, "--input", other, "--replace-goal", "--json"])
    expect({ code: noRevision.code, tag: noRevision.json?.error?._tag }).toEqual({ code: 2, tag: "UsageError" })
    refuses(
      dir,
      () =>
        runCli(["plan", "start", "--workdir", dir, "--input", other, "--replace-goal", "--expected", "7", "--json"]),
      "StaleRevision"
    )
    const ok = runCli([
      "plan",
      "start",
      "--workdir",
      dir,
      "--input",
      other,
      "--replace-goal",
      "--expected",
      "1",
      "--now",
      NOW,
      "--json"
    ])
    expect(ok.json).toEqual({ ok: true, revision: 2, created: false, replaced: true })
    const view = inspect(dir).json
    expect(view.goal).toBe("Something else")
    expect(view.previousGoals).toEqual([{ goal: "Compare X and Y", replacedAt: NOW }])
    expect(view.status).toBe("in_progress")
  })

  it("--replace-goal --expected without a plan is StaleRevision {expected, actual: 0} and creates nothing", () => {
    const dir = tempWorkdir()
    const input = putInput(dir, "start.json", { goal: "g", limits: [], nextAction: "n" })
    const e = refuses(
      dir,
      () =>
        runCli(["plan", "start", "--workdir", dir, "--input", input, "--replace-goal", "--expected", "7", "--json"]),
      "StaleRevision"
    )
    expect([e.expected, e.actual]).toEqual([7, 0])
    // The revision may come in the input too.
    const inInput = putInput(dir, "rev.json", { goal: "g", limits: [], nextAction: "n", expectedRevision: 3 })
    const e2 = refuses(
      dir,
      () => runCli(["plan", "start", "--workdir", dir, "--input", inInput, "--replace-goal", "--json"]),
      "StaleRevision"
    )
    expect([e2.expected, e2.actual]).toEqual([3, 0])
    expect(inspect(dir).json.state).toBe("none")
    // Refused before the lock, as --help says: it creates nothing, not even .dossier/lock.sqlite.
    expect(fs.existsSync(path.join(dir, ".dossier"))).toBe(false)
  })

  it("--replace-goal without a revision is a UsageError naming --expected whatever the folder holds", () => {
    // No plan: it used to create one, though --help says the flag needs --expected.
    const dir = tempWorkdir()
    const input = putInput(dir, "start.json", { goal: "g", limits: [], nextAction: "n" })
    const missing = () => runCli(["plan", "start", "--workdir", dir, "--input", input, "--replace-goal", "--json"])
    const usage = () => {
      const before = snapshot(dir)
      const r = missing()
      expect({ code: r.code, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({ code: 2, tag: "UsageError" })
      expect(r.json.error.message).toContain("--expected")
      expect(snapshot(dir)).toEqual(before)
    }
    usage()
    expect(fs.existsSync(path.join(dir, "plan.md"))).toBe(false)
    expect(fs.existsSync(path.join(dir, ".dossier"))).toBe(false)
    // The same goal: refused too, not a silent no-op.
    expect(runCli(["plan", "start", "--workdir", dir, "--input", input, "--json"]).json.created).toBe(true)
    usage()
  })

  it("a revision without --replace-goal is a UsageError (flag or input field), never ignored", () => {
    const usage = (dir: string, args: Array<string>, names: string) => {
      const before = snapshot(dir)
      const r = runCli(["plan", "start", "--workdir", dir, ...args, "--json"])
      expect(r.code, r.stdout + r.stderr).toBe(2)
      expect(r.json.error._tag).toBe("UsageError")
      expect(r.json.error.message).toContain(names)
      expect(r.json.error.message).toContain("only goes with --replace-goal")
      expect(snapshot(dir)).toEqual(before)
    }
    // No plan yet: the revision used to be dropped and the plan created.
    const fresh = tempWorkdir()
    const input = putInput(fresh, "start.json", { goal: "G", limits: [], nextAction: "n" })
    usage(fresh, ["--input", input, "--expected", "5"], "--expected")
    expect(fs.existsSync(path.join(fresh, "plan.md"))).toBe(false)
    const withRevision = putInput(fresh, "rev.json", { goal: "G", limits: [], nextAction: "n", expectedRevision: 5 })
    usage(fresh, ["--input", withRevision], "expectedRevision")
    expect(fs.existsSync(path.join(fresh, "plan.md"))).toBe(false)
    // A plan: the same goal with its current revision is refused too (no silent no-op).
    const dir = started()
    const same = putInput(dir, "same.json", { goal: "Compare X and Y", limits: [], nextAction: "n" })
    usage(dir, ["--input", same, "--expected", "1"], "--expected")
    const other = putInput(dir, "other.json", { goal: "Other", limits: [], nextAction: "n", expectedRevision: 1 })
    usage(dir, ["--input", other], "expectedRevision")
    // With --replace-goal, the input's revision is the one reconciled.
    expect(runCli(["plan", "start", "--workdir", dir, "--input", other, "--replace-goal", "--json"]).json)
      .toEqual({ ok: true, revision: 2, created: false, replaced: true })
  })

  it("keeps the user's prose around the section byte for byte and appends after a blank line", () => {
    const dir = tempWorkdir()
    const prose = "# Notes\r\n\nMy own text — with ünïcode\n\n```js\nconst x = 1\n```\nlast line without newline"
    put(dir, "plan.md", prose)
    const input = putInput(dir, "start.json", { goal: "G", limits: [], nextAction: "n" })
    expect(runCli(["plan", "start", "--workdir", dir, "--input", input, "--json"]).code).toBe(0)
    const text = fs.readFileSync(path.join(dir, "plan.md"), "utf8")
    expect(text.startsWith(`${prose}\n\n<!-- dossier:plan:begin -->`)).toBe(true)
    // Prose after the section survives later writes.
    fs.writeFileSync(path.join(dir, "plan.md"), `${text}\n## After\ntrailing prose\n`)
    put(dir, "research/results/r.md", "r")
    const r = checkpoint(dir, { nextAction: "next", completedSteps: [{ summary: "s" }] }, 1)
    expect(r.json).toEqual({ ok: true, revision: 2 })
    const after = fs.readFileSync(path.join(dir, "plan.md"), "utf8")
    expect(after.startsWith(`${prose}\n\n<!-- dossier:plan:begin -->`)).toBe(true)
    expect(after.endsWith("<!-- dossier:plan:end -->\n\n## After\ntrailing prose\n")).toBe(true)
  })
})

describe("plan checkpoint", () => {
  it("registers sources and outputs with digests, binds dependencies, reports changes", () => {
    const dir = started()
    put(dir, "research/sources/a.md", "source A")
    put(dir, "research/results/r.md", "result")
    const r = checkpoint(dir, {
      completedSteps: [{ summary: "read A", id: "step-1" }],
      sources: [{ path: "research/sources/a.md", origin: "https://example.org/a" }],
      outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.md"] }],
      nextAction: "write"
    }, 1)
    expect(r.json).toEqual({ ok: true, revision: 2 })
    let view = inspect(dir).json
    expect(view.sources).toEqual([{
      path: "research/sources/a.md",
      origin: "https://example.org/a",
      bytes: 8,
      sha256: sha("source A")
    }])
    expect(view.outputs).toEqual([{
      path: "research/results/r.md",
      bytes: 6,
      sha256: sha("result"),
      dependsOn: [{ path: "research/sources/a.md", sha256: sha("source A") }]
    }])
    expect(view.progress).toEqual({ completedSteps: 1, sources: 1, outputs: 1, unresolved: 0 })
    expect(view.verification).toEqual({ state: "current", findings: [] })
    expect(view.completion).toEqual({ ready: true, missing: [] })

    // A retry of the same step id is skipped.
    expect(checkpoint(dir, { completedSteps: [{ summary: "read A again", id: "step-1" }] }, 2).json.revision).toBe(3)
    expect(inspect(dir).json.completedSteps.length).toBe(1)

    // Editing files shows findings; inspect writes nothing.
    fs.appendFileSync(path.join(dir, "research/sources/a.md"), " edited")
    fs.writeFileSync(path.join(dir, "research/results/r.md"), "result 2")
    const before = snapshot(dir)
    view = inspect(dir).json
    expect(snapshot(dir)).toEqual(before)
    expect(view.verification.state).toBe("needs-attention")
    expect(view.verification.findings.map((f: any) => f.kind)).toEqual([
      "source-changed",
      "output-changed",
      "stale-dependency"
    ])
    expect(view.completion.ready).toBe(false)
    fs.rmSync(path.join(dir, "research/results/r.md"))
    expect(inspect(dir).json.verification.findings.map((f: any) => f.kind)).toEqual([
      "source-changed",
      "output-missing",
      "stale-dependency"
    ])
    fs.rmSync(path.join(dir, "research/sources/a.md"))
    expect(inspect(dir).json.verification.findings[0]).toEqual({
      kind: "source-missing",
      path: "research/sources/a.md",
      expected: sha("source A")
    })
  })

  it("re-registering an output rebinds it; a source is write-once", () => {
    const dir = started()
    put(dir, "research/sources/a.md", "A")
    put(dir, "research/results/r.md", "R1")
    checkpoint(dir, {
      sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }],
      outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.md"] }]
    }, 1)
    put(dir, "research/results/r.md", "R2")
    expect(
      checkpoint(dir, { outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.md"] }] }, 2).json
        .revision
    ).toBe(3)
    expect(inspect(dir).json.outputs[0].sha256).toBe(sha("R2"))
    expect(
      checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }] }, 3).json
        .revision
    ).toBe(4)
    put(dir, "research/sources/a.md", "A edited")
    const e = refuses(
      dir,
      () => checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }] }, 4),
      "EditedRetainedFile"
    )
    expect(e).toMatchObject({ path: "research/sources/a.md", expected: sha("A"), actual: sha("A edited") })
  })

  it("a source's origin is an http(s) URL without a user or password, as ingest --file --origin takes it", () => {
    const dir = started()
    put(dir, "research/sources/a.md", "A")
    const bad: Array<[string, string]> = [
      ["not a url", "InvalidUrl"],
      ["", "InvalidUrl"],
      ["javascript:alert(1)", "UnsupportedScheme"],
      ["file:///etc/passwd", "UnsupportedScheme"],
      ["https://user:s3cret@example.org/a", "CredentialsInUrl"],
      ["https://user@example.org/a", "CredentialsInUrl"]
    ]
    for (const [origin, tag] of bad) {
      const e = refuses(dir, () => checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin }] }, 1), tag)
      expect(JSON.stringify(e)).not.toContain("s3cret")
      // An origin is recorded, never fetched: the refusal does not say "fetched".
      expect(e.message).not.toMatch(/fetched/)
    }
    expect(fs.readFileSync(path.join(dir, "plan.md"), "utf8")).not.toContain("s3cret")
    // What the spec allows is taken, as the URL parser normalizes it.
    expect(checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin: "HTTPS://Example.org/a" }] }, 1).json)
      .toEqual({ ok: true, revision: 2 })
    expect(inspect(dir).json.sources[0].origin).toBe("https://example.org/a")
  })

  it("re-registering a source with another origin is refused naming both; the same origin is a no-op", () => {
    const dir = started()
    put(dir, "research/sources/a.md", "A")
    checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin: "https://example.org/a" }] }, 1)
    const e = refuses(
      dir,
      () => checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin: "https://example.org/b" }] }, 2),
      "InvalidInput"
    )
    expect(e.issues[0].path).toBe("sources.0.origin")
    expect(e.issues[0].message).toContain("https://example.org/a")
    expect(e.issues[0].message).toContain("https://example.org/b")
    // Two origins for one new path in one input: the same refusal, at the second.
    put(dir, "research/sources/c.md", "C")
    const e2 = refuses(dir, () =>
      checkpoint(dir, {
        sources: [
          { path: "research/sources/c.md", origin: "https://example.org/c" },
          { path: "research/sources/c.md", origin: "https://example.org/d" }
        ]
      }, 2), "InvalidInput")
    expect(e2.issues[0].path).toBe("sources.1.origin")
    // Nothing is registered yet: the refusal points at the first entry, not at a registration.
    expect(e2.issues[0].message).toContain("is given with origin 'https://example.org/c' at sources.0")
    expect(e.issues[0].message).toContain("is registered with origin 'https://example.org/a'")
    // The same origin (in any spelling the parser normalizes alike) is the idempotent retry.
    expect(checkpoint(dir, { sources: [{ path: "research/sources/a.md", origin: "https://EXAMPLE.org/a" }] }, 2).json)
      .toEqual({ ok: true, revision: 3 })
    expect(inspect(dir).json.sources).toMatchObject([{
      path: "research/sources/a.md",
      origin: "https://example.org/a"
    }])
  })

  it("completion is refused with reasons until an output exists, nothing is found and nothing is unresolved", () => {
    const dir = started()
    const e1 = refuses(dir, () => checkpoint(dir, { status: "complete" }, 1), "CompletionRefused")
    expect(e1.reasons.join(" ")).toContain("output")
    put(dir, "research/sources/a.md", "A")
    put(dir, "research/results/r.md", "R")
    checkpoint(dir, {
      sources: [{ path: "research/sources/a.md", origin: "https://example.org/o" }],
      outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.md"] }],
      unresolved: [{ id: "u1", text: "open" }]
    }, 1)
    const e2 = refuses(dir, () => checkpoint(dir, { status: "complete" }, 2), "CompletionRefused")
    expect(e2.reasons.join(" ")).toContain("unresolved")
    put(dir, "research/results/r.md", "R changed")
    const e3 = refuses(dir, () => checkpoint(dir, { status: "complete", unresolved: [] }, 2), "CompletionRefused")
    expect(e3.reasons.join(" ")).toContain("output-changed")
    put(dir, "research/results/r.md", "R")
    expect(checkpoint(dir, { status: "complete", unresolved: [] }, 2).json).toEqual({ ok: true, revision: 3 })
    expect(inspect(dir).json.status).toBe("complete")
  })

  it("refuses every bad input with its tag and changes nothing", () => {
    const dir = started()
    put(dir, "research/sources/a.md", "A")
    put(dir, "research/results/r.md", "R")
    refuses(dir, () => checkpoint(dir, {}, 5), "StaleRevision")
    refuses(
      dir,
      () => checkpoint(dir, { outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/a.md"] }] }, 1),
      "UnregisteredDependency"
    )
    // Registration is judged before any file is hashed: a dependency neither registered nor on
    // disk is UnregisteredDependency (what to do), not FileNotFound; a registered one missing stays
    // FileNotFound.
    const unregistered = refuses(
      dir,
      () =>
        checkpoint(dir, { outputs: [{ path: "research/results/r.md", dependsOn: ["research/sources/gone.md"] }] }, 1),
      "UnregisteredDependency"
    )
    expect([unregistered.output, unregistered.path]).toEqual(["research/results/r.md", "research/sources/gone.md"])
    refuses(
      dir,
      () =>
        checkpoint(
          dir,
          { outputs: [{ path: "research/results/none.md", dependsOn: ["research/sources/gone.md"] }] },
          1
        ),
      "UnregisteredDependency"
    )
    refuses(
      dir,
      () => checkpoint(dir, { sources: [{ path: "research/sources/missing.md", origin: "https://example.org/o" }] }, 1),
      "FileNotFound"
    )
    refuses(
      dir,
      () => checkpoint(dir, { sources: [{ path: "research/results/r.md", origin: "https://example.org/o" }] }, 1),
      "PathOutsideArea"
    )
    refuses(
      dir,
      () => checkpoint(dir, { outputs: [{ path: "research/sources/a.md", dependsOn: [] }] }, 1),
      "PathOutsideArea"
    )
    // The area folder itself is not a file under it: the message says so, never "must be under" it.
    for (
      const [given, area] of [["research/sources/", "research/sources/"], [
        "./research/results",
        "research/results/"
      ]] as const
    ) {
      const e = refuses(
        dir,
        () =>
          given.includes("sources")
            ? checkpoint(dir, { sources: [{ path: given, origin: "https://example.org/o" }] }, 1)
            : checkpoint(dir, { outputs: [{ path: given, dependsOn: [] }] }, 1),
        "PathOutsideArea"
      )
      expect(e).toMatchObject({ path: given, area })
      expect(e.message).toBe(`The path '${given}' names the folder '${area}' itself, not a file under it.`)
    }
    expect(
      refuses(
        dir,
        () => checkpoint(dir, { sources: [{ path: "research/results/r.md", origin: "https://example.org/o" }] }, 1),
        "PathOutsideArea"
      ).message
    ).toBe("The path 'research/results/r.md' must be under 'research/sources/'.")
    refuses(
      dir,
      () => checkpoint(dir, { sources: [{ path: "../outside.md", origin: "https://example.org/o" }] }, 1),
      "UnsafePath"
    )
    // An absolute path is refused naming the field, never echoing the machine's path (issue 13, item 19).
    expect(
      refuses(
        dir,
        () => checkpoint(dir, { sources: [{ path: "/etc/hostname", origin: "https://example.org/o" }] }, 1),
        "InvalidInput"
      )
        .issues
    )
      .toEqual([{ path: "sources.0.path", message: "an absolute path; paths are relative to the work folder" }])
    const invalid = refuses(
      dir,
      () => checkpoint(dir, { outputs: [{ path: "research/results/r.md", dependsOn: ["x", 3] }] }, 1),
      "InvalidInput"
    )
    expect(invalid.issues[0].path).toBe("outputs.0.dependsOn.1")
    refuses(dir, () => checkpoint(dir, { status: "done" }, 1), "InvalidInput")
    refuses(dir, () => checkpoint(dir, { unknownField: 1 }, 1), "InvalidInput")
    refuses(dir, () => checkpoint(dir, "{not json", 1), "InvalidInput")
    // Input file rules.
    const big = putInput(dir, "big.json", JSON.stringify({ nextAction: "x".repeat(70 * 1024) }))
    refuses(
      dir,
      () => runCli(["plan", "checkpoint", "--workdir", dir, "--input", big, "--expected", "1", "--json"]),
      "InputTooLarge"
    )
    const outside = path.join(path.dirname(dir), `outside-${path.basename(dir)}.json`)
    fs.writeFileSync(outside, "{}")
    refuses(
      dir,
      () => runCli(["plan", "checkpoint", "--workdir", dir, "--input", outside, "--expected", "1", "--json"]),
      "InputOutsideWorkdir"
    )
    fs.rmSync(outside)
    refuses(
      dir,
      () =>
        runCli([
          "plan",
          "checkpoint",
          "--workdir",
          dir,
          "--input",
          "research/inputs/nope.json",
          "--expected",
          "1",
          "--json"
        ]),
      "FileNotFound"
    )
    fs.symlinkSync(path.join(dir, "research/inputs/big.json"), path.join(dir, "research/inputs/link.json"))
    refuses(
      dir,
      () =>
        runCli([
          "plan",
          "checkpoint",
          "--workdir",
          dir,
          "--input",
          "research/inputs/link.json",
          "--expected",
          "1",
          "--json"
        ]),
      "UnsafePath"
    )
  })

  it("refuses hostile source paths: symlink, hard link, FIFO, symlinked directory", () => {
    const dir = started()
    put(dir, "research/sources/real.md", "real")
    fs.symlinkSync(path.join(dir, "research/sources/real.md"), path.join(dir, "research/sources/link.md"))
    expect(
      refuses(
        dir,
        () => checkpoint(dir, { sources: [{ path: "research/sources/link.md", origin: "https://example.org/o" }] }, 1),
        "UnsafePath"
      ).reason
    ).toBe("symlink")
    fs.linkSync(path.join(dir, "research/sources/real.md"), path.join(dir, "research/sources/hard.md"))
    expect(
      refuses(
        dir,
        () => checkpoint(dir, { sources: [{ path: "research/sources/hard.md", origin: "https://example.org/o" }] }, 1),
        "UnsafePath"
      ).reason
    ).toBe("hard-link")
    execFileSync("mkfifo", [path.join(dir, "research/sources/fifo.md")])
    expect(
      refuses(
        dir,
        () => checkpoint(dir, { sources: [{ path: "research/sources/fifo.md", origin: "https://example.org/o" }] }, 1),
        "UnsafePath"
      ).reason
    ).toBe("not-regular-file")
    const elsewhere = tempWorkdir()
    put(elsewhere, "x.md", "secret")
    fs.symlinkSync(elsewhere, path.join(dir, "research/sources/dirlink"))
    expect(
      refuses(
        dir,
        () =>
          checkpoint(dir, { sources: [{ path: "research/sources/dirlink/x.md", origin: "https://example.org/o" }] }, 1),
        "UnsafePath"
      ).reason
    ).toBe("symlink")
    // A symlinked plan.md is never followed.
    const dir2 = tempWorkdir()
    put(elsewhere, "plan.md", "theirs")
    fs.symlinkSync(path.join(elsewhere, "plan.md"), path.join(dir2, "plan.md"))
    const input = putInput(dir2, "start.json", { goal: "G", limits: [], nextAction: "n" })
    refuses(dir2, () => runCli(["plan", "start", "--workdir", dir2, "--input", input, "--json"]), "UnsafePath")
    expect(fs.readFileSync(path.join(elsewhere, "plan.md"), "utf8")).toBe("theirs")
  })

  it("enforces the limits: 32 sources, 64 steps", () => {
    const dir = started()
    const sources = Array.from({ length: 33 }, (_, i) => {
      put(dir, `research/sources/s${i}.md`, `s${i}`)
      return { path: `research/sources/s${i}.md`, origin: "https://example.org/o" }
    })
    expect(refuses(dir, () => checkpoint(dir, { sources }, 1), "LimitExceeded")).toMatchObject({
      limit: "sources",
      max: 32,
      actual: 33
    })
    const steps = Array.from({ length: 65 }, (_, i) => ({ summary: `s${i}` }))
    expect(refuses(dir, () => checkpoint(dir, { completedSteps: steps }, 1), "LimitExceeded")).toMatchObject({
      limit: "completedSteps",
      max: 64
    })
  })

  it("a file over 16 MiB is refused naming the file, relative to the work folder", () => {
    const dir = started()
    fs.mkdirSync(path.join(dir, "research/sources"), { recursive: true })
    fs.writeFileSync(path.join(dir, "research/sources/big.txt"), Buffer.alloc(16 * 1024 * 1024 + 1, 0x61))
    const sources = [{ path: "research/sources/big.txt", origin: "https://example.com/big" }]
    const e = refuses(dir, () => checkpoint(dir, { sources }, 1), "LimitExceeded")
    expect(e).toMatchObject({
      limit: "fileBytes",
      max: 16 * 1024 * 1024,
      actual: 16 * 1024 * 1024 + 1,
      path: "research/sources/big.txt"
    })
    expect(e.message).toContain("'research/sources/big.txt'")
    // A limit that is not a file's says no path.
    const steps = Array.from({ length: 65 }, (_, i) => ({ summary: `s${i}` }))
    expect(refuses(dir, () => checkpoint(dir, { completedSteps: steps }, 1), "LimitExceeded")).not.toHaveProperty(
      "path"
    )
  })

  it("a corrupt plan.md is refused by every command and never rewritten", () => {
    for (
      const body of [
        "<!-- dossier:plan:begin -->\n```json\n{}\n```\n<!-- dossier:plan:end -->\n",
        "<!-- dossier:plan:begin -->\n```json\n{\"version\":1\n```\n",
        "x <!-- dossier:plan:begin --> <!-- dossier:plan:end --> <!-- dossier:plan:begin --> <!-- dossier:plan:end -->"
      ]
    ) {
      const dir = tempWorkdir()
      put(dir, "plan.md", body)
      const input = putInput(dir, "start.json", { goal: "G", limits: [], nextAction: "n" })
      refuses(dir, () => runCli(["plan", "start", "--workdir", dir, "--input", input, "--json"]), "CorruptPlan")
      refuses(dir, () => checkpoint(dir, {}, 1), "CorruptPlan")
      refuses(dir, () => inspect(dir), "CorruptPlan")
    }
  })

  it("checkpoint without a plan is NoPlan", () => {
    const dir = tempWorkdir()
    refuses(dir, () => checkpoint(dir, {}, 1), "NoPlan")
  })
})

describe("command line", () => {
  it("usage errors exit 2 with a UsageError envelope under --json, also for flag validation", () => {
    const dir = tempWorkdir()
    for (
      const args of [
        ["plan", "inspect", "--bogus"],
        ["plan", "nope"],
        ["plan", "checkpoint", "--expected", "1"],
        ["plan", "checkpoint", "--input", "x.json", "--expected", "abc"],
        ["plan", "start", "--input", "x.json", "--now", "yesterday"]
      ]
    ) {
      const r = runCli([...args, "--workdir", dir, "--json"])
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.json.ok).toBe(false)
      expect(r.json.error._tag).toBe("UsageError")
      expect(r.json.error.retryable).toBe(false)
    }
    const human = runCli(["plan", "inspect", "--bogus"], { cwd: dir })
    expect(human.code).toBe(2)
    expect(human.stdout).toBe("")
    expect(human.stderr).toContain("UsageError")
  })

  it("--help on every plan command names its flags and input fields", () => {
    const start = runCli(["plan", "start", "--help"])
    expect(start.code).toBe(0)
    for (const w of ["--input", "--replace-goal", "--expected", "goal", "limits", "nextAction"]) {
      expect(start.stdout).toContain(w)
    }
    // Piped help is plain text (no terminal colour codes).
    expect(start.stdout).not.toMatch(/\u001b\[/)
    const cp = runCli(["plan", "checkpoint", "--help"])
    for (
      const w of [
        "completedSteps",
        "sources",
        "outputs",
        "dependsOn",
        "unresolved",
        "status",
        "nextAction",
        "--expected"
      ]
    ) expect(cp.stdout).toContain(w)
  })

  it("schema prints JSON Schema generated from the Schemas, and the error envelope", () => {
    const names = runCli(["schema", "--json"]).json.names
    for (const n of ["plan-start", "plan-checkpoint", "errors", "plan-inspect-output"]) expect(names).toContain(n)
    const s = runCli(["schema", "plan-start", "--json"]).json.schema
    expect(s.required).toEqual(expect.arrayContaining(["goal", "limits", "nextAction"]))
    const errors = JSON.stringify(runCli(["schema", "errors", "--json"]).json.schema)
    for (const tag of ["CorruptPlan", "StaleRevision", "UsageError", "Defect", "LockTimeout"]) {
      expect(errors).toContain(tag)
    }
    // An unknown name is an unknown word of the command line: a usage error (exit 2).
    const unknown = runCli(["schema", "nope", "--json"])
    expect(unknown.code).toBe(2)
    expect(unknown.json.error._tag).toBe("UsageError")
  })

  it("human output goes to stdout on success and refusals to stderr", () => {
    const dir = started()
    const ok = runCli(["plan", "inspect", "--workdir", dir])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain("Compare X and Y")
    const bad = runCli([
      "plan",
      "checkpoint",
      "--workdir",
      dir,
      "--input",
      "research/inputs/nope.json",
      "--expected",
      "1"
    ])
    expect(bad.code).toBe(1)
    expect(bad.stdout).toBe("")
    expect(bad.stderr).toContain("FileNotFound")
  })
})

describe("plan inspect without --json", () => {
  it("each finding says what is there now: other bytes, nothing, or a hard link it does not read, and why", () => {
    const dir = started()
    for (const n of ["a", "b", "c"]) put(dir, `research/sources/${n}.md`, `source ${n}\n`)
    const registered = checkpoint(dir, {
      sources: ["a", "b", "c"].map((n) => ({ path: `research/sources/${n}.md`, origin: "https://example.org/o" }))
    }, 1)
    expect(registered.json).toEqual({ ok: true, revision: 2 })
    put(dir, "research/sources/a.md", "source A\n")
    fs.rmSync(path.join(dir, "research/sources/b.md"))
    // The registered bytes, unchanged, but under a second name as well.
    fs.linkSync(path.join(dir, "research/sources/c.md"), path.join(dir, "research/c-alias.md"))
    const r = runCli(["plan", "inspect", "--workdir", dir])
    expect(r.code, r.stderr).toBe(0)
    const short = (s: string) => `sha256 ${sha(s).slice(0, 12)}…`
    const line = (p: string) => r.stdout.split("\n").find((l) => l.includes(` ${p}:`))
    expect(line("research/sources/a.md")).toBe(
      `  - source-changed: research/sources/a.md: registered ${short("source a\n")}, found ${short("source A\n")}`
    )
    expect(line("research/sources/b.md")).toBe(
      `  - source-missing: research/sources/b.md: registered ${short("source b\n")}, the file is gone`
    )
    expect(line("research/sources/c.md")).toMatch(
      /^ {2}- source-changed: research\/sources\/c\.md: registered sha256 [0-9a-f]{12}…, not read: .*another hard link/
    )
  })
})

describe("large files", () => {
  it("hashes large registered files (the worker pool path) to the same digests as node:crypto", () => {
    const dir = started()
    const a = Buffer.alloc(9 * 1024 * 1024 + 7, 1)
    const b = Buffer.alloc(12 * 1024 * 1024, 2)
    put(dir, "research/sources/a.bin", a)
    put(dir, "research/sources/b.bin", b)
    const r = checkpoint(dir, {
      sources: [{ path: "research/sources/a.bin", origin: "https://example.org/o" }, {
        path: "research/sources/b.bin",
        origin: "https://example.org/o"
      }]
    }, 1)
    expect(r.json).toEqual({ ok: true, revision: 2 })
    const digest = (x: Buffer) => createHash("sha256").update(x).digest("hex")
    const view = inspect(dir).json
    expect(view.sources.map((s: any) => [s.bytes, s.sha256])).toEqual([[a.length, digest(a)], [b.length, digest(b)]])
    expect(view.verification.state).toBe("current")
    // One changed byte in the middle is found.
    const fd = fs.openSync(path.join(dir, "research/sources/b.bin"), "r+")
    fs.writeSync(fd, Buffer.from([9]), 0, 1, 6 * 1024 * 1024)
    fs.closeSync(fd)
    expect(inspect(dir).json.verification.findings).toEqual([
      {
        kind: "source-changed",
        path: "research/sources/b.bin",
        expected: digest(b),
        actual: digest(fs.readFileSync(path.join(dir, "research/sources/b.bin")))
      }
    ])
  })
})
