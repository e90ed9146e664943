/** A defect inside one tool call answers that call with isError and the Defect envelope; the next call is served. */
import { assert, describe, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defectInfo } from "../../src/commands/ErrorCatalogue.js"
import { command } from "../../src/commands/Spec.js"
import { work } from "../../src/commands/Work.js"
import { toolCatalogue } from "../../src/mcp/Tools.js"

const specs = [
  command({
    path: ["boom"],
    description: "dies inside its work",
    flags: {},
    run: () => Promise.resolve(work({ effect: Effect.die(new Error("boom")), layer: Layer.empty, human: () => "" }))
  }),
  command({
    path: ["throws"],
    description: "fails to load",
    flags: {},
    run: () => Promise.reject(new Error("no module"))
  }),
  command({
    path: ["fine"],
    description: "answers",
    flags: {},
    run: () => Promise.resolve(work({ effect: Effect.succeed({ n: 1 }), layer: Layer.empty, human: () => "" }))
  })
]

const hint = { title: "t", readOnly: true, output: "schema-output" }

describe("MCP tools", () => {
  it.effect("a defect is an isError answer with the Defect envelope, and the server serves the next call", () =>
    Effect.gen(function*() {
      const { schemaSchemas } = yield* Effect.promise(() => import("./schemasFixture.js"))
      const catalogue = toolCatalogue({
        root: ".",
        specs,
        schemas: schemaSchemas,
        services: Context.empty() as never,
        hints: { boom: hint, throws: hint, fine: hint }
      })
      for (const name of ["boom", "throws"]) {
        const r = yield* catalogue.call(name, {})!
        assert.isTrue(r.isError)
        assert.deepStrictEqual(r.structuredContent, {
          ok: false,
          error: {
            _tag: "Defect",
            message: "dossier hit an internal error; this is a bug.",
            retryable: false,
            hint: defectInfo.hint
          }
        })
        assert.deepStrictEqual(JSON.parse(r.content[0]!.text), r.structuredContent)
        assert.notInclude(JSON.stringify(r.content), "boom")
      }
      const ok = yield* catalogue.call("fine", {})!
      assert.isFalse(ok.isError)
      assert.deepStrictEqual(ok.structuredContent, { ok: true, n: 1 })
      assert.isUndefined(catalogue.call("nope", {}))
    }))
})
