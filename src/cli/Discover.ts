/**
 * Finding the work folder when `--workdir` is not given (spec cli.md): `DOSSIER_WORKDIR` if set,
 * else the nearest folder from the current directory upward that holds a `.dossier/` directory
 * or a `plan.md` with a dossier section, as git finds `.git`. The search stops at another file
 * system (a different device) and at `/`; finding nothing means the current directory.
 * Light (node:fs and node:path only): it runs on the start-up path of every command.
 */
import * as Option from "effect/Option"
import { relativeFromCwd } from "../commands/Cwd.js"
import type { CommandSpec } from "../commands/Spec.js"
import { invocation } from "./Context.js"
import { searchUpward } from "./Search.js"

export { isWorkFolder, searchUpward } from "./Search.js"

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
    const rel = relativeFromCwd(found.dir)
    invocation.workdirUsed = rel
    if ((found.source === "env" || found.source === "search") && rel !== ".") invocation.workdirShown = rel
    out[key] = found.dir
  }
  return out
}
