/**
 * Grants: create, show, list, revoke and narrow the grants of a work folder
 * (`.dossier/grants/`). A grant is stored once, immutable, with a digest re-verified on every
 * load; revocation and narrowing are appended events. `status` is what `exec` and its watchdog
 * consult.
 *
 * Layer: `GrantsLive` (src/layers/GrantsLive.ts), over the GrantStore and ExecutionStore ports,
 * requiring GrantStore | ExecutionStore | ExecFiles | Lock | WorkTree | EvidenceKey; `GrantsFolder`
 * (src/layers/ExecLayer.ts) provides the folder adapters and ExecFiles.
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
  /** What is left: the budget less what the readable runs spent (see `GrantShown`). */
  readonly remaining: Figures
  readonly events: ReadonlyArray<GrantEvent>
  readonly children: ReadonlyArray<string>
  /** The grant and its ancestors, nearest first. */
  readonly chain: ReadonlyArray<string>
}

/** What `show` answers: the status, and the execution records that keep what is left unknown. */
export interface GrantShown extends GrantStatus {
  /**
   * Execution records that do not decode, of any grant (whose run each was cannot be told): while
   * there is one, `remaining` leaves out what its run spent, so what is left is not known, and
   * exec and child grants refuse (`ExecutionDigestMismatch`).
   */
  readonly unreadableExecutions: ReadonlyArray<string>
}

export interface GrantView extends StoredGrant {
  readonly state: GrantState
}

/** The time to judge states and deadlines by (default: Effect's Clock); see src/domain/Options.ts. */
export interface GrantsOptions {
  readonly now?: Date | undefined
}

export interface GrantRevokeOptions extends GrantsOptions {
  /** Why (kept in the grant's events). */
  readonly reason?: string | undefined
}

/**
 * Every method takes its required arguments first and one options object that may be left out;
 * a wrong argument (of any type) is `InvalidInput`, never a defect.
 */
export interface GrantsShape {
  readonly create: (
    input: unknown,
    options?: GrantsOptions
  ) => Effect.Effect<{ readonly created: boolean; readonly grant: GrantView }, DossierError>
  readonly show: (id: string, options?: GrantsOptions) => Effect.Effect<GrantShown, DossierError>
  readonly list: (options?: GrantsOptions) => Effect.Effect<{
    readonly grants: ReadonlyArray<
      Omit<GrantStatus, "grant" | "events" | "chain"> & {
        readonly id: string
        readonly task: string
        readonly parent: string | null
      }
    >
    readonly damaged: ReadonlyArray<{ readonly id: string; readonly error: string }>
    /** Execution records that do not decode: runs charged to no grant (`remaining` overstates; exec refuses). */
    readonly unreadableExecutions: ReadonlyArray<string>
  }, DossierError>
  readonly revoke: (id: string, options?: GrantRevokeOptions) => Effect.Effect<{
    readonly grant: GrantStatus
    readonly appended: boolean
    /** The grant and its descendants that this revocation ended (they were not revoked before). */
    readonly revoked: ReadonlyArray<string>
  }, DossierError>
  readonly narrow: (id: string, input: unknown, options?: GrantsOptions) => Effect.Effect<GrantStatus, DossierError>
  /**
   * The status of a grant, as exec asks it before admitting a run; fails when it or an ancestor
   * is missing or damaged, and with `ExecutionDigestMismatch` when a run's record does not decode
   * (what that run spent is charged to no grant, so no budget left is known).
   */
  readonly status: (id: string, options?: GrantsOptions) => Effect.Effect<GrantStatus, DossierError>
}

export class Grants extends Context.Tag("dossier/Grants")<Grants, GrantsShape>() {}
