/**
 * The process tree of a run, read from /proc: its processes (to signal them) and the CPU time
 * they used so far (to hold the run to its CPU budget while it runs: RLIMIT_CPU binds one
 * process at a time, so a program that forks could otherwise spend the budget many times over).
 */
import * as fs from "node:fs"

/** The unit of /proc's time fields (USER_HZ: 100 on every Linux architecture dossier runs on). */
const TICKS_PER_SECOND = 100

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
const statFields = (pid: number): ReadonlyArray<string> | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return null
  }
}

/** Every descendant of `pid` (from /proc), children before grandchildren. */
export const descendants = (pid: number): Array<{ pid: number; ppid: number }> => {
  const children = new Map<number, Array<number>>()
  let names: Array<string> = []
  try {
    names = fs.readdirSync("/proc")
  } catch {
    return []
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    // Field 2 after the name is the parent's pid.
    const fields = statFields(Number(name))
    if (fields === null) continue
    const ppid = Number(fields[1])
    const list = children.get(ppid) ?? []
    list.push(Number(name))
    children.set(ppid, list)
  }
  const out: Array<{ pid: number; ppid: number }> = []
  const queue = [pid]
  while (queue.length > 0) {
    const p = queue.shift()!
    for (const c of children.get(p) ?? []) {
      out.push({ pid: c, ppid: p })
      queue.push(c)
    }
  }
  return out
}

/**
 * CPU seconds used by the descendants of `pid`: each live process's user and system time plus
 * what its reaped children used (cutime, cstime; the namespace's init reaps the orphans). Read
 * parents before children, so a child reaped between two reads is missed once, never counted
 * twice: the figure may lag, it never runs ahead of the truth.
 */
export const treeCpuSeconds = (pid: number): number => {
  let ticks = 0
  for (const d of descendants(pid)) {
    // utime, stime, cutime, cstime: fields 14–17 of stat, 12–15 after the name.
    const f = statFields(d.pid)
    if (f === null) continue
    ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])
  }
  return ticks / TICKS_PER_SECOND
}

export const signal = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(pid, sig)
  } catch {
    // already gone
  }
}

/** The command line of a process (its arguments), or null when it is gone. */
const cmdline = (pid: number): ReadonlyArray<string> | null => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")
  } catch {
    return null
  }
}

/**
 * End at once (SIGKILL) the sandbox of every run of `grantIds` started by `ownerPid`: the
 * processes below the run's wrapper, found as the owner's child whose command line carries
 * `DOSSIER_GRANT <id>` (the sandbox's environment, set by dossier). The wrapper itself is left to
 * report how the run ended, so that the owner still records it. Returns how many runs were hit.
 */
export const killSandboxes = (ownerPid: number, grantIds: ReadonlySet<string>): number => {
  let hit = 0
  for (const d of descendants(ownerPid)) {
    if (d.ppid !== ownerPid) continue
    const args = cmdline(d.pid)
    if (args === null) continue
    const at = args.indexOf("DOSSIER_GRANT")
    if (at < 1 || args[at - 1] !== "--setenv" || !grantIds.has(args[at + 1] ?? "")) continue
    hit++
    for (const below of descendants(d.pid)) signal(below.pid, "SIGKILL")
  }
  return hit
}
