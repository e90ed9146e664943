/**
 * What a confined program cannot do to its run, through the built CLI: hold more memory than the
 * budget with many processes or in /tmp, make the run unrecordable (a deep tree, too many files),
 * or be left unsupervised and unrecorded when dossier is interrupted (SIGTERM, a closed stdout);
 * and dossier's own memory stays bounded whatever the program writes to a slow reader.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI } from "../support/cli.js"
import { createGrantInProcess } from "./grantInProcess.js"
import {
  budget,
  D,
  exec,
  folder,
  ok,
  put,
  refused,
  sandboxWorks,
  stdoutOf,
  waitForFile,
  waitForRunning
} from "./support.js"

/** A memory cgroup dossier can make here (as root: cgroup v1 memory controller, or v2 with memory delegated). */
const memoryCgroup = (() => {
  try {
    const mounts = fs.readFileSync("/proc/self/mounts", "utf8")
    return process.getuid?.() === 0 && /^\S+ \S+ (cgroup \S*memory|cgroup2 )/m.test(mounts)
  } catch {
    return false
  }
})()
if (sandboxWorks && !memoryCgroup) {
  console.warn("run-bounds: no memory cgroup here: the run-wide memory test is skipped")
}

const records = (dir: string) =>
  fs.readdirSync(path.join(dir, ".dossier/executions")).filter((n) => n.endsWith(".json"))

/** Twelve processes that each hold 50 MiB and wait (at most 3 s) until all twelve do. */
const HOG = String.raw`
my $n = 12; my @kids;
for my $i (1..$n) {
  my $pid = fork();
  if ($pid == 0) {
    my $x = ""; vec($x, 50 * 1024 * 1024 - 1, 8) = 1;
    open(my $f, ">", "ready.$i"); close($f);
    for (1..30) { my @r = glob("ready.*"); if (@r >= $n) { open(my $g, ">", "together.$i"); close($g); last } select(undef, undef, undef, 0.1) }
    exit 0;
  }
  push @kids, $pid;
}
waitpid($_, 0) for @kids;
`

describe.skipIf(!sandboxWorks)("budgets hold for the whole run", () => {
  it.skipIf(!memoryCgroup)(
    "twelve forked processes with memoryMiB 64 cannot hold 600 MiB together, and the record says how memory was enforced",
    async () => {
      const dir = folder()
      put(dir, "research/exp/data/hog.pl", HOG)
      await createGrantInProcess(dir, { budget: budget({ memoryMiB: 64 }) })
      const x = exec(dir, "g1", ["perl", "/work/research/exp/data/hog.pl"])
      const work = fs.readdirSync(path.join(dir, "research/exp/runs/r1"))
      expect(work.filter((n) => n.startsWith("together"))).toEqual([])
      expect(work.filter((n) => n.startsWith("ready")).length).toBeLessThan(12)
      expect(x.enforcement).toEqual({ memory: "run" })
      expect(x.memoryPeakKiB).toBeLessThanOrEqual(64 * 1024)
      expect(x.findings).toContainEqual({ kind: "memory-limit", detail: expect.stringContaining("64 MiB") })
    },
    90_000
  )

  it("the sandbox's /tmp and /dev/shm hold half the memory budget each; its root and /dev are read-only", async () => {
    const dir = folder()
    // Output MiB above 32: RLIMIT_FSIZE (the output MiB left) binds /tmp's files too.
    await createGrantInProcess(dir, { budget: budget({ memoryMiB: 64, outputMiB: 100 }) })
    const x = exec(dir, "g1", [
      "sh",
      "-c",
      "head -c 100M /dev/zero > /tmp/big 2>/dev/null; wc -c < /tmp/big; rm /tmp/big; " +
      "head -c 100M /dev/zero > /dev/shm/big 2>/dev/null; wc -c < /dev/shm/big; rm /dev/shm/big; " +
      "touch /x 2>/dev/null || echo root-ro; touch /dev/x 2>/dev/null || echo dev-ro; mkdir /work/junk 2>/dev/null || echo work-ro"
    ])
    const [tmp, shm, ...rest] = stdoutOf(dir, x).trim().split("\n")
    expect(Number(tmp)).toBe(32 * 1024 * 1024)
    expect(Number(shm)).toBe(32 * 1024 * 1024)
    expect(rest).toEqual(["root-ro", "dev-ro", "work-ro"])
    expect(["run", "process"]).toContain(x.enforcement.memory)
  }, 60_000)
})

