/**
 * Every command in a bound folder works over the shared dossier, through the built CLI with --json
 * and through `dossier mcp` with the official SDK client, against the test's own throwaway cluster
 * (skipped with a note without the server binaries): two folders (two hosts) bound to one dossier
 * read each other's writes from the store without a pull, race to one winner, store each event
 * once, and each writing command refreshes the folder's view (plan.md, retained captures,
 * journals) as `pull` would.
 *
 * Over 400 lines: every command runs on the one cluster, dossier and pair of bound folders set up
 * at the top, so each case reads beside the set-up it relies on.
 */
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { folder, inventedQuoteResearch, parkedMaturity } from "../gate/support.js"
import { connect } from "../mcp/support.js"
import { type CliResult, put, putInput, runCli, runCliAsync, snapshot, tempWorkdir } from "../support/cli.js"
import { adminQuery, pgAvailable, useTestDatabase } from "../support/postgres.js"
import { NOW, ok, populated } from "./support/populated.js"

const refused = (r: CliResult, tag: string) => {
  expect({ code: r.code, ok: r.json?.ok, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
    code: 1,
    ok: false,
    tag
  })
  return r.json.error
}

const PAGE =
  "<html><head><title>P</title></head><body><main><h1>P</h1><p>The page says X beats Y on long inputs.</p></main></body></html>\n"

