/**
 * Worker processes of the PostgreSQL tests: a worker (support/pg*Worker.ts) is bundled once per
 * test file into a temporary folder and run as its own Node process with one JSON job; it prints
 * its answer as the last line (`answerAndExit`).
 */
import { build } from "esbuild"
import { spawn } from "node:child_process"
import * as path from "node:path"

/** Bundle `support/<name>.ts` into `dir` as an ES module Node can run; its path. */
export const bundleWorker = async (name: string, dir: string): Promise<string> => {
  const outfile = path.join(dir, `${name}.mjs`)
  await build({
    entryPoints: [path.resolve(__dirname, `${name}.ts`)],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["pg-native"],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "warning"
  })
  return outfile
}

/** Run `worker` with each job at once; the answers (each worker's last line), in order. */
export const runWorkers = <Answer>(worker: string, jobs: ReadonlyArray<object>): Promise<Array<Answer>> =>
  Promise.all(
    jobs.map(
      (job) =>
        new Promise<Answer>((resolve, reject) => {
          const child = spawn(process.execPath, [worker, JSON.stringify(job)], { stdio: ["ignore", "pipe", "pipe"] })
          let out = ""
          let err = ""
          child.stdout.on("data", (d) => (out += d))
          child.stderr.on("data", (d) => (err += d))
          child.on("close", () => {
            try {
              resolve(JSON.parse(out.trim().split("\n").pop()!))
            } catch {
              reject(new Error(`worker answered ${JSON.stringify(out)} ${err}`))
            }
          })
        })
    )
  )