describe.skipIf(!sandboxWorks)("a program cannot make its run unrecordable", () => {
  it(
    "3,000 nested directories: the run is recorded with what could be scanned and a finding, and later runs work",
    async () => {
      const dir = folder()
      await createGrantInProcess(dir)
      const x = exec(dir, "g1", [
        "perl",
        "-e",
        `open(my $g, ">", "top.txt"); print $g "top"; close $g; for (1..3000) { mkdir "n" or die; chdir "n" or die } open(my $f, ">", "deep.txt"); print $f "deep"`
      ])
      expect(x).toMatchObject({ status: "exited", exitCode: 0 })
      expect(x.outputs.map((o: { path: string }) => o.path)).toEqual(["research/exp/runs/r1/top.txt"])
      expect(x.findings).toContainEqual({ kind: "outputs-incomplete", detail: expect.stringContaining("ENAMETOOLONG") })
      expect(records(dir).filter((n) => n.endsWith(".running.json"))).toEqual([])
      // Charged what it used, not its whole limits; the next run of the grant works.
      const shown = ok(dir, ["grant", "show", "--grant", "g1"])
      expect(shown.remaining.wallSeconds).toBeGreaterThan(100)
      expect(exec(dir, "g1", ["true"])).toMatchObject({ status: "exited", exitCode: 0 })
    },
    180_000
  )

  it(
    "100,001 files: recorded (listed up to the record's cap, every byte charged) with a finding, and later runs work",
    async () => {
      const dir = folder()
      await createGrantInProcess(dir)
      // The answer lists 10,000 outputs: more than spawnSync's default buffer.
      const r = spawnSync(process.execPath, [
        CLI,
        "exec",
        "--grant",
        "g1",
        "--workdir",
        dir,
        "--json",
        "--",
        "perl",
        "-e",
        `mkdir "d"; for (1..100001) { open(my $f, ">", "d/f$_") or die; print $f "x" }`
      ], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024
      })
      expect(r.status).toBe(0)
      const x = JSON.parse(r.stdout).execution
      expect(x).toMatchObject({ status: "exited", exitCode: 0 })
      expect(x.outputs.length).toBe(10_000)
      expect(x.outputBytes).toBeGreaterThanOrEqual(99_999)
      expect(x.findings.map((f: { kind: string }) => f.kind)).toEqual(["outputs-incomplete", "outputs-incomplete"])
      expect(records(dir).filter((n) => n.endsWith(".running.json"))).toEqual([])
      const next = exec(dir, "g1", ["sh", "-c", "echo again"])
      expect(next).toMatchObject({ status: "exited", exitCode: 0 })
      expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.wallSeconds).toBeGreaterThan(60)
    },
    // Writing, walking (before and after each run) and hashing 100,001 files took over 180 s on a
    // 2-core machine under a load average near 17; how long is not what this test asserts.
    420_000
  )

  it("files under a name that is not UTF-8 are charged: such names are no way around the output budget", async () => {
    const dir = folder()
    await createGrantInProcess(dir, { budget: budget({ outputMiB: 2 }) })
    // 1.5 MiB in a file named with a byte that is not UTF-8, 1 MiB more in a folder so named, and
    // a listed file of 1,000 bytes: 2.5 MiB written against a budget of 2.
    const e = refused(dir, [
      "exec",
      "--grant",
      "g1",
      "--",
      "sh",
      "-c",
      "head -c 1572864 /dev/zero > \"$(printf 'a\\377')\"; mkdir \"$(printf 'd\\376')\" && " +
      "head -c 1048576 /dev/zero > \"$(printf 'd\\376')/f\"; head -c 1000 /dev/zero > ok.bin"
    ], "BudgetExceeded")
    expect(e).toMatchObject({ resource: "outputMiB", actual: 1572864 + 1048576 + 1000 })
    const x = ok(dir, ["exec", "show", "--execution", e.executionId]).execution
    expect(x).toMatchObject({ status: "exited", exitCode: 0 })
    expect(x.outputs.map((o: { path: string }) => o.path)).toEqual(["research/exp/runs/r1/ok.bin"])
    expect(x.findings).toContainEqual({ kind: "outputs-incomplete", detail: expect.stringContaining("not UTF-8") })
    expect(refused(dir, ["exec", "--grant", "g1", "--", "true"], "BudgetExhausted").resource).toBe("outputMiB")
  })
})

