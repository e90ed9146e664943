/**
 * The grants part of `dossier status`: `{active}`, the grants that are neither revoked, expired
 * nor exhausted at `now` (damaged records are not counted; `grant list` shows them apart).
 */
import * as Effect from "effect/Effect"
import type { DossierError } from "../domain/AllErrors.js"
import { Grants } from "../services/Grants.js"

export const grantsOverview = (now: Date): Effect.Effect<{ readonly active: number }, DossierError, Grants> =>
  Effect.map(Effect.flatMap(Grants, (g) => g.list({ now })), (r) => ({
    active: r.grants.filter((x) => x.state === "active").length
  }))
