/** The command table both faces serve, and the groups its commands belong to (light: on the start-up path). */
import { execSpecs } from "./exec.js"
import { gateSpecs } from "./gate.js"
import { grantGroup, grantSpecs } from "./grant.js"
import { ingestSpecs } from "./ingest.js"
import { initSpecs } from "./init.js"
import { journalGroup, journalSpecs } from "./journal.js"
import { monitorGroup, monitorSpecs } from "./monitor.js"
import { planGroup, planSpecs } from "./plan.js"
import { schemaSpecs } from "./schema.js"
import { sourceGroup, sourceSpecs } from "./source.js"
import type { CommandSpec, GroupSpec } from "./Spec.js"
import { storeGroup, storeSpecs } from "./store.js"

/**
 * The one command table: every command the CLI runs and the MCP server offers as a tool. To add a
 * command, declare it in its own src/commands/<area>.ts with `command(...)` and add its list here;
 * a new group also goes into `groups`. (`dossier mcp`, which starts the MCP server, is the CLI's
 * own: src/cli/Specs.ts.)
 */
export const commandSpecs: ReadonlyArray<CommandSpec> = [
  ...initSpecs,
  ...planSpecs,
  ...ingestSpecs,
  ...journalSpecs,
  ...gateSpecs,
  ...monitorSpecs,
  ...sourceSpecs,
  ...grantSpecs,
  ...execSpecs,
  ...storeSpecs,
  ...schemaSpecs
]
export const groups: ReadonlyArray<GroupSpec> = [
  planGroup,
  journalGroup,
  monitorGroup,
  sourceGroup,
  grantGroup,
  storeGroup
]
