/**
 * The deadline of `dossier ingest` against a name server that never answers, through the built CLI
 * and the system resolver (the other ingest tests inject theirs). The CLI runs in a network and
 * mount namespace of its own (`unshare`: root only; skipped with a note otherwise) whose
 * /etc/resolv.conf names a local name server that takes every query and answers none, asked to wait
 * 30 s. The answer is `Timeout` at the deadline, and the process ends with it: the system lookup
 * (getaddrinfo, which cannot be cancelled in the process) does not hold it until the resolver gives
 * up: it runs in a child process (`getent ahosts`) that the deadline ends.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { getentAnswers } from "../../src/layers/SafeHttpLive.js"
import { CLI, tempWorkdir } from "../support/cli.js"

// getent: where it is missing the lookup runs in the process, which the deadline cannot end.
const unshareAvailable = typeof process.getuid === "function" && process.getuid() === 0 &&
  spawnSync("sh", ["-c", "command -v getent && command -v ip"]).status === 0 &&
  spawnSync("unshare", ["--net", "--mount", "true"]).status === 0
if (!unshareAvailable) {
  console.warn("deadline against a silent name server skipped: it needs root, `unshare`, `ip` and `getent`.")
}

/** A name server on 127.0.0.1:53 that counts the queries it gets and answers none. */
const SILENT_SERVER = `
const fs = require("node:fs")
const s = require("node:dgram").createSocket("udp4")
s.on("message", () => fs.appendFileSync(process.argv[1], "q\\n"))
s.bind(53, "127.0.0.1", () => fs.writeFileSync(process.argv[2], "ready"))
`

const SCRIPT = `
set -e
ip link set lo up
mount --bind "$D/resolv.conf" /etc/resolv.conf
node -e "$SERVER" "$D/queries" "$D/ready" &
server=$!
trap 'kill $server' EXIT
while [ ! -e "$D/ready" ]; do sleep 0.05; done
start=$(date +%s%N)
set +e
node "$CLI" ingest http://never-answered.example/page --timeout 1 --workdir "$D/work" --json > "$D/out.json"
echo "$? $(( ($(date +%s%N) - start) / 1000000 ))" > "$D/result"
`

describe.skipIf(!unshareAvailable)("ingest against a name server that never answers (built CLI)", () => {
  it("answers Timeout at the deadline and the process ends with it", () => {
    const d = tempWorkdir("dossier-ingest-dns-")
    fs.mkdirSync(path.join(d, "work"))
    fs.writeFileSync(path.join(d, "resolv.conf"), "nameserver 127.0.0.1\noptions timeout:30 attempts:1\n")
    const r = spawnSync("unshare", ["--net", "--mount", "sh", "-c", SCRIPT], {
      env: { ...process.env, D: d, CLI, SERVER: SILENT_SERVER },
      encoding: "utf8",
      timeout: 120_000
    })
    expect(r.status, r.stderr).toBe(0)
    // The lookup did reach the silent server (else this would test nothing).
    expect(fs.readFileSync(path.join(d, "queries"), "utf8").length).toBeGreaterThan(0)
    const [code, ms] = fs.readFileSync(path.join(d, "result"), "utf8").trim().split(" ").map(Number)
    const answer = JSON.parse(fs.readFileSync(path.join(d, "out.json"), "utf8"))
    expect(answer.error._tag).toBe("Timeout")
    expect(code).toBe(1)
    // The deadline is 1 s and the resolver would wait 30: a process still there after 10 s was held by the lookup.
    expect(ms).toBeLessThan(10_000)
    expect(fs.readdirSync(path.join(d, "work"))).toEqual([])
  }, 150_000)
})

describe("the system resolver's reading of getent", () => {
  it("takes each address once, in getent's order, with its family", () => {
    const output = [
      "2001:db8::7      STREAM page.example",
      "2001:db8::7      DGRAM  ",
      "2001:db8::7      RAW    ",
      "192.0.2.7        STREAM ",
      "192.0.2.7        DGRAM  ",
      "192.0.2.7        RAW    ",
      ""
    ].join("\n")
    expect(getentAnswers(output)).toEqual([
      { address: "2001:db8::7", family: 6 },
      { address: "192.0.2.7", family: 4 }
    ])
    expect(getentAnswers("")).toEqual([])
  })
})
