/** Decoding untrusted JSON with a Schema into `InvalidInput {issues: [{path, message}]}`. */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { isUtf8 } from "node:buffer"
import { duplicateKey } from "./DuplicateKeys.js"
import { InvalidInput, type Issue } from "./Errors.js"
import { inInstantRange } from "./Instant.js"

const UNDEFINED_ALTERNATIVE = /^Expected undefined, actual /
const NULL_ALTERNATIVE = /^Expected null, actual /

/**
 * One issue per problem. An optional field whose value is wrong fails both of its alternatives,
 * the value's Schema and `undefined`; JSON has no `undefined`, so the second says nothing and is
 * left out whenever the field (or a field inside it) has another issue.
 */
const toIssues = (error: ParseResult.ParseError) => {
  const structures = new Map<string, string>()
  structureNames(error.issue, structures)
  const all = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: plainExpected(issue.message, structures)
  }))
  const within = (path: string, inner: string) => inner === path || inner.startsWith(`${path}.`)
  // A value of the right type that failed inside or a refinement (an object with a bad field, a
  // number out of range): the `null` alternative of its NullOr is noise.
  const deeper = (path: string, other: { readonly path: string; readonly message: string }) =>
    (path === "" ? other.path !== "" : other.path.startsWith(`${path}.`)) ||
    (other.path === path && !other.message.startsWith("Expected "))
  return literalAlternatives(all.filter((issue) =>
    (!UNDEFINED_ALTERNATIVE.test(issue.message) ||
      !all.some((other) =>
        other !== issue && within(issue.path, other.path) && !UNDEFINED_ALTERNATIVE.test(other.message)
      )) &&
    (!NULL_ALTERNATIVE.test(issue.message) || !all.some((other) => other !== issue && deeper(issue.path, other)))
  ))
}

/**
 * The names a wrong-kind issue gives a structure, by the kind of value it is: Schema words a value
 * that is not an object as `Expected <the struct's name>, actual 5`, and that name is its
 * identifier (`plan-start`, `NarrowInput`) or the title Effect gives a struct's encoded side
 * (`Struct (Encoded side)`), which names nothing a user wrote.
 */
const structureNames = (issue: ParseResult.ParseIssue, into: Map<string, string>): void => {
  switch (issue._tag) {
    case "Type":
      // The structure itself, or the alternatives of a union (`NullOr(struct)`) it failed as a whole.
      for (const ast of issue.ast._tag === "Union" ? issue.ast.types : [issue.ast]) {
        if (ast._tag === "TypeLiteral") into.set(String(ast), "an object")
        else if (ast._tag === "TupleType") into.set(String(ast), "an array")
      }
      return
    case "Pointer":
    case "Refinement":
    case "Transformation":
      return structureNames(issue.issue, into)
    case "Composite":
      for (const inner of Array.isArray(issue.issues) ? issue.issues : [issue.issues]) structureNames(inner, into)
      return
    default:
      return
  }
}

/** `Expected <type>, actual <value>`, as ParseResult words a value of the wrong type. */
const TYPE_MESSAGE = /^Expected (.*?), actual (.*)$/s

/**
 * A value of the wrong kind where a structure belongs (`[]` for an object, `5` for a list) is told
 * what kind was expected — `Expected an object, actual []` — not the whole structure as Schema
 * prints it (`Expected { readonly id: …; readonly title: …; … }, actual []`, hundreds of
 * characters): its fields have their own issues once it is an object. Other messages are kept.
 */
const plainExpected = (message: string, structures: ReadonlyMap<string, string>): string => {
  const m = TYPE_MESSAGE.exec(message)
  if (m === null) return message
  const type = m[1]!
  // The type's top-level alternatives (`{ … } | null`); brackets that do not balance: kept as is.
  const members: Array<string> = []
  let depth = 0
  let start = 0
  for (let i = 0; i < type.length; i++) {
    const c = type[i]
    if (c === "{" || c === "[" || c === "<" || c === "(") depth++
    else if (c === "}" || c === "]" || c === ">" || c === ")") depth--
    else if (depth === 0 && type.startsWith(" | ", i)) {
      members.push(type.slice(start, i))
      start = i + 3
    }
    if (depth < 0) return message
  }
  if (depth !== 0) return message
  members.push(type.slice(start))
  const kindOf = (t: string) =>
    structures.get(t) ??
      (t === "{}" || t.startsWith("{ readonly ")
        ? "an object"
        : t.startsWith("ReadonlyArray<") || t.startsWith("readonly [")
        ? "an array"
        : t)
  const kinds = members.map(kindOf)
  return kinds.every((k, i) => k === members[i]) ? message : `Expected ${kinds.join(" or ")}, actual ${m[2]!}`
}

