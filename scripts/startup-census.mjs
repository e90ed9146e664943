// What a command's modules build and cost at load (issue 28; docs/performance.md, "Issue 28,
// twelfth round"). Builds src/cli/main.ts as the CLI's bundles are built (effect's stack probe and
// Schema classes on first use) but unminified and uncut, into .bench-tmp/, with each module's
// top level (esbuild's lazy `__esm` initializers) counted: the Schema classes it makes
// (`Schema.make`), and its own CPU time and minor page faults (its imports' excluded). Runs the
// command line `--runs` times through a code cache of its own (the first run writes it) and prints
// the medians per module, largest first, with the process's CPU time and faults. A module is
// charged with what happens while it initializes, a scavenge included: compare rows of commands,
// not one module's figure alone. For finding only; measure a change on the built CLI.
//
//   node scripts/startup-census.mjs [--runs 15] [--top 40] -- status --workdir <folder> --json
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { effectLazyClasses, effectStackProbe } from "./cli-bundle.mjs"

const argv = process.argv.slice(2)
const sep = argv.indexOf("--")
if (sep === -1) {
  console.error("usage: node scripts/startup-census.mjs [--runs N] [--top N] -- <command line>")
  process.exit(2)
}
const option = (name, fallback) => {
  const i = argv.indexOf(name)
  return i !== -1 && i < sep ? Number(argv[i + 1]) : fallback
}
const runs = option("--runs", 15)
const top = option("--top", 40)
const line = argv.slice(sep + 1)

const outdir = path.resolve(".bench-tmp")
mkdirSync(outdir, { recursive: true })
// In the repository, so that the bundle finds node_modules (better-sqlite3's addon) as dist/ does.
const bundle = path.join(outdir, "census.cjs")
const r = await build({
  entryPoints: ["src/cli/main.ts"],
  plugins: [effectStackProbe, effectLazyClasses],
  write: false,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  define: { "import.meta.url": "__dossierMetaUrl" },
  banner: { js: `var __dossierMetaUrl=${JSON.stringify(pathToFileURL(path.resolve("dist/census.cjs")).href)};` },
  external: ["pg-native"],
  logLevel: "warning"
})
let text = Buffer.from(r.outputFiles[0].contents).toString("utf8").replace(/^#!.*/, "")
const changed = (what) => new Error(`esbuild's or effect's ${what} changed; see scripts/startup-census.mjs`)
const esm = "var __esm = (fn2, res, err) => function __init() {\n"
if (text.split(esm).length !== 2) throw changed("__esm")
text = text.replace(
  esm,
  `${esm}  if (fn2 && !__init.busy) {
    __init.busy = 1;
    const C = globalThis.__census ??= { stack: [], make: {}, cpu: {}, faults: {} };
    const name = __getOwnPropNames(fn2)[0];
    const frame = { name, cpu: 0, faults: 0 };
    C.stack.push(frame);
    const c0 = process.cpuUsage(), f0 = process.resourceUsage().minorPageFault;
    try { return __init(); } finally {
      const d = process.cpuUsage(c0), cpu = d.user + d.system, faults = process.resourceUsage().minorPageFault - f0;
      C.stack.pop();
      C.cpu[name] = (C.cpu[name] ?? 0) + cpu - frame.cpu;
      C.faults[name] = (C.faults[name] ?? 0) + faults - frame.faults;
      const up = C.stack[C.stack.length - 1];
      if (up) { up.cpu += cpu; up.faults += faults; }
    }
  }
`
)
const make = /\/\/ [^\n]*effect\/dist\/esm\/Schema\.js\nfunction make\d*\(ast\d*\) \{\n/
if (!make.test(text)) throw changed("Schema.make")
text = text.replace(
  make,
  (m) =>
    `${m}  { const C = globalThis.__census ??= { stack: [], make: {}, cpu: {}, faults: {} }; const k = C.stack.at(-1)?.name ?? "(not at load)"; C.make[k] = (C.make[k] ?? 0) + 1; }\n`
)
text +=
  `\nprocess.on("exit", () => { const C = globalThis.__census ?? { make: {}, cpu: {}, faults: {} }; const u = process.cpuUsage();
if (process.env.DOSSIER_CENSUS_OUT) require("fs").writeFileSync(process.env.DOSSIER_CENSUS_OUT, JSON.stringify({ make: C.make, cpu: C.cpu, faults: C.faults, total: u.user + u.system, totalFaults: process.resourceUsage().minorPageFault })) });\n`
writeFileSync(bundle, text)
rmSync(`${bundle}.cache`, { force: true })

// The loader: the bundle compiled with vm.Script and a code cache of its own, as dist/dossier.cjs runs one.
const loader = path.join(outdir, "census-loader.cjs")
writeFileSync(
  loader,
  `const fs = require("fs"), vm = require("vm"), path = require("path"), { createRequire } = require("module");
const file = path.resolve(process.argv[2]); process.argv.splice(2, 1);
const source = "(function (exports, require, module, __filename, __dirname) {" + fs.readFileSync(file, "utf8") + "\\n})";
let cachedData; try { cachedData = fs.readFileSync(file + ".cache") } catch {}
const script = new vm.Script(source, { filename: file, cachedData });
if (cachedData === undefined || script.cachedDataRejected) process.on("exit", () => fs.writeFileSync(file + ".cache", script.createCachedData()));
const m = { exports: {} };
script.runInThisContext()(m.exports, createRequire(file), m, file, path.dirname(file));
`
)

const results = mkdtempSync(path.join(outdir, "census-"))
const samples = []
for (let i = 0; i <= runs; i++) {
  const out = path.join(results, `${i}.json`)
  const p = spawnSync(process.execPath, [loader, bundle, ...line], {
    env: { ...process.env, DOSSIER_CENSUS_OUT: out },
    stdio: ["ignore", "ignore", "inherit"]
  })
  if (p.status !== 0 && p.status !== 1) throw new Error(`the command exited ${p.status}`)
  // The first run writes the code cache.
  if (i > 0) samples.push(JSON.parse(readFileSync(out, "utf8")))
}
rmSync(results, { recursive: true, force: true })

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}
const modules = [...new Set(samples.flatMap((s) => [...Object.keys(s.cpu), ...Object.keys(s.make)]))]
const rows = modules.map((name) => ({
  name: name.includes("node_modules/") ? `npm:${name.split("node_modules/").at(-1).replace("/dist/esm", "")}` : name,
  make: median(samples.map((s) => s.make[name] ?? 0)),
  cpu: median(samples.map((s) => s.cpu[name] ?? 0)) / 1000,
  faults: median(samples.map((s) => s.faults[name] ?? 0))
}))
const sum = (k) => rows.reduce((a, x) => a + x[k], 0)
console.log(`dossier ${line.join(" ")}: ${runs} runs, medians`)
console.log(
  `process: CPU ${(median(samples.map((s) => s.total)) / 1000).toFixed(1)} ms, ${
    median(samples.map((s) => s.totalFaults))
  } faults; modules initialized ${modules.length}, their top levels ${sum("cpu").toFixed(1)} ms, ${
    sum("faults")
  } faults, ${sum("make")} Schema classes`
)
console.log("Schema classes   CPU ms   faults   module")
for (const x of rows.sort((a, b) => b.cpu - a.cpu).slice(0, top)) {
  console.log(
    `${String(x.make).padStart(14)} ${x.cpu.toFixed(2).padStart(8)} ${String(x.faults).padStart(8)}   ${x.name}`
  )
}
