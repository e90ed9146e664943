/**
 * The in-process test project (vitest.config.ts) runs its files one after another in a shared
 * worker; its set-up (test/support/inProcessGuard.ts, test/support/threadGuard.ts) fails a test that starts a process or a
 * worker, handles a signal or changes the working directory there, whatever the way it reaches
 * the module.
 */
import { describe, expect, it } from "@effect/vitest"
import * as childProcess from "node:child_process"
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { promisify } from "node:util"
import { Worker } from "node:worker_threads"

describe("the in-process test project", () => {
  it("refuses to start a process, through an import or a require", () => {
    expect(() => spawnSync(process.execPath, ["-e", "0"])).toThrow(/in-process test project/)
    expect(() => childProcess.execFileSync(process.execPath, ["-e", "0"])).toThrow(/in-process test project/)
    const required = createRequire(import.meta.url)("node:child_process") as typeof childProcess
    expect(() => required.spawn(process.execPath, ["-e", "0"])).toThrow(/in-process test project/)
    expect(() => promisify(childProcess.execFile)(process.execPath, ["-e", "0"])).toThrow(/in-process test project/)
  })

  it("refuses a worker thread, a signal handler and a change of directory", () => {
    expect(() => new Worker("0", { eval: true })).toThrow(/in-process test project/)
    expect(() => process.on("SIGTERM", () => {})).toThrow(/in-process test project/)
    expect(() => process.once("SIGINT", () => {})).toThrow(/in-process test project/)
    expect(() => process.chdir("/")).toThrow(/in-process test project/)
    // Other events are still heard.
    const listener = () => {}
    process.on("warning", listener)
    process.off("warning", listener)
  })
})
