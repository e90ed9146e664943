/**
 * A key given twice in one object of a JSON-RPC line: `JSON.parse` would keep the last one. In a
 * tool's arguments the call is refused as the CLI refuses the same input file (`InvalidInput` at
 * its path within `input`, `UsageError` for an argument given twice); anywhere else in the
 * message it is an ill-formed request (-32600), and nothing runs.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { runCli, tempWorkdir } from "../support/cli.js"
import { initialize, raw } from "./support.js"

const call = (id: number, name: string, args: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`

describe("dossier mcp: a key given twice", () => {
  it("refuses it in a tool's input, in its arguments and in the envelope", async () => {
    const dir = tempWorkdir("dossier-mcp-dup-")
    runCli(["init", "--workdir", dir, "--json"])
    const s = raw(dir)
    s.send(initialize(1))
    await s.next()
    s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))

    s.send(call(2, "plan_start", `{"input":{"goal":"first","goal":"second"}}`))
    const input = await s.next()
    expect(input.id).toBe(2)
    expect(input.result.isError).toBe(true)
    expect(input.result.structuredContent.error).toMatchObject({
      _tag: "InvalidInput",
      issues: [{ path: "goal", message: "the key 'goal' appears more than once in this object" }]
    })
    // The same JSON as an input file: the same answer.
    const cli = runCli(["plan", "start", "--input", "-", "--json"], {
      cwd: dir,
      input: `{"goal":"first","goal":"second"}`
    })
    expect(cli.json.error).toEqual(input.result.structuredContent.error)
    expect(existsSync(join(dir, "research", "plan.json"))).toBe(false)

    s.send(call(3, "plan_start", `{"input":{"goal":"g","notes":[{"id":"a","id":"b"}]}}`))
    const nested = await s.next()
    expect(nested.result.structuredContent.error).toMatchObject({
      _tag: "InvalidInput",
      issues: [{ path: "notes.0.id" }]
    })

    s.send(call(4, "journal_inspect", `{"study":"a","study":"b"}`))
    const argument = await s.next()
    expect(argument.result.isError).toBe(true)
    expect(argument.result.structuredContent.error).toMatchObject({
      _tag: "UsageError",
      message: "argument 'study' is given more than once"
    })

    s.send(
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"status","name":"plan_start","arguments":{}}}`
    )
    expect(await s.next()).toMatchObject({
      id: 5,
      error: {
        code: -32600,
        message: "Invalid Request: at 'params': the key 'name' appears more than once in this object"
      }
    })
    s.send(`{"jsonrpc":"2.0","id":6,"id":7,"method":"ping"}`)
    expect(await s.next()).toMatchObject({ id: null, error: { code: -32600 } })

    // The server goes on serving, and a call without a repeated key runs.
    s.send(call(8, "status", "{}"))
    expect((await s.next()).result.isError).toBe(false)
    await s.end()
  })
})
