/**
 * The work-folder markers below a work root (`WorkTree.markers`, `WorkTree.surveyMarkers`): what
 * the upward search for a work folder (src/cli/Search.ts) takes for one, a `.dossier` directory or
 * a regular `plan.md` with the plan's marker. The walk reads every entry (about 1 s per 100,000),
 * so exec and grant creation walk before the folder's lock and, under it, look again only at
 * what changed since: each directory whose identity or times moved (or moved too recently to
 * tell, as git's "racy" entries), each plan.md seen, each marker found (docs/exec.md).
 */
import * as fs from "node:fs"
import { BEGIN_MARKER } from "../domain/PlanMarkdown.js"

/**
 * What the upward search for a work folder (src/cli/Search.ts) takes for one: a directory named
 * `.dossier`, or a regular file `plan.md` whose first MiB holds the plan's marker.
 */
export const MARKER_DIR = ".dossier"
export const MARKER_PLAN = "plan.md"
const PLAN_PEEK_BYTES = 1024 * 1024 + BEGIN_MARKER.length
const SLASH = Buffer.from("/")

/**
 * A directory whose modification time is this close to the walk's start (or later) may have
 * changed within the same tick of the file system's clock after it was read: looked at again.
 */
const RACY_NS = 2_000_000_000n

/** Does the regular file held by `fd` hold the plan's marker where the search looks for it? */
export const holdsPlanMarker = (fd: number): boolean => {
  const buffer = Buffer.alloc(PLAN_PEEK_BYTES)
  const n = fs.readSync(fd, buffer, 0, buffer.length, 0)
  return buffer.subarray(0, n).includes(BEGIN_MARKER)
}

/** Is the regular file `at` (as `st` saw it) a plan.md with the plan's marker? Read through a checked descriptor. */
export const isPlanMarker = (at: Buffer, st: fs.BigIntStats): boolean => {
  let fd: number
  try {
    fd = fs.openSync(at, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK)
  } catch {
    return false
  }
  try {
    const held = fs.fstatSync(fd, { bigint: true })
    return held.isFile() && held.dev === st.dev && held.ino === st.ino && holdsPlanMarker(fd)
  } catch {
    return false
  } finally {
    fs.closeSync(fd)
  }
}

const lstatOf = (at: Buffer): fs.BigIntStats | undefined => {
  try {
    return fs.lstatSync(at, { bigint: true })
  } catch {
    return undefined
  }
}

/**
 * `visit` each entry of the directory `at` (shown as `where`) as lstat sees it, with its path both
 * ways; an unreadable directory, or an entry gone before its lstat, is not visited.
 */
const eachEntry = (
  at: Buffer,
  where: string,
  visit: (child: Buffer, childWhere: string, cst: fs.BigIntStats, text: string) => void
): void => {
  let names: Array<Buffer>
  try {
    names = fs.readdirSync(at, { encoding: "buffer" })
  } catch {
    return
  }
  for (const name of names) {
    const child = Buffer.concat([at, SLASH, name])
    const cst = lstatOf(child)
    if (cst === undefined) continue
    const text = name.toString("utf8")
    visit(child, `${where}/${text}`, cst, text)
  }
}

/** What a directory or a plan.md was when the walk saw it. */
interface Seen {
  readonly at: Buffer
  readonly name: string
  readonly where: string
  readonly dev: bigint
  readonly ino: bigint
  readonly size: bigint
  readonly mtimeNs: bigint
  readonly ctimeNs: bigint
}

const seen = (at: Buffer, name: string, where: string, st: fs.BigIntStats): Seen => ({
  at,
  name,
  where,
  dev: st.dev,
  ino: st.ino,
  size: st.size,
  mtimeNs: st.mtimeNs,
  ctimeNs: st.ctimeNs
})

const unchanged = (s: Seen, st: fs.BigIntStats) =>
  st.dev === s.dev && st.ino === s.ino && st.size === s.size && st.mtimeNs === s.mtimeNs && st.ctimeNs === s.ctimeNs

