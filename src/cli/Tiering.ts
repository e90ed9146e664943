/**
 * Whether a command line runs with V8's optimizing compiler (TurboFan). The loader (./bin.ts)
 * asks it once the bundle is compiled; node:fs and node:path only.
 *
 * A `plan` command runs without it: it reads and writes one record of bounded size (the plan,
 * `PLAN_LIMITS`) and exits, so no function of it runs long enough for optimized code to pay. In
 * a bound folder TurboFan compiled the driver's and the runtime's hot functions on its background
 * thread, beside the command and the server on two cores: of a bound `plan checkpoint`, ~40
 * million instructions of the process's ~915 million (a plain folder's, ~2 million of ~712
 * million; docs/performance.md, "Shared store").
 *
 * `ingest --file` of a page under 1 MiB runs without it. In a process that reads one such page
 * and exits, TurboFan compiles the extractor's hot functions on a background thread for code that
 * then runs a few milliseconds: of a fresh `ingest --file` of the median page of the article set
 * (95 KB), ~90 million instructions and ~5 MiB of memory touched for the first time (1,300 page
 * faults), a sixth of the process's CPU time, which the optimized code never wins back. A larger
 * page is parsed long enough for it to pay: a 1.6 MB page took ~25% more CPU without it, a 1 MB
 * page the same (docs/performance.md). Every other command line, and `ingest` of a URL (whose
 * size is known only once fetched), keeps V8's defaults.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { lastFlagValue, workFolderOf } from "./BoundProbe.js"

/** A saved page of at least this many bytes is read with the optimizing compiler. */
export const OPTIMIZE_FROM_BYTES = 1024 * 1024

export const optimizes = (
  argv: ReadonlyArray<string>,
  cwd: string = process.cwd(),
  env: Record<string, string | undefined> = process.env
): boolean => {
  if (argv[0] === "plan") return false
  if (argv[0] !== "ingest") return true
  const file = lastFlagValue(argv, "file")
  if (file === undefined || file === "") return true
  try {
    // The command itself checks the path (inside the work folder, no link, a regular file): this
    // only reads the size of what it names, and anything odd keeps the defaults.
    const st = fs.lstatSync(path.resolve(cwd, workFolderOf(argv, cwd, env), file))
    return !(st.isFile() && st.size < OPTIMIZE_FROM_BYTES)
  } catch {
    return true
  }
}
