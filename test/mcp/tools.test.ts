/** A defect inside one tool call answers that call with isError and the Defect envelope; the next call is served. */
import * as McpSchema from "@effect/ai/McpSchema"
import { McpServer } from "@effect/ai/McpServer"
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { command } from "../../src/cli/Spec.js"
import { work } from "../../src/cli/Work.js"
import { registerTools } from "../../src/mcp/Tools.js"

const specs = [
  command({ path: ["boom"], description: "dies inside its work", flags: {}, run: () => Promise.resolve(work({ effect: Effect.die(new Error("boom")), layer: Layer.empty, human: () => "" })) }),
  command({ path: ["throws"], description: "fails to load", flags: {}, run: () => Promise.reject(new Error("no module")) }),
  command({ path: ["fine"], description: "answers", flags: {}, run: () => Promise.resolve(work({ effect: Effect.succeed({ n: 1 }), layer: Layer.empty, human: () => "" })) })
]

describe("MCP tools", () => {
  it.scoped("a defect is an isError answer with the Defect envelope, and the server serves the next call", () =>
    Effect.gen(function*() {
      const server = yield* McpServer.make
      yield* registerTools(server, { root: ".", specs, inputSchemas: {}, services: Context.empty() as never, afterCall: Effect.void })
      const call = (name: string) =>
        server.callTool({ name, arguments: {} }).pipe(Effect.provideService(McpSchema.McpServerClient, {} as never))
      for (const name of ["boom", "throws"]) {
        const r = yield* call(name)
        assert.isTrue(r.isError)
        assert.deepStrictEqual(r.structuredContent, { ok: false, error: { _tag: "Defect", message: "dossier hit an internal error; this is a bug.", retryable: false } })
        assert.notInclude(JSON.stringify(r.content), "boom")
      }
      const ok = yield* call("fine")
      assert.isFalse(ok.isError)
      assert.deepStrictEqual(ok.structuredContent, { ok: true, n: 1 })
    }))
})
