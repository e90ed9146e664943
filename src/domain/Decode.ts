/** Decoding untrusted JSON with a Schema into `InvalidInput {issues: [{path, message}]}`. */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { InvalidInput } from "./Errors.js"

const toIssues = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message
  }))

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
