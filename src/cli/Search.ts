/**
 * The upward search for a work folder (src/cli/Discover.ts): the nearest folder from a start upward
 * that holds a `.dossier/` directory or a `plan.md` with a dossier section, on the same device.
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

/** The nearest work folder from `start` upward on the same device, or undefined. */
export const searchUpward = (start: string): string | undefined => {
  let dir = path.resolve(start)
  let device: number
  try {
    device = fs.statSync(dir).dev
  } catch {
    return undefined
  }
  for (;;) {
    if (isWorkFolder(dir)) return dir
    const parent = path.dirname(dir)
    if (parent === dir) return undefined
    try {
      if (fs.statSync(parent).dev !== device) return undefined
    } catch {
      return undefined
    }
    dir = parent
  }
}
