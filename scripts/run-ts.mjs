// Run a TypeScript script of this repository (bench, demo): bundle it with esbuild, then run it with node.
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { mkdirSync } from "node:fs"
import * as path from "node:path"

const [file, ...args] = process.argv.slice(2)
if (!file) {
  console.error("usage: node scripts/run-ts.mjs <file.ts> [args...]")
  process.exit(2)
}
const outdir = path.resolve(".bench-tmp")
mkdirSync(outdir, { recursive: true })
const outfile = path.join(outdir, path.basename(file).replace(/\.ts$/, ".mjs"))
await build({
  entryPoints: [file],
  outfile,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["better-sqlite3"],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning"
})
const r = spawnSync(process.execPath, [outfile, ...args], { stdio: "inherit" })
process.exit(r.status ?? 1)
