/**
 * A type guard compiled from a Schema's AST: the same answer as
 * `Schema.is(schema, { onExcessProperty: "error" })` on every value without symbol keys (JSON.parse
 * and structuredClone never make one; a symbol-keyed property is not looked at, where Schema would
 * call it excess), without the ParseResult machinery (which builds an Either, an output object and
 * issue values for every node it visits).
 *
 * Scans that check every record of the work folder (`next`, `due`, `unresolved-outcomes`) check
 * each one whole with it (bench/monitor.ts). The node kinds the stored records are made of
 * (objects, string-keyed records, strings, numbers, booleans, literals, unions, arrays,
 * refinements, `unknown`) are compiled here; anything else falls back to `Schema.is` for its
 * subtree, so the answer never changes, only the speed. Property tests compare the two on
 * mutated records (test/monitor/guard.test.ts) and events (test/journal/validate.test.ts).
 *
 * How it stays cheap:
 * - an object's keys are walked once with `for…in` (V8 serves it from the object's enum cache)
 *   and each is dispatched to its property's check; `Reflect.ownKeys`, which the excess check
 *   would naturally use, costs about ten times an `Object.keys` on a small object;
 * - a union of objects told apart by a literal field (`type`, `status`) dispatches on that
 *   field's value through a Map, so only the member it names is checked;
 * - a refinement runs the filter Schema built (`ast.filter`): for a valid value the predicate's
 *   `true` becomes `Option.none()`, a shared constant, so nothing is allocated.
 * The journal's replay still uses its hand-written check (src/domain/JournalRules.ts says why).
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"

type Check = (u: unknown) => boolean

const OPTIONS: AST.ParseOptions = { onExcessProperty: "error" }

/** `Schema.is` for a subtree, built at its first use (most never are: building one walks the AST). */
const fallback = (ast: AST.AST): Check => {
  let is: Check | undefined
  return (u) => (is ??= Schema.is(Schema.make(ast), OPTIONS))(u)
}

const hasOwn = Object.prototype.hasOwnProperty

/** Schema's TypeLiteral accepts a non-null object that is not an array. */
const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const typeLiteral = (ast: AST.TypeLiteral): Check => {
  // Index signatures over all string keys are compiled (free JSON objects, string-keyed records).
  if (ast.indexSignatures.length > 1 || ast.indexSignatures.some((i) => i.parameter._tag !== "StringKeyword")) {
    return fallback(ast)
  }
  if (ast.propertySignatures.some((p) => typeof p.name !== "string")) return fallback(ast)
  const index = ast.indexSignatures[0]
  // Schema checks the value of every enumerable own string key against the index signature.
  const value: Check | undefined = index === undefined || index.type._tag === "UnknownKeyword"
    ? undefined
    : compile(index.type)
  const names = ast.propertySignatures.map((p) => p.name as string)
  const checks = ast.propertySignatures.map((p) => compile(p.type))
  const isRequired = ast.propertySignatures.map((p) => !p.isOptional)
  const required = isRequired.filter(Boolean).length
  const position = new Map(names.map((n, i) => [n, i]))
  const reference = fallback(ast)
  /** The required keys the walk did not meet, checked as what reading them gives (`undefined`), as Schema does. */
  const missing = (u: Record<string, unknown>): boolean => {
    for (let i = 0; i < names.length; i++) {
      if (isRequired[i] && !hasOwn.call(u, names[i]!) && !checks[i]!(u[names[i]!])) return false
    }
    return true
  }
  // One walk over the enumerable own keys (V8 reads them from the object's enum cache), each
  // dispatched to its property's check; an own key the walk does not meet (non-enumerable) is
  // rare and judged by Schema. Symbol keys are not looked at: see compileGuard. A key that is no
  // property is excess, unless there is an index signature (whose check every key's value meets).
  const excessAllowed = index !== undefined
  return (u) => {
    if (!isObject(u)) return false
    let met = 0
    let metRequired = 0
    for (const k in u) {
      if (!hasOwn.call(u, k)) continue
      met++
      if (value !== undefined && !value(u[k])) return false
      const i = position.get(k)
      if (i === undefined) {
        if (excessAllowed) continue
        return false
      }
      if (!checks[i]!(u[k])) return false
      if (isRequired[i]) metRequired++
    }
    if (Object.getOwnPropertyNames(u).length !== met) return reference(u)
    return metRequired === required || missing(u)
  }
}

