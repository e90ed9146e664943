/**
 * The grants part of `dossier status`: `{active}`. Until the grant subsystem lands this counts
 * nothing; it is one function so that the grant subsystem can replace it with its own count.
 */
import * as Effect from "effect/Effect"

export const grantsOverview = (_workdir: string): Effect.Effect<{ readonly active: number }> => Effect.succeed({ active: 0 })
