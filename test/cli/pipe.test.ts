/** A reader that closes the pipe early (`dossier … | head`) gets no stack trace and no defect. */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { CLI, put, putInput, runCli, tempWorkdir } from "../support/cli.js"

describe("closed stdout", () => {
  it("stops quietly when the reader goes away", async () => {
    const dir = tempWorkdir()
    expect(
      runCli([
        "plan",
        "start",
        "--workdir",
        dir,
        "--input",
        putInput(dir, "s.json", { goal: "g", limits: [], nextAction: "n" }),
        "--json"
      ]).code
    ).toBe(0)
    // A large answer (more than a pipe buffer): 64 completed steps with long summaries.
    put(
      dir,
      "research/inputs/big.json",
      JSON.stringify({ completedSteps: Array.from({ length: 60 }, (_, i) => ({ summary: `${i} ${"x".repeat(900)}` })) })
    )
    expect(
      runCli([
        "plan",
        "checkpoint",
        "--workdir",
        dir,
        "--input",
        "research/inputs/big.json",
        "--expected",
        "1",
        "--json"
      ]).code
    ).toBe(0)
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, "plan", "inspect", "--workdir", dir, "--json"])
      let stderr = ""
      child.stderr.on("data", (d) => (stderr += d))
      // Close the read end before the answer is written: every write then meets EPIPE.
      child.stdout.destroy()
      child.on("close", (code) => resolve({ code, stderr }))
    })
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(result.stderr).not.toContain("EPIPE")
    expect(result.code).toBe(0)
  })
})
