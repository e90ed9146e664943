/**
 * A defect inside one tool call answers that call with isError and the Defect envelope; the next call is served.
 * Every tool's description says what it does.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defectInfo } from "../../src/commands/ErrorCatalogue.js"
import { command } from "../../src/commands/Spec.js"
import { toolName } from "../../src/commands/Spec.js"
import { commandSpecs } from "../../src/commands/Specs.js"
import { work } from "../../src/commands/Work.js"
import { isTool, modesOf, toolCatalogue, toolDescription } from "../../src/mcp/Tools.js"

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

describe("tool descriptions", () => {
  it("say what each tool does, not when it is used or a lead-in cut short", () => {
    const described = new Map<string, string>()
    for (const spec of commandSpecs.filter(isTool)) {
      for (const mode of modesOf(spec)) described.set(toolName(spec, mode), toolDescription(spec, mode))
    }
    for (const [name, d] of described) {
      expect(d, name).not.toMatch(/^(Before|After|When|While|If|Once|In)\b/)
      expect(d.replace(/…$/, "").split(/\s+/).length, `${name}: ${d}`).toBeGreaterThanOrEqual(5)
    }
    expect(described.get("gate")).toMatch(/\bquotes?\b/)
    expect(described.get("gate_recheck")).toMatch(/\bdescriptor\b/)
  })
})
