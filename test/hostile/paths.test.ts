/**
 * A file flag that names the work folder itself (`.`, `research/..`, the folder's own path) is a
 * directory where a file is expected, refused as such (`UnsafePath not-regular-file`, as any
 * other directory is), not said to be outside the folder. Through the built CLI.
 */
import { describe, expect, it } from "vitest"
import { leaksNothing, runCli, snapshot, tempWorkdir } from "../support/cli.js"

describe("a file flag naming the work folder itself", () => {
  it("--input ., research/.., the folder's own path and --state . are UnsafePath not-regular-file", () => {
    const dir = tempWorkdir()
    const before = snapshot(dir)
    for (
      const args of [
        ["journal", "append", "--study", "s", "--input", "."],
        ["journal", "append", "--study", "s", "--input", "research/.."],
        ["plan", "start", "--input", dir],
        ["gate", "--state", "."]
      ]
    ) {
      const r = runCli([...args, "--json"], { cwd: dir })
      expect(r.code, r.stdout).toBe(1)
      expect(r.json.error, args.join(" ")).toMatchObject({
        _tag: "UnsafePath",
        path: ".",
        reason: "not-regular-file",
        message: "Refused the path '.' (not-regular-file): it is not a regular file (a folder, FIFO, socket or device)."
      })
      expect(leaksNothing(dir, r)).toBe(true)
    }
    // A path above the folder stays outside it.
    expect(runCli(["journal", "append", "--study", "s", "--input", "..", "--json"], { cwd: dir }).json.error._tag)
      .toBe("InputOutsideWorkdir")
    expect(snapshot(dir)).toEqual(before)
  })
})
