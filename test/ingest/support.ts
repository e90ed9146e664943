/** Helpers of the ingest tests: a local HTTP server on 127.0.0.1 and test layers. */
import * as Layer from "effect/Layer"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { type AddressPolicy, publicUnicastPolicy } from "../../src/domain/DestinationPolicy.js"
import { BaseLive } from "../../src/layers/Base.js"
import { IngestFolder } from "../../src/layers/folder/IngestFolder.js"
import type { ConnectEvent, Resolver } from "../../src/layers/SafeHttpLive.js"
import { policyAllowing, SafeHttpTest, tableResolver } from "../../src/layers/SafeHttpTest.js"

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void

export interface TestServer {
  readonly port: number
  readonly origin: string
  readonly connections: () => number
  readonly requests: () => ReadonlyArray<{ readonly url: string; readonly headers: http.IncomingHttpHeaders }>
  readonly close: () => Promise<void>
}

/** An HTTP server on 127.0.0.1 (only) with routes by path; unknown paths get 404. */
/** A handler answering `status` with a `location` computed at request time (the server's port is known by then). */
export const redirect = (status: number, location: () => string): Handler => (_req, res) => {
  res.writeHead(status, { location: location() })
  res.end("moved")
}

/** `/hop/1` … `/hop/6`, each redirecting to the next: six redirects before `/hop/7`. */
export const redirectChain = (): Record<string, Handler> => {
  const hops: Record<string, Handler> = {}
  for (let i = 1; i <= 6; i++) hops[`/hop/${i}`] = redirect(302, () => `/hop/${i + 1}`)
  return hops
}

/** `host`: the loopback address to listen on (127.0.0.1 unless told; any of 127/8 is the machine's own). */
export const startServer = (routes: Record<string, Handler>, host = "127.0.0.1"): Promise<TestServer> =>
  new Promise((resolve) => {
    let connections = 0
    const requests: Array<{ url: string; headers: http.IncomingHttpHeaders }> = []
    const server = http.createServer((req, res) => {
      requests.push({ url: req.url ?? "", headers: req.headers })
      const route = routes[(req.url ?? "/").split("?")[0]!]
      if (route === undefined) {
        res.writeHead(404, { "content-type": "text/plain" })
        res.end("not found")
        return
      }
      route(req, res)
    })
    server.on("connection", (socket) => {
      connections++
      socket.on("error", () => {})
    })
    server.listen(0, host, () => {
      const port = (server.address() as AddressInfo).port
      resolve({
        port,
        origin: `http://${host}:${port}`,
        connections: () => connections,
        requests: () => requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

/** Records what a SafeHttp layer resolved and connected to. */
export interface Recorder {
  readonly resolved: Array<string>
  readonly events: Array<ConnectEvent>
  readonly connecting: () => number
  readonly connectedTo: () => ReadonlyArray<string>
}

export const recorder = (): Recorder => {
  const resolved: Array<string> = []
  const events: Array<ConnectEvent> = []
  return {
    resolved,
    events,
    connecting: () => events.filter((e) => e.phase === "connecting").length,
    connectedTo: () => events.flatMap((e) => (e.phase === "connected" ? [e.address] : []))
  }
}

export const recordingResolver = (rec: Recorder, inner: Resolver): Resolver => (host) => {
  rec.resolved.push(host)
  return inner(host)
}

/** A SafeHttp test layer: the given resolver table and policy (the real one unless told), recorded. */
export const httpLayer = (
  rec: Recorder,
  table: Readonly<Record<string, ReadonlyArray<string>>>,
  policy: AddressPolicy = publicUnicastPolicy
) => SafeHttpTest({ resolve: recordingResolver(rec, tableResolver(table)), policy, observe: (e) => rec.events.push(e) })

/** The policy tests use to reach their own server: the real one, plus exactly 127.0.0.1. */
export const loopbackForTests = policyAllowing(["127.0.0.1"])

export const ingestLayer = (dir: string, http: ReturnType<typeof httpLayer>) =>
  IngestFolder.pipe(Layer.provide(Layer.merge(http, BaseLive(dir))))
