/**
 * A `dossier exec` killed outright (SIGKILL) at each stage of its run's start leaves no process of
 * the run behind, through the built CLI: its wrapper kills every process below it, bwrap's
 * namespace init included, which has no parent-death signal of its own until its sandbox is set up
 * (seen: a killed exec whose init stayed, reparented to the machine's init, for good). When dossier
 * runs as root the run's pids cgroup is checked too: no process is left in it. Not root, an init
 * left waiting after its wrapper was killed is found by the run's id when the run is recorded
 * lost, and the record says what was left (`leftProcesses`).
 *
 * Over 400 lines: every way a run's launcher or wrapper dies, and what each leaves, share the
 * helpers that start, find and kill the run's processes (as root and as an unprivileged user).
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import { CLI, runCli } from "../support/cli.js"
import {
  createGrant,
  execAsync,
  folder,
  grantInput,
  ok,
  processesWith,
  putInput,
  sandboxWorks,
  waitForRunning,
  waitUntil
} from "./support.js"

/** Children of `ppid` (from /proc), with their command names. */
const childrenOf = (ppid: number): Array<{ pid: number; comm: string }> =>
  fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      const stat = fs.readFileSync(`/proc/${n}/stat`, "latin1")
      const after = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      return Number(after[1]) === ppid
        ? [{ pid: Number(n), comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) }]
        : []
    } catch {
      return []
    }
  })

/** Processes in the pids cgroups dossier made for the runs of process `pid` (as root). */
const inRunCgroups = (pid: number): Array<string> => {
  const root = "/sys/fs/cgroup/pids"
  if (process.getuid?.() !== 0 || !fs.existsSync(root)) return []
  return fs.readdirSync(root).filter((n) => n.startsWith(`dossier-${pid}-`)).flatMap((n) => {
    try {
      return fs.readFileSync(`${root}/${n}/cgroup.procs`, "utf8").split("\n").filter((l) => l !== "")
    } catch {
      return []
    }
  })
}

type Stage = "wrapper" | "bwrap" | "init" | "program"

/**
 * Poll until the run of `dossier` (pid) reaches `stage`: its wrapper started, bwrap started,
 * bwrap's namespace init started, the program runs. Synchronously, without a pause: the first
 * stages last milliseconds.
 */
const reach = (dossier: number, stage: Stage, needle: string) => {
  let wrapper: number | undefined
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    wrapper ??= childrenOf(dossier).find((c) => c.comm === "perl")?.pid
    if (stage === "wrapper" && wrapper !== undefined) return
    const bwrap = wrapper === undefined ? undefined : childrenOf(wrapper).find((c) => c.comm === "bwrap")?.pid
    if (stage === "bwrap" && bwrap !== undefined) return
    if (stage === "init" && bwrap !== undefined && childrenOf(bwrap).length > 0) return
    if (
      stage === "program" && processesWith(needle).some((p) => fs.readFileSync(`/proc/${p}/comm`, "utf8") === "sleep\n")
    ) {
      return
    }
  }
  throw new Error(`the run never reached ${stage}`)
}

