/**
 * A whole input of the wrong kind (`[]`, `5`, `null` where the file holds an object) is told the
 * kind, `Expected an object, actual 5`, as docs/cli.md says: never Schema's name for the
 * structure (`Expected plan-start`, `Expected NarrowInput`, `Expected Struct (Encoded side)`),
 * which names nothing a user wrote. Every schema `dossier schema <name>` prints is checked.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { allSchemas } from "../../src/commands/schemas/index.js"
import { decodeWith } from "../../src/domain/Decode.js"

/** The kind of JSON value the encoded side of `ast` is, where it is one structure. */
const kindOf = (ast: AST.AST): "an object" | "an array" | null => {
  switch (ast._tag) {
    case "TypeLiteral":
      return "an object"
    case "TupleType":
      return "an array"
    case "Refinement":
    case "Transformation":
      return kindOf(ast.from)
    case "Suspend":
      return kindOf(ast.f())
    default:
      return null
  }
}

const WRONG: ReadonlyArray<[unknown, string]> = [[5, "5"], ["s", "\"s\""], [true, "true"], [null, "null"]]

describe("an input of the wrong kind as a whole", () => {
  const structures = Object.entries(allSchemas()).flatMap(([name, schema]) => {
    const kind = kindOf((schema as Schema.Schema.Any).ast)
    return kind === null ? [] : [[name, schema as Schema.Schema.Any, kind] as const]
  })

  it("covers the input files", () => {
    const names = structures.map(([name]) => name)
    for (
      const name of ["plan-start", "plan-checkpoint", "subscription", "finish-run", "grant-create", "grant-narrow"]
    ) {
      expect(names).toContain(name)
    }
  })

  for (const [name, schema, kind] of structures) {
    it(`${name}: told ${kind}`, () => {
      for (const [value, shown] of WRONG) {
        const result = decodeWith(schema as Schema.Schema<unknown, unknown, never>)(value)
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left.issues).toEqual([{ path: "", message: `Expected ${kind}, actual ${shown}` }])
        }
      }
    })
  }
})