/** Start `dossier exec` (without --json unless asked) with its stdout piped to the test. */
const startExec = (dir: string, argv: ReadonlyArray<string>, json = true) => {
  const child = spawn(process.execPath, [
    CLI,
    "exec",
    "--grant",
    "g1",
    "--workdir",
    dir,
    ...(json ? ["--json"] : []),
    "--",
    ...argv
  ], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  return { child, exited }
}

const lastRecord = (dir: string) => {
  const [name] = records(dir).filter((n) => !n.endsWith(".running.json"))
  return JSON.parse(fs.readFileSync(path.join(dir, ".dossier/executions", name!), "utf8"))
}

describe.skipIf(!sandboxWorks)("an interrupted dossier still records the run", () => {
  it("SIGTERM to dossier during exec: the program is ended, the run recorded `interrupted`, exit 143", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const { child, exited } = startExec(dir, ["sh", "-c", "touch ready; sleep 30.5"])
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    await waitForRunning(dir)
    await waitForFile(path.join(dir, "research/exp/runs/r1/ready"))
    child.kill("SIGTERM")
    expect(await exited).toBe(143)
    const answer = JSON.parse(out)
    expect(answer.execution).toMatchObject({ status: "interrupted", detail: expect.stringContaining("SIGTERM") })
    // Ended, not run to its 30.5 s: the sandbox's start before `ready` (seconds on a loaded machine)
    // counts in the run's wall time too, so the bound leaves room for it.
    expect(answer.execution.wallSeconds).toBeLessThan(25)
    expect(lastRecord(dir)).toEqual(answer.execution)
    expect(records(dir).filter((n) => n.endsWith(".running.json"))).toEqual([])
    // Charged what it used; the grant goes on.
    expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.wallSeconds).toBeGreaterThan(100)
  }, 60_000)

  it("`dossier exec … | head -1`: the run is recorded `interrupted` and dossier does not exit 0", async () => {
    const dir = folder()
    await createGrantInProcess(dir)
    const { child, exited } = startExec(dir, [
      "sh",
      "-c",
      "i=0; while [ $i -lt 100000 ]; do echo line $i; i=$((i+1)); done; sleep 30.5"
    ], false)
    // `head -1`: read one line, then close the pipe.
    const first = await new Promise<string>((resolve) =>
      child.stdout.once("data", (d) => resolve(String(d).split("\n")[0]!))
    )
    child.stdout.destroy()
    expect(first).toBe("line 0")
    const code = await exited
    expect(code).toBe(141)
    const r = lastRecord(dir)
    expect(r).toMatchObject({ status: "interrupted", detail: expect.stringContaining("standard output was closed") })
    expect(records(dir).filter((n) => n.endsWith(".running.json"))).toEqual([])
    expect(D(dir, ["exec", "show", "--execution", r.id]).json.execution.id).toBe(r.id)
  }, 60_000)
})

describe.skipIf(!sandboxWorks)("dossier's memory does not grow with the program's output", () => {
  it(
    "300 MiB through a reader that stalls 8 s: dossier's resident size stays bounded, every byte arrives",
    async () => {
      const dir = folder()
      await createGrantInProcess(dir)
      const { child, exited } = startExec(dir, ["head", "-c", "300M", "/dev/zero"], false)
      let maxKiB = 0
      const poll = setInterval(() => {
        try {
          const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))
          if (m !== null) maxKiB = Math.max(maxKiB, Number(m[1]))
        } catch {
          // gone
        }
      }, 50)
      let got = 0
      child.stdout.pause()
      await new Promise((r) => setTimeout(r, 8000))
      child.stdout.on("data", (b: Buffer) => (got += b.length))
      child.stdout.resume()
      expect(await exited).toBe(0)
      clearInterval(poll)
      // Node's own footprint plus the 8 MiB kept for the evidence; unbounded relaying held hundreds of MiB.
      expect(maxKiB / 1024).toBeLessThan(200)
      expect(got).toBeGreaterThanOrEqual(300 * 1024 * 1024)
      expect(lastRecord(dir).stdout).toMatchObject({ bytes: 8 * 1024 * 1024, truncated: true })
    },
    90_000
  )
})
