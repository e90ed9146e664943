/**
 * Whether a command line acts on a folder bound to a shared dossier, found as src/cli/Discover.ts
 * finds the work folder (`--workdir`, else `DOSSIER_WORKDIR`, else the upward search, else the
 * current directory). The loader (./bin.ts) asks it before it picks a bundle: a bound folder's
 * commands run over the store (src/commands/Bound.ts), which only the full bundle holds, so the
 * per-group bundles of unbound folders carry no database driver. node:fs and node:path only.
 */
import { isBoundFolder } from "../commands/Cwd.js"
import { searchUpward } from "./Search.js"

/** The `--workdir` a command line gives (the last one), if any. */
const givenWorkdir = (argv: ReadonlyArray<string>): string | undefined => {
  let given: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === "--") break
    if (a === "--workdir" && i + 1 < argv.length) given = argv[++i]
    else if (a.startsWith("--workdir=")) given = a.slice("--workdir=".length)
  }
  return given
}

export const actsOnBoundFolder = (
  argv: ReadonlyArray<string>,
  cwd: string = process.cwd(),
  env: Record<string, string | undefined> = process.env
): boolean => {
  const given = givenWorkdir(argv)
  const fromEnv = env["DOSSIER_WORKDIR"]
  const dir = given ?? (fromEnv !== undefined && fromEnv !== "" ? fromEnv : searchUpward(cwd) ?? cwd)
  return isBoundFolder(dir)
}
