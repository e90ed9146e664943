/**
 * Finding the work folder when `--workdir` is not given (spec cli.md): `DOSSIER_WORKDIR` if set,
 * else the nearest folder from the current directory upward that holds a `.dossier/` directory
 * or a `plan.md` with a dossier section, as git finds `.git`. The search stops at another file
 * system (a different device) and at `/`; finding nothing means the current directory.
 * Light (node:fs and node:path only): it runs on the start-up path of every command.
 */
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as path from "node:path"
import { relativeFromCwd } from "../commands/Cwd.js"
import type { CommandSpec } from "../commands/Spec.js"
import { invocation } from "./Context.js"

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

export interface Discovered {
  /** The folder to use (as found: absolute, or the value of DOSSIER_WORKDIR). */
  readonly dir: string
  /** How it was chosen. */
  readonly source: "flag" | "env" | "search" | "cwd"
}

export const discoverWorkdir = (
  given: string | undefined,
  cwd: string = process.cwd(),
  env: Record<string, string | undefined> = process.env
): Discovered => {
  if (given !== undefined) return { dir: given, source: "flag" }
  const fromEnv = env["DOSSIER_WORKDIR"]
  if (fromEnv !== undefined && fromEnv !== "") return { dir: fromEnv, source: "env" }
  const found = searchUpward(cwd)
  return found === undefined ? { dir: cwd, source: "cwd" } : { dir: found, source: "search" }
}

/**
 * The values a handler receives: each `workdir` flag (parsed as an optional text) becomes the
 * folder to use, discovered when not given; a discovered folder other than the current
 * directory is recorded for the renderer (`work folder: ../..`, `"workdir": "../.."`).
 */
export const prepareValues = (spec: CommandSpec, values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values }
  for (const [key, f] of Object.entries(spec.flags)) {
    if (f.kind !== "workdir") continue
    const given = out[key] as Option.Option<string> | string | undefined
    const flag = typeof given === "string" ? given : given === undefined ? undefined : Option.getOrUndefined(given)
    const found = discoverWorkdir(flag)
    if (found.source === "env" || found.source === "search") {
      const rel = relativeFromCwd(found.dir)
      if (rel !== ".") invocation.workdirShown = rel
    }
    out[key] = found.dir
  }
  return out
}
