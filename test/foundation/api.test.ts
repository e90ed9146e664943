/**
 * The public surface is checked in (api/dossier.api.md): a change to any exported name or type
 * fails here until the report is regenerated (`npm run api`) and the diff is reviewed.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

describe("API report", () => {
  it("api/dossier.api.md is the report of the current entry points (npm run api)", async () => {
    // In a child process: building the TypeScript program takes long enough to starve the test worker.
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["scripts/api-report.mjs", "--check"],
        { cwd: path.resolve(__dirname, "../..") },
        (error, _stdout, stderr) =>
          resolve({ code: error === null ? 0 : (error.code as number | undefined) ?? 1, stderr })
      )
    )
    expect(result, result.stderr).toEqual({ code: 0, stderr: "" })
  }, 240_000)

  it("shows a class's static members, as a library user calls them (Workdir.live, Workdir.fixed)", () => {
    const report = fs.readFileSync(path.resolve(__dirname, "../../api/dossier.api.md"), "utf8")
    const workdir = report.split("\n").find((line) => line.includes("class Workdir "))
    expect(workdir).toContain("static live: (dir: string) => Layer<Workdir, WorkdirNotFound, never>")
    expect(workdir).toContain("static fixed: (root: string) => Layer<Workdir, never, never>")
  })
})
