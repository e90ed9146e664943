/**
 * Interim (1xx) responses before the final one: a server that answers `100 Continue` although
 * none was asked for (dossier never sends `Expect: 100-continue`), or `103 Early Hints`, is read
 * past to its final response, as RFC 9110 §15.2 asks of every client. A raw TCP server on
 * 127.0.0.1 writes the bytes by hand, split where a parser is most easily caught out.
 */
import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as net from "node:net"
import { interimHead, MAX_INTERIM_HEAD_BYTES, switchesProtocols } from "../../src/domain/Interim.js"
import { SafeHttp } from "../../src/services/SafeHttp.js"
import { httpLayer, loopbackForTests, recorder } from "./support.js"

const PAGE = "<!doctype html><title>Gauge</title><p>The river rose two metres overnight.</p>"
const FINAL = `HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: ${
  Buffer.byteLength(PAGE)
}\r\n\r\n${PAGE}`

/** Each route: the pieces written one after another (a short pause between them), then the end. */
const ROUTES: Record<string, ReadonlyArray<string>> = {
  "/continue": ["HTTP/1.1 100 Continue\r\n\r\n", FINAL],
  "/continue-split": ["HTTP/1.1 10", "0 Continue\r", "\n\r", "\n", FINAL],
  "/continue-same-write": [`HTTP/1.1 100 Continue\r\n\r\n${FINAL}`],
  "/continue-twice": ["HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n", FINAL],
  "/early-hints": ["HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload; as=style\r\n\r\n", FINAL],
  "/continue-then-404": ["HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"],
  "/switching": ["HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n"]
}

let server: net.Server
let port = 0

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on("error", () => {})
    let head = ""
    socket.on("data", (d) => {
      head += d.toString("latin1")
      if (!head.includes("\r\n\r\n")) return
      const pieces = ROUTES[head.split(" ")[1] ?? ""] ?? ["HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"]
      const next = (i: number): void => {
        if (i === pieces.length) return void socket.end()
        socket.write(pieces[i]!)
        setTimeout(() => next(i + 1), 15)
      }
      next(0)
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()))
  port = (server.address() as net.AddressInfo).port
})

afterAll(() => new Promise<void>((done) => server.close(() => done())))

const fetch = (route: string) =>
  Effect.flatMap(SafeHttp, (h) => h.fetch(`http://127.0.0.1:${port}${route}`, { timeoutSeconds: 5 })).pipe(
    Effect.either,
    Effect.provide(httpLayer(recorder(), {}, loopbackForTests))
  )

describe("interim responses before the final one", () => {
  for (const route of ["/continue", "/continue-split", "/continue-same-write", "/continue-twice", "/early-hints"]) {
    it.live(`${route}: the final response is read and kept, and the WARC's response record starts with it`, () =>
      Effect.gen(function*() {
        const r = yield* fetch(route)
        assert(Either.isRight(r), JSON.stringify(r))
        expect(r.right.status).toBe(200)
        expect(Buffer.from(r.right.body).toString("utf8")).toBe(PAGE)
        expect(r.right.text).toBe(PAGE)
        const response = Buffer.from(r.right.exchanges.at(-1)!.response).toString("latin1")
        expect(response).toBe(FINAL)
      }))
  }

  it.live("a final status after an interim one is judged as any final status", () =>
    Effect.gen(function*() {
      const r = yield* fetch("/continue-then-404")
      assert(Either.isLeft(r))
      expect(r.left).toMatchObject({ _tag: "HttpStatus", status: 404 })
    }))

  it.live("an unrequested 101 Switching Protocols is a final status outside 2xx: HttpStatus 101, not retryable", () =>
    Effect.gen(function*() {
      const r = yield* fetch("/switching")
      assert(Either.isLeft(r))
      expect(r.left).toMatchObject({ _tag: "HttpStatus", status: 101 })
    }))
})

describe("interimHead (pure)", () => {
  const bytes = (s: string) => Buffer.from(s, "latin1")

  it("tells an interim response from a final one as early as its bytes allow", () => {
    expect(interimHead(bytes(""))).toBe("incomplete")
    expect(interimHead(bytes("HTTP/1.1 1"))).toBe("incomplete")
    expect(interimHead(bytes("HTTP/1.1 2"))).toBe("final")
    expect(interimHead(bytes("HTTP/1.1 200 OK\r\n"))).toBe("final")
    expect(interimHead(bytes("<html>"))).toBe("final")
    expect(interimHead(bytes("HTTP/1.1 100 Continue\r\n"))).toBe("incomplete")
    expect(interimHead(bytes("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK"))).toBe(25)
    expect(interimHead(bytes("HTTP/1.1 100\r\n\r\n"))).toBe(16)
    expect(interimHead(bytes("HTTP/1.1 100 Continue\n\n"))).toBe(23)
    expect(interimHead(bytes("HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n"))).toBe(40)
    // 101 switches protocols (final); a four-digit status is no 1xx.
    expect(interimHead(bytes("HTTP/1.1 101 Switching Protocols\r\n\r\n"))).toBe("final")
    expect(interimHead(bytes("HTTP/1.1 1000 x\r\n\r\n"))).toBe("final")
  })

  it("tells a final 101 from other statuses", () => {
    expect(switchesProtocols(bytes("HTTP/1.1 101 Switching Protocols\r\n\r\n"))).toBe(true)
    expect(switchesProtocols(bytes("HTTP/1.1 101\r\n\r\n"))).toBe(true)
    expect(switchesProtocols(bytes("HTTP/1.1 1010 x\r\n"))).toBe(false)
    expect(switchesProtocols(bytes("HTTP/1.1 100 Continue\r\n"))).toBe(false)
    expect(switchesProtocols(bytes("HTTP/1.1 200 OK\r\n"))).toBe(false)
    expect(switchesProtocols(bytes("HTTP/1.1 101"))).toBe(false)
  })

  it("leaves a head longer than its bound to the HTTP parser", () => {
    const long = bytes(`HTTP/1.1 100 Continue\r\nx-pad: ${"a".repeat(MAX_INTERIM_HEAD_BYTES)}`)
    expect(interimHead(long)).toBe("final")
  })
})
