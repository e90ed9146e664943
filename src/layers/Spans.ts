/**
 * Spans for a service's methods: every method of a service's shape becomes an `Effect.fn` named
 * `<Service>.<method>` (`Plan.checkpoint`, `Journal.append`), and an Effect member is run under
 * `Effect.withSpan` of that name — what a tracer shows of a command, with the caller's line
 * in a defect's trace. Applied once where each Live layer builds its service.
 */
import * as Effect from "effect/Effect"

export const spanned = (service: string) => <S extends object>(shape: S): S => {
  const out: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(shape)) {
    const name = `${service}.${key}`
    out[key] = typeof member === "function"
      ? Effect.fn(name)(member as (...args: Array<unknown>) => Effect.Effect<unknown, unknown, unknown>)
      : Effect.isEffect(member)
      ? Effect.withSpan(member, name)
      : member
  }
  return out as S
}
