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
