// Bundle the CLI with esbuild: one CommonJS script per group of commands (dist/dossier-<group>.cjs,
// and dist/dossier-core.cjs with everything; see src/cli/Bundles.ts), each holding only the
// implementations its commands can run (initialized lazily inside it), run by a small CommonJS
// loader (dist/dossier.cjs, the binary; src/cli/bin.ts) through V8's code cache, which this script
// writes after a representative command of each. dist/dossier.mjs runs the same loader (the
// binary's earlier name). Then the hash worker and the library.
// Over 400 lines: every output of the build, each beside the esbuild plugins it needs.
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { isDeepStrictEqual } from "node:util"
import { cliBundle, cliLoader } from "./cli-bundle.mjs"

/**
 * src/domain/HtmlText.ts requires htmlparser2 at first use, from node_modules, so that the library
 * loads no HTML parser until a page is read. In the CLI's bundles that required it from
 * node_modules on every `ingest`: a second copy beside the bundle's own (cheerio's), compiled
 * without the code cache and resolved on disk (a fifth of a fresh `ingest --file`'s CPU over
 * `plan inspect`'s, profiled). The bundles require the copy they hold instead (the ES module
 * build, which cheerio's import shares). The build stops when the loader is not found.
 */
const htmlparserBundled = {
  name: "htmlparser-bundled",
  setup(b) {
    // The package's CommonJS entry is dist/commonjs/index.js, its ES module one dist/esm/index.js.
    const parserCjs = createRequire(import.meta.url).resolve("htmlparser2")
    const parserEsm = path.join(path.dirname(parserCjs), "..", "esm", "index.js")
    if (!existsSync(parserEsm)) throw new Error(`${parserEsm} is missing; see htmlparserBundled in scripts/build.mjs`)
    b.onLoad({ filter: /[\\/]src[\\/]domain[\\/]HtmlText\.ts$/ }, (args) => {
      const loader = "createRequire(import.meta.url)(\"htmlparser2\")"
      const text = readFileSync(args.path, "utf8")
      if (text.split(loader).length !== 2) {
        throw new Error(`${args.path}: its htmlparser2 loader changed; see htmlparserBundled in scripts/build.mjs`)
      }
      return { contents: text.replace(loader, `require(${JSON.stringify(parserEsm)})`), loader: "ts" }
    })
  }
}

/**
 * node-postgres asks at load whether it runs in a Cloudflare Worker: without `navigator` (Node 20
 * has none) it constructs a `Response`, and touching that global makes Node load its own fetch
 * (undici): ~170 ms of a bound `plan inspect`'s 800 ms of CPU in one profile under load, and
 * `node -e 'new Response(null)'` takes 55 ms more than `node -e 0` on the 2-core machine. Every
 * command in a bound folder loads pg; the CLI runs on Node only, so its bundle gets the answer as
 * a constant. The build stops when the call is not found (a pg upgrade changed it).
 */
const pgCloudflareProbe = {
  name: "pg-cloudflare-probe",
  setup(b) {
    b.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
      const probe = /if \(isCloudflareRuntime\(\)\) \{/
      if (!probe.test(text)) {
        throw new Error(`${args.path}: pg's Cloudflare probe changed; see pgCloudflareProbe in scripts/build.mjs`)
      }
      return { contents: text.replace(probe, "if (false) {"), loader: "js" }
    })
  }
}

/**
 * `dossier schema`'s answers are fixed by the code: the build computes every one from source
 * (src/commands/SchemaAnswers.ts, bundled and run here) and the CLI's bundles hold a generated
 * module with the same exports in its place: the names, and each name's JSON Schema as JSON text,
 * parsed when asked for (a fresh object, as the live module gives). Loading the domain's Schemas
 * and building JSON Schema from them was ~240 million instructions of a cold `schema plan-start`,
 * three quarters of its cost over `node -e 0` (docs/performance.md, "fourth round").
 * The library and the tests run the live module; test/cli/schemaAnswers.test.ts compares the built
 * CLI's answers with it. The build stops when an answer is not plain JSON (JSON text could not
 * carry it unchanged).
 */
