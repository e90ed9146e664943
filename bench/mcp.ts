/**
 * MCP benchmark: a `plan_inspect` round trip through a running `dossier mcp` (the official SDK
 * client over stdio; the server built its services once) against the same `dossier plan inspect
 * --json` started as a process. Target: at most one fifth.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { CLI, counts, record, tempDir, timeAsync, timeSync } from "./support.js"

export const benchMcp = async (): Promise<void> => {
  const dir = tempDir("dossier-bench-mcp-")
  fs.mkdirSync(path.join(dir, "research/inputs"), { recursive: true })
  fs.writeFileSync(path.join(dir, "research/inputs/s.json"), JSON.stringify({ goal: "g", limits: [], nextAction: "n" }))
  const start = spawnSync(process.execPath, [
    CLI,
    "plan",
    "start",
    "--workdir",
    dir,
    "--input",
    "research/inputs/s.json",
    "--json"
  ])
  if (start.status !== 0) throw new Error(String(start.stdout))
  const cli = timeSync(counts.mcp.cliRuns, () => {
    const r = spawnSync(process.execPath, [CLI, "plan", "inspect", "--workdir", dir, "--json"], { encoding: "utf8" })
    if (r.status !== 0) throw new Error(r.stdout)
  }, counts.mcp.cliWarmup)
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", "--workdir", dir],
    stderr: "inherit"
  })
  const client = new Client({ name: "dossier-bench", version: "1.0.0" })
  await client.connect(transport)
  const viaMcp = await timeAsync(counts.mcp.mcpRuns, async () => {
    const r = await client.callTool({ name: "plan_inspect", arguments: {} })
    if (r.isError === true) throw new Error(JSON.stringify(r))
  }, counts.mcp.mcpWarmup)
  await client.close()
  record({
    name: "plan_inspect through dossier mcp (round trip)",
    ms: viaMcp,
    baseline: "dossier plan inspect --json (process)",
    baselineMs: cli,
    target: 0.2
  })
  fs.rmSync(dir, { recursive: true, force: true })
}
