/**
 * Decoders, validators and compiled guards are made at module load (`const decodeX =
 * decodeWith(X)`), and a CLI process runs one command, which calls few of them: each compiles its
 * schema at its first call, not when it is made (docs/performance.md, "Issue 28, thirteenth
 * round"). A declared schema counts when Schema compiles it; a schema's `ast` read counts when the
 * guard compiles it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { decodeWith, validateWith } from "../../src/domain/Decode.js"
import { compileGuard } from "../../src/domain/Guard.js"

/** A struct whose field is a declaration: `compiled()` says how often Schema built its parser. */
const counted = () => {
  let compiled = 0
  const Even = Schema.declare([], {
    decode: () => {
      compiled++
      return (u, _, ast) =>
        typeof u === "number" && u % 2 === 0 ? ParseResult.succeed(u) : ParseResult.fail(new ParseResult.Type(ast, u))
    },
    encode: () => (u) => ParseResult.succeed(u)
  })
  return { schema: Schema.Struct({ n: Even }), compiled: () => compiled }
}

describe("decoders compiled at their first call", () => {
  it("decodeWith", () => {
    const { compiled, schema } = counted()
    const decode = decodeWith(schema)
    expect(compiled()).toBe(0)
    expect(Either.isRight(decode({ n: 2 }))).toBe(true)
    expect(Either.isLeft(decode({ n: 3 }))).toBe(true)
    expect(Either.isLeft(decode({ n: 2, extra: 1 }))).toBe(true)
    expect(compiled()).toBe(1)
  })

  it("validateWith", () => {
    const { compiled, schema } = counted()
    const validate = validateWith(schema)
    expect(compiled()).toBe(0)
    expect(Either.isRight(validate({ n: 4 }))).toBe(true)
    expect(Either.isLeft(validate({ n: 5 }))).toBe(true)
    expect(compiled()).toBe(1)
  })

  it("a value that is not plain data is refused before anything is compiled", () => {
    const { compiled, schema } = counted()
    const decode = decodeWith(schema)
    const deep: Record<string, unknown> = {}
    let at = deep
    for (let i = 0; i < 1000; i++) at = (at["n"] = {}) as Record<string, unknown>
    expect(Either.isLeft(decode(deep))).toBe(true)
    expect(compiled()).toBe(0)
  })

  it("compileGuard", () => {
    const Struct = Schema.Struct({ a: Schema.String })
    let reads = 0
    const schema = new Proxy(Struct, {
      get: (target, key, receiver) => {
        if (key === "ast") reads++
        return Reflect.get(target, key, receiver) as unknown
      }
    })
    const is = compileGuard(schema)
    expect(reads).toBe(0)
    expect(is({ a: "x" })).toBe(true)
    expect(is({ a: 1 })).toBe(false)
    expect(is({ a: "x", b: 1 })).toBe(false)
    expect(reads).toBe(1)
  })
})
