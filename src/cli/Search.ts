/**
 * The upward search for a work folder (src/cli/Discover.ts): the nearest folder from a start upward
 * that holds a `.dossier/` directory or a `plan.md` with a dossier section, on the same device,
 * passing over those a confined run in flight made in its work root.
 * node:fs and node:path only: the loader (./bin.ts) runs it too, before any bundle is read.
 */
import * as fs from "node:fs"
import * as path from "node:path"

/** The marker of the plan's section in plan.md (src/domain/PlanMarkdown.ts, repeated: this module stays light). */
const PLAN_MARKER = "<!-- dossier:plan:begin -->"
/** plan.md is read only up to here for the marker (the plan itself is much smaller). */
const PLAN_PEEK_BYTES = 1024 * 1024

const isDirectory = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isDirectory()
  } catch {
    return false
  }
}

const hasPlanSection = (p: string): boolean => {
  let fd: number | undefined
  try {
    const st = fs.lstatSync(p)
    if (!st.isFile()) return false
    fd = fs.openSync(p, "r")
    const buffer = Buffer.alloc(Math.min(st.size, PLAN_PEEK_BYTES))
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0)
    return buffer.subarray(0, n).includes(PLAN_MARKER)
  } catch {
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** Does this folder mark a work folder? */
export const isWorkFolder = (dir: string): boolean =>
  isDirectory(path.join(dir, ".dossier")) || hasPlanSection(path.join(dir, "plan.md"))

/** A grant id (src/domain/Ids.ts): no separator, so it names a file of `.dossier/grants/`. */
const GRANT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/** An in-flight marker or a grant record is read only up to here (both are far smaller). */
const RECORD_PEEK_BYTES = 1024 * 1024

/** The JSON of a small regular file (no link followed), or undefined. */
const readJson = (p: string): unknown => {
  let fd: number | undefined
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK)
    const st = fs.fstatSync(fd)
    if (!st.isFile() || st.size > RECORD_PEEK_BYTES) return undefined
    const buffer = Buffer.alloc(st.size)
    const n = fs.readSync(fd, buffer, 0, buffer.length, 0)
    return JSON.parse(buffer.subarray(0, n).toString("utf8"))
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/**
 * The work roots (absolute, below `dir`) of the runs in flight in work folder `dir`: the grant of
 * each in-flight marker `.dossier/executions/<id>.running.json`, its `work.path`. A marker of a
 * run whose exec died counts until the next command records the run `lost` (and renames what it
 * left). What cannot be read counts for nothing.
 */
const liveWorkRoots = (dir: string): Array<string> => {
  const executions = path.join(dir, ".dossier", "executions")
  let names: Array<string>
  try {
    names = fs.readdirSync(executions)
  } catch {
    return []
  }
  const out: Array<string> = []
  for (const name of names) {
    if (!name.endsWith(".running.json")) continue
    const marker = readJson(path.join(executions, name)) as { grantId?: unknown } | undefined
    const grantId = marker?.grantId
    if (typeof grantId !== "string" || !GRANT_ID.test(grantId)) continue
    const grant = readJson(path.join(dir, ".dossier", "grants", `${grantId}.json`)) as
      | { work?: { path?: unknown } }
      | undefined
    const work = grant?.work?.path
    if (typeof work !== "string" || work === "" || path.isAbsolute(work)) continue
    const parts = work.split("/")
    if (parts.some((p) => p === "" || p === "." || p === "..")) continue
    out.push(path.join(dir, ...parts))
  }
  return out
}

/**
 * Does `dir` lie in the work root of a run in flight of a work folder above it (on `device`)?
 * Such a run's `.dossier` or plan.md is its output, renamed once the run is recorded; while it
 * runs it marks nothing (docs/exec.md, *Work-folder markers*).
 */
const inLiveRun = (dir: string, device: number): boolean => {
  for (let above = parentOn(dir, device); above !== undefined; above = parentOn(above, device)) {
    if (!isDirectory(path.join(above, ".dossier"))) continue
    if (liveWorkRoots(above).some((root) => dir === root || dir.startsWith(`${root}${path.sep}`))) return true
  }
  return false
}

/** The parent of `dir` when it is on `device` (the search stops at another file system and at /). */
const parentOn = (dir: string, device: number): string | undefined => {
  const parent = path.dirname(dir)
  if (parent === dir) return undefined
  try {
    return fs.statSync(parent).dev === device ? parent : undefined
  } catch {
    return undefined
  }
}

/**
 * The nearest work folder from `start` upward on the same device, or undefined. A folder that
 * lies in the work root of a run in flight (`inLiveRun`) is passed over: what the run made there
 * is not a work folder.
 */
export const searchUpward = (start: string): string | undefined => {
  const dir = path.resolve(start)
  let device: number
  try {
    device = fs.statSync(dir).dev
  } catch {
    return undefined
  }
  for (let at: string | undefined = dir; at !== undefined; at = parentOn(at, device)) {
    if (isWorkFolder(at) && !inLiveRun(at, device)) return at
  }
  return undefined
}
