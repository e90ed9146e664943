/** `dossier mcp`: the MCP server over stdio, declared as data (see src/commands/Spec.ts). */
import { command, type CommandSpec, json, workdir } from "../commands/Spec.js"

export const mcpSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["mcp"],
    description:
      "Serve the Model Context Protocol over stdio (JSON-RPC 2.0, one message per line) for this work folder, fixed at start, until stdin closes. " +
      "Revisions: 2026-07-28 (stateless: server/discover, the version in each request's _meta) and the handshake revisions 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05. " +
      "Every other command but pull and export (CLI-only: docs/store.md) is a tool (plan_inspect, journal_append, …; arguments: its flags in camelCase, and input for the input file's JSON inline), with a title, an output schema and read-only/destructive/idempotent/open-world hints; " +
      "resources: dossier://plan, dossier://sources/<path>, dossier://journal/<study>. A message is at most 4 MiB and nests at most 64 levels (else a JSON-RPC error, and the server goes on). " +
      "Register it with an MCP host as the command `dossier mcp --workdir <path>`. " +
      "--json only shapes a refusal at start (e.g. a missing folder).",
    flags: {
      workdir,
      json,
      readOnly: {
        kind: "boolean",
        name: "read-only",
        description: "Offer only the tools that never write (status, plan_inspect, journal_inspect, …)."
      },
      tools: {
        kind: "optionalText",
        name: "tools",
        value: "text",
        description:
          "Offer only the tools of these areas, comma-separated: init, status, plan, ingest, journal, gate, monitor, next, source, grant, exec, store (the schema tool is always offered)."
      }
    },
    run: (v) => import("./mcp.impl.js").then((m) => m.mcp(v))
  })
]
