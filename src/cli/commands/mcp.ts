/** `dossier mcp`: the MCP server over stdio, declared as data (see src/cli/Spec.ts). */
import { type CommandSpec, command, json, workdir } from "../Spec.js"

export const mcpSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["mcp"],
    description:
      "Serve the Model Context Protocol over stdio (JSON-RPC 2.0, one message per line) for this work folder, fixed at start, until stdin closes. " +
      "Every command is a tool (plan_inspect, journal_append, …; arguments: its flags in camelCase, and input for the input file's JSON inline); " +
      "resources: dossier://plan, dossier://sources/<path>, dossier://journal/<study>. Register it with an MCP host as the command `dossier mcp --workdir <folder>`. " +
      "--json only shapes a refusal at start (e.g. a missing folder).",
    flags: { workdir, json },
    run: (v) => import("./mcp.impl.js").then((m) => m.mcp(v))
  })
]
