/** Every command declared as data, and the groups they belong to (light: on the start-up path). */
import { execSpecs } from "./commands/exec.js"
import { gateSpecs } from "./commands/gate.js"
import { grantGroup, grantSpecs } from "./commands/grant.js"
import { ingestSpecs } from "./commands/ingest.js"
import { journalGroup, journalSpecs } from "./commands/journal.js"
import { monitorGroup, monitorSpecs } from "./commands/monitor.js"
import { planGroup, planSpecs } from "./commands/plan.js"
import { schemaSpecs } from "./commands/schema.js"
import type { CommandSpec, GroupSpec } from "./Spec.js"

export const allSpecs: ReadonlyArray<CommandSpec> = [...planSpecs, ...ingestSpecs, ...journalSpecs, ...gateSpecs, ...monitorSpecs, ...grantSpecs, ...execSpecs, ...schemaSpecs]
export const groups: ReadonlyArray<GroupSpec> = [planGroup, journalGroup, monitorGroup, grantGroup]
