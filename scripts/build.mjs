// Bundle the CLI with esbuild: one small entry chunk, implementation chunks loaded lazily.
import { build } from "esbuild"
import { chmodSync, rmSync } from "node:fs"

if (process.argv.includes("--clean")) rmSync("dist", { recursive: true, force: true })
await build({
  entryPoints: { dossier: "src/cli/main.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "none",
  external: ["better-sqlite3"],
  banner: { js: "import { createRequire as __dossierCreateRequire } from 'node:module'; const require = __dossierCreateRequire(import.meta.url);" },
  logLevel: "warning"
})
chmodSync("dist/dossier.mjs", 0o755)
