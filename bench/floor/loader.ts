/**
 * The floor programs' loader (bench/startup.ts): `node floor.cjs <program> [args…]` runs
 * `floor-<program>.cjs` beside it through src/cli/CodeCache.ts, the code cache and V8 flags of the
 * `dossier` binary (src/cli/bin.ts), with the optimizing compiler on as for every read-only
 * command. Built by scripts/build-floor.mjs, which sets each program's SHA-256.
 */
import * as path from "node:path"
import { runBundle } from "../../src/cli/CodeCache.js"

/** SHA-256 (hex) of each floor program, set by scripts/build-floor.mjs. */
declare const __DOSSIER_BUNDLE_SHA256__: Record<string, string>

const program = process.argv[2] ?? ""
const sha256 = __DOSSIER_BUNDLE_SHA256__[program]
if (sha256 === undefined) throw new Error(`no floor program '${program}'`)
// The program reads its own arguments from argv[2] on, as a bundle of the CLI does.
process.argv.splice(2, 1)
runBundle(path.join(__dirname, `floor-${program}.cjs`), sha256, () => true)