describe.skipIf(!sandboxWorks)("a dossier exec killed outright", () => {
  for (const stage of ["wrapper", "bwrap", "init", "program"] as const) {
    it(`once its ${stage} started leaves no process of its run, and the next command records the run lost`, async () => {
      const dir = folder()
      createGrant(dir)
      // The needle is in bwrap's argv (and so in its namespace init's) and in the program's.
      const needle = `${process.pid}${Date.now() % 100000}7`
      const run = execAsync(dir, "g1", ["sleep", needle])
      try {
        reach(run.child.pid!, stage, needle)
        run.child.kill("SIGKILL")
        await run.done
        // The wrapper ends them once the kernel has told it dossier died (a loaded machine takes a while).
        await waitUntil("a process of the run outlived its exec", () => processesWith(needle).length === 0, 20_000)
        await waitUntil(
          "a process is left in the run's cgroup",
          () => inRunCgroups(run.child.pid!).length === 0,
          20_000
        )
        // The run may have been admitted (its marker written) or not yet when dossier died.
        const shown = ok(dir, ["grant", "show", "--grant", "g1"])
        expect(shown.remaining.runs).toBeGreaterThanOrEqual(19)
        expect(fs.readdirSync(`${dir}/.dossier/executions`).filter((n) => n.endsWith(".running.json"))).toEqual([])
      } finally {
        for (const p of processesWith(needle)) process.kill(p, "SIGKILL")
      }
    })
  }

  it("while its program runs: the run is recorded lost", async () => {
    const dir = folder()
    createGrant(dir)
    const needle = `${process.pid}${Date.now() % 100000}8`
    const run = execAsync(dir, "g1", ["sh", "-c", `setsid sleep ${needle} & sleep ${needle}`])
    try {
      const id = await waitForRunning(dir)
      await waitUntil("the program runs", () => processesWith(needle).length >= 2)
      run.child.kill("SIGKILL")
      await run.done
      await waitUntil("a process of the run outlived its exec", () => processesWith(needle).length === 0, 20_000)
      // Its wrapper ended everything: the record says nothing was left.
      expect(ok(dir, ["exec", "show", "--execution", id]).execution).toMatchObject({
        id,
        status: "lost",
        leftProcesses: { outcome: "none-found", processes: 0 }
      })
      // The human report says why it is lost, and what was left.
      const human = runCli(["exec", "show", "--execution", id, "--workdir", dir])
      expect(human.stdout).toContain(`${id} under grant g1: lost (dossier exec ended before the run was recorded;`)
      expect(human.stdout).toContain("processes left: none-found (")
    } finally {
      for (const p of processesWith(needle)) process.kill(p, "SIGKILL")
    }
  })

  // Its wrapper (the perl process between dossier and bwrap) killed alone takes the sandbox with it:
  // the program did not end by itself, and how it ended and what CPU it used were not measured.
  // Before, such a run was recorded `exited`, `signal: "SIGKILL"`, as if the program had died of it.
  it("its wrapper alone killed while the program runs: recorded lost, wrapper-ended, not the program's SIGKILL", async () => {
    const dir = folder()
    createGrant(dir)
    const needle = `${process.pid}${Date.now() % 100000}4`
    const run = execAsync(dir, "g1", ["sleep", needle])
    try {
      const id = await waitForRunning(dir)
      await waitUntil(
        "the program runs",
        () => processesWith(needle).some((p) => fs.readFileSync(`/proc/${p}/comm`, "utf8") === "sleep\n")
      )
      const wrapper = childrenOf(run.child.pid!).find((c) => c.comm === "perl")
      expect(wrapper).toBeDefined()
      process.kill(wrapper!.pid, "SIGKILL")
      const { code, json } = await run.done
      expect({ code, ok: json?.ok }).toEqual({ code: 0, ok: true })
      expect(json.execution).toMatchObject({
        id,
        status: "lost",
        reason: "wrapper-ended",
        exitCode: null,
        signal: null,
        cpuSeconds: null
      })
      expect(json.execution.detail).toContain("ended by SIGKILL while the program ran")
      expect(json.execution.detail).toContain("not by itself")
      expect(["none-found", "killed"]).toContain(json.execution.leftProcesses?.outcome)
      expect(processesWith(needle)).toEqual([])
      // Charged the wall time it ran and, its CPU time unknown, its whole CPU limit.
      const shown = ok(dir, ["grant", "show", "--grant", "g1"])
      expect(shown.remaining).toMatchObject({ runs: 19, cpuSeconds: 0 })
      expect(shown.remaining.wallSeconds).toBeGreaterThan(100)
      // The same record, loaded again, and the human report say so.
      expect(ok(dir, ["exec", "show", "--execution", id]).execution).toMatchObject({ status: "lost" })
      const human = runCli(["exec", "show", "--execution", id, "--workdir", dir])
      expect(human.stdout).toContain(`${id} under grant g1: lost (wrapper-ended: dossier's wrapper`)
    } finally {
      for (const p of processesWith(needle)) process.kill(p, "SIGKILL")
    }
  })

  // bwrap's namespace init takes its parent-death signal only once its setup is done. A wrapper
  // killed during that setup leaves the init holding the run's output pipes, and dossier used to
  // wait for it for good (reproduced as an unprivileged user: the wrapper killed a few ms after
  // bwrap started). Here the init is stopped (SIGSTOP) while it has not started the program yet,
  // so the setup is cut whatever the machine's speed; then the wrapper is killed.
  it("its wrapper killed while the sandbox is set up: exec does not wait for the init it left", async () => {
    const ppidOf = (p: number) => {
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, "latin1")
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      } catch {
        return -1
      }
    }
    // A child of `parent` among the next pids (those of a run are handed out one after another).
    const childNear = (parent: number) => {
      for (let p = parent + 1; p < parent + 64; p++) if (ppidOf(p) === parent) return p
      return undefined
    }
    // Running, not a zombie nobody reaped yet.
    const alive = (p: number) => {
      try {
        const stat = fs.readFileSync(`/proc/${p}/stat`, "latin1")
        return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))
      } catch {
        return false
      }
    }
    for (let attempt = 0;; attempt++) {
      expect(attempt).toBeLessThan(20)
      const dir = folder()
      createGrant(dir)
      const needle = `${process.pid}${Date.now() % 100000}3`
      const run = execAsync(dir, "g1", ["sleep", needle])
      let init: number | undefined
      try {
        reach(run.child.pid!, "wrapper", needle)
        const wrapper = childrenOf(run.child.pid!).find((c) => c.comm === "perl")!.pid
        for (const until = Date.now() + 30_000; init === undefined && Date.now() < until;) {
          const bwrap = childNear(wrapper)
          init = bwrap === undefined ? undefined : childNear(bwrap)
        }
        expect(init).toBeDefined()
        process.kill(init!, "SIGSTOP")
        // Its setup is done once it has started the program's first process: too late, again.
        const cut = childNear(init!) === undefined
        process.kill(wrapper, "SIGKILL")
        await new Promise((r) => setTimeout(r, 300))
        if (!cut || !alive(init!)) {
          await run.done
          continue
        }
        // The init outlived its bwrap, stopped in its setup: what dossier used to wait on.
        const { code, json } = await Promise.race([
          run.done,
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error("dossier exec still waits for the init its wrapper left")), 20_000)
          )
        ])
        // Nothing ran: refused as a sandbox that ended before its program started, nothing charged.
        expect({ code, tag: json?.error?._tag }).toEqual({ code: 1, tag: "SandboxUnavailable" })
        expect(json.error.reason).toContain("the sandbox ended before the program started")
        await waitUntil("the init its wrapper left still runs", () => !alive(init!), 20_000)
        expect(ok(dir, ["grant", "show", "--grant", "g1"]).remaining.runs).toBe(20)
        expect(fs.readdirSync(`${dir}/.dossier/executions`).filter((n) => n.endsWith(".running.json"))).toEqual([])
        return
      } finally {
        run.child.kill("SIGKILL")
        if (init !== undefined && alive(init)) process.kill(init, "SIGKILL")
        for (const p of processesWith(needle)) process.kill(p, "SIGKILL")
      }
    }
  }, 240_000)

  // As root each run has a pids cgroup, `dossier-<pid of its exec>-<hex>`. A process of a run whose
  // exec and wrapper were both killed outright has nothing left to end it: the next command that
  // records the run lost, or starts a run, ends whatever is still in a cgroup of a dead exec.
  const pidsRoot = "/sys/fs/cgroup/pids"
  const asRoot = process.getuid?.() === 0 && fs.existsSync(pidsRoot)
  /** A process left running in a cgroup named after `deadPid`, as a run's would be. */
  const leftInCgroupOf = (deadPid: number, needle: string) => {
    const cgroup = `${pidsRoot}/dossier-${deadPid}-${Date.now().toString(16).slice(-8).padStart(8, "0")}`
    fs.mkdirSync(cgroup)
    const left = spawn("sleep", [needle], { stdio: "ignore" })
    fs.writeFileSync(`${cgroup}/cgroup.procs`, `${left.pid}\n`)
    return {
      cgroup,
      cleanup: () => {
        left.kill("SIGKILL")
        for (let i = 0; i < 100 && fs.existsSync(cgroup); i++) {
          try {
            fs.rmdirSync(cgroup)
          } catch {
            spawnSync("sleep", ["0.05"])
          }
        }
      }
    }
  }

  it.skipIf(!asRoot)(
    "a process left in a lost run's cgroup is ended when the next command records it lost",
    // Any run that starts on the machine ends the processes left in dead execs' cgroups (the next
    // test): an exec of another test file run beside this one can end the planted process before
    // `exec show` counts it, and the record then says `none-found`, truly. Such a race is retried.
    { retry: 2 },
    async () => {
      const dir = folder()
      createGrant(dir)
      const run = execAsync(dir, "g1", ["sleep", "1236"])
      const id = await waitForRunning(dir)
      run.child.kill("SIGKILL")
      await run.done
      const needle = `${process.pid}${Date.now() % 100000}5`
      const left = leftInCgroupOf(run.child.pid!, needle)
      try {
        expect(processesWith(needle).length).toBe(1)
        expect(ok(dir, ["exec", "show", "--execution", id]).execution).toMatchObject({
          id,
          status: "lost",
          leftProcesses: { outcome: "killed", processes: 1 }
        })
        await waitUntil(
          "the process left in the lost run's cgroup still runs",
          () => processesWith(needle).length === 0,
          20_000
        )
        expect(fs.existsSync(left.cgroup)).toBe(false)
      } finally {
        left.cleanup()
      }
    }
  )

  it.skipIf(!asRoot)("a process left in the cgroup of a dead exec is ended when the next run starts", async () => {
    const dir = folder()
    createGrant(dir)
    const gone = spawnSync("true").pid!
    const needle = `${process.pid}${Date.now() % 100000}6`
    const left = leftInCgroupOf(gone, needle)
    try {
      expect(processesWith(needle).length).toBe(1)
      expect(ok(dir, ["exec", "--grant", "g1", "--", "true"]).execution).toMatchObject({
        status: "exited",
        exitCode: 0
      })
      await waitUntil(
        "the process left in the dead exec's cgroup still runs",
        () => processesWith(needle).length === 0,
        20_000
      )
      expect(fs.existsSync(left.cgroup)).toBe(false)
    } finally {
      left.cleanup()
    }
  })
})