const schemaAnswersBuilt = async () => {
  const source = "src/commands/SchemaAnswers.ts"
  const live = await build({
    entryPoints: [source],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "warning"
  })
  const { schemaDocument, schemaNames } = await import(
    `data:text/javascript;base64,${Buffer.from(live.outputFiles[0].contents).toString("base64")}`
  )
  const names = schemaNames()
  const documents = names.map((name) => {
    const document = schemaDocument(name)
    const text = JSON.stringify(document)
    if (document === undefined || !isDeepStrictEqual(JSON.parse(text), document)) {
      throw new Error(`${source}: the schema '${name}' is not plain JSON; see schemaAnswersBuilt in scripts/build.mjs`)
    }
    return [name, text]
  })
  const contents = [
    `// Generated by scripts/build.mjs (schemaAnswersBuilt) from ${source}.`,
    `const names = ${JSON.stringify(names)};`,
    `const documents = new Map(${JSON.stringify(documents)});`,
    "export const schemaNames = () => names.slice();",
    "export const schemaDocument = (name) => {",
    "  const text = documents.get(name);",
    "  return text === undefined ? undefined : JSON.parse(text);",
    "};",
    ""
  ].join("\n")
  return {
    name: "schema-answers-built",
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]commands[\\/]SchemaAnswers\.ts$/ }, () => ({ contents, loader: "js" }))
    }
  }
}

/**
 * The cut-off plugin of one CLI bundle: every lazily imported implementation it does not keep, the
 * services over a shared store of the groups it does not keep (src/layers/bound/<impl>.bound.ts),
 * and, but in a bound group's twin (src/cli/Bundles.ts), the bound folder's dispatch itself.
 */
const cutOff = (name, spec, bound) => ({
  name: "cut-off",
  setup(b) {
    if (spec.impls === "all") return
    // A bound folder's commands (commands/Bound.js) run their group's services over the store
    // (src/layers/bound/<impl>.bound.ts): kept in the group's twin only (src/cli/Bundles.ts).
    b.onResolve({ filter: /(\.impl|\.bound|[\\/]App|[\\/]Bound)\.js$/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined
      const impl = /([\w-]+)\.impl\.js$/.exec(args.path)?.[1]
      if (impl !== undefined && spec.impls.includes(impl)) return undefined
      const group = /([\w-]+)\.bound\.js$/.exec(args.path)?.[1]
      if (bound && group !== undefined && spec.impls.includes(group)) return undefined
      if (bound && /[\\/]Bound\.js$/.test(args.path)) return undefined
      return { path: args.path, namespace: "cut-off" }
    })
    // Never reached when src/cli/Bundles.ts is right (test/cli/bundles.test.ts): a defect if it is.
    b.onLoad({ filter: /.*/, namespace: "cut-off" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the ${name} bundle (src/cli/Bundles.ts)`)})`,
      loader: "js"
    }))
  }
})

/**
 * A source's name in dist/bundles.json: its path in the repository for our own, else the package
 * (`npm:undici`, `npm:@effect/cli`).
 */
