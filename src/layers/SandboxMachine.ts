/**
 * What a confined run needs from the machine, found once: bubblewrap, perl, prlimit and env in
 * fixed system directories (never through PATH), the system directories and /etc files to mount,
 * when dossier runs as root (where RLIMIT_NPROC does not apply) a pids cgroup hierarchy, and,
 * where dossier may create one, a memory cgroup below its own (cgroup v1 memory controller, or a
 * cgroup v2 subtree with the memory controller delegated) so that a run's memory is limited as a
 * whole. Also the per-run cgroups themselves, and what ends a lost run's leftovers (`endLostRun`).
 *
 * Over 400 lines: a run's cgroups are made, emptied and swept here, and a lost run's leftovers are
 * found in the same cgroups, so what makes them and what ends what is left in them stay together.
 */
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import { ETC_FILES, SYSTEM_DIRS } from "../domain/Execution.js"

/** wait4, prctl and close syscall numbers where they are known. */
export const SYSCALLS: Record<string, readonly [number, number, number]> = { x64: [61, 157, 3], arm64: [260, 167, 57] }

/** Where bubblewrap is taken from: fixed system directories, never PATH. */
const BWRAP_DIRS = ["/usr/bin", "/bin", "/usr/local/bin"]

export interface Machine {
  readonly bwrap: string
  readonly perl: string
  readonly prlimit: string
  readonly env: string
  readonly cgroup: string | null
  /** Where a run's memory cgroup is made (below dossier's own cgroup), when anywhere. */
  readonly memory: MemoryPlace | null
  readonly system: ReadonlyArray<{ readonly path: string; readonly link: string | null }>
  readonly etc: ReadonlyArray<string>
}

const executable = (p: string): boolean => {
  try {
    fs.accessSync(p, fs.constants.X_OK)
    return fs.statSync(p).isFile()
  } catch {
    return false
  }
}

/** Fixed system locations only: a binary found through PATH could be anyone's. */
const findIn = (name: string, dirs: ReadonlyArray<string>) => dirs.map((d) => `${d}/${name}`).find(executable)

/** Where this process may create a pids cgroup (as root), if anywhere. */
const pidsCgroupRoot = (): string | null => {
  let mounts: string
  try {
    mounts = fs.readFileSync("/proc/self/mounts", "utf8")
  } catch {
    return null
  }
  for (const line of mounts.split("\n")) {
    const [, dir, type, opts] = line.split(" ")
    if (type === "cgroup" && dir !== undefined && opts?.split(",").includes("pids")) return dir
  }
  for (const line of mounts.split("\n")) {
    const [, dir, type] = line.split(" ")
    if (type !== "cgroup2" || dir === undefined) continue
    try {
      if (fs.readFileSync(`${dir}/cgroup.subtree_control`, "utf8").split(/\s+/).includes("pids")) return dir
    } catch {
      // not usable
    }
  }
  return null
}

/** A cgroup below which dossier may make a run's memory cgroup. */
export interface MemoryPlace {
  readonly version: 1 | 2
  readonly parent: string
  /** v2: the mount of the unified hierarchy (to tell whether the pids cgroup is on it). */
  readonly mount: string
}

const readText = (p: string): string | null => {
  try {
    return fs.readFileSync(p, "utf8")
  } catch {
    return null
  }
}

const writable = (dir: string): boolean => {
  try {
    fs.accessSync(dir, fs.constants.W_OK)
    return fs.statSync(dir).isDirectory()
  } catch {
    return false
  }
}

/**
 * Where a run's memory cgroup can be made: below this process's own cgroup (never above it, which
 * would escape the limits the machine put on dossier), in the cgroup v1 memory hierarchy, or in
 * the v2 hierarchy when the memory controller is (or can be) enabled for the children of that cgroup.
 */