/** `Expected "active", actual "bogus"`: one alternative of a union of literals. */
const LITERAL_ALTERNATIVE = /^Expected ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null), actual (.*)$/s

/**
 * A value outside a union of literals (`active | paused | completed`) fails each literal: one issue
 * at that path naming them all (`Expected "active" | "paused" | "completed", actual "bogus"`),
 * not one per literal.
 */
const literalAlternatives = (
  issues: ReadonlyArray<{ readonly path: string; readonly message: string }>
): Array<{ readonly path: string; readonly message: string }> => {
  const out: Array<{ path: string; message: string }> = []
  const merged = new Map<
    string,
    { readonly issue: { path: string; message: string }; readonly expected: Array<string> }
  >()
  for (const issue of issues) {
    const m = LITERAL_ALTERNATIVE.exec(issue.message)
    if (m === null) {
      out.push({ ...issue })
      continue
    }
    const key = `${issue.path}\u0000${m[2]}`
    const seen = merged.get(key)
    if (seen === undefined) {
      const first = { ...issue }
      merged.set(key, { issue: first, expected: [m[1]!] })
      out.push(first)
    } else {
      seen.expected.push(m[1]!)
      seen.issue.message = `Expected ${seen.expected.join(" | ")}, actual ${m[2]}`
    }
  }
  return out
}

/**
 * How deeply any JSON document dossier reads (an input file, a record, a journal line, the plan
 * section, a gate state) may nest: objects and arrays, the outermost one counting 1.
 */
export const MAX_DOCUMENT_DEPTH = 128
/** How deeply a free-form field (`params`, `scope`, keys of a gate state dossier does not own) may nest. */
export const MAX_FREE_DEPTH = 64

/** A UTF-16 surrogate without its pair: not Unicode text, and no canonical JSON (RFC 8785) can hold it. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
export const loneSurrogate = "a lone surrogate (\\ud800-\\udfff without its pair) is not text"
/** JSON.parse reads `1e400` as Infinity, which no JSON (and no canonical JSON) can write back. */
const notFinite = "a number beyond the range of a double (such as 1e400) has no JSON form; write it as a string"
/** A leaf that is not plain JSON data: a lone-surrogate string or a non-finite number. */
const leafProblem = (c: unknown): string | null =>
  typeof c === "string" ?
    (LONE_SURROGATE.test(c) ? loneSurrogate : null)
    : typeof c === "number" && !Number.isFinite(c) ?
    notFinite
    : null

/**
 * The first reason `value` is not plain JSON data dossier accepts, or null: nested deeper than
 * `maxDepth`, an object with an own `__proto__` key (JavaScript objects cannot keep it as
 * data: it would silently vanish, so it is refused), a string or key holding a lone
 * surrogate, or a number that is not finite (every input may end up in canonical JSON, which
 * can hold neither; JSON.parse reads `1e400` as Infinity). Iterative, so a
 * value nested millions of levels deep (or a cycle) is answered, not a stack overflow; the path
 * names the offending value.
 */