// Not root there is no cgroup: what ends a run is its wrapper, bwrap's --die-with-parent and the PID
// namespace. bwrap's namespace init takes no parent-death signal until it has set the sandbox up,
// so a wrapper killed outright (SIGKILL) during that setup leaves the init waiting, for good, on a
// bwrap that is gone. The command that records the run lost finds it by the run's id on its command
// line and kills it. The CLI runs as an unprivileged user (setpriv, user namespaces), so that user
// must be able to start bwrap, and this Node and the built CLI: a Node kept under a folder only root
// may enter (a root's version manager, a scratch folder made by mktemp) skips the case.
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"]
const asNobodyWorks = sandboxWorks && process.getuid?.() === 0 &&
  spawnSync("setpriv", [...NOBODY, "/usr/bin/bwrap", "--unshare-all", "--ro-bind", "/", "/", "/bin/true"]).status ===
    0 &&
  // Through env, as the cases start it: setpriv's own exec still holds root's capabilities.
  spawnSync("setpriv", [...NOBODY, "env", process.execPath, CLI, "--version"]).status === 0

describe.skipIf(!asNobodyWorks)("a lost run of dossier not run as root", () => {
  const config = () => {
    const c = fs.mkdtempSync(`${fs.realpathSync(os.tmpdir())}/dossier-config-`)
    fs.chownSync(c, 65534, 65534)
    return c
  }
  const argsOf = (
    c: string,
    args: ReadonlyArray<string>
  ) => [...NOBODY, "env", `XDG_CONFIG_HOME=${c}`, process.execPath, CLI, ...args]
  const asNobody = (dir: string, c: string, args: ReadonlyArray<string>) => {
    const r = spawnSync("setpriv", argsOf(c, [...args, "--workdir", dir, "--json"]), { encoding: "utf8" })
    expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: "" })
    return JSON.parse(r.stdout)
  }

  it("a sandbox init left waiting after its wrapper was killed is killed when the run is recorded lost", async () => {
    const dir = folder()
    spawnSync("chown", ["-R", "65534:65534", dir])
    const c = config()
    asNobody(dir, c, ["grant", "create", "--input", putInput(dir, "grant.json", grantInput())])
    const needle = `${process.pid}${Date.now() % 100000}9`
    const run = spawn(
      "setpriv",
      argsOf(c, ["exec", "--grant", "g1", "--workdir", dir, "--json", "--", "sleep", needle]),
      {
        stdio: "ignore"
      }
    )
    let left: ReturnType<typeof spawn> | undefined
    let id = "x-unknown"
    try {
      id = await waitForRunning(dir)
      const comm = (p: number) => fs.readFileSync(`/proc/${p}/comm`, "utf8")
      await waitUntil("the program runs", () => processesWith(needle).some((p) => comm(p) === "sleep\n"))
      // The run's id is on bwrap's command line, and so on its namespace init's.
      expect(processesWith(id).filter((p) => comm(p) === "bwrap\n").length).toBe(2)
      run.kill("SIGKILL")
      await waitUntil("a process of the run outlived its exec", () => processesWith(id).length === 0, 20_000)
      // What such a wrapper leaves: bwrap's init of this run, its bwrap gone, held in its setup
      // (here on --block-fd, a pipe this test holds, instead of bwrap's own wait for its parent).
      left = spawn("setpriv", [
        ...NOBODY,
        "/usr/bin/bwrap",
        "--unshare-all",
        "--die-with-parent",
        "--ro-bind",
        "/usr",
        "/usr",
        "--block-fd",
        "3",
        "--",
        "/usr/bin/perl",
        "-e",
        "shift @ARGV; exec { $ARGV[0] } @ARGV",
        "--",
        id,
        "/usr/bin/true"
      ], { stdio: ["ignore", "ignore", "ignore", "pipe"] })
      await waitUntil("bwrap started its init", () => processesWith(id).length === 2)
      process.kill(left.pid!, "SIGKILL")
      await waitUntil("bwrap is gone", () => processesWith(id).length === 1)
      const [init] = processesWith(id)
      await new Promise((r) => setTimeout(r, 500))
      expect(processesWith(id)).toEqual([init])

      const shown = asNobody(dir, c, ["exec", "show", "--execution", id]).execution
      expect(shown).toMatchObject({ id, status: "lost", leftProcesses: { outcome: "killed", processes: 1 } })
      await waitUntil("the init left by the run still runs", () => processesWith(id).length === 0, 20_000)
    } finally {
      run.kill("SIGKILL")
      left?.kill("SIGKILL")
      for (const p of [...processesWith(needle), ...processesWith(id)]) {
        try {
          process.kill(p, "SIGKILL")
        } catch {
          // gone
        }
      }
    }
  })
})
