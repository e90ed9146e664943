/** Helpers for the MCP tests: the official SDK client spawning the built `dossier mcp`, and raw stdio. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { spawn } from "node:child_process"
import { CLI } from "../support/cli.js"

export interface Connected {
  readonly client: Client
  readonly transport: StdioClientTransport
  /** What the server wrote on stderr so far. */
  readonly stderr: () => string
  /** Call a tool; `structuredContent` and the call's `isError`. */
  readonly call: (
    name: string,
    args?: Record<string, unknown>
  ) => Promise<{ isError: boolean; body: any; text: string }>
  /** The protocol revision the handshake settled on. */
  readonly protocolVersion: () => string | undefined
}

/** Spawn `dossier mcp --workdir <dir>` and connect the official SDK client to it. */
export const connect = async (
  dir: string,
  env: Record<string, string> = {},
  flags: ReadonlyArray<string> = []
): Promise<Connected> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--workdir", dir, ...flags],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe"
  })
  let err = ""
  transport.stderr?.on("data", (d) => (err += d))
  const client = new Client({ name: "dossier-test", version: "1.0.0" })
  // The client tells its transport the revision the server answered.
  let negotiated: string | undefined
  ;(transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion = (v) => (negotiated = v)
  await client.connect(transport)
  return {
    client,
    transport,
    stderr: () => err,
    protocolVersion: () => negotiated,
    call: async (name, args = {}) => {
      const r = await client.callTool({ name, arguments: args })
      const content = r.content as ReadonlyArray<{ type: string; text?: string }>
      return {
        isError: r.isError === true,
        body: r.structuredContent,
        text: content.length === 1 ? content[0]!.text ?? "" : ""
      }
    }
  }
}

export interface RawServer {
  /** Send one raw line (a newline is added); bytes are sent as they are. */
  readonly send: (line: string | Uint8Array) => void
  /** The next JSON line the server writes (within `ms`). */
  readonly next: (ms?: number) => Promise<any>
  /** Close stdin; resolves with the exit code and any stdout left unread. */
  readonly end: () => Promise<{ code: number | null; rest: string; stderr: string }>
}

/** Spawn `dossier mcp` and talk to it line by line, as a careless client would. */
export const raw = (
  dir: string,
  flags: ReadonlyArray<string> = []
): RawServer & { readonly lines: () => ReadonlyArray<string> } => {
  const child = spawn(process.execPath, [CLI, "mcp", "--workdir", dir, ...flags], { stdio: ["pipe", "pipe", "pipe"] })
  const seen: Array<string> = []
  let buffer = ""
  let stderr = ""
  const waiting: Array<(line: string) => void> = []
  const lines: Array<string> = []
  child.stdout.on("data", (d) => {
    buffer += d
    let i: number
    while ((i = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, i)
      buffer = buffer.slice(i + 1)
      seen.push(line)
      const w = waiting.shift()
      if (w) w(line)
      else lines.push(line)
    }
  })
  child.stderr.on("data", (d) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  return {
    lines: () => seen,
    send: (line) =>
      void child.stdin.write(typeof line === "string" ? `${line}\n` : Buffer.concat([line, Buffer.from("\n")])),
    next: (ms = 20_000) =>
      new Promise((resolve, reject) => {
        const l = lines.shift()
        if (l !== undefined) return resolve(JSON.parse(l))
        const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms; stderr: ${stderr}`)), ms)
        waiting.push((line) => {
          clearTimeout(timer)
          resolve(JSON.parse(line))
        })
      }),
    end: async () => {
      child.stdin.end()
      const code = await exited
      return { code, rest: [...lines, buffer].join("\n"), stderr }
    }
  }
}

export const initialize = (id: number | string = 1, protocolVersion = "2025-06-18") =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } }
  })

/** A request of the stateless revision: the version and the client's capabilities in `_meta`. */
export const stateless = (
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  version = "2026-07-28"
) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method,
    params: {
      ...params,
      _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} }
    }
  })

/** A grant the exec tests create over MCP (its input given inline). */
export const execGrant = {
  id: "g1",
  task: "task-1",
  inputs: ["research/exp/data"],
  work: "research/exp/runs/r1",
  tools: ["read", "bash"],
  budget: { runs: 5, wallSeconds: 60, cpuSeconds: 60, memoryMiB: 256, outputMiB: 4 },
  deadline: "2030-01-01T00:00:00Z"
}