describe.skipIf(!pgAvailable)("commands in a bound folder", () => {
  const db = useTestDatabase()

  const bind = (name: string, dossier = "shared") => {
    const dir = tempWorkdir(`dossier-bound-${name}-`)
    ok(runCli(["init", "--store", db.url, "--dossier", dossier, "--workdir", dir, "--json"]))
    return dir
  }

  it(
    "two hosts: reads from the store, one winner per revision, each event once, views refreshed",
    async () => {
      const a = bind("a")
      const b = bind("b")
      const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])

      // A starts the plan: the store holds it, and A's plan.md is written from it.
      const started = ok(cli(a, [
        "plan",
        "start",
        "--input",
        putInput(a, "s.json", { goal: "Compare X and Y", limits: [], nextAction: "search" }),
        "--now",
        NOW
      ]))
      expect(started.revision).toBe(1)
      const plans = await adminQuery(
        db.url,
        "SELECT revision FROM dossier.records WHERE dossier = 'shared' AND kind = 'plan'"
      )
      expect(plans.rows).toEqual([{ revision: 1 }])
      expect(fs.readFileSync(path.join(a, "plan.md"), "utf8")).toContain("Compare X and Y")

      // B reads it from the store without a pull; its view has no plan.md until it writes.
      expect(fs.existsSync(path.join(b, "plan.md"))).toBe(false)
      const seen = ok(cli(b, ["plan", "inspect"]))
      expect({ revision: seen.revision, goal: seen.goal }).toEqual({ revision: 1, goal: "Compare X and Y" })
      expect(fs.existsSync(path.join(b, "plan.md"))).toBe(false)

      // Both check point from revision 1 at once: one winner, the other StaleRevision.
      const checkpoint = (dir: string, step: string) =>
        runCliAsync([
          "plan",
          "checkpoint",
          "--input",
          putInput(dir, `cp-${step}.json`, { completedSteps: [{ id: step, summary: step }], nextAction: "go on" }),
          "--expected",
          "1",
          "--now",
          NOW,
          "--workdir",
          dir,
          "--json"
        ])
      const race = await Promise.all([checkpoint(a, "a1"), checkpoint(b, "b1")])
      // The winner's view holds the plan it wrote (its command refreshed the plan's part).
      const winner = race[0]!.json?.ok === true ? a : b
      expect(race.map((r) => r.json?.ok).sort()).toEqual([false, true])
      const loser = race.find((r) => r.json?.ok !== true)!
      expect(refused(loser, "StaleRevision")).toMatchObject({ expected: 1, actual: 2 })
      expect(ok(cli(a, ["plan", "inspect"])).revision).toBe(2)
      expect(ok(cli(b, ["plan", "inspect"])).revision).toBe(2)

      // A captures a page: the bytes are in the store; B's view gets the retained copy once B writes.
      put(a, "saved/page.html", PAGE)
      const captured = ok(
        cli(a, ["ingest", "--file", "saved/page.html", "--origin", "https://example.org/p", "--now", NOW])
      )
      const original = captured.original?.path ?? captured.path
      expect(typeof original).toBe("string")
      expect(fs.existsSync(path.join(a, original))).toBe(true)
      expect(fs.existsSync(path.join(b, original))).toBe(false)

      // The same batch from both hosts: each event once; B's journal file is refreshed from the store.
      const batch = [
        { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "A" } },
        { id: "c2", type: "candidate_created", candidate: { id: "cand-b", title: "B" } }
      ]
      const appended = await Promise.all(
        [a, b].map((dir) =>
          runCliAsync([
            "journal",
            "append",
            "--study",
            "s",
            "--input",
            putInput(dir, "j.json", batch),
            "--workdir",
            dir,
            "--json"
          ])
        )
      )
      for (const r of appended) expect(r.json?.ok, r.stdout + r.stderr).toBe(true)
      const events = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = 'shared' AND log = 'journal'"
      )
      expect(events.rows).toEqual([{ n: 2 }])
      const conflicting = cli(b, [
        "journal",
        "append",
        "--study",
        "s",
        "--input",
        putInput(b, "j2.json", { id: "c1", type: "candidate_created", candidate: { id: "cand-z", title: "Z" } })
      ])
      refused(conflicting, "ConflictingEvent")
      expect(ok(cli(a, ["journal", "inspect", "--study", "s"])).candidates).toHaveLength(2)

      // B's journal append refreshed the part of its view it touched, the journals; A's capture (and
      // the plan, had A won the race) come with a pull, which brings the whole view.
      expect(fs.readFileSync(path.join(winner, "plan.md"), "utf8")).toContain(`"revision": 2,`)
      expect(fs.readFileSync(path.join(b, "research/s/research-events.jsonl"), "utf8").trim().split("\n"))
        .toHaveLength(2)
      expect(fs.existsSync(path.join(b, original))).toBe(false)
      expect(fs.existsSync(path.join(b, "plan.md"))).toBe(winner === b)
      ok(cli(b, ["pull"]))
      expect(fs.readFileSync(path.join(b, "plan.md"))).toEqual(fs.readFileSync(path.join(winner, "plan.md")))
      expect(fs.readFileSync(path.join(b, original))).toEqual(fs.readFileSync(path.join(a, original)))

      // A registers an output; B (which lacks the file) is told that pull brings it.
      put(a, "research/results/r.md", "Result.\n")
      ok(cli(a, [
        "plan",
        "checkpoint",
        "--input",
        putInput(a, "cp-out.json", { outputs: [{ path: "research/results/r.md", dependsOn: [] }] }),
        "--expected",
        "2",
        "--now",
        NOW
      ]))
      fs.rmSync(path.join(b, "research/results/r.md"), { force: true })
      const missing = ok(cli(b, ["plan", "inspect"]))
      expect(missing.verification.findings).toContainEqual(
        expect.objectContaining({ kind: "output-missing", path: "research/results/r.md" })
      )
      expect(missing.note).toContain("`dossier pull` brings it")
      expect(ok(cli(a, ["plan", "inspect"])).note).not.toContain("dossier pull")
      ok(cli(b, ["pull"]))
      expect(fs.readFileSync(path.join(b, "research/results/r.md"), "utf8")).toBe("Result.\n")

      // status and next answer from the store in either folder.
      const sa = ok(cli(a, ["status"]))
      const sb = ok(cli(b, ["status"]))
      expect(sb.plan).toEqual(sa.plan)
    },
    180_000
  )

  it(
    "dossier mcp in a bound folder: tools read and write the shared dossier, and refresh the view",
    async () => {
      const a = bind("mcp-a", "over-mcp")
      const b = bind("mcp-b", "over-mcp")
      ok(runCli([
        "plan",
        "start",
        "--input",
        putInput(a, "s.json", { goal: "Shared over MCP", limits: [], nextAction: "search" }),
        "--now",
        NOW,
        "--workdir",
        a,
        "--json"
      ]))
      const server = await connect(b)
      try {
        const inspected = await server.call("plan_inspect")
        expect(inspected.isError, inspected.text).toBe(false)
        expect(inspected.body).toMatchObject({ revision: 1, goal: "Shared over MCP" })
        const appended = await server.call("journal_append", {
          study: "m",
          input: { id: "c1", type: "candidate_created", candidate: { id: "cand-m", title: "M" } }
        })
        expect(appended.isError, appended.text).toBe(false)
        // The part of B's view the call touched was refreshed: the journal, not yet the plan.
        expect(fs.existsSync(path.join(b, "research/m/research-events.jsonl"))).toBe(true)
        expect(fs.existsSync(path.join(b, "plan.md"))).toBe(false)
        // The journal resource is the store's: listed and read from it, whatever the view holds.
        const view = path.join(b, "research/m/research-events.jsonl")
        fs.renameSync(view, path.join(b, "moved-events.jsonl"))
        fs.symlinkSync(path.join(b, "moved-events.jsonl"), view)
        expect((await server.client.listResources()).resources.map((r) => r.uri)).toContain("dossier://journal/m")
        const journal = await server.client.readResource({ uri: "dossier://journal/m" })
        expect((journal.contents[0] as { text: string }).text).toContain("cand-m")
        fs.rmSync(view)
        fs.renameSync(path.join(b, "moved-events.jsonl"), view)
        const checkpointed = await server.call("plan_checkpoint", { input: { nextAction: "read" }, expected: 1 })
        expect(checkpointed.isError, checkpointed.text).toBe(false)
        expect(fs.readFileSync(path.join(b, "plan.md"), "utf8")).toContain("Shared over MCP")
        const stale = await server.call("plan_checkpoint", { input: { nextAction: "x" }, expected: 7 })
        expect({ isError: stale.isError, tag: stale.body?.error?._tag }).toEqual({
          isError: true,
          tag: "StaleRevision"
        })
      } finally {
        await server.client.close()
      }
      // A reads B's event from the store.
      expect(ok(runCli(["journal", "inspect", "--study", "m", "--workdir", a, "--json"])).candidates).toHaveLength(1)
    },
    120_000
  )

  it(
    "read-only commands work under a role with SELECT only; a writing one is BindingRefused (not retryable) and changes nothing",
    async () => {
      const a = bind("ro-a", "read-only")
      ok(runCli([
        "plan",
        "start",
        "--input",
        putInput(a, "s.json", { goal: "Read me", limits: [], nextAction: "search" }),
        "--now",
        NOW,
        "--workdir",
        a,
        "--json"
      ]))
      ok(runCli([
        "journal",
        "append",
        "--study",
        "s",
        "--input",
        putInput(a, "j.json", { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "A" } }),
        "--workdir",
        a,
        "--json"
      ]))
      const role = `reader_${db.name}`.slice(0, 60)
      await adminQuery(db.url, `CREATE ROLE ${role} LOGIN`)
      await adminQuery(db.url, `GRANT USAGE ON SCHEMA dossier TO ${role}`)
      await adminQuery(db.url, `GRANT SELECT ON ALL TABLES IN SCHEMA dossier TO ${role}`)
      const url = new URL(db.url)
      url.username = role
      /** A folder whose binding names `dossier` at `at` (as `init --store` would write it). */
      const boundAs = (prefix: string, at: URL, dossier: string) => {
        const dir = tempWorkdir(prefix)
        fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
        fs.writeFileSync(
          path.join(dir, ".dossier/store.json"),
          JSON.stringify({ kind: "postgres", url: at.toString(), dossier })
        )
        return dir
      }
      const r = boundAs("dossier-bound-reader-", url, "read-only")
      const read = (args: ReadonlyArray<string>) => ok(runCli([...args, "--workdir", r, "--json"]))
      expect(read(["plan", "inspect"]).goal).toBe("Read me")
      expect(read(["journal", "list"]).studies).toHaveLength(1)
      expect(read(["journal", "inspect", "--study", "s"]).candidates).toHaveLength(1)
      // That every other read-only command answers under such a role (and may not make a temporary
      // table either), CLI and MCP, is test/store/readonly.walk.test.ts's walk of the command table.
      const before = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = 'read-only'"
      )
      const write = runCli([
        "journal",
        "append",
        "--study",
        "s",
        "--input",
        putInput(r, "j.json", { id: "c2", type: "candidate_created", candidate: { id: "cand-b", title: "B" } }),
        "--workdir",
        r,
        "--json"
      ])
      // Running it again never helps: a typed refusal that says the role may not, not StoreUnavailable.
      expect(refused(write, "BindingRefused")).toMatchObject({
        retryable: false,
        reason: "privilege",
        command: "journal append",
        dossier: "read-only"
      })
      expect(write.json.error.message).toContain("may not run 'journal append'")
      expect(write.json.error.message).not.toMatch(/unavailable|unreachable/i)
      const server = await connect(r)
      try {
        const call = await server.call("journal_append", {
          study: "s",
          input: { id: "c3", type: "candidate_created", candidate: { id: "cand-c", title: "C" } }
        })
        expect({ isError: call.isError, tag: call.body?.error?._tag }, call.text).toEqual({
          isError: true,
          tag: "BindingRefused"
        })
        expect(call.body.error).toMatchObject({ reason: "privilege", retryable: false, dossier: "read-only" })
      } finally {
        await server.client.close()
      }
      const after = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = 'read-only'"
      )
      expect(after.rows).toEqual(before.rows)

      // A folder bound to a dossier the store does not hold: its read-only commands refuse
      // (`BindingRefused no-dossier`, as every bound command: test/store/bound.nodossier.test.ts)
      // and create nothing (the role may not, and only `init --store` creates a dossier).
      const fresh = boundAs("dossier-bound-reader-new-", url, "not-yet")
      for (const args of [["plan", "inspect"], ["journal", "list"], ["status"], ["grant", "list"]]) {
        expect(refused(runCli([...args, "--workdir", fresh, "--json"]), "BindingRefused").reason).toBe("no-dossier")
      }
      const created = await adminQuery(db.url, "SELECT count(*)::int AS n FROM dossier.dossiers WHERE name = 'not-yet'")
      expect(created.rows).toEqual([{ n: 0 }])

      // A folder bound to a database without dossier's schema: a read-only command is refused and
      // creates no schema (before, it connected as a writer and created it).
      const empty = `${db.name}_empty`.slice(0, 60)
      await adminQuery(db.url, `CREATE DATABASE ${empty}`)
      try {
        const emptyUrl = new URL(db.url)
        emptyUrl.pathname = `/${empty}`
        const bare = boundAs("dossier-bound-reader-bare-", emptyUrl, "bare")
        const error = refused(runCli(["status", "--workdir", bare, "--json"]), "StoreUnavailable")
        expect(error.reason).toContain("writing command")
        const schemas = await adminQuery(
          emptyUrl.toString(),
          "SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'dossier'"
        )
        expect(schemas.rows).toEqual([{ n: 0 }])
      } finally {
        await adminQuery(db.url, `DROP DATABASE ${empty}`)
      }
    },
    120_000
  )

  it(
    "the gate counts research rounds over every host's attempts, and each host's view gets the whole log",
    async () => {
      // A holds a plan with a registered source; it is imported, and B pulls it.
      const a = folder()
      ok(runCli(["init", "--store", db.url, "--dossier", "gate-rounds", "--workdir", a.dir, "--json"]))
      const bDir = bind("gate-b", "gate-rounds")
      expect(fs.existsSync(path.join(bDir, "research/sources/billing.md"))).toBe(true)
      const research = inventedQuoteResearch
      const gateIn = (dir: string) => {
        put(dir, "run/state.json", `${JSON.stringify(parkedMaturity([{ id: "a", category: "scope" }]), null, 2)}\n`)
        put(dir, "research/gate/research.json", JSON.stringify(research, null, 2))
        return runCli(["gate", "--state", "run/state.json", "--record-attempt", "--now", NOW, "--json"], { cwd: dir })
      }
      const first = gateIn(a.dir)
      expect(first.json, first.stdout + first.stderr).toMatchObject({ decision: "ask", reason: "gaps-remain" })
      expect(first.json.research.round).toBe(1)
      // B's round is the second: A's attempt counts there.
      const second = gateIn(bDir)
      expect(second.json, second.stdout + second.stderr).toMatchObject({ decision: "ask", reason: "gaps-remain" })
      expect(second.json.research.round).toBe(2)
      // The third, on A, is at the default ceiling of two rounds.
      expect(gateIn(a.dir).json).toMatchObject({ decision: "ask", reason: "maxAskRounds", researchRounds: 0 })
      const rows = await adminQuery(
        db.url,
        "SELECT count(*)::int AS n FROM dossier.events WHERE dossier = 'gate-rounds' AND log = 'gate-attempts'"
      )
      expect(rows.rows).toEqual([{ n: 3 }])
      // Each host's view holds the whole log once it has written.
      const log = (dir: string) => fs.readFileSync(path.join(dir, ".dossier/gate/attempted.jsonl"), "utf8")
      expect(log(a.dir).trim().split("\n")).toHaveLength(3)
      expect(log(bDir).trim().split("\n")).toHaveLength(2)
      ok(runCli(["pull", "--workdir", bDir, "--json"]))
      expect(log(bDir)).toBe(log(a.dir))
      // An export carries it.
      const out = path.join(tempWorkdir("dossier-bound-gate-export-"), "copy")
      ok(runCli(["export", "--to", out, "--workdir", bDir, "--json"]))
      expect(log(out)).toBe(log(a.dir))
    },
    120_000
  )

  it(
    "a schema newer than this build is StoreTooNew for a bound folder's commands (the early probe falls back)",
    async () => {
      const dir = bind("too-new", "too-new")
      await adminQuery(db.url, "UPDATE dossier.schema_version SET version = version + 1")
      try {
        for (const args of [["plan", "inspect"], ["journal", "list"]]) {
          const r = runCli([...args, "--workdir", dir, "--json"])
          expect(refused(r, "StoreTooNew"), args.join(" ")).toMatchObject({ retryable: false })
        }
      } finally {
        await adminQuery(db.url, "UPDATE dossier.schema_version SET version = version - 1")
      }
      // The same folder answers again once the schema is one this build knows.
      ok(runCli(["plan", "inspect", "--workdir", dir, "--json"]))
    },
    60_000
  )

  it(
    "a record the shared dossier lacks is refused naming the shared dossier, not the folder (CLI and MCP)",
    async () => {
      const dir = bind("unknown", "looked-up-here")
      const EXECUTION = "x-20261208T100000-0123abcd"
      const lookups: ReadonlyArray<readonly [ReadonlyArray<string>, string, string, Record<string, unknown>]> = [
        [["journal", "inspect", "--study", "nope"], "StudyNotFound", "journal_inspect", { study: "nope" }],
        [["grant", "show", "--grant", "nope"], "GrantNotFound", "grant_show", { grant: "nope" }],
        [["exec", "show", "--execution", EXECUTION], "ExecutionNotFound", "exec_show", { execution: EXECUTION }],
        [["monitor", "show", "--subscription", "nope"], "SubscriptionNotFound", "monitor_show", {
          subscription: "nope"
        }],
        [["monitor", "show", "--run", "nope.w3"], "RunNotFound", "monitor_show", { run: "nope.w3" }],
        [
          ["plan", "checkpoint", "--input", putInput(dir, "cp.json", { nextAction: "n" }), "--expected", "1"],
          "NoPlan",
          "plan_checkpoint",
          { input: { nextAction: "n" }, expected: 1 }
        ]
      ]
      const named = (error: { message: string }, what: string) => {
        expect(error.message, what).toContain("the shared dossier 'looked-up-here'")
        expect(error.message, what).not.toMatch(/work folder|research-events\.jsonl/)
      }
      for (const [args, tag] of lookups) {
        const r = runCli([...args, "--workdir", dir, "--json"])
        named(refused(r, tag), args.join(" "))
        expect(r.json.error.dossier).toBe("looked-up-here")
      }
      const server = await connect(dir)
      try {
        for (const [, tag, tool, input] of lookups) {
          const r = await server.call(tool, input)
          expect({ isError: r.isError, tag: r.body?.error?._tag }, tool + r.text).toEqual({ isError: true, tag })
          named(r.body.error, tool)
        }
      } finally {
        await server.client.close()
      }
      // A plain folder still says where it looked: the folder, without a dossier.
      const plain = tempWorkdir("dossier-unknown-plain-")
      const r = runCli(["grant", "show", "--grant", "nope", "--workdir", plain, "--json"])
      expect(refused(r, "GrantNotFound").message).toContain("in this work folder")
      expect(r.json.error.dossier).toBeUndefined()
    },
    60_000
  )

  it(
    "journal rebuild, recover-tail and import in a bound folder are BindingRefused, exit 1 (CLI and MCP), never a defect",
    async () => {
      const dir = bind("folder-only", "folder-only")
      ok(runCli([
        "journal",
        "append",
        "--study",
        "s",
        "--input",
        putInput(dir, "e.json", { id: "c1", type: "candidate_created", candidate: { id: "k", title: "K" } }),
        "--workdir",
        dir,
        "--json"
      ]))
      const before = fs.readFileSync(path.join(dir, "research/s/research-events.jsonl"))
      for (const command of ["rebuild", "recover-tail", "import"]) {
        const r = runCli(["journal", command, "--study", "s", "--workdir", dir, "--json"])
        expect({ code: r.code, tag: r.json?.error?._tag }, r.stdout + r.stderr).toEqual({
          code: 1,
          tag: "BindingRefused"
        })
        expect(r.json.error).toMatchObject({ command: `journal ${command}`, dossier: "folder-only", retryable: false })
        expect(r.json.error.hint).toContain("dossier export --to")
      }
      expect(fs.existsSync(path.join(dir, "research/s/manifest.json"))).toBe(false)
      expect(fs.readFileSync(path.join(dir, "research/s/research-events.jsonl"))).toEqual(before)
      const server = await connect(dir)
      try {
        for (const tool of ["journal_rebuild", "journal_recover_tail", "journal_import"]) {
          const r = await server.call(tool, { study: "s" })
          expect({ isError: r.isError, tag: r.body?.error?._tag }, tool + r.text).toEqual({
            isError: true,
            tag: "BindingRefused"
          })
          expect(r.body.error.dossier).toBe("folder-only")
        }
      } finally {
        await server.client.close()
      }
    },
    60_000
  )

  it(
    "pull and export take the store's bytes: a file edited in this folder is kept and listed, not taken as the store's",
    () => {
      const a = bind("edit-a", "edited")
      const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])
      ok(cli(a, ["plan", "start", "--input", putInput(a, "s.json", { goal: "G", limits: [], nextAction: "n" })]))
      put(a, "research/sources/notes.txt", "the registered bytes\n")
      ok(cli(a, [
        "plan",
        "checkpoint",
        "--input",
        putInput(a, "cp.json", { sources: [{ path: "research/sources/notes.txt", origin: "https://example.org/n" }] }),
        "--expected",
        "1"
      ]))
      const b = bind("edit-b", "edited")
      const notes = path.join(b, "research/sources/notes.txt")
      expect(fs.readFileSync(notes, "utf8")).toBe("the registered bytes\n")
      fs.writeFileSync(notes, "edited here\n")
      const pulled = ok(cli(b, ["pull"])).transfer
      expect(pulled.kept).toEqual(["research/sources/notes.txt"])
      expect(fs.readFileSync(notes, "utf8")).toBe("edited here\n")
      // The copy holds the store's bytes, not this folder's edit.
      const out = path.join(tempWorkdir("dossier-bound-edit-export-"), "copy")
      ok(runCli(["export", "--to", out, "--workdir", b, "--json"]))
      expect(fs.readFileSync(path.join(out, "research/sources/notes.txt"), "utf8")).toBe("the registered bytes\n")
    },
    60_000
  )

  it(
    "source follow reads the store's bytes where this folder lacks the file or holds others, and writes nothing",
    async () => {
      const a = bind("follow-a", "follow")
      const b = bind("follow-b", "follow")
      const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])
      ok(cli(a, ["plan", "start", "--input", putInput(a, "s.json", { goal: "G", limits: [], nextAction: "n" })]))
      // A captures a page and registers a file of its own: B's folder has neither.
      put(a, "saved/page.html", PAGE)
      ok(cli(a, ["ingest", "--file", "saved/page.html", "--origin", "https://example.org/p", "--now", NOW]))
      const NOTES = "Notes: the registered bytes say that Z holds on every input we tried.\n"
      put(a, "research/sources/notes.txt", NOTES)
      ok(cli(a, [
        "plan",
        "checkpoint",
        "--input",
        putInput(a, "cp.json", { sources: [{ path: "research/sources/notes.txt", origin: "https://example.org/n" }] }),
        "--expected",
        "1"
      ]))
      const QUOTE = "The page says X beats Y on long inputs"
      const there = ok(cli(a, ["source", "follow", "--quote", QUOTE]))
      expect(there.matches).toHaveLength(1)
      expect(fs.readdirSync(path.join(b, "research/sources"))).toEqual([])
      const before = snapshot(b)

      // B finds the passage A captured, in the store's bytes, and says so.
      const here = ok(cli(b, ["source", "follow", "--quote", QUOTE]))
      expect(here.matches).toEqual(there.matches)
      expect(here.note).toContain("read from the shared dossier's bytes")
      const byPath = ok(cli(b, ["source", "follow", "--quote", QUOTE, "--path", there.matches[0].path]))
      expect(byPath.matches).toEqual(there.matches)
      const notes = ok(cli(b, ["source", "follow", "--quote", "registered bytes say that Z holds"]))
      expect(notes.matches.map((m: any) => [m.path, m.registered, m.origin])).toEqual([
        ["research/sources/notes.txt", true, "https://example.org/n"]
      ])
      // A path the dossier does not hold is still FileNotFound.
      refused(cli(b, ["source", "follow", "--quote", QUOTE, "--path", "research/sources/none.md"]), "FileNotFound")
      // Nothing was written in B's folder.
      expect(snapshot(b)).toEqual(before)
      expect(fs.readdirSync(path.join(b, "research/sources"))).toEqual([])

      // A file edited here: the store's bytes are searched, the edit is left as it is.
      put(b, "research/sources/notes.txt", "Edited here: nothing of the kind is said.\n")
      const edited = ok(cli(b, ["source", "follow", "--quote", "registered bytes say that Z holds"]))
      expect(edited.matches.map((m: any) => [m.path, m.registered])).toEqual([["research/sources/notes.txt", true]])
      expect(fs.readFileSync(path.join(b, "research/sources/notes.txt"), "utf8")).toContain("Edited here")

      // A folder bound with a role that may only SELECT answers the same.
      const role = `follower_${db.name}`.slice(0, 60)
      await adminQuery(db.url, `CREATE ROLE ${role} LOGIN`)
      await adminQuery(db.url, `GRANT USAGE ON SCHEMA dossier TO ${role}`)
      await adminQuery(db.url, `GRANT SELECT ON ALL TABLES IN SCHEMA dossier TO ${role}`)
      const url = new URL(db.url)
      url.username = role
      const r = tempWorkdir("dossier-bound-follow-reader-")
      fs.mkdirSync(path.join(r, ".dossier"))
      fs.writeFileSync(
        path.join(r, ".dossier/store.json"),
        JSON.stringify({ kind: "postgres", url: url.toString(), dossier: "follow" })
      )
      expect(ok(cli(r, ["source", "follow", "--quote", QUOTE])).matches).toEqual(there.matches)
    },
    90_000
  )

  it(
    "journal inspect --verify on a host that lacks a linked file: artifact-missing, and the note says pull brings it",
    () => {
      const a = bind("artifact-a", "artifacts")
      const b = bind("artifact-b", "artifacts")
      const cli = (dir: string, args: ReadonlyArray<string>) => runCli([...args, "--workdir", dir, "--json"])
      put(a, "research/results/model.bin", new Uint8Array([0, 1, 2, 250, 251, 252]))
      ok(cli(a, [
        "journal",
        "append",
        "--study",
        "s",
        "--input",
        putInput(a, "j.json", [
          { id: "c1", type: "candidate_created", candidate: { id: "cand-a", title: "A" } },
          { id: "a1", type: "artifact_linked", candidateId: "cand-a", artifact: { path: "research/results/model.bin" } }
        ])
      ]))
      const there = ok(cli(a, ["journal", "inspect", "--study", "s", "--verify"])).verify
      expect(there.findings).toEqual([])
      expect(there.note).not.toContain("dossier pull")
      const here = ok(cli(b, ["journal", "inspect", "--study", "s", "--verify"])).verify
      expect(here.findings.map((f: any) => [f.kind, f.path])).toEqual([[
        "artifact-missing",
        "research/results/model.bin"
      ]])
      expect(here.note).toContain("`dossier pull` brings it")
      ok(cli(b, ["pull"]))
      const pulled = ok(cli(b, ["journal", "inspect", "--study", "s", "--verify"])).verify
      expect(pulled.findings).toEqual([])
    },
    90_000
  )

  it(
    "a host that lacks another host's files: the monitor's reads and next write nothing in its view, " +
      "next and monitor show --run say pull brings them, and after the pull they are there",
    async () => {
      const a = await populated()
      ok(runCli(["init", "--store", db.url, "--dossier", "unpulled", "--workdir", a, "--json"]))
      // Another host bound to the dossier that has not pulled (its binding written as init writes it).
      const b = tempWorkdir("dossier-bound-unpulled-b-")
      fs.mkdirSync(path.join(b, ".dossier"))
      fs.writeFileSync(
        path.join(b, ".dossier/store.json"),
        JSON.stringify({ kind: "postgres", url: db.url, dossier: "unpulled" })
      )
      const next = (dir: string) => ok(runCli(["next", "--now", NOW, "--workdir", dir, "--json"]))
      const show = (dir: string) => ok(runCli(["monitor", "show", "--run", "weekly.w1", "--workdir", dir, "--json"]))
      const stage = "research/results/weekly.w1.md"

      // The monitor's reading commands (unresolved-outcomes included) and next write nothing in B's
      // view: the store's records reached the answers, not the folder; that is `dossier pull`'s work.
      const before = snapshot(b)
      const reads: ReadonlyArray<ReadonlyArray<string>> = [
        ["monitor", "unresolved-outcomes"],
        ["monitor", "due", "--now", NOW],
        ["monitor", "list"]
      ]
      for (const args of reads) ok(runCli([...args, "--workdir", b, "--json"]))
      // next: the note says the files may only be missing here.
      const here = next(b)
      expect(here.facts.map((f: any) => f.kind)).toContain("broken-link")
      expect(here.note).toContain("`dossier pull` brings it")
      // monitor show --run: the run's stage file is missing here, stale, and the note says pull brings it.
      const shown = show(b)
      expect(shown.run.binding).toBe("stale")
      expect(shown.note).toContain(stage)
      expect(shown.note).toContain("`dossier pull` brings it")
      expect(snapshot(b)).toEqual(before)

      // On the host that holds the files: no such note.
      expect(next(a).note).not.toContain("dossier pull")
      const there = show(a)
      expect(there.run.binding).toBe("verified")
      expect(there.note).toBeUndefined()

      ok(runCli(["pull", "--workdir", b, "--json"]))
      // The run's stage file came with the pull (a cited file the dossier never held stays missing).
      expect(JSON.stringify(here.facts)).toContain(stage)
      expect(JSON.stringify(next(b).facts)).not.toContain(stage)
      const pulled = show(b)
      expect(pulled.run.binding).toBe("verified")
      expect(pulled.note).toBeUndefined()
      // Bytes edited here are not something a pull brings back (it keeps an edited file): no such note.
      put(b, stage, "edited here\n")
      const edited = show(b)
      expect(edited.run.binding).toBe("stale")
      expect(edited.note).toBeUndefined()
    },
    180_000
  )

  it("the server gone: a bound folder's command is StoreUnavailable, retryable, and nothing changes", () => {
    const dir = tempWorkdir("dossier-bound-gone-")
    fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
    const url = new URL(db.url)
    url.port = "1"
    fs.writeFileSync(
      path.join(dir, ".dossier/store.json"),
      JSON.stringify({ kind: "postgres", url: url.toString(), dossier: "shared" })
    )
    const r = runCli(["plan", "inspect", "--workdir", dir, "--json"])
    expect(refused(r, "StoreUnavailable")).toMatchObject({ retryable: true })
    expect(fs.existsSync(path.join(dir, "plan.md"))).toBe(false)
  }, 60_000)
})

