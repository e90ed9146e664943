/**
 * Grants: create, show, list, revoke and narrow the grants of a work folder
 * (`.dossier/grants/`). A grant is stored once, immutable, with a digest re-verified on every
 * load; revocation and narrowing are appended events. `status` is what `exec` and its watchdog
 * consult.
 *
 * Layer: `GrantsLive` (src/layers/GrantsLive.ts), requiring Workdir | FileStore | Lock | WorkTree.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { DossierError } from "../domain/AllErrors.js"
import type { GrantState } from "../domain/ExecErrors.js"
import type { Figures, GrantEvent, StoredGrant } from "../domain/Grant.js"

export interface GrantStatus {
  readonly grant: StoredGrant
  readonly state: GrantState
  /** The soonest deadline of the grant and its ancestors, after narrowing. */
  readonly deadline: string
  /** The grant's budget after narrowing. */
  readonly budget: Figures
  readonly remaining: Figures
  readonly events: ReadonlyArray<GrantEvent>
  readonly children: ReadonlyArray<string>
  /** The grant and its ancestors, nearest first. */
  readonly chain: ReadonlyArray<string>
}

export interface GrantView extends StoredGrant {
  readonly state: GrantState
}

export interface GrantsShape {
  readonly create: (input: unknown, now: Date) => Effect.Effect<{ readonly created: boolean; readonly grant: GrantView }, DossierError>
  readonly show: (id: string, now: Date) => Effect.Effect<GrantStatus, DossierError>
  readonly list: (now: Date) => Effect.Effect<{
    readonly grants: ReadonlyArray<Omit<GrantStatus, "grant" | "events" | "chain"> & { readonly id: string; readonly task: string; readonly parent: string | null }>
    readonly damaged: ReadonlyArray<{ readonly id: string; readonly error: string }>
  }, DossierError>
  readonly revoke: (id: string, reason: string | null, now: Date) => Effect.Effect<{
    readonly grant: GrantStatus
    readonly appended: boolean
    /** The grant and its descendants that this revocation ended (they were not revoked before). */
    readonly revoked: ReadonlyArray<string>
  }, DossierError>
  readonly narrow: (id: string, input: unknown, now: Date) => Effect.Effect<GrantStatus, DossierError>
  /** The status of a grant; fails when it or an ancestor is missing or damaged. */
  readonly status: (id: string, now: Date) => Effect.Effect<GrantStatus, DossierError>
}

export class Grants extends Context.Tag("dossier/Grants")<Grants, GrantsShape>() {}
