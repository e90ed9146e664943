/**
 * Benchmarks of the ingest subsystem (see bench/support.ts for the conventions).
 *
 * 1. Ingest of a 2 MiB HTML page served on 127.0.0.1, in process, through the test layer
 *    (the CLI can never reach loopback): fetch under the policy, extract, retain the three files,
 *    append the capture log. Baseline: `curl -s -o FILE` of the same page plus `sha256sum FILE`
 *    (or, without curl, a node http GET + sha256). Reported, no longer a target: a steady-state
 *    process is not how an agent runs ingest (the extraction area holds the fresh-process target).
 * 2. Extraction throughput (MB/s) of the readable copy, against cheerio's parse alone.
 * 3. CLI start (`dossier ingest --dry-run`), reported separately against `node -e 0`.
 * 4. One CLI process importing the page (`dossier ingest --file`: start, extraction in a cold V8,
 *    two retained files), against one node process reading it and parsing it with cheerio.
 */
import { load } from "cheerio/slim"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { execFile, spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { sha256Hex } from "../src/domain/Canonical.js"
import { htmlToMarkdown } from "../src/domain/Readable.js"
import { BaseLive } from "../src/layers/Base.js"
import { IngestFolder } from "../src/layers/folder/IngestFolder.js"
import { policyAllowing, SafeHttpTest, tableResolver } from "../src/layers/SafeHttpTest.js"
import { FileStore } from "../src/services/FileStore.js"
import { Ingest } from "../src/services/Ingest.js"
import { SafeHttp } from "../src/services/SafeHttp.js"
import { CLI, counts, record, tempDir, timeAsync, timeAsyncAlternating, timeSyncAlternating } from "./support.js"

const MiB = 1024 * 1024

/** A realistic article page of `mib` MiB: headings, paragraphs with links, lists, code, a table, furniture. */
export const bigPage = (mib = 2): string => {
  const head =
    `<!doctype html><html><head><meta charset="utf-8"><title>Benchmark article</title><style>body{}</style><script>var t=1</script></head><body><nav><a href="/">Home</a><a href="/a">A</a></nav><main>`
  const tail = `</main><footer>footer</footer></body></html>`
  const parts: Array<string> = [head]
  let size = head.length + tail.length
  for (let i = 0; size < mib * MiB - 2048; i++) {
    const section =
      `<section><h2>Section ${i}</h2><p>The measurement at station ${i} rose by ${i % 17} units overnight, ` +
      `as <a href="/stations/${i}">the station log</a> records; see also <a href="https://example.org/ref/${i}">reference ${i}</a>. ` +
      `Observers noted <em>steady</em> conditions and <strong>no</strong> anomalies in the readings.</p>` +
      `<ul><li>reading one: ${i * 3}</li><li>reading two: ${i * 7}</li></ul>` +
      (i % 10 === 0 ? `<pre><code class="language-sh">measure --station ${i} --out log.txt</code></pre>` : "") +
      (i % 25 === 0 ? `<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>${i}</td></tr></table>` : "") +
      `</section>\n`
    if (size + section.length > mib * MiB - 64) break
    parts.push(section)
    size += section.length
  }
  parts.push(tail)
  return parts.join("")
}

const run = (cmd: string, args: ReadonlyArray<string>, cwd?: string): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile(cmd, [...args], { cwd, maxBuffer: 64 * MiB }, (err, stdout) => (err ? reject(err) : resolve(stdout)))
  )

/** The page server: serves the file named by argv[1] on 127.0.0.1 and prints its port. */
const SERVER = `
const http = require("node:http"), fs = require("node:fs")
const page = fs.readFileSync(process.argv[1])
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.byteLength })
  res.end(page)
})
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"))
`

const hasCurl = (): boolean => spawnSync("curl", ["--version"], { encoding: "utf8" }).status === 0