export const jsonProblem = (value: unknown, maxDepth: number): JsonProblem | null => {
  if (value === null || typeof value !== "object") {
    const message = leafProblem(value)
    return message === null ? null : { path: [], message }
  }
  interface Node {
    readonly v: object
    readonly depth: number
    readonly key: string
    readonly parent: Node | undefined
  }
  const pathOf = (node: Node | undefined, last?: string): Array<string> => {
    const out: Array<string> = last === undefined ? [] : [last]
    for (let n = node; n !== undefined && n.parent !== undefined; n = n.parent) out.push(n.key)
    return out.reverse()
  }
  const stack: Array<Node> = [{ v: value, depth: 1, key: "", parent: undefined }]
  while (stack.length > 0) {
    const node = stack.pop()!
    const { depth, v } = node
    if (depth > maxDepth) return { path: pathOf(node), message: `nested more than ${maxDepth} levels deep` }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const c: unknown = v[i]
        if (c !== null && typeof c !== "object") {
          const message = leafProblem(c)
          if (message !== null) return { path: pathOf(node, String(i)), message }
          continue
        }
        if (c !== null) stack.push({ v: c, depth: depth + 1, key: String(i), parent: node })
      }
      continue
    }
    const keys = Object.keys(v)
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!
      if (k === "__proto__") return { path: pathOf(node, k), message: "the key '__proto__' is not accepted" }
      if (LONE_SURROGATE.test(k)) return { path: pathOf(node, k), message: loneSurrogate }
      const c: unknown = (v as Record<string, unknown>)[k]
      if (c !== null && typeof c !== "object") {
        const message = leafProblem(c)
        if (message !== null) return { path: pathOf(node, k), message }
        continue
      }
      if (c !== null) stack.push({ v: c, depth: depth + 1, key: k, parent: node })
    }
  }
  return null
}

export interface JsonProblem {
  readonly path: ReadonlyArray<string>
  readonly message: string
}

/** A `jsonProblem` as an input issue (dotted path). */
export const issueOf = (problem: JsonProblem): Issue => ({ path: problem.path.join("."), message: problem.message })

/** A free-form JSON value (keys of a gate state dossier does not own): nested at most `MAX_FREE_DEPTH` levels. */
export const FreeJson = Schema.Unknown.pipe(
  Schema.filter((v) => jsonProblem(v, MAX_FREE_DEPTH) ?? true, {
    description: `any JSON value nested at most ${MAX_FREE_DEPTH} levels deep`
  })
)

/**
 * A free-form JSON object (`params`, `scope`): any keys and values, nested at most
 * `MAX_FREE_DEPTH` levels, no `__proto__` key.
 */
export const FreeJsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter((o) => {
    const problem = jsonProblem(o, MAX_FREE_DEPTH)
    return problem ?? true
  }, { description: `a JSON object nested at most ${MAX_FREE_DEPTH} levels deep` })
)

/**
 * Decode `value` (parsed JSON, or a library caller's argument) with `schema`; excess properties
 * are refused. The value is first checked to be plain data (`jsonProblem`), so nothing
 * recursive (the issue formatter, canonical JSON, JSON.stringify) meets an unbounded depth.
 */
export const decodeWith = <A, I>(schema: Schema.Schema<A, I, never>) => {
  // Schema compiles the whole parser when asked for it; most decoders a module makes at load are
  // never called in a given run (a CLI process runs one command), so it is compiled at the first call.
  let decode: ((u: unknown) => Either.Either<A, ParseResult.ParseError>) | undefined
  return (value: unknown): Either.Either<A, InvalidInput> => {
    const problem = jsonProblem(value, MAX_DOCUMENT_DEPTH)
    if (problem !== null) return Either.left(new InvalidInput({ issues: [issueOf(problem)] }))
    decode ??= Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
    return Either.mapLeft(decode(value), (e) => new InvalidInput({ issues: toIssues(e) }))
  }
}

/**
 * Why a stored record failed its decode, for a corrupt-record error's `reason`: the first issue with
 * the field it names (`revision: is missing`, not `is missing`, which reads as a missing file), or
 * `fallback` when there is no issue.
 */
export const firstIssueReason = (invalid: InvalidInput, fallback: string): string => {
  const first = invalid.issues[0]
  return first === undefined ? fallback : `${first.path || "(root)"}: ${first.message}`
}

/** Check an already-decoded value against `schema`'s type side (service arguments): `InvalidInput`. */
export const validateWith = <A, I>(schema: Schema.Schema<A, I, never>) => {
  // Compiled at the first call, as `decodeWith`'s parser.
  let validate: ((u: unknown) => Either.Either<A, ParseResult.ParseError>) | undefined
  return (value: unknown): Either.Either<A, InvalidInput> => {
    const problem = jsonProblem(value, MAX_DOCUMENT_DEPTH)
    if (problem !== null) return Either.left(new InvalidInput({ issues: [issueOf(problem)] }))
    validate ??= Schema.validateEither(schema, { errors: "all", onExcessProperty: "error" })
    return Either.mapLeft(validate(value), (e) => new InvalidInput({ issues: toIssues(e) }))
  }
}

