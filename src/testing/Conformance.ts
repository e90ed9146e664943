/**
 * What the storage ports' conformance suites share: the failure they report and the two ways they
 * compare an answer. A suite states its contract; this module states how a difference is told.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { isDeepStrictEqual } from "node:util"

/** An adapter answered otherwise than the contract says: `what` names the check. */
export class ConformanceMismatch extends Data.TaggedError("ConformanceMismatch")<{
  readonly what: string
  readonly expected: unknown
  readonly actual: unknown
}> {
  override get message() {
    return `${this.what}: expected ${JSON.stringify(this.expected)}, got ${JSON.stringify(this.actual)}`
  }
}

/** Succeeds when `actual` deeply equals `expected`; otherwise a `ConformanceMismatch` naming `what`. */
export const same = (what: string, expected: unknown, actual: unknown): Effect.Effect<void, ConformanceMismatch> =>
  isDeepStrictEqual(expected, actual) ? Effect.void : Effect.fail(new ConformanceMismatch({ what, expected, actual }))

/** Success as `{ok}`, a failure as `{error: tag}` (its fields left out). */
export const outcomeTag = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(
    Effect.either(effect),
    Either.match({ onLeft: (e): unknown => ({ error: e._tag }), onRight: (a): unknown => ({ ok: a }) })
  )

/** Success as `{ok}`, a tagged failure as `{error: tag, …fields}`, anything else as `{error: text}`. */
export const outcomeFields = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(
    Effect.either(effect),
    Either.match({
      onLeft: (e): unknown =>
        typeof e === "object" && e !== null && "_tag" in e ? { error: e._tag, ...e } : { error: String(e) },
      onRight: (a): unknown => ({ ok: a })
    })
  )
