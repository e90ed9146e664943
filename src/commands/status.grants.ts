/**
 * The grants part of `dossier status`: `{active}`, the grants that are neither revoked, expired
 * nor exhausted at `now` (damaged records are not counted; `grant list` shows them apart).
 */
import * as Effect from "effect/Effect"
import type { DossierError } from "../domain/AllErrors.js"
import { GrantsLayer } from "../layers/ExecLayer.js"
import { Grants } from "../services/Grants.js"

export const grantsOverview = (workdir: string, now: Date): Effect.Effect<{ readonly active: number }, DossierError> =>
  Effect.flatMap(Grants, (g) => g.list({ now })).pipe(
    Effect.map((r) => ({ active: r.grants.filter((x) => x.state === "active").length })),
    Effect.provide(GrantsLayer(workdir))
  )
