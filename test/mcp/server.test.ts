/**
 * `dossier mcp` end to end: the official MCP TypeScript SDK client spawns the built server in a
 * temporary work folder, lists its tools and resources and drives a whole research flow through
 * the tools, including refusals and arguments that try to leave the folder.
 *
 * Over 400 lines: one server and one folder carry the whole flow, and the refusals are checked
 * against the state that flow left.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { allSpecs } from "../../src/cli/Specs.js"
import { errorCatalogue, usageInfo } from "../../src/commands/ErrorCatalogue.js"
import { toolNames } from "../../src/mcp/Tools.js"
import { closingScopeResearch, parkedMaturity, SOURCE_TEXT } from "../gate/support.js"
import { at, literature, sha, SOURCE_TEXT as PAPER_TEXT, weekWindow } from "../monitor/support.js"
import { CLI, put, tempWorkdir } from "../support/cli.js"
import { connect, type Connected } from "./support.js"

/** The tools the spec (agents.md) names; those of commands not built yet are checked once they exist. */
const SPEC_TOOLS = [
  "plan_inspect",
  "plan_start",
  "plan_checkpoint",
  "ingest",
  "ingest_file",
  "journal_append",
  "journal_inspect",
  "journal_list",
  "journal_rebuild",
  "journal_recover_tail",
  "journal_import",
  "gate",
  "gate_recheck",
  "monitor_create_subscription",
  "monitor_update_subscription",
  "monitor_set_subscription_status",
  "monitor_due",
  "monitor_list",
  "monitor_create_due_run",
  "monitor_transition_run",
  "monitor_finish_run",
  "monitor_set_outcome_disposition",
  "monitor_unresolved_outcomes",
  "monitor_show",
  "next",
  "status",
  "source_follow"
]

const REAL_QUOTE = "every invoice line item with its VAT rate and currency code"

let dir: string
let server: Connected
const outputs: Array<string> = []

const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const r = await server.call(name, args)
  outputs.push(r.text)
  expect(r.isError, `${name}: ${r.text}`).toBe(false)
  expect(r.body.ok).toBe(true)
  // The text item is the same object.
  expect(JSON.parse(r.text)).toEqual(r.body)
  return r.body
}

const refused = async (name: string, args: Record<string, unknown>, tag: string) => {
  const r = await server.call(name, args)
  outputs.push(r.text)
  expect(r.isError, `${name}: ${r.text}`).toBe(true)
  expect(r.body.ok).toBe(false)
  expect(r.body.error._tag, r.text).toBe(tag)
  expect(typeof r.body.error.message).toBe("string")
  expect(typeof r.body.error.retryable).toBe("boolean")
  // What to do, as the human rendering says it; the text item is the same JSON.
  expect(r.body.error.hint, r.text).toBe(
    tag === "UsageError" ? usageInfo.hint : errorCatalogue[tag as keyof typeof errorCatalogue].hint
  )
  expect(JSON.parse(r.text)).toEqual(r.body)
  return r.body.error
}

beforeAll(async () => {
  expect(fs.existsSync(CLI)).toBe(true)
  dir = tempWorkdir("dossier-mcp-")
  put(dir, "research/sources/billing.md", SOURCE_TEXT)
  server = await connect(dir)
})

afterAll(async () => {
  await server?.client.close()
})

