/**
 * `dossier mcp` on the wire, as a careless client would talk to it: malformed JSON-RPC gets a
 * JSON-RPC error and the server goes on; any id is answered under that id; closing stdin ends the
 * server cleanly, after answering what it had already read.
 */
import { describe, expect, it } from "vitest"
import { tempWorkdir } from "../support/cli.js"
import { initialize, raw } from "./support.js"

describe("dossier mcp: JSON-RPC on stdio", () => {
  it("answers malformed messages with JSON-RPC errors and keeps serving", async () => {
    const s = raw(tempWorkdir("dossier-mcp-raw-"))
    s.send(initialize(1))
    expect((await s.next()).result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "dossier" } })
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))
    const cases: ReadonlyArray<[string, unknown, number]> = [
      ["this is not json", null, -32700],
      ["{\"jsonrpc\":\"2.0\",\"id\":2,", null, -32700],
      ["[]", null, -32600],
      ["[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]", null, -32600],
      ["{}", null, -32600],
      ["null", null, -32600],
      ["42", null, -32600],
      [JSON.stringify({ jsonrpc: "1.0", id: 4, method: "ping" }), 4, -32600],
      [JSON.stringify({ jsonrpc: "2.0", id: 5, method: "no/such" }), 5, -32601],
      [JSON.stringify({ jsonrpc: "2.0", id: 6, method: "@effect/rpc/Eof" }), 6, -32601],
      [JSON.stringify({ jsonrpc: "2.0", id: 7, method: 12 }), 7, -32600],
      [JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" }), null, -32600],
      [JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: "x" }), 8, -32602],
      [JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: 5 } }), 9, -32602],
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 10,
          method: "tools/call",
          params: { name: "no_such_tool", arguments: {} }
        }),
        10,
        -32602
      ],
      [JSON.stringify({ jsonrpc: "2.0", id: 11, method: "notifications/initialized" }), 11, -32600],
      // A `_meta` the protocol does not allow (not an object, a progress token neither a string
      // nor an integer): answered, never left waiting.
      [JSON.stringify({ jsonrpc: "2.0", id: 13, method: "tools/list", params: { _meta: 5 } }), 13, -32602],
      [JSON.stringify({ jsonrpc: "2.0", id: 14, method: "ping", params: { _meta: null } }), 14, -32602],
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 15,
          method: "tools/call",
          params: { name: "status", arguments: {}, _meta: { progressToken: { a: 1 } } }
        }),
        15,
        -32602
      ],
      [
        JSON.stringify({
          jsonrpc: "2.0",
          id: 16,
          method: "resources/read",
          params: { uri: "dossier://plan", _meta: [] }
        }),
        16,
        -32602
      ],
      // The lists come whole and never carry a `nextCursor`: any cursor is one this server never
      // gave, which the protocol answers with -32602 (not the first page again).
      [JSON.stringify({ jsonrpc: "2.0", id: 17, method: "tools/list", params: { cursor: "abc" } }), 17, -32602],
      [JSON.stringify({ jsonrpc: "2.0", id: 18, method: "resources/list", params: { cursor: "" } }), 18, -32602],
      [
        JSON.stringify({ jsonrpc: "2.0", id: 19, method: "resources/templates/list", params: { cursor: "2" } }),
        19,
        -32602
      ]
    ]
    for (const [line, id, code] of cases) {
      s.send(line)
      const answer = await s.next()
      expect(answer, line).toMatchObject({ jsonrpc: "2.0", id, error: { code } })
      expect(Object.keys(answer.error).sort(), line).toEqual(["code", "message"])
      // Still serving.
      s.send(JSON.stringify({ jsonrpc: "2.0", id: "alive", method: "ping" }))
      expect(await s.next(), line).toEqual({ jsonrpc: "2.0", id: "alive", result: {} })
    }
    // Any id a client uses comes back as it was sent; a call without arguments is a call with none.
    for (const id of ["s-1", 0, -3, 2.5, "7"]) {
      s.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "plan_inspect" } }))
      const r = await s.next()
      expect(r.id).toStrictEqual(id)
      expect(r.result.structuredContent).toMatchObject({ ok: true, state: "none" })
    }
    // Unknown notifications and stray responses get no answer.
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/whatever" }))
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 99, result: {} }))
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 12, method: "ping" }))
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 12, result: {} })
    const end = await s.end()
    expect(end.code).toBe(0)
    expect(end.rest.trim()).toBe("")
    expect(end.stderr).toBe("")
  }, 120_000)

  it("closing stdin ends the server with exit 0, after answering the requests already read", async () => {
    const s = raw(tempWorkdir("dossier-mcp-raw-"))
    s.send(initialize(1))
    await s.next()
    s.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "plan_start", arguments: { input: { goal: "g", limits: [], nextAction: "n" } } }
      })
    )
    const end = await s.end()
    expect(end.code).toBe(0)
    // The answer, after the notice that the resource list grew (the plan is one now).
    const lines = end.rest.trim().split("\n").map((l) => JSON.parse(l))
    expect(lines.map((l) => l.method ?? l.id).sort()).toEqual([2, "notifications/resources/list_changed"])
    expect(lines.find((l) => l.id === 2)).toMatchObject({
      result: { isError: false, structuredContent: { ok: true, created: true } }
    })
  }, 60_000)
})
