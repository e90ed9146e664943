/**
 * `dossier mcp` in a bound folder while the server is frozen (the postmaster and its backends
 * stopped with SIGSTOP: the kernel still accepts a TCP connection, nothing answers): a tool call
 * that must open a connection answers `StoreUnavailable` within one connect timeout (5 s), not
 * two. A refused call used to be followed by the server's look for new resources, which in a
 * bound folder asks the store again and waited out a second connect timeout before the answer
 * went out (10 s). Against the test's own throwaway cluster (skipped on `DOSSIER_TEST_PG`, whose
 * server the test may not stop); the official MCP client drives the server.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { connect } from "../mcp/support.js"
import { putInput, runCli, tempWorkdir } from "../support/cli.js"
import { pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok } from "./support/populated.js"

const external = (process.env.DOSSIER_TEST_PG ?? "") !== ""

/** Signal the cluster's postmaster and its children (`STOP` or `CONT`). */
const signalCluster = (dir: string, signal: "SIGSTOP" | "SIGCONT") => {
  const postmaster = Number(fs.readFileSync(path.join(dir, "data", "postmaster.pid"), "utf8").split("\n")[0])
  const children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], { encoding: "utf8" })
    .split("\n")
    .map((l) => Number(l.trim()))
    .filter((p) => p > 0)
  for (const pid of [postmaster, ...children]) {
    try {
      process.kill(pid, signal)
    } catch {
      // A backend that ended meanwhile.
    }
  }
}

describe.skipIf(!pgAvailable || external)("dossier mcp in a bound folder, the server frozen", () => {
  const db = useTestDatabase()

  it("a call that must connect answers StoreUnavailable within one connect timeout", async () => {
    const dir = tempWorkdir("dossier-mcp-frozen-")
    ok(runCli(["init", "--store", db.url, "--dossier", "frozen", "--workdir", dir, "--json"]))
    ok(runCli([
      "plan",
      "start",
      "--input",
      putInput(dir, "s.json", { goal: "A goal", limits: [], nextAction: "go" }),
      "--now",
      NOW,
      "--workdir",
      dir,
      "--json"
    ]))
    const clusterDir = db.cluster!.dir!
    const server = await connect(dir)
    try {
      expect((await server.call("plan_inspect")).body).toMatchObject({ ok: true, revision: 1 })
      // The pool closes a connection idle for 10 s: the next call opens a new one.
      await new Promise((resolve) => setTimeout(resolve, 11_000))
      signalCluster(clusterDir, "SIGSTOP")
      let elapsed: number
      let call: Awaited<ReturnType<typeof server.call>>
      try {
        const started = Date.now()
        call = await server.call("journal_list")
        elapsed = Date.now() - started
      } finally {
        signalCluster(clusterDir, "SIGCONT")
      }
      expect({ isError: call.isError, tag: call.body?.error?._tag, reason: call.body?.error?.reason }, call.text)
        .toEqual({ isError: true, tag: "StoreUnavailable", reason: "no connection within the connect timeout" })
      // One connect timeout (5 s) and the call's own work; two were at least 10 s.
      expect(elapsed).toBeGreaterThanOrEqual(4_500)
      expect(elapsed).toBeLessThan(9_000)
      // The server thawed, the same server serves again.
      expect((await server.call("plan_inspect")).body).toMatchObject({ ok: true, revision: 1 })
    } finally {
      await server.client.close()
    }
  }, 120_000)
})
