/** The CLI's commands: the one command table (src/commands/Specs.ts) and `dossier mcp` (light: on the start-up path). */
import type { CommandSpec } from "../commands/Spec.js"
import { commandSpecs, groups } from "../commands/Specs.js"
import { mcpSpecs } from "./mcp.js"

/** Every command of the CLI, in the order help lists them. */
export const allSpecs: ReadonlyArray<CommandSpec> = [...commandSpecs, ...mcpSpecs]
export { groups }
