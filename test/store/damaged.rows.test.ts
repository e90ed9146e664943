/**
 * Rows of a shared dossier damaged behind dossier's back (a peer with the dossier's role can
 * write any row), and a bound folder's view that differs from the dossier: every refusal says
 * where the damage is and the way out that works for a bound folder. A journal row that does not
 * decode is `CorruptJournal` naming its study and the dossier (the damage is in the store, not in
 * the view); a plan record that does not decode is `CorruptPlan` naming the dossier (not plan.md);
 * `pull` over a view that holds what the dossier does not is `StoreConflict` naming the record,
 * with a pull's way out. `pull` refuses the whole copy then, naming the row, and writes nothing:
 * never a silent partial view (docs/store.md, "Rows written behind dossier's back"). Through the
 * built CLI against the test's own throwaway cluster (skipped with a note without the server
 * binaries).
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CliResult, putInput, runCli, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, copyDatabase, createDatabase, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { ok } from "./support/populated.js"

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])

const refused = (r: CliResult, tag: string) => {
  expect(r.code, r.stdout + r.stderr).toBe(1)
  expect(r.json?.ok).toBe(false)
  expect(r.json?.error._tag, r.stdout).toBe(tag)
  return r.json!.error as Record<string, unknown> & { message: string; hint: string }
}

const bind = (url: string, dossier: string) => {
  const dir = tempWorkdir("dossier-damaged-")
  ok(runCli(["init", "--store", url, "--dossier", dossier, "--workdir", dir, "--json"]))
  return dir
}

const candidate = (id: string, cand: string) => ({
  id,
  type: "candidate_created",
  candidate: { id: cand, title: cand }
})

/** Two studies and a plan, written from one host. */
const seed = (dir: string) => {
  ok(cli(dir, ["plan", "start", "--input", putInput(dir, "s.json", { goal: "G", limits: [], nextAction: "n" })]))
  ok(cli(dir, ["journal", "append", "--study", "s", "--input", putInput(dir, "j1.json", candidate("c1", "a"))]))
  ok(cli(dir, ["journal", "append", "--study", "t", "--input", putInput(dir, "j2.json", candidate("c1", "b"))]))
}

