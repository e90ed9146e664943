/**
 * `now` is optional in every service method that depends on the time: a method given no `now`
 * reads Effect's `Clock` (so `TestClock` moves it) when its effect runs. The layers write their
 * methods with `now` given (`NowGiven`) and publish them through `nowOptional`.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

/** The current time on Effect's clock, as a Date. */
export const currentDate: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** `now` when given, else the clock's time. */
export const dateOr = (
  now: Date | undefined
): Effect.Effect<Date> => (now === undefined ? currentDate : Effect.succeed(now))

/** The method type with its trailing `now?: Date` made required. */
export type NowGiven<F> = F extends (now?: Date) => infer R ? (now: Date) => R
  : F extends (input: infer I, now?: Date) => infer R ? (input: I, now: Date) => R
  : never

/** `(input, now?)` from `(input, now)`. */
export const nowOptional =
  <I, A, E>(f: (input: I, now: Date) => Effect.Effect<A, E>) => (input: I, now?: Date): Effect.Effect<A, E> =>
    Effect.flatMap(dateOr(now), (date) => f(input, date))

/** `(now?)` from `(now)`. */
export const nowOptional0 = <A, E>(f: (now: Date) => Effect.Effect<A, E>) => (now?: Date): Effect.Effect<A, E> =>
  Effect.flatMap(dateOr(now), f)
