/**
 * bench/startup.ts's floor: the two programs scripts/build-floor.mjs builds from bench/floor/ as
 * CLI bundles, run through the CLI's loader (src/cli/CodeCache.ts) with a code cache their first
 * run writes and later runs read; and the rows that show a command against it.
 */
import { afterAll, describe, expect, it, vi } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { buildFloor } from "../../bench/startup.js"
import { printTable, record, rows, tempDir } from "../../bench/support.js"

const dir = tempDir("dossier-test-floor-")
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
const floor = buildFloor(dir)
const run = (args: ReadonlyArray<string>) =>
  spawnSync(process.execPath, [path.join(dir, "floor.cjs"), ...args], { encoding: "utf8" })
const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex")

describe("bench/startup: the floor of an Effect program", () => {
  it("runs the runtime alone, and one Schema decode of the JSON file it is given", () => {
    expect(JSON.parse(floor.runtime())).toStrictEqual({ ok: true, data: 2 })
    expect(JSON.parse(floor.schema())).toStrictEqual({ ok: true, data: { a: "floor" } })
  })

  it("decodes for real: a struct of the wrong shape fails the program", () => {
    fs.writeFileSync(path.join(dir, "bad.json"), JSON.stringify({ a: 1 }))
    const r = run(["schema", path.join(dir, "bad.json")])
    expect(r.status).toBe(1)
    expect(r.stderr).toContain("Expected string, actual 1")
  })

  it("starts through the CLI's code cache: written by the first run for this very bundle, read after", () => {
    for (const program of ["runtime", "schema"]) {
      const bundle = path.join(dir, `floor-${program}.cjs`)
      const cache = fs.readFileSync(`${bundle}.cache`)
      expect(cache.subarray(0, 32).toString("hex")).toBe(sha256(bundle))
      const before = fs.statSync(`${bundle}.cache`).mtimeMs
      // V8 reports a cache it refuses (and reads Node's own); an accepted one is not written again at exit.
      const r = spawnSync(
        process.execPath,
        ["--profile-deserialization", path.join(dir, "floor.cjs"), program, path.join(dir, "floor-input.json")],
        { encoding: "utf8" }
      )
      expect(r.status).toBe(0)
      expect(r.stdout).not.toContain("Cached code failed check")
      // V8 read the whole cache (its size less the header of the bundle's SHA-256).
      expect(r.stdout).toContain(`[Deserializing from ${cache.length - 32} bytes took`)
      expect(fs.statSync(`${bundle}.cache`).mtimeMs).toBe(before)
    }
  })

  it("builds from any working folder (the programs are found from the script's own place)", () => {
    const out = fs.mkdtempSync(path.join(dir, "elsewhere-"))
    const r = spawnSync(process.execPath, [path.resolve("scripts/build-floor.mjs"), out], {
      cwd: out,
      encoding: "utf8"
    })
    expect(r.status, r.stderr).toBe(0)
    expect(fs.readdirSync(out).sort()).toStrictEqual(["floor-runtime.cjs", "floor-schema.cjs", "floor.cjs"])
    const answer = spawnSync(process.execPath, [path.join(out, "floor.cjs"), "runtime"], { encoding: "utf8" })
    expect(JSON.parse(answer.stdout)).toStrictEqual({ ok: true, data: 2 })
  })

  it("refuses a program it does not know", () => {
    const r = run(["nothing"])
    expect(r.status).not.toBe(0)
    expect(r.stderr).toContain("no floor program 'nothing'")
  })
})

describe("bench/support: a row measured with the floor", () => {
  it("prints the row's ratio to the baseline and to the floor, and the table's floor columns", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    try {
      rows.length = 0
      record({ name: "bare", ms: 50, baseline: "node -e 0", baselineMs: 100 })
      record({
        name: "cmd",
        ms: 180,
        baseline: "node -e 0",
        baselineMs: 100,
        target: 1.5,
        floor: { name: "floor (runtime + Schema)", ms: 150 }
      })
      printTable()
      const out = log.mock.calls.map((c) => String(c[0]))
      expect(out[1]).toBe(
        "  cmd: 180.0 ms vs node -e 0 100.0 ms = 1.80x (target <= 1.5x: MISSED); floor (runtime + Schema) 150.0 ms = 1.50x node -e 0, 1.20x the floor (30.0 ms above it)"
      )
      expect(out).toContain("| cmd | 180.0 | node -e 0 | 100.0 | 1.80x | <= 1.5x MISSED | 150.0 | 1.20x |")
      expect(out).toContain("| bare | 50.0 | node -e 0 | 100.0 | 0.50x |  |  |  |")
    } finally {
      rows.length = 0
      log.mockRestore()
    }
  })
})