const inputName = (p) => {
  const i = p.lastIndexOf("node_modules/")
  if (i === -1) return p.replace(/^(\.\.\/)+[^/]+\//, "")
  const parts = p.slice(i + "node_modules/".length).split("/")
  return `npm:${parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]}`
}

async function bundles() {
  // The bundles are written by hand (esbuild's `write: false`): after `--clean` there is no dist/.
  mkdirSync("dist", { recursive: true })
  // The command-line bundles (src/cli/Bundles.ts): one per group of commands, and the full one.
  const table = await build({
    entryPoints: ["src/cli/Bundles.ts"],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "warning"
  })
  const { ALL_BUNDLES, BUNDLES, bundleFile, groupOf } = await import(
    `data:text/javascript;base64,${Buffer.from(table.outputFiles[0].contents).toString("base64")}`
  )
  const schemaAnswers = await schemaAnswersBuilt()
  const sha256s = {}
  const manifest = {}
  for (const name of ALL_BUNDLES) {
    const { group, bound } = groupOf(name)
    const spec = BUNDLES[group]
    const file = `dist/${bundleFile(name)}`
    // Written as a CLI bundle (scripts/cli-bundle.mjs): what the loader compiles, and its SHA-256.
    const { core, sha256, metafile } = await cliBundle(
      { entryPoints: ["src/cli/main.ts"] },
      [pgCloudflareProbe, htmlparserBundled, cutOff(name, spec, bound), schemaAnswers],
      file
    )
    writeFileSync(file, core, "latin1")
    // The code cache: written by the loader when a run ends without one (a fresh build has none).
    rmSync(`${file}.cache`, { force: true })
    // The loader checks that a code cache was made for this very bundle.
    sha256s[name] = sha256
    // What each bundle holds, for the tests (test/cli/bundles.test.ts): its sources, and the lazy
    // imports it cut off.
    const inputs = Object.keys(metafile.inputs)
    manifest[name] = {
      file: bundleFile(name),
      bytes: core.length,
      sources: [...new Set(inputs.filter((p) => !p.startsWith("cut-off:")).map(inputName))].sort(),
      cutOff: inputs.filter((p) => p.startsWith("cut-off:")).map((p) => p.slice("cut-off:".length)).sort()
    }
  }
  writeFileSync("dist/bundles.json", `${JSON.stringify(manifest, null, 1)}\n`)
  await cliLoader("src/cli/bin.ts", "dist/dossier.cjs", sha256s)
  chmodSync("dist/dossier.cjs", 0o755)
  writeFileSync(
    "dist/dossier.mjs",
    `#!/usr/bin/env node\n// The binary's earlier name: runs dist/dossier.cjs.\nimport "./dossier.cjs"\n`
  )
  chmodSync("dist/dossier.mjs", 0o755)

  // The hash worker (an ES module in every case), next to the CLI's bundles and next to both builds of the library.
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

  warmCodeCaches(BUNDLES, bundleFile)

  // The library: dependencies stay external, so an embedding program shares its own `effect`.
  // ES modules (split, so that `dossier` and `dossier/testing` share one copy of every module) and
  // CommonJS for `require` (dist/lib/cjs, marked CommonJS by its own package.json).
  const libraryEntries = { index: "src/index.ts", testing: "src/testing.ts", postgres: "src/postgres.ts" }
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
  const cjsExternal = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].filter((d) =>
    d !== "canonicalize"
  )
  const cjs = {
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    external: cjsExternal,
    define: { "import.meta.url": "__dossierMetaUrl" },
    banner: { js: "var __dossierMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
    logLevel: "warning"
  }
  // CommonJS cannot be split, so the modules `require("dossier")` loads are bundled once, in
  // dist/lib/cjs/index.js, which also keeps them (under a symbol, beside its exports) for
  // testing.js and postgres.js: those take every such module from it and bundle only their own.
  // Else each entry had its own copy of every class, and an error from `dossier/postgres` was no
  // `instanceof` the `Errors` class of the same name (test/consumer/consumer.test.ts).
  // Only the modules loaded with it: reached by static imports (not the readable-copy extractor,
  // which the library imports at first use) and with code in the bundle (package.json's
  // `sideEffects: false` drops the others).
  const indexGraph = await build({ ...cjs, entryPoints: [libraryEntries.index], write: false, metafile: true })
  const [indexOutput] = Object.values(indexGraph.metafile.outputs)
  const loaded = new Set()
  const visit = (p) => {
    if (loaded.has(p) || !p.startsWith("src/")) return
    loaded.add(p)
    for (const i of indexGraph.metafile.inputs[p].imports) if (i.kind === "import-statement") visit(i.path)
  }
  visit(libraryEntries.index)
  const shared = new Map(
    [...loaded].filter((p) => (indexOutput.inputs[p]?.bytesInOutput ?? 0) > 0).map((p, i) => [path.resolve(p), `m${i}`])
  )
  const MODULES = "Symbol.for(\"dossier/modules\")"
  await build({
    ...cjs,
    stdin: {
      contents: [
        `export * from ${JSON.stringify(path.resolve(libraryEntries.index))}`,
        ...[...shared].map(([file, name]) => `import * as ${name} from ${JSON.stringify(file)}`),
        `Object.defineProperty(module.exports, ${MODULES}, { value: { ${[...shared.values()].join(", ")} } })`
      ].join("\n"),
      resolveDir: process.cwd(),
      sourcefile: "index.ts",
      loader: "ts"
    },
    outfile: "dist/lib/cjs/index.js"
  })
  const fromIndex = {
    name: "from-index",
    setup(b) {
      // The source imports modules as `./x.js` (TypeScript's spelling of ./x.ts).
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.namespace !== "file") return undefined
        const file = path.resolve(path.dirname(args.importer), args.path).replace(/\.js$/, ".ts")
        return shared.has(file) ? { path: file, namespace: "dossier-index" } : undefined
      })
      b.onLoad({ filter: /.*/, namespace: "dossier-index" }, (args) => ({
        contents: `module.exports = require("dossier-index")[${MODULES}].${shared.get(args.path)}`,
        loader: "js"
      }))
      b.onResolve({ filter: /^dossier-index$/ }, () => ({ path: "./index.js", external: true }))
    }
  }
  await build({
    ...cjs,
    entryPoints: { testing: libraryEntries.testing, postgres: libraryEntries.postgres },
    outdir: "dist/lib/cjs",
    plugins: [fromIndex]
  })
  writeFileSync("dist/lib/cjs/package.json", `${JSON.stringify({ type: "commonjs" })}\n`)
}

/**
 * Write each bundle's code cache after a representative command of its own, in a fresh folder:
 * the cache holds what that run compiled, so the folder holds what a user's does and the ingest
 * is of a page with the parts most pages have (scripts/cache-warm.html). Functions the run did not
 * compile are compiled from source on each start that needs them: with the cache of an
 * `ingest --dry-run` of a URL, an `ingest --file` of a page compiled the whole extractor on every
 * start. Set-up steps run without the cache, so that the command after them writes it, and must
 * succeed. A bundle whose commands run here with a refusal (exit 1) still gets its cache; any
 * other exit stops the build.
 */
