/**
 * Messages too deep or too large (raw JSON-RPC over the spawned built CLI, as no SDK client
 * sends them): each is answered at once with a JSON-RPC error under its id, the server goes on
 * serving, and closing stdin ends it promptly.
 */
import { describe, expect, it } from "vitest"
import { tempWorkdir } from "../support/cli.js"
import { initialize, raw } from "./support.js"

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`

describe("dossier mcp: limits of a message", () => {
  it("answers a too deep or too large request at once, keeps serving, and exits promptly", async () => {
    const s = raw(tempWorkdir("dossier-mcp-limits-"))
    s.send(initialize(1))
    await s.next()
    const alive = async (id: string) => {
      s.send(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }))
      expect(await s.next(5_000)).toEqual({ jsonrpc: "2.0", id, result: {} })
    }
    // A ping 20,000 levels deep.
    let started = Date.now()
    s.send(`{"jsonrpc":"2.0","id":"deep-ping","method":"ping","params":{"x":${nested(20_000)}}}`)
    const deep = await s.next(5_000)
    expect(deep).toMatchObject({
      id: "deep-ping",
      error: { code: -32600, message: expect.stringContaining("64 levels") }
    })
    expect(Date.now() - started).toBeLessThan(3_000)
    await alive("a1")
    // Tool arguments 5,000 levels deep, the id last (as the SDK client writes it).
    s.send(
      `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"source_follow","arguments":{"quote":${
        nested(5_000)
      }}},"id":7}`
    )
    expect(await s.next(5_000)).toMatchObject({ id: 7, error: { code: -32600 } })
    await alive("a2")
    // 64 levels (the message, params and 62 arrays) are served, 65 refused.
    s.send(`{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":${nested(62)}}}`)
    expect(await s.next(5_000)).toEqual({ jsonrpc: "2.0", id: 8, result: {} })
    s.send(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":${nested(63)}}}`)
    expect(await s.next(5_000)).toMatchObject({ id: 9, error: { code: -32600 } })
    // A 20 MiB argument, its id after it: refused unread, under its id.
    started = Date.now()
    const big = "x".repeat(20 * 1024 * 1024)
    s.send(
      `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"source_follow","arguments":{"quote":"${big}"}},"id":"big"}`
    )
    const tooLarge = await s.next(20_000)
    expect(tooLarge).toMatchObject({
      id: "big",
      error: { code: -32600, message: expect.stringContaining(String(4 * 1024 * 1024)) }
    })
    await alive("a3")
    // A large message without an id at the top: answered with id null.
    s.send(`{"jsonrpc":"2.0","method":"ping","params":{"x":"${"y".repeat(5 * 1024 * 1024)}","id":3}}`)
    expect(await s.next(20_000)).toMatchObject({ id: null, error: { code: -32600 } })
    await alive("a4")
    expect(Date.now() - started).toBeLessThan(20_000)
    // A cancelled call is never answered and is no longer waited for.
    // (One write: the cancellation is read before the call can finish.)
    s.send([
      JSON.stringify({ jsonrpc: "2.0", id: "c1", method: "tools/call", params: { name: "next", arguments: {} } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c1" } })
    ].join("\n"))
    await alive("a5")
    // Closing stdin ends the server at once.
    started = Date.now()
    const end = await s.end()
    expect(end.code).toBe(0)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(end.stderr).toBe("")
    expect(end.rest.trim()).toBe("")
  }, 120_000)
})