export const memoryCgroupPlace = (enable = true): MemoryPlace | null => {
  if (process.env["DOSSIER_MEMORY_CGROUP"] === "off") return null
  const mounts = readText("/proc/self/mounts")
  const own = readText("/proc/self/cgroup")
  if (mounts === null || own === null) return null
  const ownPath = (pred: (controllers: ReadonlyArray<string>, hierarchy: string) => boolean): string | null => {
    for (const line of own.split("\n")) {
      const m = /^(\d+):([^:]*):(.*)$/.exec(line)
      if (m !== null && pred(m[2]!.split(","), m[1]!)) return m[3]!
    }
    return null
  }
  const under = (mount: string, rel: string) => rel === "/" ? mount : `${mount}${rel}`
  for (const line of mounts.split("\n")) {
    const [, dir, type, opts] = line.split(" ")
    if (type !== "cgroup" || dir === undefined || !opts?.split(",").includes("memory")) continue
    const rel = ownPath((c) => c.includes("memory"))
    if (rel === null) continue
    const parent = under(dir, rel)
    if (writable(parent) && fs.existsSync(`${parent}/memory.limit_in_bytes`)) return { version: 1, parent, mount: dir }
  }
  for (const line of mounts.split("\n")) {
    const [, dir, type] = line.split(" ")
    if (type !== "cgroup2" || dir === undefined) continue
    const rel = ownPath((c, h) => h === "0" && c.length === 1 && c[0] === "")
    if (rel === null) continue
    const parent = under(dir, rel)
    if (!writable(parent) || !(readText(`${parent}/cgroup.controllers`) ?? "").split(/\s+/).includes("memory")) continue
    if (!(readText(`${parent}/cgroup.subtree_control`) ?? "").split(/\s+/).includes("memory")) {
      if (!enable) continue
      // Enabling it succeeds only where the cgroup holds no process of its own (or is the root).
      try {
        fs.writeFileSync(`${parent}/cgroup.subtree_control`, "+memory")
      } catch {
        continue
      }
    }
    return { version: 2, parent, mount: dir }
  }
  return null
}

export const discover = (): Machine | string => {
  if (process.platform !== "linux") return `confined runs need Linux and bubblewrap; this is ${process.platform}`
  if (process.env["DOSSIER_SANDBOX"] === "unavailable") return "turned off by DOSSIER_SANDBOX=unavailable"
  if (SYSCALLS[process.arch] === undefined) return `no wait4 syscall number known for ${process.arch}`
  const bwrap = findIn("bwrap", BWRAP_DIRS)
  if (bwrap === undefined) return "bubblewrap (bwrap) is not installed"
  const perl = findIn("perl", ["/usr/bin", "/bin"])
  if (perl === undefined) return "perl is not installed (it measures the run)"
  const prlimit = findIn("prlimit", ["/usr/bin"])
  if (prlimit === undefined) return "prlimit (util-linux) is not installed in /usr/bin"
  const env = findIn("env", ["/usr/bin"])
  if (env === undefined) return "env (coreutils) is not installed in /usr/bin"
  let cgroup: string | null = null
  if (process.getuid?.() === 0) {
    cgroup = pidsCgroupRoot()
    if (cgroup === null) return "running as root, where RLIMIT_NPROC does not apply, and no pids cgroup is available"
  }
  const system: Array<{ path: string; link: string | null }> = []
  for (const p of SYSTEM_DIRS) {
    try {
      const st = fs.lstatSync(p)
      if (st.isSymbolicLink()) system.push({ path: p, link: fs.readlinkSync(p) })
      else if (st.isDirectory()) system.push({ path: p, link: null })
    } catch {
      // absent on this machine
    }
  }
  const etc = ETC_FILES.filter((p) => fs.existsSync(p))
  return { bwrap, perl, prlimit, env, cgroup, memory: memoryCgroupPlace(), system, etc }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * SIGKILL every process left in a run's cgroup, again until it is empty (a process may fork
 * between a read and the kill; the pids limit bounds how many): on cgroup v2 through `cgroup.kill`
 * where the kernel has it. A run that ended as it should leaves none (its wrapper reaped them all).
 * Returns whether the cgroup is empty; every pid it found there goes into `found`, when given.
 */
