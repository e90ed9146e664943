/** Every command declared as data, and the groups they belong to (light: on the start-up path). */
import { execSpecs } from "./commands/exec.js"
import { gateSpecs } from "./commands/gate.js"
import { grantGroup, grantSpecs } from "./commands/grant.js"
import { initSpecs } from "./commands/init.js"
import { ingestSpecs } from "./commands/ingest.js"
import { journalGroup, journalSpecs } from "./commands/journal.js"
import { mcpSpecs } from "./commands/mcp.js"
import { monitorGroup, monitorSpecs } from "./commands/monitor.js"
import { planGroup, planSpecs } from "./commands/plan.js"
import { schemaSpecs } from "./commands/schema.js"
import { sourceGroup, sourceSpecs } from "./commands/source.js"
import type { CommandSpec, GroupSpec } from "./Spec.js"

/**
 * The one command table: every command of the CLI (and of whatever else is built from it).
 * To add a command, declare it in its own src/cli/commands/<area>.ts with `command(...)` and add
 * its list here; a new group also goes into `groups`.
 */
export const allSpecs: ReadonlyArray<CommandSpec> = [...initSpecs, ...planSpecs, ...ingestSpecs, ...journalSpecs, ...gateSpecs, ...monitorSpecs, ...sourceSpecs, ...grantSpecs, ...execSpecs, ...schemaSpecs, ...mcpSpecs]
export const groups: ReadonlyArray<GroupSpec> = [planGroup, journalGroup, monitorGroup, sourceGroup, grantGroup]
