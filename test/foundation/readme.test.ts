/** The README's generated parts (area sections, error catalogue) must match the code. */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as path from "node:path"

describe("README", () => {
  it("is up to date with docs/ and the error catalogue (npm run docs)", () => {
    const root = path.resolve(__dirname, "../..")
    const r = spawnSync(process.execPath, ["scripts/run-ts.mjs", "scripts/docs.ts", "--check"], { cwd: root, encoding: "utf8" })
    expect(r.stderr + r.stdout).toContain("up to date")
    expect(r.status).toBe(0)
  })
})
