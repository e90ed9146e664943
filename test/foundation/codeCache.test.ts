/**
 * The `dossier` loader (src/cli/bin.ts, src/cli/CodeCache.ts) and its code caches: a copy of the
 * built CLI answers the same whether the cache of the bundle it runs (`next`: the monitor's) is
 * valid, missing, damaged (bits flipped, which V8 notices only with the checksum the loader turns
 * on), made for another bundle or turned off; a missing or unusable cache is written again at
 * exit, and a turned-off one is left alone. A plan command, which runs without V8's optimizing
 * compiler, takes the cache it made on its next run.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { tempWorkdir } from "../support/cli.js"

const dist = path.resolve(__dirname, "../../dist")
// Inside the repository, so that the copy still finds node_modules (better-sqlite3) upwards.
const copy = fs.mkdtempSync(path.resolve(__dirname, "../../.test-tmp-"))
for (const f of fs.readdirSync(dist)) {
  if (/^dossier[\w.-]*\.(cjs|mjs|cache)$/.test(f) || f === "hash-worker.mjs") {
    fs.copyFileSync(path.join(dist, f), path.join(copy, f))
  }
}
const cache = path.join(copy, "dossier-monitor.cjs.cache")
const workdir = tempWorkdir()
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }))

const run = (env: Record<string, string> = {}, bin = "dossier.cjs") => {
  const r = spawnSync(process.execPath, [
    path.join(copy, bin),
    "next",
    "--workdir",
    workdir,
    "--now",
    "2026-01-01T00:00:00Z",
    "--json"
  ], {
    encoding: "utf8",
    env: { ...process.env, ...env }
  })
  return { status: r.status, signal: r.signal, stdout: r.stdout }
}

describe("code cache of the CLI", () => {
  const reference = run()

  it("answers with the cache the build wrote", () => {
    expect(reference.status).toBe(0)
    expect(JSON.parse(reference.stdout).ok).toBe(true)
  })

  it("answers the same through dist/dossier.mjs, the binary's earlier name", () => {
    expect(run({}, "dossier.mjs")).toStrictEqual(reference)
  })

  it("answers the same and writes the cache again when it is missing", () => {
    fs.rmSync(cache)
    expect(run()).toStrictEqual(reference)
    expect(fs.statSync(cache).size).toBeGreaterThan(64)
    expect(run()).toStrictEqual(reference)
  })

  it("ignores a cache with flipped bits or made for another bundle, and replaces it", () => {
    const good = fs.readFileSync(cache)
    const flipped = Buffer.from(good)
    for (let i = 4096; i < flipped.length; i += 8192) flipped[i] = flipped[i]! ^ 0xff
    fs.writeFileSync(cache, flipped)
    expect(run()).toStrictEqual(reference)
    const rewritten = fs.readFileSync(cache)
    expect(rewritten.equals(flipped)).toBe(false)
    expect(rewritten.subarray(0, 32).equals(good.subarray(0, 32))).toBe(true)
    // V8's checksum, not a chance: damage in the last bytes is noticed too.
    const tail = Buffer.from(good)
    tail[tail.length - 1] = tail[tail.length - 1]! ^ 0x01
    fs.writeFileSync(cache, tail)
    expect(run()).toStrictEqual(reference)
    expect(fs.readFileSync(cache).equals(tail)).toBe(false)

    const other = Buffer.from(good)
    other[0] = other[0]! ^ 0x01
    fs.writeFileSync(cache, other)
    expect(run()).toStrictEqual(reference)
    expect(fs.readFileSync(cache).subarray(0, 32).equals(good.subarray(0, 32))).toBe(true)

    fs.writeFileSync(cache, "short")
    expect(run()).toStrictEqual(reference)
  })

  it("keeps the cache of a command that runs without the optimizing compiler (plan)", () => {
    // The loader turns TurboFan off for such a command once the bundle is compiled (src/cli/Tiering.ts):
    // its cache is made and read under the same flags as any other, so the next run takes it as it is.
    const planCache = path.join(copy, "dossier-plan.cjs.cache")
    const plan = () =>
      spawnSync(process.execPath, [path.join(copy, "dossier.cjs"), "plan", "inspect", "--workdir", workdir, "--json"], {
        encoding: "utf8"
      })
    fs.rmSync(planCache, { force: true })
    const first = plan()
    const made = fs.statSync(planCache)
    const second = plan()
    expect(second.stdout).toBe(first.stdout)
    expect(fs.statSync(planCache).ino).toBe(made.ino)
    expect(fs.statSync(planCache).mtimeMs).toBe(made.mtimeMs)
  })

  it("neither reads nor writes the cache with DOSSIER_CODE_CACHE=0", () => {
    fs.rmSync(cache)
    expect(run({ DOSSIER_CODE_CACHE: "0" })).toStrictEqual(reference)
    expect(fs.existsSync(cache)).toBe(false)
    fs.writeFileSync(cache, "not a cache")
    expect(run({ DOSSIER_CODE_CACHE: "0" })).toStrictEqual(reference)
    expect(fs.readFileSync(cache, "utf8")).toBe("not a cache")
  })
})