export const benchIngest = async (): Promise<void> => {
  const c = counts.ingest
  const size = `${c.pageMiB} MiB`
  const page = Buffer.from(bigPage(c.pageMiB), "utf8")
  const scratch = tempDir("dossier-bench-ingest-")
  // The page is served by a separate process, for curl and for dossier alike: a server inside the
  // measuring process would share its event loop with the client being measured (and not curl's).
  const pageFile = path.join(scratch, "page.html")
  fs.writeFileSync(pageFile, page)
  const server = spawn(process.execPath, ["-e", SERVER, pageFile], { stdio: ["ignore", "pipe", "inherit"] })
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString("utf8").trim())))
    server.once("exit", (code) => reject(new Error(`page server exited ${code}`)))
  })
  const url = `http://bench.test:${port}/article`
  try {
    console.log(
      `  page: ${
        (page.byteLength / MiB).toFixed(2)
      } MiB of HTML on 127.0.0.1, served by a separate process (reached through the test layer)`
    )
    const http_ = SafeHttpTest({
      resolve: tableResolver({ "bench.test": ["127.0.0.1"] }),
      policy: policyAllowing(["127.0.0.1"])
    })
    let n = 0
    // One program capturing into one work folder, as an embedding program would (its layers built
    // once, the lock's connection kept open); each capture names another page (the same bytes
    // under another path), so that each writes both files instead of finding them retained.
    const workdir = path.join(scratch, "work")
    fs.mkdirSync(workdir)
    const runtime = ManagedRuntime.make(IngestFolder.pipe(Layer.provide(Layer.merge(http_, BaseLive(workdir)))))
    const ingestOnce = async () => {
      const r = await runtime.runPromise(Effect.flatMap(Ingest, (i) => i.capture(`${url}-${n++}`)))
      if (r.reused) throw new Error("a capture found its files already retained")
    }
    const captureOnce = () => {
      const dir = path.join(scratch, `c${n++}`)
      fs.mkdirSync(dir)
      const program = Effect.gen(function*() {
        const fetched = yield* Effect.flatMap(SafeHttp, (h) => h.fetch(url))
        const sha = sha256Hex(fetched.body)
        const store = yield* FileStore
        yield* store.writeRetained(`research/sources/bench-${sha.slice(0, 12)}.html`, fetched.body)
      })
      return Effect.runPromise(program.pipe(Effect.provide(Layer.merge(http_, BaseLive(dir)))))
    }

    const out = path.join(scratch, "curl.html")
    const curl = hasCurl()
    if (!curl) console.log("  curl is not installed: the baseline is a node http GET + sha256")
    const baseline = curl ? "curl -s -o FILE + sha256sum FILE" : "node http GET + sha256"
    const baselineOnce = curl
      ? async () => {
        await run("curl", ["-s", "-o", out, `http://127.0.0.1:${port}/article`])
        await run("sha256sum", [out])
      }
      : () =>
        new Promise<void>((resolve, reject) =>
          http.get(`http://127.0.0.1:${port}/article`, (res) => {
            const h = createHash("sha256")
            res.on("data", (c) => h.update(c))
            res.on("end", () => {
              h.digest("hex")
              resolve()
            })
            res.on("error", reject)
          })
        )
    // The captures of a program that has just started (V8 still compiling the extractor and the
    // rest: captures 3 to 11), then its steady state (after 20 captures), which is what the target
    // is about. A CLI process makes one capture, colder
    // still; its start is measured apart (the CLI can never reach loopback, so its whole run cannot
    // be measured here). Not interleaved with the baseline: every process started from this one
    // slows the in-process work that follows it (measured: starting even `true` before an
    // extraction took it from ~72 ms to ~100–120 ms; captures interleaved with curl took 165–200 ms
    // against ~100 ms), most likely the copy-on-write faults of the fork.
    const warmUp = async (runs: number, fn: () => Promise<unknown>) => {
      for (let i = 0; i < runs; i++) await fn()
    }
    await warmUp(c.earlyWarmup, ingestOnce)
    const early = await timeAsync(c.earlyRuns, ingestOnce, 0)
    await warmUp(c.steadyWarmup, ingestOnce)
    const steady = await timeAsync(c.steadyRuns, ingestOnce, 0)
    await runtime.dispose()
    const capture = await timeAsync(c.captureRuns, captureOnce, c.captureWarmup)
    const baselineMs = await timeAsync(c.baselineRuns, baselineOnce, c.baselineWarmup)
    record({
      name: `ingest ${size} page (in process, steady state)`,
      ms: steady,
      baseline,
      baselineMs,
      note:
        "after 20 captures; fetch + policy + extraction + 3 retained files (original, readable copy, WARC) + capture log"
    })
    record({
      name: `ingest ${size} page (in process, captures 3–11)`,
      ms: early,
      baseline,
      baselineMs,
      note: "V8 still compiling the extractor"
    })
    record({
      name: "capture path only (fetch + sha256 + retain original)",
      ms: capture,
      baseline,
      baselineMs,
      target: 2,
      note: "the work curl + sha256sum does, under the policy (after 20 runs)"
    })

    // Extraction throughput, against cheerio's parse alone: the two alternate run by run (15 each
    // after 3 warm-ups), so that both see the same machine and the same heap (five runs of one,
    // then five of the other, gave ratios from 0.67x to 1.24x in one hour on one machine).
    const text = page.toString("utf8")
    const [extract, parseOnly] = timeSyncAlternating(
      c.extractRuns,
      [() => htmlToMarkdown(text, url), () => load(text)],
      c.extractWarmup
    )
    const mbps = page.byteLength / MiB / (extract / 1000)
    record({
      name: `extract readable copy of ${size}`,
      ms: extract,
      baseline: "cheerio parse only",
      baselineMs: parseOnly,
      note: `${mbps.toFixed(1)} MiB/s`
    })

    // CLI start, reported separately (the in-process figures above exclude it).
    const cliMs = await timeAsync(
      c.cliRuns,
      () => run(process.execPath, [CLI, "ingest", "https://example.com/", "--dry-run", "--json"]),
      c.cliWarmup
    )
    const nodeMs = await timeAsync(c.cliRuns, () => run(process.execPath, ["-e", "0"]), c.cliWarmup)
    record({ name: "CLI start: ingest --dry-run", ms: cliMs, baseline: "node -e 0", baselineMs: nodeMs })

    // The page as an agent imports it: one CLI process (its start, the readable copy made by a V8
    // that has compiled none of the extractor yet, the two retained files), against one node
    // process that reads the page and parses it with cheerio. The rows above are in a warm process;
    // this is what `dossier ingest` costs a person waiting on it. Each run imports into a new folder.
    let folders = 0
    const importOnce = () => {
      const dir = path.join(scratch, `file${folders++}`)
      fs.mkdirSync(dir)
      fs.copyFileSync(pageFile, path.join(dir, "page.html"))
      return run(process.execPath, [
        CLI,
        "ingest",
        "--file",
        "page.html",
        "--origin",
        "https://bench.example/article",
        "--json"
      ], dir).then((stdout) => {
        if (JSON.parse(stdout).ok !== true) throw new Error(stdout)
      })
    }
    const parseInOneProcess = () =>
      run(process.execPath, [
        "-e",
        "require('cheerio/slim').load(require('node:fs').readFileSync(process.argv[1], 'utf8'))",
        pageFile
      ])
    const [imported, parsedCold] = await timeAsyncAlternating(
      c.importRuns,
      [importOnce, parseInOneProcess],
      c.importWarmup
    )
    record({
      name: `CLI ingest --file of the ${size} page (one process)`,
      ms: imported,
      baseline: "node: read + cheerio parse",
      baselineMs: parsedCold,
      note: "start + extraction in a cold V8 + 2 retained files"
    })
  } finally {
    server.kill()
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}
