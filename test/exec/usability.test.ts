/**
 * exec as a new user meets it: a program that is not there inside the sandbox is named as such
 * (not `prlimit: failed to execute`), and the journal's execution_linked says how the run ended.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { runCli } from "../support/cli.js"
import {
  budget,
  childGrant,
  createCandidate,
  createGrant,
  exec,
  folder,
  ok,
  put,
  putInput,
  refused,
  sandboxWorks
} from "./support.js"

const noRecords = (dir: string) => {
  const xs = path.join(dir, ".dossier/executions")
  expect(fs.existsSync(xs) ? fs.readdirSync(xs) : []).toEqual([])
}

describe.skipIf(!sandboxWorks)("exec: a program that is not there", () => {
  it("is refused before the run as not found inside the sandbox, saying where the folder is there", () => {
    const dir = folder()
    createGrant(dir)
    // In the folder, but not inside the sandbox: the current directory there is the work root.
    put(dir, "tools/bench.py", "#!/usr/bin/env python3\nprint('bench')\n")
    fs.chmodSync(path.join(dir, "tools/bench.py"), 0o755)
    put(dir, "research/exp/runs/r1/run.sh", "#!/bin/sh\necho hi\n")
    const cases: Array<[ReadonlyArray<string>, string]> = [
      [["no-such-program-xyz"], "not found on the sandbox's PATH"],
      [["tools/bench.py"], "current directory there is the work root /work/research/exp/runs/r1"],
      [["/work/tools/bench.py"], "does not exist inside the sandbox"],
      // Hidden inside the sandbox: a protected path below an input root.
      [["/work/research/exp/data/holdout/labels.csv"], "does not exist inside the sandbox"],
      [["./run.sh"], "not executable inside the sandbox"],
      [["/work/research/exp/data"], "is a directory inside the sandbox"]
    ]
    for (const [argv, message] of cases) {
      const e = refused(dir, ["exec", "--grant", "g1", "--", ...argv], "InvalidInput")
      expect(e.issues[0].path, argv.join(" ")).toBe("program")
      expect(e.issues[0].message, argv.join(" ")).toContain(message)
      expect(JSON.stringify(e)).not.toContain("prlimit")
    }
    noRecords(dir)
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
    // What does exist there runs: by PATH, relative to the work root, at /work/<path>.
    fs.chmodSync(path.join(dir, "research/exp/runs/r1/run.sh"), 0o755)
    expect(exec(dir, "g1", ["./run.sh"]).exitCode).toBe(0)
    expect(exec(dir, "g1", ["/work/research/exp/runs/r1/run.sh"]).exitCode).toBe(0)
    expect(exec(dir, "g1", ["cat", "../../data/train.csv"]).exitCode).toBe(0)
  })
})

describe.skipIf(!sandboxWorks)("exec: a command line too long to start", () => {
  it("is InvalidInput at program before the run (exit 1), not a Defect: nothing recorded or charged", () => {
    const dir = folder()
    createGrant(dir)
    // 1.1 MiB of arguments: dossier itself starts, but the sandbox's command line would not (E2BIG).
    const many = Array.from({ length: 100_000 }, () => "ab")
    const e = refused(dir, ["exec", "--grant", "g1", "--", "/bin/echo", ...many], "InvalidInput")
    expect(e.issues[0]).toEqual({
      path: "program",
      message: "the program and its 100000 arguments take 1100018 bytes (8 more per argument); at most 1048576 together"
    })
    noRecords(dir)
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
  })
})

describe.skipIf(!sandboxWorks)("exec: the journal sees a failed run", () => {
  it("execution_linked carries the run's exit code", () => {
    const dir = folder()
    createCandidate(dir)
    createGrant(dir)
    const failed =
      ok(dir, ["exec", "--grant", "g1", "--study", "st", "--candidate", "cand", "--", "sh", "-c", "exit 3"]).execution
    const passed = ok(dir, ["exec", "--grant", "g1", "--study", "st", "--candidate", "cand", "--", "true"]).execution
    const lines = fs.readFileSync(path.join(dir, "research/st/research-events.jsonl"), "utf8").trim().split("\n").map((
      l
    ) => JSON.parse(l).event)
    expect(
      lines.filter((e) => e.type === "execution_linked").map((
        e
      ) => [e.execution.runtimeId, e.execution.status, e.execution.exitCode])
    )
      .toEqual([[failed.id, "exited", 3], [passed.id, "exited", 0]])
    const view = ok(dir, ["journal", "inspect", "--study", "st", "--verify"])
    expect(view.candidates[0].executions.map((e: any) => e.exitCode)).toEqual([3, 0])
    expect(view.verify.findings).toEqual([])
    // An event written by hand with an exit code is accepted; a non-integer one is not.
    ok(dir, [
      "journal",
      "append",
      "--study",
      "st",
      "--input",
      putInput(dir, "x.json", {
        id: "ext",
        type: "execution_linked",
        candidateId: "cand",
        execution: { runtimeId: "slurm-1", status: "failed", exitCode: 1 }
      })
    ])
    refused(dir, [
      "journal",
      "append",
      "--study",
      "st",
      "--input",
      putInput(dir, "y.json", {
        id: "ext2",
        type: "execution_linked",
        candidateId: "cand",
        execution: { runtimeId: "slurm-2", status: "failed", exitCode: 1.5 }
      })
    ], "InvalidInput")
  })
})

describe.skipIf(!sandboxWorks)("exec: the human report names every file of the evidence", () => {
  it("exec and exec show name the record, stdout and stderr, each a file that is there", () => {
    const dir = folder()
    createGrant(dir)
    const r = runCli(["exec", "--grant", "g1", "--workdir", dir, "--", "sh", "-c", "echo out; echo err >&2"])
    expect(r.code, r.stderr).toBe(0)
    const id = /Execution (x-[0-9T-]+[0-9a-f]+) under grant g1/.exec(r.stdout)?.[1]
    expect(id, r.stdout).toBeDefined()
    const files = [
      `.dossier/executions/${id}.json`,
      `.dossier/executions/${id}/stdout`,
      `.dossier/executions/${id}/stderr`
    ]
    const line = `  evidence: record ${files[0]}, stdout ${files[1]}, stderr ${files[2]}`
    expect(r.stdout.split("\n")).toContain(line)
    expect(r.stdout).toContain("stdout 4 bytes, stderr 4 bytes.")
    for (const f of files) expect(fs.statSync(path.join(dir, f)).isFile(), f).toBe(true)
    // What is left of the grant after the run, in grant show's words and figures.
    const left = runCli(["grant", "show", "--grant", "g1", "--workdir", dir]).stdout.split("\n")
      .find((l) => l.startsWith("  left: "))
    expect(left, "grant show's left line").toBeDefined()
    expect(r.stdout.split("\n")).toContain(
      `  grant g1 (active), left after this run: ${left!.slice("  left: ".length)}`
    )
    expect(left).toMatch(/^ {2}left: runs \d+, wallSeconds [\d.]+, cpuSeconds [\d.]+, memoryMiB \d+, outputMiB [\d.]+$/)
    const shown = runCli(["exec", "show", "--execution", id!, "--workdir", dir])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout.split("\n")).toContain(line)
    // A log that holds less than the run wrote says so.
    const big = exec(dir, "g1", ["head", "-c", "9M", "/dev/zero"])
    const cut = runCli(["exec", "show", "--execution", big.id, "--workdir", dir])
    expect(cut.stdout).toContain(`stdout ${8 * 1024 * 1024} bytes (truncated: the run wrote more), stderr 0 bytes.`)
  })
})

describe.skipIf(!sandboxWorks)("grant show and exec: the human report says what is left, and why nothing runs", () => {
  it("grant show gives the budget, each event with its reason on one line, and why a grant is not active", () => {
    const dir = folder()
    createGrant(dir)
    ok(dir, ["grant", "create", "--input", putInput(dir, "child.json", childGrant())])
    ok(dir, [
      "grant",
      "narrow",
      "--grant",
      "g1",
      "--now",
      "2026-01-01T00:00:00Z",
      "--input",
      putInput(dir, "narrow.json", { budget: { runs: 5 }, reason: "smaller" })
    ])
    ok(dir, ["grant", "revoke", "--grant", "g1", "--now", "2026-01-02T00:00:00Z", "--reason", "done\nfake line"])
    const shown = runCli(["grant", "show", "--grant", "g1", "--workdir", dir])
    expect(shown.code, shown.stderr).toBe(0)
    const lines = shown.stdout.split("\n")
    expect(lines).toContain("  budget: runs 5, wallSeconds 120, cpuSeconds 120, memoryMiB 256, outputMiB 16")
    expect(lines).toContain("  narrowed at 2026-01-01T00:00:00.000Z: runs 5 (\"smaller\")")
    expect(lines).toContain("  revoked at 2026-01-02T00:00:00.000Z (\"done\\nfake line\")")
    expect(lines).not.toContain("fake line\")")
    const child = runCli(["grant", "show", "--grant", "g2", "--workdir", dir])
    expect(child.stdout.split("\n")).toContain("  revoked through an ancestor: g1")
  })

  it("an exhausted grant says which figure ran out; exec names what the run left that is not evidence", () => {
    const dir = folder()
    createGrant(dir, { budget: budget({ runs: 1 }) })
    const r = runCli([
      "exec",
      "--grant",
      "g1",
      "--workdir",
      dir,
      "--",
      "sh",
      "-c",
      "mkfifo fifo; ln -s /etc/passwd link"
    ])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split("\n")).toContain(
      "  2 entry(ies) not kept as outputs (not regular files, never followed or read): research/exp/runs/r1/fifo (other), research/exp/runs/r1/link (symlink)"
    )
    // The run's own report says the grant is spent, and what ran out.
    expect(r.stdout).toMatch(/^ {2}grant g1 \(exhausted\), left after this run: runs 0, /m)
    expect(r.stdout.split("\n")).toContain("  exhausted: no runs left; nothing runs under it")
    const shown = runCli(["grant", "show", "--grant", "g1", "--workdir", dir])
    expect(shown.stdout.split("\n")).toContain("  exhausted: no runs left; nothing runs under it")
  })
})
