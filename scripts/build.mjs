// Bundle the CLI with esbuild: the CLI as one CommonJS script (dist/dossier-core.cjs; subcommand
// implementations are still initialized lazily inside it), run by a small CommonJS loader
// (dist/dossier.cjs, the binary; src/cli/bin.ts) through V8's code cache, which this script writes
// after a representative command. dist/dossier.mjs runs the same loader (the binary's earlier name).
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

/**
 * effect/Utils decides at load whether V8 keeps the `effect_internal_function` frame in a stack
 * trace by formatting one: `new Error().stack`. Formatting a stack trace makes V8 compute the line
 * ends of the whole script it comes from (the 1.6 MB bundle: ~19 million instructions, about an
 * eighth of `--version`'s cost over `node -e 0`). On V8 the answer is always yes (the frame is
 * named by its property key, which minifying keeps), so the CLI's bundle gets the answer as a
 * constant. The build stops when the expression is not found (an effect upgrade changed it).
 */
const effectStackProbe = {
  name: "effect-stack-probe",
  setup(b) {
    b.onLoad({ filter: /[\\/]effect[\\/]dist[\\/](esm|cjs)[\\/]Utils\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
      const probe = /standard\.effect_internal_function\(\(\) => new Error\(\)\.stack\)\?\.includes\("effect_internal_function"\) === true/
      if (!probe.test(text)) throw new Error(`${args.path}: effect's stack probe changed; see effectStackProbe in scripts/build.mjs`)
      return { contents: text.replace(probe, "true"), loader: "js" }
    })
  }
}

if (process.argv.includes("--clean")) rmSync("dist", { recursive: true, force: true })
// `--types-only`: only the declarations (dist/types, dist/types-cjs), e.g. before `npm pack`.
const typesOnly = process.argv.includes("--types-only")
if (!typesOnly) await bundles()
if (typesOnly || process.argv.includes("--types")) {
  const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.lib.json"], { stdio: "inherit" })
  if (r.status !== 0) process.exit(r.status ?? 1)
  // The same declarations for `require`: in a folder whose package.json says CommonJS.
  rmSync("dist/types-cjs", { recursive: true, force: true })
  cpSync("dist/types", "dist/types-cjs", { recursive: true })
  writeFileSync("dist/types-cjs/package.json", `${JSON.stringify({ type: "commonjs" })}\n`)
}

async function bundles() {
  await build({
    entryPoints: ["src/cli/main.ts"],
    plugins: [effectStackProbe],
    outfile: "dist/dossier-core.cjs",
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    legalComments: "none",
    // better-sqlite3's JavaScript is bundled too (src/layers/LockLive.ts names its native addon by path).
    // `import.meta.url` of the sources (the hash worker's and better-sqlite3's location) is the bundle's own URL.
    define: { "import.meta.url": "__dossierMetaUrl" },
    banner: { js: "var __dossierMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    logLevel: "warning"
  })
  // The file holds the bundle inside CommonJS's own function wrapper, which the loader compiles as
  // it is read (building the wrapped text at run time copied 1.4 MB on every start); a leading `#!`
  // line would not parse there. The loader reads it as latin1, so it must be ASCII (esbuild's
  // default charset escapes the rest).
  const bundled = readFileSync("dist/dossier-core.cjs", "latin1")
  if (/[^\x00-\x7f]/.test(bundled)) throw new Error("dist/dossier-core.cjs is not ASCII")
  const core = `(function (exports, require, module, __filename, __dirname) {${
    bundled.startsWith("#!") ? bundled.slice(bundled.indexOf("\n") + 1) : bundled
  }\n})`
  writeFileSync("dist/dossier-core.cjs", core, "latin1")
  // The loader checks that a code cache was made for this very bundle.
  const coreSha256 = createHash("sha256").update(core, "latin1").digest("hex")
  await build({
    entryPoints: { dossier: "src/cli/bin.ts" },
    // A CommonJS entry: Node starts an ES module entry through its ES module loader, ~10 ms more.
    define: { __DOSSIER_CORE_SHA256__: JSON.stringify(coreSha256), "import.meta.url": "__dossierMetaUrl" },
    banner: { js: "var __dossierMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    minify: true,
    logLevel: "warning"
  })
  chmodSync("dist/dossier.cjs", 0o755)
  writeFileSync("dist/dossier.mjs", `#!/usr/bin/env node\n// The binary's earlier name: runs dist/dossier.cjs.\nimport "./dossier.cjs"\n`)
  chmodSync("dist/dossier.mjs", 0o755)
  // The code cache: written by the loader when a run ends without one (a fresh build has none).
  rmSync("dist/dossier-core.cjs.cache", { force: true })
  {
    const dir = mkdtempSync(path.join(tmpdir(), "dossier-build-"))
    const r = spawnSync(process.execPath, ["dist/dossier.cjs", "next", "--workdir", dir, "--now", "2026-01-01T00:00:00Z", "--json"], { encoding: "utf8" })
    rmSync(dir, { recursive: true, force: true })
    if (r.status !== 0) {
      console.error(r.stdout, r.stderr)
      throw new Error("the built CLI failed its first run")
    }
  }

  // The hash worker (an ES module in every case), next to the CLI's chunks and next to both builds of the library.
  for (const outdir of ["dist", "dist/lib", "dist/lib/cjs"]) {
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
  // ES modules (split, so that `dossier` and `dossier/testing` share one copy of every module) and
  // CommonJS for `require` (dist/lib/cjs, marked CommonJS by its own package.json).
  const libraryEntries = { index: "src/index.ts", testing: "src/testing.ts" }
  await build({
    entryPoints: libraryEntries,
    outdir: "dist/lib",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    chunkNames: "[name]-[hash]",
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning"
  })
  // Every dependency stays external but canonicalize, which has no CommonJS entry (bundled here).
  const pkg = JSON.parse(readFileSync("package.json", "utf8"))
  const cjsExternal = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].filter((d) => d !== "canonicalize")
  // CommonJS cannot be split: dist/lib/cjs/testing.js carries its own copy of the reference store
  // (the suite compares error tags, never classes).
  // (Two entry points without splitting: each is bundled on its own.)
  await build({
    entryPoints: { index: "src/index.ts", testing: "src/testing.ts" },
    outdir: "dist/lib/cjs",
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: cjsExternal,
    define: { "import.meta.url": "__dossierMetaUrl" },
    banner: { js: "var __dossierMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    logLevel: "warning"
  })
  writeFileSync("dist/lib/cjs/package.json", `${JSON.stringify({ type: "commonjs" })}\n`)
}
