/**
 * The protocol revisions `dossier mcp` serves, on the wire (raw JSON-RPC over the spawned built
 * CLI) and through the official client of each generation: the handshake revisions
 * (2024-11-05 … 2025-11-25, SDK 1.x) and the stateless 2026-07-28 (no handshake,
 * `server/discover`, the version in each request's `_meta`; the v2 client package
 * `@modelcontextprotocol/client`, when it is installed or DOSSIER_MCP_V2_CLIENT names its folder).
 */
import { spawn } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CLI, put, tempWorkdir } from "../support/cli.js"
import { initialize, raw, stateless } from "./support.js"

let dir: string

beforeAll(() => {
  dir = tempWorkdir("dossier-mcp-rev-")
  put(dir, "research/sources/notes.md", "Every invoice line item keeps its VAT rate and its currency code, always.\n")
})

describe("protocol revisions on the wire", () => {
  it("answers each handshake revision as asked, and the newest for one it does not know", async () => {
    for (
      const [asked, answered] of [
        ["2024-11-05", "2024-11-05"],
        ["2025-03-26", "2025-03-26"],
        ["2025-06-18", "2025-06-18"],
        ["2025-11-25", "2025-11-25"],
        ["2026-07-28", "2025-11-25"],
        ["1999-01-01", "2025-11-25"]
      ]
    ) {
      const s = raw(dir)
      s.send(initialize(1, asked))
      expect((await s.next()).result, asked).toMatchObject({
        protocolVersion: answered,
        serverInfo: { name: "dossier" }
      })
      await s.end()
    }
  })

  it("serves 2026-07-28 without a handshake: server/discover, and the version in each request's _meta", async () => {
    const s = raw(dir)
    s.send(stateless("d", "server/discover"))
    const discover = await s.next()
    expect(discover).toMatchObject({
      id: "d",
      result: { resultType: "complete", capabilities: { tools: {}, resources: {} } }
    })
    expect(discover.result.supportedVersions).toEqual([
      "2026-07-28",
      "2025-11-25",
      "2025-06-18",
      "2025-03-26",
      "2024-11-05"
    ])
    expect(discover.result._meta["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "dossier" })
    expect(discover.result.instructions).toContain("status")
    s.send(stateless(1, "tools/list"))
    const list = await s.next()
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" })
    expect(list.result.tools.length).toBeGreaterThan(30)
    s.send(stateless(2, "tools/call", { name: "plan_inspect", arguments: {} }))
    expect((await s.next()).result).toMatchObject({
      resultType: "complete",
      structuredContent: { ok: true, state: "none" }
    })
    s.send(stateless(3, "resources/read", { uri: "dossier://sources/notes.md" }))
    expect((await s.next()).result).toMatchObject({
      resultType: "complete",
      contents: [{ uri: "dossier://sources/notes.md" }]
    })
    // 2026-07-28's resource not found is -32602 with {uri}; the handshake revisions' is -32002.
    s.send(stateless(4, "resources/read", { uri: "file:///etc/passwd" }))
    expect(await s.next()).toMatchObject({ id: 4, error: { code: -32602, data: { uri: "file:///etc/passwd" } } })
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "file:///etc/passwd" } }))
    expect(await s.next()).toMatchObject({ id: 5, error: { code: -32002, data: { uri: "file:///etc/passwd" } } })
    // A version it does not serve: UnsupportedProtocolVersion, with what it does.
    s.send(stateless(6, "tools/list", {}, "2099-01-01"))
    expect(await s.next()).toMatchObject({
      id: 6,
      error: { code: -32022, data: { requested: "2099-01-01", supported: expect.arrayContaining(["2026-07-28"]) } }
    })
    // The client's capabilities are required beside the version.
    s.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }
      })
    )
    expect(await s.next()).toMatchObject({ id: 7, error: { code: -32602 } })
    const end = await s.end()
    expect(end.code).toBe(0)
  })
})

/** The v2 client package, when it can be loaded. */
const loadV2 = async (): Promise<{ Client: any; StdioClientTransport: any } | undefined> => {
  const base = process.env["DOSSIER_MCP_V2_CLIENT"] ?? "@modelcontextprotocol/client"
  try {
    const main = await import(process.env["DOSSIER_MCP_V2_CLIENT"] === undefined ? base : `${base}/dist/index.mjs`)
    const stdio = await import(
      process.env["DOSSIER_MCP_V2_CLIENT"] === undefined ? `${base}/stdio` : `${base}/dist/stdio.mjs`
    )
    return { Client: main.Client, StdioClientTransport: stdio.StdioClientTransport }
  } catch {
    return undefined
  }
}

const v2 = await loadV2()

// A devDependency: a clone after `npm ci` always has it, so its absence is a failure, never a skip.
describe("the official v2 client (@modelcontextprotocol/client)", () => {
  it("is installed", () => {
    expect(v2, "@modelcontextprotocol/client could not be loaded: run npm ci").toBeDefined()
  })
  const clients: Array<any> = []
  afterAll(async () => {
    for (const c of clients) await c.close()
  })

  for (const [mode, revision] of [["auto", "2026-07-28"], ["legacy", "2025-11-25"]] as const) {
    it(`negotiates ${revision} (${mode}) and drives the tools and resources`, async () => {
      const transport = new v2!.StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--workdir", dir],
        stderr: "pipe"
      })
      const client = new v2!.Client({ name: "dossier-test-v2", version: "1.0.0" }, { versionNegotiation: { mode } })
      clients.push(client)
      await client.connect(transport)
      expect(client.getNegotiatedProtocolVersion()).toBe(revision)
      expect(client.getServerVersion()).toMatchObject({ name: "dossier" })
      const { tools } = await client.listTools()
      expect(tools.find((t: any) => t.name === "ingest")).toMatchObject({
        title: expect.any(String),
        annotations: { openWorldHint: true }
      })
      const r = await client.callTool({ name: "plan_inspect", arguments: {} })
      expect(r.structuredContent).toMatchObject({ ok: true, state: "none" })
      const found = await client.readResource({ uri: "dossier://sources/notes.md" })
      expect(found.contents[0].text).toContain("VAT rate")
      const e = await client.readResource({ uri: "file:///etc/passwd" }).then(() => undefined, (x: unknown) => x)
      expect(e?.constructor?.name).toBe("ResourceNotFoundError")
    })
  }
})

describe("a dual-era client's probe", () => {
  it("server/discover is answered without _meta and without a handshake", async () => {
    const child = spawn(process.execPath, [CLI, "mcp", "--workdir", dir], { stdio: ["pipe", "pipe", "pipe"] })
    const out: Array<string> = []
    child.stdout.on("data", (d) => out.push(String(d)))
    child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover" })}\n`)
    await new Promise((r) => child.on("close", r))
    expect(JSON.parse(out.join("").trim())).toMatchObject({
      id: 1,
      result: { supportedVersions: expect.arrayContaining(["2026-07-28"]) }
    })
  })
})
