// Build the floor programs of bench/startup.ts into the folder named by the first argument:
// bench/floor/<program>.ts as CLI bundles (floor-<program>.cjs, scripts/cli-bundle.mjs, as
// scripts/build.mjs builds the CLI's) and their loader (floor.cjs, bench/floor/loader.ts, which runs
// one through src/cli/CodeCache.ts like the `dossier` binary). No code cache is written here: the
// first run of each program writes its own, as the build's first run of each command does.
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { cliBundle, cliLoader } from "./cli-bundle.mjs"

const FLOOR_PROGRAMS = ["runtime", "schema"]

// The repository's folder: the script may be started from anywhere.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const out = process.argv[2]
if (out === undefined) throw new Error("usage: node scripts/build-floor.mjs <folder>")
const sha256s = {}
for (const program of FLOOR_PROGRAMS) {
  const file = path.join(out, `floor-${program}.cjs`)
  const { core, sha256 } = await cliBundle({ entryPoints: [path.join(root, "bench/floor", `${program}.ts`)] }, [], file)
  writeFileSync(file, core, "latin1")
  sha256s[program] = sha256
}
await cliLoader(path.join(root, "bench/floor/loader.ts"), path.join(out, "floor.cjs"), sha256s)
