/**
 * Whether a command line acts on a folder bound to a shared dossier, found as src/cli/Discover.ts
 * finds the work folder (`--workdir`, else `DOSSIER_WORKDIR`, else the upward search, else the
 * current directory). The loader (./bin.ts) asks it before it picks a bundle: a bound folder's
 * commands run over the store (src/commands/Bound.ts), which only the full bundle holds, so the
 * per-group bundles of unbound folders carry no database driver. node:fs and node:path only.
 */
import { isBoundFolder } from "../commands/Cwd.js"
import { searchUpward } from "./Search.js"

/** The value of a command line's flag `--<name>` (either form, the last one), if any. */
export const lastFlagValue = (argv: ReadonlyArray<string>, name: string): string | undefined => {
  const flag = `--${name}`
  let given: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === "--") break
    if (a === flag && i + 1 < argv.length) given = argv[++i]
    else if (a.startsWith(`${flag}=`)) given = a.slice(flag.length + 1)
  }
  return given
}

/** The work folder a command line acts on, as src/cli/Discover.ts finds it (a relative `--workdir` as given). */
export const workFolderOf = (
  argv: ReadonlyArray<string>,
  cwd: string = process.cwd(),
  env: Record<string, string | undefined> = process.env
): string => {
  const given = lastFlagValue(argv, "workdir")
  const fromEnv = env["DOSSIER_WORKDIR"]
  return given ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : searchUpward(cwd) ?? cwd)
}

export const actsOnBoundFolder = (
  argv: ReadonlyArray<string>,
  cwd: string = process.cwd(),
  env: Record<string, string | undefined> = process.env
): boolean => isBoundFolder(workFolderOf(argv, cwd, env))
