/**
 * `npm run demo`, the README's second command, runs to its end against the built CLI: every step
 * exits as the demo means it to (a refusal it shows exits 1, every other step 0), and a step
 * that answers otherwise stops it (scripts/demo/support.ts). It broke once unnoticed when
 * `plan checkpoint` began to refuse an origin that is not an http(s) URL.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as path from "node:path"

const root = path.resolve(__dirname, "../..")

describe("npm run demo", () => {
  it("runs every step of the narrated flow and finishes", () => {
    const r = spawnSync(process.execPath, ["scripts/run-ts.mjs", "scripts/demo.ts"], {
      cwd: root,
      encoding: "utf8",
      timeout: 240_000
    })
    expect(r.stderr).toBe("")
    expect(r.status).toBe(0)
    expect(r.stdout).toContain("\ndemo finished.")
    for (const step of ["== plan ==", "== ingest ==", "== journal ==", "== gate ==", "== monitor =="]) {
      expect(r.stdout).toContain(step)
    }
    // The refusals it shows, and nothing else, exit 1.
    expect(r.stdout.match(/\(exit 1\)/g)).toHaveLength(4)
    expect(r.stdout).not.toMatch(/\(exit (?![01]\))/)
  }, 300_000)
})
