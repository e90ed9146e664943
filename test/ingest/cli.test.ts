/** The built CLI takes the same path: hostile URLs refused, flags validated, loopback unreachable. */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { leaksNothing, runCli, runCliAsync, tempWorkdir } from "../support/cli.js"
import { corpus } from "./corpus.js"
import { startServer, type TestServer } from "./support.js"

let server: TestServer
beforeAll(async () => {
  server = await startServer({
    "/page": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" })
      res.end("<p>never served to the CLI</p>")
    }
  })
})
afterAll(() => server.close())

const forbidden = corpus.filter((e) => e.tag === "ForbiddenDestination" && e.range !== undefined)
// Every 4th entry: a spread over IPv4 spellings, IPv6 forms, localhost names and authority tricks.
const sample = forbidden.filter((_, i) => i % 4 === 0)

describe("dossier ingest (built CLI)", () => {
  it("refuses a sample of the hostile corpus with ForbiddenDestination, exit 1, writing nothing", async () => {
    expect(sample.length).toBeGreaterThanOrEqual(20)
    const dir = tempWorkdir("dossier-ingest-cli-")
    for (let i = 0; i < sample.length; i += 6) {
      const batch = sample.slice(i, i + 6)
      const results = await Promise.all(
        batch.map((entry) => runCliAsync(["ingest", entry.url, "--workdir", dir, "--json"]))
      )
      batch.forEach((entry, k) => {
        const r = results[k]!
        expect(r.code, entry.url).toBe(1)
        expect(r.json?.ok, entry.url).toBe(false)
        expect(r.json.error._tag, entry.url).toBe("ForbiddenDestination")
        expect(r.json.error.range, entry.url).toBe(entry.range)
        expect(r.json.error.retryable).toBe(false)
        expect(leaksNothing(dir, r)).toBe(true)
      })
    }
    expect(fs.readdirSync(dir)).toEqual([])
  }, 180_000)

  it("cannot reach a real server on 127.0.0.1: refused before any connection", async () => {
    const dir = tempWorkdir("dossier-ingest-cli-")
    for (
      const url of [
        `http://127.0.0.1:${server.port}/page`,
        `http://localhost:${server.port}/page`,
        `http://2130706433:${server.port}/page`,
        `http://[::ffff:127.0.0.1]:${server.port}/page`
      ]
    ) {
      const r = await runCliAsync(["ingest", url, "--workdir", dir, "--json"], {
        env: { NO_PROXY: "", HTTP_PROXY: "", DOSSIER_DEBUG: "0" }
      })
      expect(r.code).toBe(1)
      expect(r.json.error._tag).toBe("ForbiddenDestination")
    }
    expect(server.connections()).toBe(0)
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("other refusals keep their tags: scheme, credentials, unparseable", () => {
    const dir = tempWorkdir("dossier-ingest-cli-")
    expect(runCli(["ingest", "file:///etc/passwd", "--workdir", dir, "--json"]).json.error._tag).toBe(
      "UnsupportedScheme"
    )
    expect(runCli(["ingest", "http://user:pw@example.com/", "--workdir", dir, "--json"]).json.error._tag).toBe(
      "CredentialsInUrl"
    )
    const bad = runCli(["ingest", "http://[::1/", "--workdir", dir, "--json"])
    expect(bad.code).toBe(1)
    expect(bad.json.error._tag).toBe("InvalidUrl")
    // An empty URL (`ingest "$URL"` with the variable unset) is an empty value, a usage error as
    // every empty flag value and positional is; a blank one is a URL that does not parse. Either
    // way with or without --dry-run.
    for (const extra of [[], ["--dry-run"]]) {
      const empty = runCli(["ingest", "", ...extra, "--workdir", dir, "--json"])
      expect(empty.code, `"" ${extra.join(" ")}`).toBe(2)
      expect(empty.json.error, `"" ${extra.join(" ")}`).toMatchObject({
        _tag: "UsageError",
        message: "<url>: the value is empty; give a url"
      })
      const blank = runCli(["ingest", " ", ...extra, "--workdir", dir, "--json"])
      expect(blank.code, `" " ${extra.join(" ")}`).toBe(1)
      expect(blank.json.error, `" " ${extra.join(" ")}`).toMatchObject({ _tag: "InvalidUrl", url: " " })
    }
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("--dry-run says not_checked, normalizes the URL, makes no request and writes nothing", () => {
    const dir = tempWorkdir("dossier-ingest-cli-")
    const r = runCli(["ingest", "HTTPS://Example.COM/a b", "--dry-run", "--workdir", dir, "--json"])
    expect(r.code).toBe(0)
    expect(r.json).toEqual({
      ok: true,
      network: "not_checked",
      url: "https://example.com/a%20b",
      host: "example.com",
      literal: false
    })
    const lit = runCli(["ingest", "http://0x7f.1/", "--dry-run", "--workdir", dir, "--json"])
    expect(lit.code).toBe(1)
    expect(lit.json.error._tag).toBe("ForbiddenDestination")
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it("--timeout outside 1-120 or not a number is a UsageError, exit 2", () => {
    for (const value of ["abc", "500", "0", "121", "1.5", "-3"]) {
      const r = runCli(["ingest", "https://example.com/", "--timeout", value, "--json"])
      expect(r.code, value).toBe(2)
      expect(r.json.ok).toBe(false)
      expect(r.json.error._tag).toBe("UsageError")
    }
  })

  it("an unknown flag is a usage error; a refusal without --json goes to stderr", () => {
    expect(runCli(["ingest", "https://example.com/", "--allow-private", "--json"]).code).toBe(2)
    const dir = tempWorkdir("dossier-ingest-cli-")
    const r = runCli(["ingest", "http://10.1.2.3/", "--workdir", dir])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toContain("ForbiddenDestination")
  })

  it("--help explains the policy and lists the flags", () => {
    const r = runCli(["ingest", "--help"])
    expect(r.code).toBe(0)
    for (
      const word of [
        "--timeout",
        "--dry-run",
        "--workdir",
        "--now",
        "--json",
        "public unicast",
        "loopback",
        "private",
        "metadata",
        "localhost",
        "redirect",
        "2 MiB",
        "captures.jsonl"
      ]
    ) {
      expect(r.stdout, word).toContain(word)
    }
  })
})
