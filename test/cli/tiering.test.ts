/**
 * Which command lines run without V8's optimizing compiler (src/cli/Tiering.ts): a `plan` command,
 * and `ingest --file` of a regular file under 1 MiB, found as the command finds it (a relative path
 * from the work folder); every other command line, and anything odd about the file, keeps V8's
 * defaults.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { OPTIMIZE_FROM_BYTES, optimizes } from "../../src/cli/Tiering.js"

const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-tiering-"))
  fs.mkdirSync(path.join(dir, ".dossier"))
  fs.writeFileSync(path.join(dir, "small.html"), "<p>a page</p>")
  fs.writeFileSync(path.join(dir, "edge.html"), Buffer.alloc(OPTIMIZE_FROM_BYTES - 1, 0x61))
  fs.writeFileSync(path.join(dir, "large.html"), Buffer.alloc(OPTIMIZE_FROM_BYTES, 0x61))
  fs.symlinkSync(path.join(dir, "small.html"), path.join(dir, "link.html"))
  fs.mkdirSync(path.join(dir, "pages.html"))
  return dir
}
const none = {}
const origin = ["--origin", "https://example.org/a"]

describe("optimizes", () => {
  it("turns the optimizing compiler off for ingest --file only of a regular file under 1 MiB", () => {
    const dir = folder()
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-tiering-"))
    const ingest = (...rest: ReadonlyArray<string>) => ["ingest", ...rest, ...origin]
    expect(optimizes(ingest("--file", "small.html", "--workdir", dir), other, none)).toBe(false)
    expect(optimizes(ingest(`--file=small.html`, `--workdir=${dir}`), other, none)).toBe(false)
    expect(optimizes(ingest("--file", path.join(dir, "small.html")), other, none)).toBe(false)
    expect(optimizes(ingest("--file", "edge.html", "--workdir", dir), other, none)).toBe(false)
    // The work folder as the CLI finds it: DOSSIER_WORKDIR, else the upward search.
    expect(optimizes(ingest("--file", "small.html"), other, { DOSSIER_WORKDIR: dir })).toBe(false)
    const below = path.join(dir, "research")
    fs.mkdirSync(below)
    expect(optimizes(ingest("--file", "small.html"), below, none)).toBe(false)
    // The last --file counts, as it does for the command.
    expect(optimizes(ingest("--file", "small.html", "--file", "large.html", "--workdir", dir), other, none)).toBe(true)

    expect(optimizes(ingest("--file", "large.html", "--workdir", dir), other, none)).toBe(true)
    expect(optimizes(ingest("--file", "link.html", "--workdir", dir), other, none)).toBe(true)
    expect(optimizes(ingest("--file", "pages.html", "--workdir", dir), other, none)).toBe(true)
    expect(optimizes(ingest("--file", "missing.html", "--workdir", dir), other, none)).toBe(true)
    expect(optimizes(ingest("--file", "", "--workdir", dir), other, none)).toBe(true)
    expect(optimizes(["ingest", "https://example.org/a", "--workdir", dir], other, none)).toBe(true)
    expect(optimizes(["ingest", "--workdir", dir, "--", "--file", "small.html"], other, none)).toBe(true)
    expect(optimizes(["source", "show", "--file", "small.html", "--workdir", dir], other, none)).toBe(true)
    expect(optimizes(["status", "--workdir", dir], other, none)).toBe(true)
  })

  it("turns it off for every plan command, in a plain or a bound folder alike", () => {
    const dir = folder()
    const bound = folder()
    fs.writeFileSync(path.join(bound, ".dossier", "store.json"), "{}")
    for (const workdir of [dir, bound]) {
      for (const command of ["start", "checkpoint", "inspect"]) {
        expect(optimizes(["plan", command, "--workdir", workdir, "--json"], workdir, none)).toBe(false)
      }
    }
    // The other groups keep it, bound or not.
    expect(optimizes(["journal", "append", "--workdir", bound], bound, none)).toBe(true)
    expect(optimizes(["status", "--workdir", bound], bound, none)).toBe(true)
  })
})
