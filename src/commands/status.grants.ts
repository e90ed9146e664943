/**
 * The grants part of `dossier status`: `{active, damaged}`. `active` counts the grants that are
 * neither revoked, expired nor exhausted at `now`; `damaged` lists, as `grant list` does, each
 * grant that has no state because its record (or an ancestor's) cannot be read or verified, with
 * the tag `grant show` answers for it (`{id, error}`), so that a damaged record is never read as
 * "no grant here".
 */
import * as Effect from "effect/Effect"
import type { DossierError } from "../domain/AllErrors.js"
import { Grants } from "../services/Grants.js"

export interface GrantsOverview {
  readonly active: number
  readonly damaged: ReadonlyArray<{ readonly id: string; readonly error: string }>
  /** Execution records that do not decode (`grant list`'s): runs charged to no grant; exec refuses. */
  readonly unreadableExecutions: ReadonlyArray<string>
}

export const grantsOverview = (now: Date): Effect.Effect<GrantsOverview, DossierError, Grants> =>
  Effect.map(Effect.flatMap(Grants, (g) => g.list({ now })), (r) => ({
    active: r.grants.filter((x) => x.state === "active").length,
    damaged: r.damaged,
    unreadableExecutions: r.unreadableExecutions
  }))

/** The human line of `status` for the grants. */
export const grantsLine = (g: GrantsOverview): string =>
  [
    g.damaged.length === 0
      ? `grants: ${g.active} active`
      : `grants: ${g.active} active, ${g.damaged.length} damaged (${
        g.damaged.map((d) => `${d.id}: ${d.error}`).join(", ")
      }; see dossier grant list)`,
    ...g.unreadableExecutions.map((x) =>
      `  execution record ${x} cannot be read (ExecutionDigestMismatch): no run is admitted until it is restored`
    )
  ].join("\n")
