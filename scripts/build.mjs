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

// The hash worker, next to the CLI's chunks and next to the library.
for (const outdir of ["dist", "dist/lib"]) {
  await build({
    entryPoints: { "hash-worker": "src/layers/HashWorker.ts" },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    minify: true,
    logLevel: "warning"
  })
}

// The library: dependencies stay external, so an embedding program shares its own `effect`.
await build({
  entryPoints: { index: "src/index.ts" },
  outdir: "dist/lib",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning"
})
if (process.argv.includes("--types")) {
  const { spawnSync } = await import("node:child_process")
  const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.lib.json"], { stdio: "inherit" })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
