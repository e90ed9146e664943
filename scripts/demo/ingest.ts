/**
 * Demo step of the ingest subsystem. Offline: the page is embedded here and served on
 * 127.0.0.1 by this script. The CLI can never reach loopback (that is the policy), so the
 * capture itself runs in process through the library, with the test layer (same code, a resolver
 * and policy that admit exactly this local server). Then the CLI shows the policy refusing the
 * same server, a dry run, and registers the captured files with the plan.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { BaseLive } from "../../src/layers/Base.js"
import { IngestFolder } from "../../src/layers/folder/IngestFolder.js"
import { policyAllowing, SafeHttpTest, tableResolver } from "../../src/layers/SafeHttpTest.js"
import { Ingest } from "../../src/services/Ingest.js"
import { dossier, say, write } from "./support.js"

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>River gauge notes</title>
<script>trackVisitor()</script><style>body { font: 14px serif }</style></head>
<body>
<nav><a href="/">Home</a> | <a href="/archive">Archive</a></nav>
<div class="cookie-banner">We use cookies. <button>OK</button></div>
<main>
  <h1>River gauge notes</h1>
  <p>The gauge at the north bridge rose by two metres overnight, according to the
     <a href="/logs/north-bridge">station log</a>.</p>
  <h2>Readings</h2>
  <table><tr><th>time</th><th>level (m)</th></tr><tr><td>18:00</td><td>1.2</td></tr><tr><td>06:00</td><td>3.2</td></tr></table>
  <ul><li>Rain fell for nine hours.</li><li>The upstream weir was open.</li></ul>
  <blockquote><p>Levels above three metres close the footpath.</p></blockquote>
  <pre><code class="language-sh">gauge --station north-bridge --since 18:00</code></pre>
</main>
<footer>© the river society</footer>
</body></html>`

export const demoIngest = async (dir: string): Promise<void> => {
  const server = http.createServer((req, res) => {
    if (req.url === "/notes") {
      res.writeHead(302, { location: "/notes/river-gauge" })
      res.end()
      return
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as AddressInfo).port
  try {
    say("The CLI refuses loopback, private and metadata destinations in every spelling, with no override:")
    dossier(dir, ["ingest", `http://127.0.0.1:${port}/notes`], (j) => `${j.error?._tag} range=${j.error?.range}`, 1)
    dossier(dir, ["ingest", "http://0x7f.1/notes"], (j) => `${j.error?._tag} address=${j.error?.address}`, 1)
    dossier(
      dir,
      ["ingest", "http://[::ffff:169.254.169.254]/latest"],
      (j) => `${j.error?._tag} range=${j.error?.range}`,
      1
    )
    dossier(
      dir,
      ["ingest", "https://example.com/some page", "--dry-run"],
      (j) => `network=${j.network} url=${j.url} (no DNS, no HTTP)`
    )

    say("")
    say(`So this demo captures its own embedded page, served on 127.0.0.1:${port}, in process through the`)
    say("library with the test layer (the same SafeHttp code; its resolver maps river.test to 127.0.0.1 and")
    say("its policy admits exactly that address). Nothing leaves this machine.")
    const layer = IngestFolder.pipe(
      Layer.provide(
        Layer.merge(
          SafeHttpTest({
            resolve: tableResolver({ "river.test": ["127.0.0.1"] }),
            policy: policyAllowing(["127.0.0.1"])
          }),
          BaseLive(dir)
        )
      )
    )
    const capture = (url: string) =>
      Effect.runPromise(Effect.flatMap(Ingest, (i) => i.capture(url)).pipe(Effect.provide(layer)))
    const r = await capture(`http://river.test:${port}/notes`)
    say(`  captured ${r.finalUrl} after ${r.redirects.length} redirect(s)`)
    say(`  original: ${r.original.path} (${r.original.bytes} bytes, ${r.original.contentType})`)
    say(`  readable: ${r.source.path} (${r.source.bytes} bytes)`)
    const again = await capture(`http://river.test:${port}/notes`)
    say(`  the same capture again: reused=${again.reused} (write-once files kept byte for byte)`)

    const plan = dossier(dir, ["plan", "inspect"], (j) => `state=${j.state} revision=${j.revision ?? "-"}`)
    if (plan.ok === true && plan.state === "active" && typeof plan.revision === "number") {
      write(
        dir,
        "research/inputs/ingest-sources.json",
        JSON.stringify({
          sources: [
            { path: r.original.path, origin: r.finalUrl },
            { path: r.source.path, origin: r.finalUrl }
          ],
          completedSteps: [{ summary: "Captured the river gauge notes", id: "capture-river-notes" }]
        })
      )
      dossier(
        dir,
        ["plan", "checkpoint", "--input", "research/inputs/ingest-sources.json", "--expected", String(plan.revision)],
        (
          j
        ) => (j.ok
          ? `registered both files as plan sources; revision ${j.revision}`
          : `${j.error?._tag}: ${j.error?.message}`)
      )
    } else {
      say("  (no plan in this folder, so the files are not registered with one)")
    }
    say("A capture proves which bytes were received from that address, not that the page is complete or true.")
  } finally {
    server.close()
  }
}
