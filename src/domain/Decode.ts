/** Decoding untrusted JSON with a Schema into `InvalidInput {issues: [{path, message}]}`. */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { InvalidInput } from "./Errors.js"

const UNDEFINED_ALTERNATIVE = /^Expected undefined, actual /

/**
 * One issue per problem. An optional field whose value is wrong fails both of its alternatives,
 * the value's Schema and `undefined`; JSON has no `undefined`, so the second says nothing and is
 * left out whenever the field (or a field inside it) has another issue.
 */
const toIssues = (error: ParseResult.ParseError) => {
  const all = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message
  }))
  const within = (path: string, inner: string) => inner === path || inner.startsWith(`${path}.`)
  return all.filter((issue) =>
    !UNDEFINED_ALTERNATIVE.test(issue.message) ||
    !all.some((other) => other !== issue && within(issue.path, other.path) && !UNDEFINED_ALTERNATIVE.test(other.message))
  )
}

/** Decode `value` (already parsed JSON) with `schema`; excess properties are refused. */
export const decodeWith = <A, I>(schema: Schema.Schema<A, I, never>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
  return (value: unknown): Either.Either<A, InvalidInput> =>
    Either.mapLeft(decode(value), (e) => new InvalidInput({ issues: toIssues(e) }))
}

/** Parse JSON text; a syntax error is `InvalidInput` at the root. */
export const parseJson = (text: string): Either.Either<unknown, InvalidInput> =>
  Either.try({
    try: () => JSON.parse(text) as unknown,
    catch: (e) => new InvalidInput({ issues: [{ path: "", message: `not valid JSON: ${(e as Error).message}` }] })
  })