/**
 * A TCP server on 127.0.0.1 that counts the connections it accepts and answers none of them,
 * noting how long each lived until its client closed it (`lived`; undefined while open).
 */
const silentServer = async () => {
  const sockets: Array<net.Socket> = []
  const lived: Array<number | undefined> = []
  const server = net.createServer((s) => {
    const i = sockets.push(s) - 1
    const accepted = Date.now()
    lived[i] = undefined
    s.on("error", () => {})
    s.on("close", () => (lived[i] = Date.now() - accepted))
    s.resume() // read (and drop) what the client sends, so its closing is seen
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    accepted: () => sockets.length,
    lived: () => [...lived],
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}

describe("a bound folder's connection, started before the command loads", () => {
  it(
    "is the command's only one: a server that never answers is StoreUnavailable once, within the connect timeout",
    async () => {
      const server = await silentServer()
      try {
        const dir = tempWorkdir("dossier-bound-silent-")
        fs.mkdirSync(path.join(dir, ".dossier"), { recursive: true })
        fs.writeFileSync(
          path.join(dir, ".dossier/store.json"),
          JSON.stringify({ kind: "postgres", url: `postgres://dossier@127.0.0.1:${server.port}/db`, dossier: "shared" })
        )
        const r = await runCliAsync(["plan", "inspect", "--workdir", dir, "--json"])
        expect(refused(r, "StoreUnavailable")).toMatchObject({
          retryable: true,
          reason: "no connection within the connect timeout"
        })
        // The connection started early is the one the command waited on: not a second one after it.
        expect(server.accepted()).toBe(1)
        // The wait was bounded by the connect timeout (5 s), not by the server (which never
        // answers nor closes): the client gave up on its one connection and closed it, after
        // waiting that timeout out. (No upper bound on the clock: a loaded machine starts the
        // process late, and the count above already rules out a second attempt.)
        await new Promise((resolve) => setTimeout(resolve, 200))
        const [lived] = server.lived()
        expect(lived, "the client closed its connection").toBeDefined()
        expect(lived!).toBeGreaterThanOrEqual(4_500)
      } finally {
        await server.close()
      }
    },
    60_000
  )
})
