/**
 * What an MCP host learns about the tools before it runs one, through the official SDK client
 * (1.x): the revision it asks for, each tool's title, safety hints and output schema (which the
 * client validates every answer against), inputs that say what they mean in the tool's own
 * words, a tool list small enough to send on every turn (and subsets of it), and resources that
 * answer "not found" for whatever is not one.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { allSpecs } from "../../src/cli/Specs.js"
import { TOOL_HINTS } from "../../src/commands/ToolHints.js"
import { isTool, modesOf, toolAreas, toolNames } from "../../src/mcp/Tools.js"
import { CLI, put, tempWorkdir } from "../support/cli.js"
import { connect, type Connected, raw } from "./support.js"

/** The tools that never write (their commands say "Never writes" or only show). */
const READ_ONLY = [
  "status",
  "plan_inspect",
  "journal_list",
  "journal_inspect",
  "gate_recheck",
  "monitor_due",
  "monitor_list",
  "monitor_show",
  "monitor_unresolved_outcomes",
  "next",
  "source_follow",
  "grant_show",
  "grant_list",
  "exec_show",
  "store_status",
  "schema"
]

/**
 * The most a whole `tools/list` answer may weigh: 31 KiB (bytes of its JSON-RPC line; it was 60,163).
 */
const LIST_BUDGET = 31 * 1024

let dir: string
let server: Connected

beforeAll(async () => {
  dir = tempWorkdir("dossier-mcp-hosts-")
  put(dir, "research/sources/notes.md", "Every invoice line item keeps its VAT rate and its currency code, always.\n")
  server = await connect(dir)
})

afterAll(async () => {
  await server?.client.close()
})

const listed = async () => (await server.client.listTools()).tools

