/**
 * `dossier monitor …` initializes none of what only `dossier next` reads: the plan's and the
 * journals' layers and schemas (and, through the journals' artifacts, the grants'). `next`'s handler and layer are in modules of their own (src/commands/next.impl.ts,
 * src/layers/NextLayer.ts), imported lazily, so the monitor bundle's `monitor list` builds about
 * half the Schema classes it built when one module served both (docs/performance.md, "Issue 28,
 * eleventh round"). Checked on the static imports of the monitor's handlers as esbuild (the CLI's
 * bundler) resolves them: a lazy `import()` is not followed, as the bundle initializes it only
 * when called. esbuild's API starts its service process: not an in-process file.
 */
import { build } from "esbuild"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(__dirname, "../..")

/** The sources `entry` initializes when it is initialized: its static imports, transitively. */
const staticImports = async (entry: string): Promise<ReadonlySet<string>> => {
  const r = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent"
  })
  const seen = new Set<string>([entry])
  const todo = [entry]
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    for (const i of r.metafile.inputs[next]?.imports ?? []) {
      if (i.kind === "dynamic-import" || i.external === true || seen.has(i.path)) continue
      seen.add(i.path)
      todo.push(i.path)
    }
  }
  return seen
}

/** What `next` reads beyond the monitor; `dossier monitor …` needs none of it. */
const NEXT_ONLY = [
  "src/layers/NextLayer.ts",
  "src/layers/MonitorNext.ts",
  "src/layers/JournalLive.ts",
  "src/layers/folder/PlanStoreFolder.ts",
  "src/domain/Plan.ts",
  "src/domain/Journal.ts",
  "src/domain/Grant.ts"
]

describe("the monitor's handlers", () => {
  it("initialize none of the plan's, the journals' or the grants' modules", async () => {
    const loaded = await staticImports("src/commands/monitor.impl.ts")
    expect(loaded.has("src/layers/MonitorLive.ts")).toBe(true)
    for (const only of NEXT_ONLY) expect(loaded.has(only), only).toBe(false)
  })

  it("next's handler loads them, through the layer status shares", async () => {
    const loaded = await staticImports("src/commands/next.impl.ts")
    for (const needed of ["src/layers/NextLayer.ts", "src/layers/JournalLive.ts", "src/domain/Plan.ts"]) {
      expect(loaded.has(needed), needed).toBe(true)
    }
  })
})
