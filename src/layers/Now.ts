/**
 * `now` is optional in every service method that depends on the time: a method given no `now`
 * reads Effect's `Clock` (so `TestClock` moves it) when its effect runs (`dateOr`).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

/** The current time on Effect's clock, as a Date. */
export const currentDate: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** `now` when given, else the clock's time. */
export const dateOr = (
  now: Date | undefined
): Effect.Effect<Date> => (now === undefined ? currentDate : Effect.succeed(now))
