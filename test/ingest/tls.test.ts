/** TLS keeps the host name: SNI carries it and the certificate is verified (a self-signed one is refused). */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as https from "node:https"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import * as tls from "node:tls"
import { SafeHttp } from "../../src/services/SafeHttp.js"
import { httpLayer, loopbackForTests, recorder } from "./support.js"

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0

let server: https.Server | undefined
let port = 0
const sniSeen: Array<string> = []

beforeAll(async () => {
  if (!hasOpenssl) return
  // A throwaway self-signed certificate, generated for this run only (never stored in the repository).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossier-tls-"))
  execFileSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    path.join(dir, "key.pem"),
    "-out",
    path.join(dir, "cert.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=site.test",
    "-addext",
    "subjectAltName=DNS:site.test"
  ], { stdio: "ignore" })
  const key = fs.readFileSync(path.join(dir, "key.pem"))
  const cert = fs.readFileSync(path.join(dir, "cert.pem"))
  const context = tls.createSecureContext({ key, cert })
  server = https.createServer({
    key,
    cert,
    // Called with the ClientHello's server name, before the client judges the certificate.
    SNICallback: (servername, cb) => {
      sniSeen.push(servername)
      cb(null, context)
    }
  }, (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" })
    res.end("secret page")
  })
  server.on("tlsClientError", () => {})
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()))
  port = (server.address() as AddressInfo).port
  fs.rmSync(dir, { recursive: true, force: true })
})

afterAll(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))))

describe.skipIf(!hasOpenssl)("SafeHttp over TLS", () => {
  it.live("SNI carries the host name; a certificate that does not verify is ConnectionFailed", () =>
    Effect.gen(function*() {
      const rec = recorder()
      const r = yield* Effect.flatMap(SafeHttp, (h) => h.fetch(`https://site.test:${port}/`, { timeoutSeconds: 5 }))
        .pipe(
          Effect.either,
          Effect.provide(httpLayer(rec, { "site.test": ["127.0.0.1"] }, loopbackForTests))
        )
      assert(Either.isLeft(r))
      expect(r.left._tag).toBe("ConnectionFailed")
      assert(r.left._tag === "ConnectionFailed")
      expect(r.left.reason).toMatch(/SELF_SIGNED|CERT|UNABLE/)
      expect(rec.resolved).toEqual(["site.test"])
      // The socket went to the checked address, and SNI still named the host.
      expect(rec.connectedTo()).toEqual([])
      expect(sniSeen).toEqual(["site.test"])
    }))
})
