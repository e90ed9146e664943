/**
 * The house's rule on long files (docs/development.md): a source, test, bench or script file over
 * 400 lines says why in its header comment, in a line that begins `Over 400 lines:` (or `Over 400 lines on purpose:`). Data files
 * (fixtures, recordings) hold no comments and are not counted.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"

const root = path.resolve(__dirname, "../..")
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/
const REASON = /^\s*(?:\*|\/\/)\s*Over 400 lines\b[^:\n]*: \S/m

const codeFiles = (dir: string): ReadonlyArray<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === "node_modules" || p === path.join(root, "test/fixtures") ? [] : codeFiles(p)
    return CODE.test(e.name) ? [p] : []
  })

describe("long files", () => {
  it("every code file over 400 lines says why in an `Over 400 lines:` line", () => {
    const files = ["src", "test", "bench", "scripts"].flatMap((d) => codeFiles(path.join(root, d)))
    expect(files.length).toBeGreaterThan(100)
    const unexplained = files.flatMap((file) => {
      const text = fs.readFileSync(file, "utf8")
      const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0)
      return lines > 400 && !REASON.test(text) ? [`${path.relative(root, file)} (${lines} lines)`] : []
    })
    expect(unexplained).toEqual([])
  })
})
