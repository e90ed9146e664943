/**
 * A key given twice in one object of an input's JSON text (src/domain/DuplicateKeys.ts): found at
 * its path whatever the text around it holds, and never found where JSON.parse loses nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as fc from "fast-check"
import { parseInputJson } from "../../src/domain/Decode.js"
import { duplicateKey } from "../../src/domain/DuplicateKeys.js"

const twice = (key: string) => `the key '${key}' appears more than once in this object`

describe("duplicateKey", () => {
  it("names the first key given twice, at its dotted path", () => {
    expect(duplicateKey(`{"id": "a", "id": "b"}`)).toEqual({ path: "id", message: twice("id") })
    expect(duplicateKey(`[1, {"a": 1}, {"a": 2, "b": {"c": [{"d": 1, "d": 2}]}}]`))
      .toEqual({ path: "2.b.c.0.d", message: twice("d") })
    // Keys compare after their escapes are decoded.
    expect(duplicateKey(`{"id": 1, "\\u0069d": 2}`)).toEqual({ path: "id", message: twice("id") })
    // Quotes, backslashes and brackets inside strings are text, not structure.
    expect(duplicateKey(`{"a": "x\\"}{[", "a\\\\": 1, "q": {"\\"": 1, "\\"": 2}}`))
      .toEqual({ path: "q.\"", message: twice("\"") })
  })

  it("finds nothing where no object repeats a key: siblings, nesting, values equal to keys", () => {
    expect(duplicateKey(`[{"a": 1}, {"a": 2}]`)).toBeNull()
    expect(duplicateKey(`{"a": {"a": {"a": "a"}}, "b": ["a", "a"]}`)).toBeNull()
    expect(duplicateKey(`{"a": "b", "b": "a"}`)).toBeNull()
    expect(duplicateKey(`"{\\"a\\": 1, \\"a\\": 2}"`)).toBeNull()
  })

  it("agrees with JSON.parse on any JSON: a text it writes has no duplicate; a key repeated is found", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(duplicateKey(JSON.stringify(v))).toBeNull()
        expect(duplicateKey(JSON.stringify(v, null, 2))).toBeNull()
      }),
      { numRuns: 300, seed: 61 }
    )
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), fc.jsonValue(), (key, a, b) => {
        const text = `{"x": [{${JSON.stringify(key)}: ${JSON.stringify(a)}, ${JSON.stringify(key)}: ${
          JSON.stringify(b)
        }}]}`
        expect(duplicateKey(text)).toEqual({ path: `x.0.${key}`, message: expect.any(String) })
      }),
      { numRuns: 300, seed: 62 }
    )
  })

  it("parseInputJson: a syntax error first, then a repeated key; otherwise the parsed value", () => {
    expect(Either.getOrThrow(parseInputJson(`{"a": [1, 2]}`))).toEqual({ a: [1, 2] })
    const dup = parseInputJson(`{"a": 1, "a": 2}`)
    expect(Either.isLeft(dup) && dup.left.issues).toEqual([{ path: "a", message: twice("a") }])
    const bad = parseInputJson(`{"a": 1, "a": `)
    expect(Either.isLeft(bad) && bad.left.issues[0]!.message).toMatch(/^not valid JSON: /)
  })
})
