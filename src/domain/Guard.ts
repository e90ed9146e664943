/**
 * A type guard compiled from a Schema's AST: the same answer as
 * `Schema.is(schema, { onExcessProperty: "error" })`, without the ParseResult machinery (which
 * builds an Either, an output object and issue values for every node it visits).
 *
 * Scans that check every record of the work folder (`next`, `due`, `unresolved-outcomes`) check
 * each one whole with it: `Schema.is` costs about as much a record as reading and hashing it
 * (bench/monitor.ts). The node kinds the stored records are made of
 * (objects, strings, numbers, booleans, literals, unions, arrays, refinements, `unknown`) are
 * compiled here; anything else falls back to `Schema.is` for its subtree, so the answer never
 * changes, only the speed. A property test compares the two on mutated records.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

type Check = (u: unknown) => boolean

const OPTIONS: AST.ParseOptions = { onExcessProperty: "error" }

const fallback = (ast: AST.AST): Check => Schema.is(Schema.make(ast), OPTIONS)

const hasOwn = Object.prototype.hasOwnProperty

const typeLiteral = (ast: AST.TypeLiteral): Check => {
  // Only index signatures over all string keys with values of any kind (a free JSON object) are compiled.
  if (ast.indexSignatures.some((i) => i.parameter._tag !== "StringKeyword" || i.type._tag !== "UnknownKeyword")) return fallback(ast)
  if (ast.propertySignatures.some((p) => typeof p.name !== "string")) return fallback(ast)
  const anyStringKey = ast.indexSignatures.length > 0
  const names = ast.propertySignatures.map((p) => p.name as string)
  const checks = ast.propertySignatures.map((p) => compile(p.type))
  const optional = ast.propertySignatures.map((p) => p.isOptional)
  return (u) => {
    // Schema's TypeLiteral accepts a non-null, non-array object.
    if (typeof u !== "object" || u === null || Array.isArray(u)) return false
    const o = u as Record<string, unknown>
    let present = 0
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      if (hasOwn.call(o, name)) present++
      else if (optional[i]) continue
      // A missing required key is checked as what reading it gives (`undefined`), as Schema does.
      if (!checks[i]!(o[name])) return false
    }
    // No other keys: every own key is one of the names (symbols never are), so the counts agree.
    if (anyStringKey) return Object.getOwnPropertySymbols(o).length === 0
    return Reflect.ownKeys(o).length === present
  }
}

const compile = (ast: AST.AST): Check => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "UnknownKeyword":
    case "AnyKeyword":
      return () => true
    case "UndefinedKeyword":
      return (u) => u === undefined
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Union": {
      const members = ast.types.map(compile)
      return (u) => {
        for (const m of members) if (m(u)) return true
        return false
      }
    }
    case "Refinement": {
      const from = compile(ast.from)
      return (u) => from(u) && Option.isNone(ast.filter(u, OPTIONS, ast))
    }
    case "TupleType": {
      if (ast.elements.length > 0 || ast.rest.length !== 1) return fallback(ast)
      const item = compile(ast.rest[0]!.type)
      return (u) => {
        if (!Array.isArray(u)) return false
        for (let i = 0; i < u.length; i++) if (!item(u[i])) return false
        return true
      }
    }
    case "TypeLiteral":
      return typeLiteral(ast)
    default:
      return fallback(ast)
  }
}

/** `Schema.is(schema, { onExcessProperty: "error" })`, compiled (see the module comment). */
export const compileGuard = <A, I>(schema: Schema.Schema<A, I, never>): (u: unknown) => u is A => {
  const check = compile(schema.ast)
  return (u: unknown): u is A => check(u)
}
