/**
 * A confined run started over MCP (the official SDK client, the built server) is never left
 * unsupervised: cancelling the request ends the program and records the run `cancelled` at once,
 * a revocation kills a run in flight, and a client that goes away leaves the run recorded
 * `interrupted`. Needs bubblewrap (skipped loudly by ../exec/support.ts without it).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { processesWith, programRuns, sandboxWorks, waitForRunning, waitUntil } from "../exec/support.js"
import { put, runCli, tempWorkdir } from "../support/cli.js"
import { connect, type Connected, execGrant } from "./support.js"

const grantInput = { ...execGrant, budget: { ...execGrant.budget, wallSeconds: 120 } }

const recordOf = (dir: string, id: string) => {
  const p = path.join(dir, ".dossier/executions", `${id}.json`)
  return fs.existsSync(p) ? JSON.parse(fs.readFileSync(p, "utf8")) : undefined
}

/** Poll until `f` gives a value (or `ms` pass). */
const within = async <A>(ms: number, f: () => A | undefined): Promise<A | undefined> => {
  const end = Date.now() + ms
  for (;;) {
    const v = f()
    if (v !== undefined || Date.now() > end) return v
    await new Promise((r) => setTimeout(r, 100))
  }
}

let server: Connected | undefined

afterEach(async () => {
  await server?.client.close()
  server = undefined
})

const start = async () => {
  const dir = tempWorkdir("dossier-mcp-cancel-")
  put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
  server = await connect(dir)
  const created = await server.call("grant_create", { input: grantInput })
  expect(created.isError, created.text).toBe(false)
  return dir
}

describe.skipIf(!sandboxWorks)("interrupting a run over MCP", () => {
  it(
    "notifications/cancelled ends the program and the run is recorded `cancelled` promptly; the grant goes on",
    async () => {
      const dir = await start()
      const ac = new AbortController()
      const call = server!.client.callTool(
        { name: "exec", arguments: { grant: "g1", program: ["sleep", "25.25"] } },
        undefined,
        {
          signal: ac.signal,
          timeout: 60_000
        }
      ).then(() => "answered", () => "rejected")
      const id = await waitForRunning(dir)
      await waitUntil("the program runs", () => programRuns(["sleep", "25.25"]))
      const cancelledAt = Date.now()
      ac.abort("the agent changed its mind")
      expect(await call).toBe("rejected")
      // Promptly: the program is gone within seconds of the cancel (SIGTERM, SIGKILL 2 s later).
      expect(await within(8000, () => (processesWith("25.25").length === 0 ? true : undefined))).toBe(true)
      expect(Date.now() - cancelledAt).toBeLessThan(8000)
      // The record is written durably (fsync), which on a machine busy writing elsewhere (the
      // suite's other worker fills a work root with 100,001 files) can wait on the disk for a while.
      const record = await within(30_000, () => recordOf(dir, id))
      expect(record).toMatchObject({ status: "cancelled", detail: expect.stringContaining("cancelled") })
      expect(record.wallSeconds).toBeLessThan(10)
      expect(processesWith("25.25")).toEqual([])
      // Charged what it used: the grant still has most of its wall time, and the server still serves.
      const shown = await server!.call("grant_show", { grant: "g1" })
      expect(shown.body.remaining.wallSeconds).toBeGreaterThan(100)
      const next = await server!.call("exec", { grant: "g1", program: ["true"] })
      expect(next.body.execution, next.text).toMatchObject({ status: "exited", exitCode: 0 })
    },
    60_000
  )

  it(
    "`grant revoke` kills a running program itself, even while the server that started it is stopped; the run is recorded killed: revoked",
    async () => {
      const dir = await start()
      const call = server!.call("exec", { grant: "g1", program: ["sleep", "26.25"] })
      await waitForRunning(dir)
      await waitUntil("the program runs", () => programRuns(["sleep", "26.25"]))
      // The server (and its watchdog) cannot act: only the revocation itself can end the program.
      const pid = server!.transport.pid!
      process.kill(pid, "SIGSTOP")
      try {
        const revoked = runCli(["grant", "revoke", "--grant", "g1", "--workdir", dir, "--json"])
        expect(revoked.code).toBe(0)
        expect(await within(1500, () => (processesWith("26.25").length === 0 ? true : undefined))).toBe(true)
      } finally {
        process.kill(pid, "SIGCONT")
      }
      const answer = await call
      expect(answer.body.execution, answer.text).toMatchObject({ status: "killed", reason: "revoked" })
      expect(answer.body.execution.wallSeconds).toBeLessThan(20)
    },
    60_000
  )

  it("a client that goes away leaves the run recorded `interrupted` and the program dead", async () => {
    const dir = await start()
    void server!.client.callTool({ name: "exec", arguments: { grant: "g1", program: ["sleep", "27.25"] } }, undefined, {
      timeout: 60_000
    }).catch(() => undefined)
    const id = await waitForRunning(dir)
    await waitUntil("the program runs", () => programRuns(["sleep", "27.25"]))
    // The client goes away: the server's stdin ends. (The SDK's close() also SIGKILLs a server still
    // there 4 s later, a host's choice that a loaded machine can reach before the run is recorded;
    // such a run is recorded `lost` by the next command, charged its limits.)
    const child =
      (server!.transport as unknown as { _process?: { stdin?: { end: () => void }; exitCode: number | null } })._process
    child!.stdin!.end()
    // The program ends at once; the record (written durably) and the server's exit may wait on a busy disk.
    expect(await within(8000, () => (processesWith("27.25").length === 0 ? true : undefined))).toBe(true)
    const record = await within(30_000, () => recordOf(dir, id))
    expect(await within(30_000, () => (child!.exitCode !== null ? true : undefined))).toBe(true)
    expect(record).toMatchObject({ status: "interrupted", detail: expect.stringContaining("disconnected") })
    expect(processesWith("27.25")).toEqual([])
  }, 60_000)
})