export const killCgroup = (dir: string, found?: Set<number>): boolean => {
  for (let round = 0; round < 200; round++) {
    const procs = readText(`${dir}/cgroup.procs`)
    if (procs === null) return true
    const pids = procs.split("\n").filter((l) => /^\d+$/.test(l)).map(Number)
    if (pids.length === 0) return true
    for (const pid of pids) found?.add(pid)
    try {
      fs.writeFileSync(`${dir}/cgroup.kill`, "1")
    } catch {
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL")
        } catch {
          // already gone
        }
      }
    }
    pause(10)
  }
  return false
}

/**
 * Remove the cgroups left by dossier processes that died before removing theirs, ending first any
 * process still in one: a run whose `dossier exec` and wrapper were both killed outright (nothing
 * was left to end it) must not go on running. The pids found in the cgroups of `owner.pid` go
 * into `owner.found`.
 */
const removeStaleCgroups = (root: string, owner?: { readonly pid: number; readonly found: Set<number> }) => {
  let names: Array<string> = []
  try {
    names = fs.readdirSync(root).filter((n) => /^dossier-\d+-[0-9a-f]{8}$/.test(n))
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(name.split("-")[1])
    // A live process of that pid (dossier, or another that reused its pid) keeps them.
    if (pid === process.pid || fs.existsSync(`/proc/${pid}`)) continue
    killCgroup(`${root}/${name}`, pid === owner?.pid ? owner.found : undefined)
    try {
      fs.rmdirSync(`${root}/${name}`)
    } catch {
      // still in use, or not ours to remove
    }
  }
}

/**
 * Run `removeStaleCgroups` where dossier makes runs' cgroups on this machine (the pids hierarchy
 * as root, the memory cgroup's parent): what the next command that records lost runs does.
 * Returns how many processes it killed in the cgroups named after `ownerPid` (a lost run's exec).
 */
export const sweepStaleCgroups = (ownerPid?: number): number => {
  if (process.platform !== "linux") return 0
  const roots: Array<string> = []
  const pids = process.getuid?.() === 0 ? pidsCgroupRoot() : null
  if (pids !== null) roots.push(pids)
  const memory = memoryCgroupPlace(false)
  if (memory !== null) roots.push(memory.parent)
  const owner = ownerPid === undefined ? undefined : { pid: ownerPid, found: new Set<number>() }
  for (const root of roots) removeStaleCgroups(root, owner)
  return owner?.found.size ?? 0
}

/** Whether process `pid` is gone (or a zombie: it runs nothing and holds nothing but its entry). */
const processGone = (pid: number): boolean => {
  const stat = readText(`/proc/${pid}/stat`)
  return stat === null || /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))
}

/**
 * The processes whose command line is bwrap's (from one of the fixed places dossier takes it from)
 * and holds `runId` as one argument: the sandbox of that run (./SandboxBwrap.ts puts the id there),
 * bwrap and its namespace init (a copy of bwrap, the same command line). Null when /proc cannot be read.
 */
const sandboxOf = (runId: string): Array<number> | null => {
  let names: Array<string>
  try {
    names = fs.readdirSync("/proc")
  } catch {
    return null
  }
  const bwraps = new Set(BWRAP_DIRS.map((d) => `${d}/bwrap`))
  return names.filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid).filter((n) => {
    const argv = (readText(`/proc/${n}/cmdline`) ?? "").split("\0")
    return bwraps.has(argv[0]!) && argv.includes(runId)
  }).map(Number).filter((pid) => !processGone(pid))
}

/** What the command that records a run `lost` found of its processes, and did (its record's `leftProcesses`). */
export interface LeftProcessesFound {
  readonly outcome: "killed" | "none-found" | "unchecked"
  readonly processes: number
  readonly detail: string
}