describe("dossier mcp (official SDK client)", () => {
  it("initializes with protocol 2025-06-18 or later and names itself", () => {
    expect(server.client.getServerVersion()).toMatchObject({ name: "dossier" })
    expect(server.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} })
    expect(server.client.getInstructions()).toContain("status")
  })

  it("lists one tool per command, each with a description and an input schema", async () => {
    const { tools } = await server.client.listTools()
    const names = tools.map((t) => t.name)
    const commands = toolNames(allSpecs)
    expect([...names].sort()).toEqual([...commands].sort())
    for (const name of SPEC_TOOLS) expect(names).toContain(name)
    for (const t of tools) {
      expect(t.description?.length ?? 0, t.name).toBeGreaterThan(20)
      expect(t.inputSchema.type, t.name).toBe("object")
      expect(JSON.stringify(t.inputSchema), t.name).not.toContain("\"workdir\"")
    }
    const start = tools.find((t) => t.name === "plan_start")!
    expect(Object.keys(start.inputSchema.properties ?? {}).sort()).toEqual(["expected", "input", "now", "replaceGoal"])
    expect(start.inputSchema.required).toEqual(["input"])
    // The inline input is described by the same Schema as `dossier schema plan-start`.
    expect(JSON.stringify(start.inputSchema)).toContain("nextAction")
    const ingest = tools.find((t) => t.name === "ingest")!
    expect(ingest.inputSchema.properties).toMatchObject({
      url: { type: "string" },
      timeout: { type: "integer", minimum: 1, maximum: 120 },
      dryRun: { type: "boolean" }
    })
    expect(Object.keys(ingest.inputSchema.properties ?? {}).sort()).toEqual(["dryRun", "now", "timeout", "url"])
    // url is required here: its description must not tell an agent to leave it out for an argument
    // this tool does not have (a saved page is the tool ingest_file).
    expect(ingest.inputSchema.required).toEqual(["url"])
    const url = (ingest.inputSchema.properties as Record<string, { description?: string }>)["url"]!
    expect(url.description).not.toMatch(/`file`|omit/)
    const recheck = tools.find((t) => t.name === "gate_recheck")!
    expect(Object.keys(recheck.inputSchema.properties ?? {}).sort()).toEqual(["descriptor", "now", "state"])
  })

  it("drives a whole flow: plan, capture, checkpoint, journal, gate, monitor, next", async () => {
    const tools = (await server.client.listTools()).tools.map((t) => t.name)
    if (tools.includes("status")) expect((await ok("status")).plan).toBeNull()
    expect(await ok("plan_inspect")).toMatchObject({ state: "none" })
    expect(
      await ok("plan_start", {
        input: { goal: "Ship the invoice export", limits: ["no customer data"], nextAction: "read the notes" }
      })
    )
      .toMatchObject({ created: true, revision: 1 })
    // Capture: a dry run passes the checks; loopback is refused before any connection.
    expect(await ok("ingest", { url: "https://example.com/billing", dryRun: true })).toMatchObject({
      network: "not_checked",
      host: "example.com"
    })
    await refused("ingest", { url: "http://127.0.0.1:9/x" }, "ForbiddenDestination")
    let source = "research/sources/billing.md"
    if (tools.includes("ingest_file")) {
      put(dir, "inbox/billing.md", SOURCE_TEXT)
      source =
        (await ok("ingest_file", { file: "inbox/billing.md", origin: "https://example.test/billing" })).source.path
    }
    const cp = await ok("plan_checkpoint", {
      expected: 1,
      input: {
        sources: [{ path: source, origin: "https://example.test/billing" }],
        completedSteps: [{ id: "s1", summary: "read the notes" }],
        nextAction: "journal"
      }
    })
    expect(cp.revision).toBe(2)
    expect(await refused("plan_checkpoint", { expected: 1, input: { nextAction: "x" } }, "StaleRevision"))
      .toMatchObject({ expected: 1, actual: 2 })
    expect((await ok("plan_inspect")).verification.state).not.toBe("needs-attention")
    // Follow a clipped excerpt back to its whole passage in the registered source.
    const followed = await ok("source_follow", { quote: "…every invoice line item … currency code…" })
    const inSource = followed.matches.filter((m: any) => m.path === source)
    expect(inSource).toHaveLength(1)
    expect(inSource[0]).toMatchObject({
      registered: true,
      origin: "https://example.test/billing",
      section: "Billing export notes"
    })
    expect(inSource[0].paragraph).toContain("rounded half-up to two decimals")
    // Copies not registered in the plan are found too, and say so.
    expect(followed.matches.filter((m: any) => m.path !== source).every((m: any) => m.registered === false)).toBe(true)
    expect((await ok("source_follow", { quote: "this sentence is in no source at all", path: source })).matches)
      .toEqual([])
    await refused(
      "source_follow",
      { quote: "a quote long enough to search", path: "../outside.json" },
      "InputOutsideWorkdir"
    )

    // Journal.
    const appended = await ok("journal_append", {
      study: "exp",
      input: [
        { id: "e1", type: "candidate_created", candidate: { id: "c1", title: "CSV per month" } },
        {
          id: "e2",
          type: "evaluation_recorded",
          candidateId: "c1",
          evaluation: { evaluatorVersion: "v1", metrics: { score: 0.9 }, decision: "accept" }
        }
      ]
    })
    expect(appended.appended).toEqual(["e1", "e2"])
    const inspected = await ok("journal_inspect", { study: "exp", verify: true })
    expect(inspected).toMatchObject({ events: 2, head: { seq: 2, id: "e2" } })
    expect(inspected.candidates.map((c: any) => c.status)).toEqual(["accepted"])
    await refused("journal_append", {
      study: "exp",
      input: [{ id: "e1", type: "candidate_created", candidate: { id: "c1", title: "other" } }]
    }, "ConflictingEvent")

    // Gate: a quote from the registered source closes the gap.
    put(dir, "run/state.json", JSON.stringify(parkedMaturity([{ id: "scope_unclear", category: "scope" }])))
    put(
      dir,
      "research/gate/research.json",
      JSON.stringify(closingScopeResearch("Line items.", [{ label: "notes", ref: source, quote: REAL_QUOTE }]))
    )
    const gate = await ok("gate", { state: "run/state.json", now: "2026-11-30T10:00:00Z" })
    expect(gate).toMatchObject({ active: true, kind: "maturity" })
    expect(gate.research.closed).toEqual(["scope_unclear"])

    // Monitor: subscription → due → run → finish.
    expect((await ok("monitor_create_subscription", { input: literature("lit"), now: "2026-11-30T10:00:00Z" })).created)
      .toBe(true)
    const now = at(weekWindow(0), 1000)
    const due = await ok("monitor_due", { now })
    expect(due.subscriptions.map((s: any) => [s.id, s.due])).toEqual([["lit", true]])
    const run = (await ok("monitor_create_due_run", { input: { subscriptionId: "lit" }, now })).run
    const running =
      (await ok("monitor_transition_run", { input: { runId: run.id, expectedRevision: 1, to: "running" }, now })).run
    put(dir, "research/sources/paper.txt", PAPER_TEXT)
    const stage = `# literature stage\nmonitor_binding: run_id=${running.id} task_digest=${running.receiptDigest}\n`
    put(dir, `research/results/${running.id}.md`, stage)
    const finished = await ok("monitor_finish_run", {
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
    })
    expect(finished.run.status).toBe("completed")
    expect((await ok("monitor_unresolved_outcomes")).count).toBe(1)
    const next = await ok("next", { now })
    expect(next.facts.map((f: any) => f.kind)).toContain("unresolved-outcome")
    expect((await ok("monitor_show", { run: running.id })).run.binding).toBe("verified")
    await refused("monitor_show", {}, "UsageError")

    // Resources: the plan, every retained file, every journal.
    const { resources } = await server.client.listResources()
    const uris = resources.map((r) => r.uri)
    expect(uris).toEqual(
      expect.arrayContaining([
        "dossier://plan",
        `dossier://sources/${source.slice("research/sources/".length)}`,
        "dossier://sources/paper.txt",
        "dossier://journal/exp"
      ])
    )
    const plan = await server.client.readResource({ uri: "dossier://plan" })
    expect((plan.contents[0] as { text: string }).text).toContain("Ship the invoice export")
    const paper = await server.client.readResource({ uri: "dossier://sources/paper.txt" })
    expect(paper.contents[0]).toMatchObject({ uri: "dossier://sources/paper.txt", text: PAPER_TEXT })
    const journal = await server.client.readResource({ uri: "dossier://journal/exp" })
    expect((journal.contents[0] as { text: string }).text.trim().split("\n")).toHaveLength(2)
    const { resourceTemplates } = await server.client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      "dossier://journal/{study}",
      "dossier://sources/{+path}"
    ])
  })

  it("no argument can name a path outside the folder", async () => {
    fs.writeFileSync(path.join(path.dirname(dir), "outside.json"), "{}")
    await refused("gate", { state: "../outside.json" }, "InputOutsideWorkdir")
    await refused("gate", { state: path.join(path.dirname(dir), "outside.json") }, "InputOutsideWorkdir")
    await refused("gate_recheck", { state: "run/state.json", descriptor: "/etc/passwd" }, "InputOutsideWorkdir")
    await refused("ingest_file", { file: "../outside.json", origin: "https://example.test/x" }, "InputOutsideWorkdir")
    await refused("gate", { state: "run/state.json", researchDir: "../.." }, "InputOutsideWorkdir")
    // A symlink inside the folder that points out of it is never followed.
    fs.symlinkSync(path.join(path.dirname(dir), "outside.json"), path.join(dir, "run/link.json"))
    await refused("gate", { state: "run/link.json" }, "UnsafePath")
    // Inline inputs name paths too; they are held to the same areas.
    const revision = (await ok("plan_inspect")).revision
    await refused("plan_checkpoint", {
      expected: revision,
      input: { sources: [{ path: "../outside.json", origin: "x" }] }
    }, "UnsafePath")
    for (
      const uri of [
        "dossier://sources/../../plan.md",
        "dossier://sources/%2e%2e/%2e%2e/plan.md",
        "dossier://sources/..%2F..%2Fplan.md",
        "dossier://journal/../../etc",
        "dossier://sources/%2Fetc%2Fpasswd"
      ]
    ) {
      await expect(server.client.readResource({ uri }), uri).rejects.toThrow()
    }
  })

  it("an argument holding a NUL byte or a lone surrogate is InvalidInput at it, never another file's name", async () => {
    const own = tempWorkdir("dossier-mcp-not-text-")
    // The file system reads a lone surrogate in a name as U+FFFD: this file must not answer for it.
    put(own, "research/sources/\ufffd.md", "A replacement-named file with plenty of words in it.\n")
    const client = await connect(own)
    try {
      const quote = "replacement-named file with plenty of words"
      for (
        const [tool, args, detail] of [
          ["source_follow", { quote, path: "research/sources/\ud800.md" }, "argument 'path': a lone surrogate"],
          ["source_follow", { quote, path: "research/sources/x\u0000.md" }, "argument 'path': holds a NUL byte"],
          ["source_follow", { quote: `${quote}\udfff` }, "argument 'quote': a lone surrogate"],
          [
            "ingest_file",
            { file: "research/sources/\ufffd.md", origin: "https://example.test/\ud800" },
            "argument 'origin': a lone surrogate"
          ],
          ["ingest", { url: "https://example.test/a\u0000b", dryRun: true }, "argument 'url': holds a NUL byte"]
        ] as const
      ) {
        const r = await client.call(tool, args)
        expect({ isError: r.isError, tag: r.body.error?._tag }, detail).toEqual({ isError: true, tag: "InvalidInput" })
        expect(`argument '${r.body.error.issues[0].path}': ${r.body.error.issues[0].message}`, detail).toContain(detail)
      }
      // Nothing was captured, and the file is still found by its own name.
      expect(fs.readdirSync(path.join(own, "research/sources"))).toEqual(["\ufffd.md"])
      const found = await client.call("source_follow", { quote, path: "research/sources/\ufffd.md" })
      expect(found.body.matches.map((m: { path: string }) => m.path)).toEqual(["research/sources/\ufffd.md"])
    } finally {
      await client.client.close()
    }
  })

  it("refuses bad arguments with a UsageError envelope, and answers the error catalogue's envelope for refusals", async () => {
    const usage = await refused("plan_inspect", { bogus: 1 }, "UsageError")
    expect(usage.message).toContain("bogus")
    // The way out names what a tool call fixes, not only a command line.
    expect(usage.hint).toContain("the tool's arguments")
    expect((await refused("plan_checkpoint", { expected: "two", input: {} }, "UsageError")).message).toContain(
      "expected"
    )
    expect((await refused("plan_start", {}, "UsageError")).message).toContain("input")
    // A revision goes only with replaceGoal: refused, not ignored, naming the arguments (not --flags).
    const start = { goal: "Compare billing systems", limits: [], nextAction: "n" }
    expect((await refused("plan_start", { input: start, expected: 1 }, "UsageError")).message).toMatch(
      /^expected only goes with replaceGoal\b/
    )
    await refused("plan_start", { input: { ...start, expectedRevision: 1 } }, "UsageError")
    expect((await refused("monitor_due", { now: "yesterday" }, "UsageError")).message).toContain("now")
    // An empty positional is an empty value, as `ingest ""` is on the command line: at the argument.
    expect((await refused("ingest", { url: "" }, "UsageError")).message).toBe(
      "argument 'url': the value is empty; give a url"
    )
    expect((await refused("schema", { name: "" }, "UsageError")).message).toBe(
      "argument 'name': the value is empty; give a value"
    )
    const invalid = await refused("plan_start", { input: { goal: "" } }, "InvalidInput")
    expect(invalid.issues.map((i: any) => i.path)).toEqual(expect.arrayContaining(["limits", "nextAction"]))
    await refused("journal_inspect", { study: "Bad Id" }, "InvalidInput")
    const big = await refused(
      "plan_start",
      { input: { goal: "x".repeat(70_000), limits: [], nextAction: "y" } },
      "InputTooLarge"
    )
    expect(big).toMatchObject({ path: "input", max: 65536 })
    // An unknown tool is a protocol error, not a tool result.
    await expect(server.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/not found/)
  })

  it("an unknown tool's name is repeated as every refusal's values are: whole to 512, else clipped with a marker", async () => {
    const unknown = async (name: string) =>
      server.client.callTool({ name, arguments: {} }).then(() => undefined, (x: unknown) => x as McpError)
    const whole = `t${"b".repeat(510)}z`
    const said = await unknown(whole)
    expect(said).toBeInstanceOf(McpError)
    expect(said!.code).toBe(-32602)
    expect(said!.message).toContain(`Tool not found: ${whole}`)
    const clippedName = await unknown(`t${"a".repeat(100_000)}z`)
    expect(clippedName!.code).toBe(-32602)
    expect(clippedName!.message).toMatch(/Tool not found: ta+\u2026\[99490 characters left out\]\u2026a+z$/)
    expect(clippedName!.message.length).toBeLessThan(700)
  })

  it("a 100 KB value is refused in a few hundred bytes, clipped with a marker, through MCP", async () => {
    const huge = "a".repeat(100_000)
    for (
      const [name, args] of [
        ["journal_inspect", { study: huge }],
        ["grant_show", { grant: huge }],
        ["plan_start", { input: { goal: "g", limits: [], nextAction: "n", [huge.slice(0, 60_000)]: 1 } }]
      ] as const
    ) {
      const r = await server.call(name, args)
      expect(r.isError, name).toBe(true)
      expect(r.text.length, `${name}: ${r.text.slice(0, 200)}`).toBeLessThan(3072)
      expect(JSON.stringify(r.body).length).toBeLessThan(3072)
      expect(r.text, name).toMatch(/a\u2026\[\d+ characters left out\]\u2026a/)
    }
  })

  it("never shows an absolute path of the machine", () => {
    expect(outputs.length).toBeGreaterThan(20)
    for (const text of outputs) {
      expect(text).not.toContain(dir)
      expect(text).not.toMatch(/\n\s+at /)
    }
    expect(server.stderr()).toBe("")
  })
})
