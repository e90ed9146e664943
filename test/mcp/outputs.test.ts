/**
 * Every tool called once with good arguments, through the official SDK client (1.x), in a folder
 * built up by the calls themselves: each success must be what the `schema` tool says that
 * command answers (the whole output schema, no field it does not name), a read-only tool must
 * leave every byte of the folder as it was (but the derived scan index, docs/cli.md), and an
 * idempotent one called twice must leave the folder as its first call did.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TOOL_HINTS } from "../../src/commands/ToolHints.js"
import { sandboxWorks } from "../exec/support.js"
import { closingScopeResearch, parkedMaturity, SOURCE_TEXT } from "../gate/support.js"
import { at, literature, sha, SOURCE_TEXT as PAPER_TEXT, weekWindow } from "../monitor/support.js"
import { put, tempWorkdir } from "../support/cli.js"
import { schemaSchemas } from "./schemasFixture.js"
import { connect, type Connected, execGrant } from "./support.js"

/** Written by readers too: a cache of what the monitor's scans made of each record (docs/cli.md). */
const DERIVED = new Set([".dossier/monitor/scan.index"])

let dir: string
let server: Connected

beforeAll(async () => {
  dir = tempWorkdir("dossier-mcp-outputs-")
  server = await connect(dir)
})

afterAll(async () => {
  await server?.client.close()
})

/** Every file and folder under the work folder, with its bytes' SHA-256. */
const snapshot = (): Map<string, string> => {
  const out = new Map<string, string>()
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel === "" ? e.name : `${rel}/${e.name}`
      if (DERIVED.has(r)) continue
      const p = path.join(abs, e.name)
      if (e.isDirectory()) {
        out.set(`${r}/`, "dir")
        walk(p, r)
      } else out.set(r, createHash("sha256").update(fs.readFileSync(p)).digest("hex"))
    }
  }
  walk(dir, "")
  return out
}

const changes = (before: Map<string, string>, after: Map<string, string>) => [
  ...[...before].filter(([k, v]) => after.get(k) !== v).map(([k]) => k),
  ...[...after.keys()].filter((k) => !before.has(k))
]

/** Does `body` decode under one of the command's whole output schemas, naming no other field? */
const problemsOf = (name: string, body: unknown): string | undefined => {
  const output = TOOL_HINTS[name]!.output
  const problems: Array<string> = []
  for (const n of typeof output === "string" ? [output] : output) {
    const decoded = Schema.decodeUnknownEither(schemaSchemas[n] as Schema.Schema<unknown, unknown>, {
      onExcessProperty: "error"
    })(body)
    if (Either.isRight(decoded)) return undefined
    problems.push(`${n}: ${decoded.left.message}`)
  }
  return problems.join("\n")
}

const called = new Set<string>()

const ok = async (name: string, args: Record<string, unknown> = {}, twice = false) => {
  const hints = TOOL_HINTS[name]!
  const before = snapshot()
  const r = await server.call(name, args)
  expect(r.isError, `${name}: ${r.text}`).toBe(false)
  called.add(name)
  expect(problemsOf(name, r.body), `${name} answered ${r.text}`).toBeUndefined()
  const after = snapshot()
  if (hints.readOnly) expect(changes(before, after), `${name} is read-only`).toEqual([])
  if (twice) {
    await server.call(name, args)
    expect(changes(after, snapshot()), `${name} is idempotent`).toEqual([])
  }
  return r.body
}