/**
 * End whatever is left of a run whose `dossier exec` (pid `ownerPid`) is gone, before it is
 * recorded `lost`: as root, every process in the cgroups named after that exec (and those of any
 * other dead exec, see `removeStaleCgroups`); as any user, the run's bwrap and its namespace init,
 * found by the run's id on their command line. The init is what a wrapper killed outright while
 * bwrap set up the sandbox leaves behind when dossier has no cgroup (not root): it has no
 * parent-death signal of its own until the setup is done, and waits for good for a bwrap that is
 * gone. SIGKILL to it ends its whole PID namespace.
 */
export const endLostRun = (ownerPid: number, runId: string): LeftProcessesFound => {
  if (process.platform !== "linux") {
    return { outcome: "unchecked", processes: 0, detail: `the processes of ${process.platform} are not read` }
  }
  return leftFound(sweepStaleCgroups(ownerPid), runId, "its dossier exec")
}

/**
 * SIGKILL the run's bwrap and namespace init, found by the run's id (`sandboxOf`), again until none
 * is left: how many were killed, or null when /proc cannot be read.
 */
const killSandboxOf = (runId: string): number | null => {
  const ended = new Set<number>()
  for (let round = 0; round < 50; round++) {
    const left = sandboxOf(runId)
    if (left === null) return null
    if (left.length === 0) break
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL")
        ended.add(pid)
      } catch {
        // gone meanwhile, or not this user's
      }
    }
    pause(20)
  }
  return ended.size
}

/** What was left of a run once `inCgroups` of its processes were killed in its cgroups: the rest, found by its id, are ended too. */
const leftFound = (inCgroups: number, runId: string, gone: string): LeftProcessesFound => {
  const byId = killSandboxOf(runId)
  if (byId === null) {
    return {
      outcome: "unchecked",
      processes: inCgroups,
      detail: "could not read /proc to look for what was left of the run" +
        (inCgroups > 0 ? ` (${inCgroups} process(es) in its cgroups were killed)` : "")
    }
  }
  const killed = inCgroups + byId
  if (killed === 0) {
    return { outcome: "none-found", processes: 0, detail: "no process of the run was left when it was recorded" }
  }
  return {
    outcome: "killed",
    processes: killed,
    detail: `${killed} process(es) of the run were still running after ${gone} ended, and were killed`
  }
}

/**
 * End whatever is left of a run whose wrapper ended without reporting the run's end (killed
 * outright, or told to stop by someone else) while dossier lives: every process in the run's
 * cgroups (`join`, as root) and its bwrap and namespace init by its id. An init whose setup was
 * cut when the wrapper died holds the run's output pipes and waits for good on a bwrap that is
 * gone: dossier would wait for it too.
 */
export const endRunLeft = (join: ReadonlyArray<string>, runId: string | null): LeftProcessesFound => {
  if (process.platform !== "linux") {
    return { outcome: "unchecked", processes: 0, detail: `the processes of ${process.platform} are not read` }
  }
  const found = new Set<number>()
  for (const dir of join) killCgroup(dir, found)
  if (runId === null) {
    return found.size === 0
      ? { outcome: "none-found", processes: 0, detail: "no process of the run was left when it was recorded" }
      : {
        outcome: "killed",
        processes: found.size,
        detail: `${found.size} process(es) of the run were still running after its wrapper ended, and were killed`
      }
  }
  return leftFound(found.size, runId, "its wrapper")
}

const newCgroup = (parent: string): string => {
  removeStaleCgroups(parent)
  const dir = `${parent}/dossier-${process.pid}-${randomBytes(4).toString("hex")}`
  fs.mkdirSync(dir)
  return dir
}

export const makeCgroup = (root: string, processes: number): string => {
  const dir = newCgroup(root)
  fs.writeFileSync(`${dir}/pids.max`, String(processes))
  return dir
}

/** The cgroups of one run: those its wrapper joins, and the one that limits its memory (if any). */
export interface RunCgroups {
  readonly join: ReadonlyArray<string>
  readonly memory: { readonly version: 1 | 2; readonly dir: string } | null
}

