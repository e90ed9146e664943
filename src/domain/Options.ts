/**
 * The library's one convention for arguments (see `PlanStartOptions` in src/services/Plan.ts):
 * what a method cannot do without is positional; everything else is one trailing options object
 * that may be left out (`undefined` or `null`), whose fields are plain values that may be left
 * out (never an `Option`); `now` defaults to Effect's Clock. A wrong value, of any type, is
 * `InvalidInput` naming the argument or field, never a defect: a JavaScript caller is not held
 * by the types. The checks here are what every service method runs on its arguments first.
 */
import * as Either from "effect/Either"
import { checkOptionalNow } from "./Decode.js"
import { InvalidInput } from "./Errors.js"
import { type IdKind, idProblem, isIdOf } from "./Ids.js"

/** A check of one argument or field: its value, or `InvalidInput` at `path`. */
export type Check<A> = (value: unknown, path: string) => Either.Either<A, InvalidInput>

export const invalid = (path: string, message: string): Either.Either<never, InvalidInput> =>
  Either.left(new InvalidInput({ issues: [{ path, message }] }))

/** A required string argument (an id, a URL, a path, an excerpt): non-empty. */
export const text: Check<string> = (value, path) =>
  typeof value === "string" && value.length > 0 ? Either.right(value) : invalid(path, "expected a non-empty string")

/** An id argument of this kind: the id, or `InvalidInput` at `path` with the one message (./Ids.ts). */
export const checkIdOf = (kind: IdKind, value: unknown, path: string): Either.Either<string, InvalidInput> =>
  isIdOf(kind, value) ? Either.right(value) : invalid(path, idProblem(kind, value))

/** Fields of an options object. */
export const optionalText: Check<string | undefined> = (
  value,
  path
) => (value === undefined ? Either.right(undefined) : text(value, path))

export const optionalBoolean: Check<boolean | undefined> = (value, path) =>
  value === undefined || typeof value === "boolean" ? Either.right(value) : invalid(path, "expected true or false")

/** A required whole number from `min` to `max` (a byte limit, a count). */
export const integer = (min: number, max: number = Number.MAX_SAFE_INTEGER): Check<number> => (value, path) =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
    ? Either.right(value as number)
    : invalid(
      path,
      max === Number.MAX_SAFE_INTEGER
        ? `expected a whole number from ${min}`
        : `expected a whole number from ${min} to ${max}`
    )

export const optionalInteger = (min: number, max: number): Check<number | undefined> => (value, path) =>
  value === undefined ? Either.right(undefined) : integer(min, max)(value, path)

/** `now`: a valid Date (years 0000–9999) or left out (the method reads Effect's Clock). */
export const optionalNow: Check<Date | undefined> = (value, path) => checkOptionalNow(value, path)

/** An array of strings (a program and its arguments). */
export const textArray = (min: number): Check<ReadonlyArray<string>> => (value, path) =>
  Array.isArray(value) && value.length >= min && value.every((v) => typeof v === "string")
    ? Either.right(value as ReadonlyArray<string>)
    : invalid(path, min > 0 ? `expected an array of at least ${min} string(s)` : "expected an array of strings")

type Checked<C> = { readonly [K in keyof C]: C[K] extends Check<infer A> ? A : never }

/**
 * The options object itself: left out (`undefined` or `null`) is none (`{}`); an array, a `Date`
 * (where earlier releases took `now` positionally) or anything not an object is `InvalidInput` at
 * `options`, never an object whose fields are silently absent.
 */
export const optionsObject = (options: unknown): Either.Either<Readonly<Record<string, unknown>>, InvalidInput> =>
  options === undefined || options === null
    ? Either.right({})
    : typeof options === "object" && !Array.isArray(options) && !(options instanceof Date)
    ? Either.right(options as Readonly<Record<string, unknown>>)
    : invalid("options", "expected an object of options such as { now } (or none)")

/**
 * The options object of a call, each field checked: left out (or `null`) is no option; anything
 * else that is not an object of options (`optionsObject`) is `InvalidInput` at `options`; every
 * wrong field is an issue (all at once).
 * Fields not named in `checks` are ignored, as in `Plan.start`.
 */
export const readOptions = <C extends Readonly<Record<string, Check<unknown>>>>(
  options: unknown,
  checks: C
): Either.Either<Checked<C>, InvalidInput> => {
  const object = optionsObject(options)
  if (Either.isLeft(object)) return Either.left(object.left)
  const given = object.right
  const out: Record<string, unknown> = {}
  const issues: Array<{ path: string; message: string }> = []
  for (const [key, check] of Object.entries(checks)) {
    const r = check(given[key], key)
    if (Either.isLeft(r)) { for (const issue of r.left.issues) issues.push(issue) }
    else out[key] = r.right
  }
  return issues.length > 0 ? Either.left(new InvalidInput({ issues })) : Either.right(out as Checked<C>)
}

/** Check several positional arguments at once (all issues together). */
export const readArgs = <T extends ReadonlyArray<Either.Either<unknown, InvalidInput>>>(
  ...args: T
): Either.Either<
  { readonly [K in keyof T]: T[K] extends Either.Either<infer A, InvalidInput> ? A : never },
  InvalidInput
> => {
  const issues = args.flatMap((a) => (Either.isLeft(a) ? a.left.issues : []))
  return issues.length > 0
    ? Either.left(new InvalidInput({ issues }))
    : Either.right(args.map((a) => (a as Either.Right<InvalidInput, unknown>).right) as never)
}