/** The literal values a property's type admits, if it is a literal or a union of literals. */
const literalsOf = (ast: AST.AST): ReadonlyArray<AST.LiteralValue> | undefined => {
  if (ast._tag === "Literal") return [ast.literal]
  if (ast._tag === "Union" && ast.types.every((t) => t._tag === "Literal")) {
    return ast.types.map((t) => (t as AST.Literal).literal)
  }
  return undefined
}

/**
 * A union of objects told apart by a required literal field that every member has: check only
 * the members whose literal is the value's (Schema's answer, since every other member refuses
 * that value of the field). Undefined when the union is not of that form.
 */
const discriminated = (ast: AST.Union): Check | undefined => {
  const members = ast.types
  if (members.length < 2 || !members.every((m) => m._tag === "TypeLiteral")) return undefined
  const literalField = (m: AST.TypeLiteral, name: string) => {
    const p = m.propertySignatures.find((s) => s.name === name)
    return p === undefined || p.isOptional ? undefined : literalsOf(p.type)
  }
  for (const candidate of (members[0] as AST.TypeLiteral).propertySignatures) {
    const name = candidate.name
    if (typeof name !== "string") continue
    const byValue = new Map<unknown, Array<Check>>()
    const fits = members.every((m) => {
      const literals = literalField(m as AST.TypeLiteral, name)
      if (literals === undefined || literals.some((l) => typeof l === "number" && Number.isNaN(l))) return false
      const check = compile(m)
      for (const l of literals) {
        const list = byValue.get(l)
        if (list === undefined) byValue.set(l, [check])
        else list.push(check)
      }
      return true
    })
    if (!fits) continue
    return (u) => {
      if (!isObject(u)) return false
      const list = byValue.get(u[name])
      if (list === undefined) return false
      for (const m of list) if (m(u)) return true
      return false
    }
  }
  return undefined
}

const union = (ast: AST.Union): Check => {
  const literals = literalsOf(ast)
  if (literals !== undefined && !literals.some((l) => typeof l === "number" && Number.isNaN(l))) {
    const set = new Set<unknown>(literals)
    return (u) => set.has(u)
  }
  const dispatch = discriminated(ast)
  if (dispatch !== undefined) return dispatch
  const members = ast.types.map(compile)
  return (u) => {
    for (const m of members) if (m(u)) return true
    return false
  }
}

/** Whether every value the AST admits is a primitive (so a refinement's filter sees the input itself). */
const primitive = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UndefinedKeyword":
    case "Literal":
      return true
    case "Refinement":
      return primitive(ast.from)
    case "Union":
      return ast.types.every(primitive)
    default:
      return false
  }
}

/** Does any object inside `u` hold an own `__proto__` key (JSON.parse makes one from text)? Iterative. */
const hasProtoKey = (u: unknown): boolean => {
  const stack: Array<unknown> = [u]
  while (stack.length > 0) {
    const v = stack.pop()
    if (v === null || typeof v !== "object") continue
    if (Array.isArray(v)) {
      for (const c of v) if (c !== null && typeof c === "object") stack.push(c)
      continue
    }
    if (hasOwn.call(v, "__proto__")) return true
    for (const k of Object.keys(v)) {
      const c = (v as Record<string, unknown>)[k]
      if (c !== null && typeof c === "object") stack.push(c)
    }
  }
  return false
}

const refinement = (ast: AST.Refinement): Check => {
  const from = compile(ast.from)
  const passes = (u: unknown) => Option.isNone(ast.filter(u, OPTIONS, ast))
  if (primitive(ast.from)) return (u) => from(u) && passes(u)
  // Schema runs the filter of a structured value on the copy it rebuilt, where an own
  // `__proto__` key is lost (assigning it sets the prototype): a value holding one is judged by
  // Schema itself (rare: dossier's free-form filters refuse such keys).
  const reference = fallback(ast)
  return (u) => (hasProtoKey(u) ? reference(u) : from(u) && passes(u))
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
    case "Union":
      return union(ast)
    case "Refinement":
      return refinement(ast)
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
  // Compiled at the first call: modules make their guards at load, and a run uses few of them.
  let check: Check | undefined
  return (u: unknown): u is A => (check ??= compile(schema.ast))(u)
}