describe("every tool's answer is its output schema, and its hints hold", () => {
  it("drives every tool once", async () => {
    const NOW = "2026-11-30T10:00:00Z"
    await ok("status")
    await ok("init", {}, true)
    await ok("store_status")
    await ok("schema")
    await ok("schema", { name: "status-output" })
    await ok("plan_inspect")
    await ok("plan_start", {
      input: { goal: "Ship the invoice export", limits: ["no customer data"], nextAction: "read the notes" }
    })
    await ok("ingest", { url: "https://example.com/billing", dryRun: true })
    put(dir, "inbox/billing.md", SOURCE_TEXT)
    const source = (await ok("ingest_file", { file: "inbox/billing.md", origin: "https://example.test/billing" }))
      .source.path
    await ok("plan_checkpoint", {
      expected: 1,
      input: { sources: [{ path: source, origin: "https://example.test/billing" }], nextAction: "journal" }
    })
    await ok("source_follow", { quote: "…every invoice line item … currency code…" })
    await ok("journal_append", {
      study: "exp",
      input: [{ id: "e1", type: "candidate_created", candidate: { id: "c1", title: "CSV per month" } }]
    }, true)
    await ok("journal_list")
    await ok("journal_inspect", { study: "exp", verify: true })
    await ok("journal_rebuild", { study: "exp" }, true)
    fs.appendFileSync(path.join(dir, "research/exp/research-events.jsonl"), "{\"id\":\"torn")
    await ok("journal_recover_tail", { study: "exp" }, true)
    put(
      dir,
      "research/old/manifest.json",
      JSON.stringify({
        version: 1,
        study: "old",
        protocolVersion: "p1",
        candidates: [{ id: "c1", status: "accepted", resultPaths: [] }],
        completed: [],
        selected: null
      })
    )
    await ok("journal_import", { study: "old" }, true)

    put(dir, "run/state.json", JSON.stringify(parkedMaturity([{ id: "scope_unclear", category: "scope" }])))
    put(
      dir,
      "research/gate/research.json",
      JSON.stringify(closingScopeResearch("Line items.", [{
        label: "notes",
        ref: source,
        quote: "every invoice line item with its VAT rate and currency code"
      }]))
    )
    put(
      dir,
      "run/descriptor.json",
      JSON.stringify({
        item: "PROJ-12",
        description: "Add a CSV export.",
        acceptanceCriteria: [],
        comments: [],
        links: []
      })
    )
    await ok("gate", { state: "run/state.json", now: NOW })
    await ok("gate_recheck", { state: "run/state.json", descriptor: "run/descriptor.json", now: NOW })

    await ok("monitor_create_subscription", { input: literature("lit"), now: NOW })
    await ok("monitor_update_subscription", {
      input: { subscriptionId: "lit", expectedRevision: 1, changes: { target: "sparse attention, long documents" } },
      now: NOW
    }, true)
    await ok("monitor_set_subscription_status", { subscription: "lit", expected: 2, status: "paused", now: NOW }, true)
    await ok("monitor_set_subscription_status", { subscription: "lit", expected: 3, status: "active", now: NOW })
    const now = at(weekWindow(0), 1000)
    await ok("monitor_due", { now })
    const run = (await ok("monitor_create_due_run", { subscription: "lit", now }, true)).run
    const running = (await ok("monitor_transition_run", { run: run.id, expected: 1, to: "running", now }, true)).run
    put(dir, "research/sources/paper.txt", PAPER_TEXT)
    const stage = `# literature stage\nmonitor_binding: run_id=${running.id} task_digest=${running.receiptDigest}\n`
    put(dir, `research/results/${running.id}.md`, stage)
    await ok("monitor_finish_run", {
      now,
      input: {
        runId: running.id,
        expectedRevision: running.revision,
        binding: { runId: running.id, taskDigest: running.receiptDigest },
        stage: { path: `research/results/${running.id}.md`, sha256: sha(stage) },
        outcomes: [{
          id: "o1",
          label: "new",
          reason: "block sparsity",
          citations: [{ path: "research/sources/paper.txt", quote: "block sparsity keeps accuracy within one point" }]
        }]
      }
    }, true)
    await ok("monitor_unresolved_outcomes")
    await ok("monitor_list")
    await ok("monitor_show", { run: running.id })
    await ok("monitor_show", { subscription: "lit" })
    await ok("monitor_set_outcome_disposition", { run: running.id, outcome: "o1", disposition: "dismissed", now }, true)
    await ok("next", { now })
    await ok("status", { now })

    put(dir, "research/exp/data/train.csv", "a,b\n1,2\n")
    await ok("grant_create", { input: execGrant, now: NOW })
    await ok("grant_list", { now: NOW })
    await ok("grant_show", { grant: "g1", now: NOW })
    await ok("grant_narrow", { grant: "g1", input: { budget: { runs: 3 } }, now: NOW })
    if (sandboxWorks) {
      const x = (await ok("exec", { grant: "g1", program: ["sh", "-c", "echo hi > out.txt"] })).execution
      await ok("exec_show", { execution: x.id })
      await ok("exec_show", { execution: x.id, verify: true })
    }
    await ok("grant_revoke", { grant: "g1", reason: "done", now: NOW }, true)

    const { tools } = await server.client.listTools()
    const skipped = sandboxWorks ? [] : ["exec", "exec_show"]
    expect(tools.map((t) => t.name).filter((n) => !called.has(n) && !skipped.includes(n))).toEqual([])
  }, 120_000)
})
