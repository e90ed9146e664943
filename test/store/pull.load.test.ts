/**
 * `pull` under load: rows of several MB (a plan record whose prose is 5 MB, a journal event of
 * 6 MB, as a peer may write them) come through whole, byte for byte; and `pull` while another
 * host appends to the same study answers a consistent snapshot every time (the view's journal a
 * prefix of the dossier's, every event whole), the last pull bringing every event. Through the
 * built CLI against the test's own throwaway cluster (skipped with a note without the server
 * binaries).
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { putInput, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

const bind = (url: string, dossier: string) => {
  const dir = tempWorkdir("dossier-pull-load-")
  ok(runCli(["init", "--store", url, "--dossier", dossier, "--workdir", dir, "--json"]))
  return dir
}

const eventIds = (dir: string, study: string): Array<string> => {
  const file = path.join(dir, "research", study, "research-events.jsonl")
  if (!fs.existsSync(file)) return []
  return fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l).event.id as string)
}

describe.skipIf(!pgAvailable)("pull under load", () => {
  const db = useTestDatabase()

  it("a plan record with 5 MB of prose and a 6 MB journal event come through whole", async () => {
    const a = bind(db.url, "big")
    ok(runCli([
      "plan",
      "start",
      "--input",
      putInput(a, "s.json", { goal: "G", limits: [], nextAction: "n" }),
      "--workdir",
      a,
      "--json"
    ]))
    const prose = `# Notes\n\n${"p".repeat(5 * 1024 * 1024)}\n`
    await adminQuery(
      db.url,
      `UPDATE dossier.records SET value = jsonb_set(value::jsonb, '{before}', to_jsonb($1::text))::text
        WHERE dossier = 'big' AND kind = 'plan'`,
      [prose]
    )
    const event = {
      candidate: { id: "cand-big", params: { blob: "x".repeat(6_000_000) }, title: "Big" },
      id: "b1",
      type: "candidate_created"
    }
    const text = JSON.stringify(event)
    await adminQuery(
      db.url,
      `INSERT INTO dossier.events VALUES ('big', 'journal', 'huge', 1, 'b1', $1, $2),
        ('big', 'journal-claims', 'huge', 1, 'cand-big', $1, 'b1')`,
      [sha256(text), text]
    )
    // A new host binding to the dossier pulls it all (host a's view is at the plan's revision already).
    const b = bind(db.url, "big")
    for (const dir of [b]) {
      const r = runCli(["pull", "--workdir", dir, "--json"])
      expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
      const plan = fs.readFileSync(path.join(dir, "plan.md"), "utf8")
      expect(plan.startsWith(prose)).toBe(true)
      const line = fs.readFileSync(path.join(dir, "research/huge/research-events.jsonl"), "utf8")
      expect(line).toBe(`${JSON.stringify({ seq: 1, sha256: sha256(text), event })}\n`)
      expect(ok(runCli(["journal", "inspect", "--study", "huge", "--workdir", dir, "--json"])).events).toBe(1)
      expect(ok(runCli(["plan", "inspect", "--workdir", dir, "--json"])).revision).toBe(1)
    }
  }, 300_000)

  it("pull while another host appends to the same study: each pull a prefix, the last one everything", async () => {
    const a = bind(db.url, "busy")
    const b = bind(db.url, "busy")
    const appends = 8
    const appender = (async () => {
      for (let i = 1; i <= appends; i++) {
        const input = putInput(a, `j${i}.json`, {
          id: `e${i}`,
          type: "candidate_created",
          candidate: { id: `cand-${i}`, title: `T${i}` }
        })
        const r = await runCliAsync(["journal", "append", "--study", "s", "--input", input, "--workdir", a, "--json"])
        expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
      }
    })()
    const seen: Array<number> = []
    let done = false
    void appender.finally(() => (done = true))
    while (!done) {
      const r = await runCliAsync(["pull", "--workdir", b, "--json"])
      expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
      const ids = eventIds(b, "s")
      if (ids.length === 0) {
        seen.push(0)
        continue
      }
      // A prefix of the appends, in order, every line whole (the journal replays).
      expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => `e${i + 1}`))
      for (const line of fs.readFileSync(path.join(b, "research/s/research-events.jsonl"), "utf8").trim().split("\n")) {
        const parsed = JSON.parse(line)
        expect(parsed.sha256).toBe(sha256(JSON.stringify(parsed.event)))
      }
      seen.push(ids.length)
    }
    await appender
    ok(runCli(["pull", "--workdir", b, "--json"]))
    expect(eventIds(b, "s")).toEqual(Array.from({ length: appends }, (_, i) => `e${i + 1}`))
    expect(seen.length).toBeGreaterThan(0)
    expect([...seen].sort((x, y) => x - y)).toEqual(seen)
  }, 600_000)
})
