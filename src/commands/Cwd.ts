/** Light (node:fs and node:path only): on the start-up path of every command. */
import * as fs from "node:fs"
import * as path from "node:path"

/** A folder relative to the current directory, with `/` ("." for the current directory itself). */
export const relativeFromCwd = (dir: string, cwd: string = process.cwd()): string => {
  let a = path.resolve(cwd, dir)
  let c = cwd
  try {
    a = fs.realpathSync(a)
    c = fs.realpathSync(cwd)
  } catch {
    // compare as given
  }
  const rel = path.relative(c, a)
  return rel === "" ? "." : rel.split(path.sep).join("/")
}

/**
 * Whether the folder `dir` is bound to a shared store: it holds `.dossier/store.json` (a plain
 * check on the start-up path; the binding itself is read and checked when the store is reached,
 * src/layers/BindingFile.ts). Anything at that name counts: a symlink or a directory there is
 * refused by the reader (`UnsafePath`), never taken for an unbound folder whose commands would
 * then run on the folder in silence.
 */
export const isBoundFolder = (dir: string): boolean => {
  try {
    fs.lstatSync(path.join(dir, ".dossier", "store.json"))
    return true
  } catch {
    return false
  }
}

/**
 * The commands that run as they are in a bound folder: those that manage the binding itself
 * (`init`, `store status`, `pull`, `export`), `schema` (which reads nothing), `mcp` (which binds
 * its services itself), and the plain folder's journal commands (`journal rebuild`,
 * `recover-tail`, `import`), which refuse a bound folder from its binding alone
 * (./journal.impl.ts): no server is reached for that refusal, so it is the same whether the
 * server is up or not, and nothing is written there. Every other command runs over the shared
 * dossier (./Bound.ts).
 */
const AS_THEY_ARE = new Set([
  "init",
  "store status",
  "pull",
  "export",
  "schema",
  "mcp",
  "journal rebuild",
  "journal recover-tail",
  "journal import"
])

/** Whether the command (by its path, `["plan", "inspect"]`) runs over the shared dossier in a bound folder. */
export const runsOnStore = (path: ReadonlyArray<string>): boolean => !AS_THEY_ARE.has(path.join(" "))