const removeNow = (dir: string) => {
  try {
    fs.rmdirSync(dir)
  } catch {
    // left for removeStaleCgroups
  }
}

/**
 * Make the cgroups of a run: the pids cgroup (as root) and a memory cgroup limited to `memoryMiB`
 * (swap included) where the machine has a place for one. A memory cgroup that cannot be made is
 * not an error: the run's memory is then limited per process (`enforcement.memory: "process"`).
 * A pids cgroup that cannot be made is (it is what holds a root run to its process limit).
 */
export const makeRunCgroups = (
  m: { readonly cgroup: string | null; readonly memory: MemoryPlace | null },
  processes: number,
  memoryMiB: number
): RunCgroups => {
  const bytes = String(Math.max(1, Math.floor(memoryMiB * 1024 * 1024)))
  const place = m.memory
  const makeMemory = (): RunCgroups["memory"] => {
    if (place === null) return null
    let dir: string | null = null
    try {
      dir = newCgroup(place.parent)
      if (place.version === 1) {
        fs.writeFileSync(`${dir}/memory.limit_in_bytes`, bytes)
        if (fs.existsSync(`${dir}/memory.memsw.limit_in_bytes`)) {
          fs.writeFileSync(`${dir}/memory.memsw.limit_in_bytes`, bytes)
        }
      } else {
        fs.writeFileSync(`${dir}/memory.max`, bytes)
        if (fs.existsSync(`${dir}/memory.swap.max`)) fs.writeFileSync(`${dir}/memory.swap.max`, "0")
      }
      return { version: place.version, dir }
    } catch {
      if (dir !== null) removeNow(dir)
      return null
    }
  }
  // One cgroup v2 hierarchy: a process is in one cgroup of it, so pids and memory share the run's cgroup.
  if (place?.version === 2 && m.cgroup !== null && m.cgroup.startsWith(place.mount)) {
    const memory = (readText(`${place.parent}/cgroup.subtree_control`) ?? "").split(/\s+/).includes("pids")
      ? makeMemory()
      : null
    if (memory !== null) {
      try {
        fs.writeFileSync(`${memory.dir}/pids.max`, String(processes))
        return { join: [memory.dir], memory }
      } catch {
        removeNow(memory.dir)
      }
    }
    return { join: [makeCgroup(m.cgroup, processes)], memory: null }
  }
  const pids = m.cgroup === null ? null : makeCgroup(m.cgroup, processes)
  const memory = makeMemory()
  return { join: [...(pids === null ? [] : [pids]), ...(memory === null ? [] : [memory.dir])], memory }
}

/** What a run's memory cgroup saw: its peak use and how many processes the kernel ended at the limit. */
export const memoryUse = (memory: NonNullable<RunCgroups["memory"]>): { peakKiB: number | null; oomKills: number } => {
  const num = (text: string | null, key: string | null): number | null => {
    if (text === null) return null
    const v = key === null ? text.trim() : new RegExp(`^${key} (\\d+)$`, "m").exec(text)?.[1]
    return v === undefined || !/^\d+$/.test(v) ? null : Number(v)
  }
  const d = memory.dir
  const peak = memory.version === 1
    ? num(readText(`${d}/memory.max_usage_in_bytes`), null)
    : num(readText(`${d}/memory.peak`), null)
  const kills = memory.version === 1
    ? num(readText(`${d}/memory.oom_control`), "oom_kill")
    : num(readText(`${d}/memory.events`), "oom_kill")
  return { peakKiB: peak === null ? null : Math.ceil(peak / 1024), oomKills: kills ?? 0 }
}

/**
 * Remove the run's cgroup once its last process is gone (the kernel frees it asynchronously),
 * ending any process still in it first.
 */
export const removeCgroup = (dir: string) =>
  Effect.sync(() => killCgroup(dir)).pipe(
    Effect.zipRight(
      Effect.try(() => fs.rmdirSync(dir)).pipe(Effect.retry({ times: 200, schedule: Schedule.spaced("10 millis") }))
    ),
    Effect.ignore
  )
