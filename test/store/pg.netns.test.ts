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
import { CLI } from "../support/cli.js"
import { type Hosts, makeHosts, netnsAvailable } from "../support/netns.js"
import { adminQuery, openTestDatabase, pgAvailable, type TestDatabase } from "../support/postgres.js"
import { NOW } from "./support/populated.js"
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
  /** Run the built CLI in host `i`'s namespace (`--json` added); the answer's JSON. */
  const cliOn = (i: number, args: ReadonlyArray<string>): Promise<any> => {
    const [cmd, argv] = hosts.hosts[i]!.wrap([process.execPath, CLI, ...args, "--json"])
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, argv, { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      let err = ""
      child.stdout.on("data", (d) => (out += d))
      child.stderr.on("data", (d) => (err += d))
      child.on("close", () => {
        try {
          resolve(JSON.parse(out))
        } catch {
          reject(new Error(`dossier answered ${JSON.stringify(out)} ${err}`))
        }
      })
    })
  }

  it(
    "the CLI from three hosts' folders bound to one dossier: one checkpoint winner, each event once, one run per window, one retained copy",
    async () => {
      const dossier = "hosts-cli"
      const folders = hosts.hosts.map((_, i) => fs.mkdtempSync(path.join(dir, `host${i}-`)))
      const on = (i: number, args: ReadonlyArray<string>) => cliOn(i, [...args, "--workdir", folders[i]!])
      const input = (i: number, name: string, value: unknown) => {
        fs.writeFileSync(path.join(folders[i]!, name), JSON.stringify(value))
        return name
      }
      // Each host binds its own folder over its own link.
      for (const [i, h] of hosts.hosts.entries()) {
        const bound = await on(i, ["init", "--store", urlOn(h.serverAddress), "--dossier", dossier])
        expect(bound.ok, JSON.stringify(bound)).toBe(true)
      }
      const started = await on(0, [
        "plan",
        "start",
        "--input",
        input(0, "start.json", { goal: "G", limits: [], nextAction: "n" }),
        "--now",
        NOW
      ])
      expect(started).toMatchObject({ ok: true, revision: 1 })

      // Racing checkpoints at revision 1 from every host: one winner.
      const checkpoints = await Promise.all(
        hosts.hosts.map((_, i) =>
          on(i, [
            "plan",
            "checkpoint",
            "--input",
            input(i, "cp.json", { nextAction: `host ${i}` }),
            "--expected",
            "1",
            "--now",
            NOW
          ])
        )
      )
      expect(checkpoints.filter((a) => a.ok).map((a) => a.revision)).toEqual([2])
      expect(checkpoints.filter((a) => !a.ok).map((a) => a.error._tag)).toEqual(["StaleRevision", "StaleRevision"])

      // The same batch from every host: each event once.
      const events = [
        { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "A" } },
        { id: "c2", type: "candidate_created", candidate: { id: "cand-b", title: "B" } }
      ]
      const appends = await Promise.all(
        hosts.hosts.map((_, i) => on(i, ["journal", "append", "--study", "s", "--input", input(i, "j.json", events)]))
      )
      for (const a of appends) expect(a.ok, JSON.stringify(a)).toBe(true)
      const stored = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = $1 AND log = 'journal'",
        [dossier]
      )
      expect(stored.rows[0]!.n).toBe(2)

      // create-due-run from every host: one run for the window.
      const subscription = await on(0, [
        "monitor",
        "create-subscription",
        "--input",
        input(0, "sub.json", {
          id: "weekly",
          kind: "literature",
          target: "t",
          scope: {},
          budget: { maxSources: 5, maxMinutes: 10 },
          cadence: { every: 1, unit: "week" },
          timezone: "UTC",
          anchor: "2026-12-01T09:00"
        }),
        "--now",
        "2026-11-30T10:00:00Z"
      ])
      expect(subscription.ok, JSON.stringify(subscription)).toBe(true)
      const runs = await Promise.all(
        hosts.hosts.map((_, i) =>
          on(i, [
            "monitor",
            "create-due-run",
            "--input",
            input(i, "due.json", { subscriptionId: "weekly" }),
            "--now",
            "2026-12-02T10:00:00Z"
          ])
        )
      )
      for (const r of runs) expect(r.ok, JSON.stringify(r)).toBe(true)
      expect(new Set(runs.map((r) => r.run.id)).size).toBe(1)
      expect(runs.filter((r) => r.created === true)).toHaveLength(1)
      const rows = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.records WHERE dossier = $1 AND kind = 'run'",
        [dossier]
      )
      expect(rows.rows[0]!.n).toBe(1)

      // The same page captured on two hosts: one retained copy of its bytes.
      const page =
        "<html><head><title>P</title></head><body><main><p>Same bytes on every host.</p></main></body></html>"
      const captures = []
      for (const i of [1, 2]) {
        fs.writeFileSync(path.join(folders[i]!, "page.html"), page)
        captures.push(
          await on(i, ["ingest", "--file", "page.html", "--origin", "https://example.org/same", "--now", NOW])
        )
      }
      for (const c of captures) expect(c.ok, JSON.stringify(c)).toBe(true)
      const digest = createHash("sha256").update(page).digest("hex")
      const copies = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.content WHERE dossier = $1 AND sha256 = $2",
        [dossier, digest]
      )
      expect(copies.rows[0]!.n).toBe(1)
    },
    240_000
  )
})
