/**
 * The shared test project (vitest.config.ts) runs files that start processes one after another in
 * a shared worker thread; its set-up (test/support/sharedGuard.ts) lets a file start a process but
 * fails a test that starts a worker thread, handles a signal or changes the working directory.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile, spawnSync } from "node:child_process"
import { promisify } from "node:util"
import { Worker } from "node:worker_threads"

describe("the shared test project", () => {
  it("starts a process, through its promisified form too", async () => {
    expect(spawnSync(process.execPath, ["-e", "process.stdout.write('ran')"]).stdout.toString()).toBe("ran")
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", "process.stdout.write('ran')"])
    expect(stdout).toBe("ran")
  })

  it("refuses a worker thread, a signal handler and a change of directory", () => {
    expect(() => new Worker("0", { eval: true })).toThrow(/shared test project/)
    expect(() => process.on("SIGTERM", () => {})).toThrow(/shared test project/)
    expect(() => process.once("SIGINT", () => {})).toThrow(/shared test project/)
    expect(() => process.chdir("/")).toThrow(/shared test project/)
  })
})
