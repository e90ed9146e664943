import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bigPage } from "./bench/ingest.ts"
import { BaseLive } from "./src/layers/Base.ts"
import { IngestLive } from "./src/layers/IngestLive.ts"
import { policyAllowing, SafeHttpTest, tableResolver } from "./src/layers/SafeHttpTest.ts"
import { Ingest } from "./src/services/Ingest.ts"
import { BaseLive as BaseB } from "/tmp/h14b/before/src/layers/Base.ts"
import { IngestLive as IngestB } from "/tmp/h14b/before/src/layers/IngestLive.ts"
import { policyAllowing as pB, SafeHttpTest as SB, tableResolver as tB } from "/tmp/h14b/before/src/layers/SafeHttpTest.ts"
import { Ingest as IB } from "/tmp/h14b/before/src/services/Ingest.ts"
const SERVER = `const http = require("node:http"), fs = require("node:fs"); const page = fs.readFileSync(process.argv[1]);
http.createServer((_q, res) => { res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.byteLength }); res.end(page) }).listen(0, "127.0.0.1", function () { process.stdout.write(this.address().port + "\\n") })`
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "h14b-ab-"))
fs.writeFileSync(path.join(scratch, "page.html"), bigPage())
const server = spawn(process.execPath, ["-e", SERVER, path.join(scratch, "page.html")], { stdio: ["ignore", "pipe", "inherit"] })
const port = await new Promise<number>((r) => server.stdout!.once("data", (d: Buffer) => r(Number(d.toString().trim()))))
const url = `http://bench.test:${port}/article`
fs.mkdirSync(path.join(scratch, "a")); fs.mkdirSync(path.join(scratch, "b"))
const ra = ManagedRuntime.make(IngestLive.pipe(Layer.provide(Layer.merge(SafeHttpTest({ resolve: tableResolver({ "bench.test": ["127.0.0.1"] }), policy: policyAllowing(["127.0.0.1"]) }), BaseLive(path.join(scratch, "a"))))))
const rb = ManagedRuntime.make(IngestB.pipe(Layer.provide(Layer.merge(SB({ resolve: tB({ "bench.test": ["127.0.0.1"] }), policy: pB(["127.0.0.1"]) }), BaseB(path.join(scratch, "b"))))))
let n = 0
const after = () => ra.runPromise(Effect.flatMap(Ingest, (i) => i.capture(`${url}-${n++}`)))
const before = () => rb.runPromise(Effect.flatMap(IB, (i) => i.capture(`${url}-${n++}`)))
for (let i = 0; i < 15; i++) { await after(); await before() }
const t0 = performance.now(); for (let i = 0; i < 10; i++) await after(); console.log("after only x10", ((performance.now() - t0) / 10).toFixed(1))
const ta: number[] = [], tb: number[] = []
for (let i = 0; i < 15; i++) {
  let t = performance.now(); await before(); tb.push(performance.now() - t)
  t = performance.now(); await after(); ta.push(performance.now() - t)
}
const med = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1]!
console.log("before", med(tb).toFixed(1), "after", med(ta).toFixed(1), "ratio", (med(ta) / med(tb)).toFixed(2))
await ra.dispose(); await rb.dispose(); server.kill()