describe("MCP for the hosts agents use now (official SDK client 1.x)", () => {
  it("negotiates the revision the client asks for (2025-11-25)", () => {
    expect(server.protocolVersion()).toBe("2025-11-25")
  })

  it("every tool has a title, an output schema and hints saying whether it writes", async () => {
    const tools = await listed()
    expect(Object.keys(TOOL_HINTS).sort()).toEqual([...toolNames(allSpecs)].sort())
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\w{3}/)
      expect(t.outputSchema?.type, t.name).toBe("object")
      expect(t.annotations, t.name).toBeDefined()
      const a = t.annotations!
      expect(a.openWorldHint, t.name).toBe(t.name === "ingest")
      if (READ_ONLY.includes(t.name)) {
        expect(a.readOnlyHint, t.name).toBe(true)
      } else {
        expect(a.readOnlyHint ?? false, t.name).toBe(false)
        expect(typeof a.destructiveHint, t.name).toBe("boolean")
      }
    }
    const byName = (n: string) => tools.find((t) => t.name === n)!
    // Only adds: a journal event, a retained capture; replaces: the plan, a run's state.
    expect(byName("journal_append").annotations).toMatchObject({ destructiveHint: false, idempotentHint: true })
    expect(byName("ingest").annotations).toMatchObject({ destructiveHint: false, openWorldHint: true })
    expect(byName("plan_checkpoint").annotations).toMatchObject({ destructiveHint: true })
    expect(byName("init").annotations).toMatchObject({ destructiveHint: false, idempotentHint: true })
    // The output schema names the success's fields (here plan inspect's `state`).
    expect(Object.keys(byName("plan_inspect").outputSchema?.properties ?? {})).toContain("state")
    expect(Object.keys(byName("status").outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["workdir", "plan", "studies", "monitor", "grants", "facts", "suggestion"])
    )
  })

  it("every answer matches its tool's output schema, refusals included (the client validates them)", async () => {
    const calls: ReadonlyArray<[string, Record<string, unknown>, boolean]> = [
      ["init", {}, false],
      ["status", {}, false],
      ["plan_inspect", {}, false],
      ["journal_list", {}, false],
      ["monitor_list", {}, false],
      ["monitor_due", {}, false],
      ["monitor_unresolved_outcomes", {}, false],
      ["next", {}, false],
      ["grant_list", {}, false],
      ["source_follow", { quote: "keeps its VAT rate and its currency code" }, false],
      ["schema", {}, false],
      ["schema", { name: "errors" }, false],
      ["ingest", { url: "http://127.0.0.1/x", dryRun: true }, true],
      ["ingest", { url: "https://example.org/a", dryRun: true }, false],
      ["journal_inspect", { study: "missing" }, true],
      ["grant_show", { grant: "missing" }, true],
      ["exec_show", { execution: "x-20260101T000000-abcdef12" }, true]
    ]
    for (const [name, args, isError] of calls) {
      const r = await server.call(name, args)
      expect(r.isError, `${name}: ${r.text}`).toBe(isError)
      expect(r.body.ok).toBe(!isError)
    }
  })

  it("inputs: required ones marked, each described in the tool's own words", async () => {
    const tools = await listed()
    const byName = (n: string) => tools.find((t) => t.name === n)!
    expect(byName("ingest").inputSchema.required).toEqual(["url"])
    expect([...(byName("ingest_file").inputSchema.required ?? [])].sort()).toEqual(["file", "origin"])
    // A recheck needs the item as fetched fresh: the host is told before it calls.
    expect([...(byName("gate_recheck").inputSchema.required ?? [])].sort()).toEqual(["descriptor", "state"])
    const recheck = await server.call("gate_recheck", { state: "run/state.json" })
    expect(recheck.body.error).toMatchObject({ _tag: "UsageError", message: "argument 'descriptor': is missing" })
    for (const t of tools) {
      for (
        const [arg, schema] of Object.entries(t.inputSchema.properties ?? {}) as Array<
          [string, { description?: string }]
        >
      ) {
        const d = schema.description ?? ""
        expect(d.length, `${t.name}.${arg}`).toBeGreaterThan(8)
        // Argument names, not the CLI's flags (nested descriptions too); no generated filler.
        expect(d, `${t.name}.${arg}`).not.toMatch(/--[a-z]/)
        expect(JSON.stringify(schema), `${t.name}.${arg} (nested)`).not.toMatch(/--[a-z]/)
        expect(JSON.stringify(schema), `${t.name}.${arg}`).not.toMatch(
          /character\(s\)|a string at least|a non empty string/
        )
      }
      expect(t.description ?? "", t.name).not.toMatch(/--[a-z]/)
    }
    expect(byName("plan_checkpoint").inputSchema.properties?.["expected"]).toMatchObject({
      type: "integer",
      description: expect.stringContaining("revision")
    })
    expect(byName("ingest").inputSchema.properties?.["timeout"]).toMatchObject({
      description: expect.stringContaining("seconds")
    })
    expect(byName("gate").inputSchema.properties?.["maxAskRounds"]).toMatchObject({
      description: expect.stringContaining("rounds")
    })
    expect(byName("ingest_file").inputSchema.properties?.["file"]).toMatchObject({
      description: expect.stringContaining("work folder")
    })
    expect(byName("ingest_file").inputSchema.properties?.["origin"]).toMatchObject({
      description: expect.stringContaining("`file`")
    })
    // A sketched input points at its whole schema, which the schema tool gives.
    const events = byName("journal_append").inputSchema.properties?.["input"] as { description: string }
    expect(events.description).toContain("journal-events")
    const whole = await server.call("schema", { name: "journal-events" })
    expect(JSON.stringify(whole.body.schema)).toContain("candidate_created")
  })

  it(`the whole tools/list answer is at most ${LIST_BUDGET} bytes with every tool; --read-only and --tools serve subsets`, async () => {
    const size = async (flags: ReadonlyArray<string>) => {
      const s = raw(dir, flags)
      s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }))
      const answer = await s.next()
      const bytes = Buffer.byteLength(s.lines()[0]!)
      await s.end()
      return { bytes, names: (answer.result.tools as Array<{ name: string }>).map((t) => t.name) }
    }
    const all = await size([])
    expect(all.names.sort()).toEqual([...toolNames(allSpecs)].sort())
    expect(all.bytes).toBeLessThanOrEqual(LIST_BUDGET)
    const readOnly = await size(["--read-only"])
    expect(readOnly.names.sort()).toEqual([...READ_ONLY].sort())
    const some = await size(["--tools", "plan,journal"])
    expect(some.names.sort()).toEqual(
      [
        "plan_start",
        "plan_checkpoint",
        "plan_inspect",
        "journal_list",
        "journal_append",
        "journal_inspect",
        "journal_rebuild",
        "journal_recover_tail",
        "journal_import",
        "schema"
      ].sort()
    )
    const both = await size(["--read-only", "--tools=monitor"])
    expect(both.names.sort()).toEqual([
      "monitor_due",
      "monitor_list",
      "monitor_show",
      "monitor_unresolved_outcomes",
      "schema"
    ])
    // A subset serves only its own tools.
    const subset = await connect(dir, {}, ["--read-only"])
    try {
      await expect(subset.client.callTool({ name: "plan_start", arguments: {} })).rejects.toThrow(/not found/)
    } finally {
      await subset.client.close()
    }
    const bad = spawnSync(process.execPath, [CLI, "mcp", "--workdir", dir, "--tools", "plan,nope", "--json"], {
      encoding: "utf8"
    })
    expect(bad.status).toBe(2)
    expect(JSON.parse(bad.stdout).error._tag).toBe("UsageError")
    // The help names every area --tools takes (schema is always served).
    const help = spawnSync(process.execPath, [CLI, "mcp", "--help"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ")
    const areas = help.slice(help.indexOf("Offer only the tools of these areas"))
    for (const area of toolAreas(allSpecs).filter((a) => a !== "schema")) {
      expect(areas, area).toMatch(new RegExp(`[:,] ${area}[,( ]`))
    }
    // The refusal names the unknown area, not the whole list given.
    expect(JSON.parse(bad.stdout).error.message).toMatch(/^--tools: unknown area 'nope'; the areas are init, /)
    // The help names every command that is no tool.
    const noTool = allSpecs.filter((s) => !isTool(s) || modesOf(s).length === 0).map((s) => s.path.join(" "))
    expect(noTool).toContain("mcp")
    const but = /Every other command but (.*?) is a tool/.exec(help)?.[1]
    for (const command of noTool.filter((c) => c !== "mcp")) {
      expect(but, command).toMatch(new RegExp(`\\b${command}\\b`))
    }
  })

  it("an unknown or outside resource is always MCP's resource not found (-32002)", async () => {
    fs.symlinkSync(path.join(path.dirname(dir), "elsewhere.md"), path.join(dir, "research/sources/link.md"))
    const notFound = [
      "file:///etc/passwd",
      "http://127.0.0.1/",
      "dossier://nothing",
      "dossier://plan/../../etc/passwd",
      "dossier://sources/../../../etc/passwd",
      "dossier://sources/%2e%2e/%2e%2e/etc/passwd",
      "dossier://sources/missing.md",
      "dossier://sources/link.md",
      "dossier://journal/missing",
      "dossier://journal/../../etc",
      // A name no file can have (over 255 bytes): not found, not an internal error.
      `dossier://sources/${"b".repeat(300)}`
    ]
    for (const uri of notFound) {
      const e = await server.client.readResource({ uri }).then(() => undefined, (x: unknown) => x)
      expect(e, uri).toBeInstanceOf(McpError)
      expect((e as McpError).code, uri).toBe(-32002)
      expect((e as McpError).data, uri).toEqual({ uri })
    }
    // A huge URI is repeated clipped, with a marker, in the message and in data.
    const huge = `dossier://sources/x/${"a".repeat(100_000)}`
    const e = await server.client.readResource({ uri: huge }).then(() => undefined, (x: unknown) => x)
    expect((e as McpError).code).toBe(-32002)
    const said = (e as McpError).data as { uri: string }
    expect(said.uri.length).toBeLessThan(600)
    expect(said.uri).toMatch(/^dossier:\/\/sources\/x\/a+\u2026\[\d+ characters left out\]\u2026a+$/)
    expect((e as McpError).message.length).toBeLessThan(700)
    // The message repeats the same clipped URI, its end included (not cut again).
    expect((e as McpError).message.endsWith(`Resource not found: ${said.uri}`)).toBe(true)
    // The plan is missing too until it exists: the same error, and the list does not name it.
    await expect(server.client.readResource({ uri: "dossier://plan" })).rejects.toMatchObject({ code: -32002 })
    const listed = async () => (await server.client.listResources()).resources.map((r) => r.uri)
    expect(await listed()).not.toContain("dossier://plan")
    // Every resource listed can be read.
    put(dir, "plan.md", "# Notes\n")
    expect(await listed()).toContain("dossier://plan")
    for (const uri of await listed()) await server.client.readResource({ uri })
    const ok = await server.client.readResource({ uri: "dossier://sources/notes.md" })
    expect(ok.contents[0]).toMatchObject({
      uri: "dossier://sources/notes.md",
      mimeType: "text/markdown",
      text: expect.stringContaining("VAT rate")
    })
  })

  it("the list offers only what a read serves: no hard-linked, symlinked, special or too large file", async () => {
    const own = tempWorkdir("dossier-mcp-listed-")
    const line = (id: string, title: string) => ({ id, type: "candidate_created", candidate: { id, title } })
    put(own, "plan.md", "# Notes\n")
    put(own, "research/sources/kept.md", "A plain retained file.\n")
    // A source with a second name (elsewhere in the folder), one behind a symlink, a FIFO, one over 16 MiB.
    put(own, "research/sources/twice.md", "Held under two names.\n")
    fs.linkSync(path.join(own, "research/sources/twice.md"), path.join(own, "research/inputs-twice.md"))
    put(own, "elsewhere.md", "Outside research/sources/.\n")
    fs.symlinkSync(path.join(own, "elsewhere.md"), path.join(own, "research/sources/link.md"))
    spawnSync("mkfifo", [path.join(own, "research/sources/pipe.md")])
    put(own, "research/sources/big.txt", "")
    fs.truncateSync(path.join(own, "research/sources/big.txt"), 16 * 1024 * 1024 + 1)
    const client = await connect(own)
    try {
      for (const study of ["good", "linked", "hardlinked"]) {
        expect((await client.call("journal_append", { study, input: [line("e1", study)] })).isError).toBe(false)
      }
      // A journal that is a symlink (to a journal of its own), and one with a second name.
      const journal = (study: string) => path.join(own, "research", study, "research-events.jsonl")
      fs.renameSync(journal("linked"), path.join(own, "linked-events.jsonl"))
      fs.symlinkSync(path.join(own, "linked-events.jsonl"), journal("linked"))
      fs.linkSync(journal("hardlinked"), path.join(own, "research", "hardlinked", "copy.jsonl"))

      const uris = (await client.client.listResources()).resources.map((r) => r.uri)
      expect(uris.sort()).toEqual([
        "dossier://journal/good",
        "dossier://plan",
        "dossier://sources/kept.md"
      ])
      // What is listed reads; what is left out is refused by the read too.
      for (const uri of uris) await client.client.readResource({ uri })
      for (
        const uri of [
          "dossier://sources/twice.md",
          "dossier://sources/link.md",
          "dossier://sources/pipe.md",
          "dossier://sources/big.txt",
          "dossier://journal/linked",
          "dossier://journal/hardlinked"
        ]
      ) {
        await expect(client.client.readResource({ uri }), uri).rejects.toBeInstanceOf(McpError)
      }
      // research/sources/ itself a symlink: no source is offered, and the rest of the list stands.
      fs.renameSync(path.join(own, "research/sources"), path.join(own, "moved-sources"))
      fs.symlinkSync(path.join(own, "moved-sources"), path.join(own, "research/sources"))
      expect((await client.client.listResources()).resources.map((r) => r.uri).sort()).toEqual([
        "dossier://journal/good",
        "dossier://plan"
      ])
      // Without plan.md, no plan is offered even then.
      fs.rmSync(path.join(own, "plan.md"))
      expect((await client.client.listResources()).resources.map((r) => r.uri)).toEqual(["dossier://journal/good"])
    } finally {
      await client.client.close()
    }
  })
})
