/**
 * Many hosts, one shared dossier: processes in three network namespaces (test/support/netns.ts)
 * reach the test's cluster over their own veth; racing checkpoints from all three have one
 * winner; a host whose link is cut mid-command answers StoreUnavailable within its deadline and
 * leaves nothing half written; once the link is back, the same command succeeds.
 */
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Hosts, makeHosts, netnsAvailable } from "../support/netns.js"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"
import { bundleWorker } from "./support/workers.js"

interface Answer {
  readonly ok: boolean
  readonly value?: unknown
  readonly tag?: string
  readonly error?: { readonly reason?: string }
}

const external = process.env.DOSSIER_TEST_PG !== undefined && process.env.DOSSIER_TEST_PG !== ""

describe.skipIf(!pgAvailable || !netnsAvailable || external)("many hosts (network namespaces)", () => {
  let hosts: Hosts
  let db: TestDatabase
  let dir: string
  let worker: string
  beforeAll(async () => {
    hosts = makeHosts(3, 40)
    db = await openTestDatabase({
      listen: hosts.hosts.map((h) => h.serverAddress),
      clients: hosts.hosts.map((h) => h.clientAddress)
    })
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-netns-"))
    worker = await bundleWorker("pgWorker", dir)
  })
  afterAll(async () => {
    await db?.close()
    hosts?.remove()
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true })
  })

  const urlOn = (address: string) => {
    const u = new URL(db.url)
    u.hostname = address
    return u.toString()
  }

  /** Run the worker in host `i`'s namespace; `onLine` sees each line it prints. */
  const runOn = (i: number, job: object, onLine: (line: string) => void = () => {}): Promise<Answer> => {
    const [cmd, args] = hosts.hosts[i]!.wrap([process.execPath, worker, JSON.stringify(job)])
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      let err = ""
      child.stdout.on("data", (d: Buffer) => {
        const before = out.split("\n").length - 1
        out += d
        const lines = out.split("\n")
        for (const line of lines.slice(before, lines.length - 1)) onLine(line)
      })
      child.stderr.on("data", (d) => (err += d))
      child.on("close", () => {
        try {
          resolve(JSON.parse(out.trim().split("\n").pop()!))
        } catch {
          reject(new Error(`worker answered ${JSON.stringify(out)} ${err}`))
        }
      })
    })
  }

  const batch = ["one", "two", "three"].map((event, i) => ({
    id: `e${i}`,
    digest: createHash("sha256").update(JSON.stringify(event)).digest("hex"),
    event
  }))

  it(
    "each host reaches the cluster over its own link, and racing checkpoints from all of them have one winner",
    async () => {
      const dossier = "hosts-cas"
      const first = await runOn(0, {
        url: urlOn(hosts.hosts[0]!.serverAddress),
        dossier,
        op: "checkpoint",
        startAt: 0,
        expected: null,
        value: "r1"
      })
      expect(first).toEqual({ ok: true, value: 1 })
      const startAt = Date.now() + 3_000
      const answers = await Promise.all(
        hosts.hosts.map((h, i) =>
          runOn(i, { url: urlOn(h.serverAddress), dossier, op: "checkpoint", startAt, expected: 1, value: `host ${i}` })
        )
      )
      expect(answers.filter((a) => a.ok)).toEqual([{ ok: true, value: 2 }])
      expect(answers.filter((a) => !a.ok).map((a) => a.tag)).toEqual(["StaleRevision", "StaleRevision"])
      // One row, at revision 2: the winner's.
      const seen = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.records WHERE dossier = $1 AND revision = 2",
        [dossier]
      )
      expect(seen.rows[0]!.n).toBe(1)
    },
    120_000
  )

  it(
    "a host whose link goes down mid-command answers StoreUnavailable within its deadline; nothing of it is stored; with the link back the command succeeds",
    async () => {
      const dossier = "hosts-cut"
      const host = hosts.hosts[1]!
      const goFile = path.join(dir, "go")
      const job = {
        url: urlOn(host.serverAddress),
        dossier,
        op: "hold",
        startAt: 0,
        batch,
        goFile,
        connectTimeoutMs: 1_000,
        statementTimeoutMs: 1_000,
        deadlineMs: 4_000
      }
      let cutAt = 0
      const answer = await runOn(1, job, (line) => {
        if (line !== "held") return
        host.linkDown()
        cutAt = Date.now()
        fs.writeFileSync(goFile, "")
      })
      const took = Date.now() - cutAt
      expect(cutAt).toBeGreaterThan(0)
      expect(answer.tag, JSON.stringify(answer)).toBe("StoreUnavailable")
      // The deadline (4 s) and the rollback's own read timeout (3 s), with room for a loaded machine.
      expect(took).toBeLessThan(15_000)
      // The first append of the cut command was never committed.
      const during = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1", [
        dossier
      ])
      expect(during.rows[0]!.n).toBe(0)
      host.linkUp()
      fs.rmSync(goFile)
      const again = await runOn(1, { ...job, op: "append" })
      expect(again).toEqual({ ok: true, value: { appended: ["e0", "e1", "e2"], existing: [] } })
    },
    120_000
  )
})
