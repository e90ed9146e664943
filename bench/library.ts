/**
 * Benchmarks of the library as an embedding program meets it: `import("dossier")` (the built
 * dist/lib, ES module and CommonJS) followed by one journal append and inspect over DossierMemory,
 * against importing `effect` alone; each in a fresh process (bench/library-child.mjs), medians of
 * interleaved runs. The module counts (ES modules through a load hook, plus CommonJS modules)
 * are printed beside them; none of better-sqlite3, cheerio, htmlparser2 or undici may load.
 */
import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { counts, median, record } from "./support.js"

const child = path.resolve("bench/library-child.mjs")
const ROUNDS = counts.library.rounds
const measure = (entry: string, mode: "time" | "count") => {
  const r = spawnSync(process.execPath, [child, entry, mode], { encoding: "utf8" })
  if (r.status !== 0) throw new Error(`library-child ${entry}: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as {
    importMs: number
    modules: number
    heavy: number
    flowMs: number
  }
}

export const benchLibrary = async (): Promise<void> => {
  const esm = path.resolve("dist/lib/index.mjs")
  const cjs = path.resolve("dist/lib/cjs/index.js")
  const effect = path.resolve("node_modules/effect/dist/esm/index.js")
  const times: Record<string, Array<number>> = { esm: [], cjs: [], effect: [], flow: [] }
  for (let i = 0; i < ROUNDS; i++) {
    const e = measure(esm, "time")
    times["esm"]!.push(e.importMs)
    times["flow"]!.push(e.flowMs)
    times["cjs"]!.push(measure(cjs, "time").importMs)
    times["effect"]!.push(measure(effect, "time").importMs)
  }
  const counts = { esm: measure(esm, "count"), cjs: measure(cjs, "count"), effect: measure(effect, "count") }
  for (const [name, c] of Object.entries(counts)) {
    if (c.heavy > 0 && name !== "effect") {
      throw new Error(`${name}: ${c.heavy} modules of better-sqlite3/cheerio/htmlparser2/undici loaded by the import`)
    }
  }
  const baseline = median(times["effect"]!)
  const note = (c: { modules: number }) => `${c.modules} modules (effect alone: ${counts.effect.modules})`
  record({
    name: "import dossier (ES module)",
    ms: median(times["esm"]!),
    baseline: "import effect",
    baselineMs: baseline,
    note: note(counts.esm)
  })
  record({
    name: "import dossier (CommonJS)",
    ms: median(times["cjs"]!),
    baseline: "import effect",
    baselineMs: baseline,
    note: note(counts.cjs)
  })
  record({
    name: "first append + inspect over DossierMemory (incl. building it)",
    ms: median(times["flow"]!),
    baseline: "import effect",
    baselineMs: baseline
  })
}
