/**
 * What a confined run needs from the machine, found once: bubblewrap, perl, prlimit and env in
 * fixed system directories (never through PATH), the system directories and /etc files to mount,
 * and, when dossier runs as root (where RLIMIT_NPROC does not apply), a pids cgroup hierarchy.
 * Also the per-run pids cgroup itself.
 */
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import { ETC_FILES, SYSTEM_DIRS } from "../domain/Execution.js"

/** wait4, prctl and close syscall numbers where they are known. */
export const SYSCALLS: Record<string, readonly [number, number, number]> = { x64: [61, 157, 3], arm64: [260, 167, 57] }

export interface Machine {
  readonly bwrap: string
  readonly perl: string
  readonly prlimit: string
  readonly env: string
  readonly cgroup: string | null
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

export const discover = (): Machine | string => {
  if (process.platform !== "linux") return `confined runs need Linux and bubblewrap; this is ${process.platform}`
  if (process.env["DOSSIER_SANDBOX"] === "unavailable") return "turned off by DOSSIER_SANDBOX=unavailable"
  if (SYSCALLS[process.arch] === undefined) return `no wait4 syscall number known for ${process.arch}`
  const bwrap = findIn("bwrap", ["/usr/bin", "/bin", "/usr/local/bin"])
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
  return { bwrap, perl, prlimit, env, cgroup, system, etc }
}

/** Remove the (empty) cgroups left by dossier processes that died before removing theirs. */
const removeStaleCgroups = (root: string) => {
  let names: Array<string> = []
  try {
    names = fs.readdirSync(root).filter((n) => /^dossier-\d+-[0-9a-f]{8}$/.test(n))
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(name.split("-")[1])
    if (pid === process.pid || fs.existsSync(`/proc/${pid}`)) continue
    try {
      fs.rmdirSync(`${root}/${name}`)
    } catch {
      // still in use, or not ours to remove
    }
  }
}

export const makeCgroup = (root: string, processes: number): string => {
  removeStaleCgroups(root)
  const dir = `${root}/dossier-${process.pid}-${randomBytes(4).toString("hex")}`
  fs.mkdirSync(dir)
  fs.writeFileSync(`${dir}/pids.max`, String(processes))
  return dir
}

/** Remove the run's cgroup once its last process is gone (the kernel frees it asynchronously). */
export const removeCgroup = (dir: string) =>
  Effect.try(() => fs.rmdirSync(dir)).pipe(Effect.retry({ times: 200, schedule: Schedule.spaced("10 millis") }), Effect.ignore)