const isMarker = (name: string, at: Buffer, st: fs.BigIntStats) =>
  (name === MARKER_DIR && st.isDirectory()) || (name === MARKER_PLAN && st.isFile() && isPlanMarker(at, st))

/** The markers below the directory `top` (shown as `where`), sorted, and a cheap look again. */
export interface MarkerSurvey {
  readonly found: ReadonlyArray<string>
  /** The markers below the same directory now: what changed since the walk looked at again. */
  readonly again: () => ReadonlyArray<string>
}

/**
 * Walk below the directory `top` (absolute, shown as `where`), no link followed, no entry limit;
 * `present` false: it is not there (yet), and the look again walks it whole if it is then.
 */
export const surveyMarkers = (top: Buffer, where: string, present: boolean): MarkerSurvey => {
  const started = BigInt(Date.now()) * 1_000_000n
  const dirs = new Map<string, Seen>()
  const plans = new Map<string, Seen>()
  const found = new Map<string, Seen>()

  /** Walk below `at` (a directory), recording what it sees, into `into` (marker paths). */
  const walk = (at: Buffer, whereAt: string, st: fs.BigIntStats, into: Set<string>) => {
    const pending: Array<{ at: Buffer; where: string; st: fs.BigIntStats }> = [{ at, where: whereAt, st }]
    while (pending.length > 0) {
      const d = pending.pop()!
      dirs.set(d.at.toString("latin1"), seen(d.at, "", d.where, d.st))
      eachEntry(d.at, d.where, (child, childWhere, cst, text) => {
        if (text === MARKER_PLAN && cst.isFile()) {
          plans.set(child.toString("latin1"), seen(child, text, childWhere, cst))
        }
        if (isMarker(text, child, cst)) {
          into.add(childWhere)
          found.set(child.toString("latin1"), seen(child, text, childWhere, cst))
        }
        if (cst.isDirectory()) pending.push({ at: child, where: childWhere, st: cst })
      })
    }
  }

  const topSt = present ? lstatOf(top) : undefined
  const first = new Set<string>()
  if (topSt?.isDirectory() === true) walk(top, where, topSt, first)

  const again = (): ReadonlyArray<string> => {
    const now = lstatOf(top)
    if (now?.isDirectory() !== true) return []
    const out = new Set<string>()
    // The root replaced or first made since: walked whole.
    if (topSt === undefined || !topSt.isDirectory() || now.dev !== topSt.dev || now.ino !== topSt.ino) {
      walk(top, where, now, out)
      return [...out].sort()
    }
    const settled = (s: Seen, st: fs.BigIntStats) => unchanged(s, st) && s.mtimeNs < started - RACY_NS
    // The markers found, and the plan.md files seen that changed since: looked at again.
    for (const s of found.values()) {
      const st = lstatOf(s.at)
      if (st !== undefined && isMarker(s.name, s.at, st)) out.add(s.where)
    }
    for (const s of plans.values()) {
      const st = lstatOf(s.at)
      if (st !== undefined && !settled(s, st) && isMarker(s.name, s.at, st)) out.add(s.where)
    }
    // A directory that changed (or changed too recently to tell): its entries looked at again, and
    // a directory among them the walk did not see walked whole.
    for (const d of [...dirs.values()]) {
      const st = lstatOf(d.at)
      if (st === undefined || !st.isDirectory()) continue
      if (settled(d, st)) continue
      eachEntry(d.at, d.where, (child, childWhere, cst, text) => {
        if (isMarker(text, child, cst)) out.add(childWhere)
        const known = dirs.get(child.toString("latin1"))
        if (cst.isDirectory() && (known === undefined || known.dev !== cst.dev || known.ino !== cst.ino)) {
          walk(child, childWhere, cst, out)
        }
      })
    }
    return [...out].sort()
  }

  return { found: [...first].sort(), again }
}
