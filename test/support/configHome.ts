/**
 * Every test file gets its own config directory: the key that signs grants and execution records
 * (`$XDG_CONFIG_HOME/dossier/evidence.key`) is created there, never in the real home. Children
 * (the built CLI, the MCP server) inherit it through the environment.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

process.env["XDG_CONFIG_HOME"] = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-config-")))
