// Child of bench/library.ts: import the built library (argv[2]; argv[3] "count" or "time") and run one flow over the in-memory
// layers; prints one JSON line {importMs, modules, flowMs}. Module count: every module the ES
// loader loaded (counted by a load hook) plus every CommonJS module in require's cache.
import { createRequire, register } from "node:module"
import { MessageChannel } from "node:worker_threads"

// The hook slows every load: times are measured in a run without it ("time"), counts in one with it.
const counting = process.argv[3] === "count"
const { port1, port2 } = new MessageChannel()
const loaded = new Set()
port1.on("message", (url) => loaded.add(url))
port1.unref()
if (counting) {
  register(
    "data:text/javascript," +
      encodeURIComponent(
        "let port; export function initialize(d){port=d.port}" +
          "export async function load(url,context,next){const r=await next(url,context);port.postMessage(url);return r}"
      ),
    { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] }
  )
}
const entry = process.argv[2]
const t0 = performance.now()
const lib = await import(entry)
const importMs = performance.now() - t0
// Let the hook's messages arrive.
await new Promise((r) => setTimeout(r, 50))
const cjs = Object.keys(createRequire(import.meta.url).cache)
const modules = new Set([...loaded].filter((u) => u.startsWith("file:")).map((u) => new URL(u).pathname))
for (const p of cjs) modules.add(p)
// The same copy of effect as the library's: CommonJS for the CommonJS build.
const Effect = entry.includes("/cjs/") ? createRequire(entry)("effect/Effect") : await import("effect/Effect")
const t1 = performance.now()
if (lib.DossierMemory !== undefined) {
  await Effect.runPromise(
    Effect.provide(
      Effect.flatMap(
        lib.Journal.Journal,
        (j) =>
          Effect.zipRight(
            j.append("s1", [{
              id: "c0",
              type: "candidate_created",
              candidate: { id: "a", title: "t", protocolVersion: "p1" }
            }]),
            j.inspect("s1")
          )
      ),
      lib.DossierMemory
    )
  )
} else if (lib.JournalMemory !== undefined) {
  // The library before its namespaced surface (kept for before/after figures).
  await Effect.runPromise(
    Effect.provide(
      Effect.flatMap(
        lib.Journal,
        (j) =>
          Effect.zipRight(
            j.append("s1", [{
              id: "c0",
              type: "candidate_created",
              candidate: { id: "a", title: "t", protocolVersion: "p1" }
            }]),
            j.inspect("s1")
          )
      ),
      lib.JournalMemory
    )
  )
}
const flowMs = performance.now() - t1
const heavy =
  [...modules].filter((p) => /better-sqlite3|cheerio|htmlparser2|undici|@effect\/cli|platform-node/.test(p)).length
console.log(JSON.stringify({ importMs, modules: modules.size, heavy, flowMs }))