function warmCodeCaches(BUNDLES, bundleFile) {
  const dir = mkdtempSync(path.join(tmpdir(), "dossier-build-"))
  try {
    const at = ["--workdir", dir, "--json"]
    const now = ["--now", "2026-01-01T00:00:00Z"]
    // A folder like a user's: a plan, a study with an event, a subscription, a grant and a page
    // ingested from a file (what an agent does most, and what the extractor's code is compiled for).
    const inputs = {
      "start.json": { goal: "g", limits: [], nextAction: "n" },
      "event.json": { id: "c1", type: "candidate_created", candidate: { id: "a", title: "A" } },
      "subscription.json": {
        id: "lit",
        kind: "literature",
        target: "sparse attention for long documents",
        scope: { venues: ["arXiv"], since: "2026" },
        budget: { maxSources: 10, maxMinutes: 20 },
        cadence: { every: 1, unit: "week" },
        timezone: "Europe/Berlin",
        anchor: "2026-01-05T09:00"
      },
      "grant.json": {
        id: "g1",
        task: "t",
        inputs: ["research/exp/data"],
        work: "research/exp/runs/r1",
        tools: ["read"],
        budget: { runs: 1, wallSeconds: 5, cpuSeconds: 5, memoryMiB: 64, outputMiB: 1 },
        deadline: "2030-01-01T00:00:00Z"
      }
    }
    for (const [name, value] of Object.entries(inputs)) writeFileSync(path.join(dir, name), JSON.stringify(value))
    mkdirSync(path.join(dir, "research/exp/data"), { recursive: true })
    cpSync("scripts/cache-warm.html", path.join(dir, "page.html"))
    /** [argv, set-up (no cache)?, stdin] */
    const steps = [
      [["--help"]],
      [["plan", "start", "--input", "start.json", ...at, ...now], true],
      [["journal", "append", "--study", "s1", "--input", "event.json", ...at], true],
      [["monitor", "create-subscription", "--input", "subscription.json", ...at, ...now], true],
      [["grant", "create", "--input", "grant.json", ...at, ...now], true],
      [["ingest", "--file", "page.html", "--origin", "https://example.com/notes/sparse-attention", ...at]],
      [["plan", "inspect", ...at]],
      [["status", ...at, ...now]],
      [["next", ...at, ...now]],
      [["journal", "list", ...at]],
      [["grant", "list", ...at]],
      [["exec", "show", "--execution", "x-20260101T000000-00000000", ...at]],
      [["schema", "plan-start", "--json"]],
      [["gate", "--state", "research/none.json", ...at]],
      [["source", "follow", "--path", "research/sources/none.md", "--quote", "q", ...at]],
      [["store", "status", ...at]],
      [["mcp", "--workdir", dir], false, ""]
    ]
    for (const [argv, setUp, input] of steps) {
      const r = spawnSync(process.execPath, [path.resolve("dist/dossier.cjs"), ...argv], {
        cwd: dir,
        encoding: "utf8",
        input: input ?? "",
        env: { ...process.env, ...(setUp === true ? { DOSSIER_CODE_CACHE: "0" } : {}) }
      })
      if (r.status !== 0 && (setUp === true || r.status !== 1)) {
        console.error(r.stdout, r.stderr)
        throw new Error(`the built CLI failed: dossier ${argv.join(" ")} exited ${r.status}`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  // The bound groups' twins (src/cli/Bundles.ts) get theirs from their first run in a bound
  // folder: a command there needs a server, which the build does not have.
  for (const name of Object.keys(BUNDLES)) {
    if (!existsSync(`dist/${bundleFile(name)}.cache`)) console.warn(`no code cache was written for the ${name} bundle`)
  }
}

if (process.argv.includes("--clean")) rmSync("dist", { recursive: true, force: true })
// `--types-only`: only the declarations (dist/types, dist/types-cjs), e.g. before `npm pack`.
const typesOnly = process.argv.includes("--types-only")
if (!typesOnly) await bundles()
if (typesOnly || process.argv.includes("--types")) {
  const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.lib.json"], {
    stdio: "inherit"
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
  // The same declarations for `require`: in a folder whose package.json says CommonJS.
  rmSync("dist/types-cjs", { recursive: true, force: true })
  cpSync("dist/types", "dist/types-cjs", { recursive: true })
  writeFileSync("dist/types-cjs/package.json", `${JSON.stringify({ type: "commonjs" })}\n`)
}