/** Parse JSON text; a syntax error is `InvalidInput` at the root. */
export const parseJson = (text: string): Either.Either<unknown, InvalidInput> =>
  Either.try({
    try: () => JSON.parse(text) as unknown,
    catch: (e) => new InvalidInput({ issues: [{ path: "", message: `not valid JSON: ${(e as Error).message}` }] })
  })

/**
 * Parse the JSON text of an input the user wrote (an `--input` file, standard input, a legacy
 * manifest): `parseJson`, and a key given twice in one object is `InvalidInput` at its path
 * rather than the last one silently winning (./DuplicateKeys.ts).
 */
export const parseInputJson = (text: string): Either.Either<unknown, InvalidInput> =>
  Either.flatMap(parseJson(text), (value) => {
    const duplicate = duplicateKey(text)
    return duplicate === null ? Either.right(value) : Either.left(new InvalidInput({ issues: [duplicate] }))
  })

/** The offset of the first byte that does not start or continue a UTF-8 sequence (-1: none). */
export const firstNonUtf8 = (bytes: Uint8Array): number => {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!
    if (lead < 0x80) {
      i++
      continue
    }
    const more = lead >= 0xc2 && lead <= 0xdf
      ? 1
      : lead >= 0xe0 && lead <= 0xef
      ? 2
      : lead >= 0xf0 && lead <= 0xf4
      ? 3
      : 0
    if (more === 0 || i + more >= bytes.length) return i
    let code = lead & (0x3f >> more)
    for (let k = 1; k <= more; k++) {
      const next = bytes[i + k]!
      if ((next & 0xc0) !== 0x80) return i
      code = (code << 6) | (next & 0x3f)
    }
    const least = more === 1 ? 0x80 : more === 2 ? 0x800 : 0x10000
    if (code < least || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i
    i += more + 1
  }
  return -1
}

/**
 * The text of a JSON file dossier is given (an `--input` file, standard input, a gate state,
 * research output, context or descriptor): UTF-8, as RFC 8259 requires, a leading byte-order
 * mark dropped. Bytes that are not UTF-8 are `InvalidInput` naming the first one's offset, never
 * replaced by U+FFFD (which would store text the file did not hold).
 */
export const jsonText = (bytes: Uint8Array): Either.Either<string, InvalidInput> => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf
  if (isUtf8(buffer)) return Either.right(buffer.toString("utf8", bom ? 3 : 0))
  const at = Math.max(0, firstNonUtf8(buffer))
  const byte = (buffer[at] ?? 0).toString(16).padStart(2, "0")
  return Either.left(
    new InvalidInput({
      issues: [{
        path: "",
        message: `not UTF-8 text: the byte at offset ${at} (0x${byte}) is not valid UTF-8; save the file as UTF-8`
      }]
    })
  )
}

/**
 * `parseInputJson` of a file's bytes: `jsonText`, then JSON whose keys are unique in each object
 * (I-JSON, RFC 7493, which RFC 8785 builds on).
 */
export const parseJsonBytes = (bytes: Uint8Array): Either.Either<unknown, InvalidInput> =>
  Either.flatMap(jsonText(bytes), parseInputJson)

/** A service's `now`: a valid Date within years 0000–9999 (`new Date(NaN)` is `InvalidInput`, never a crash). */
export const checkNow = (now: unknown, path = "now"): Either.Either<Date, InvalidInput> =>
  now instanceof Date && inInstantRange(now.getTime())
    ? Either.right(now)
    : Either.left(new InvalidInput({ issues: [{ path, message: "expected a valid date within years 0000-9999" }] }))

/** `checkNow` where `now` may be left out (the method then reads Effect's Clock). */
export const checkOptionalNow = (now: unknown, path = "now"): Either.Either<Date | undefined, InvalidInput> =>
  now === undefined ? Either.right(undefined) : checkNow(now, path)