describe.skipIf(!pgAvailable)("damaged rows and a differing view: refusals that say where", () => {
  const db = useTestDatabase()

  // A folder bound to the dossier `seeded`, `seed`'s plan and two studies written from it: made
  // once per file, in a database of its own, and copied for each test that starts from it (the
  // database by PostgreSQL, the folder byte for byte, its binding naming the copy). The same state
  // as `bind` then `seed` per test, without the four commands; each test damages its own copy.
  let template: { readonly url: string; readonly a: string } | undefined
  const drops: Array<() => Promise<void>> = []
  beforeAll(async () => {
    const { drop, url } = await createDatabase(db.url, `${db.name}_seeded`)
    drops.push(drop)
    const a = bind(url, "seeded")
    seed(a)
    template = { url, a }
  }, 180_000)
  afterAll(async () => {
    for (const drop of drops.reverse()) await drop()
  })

  /** A fresh copy of the seeded dossier's database, and of the folder bound to it. */
  const seeded = async () => {
    const from = template!
    const copy = await copyDatabase(from.url, `${db.name}_seeded_${drops.length}`)
    drops.push(copy.drop)
    const a = tempWorkdir("dossier-damaged-")
    fs.cpSync(from.a, a, { recursive: true })
    const binding = path.join(a, ".dossier/store.json")
    const text = fs.readFileSync(binding, "utf8")
    expect(text).toContain(JSON.stringify(from.url))
    fs.writeFileSync(binding, text.replace(JSON.stringify(from.url), JSON.stringify(copy.url)))
    return { a, url: copy.url }
  }

  it(
    "a journal row that does not decode: CorruptJournal naming the study and the dossier, pull writes nothing",
    async () => {
      const { a, url } = await seeded()
      const b = bind(url, "seeded")
      // Study t moves on; then study s's first event is damaged in the store.
      ok(cli(a, ["journal", "append", "--study", "t", "--input", putInput(a, "j3.json", candidate("c2", "c"))]))
      await adminQuery(
        url,
        "UPDATE dossier.events SET event = '{\"broken' WHERE dossier = 'seeded' AND log = 'journal' AND stream = 's'"
      )
      for (const args of [["journal", "inspect", "--study", "s"], ["pull"]]) {
        const e = refused(cli(b, args), "CorruptJournal")
        expect(e, args.join(" ")).toMatchObject({ study: "s", dossier: "seeded", line: 1 })
        expect(e.message).toContain("study 's' in the shared dossier 'seeded'")
        expect(e.message).toContain("not in this folder's view")
        expect(e.hint).toContain("dossier.events")
      }
      // The pull wrote nothing: no partial view (t's second event is not there either).
      const before = snapshot(b)
      refused(cli(b, ["pull"]), "CorruptJournal")
      expect(snapshot(b)).toEqual(before)
      expect(fs.readFileSync(path.join(b, "research/t/research-events.jsonl"), "utf8").trim().split("\n")).toHaveLength(
        1
      )
      // A study that is sound still answers.
      expect(ok(cli(b, ["journal", "inspect", "--study", "t"])).events).toBe(2)
    },
    120_000
  )

  it("a plan record that does not decode: CorruptPlan naming the dossier, not plan.md", async () => {
    const { a, url } = await seeded()
    const planBefore = fs.readFileSync(path.join(a, "plan.md"), "utf8")
    await adminQuery(
      url,
      "UPDATE dossier.records SET value = replace(value, '\"goal\":\"G\"', '\"goal\":7') WHERE dossier = 'seeded' AND kind = 'plan'"
    )
    for (const args of [["plan", "inspect"], ["pull"]]) {
      const e = refused(cli(a, args), "CorruptPlan")
      expect(e, args.join(" ")).toMatchObject({ dossier: "seeded" })
      expect(e.message).toContain("plan record of the shared dossier 'seeded'")
      expect(e.message).toContain("not in plan.md")
      expect(e.hint).toContain("dossier.records")
    }
    expect(fs.readFileSync(path.join(a, "plan.md"), "utf8")).toBe(planBefore)
  }, 120_000)

  it(
    "a monitor record that does not decode: CorruptMonitorRecord naming the dossier, not a file of this folder",
    async () => {
      const a = bind(db.url, "dm")
      ok(cli(a, [
        "monitor",
        "create-subscription",
        "--input",
        putInput(a, "sub.json", {
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
        "2026-12-08T10:00:00.000Z"
      ]))
      await adminQuery(
        db.url,
        "UPDATE dossier.records SET value = '{\"broken' WHERE dossier = 'dm' AND kind = 'subscription'"
      )
      // A folder that never held the file: the damage is the store's row, and the refusal says so.
      const b = tempWorkdir("dossier-damaged-monitor-")
      const init = refused(
        runCli(["init", "--store", db.url, "--dossier", "dm", "--workdir", b, "--json"]),
        "CorruptMonitorRecord"
      )
      expect(init).toMatchObject({ dossier: "dm", path: ".dossier/monitor/subscriptions/weekly.json" })
      // The bind wrote its binding before the view (docs/store.md), and nothing of the monitor.
      expect(fs.existsSync(path.join(b, ".dossier/monitor/subscriptions/weekly.json"))).toBe(false)
      for (const args of [["monitor", "show", "--subscription", "weekly"], ["pull"]]) {
        const e = refused(cli(a, args), "CorruptMonitorRecord")
        expect(e, args.join(" ")).toMatchObject({ dossier: "dm" })
        expect(e.message).toContain("shared dossier 'dm'")
        expect(e.message).toContain("not in this folder's view")
        expect(e.hint).toContain("dossier.records")
      }
    },
    120_000
  )

  it(
    "a capture-log row that does not decode: CorruptCaptureLog naming its position, never a log without it",
    async () => {
      const page = (word: string) =>
        `<html><head><title>${word}</title></head><body><main><p>The page says ${word} beats the rest on long inputs.</p></main></body></html>\n`
      const a = bind(db.url, "dc")
      fs.mkdirSync(path.join(a, "saved"))
      fs.writeFileSync(path.join(a, "saved/one.html"), page("alpha"))
      ok(cli(a, ["ingest", "--file", "saved/one.html", "--origin", "https://example.org/one"]))
      const b = bind(db.url, "dc")
      fs.writeFileSync(path.join(a, "saved/two.html"), page("beta"))
      const two = ok(cli(a, ["ingest", "--file", "saved/two.html", "--origin", "https://example.org/two"]))
      const before = snapshot(b)
      const target = path.join(path.dirname(b), `${path.basename(b)}-copy`)
      // JSON that is no capture record (once left out of the log in silence), then no JSON at all.
      for (const damage of ["{\"via\":7}", "{\"broken"]) {
        await adminQuery(
          db.url,
          `UPDATE dossier.events SET event = '${damage}' WHERE dossier = 'dc' AND log = 'captures' AND position = 2`
        )
        for (
          const args of [
            ["pull"],
            ["export", "--to", target],
            ["source", "follow", "--quote", "The page says alpha beats the rest"]
          ]
        ) {
          const e = refused(cli(b, args), "CorruptCaptureLog")
          expect(e, `${damage}: ${args.join(" ")}`).toMatchObject({ dossier: "dc", line: 2, retryable: false })
          expect(e.message).toContain("capture log of the shared dossier 'dc'")
          expect(e.message).toContain("not in this folder's view")
          expect(e.hint).toContain("dossier.events, log captures")
        }
      }
      // Nothing written: not the second capture's retained file, not a log without its record.
      expect(snapshot(b)).toEqual(before)
      expect(fs.existsSync(path.join(b, two.original.path))).toBe(false)
      expect(fs.existsSync(target)).toBe(false)
    },
    120_000
  )

  it(
    "a retained file's record that does not decode: CorruptCaptureLog naming its path, never a Defect",
    async () => {
      const a = bind(db.url, "dr")
      fs.mkdirSync(path.join(a, "saved"))
      fs.writeFileSync(
        path.join(a, "saved/one.html"),
        "<html><body><main><p>The page says alpha beats the rest on long inputs.</p></main></body></html>\n"
      )
      const args = ["ingest", "--file", "saved/one.html", "--origin", "https://example.org/one"]
      const captured = ok(cli(a, args))
      const damaged = captured.source.path as string
      await adminQuery(
        db.url,
        "UPDATE dossier.records SET value = '{\"broken' WHERE dossier = 'dr' AND kind = 'retained' AND key = $1",
        [damaged]
      )
      const fresh = tempWorkdir("dossier-damaged-retained-")
      for (
        const [where, r] of [
          ["init --store", runCli(["init", "--store", db.url, "--dossier", "dr", "--workdir", fresh, "--json"])],
          ["pull", cli(a, ["pull"])],
          ["ingest", cli(a, args)]
        ] as const
      ) {
        const e = refused(r, "CorruptCaptureLog")
        expect(e, where).toMatchObject({ dossier: "dr", path: damaged, retryable: false })
        expect(e.message).toContain(`'${damaged}'`)
        expect(e.hint).toContain("dossier.records, kind retained")
      }
      // The bind wrote its binding before the view (docs/store.md), and none of the captures.
      expect(fs.existsSync(path.join(fresh, "research/sources", path.basename(damaged)))).toBe(false)
    },
    120_000
  )

  it("a monitor report row that does not decode: CorruptMonitorRecord naming the dossier, never a Defect", async () => {
    const a = bind(db.url, "dq")
    await adminQuery(
      db.url,
      `INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
        VALUES ('dq', 'monitor', 'reports', 1, 'r1:run-completed', '00', '{"broken')`
    )
    const fresh = tempWorkdir("dossier-damaged-report-")
    for (
      const [where, r] of [
        ["pull", cli(a, ["pull"])],
        ["init --store", runCli(["init", "--store", db.url, "--dossier", "dq", "--workdir", fresh, "--json"])]
      ] as const
    ) {
      const e = refused(r, "CorruptMonitorRecord")
      expect(e, where).toMatchObject({ dossier: "dq", path: ".dossier/monitor/reports.jsonl" })
      expect(e.reason).toContain("r1:run-completed")
      expect(e.message).toContain("not in this folder's view")
    }
  }, 120_000)

  it(
    "pull over a view that holds what the dossier does not: StoreConflict naming the record, a pull's way out",
    async () => {
      const { a } = await seeded()
      // This host's view of study s holds another (well-formed) first event than the dossier.
      const event = { candidate: { id: "a", title: "other" }, id: "c1", type: "candidate_created" }
      const text = JSON.stringify(event)
      fs.writeFileSync(
        path.join(a, "research/s/research-events.jsonl"),
        `${JSON.stringify({ seq: 1, sha256: sha256(text), event })}\n`
      )
      const e = refused(cli(a, ["pull"]), "StoreConflict")
      expect(e).toMatchObject({ dossier: "seeded", part: "journal", key: "s" })
      expect(e.reason).toBe("event 1 of this folder's journal is not the dossier's")
      expect(e.message).toContain("This folder's view holds what the shared dossier 'seeded' does not")
      expect(e.hint).toContain("pull again")
    },
    120_000
  )

  it("pull over a damaged local journal: CorruptJournal naming this folder's file, no dossier", async () => {
    const { a } = await seeded()
    fs.writeFileSync(path.join(a, "research/s/research-events.jsonl"), "{\"broken\n")
    const e = refused(cli(a, ["pull"]), "CorruptJournal")
    expect(e).toMatchObject({ study: "s", line: 1 })
    expect(e.dossier).toBeUndefined()
    expect(e.message).toContain("research/s/research-events.jsonl")
  }, 120_000)
})
