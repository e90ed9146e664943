/**
 * Plan: the work folder's plan in plan.md (one marked JSON section; the user's prose around it
 * is preserved byte for byte). Composes FileStore and Lock. Layer: `PlanLive` in
 * src/layers/PlanLive.ts (needs FileStore and Lock; no Workdir); `PlanMemory` brings in-memory ones.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type {
  EditedRetainedFile,
  FileNotFound,
  InvalidInput,
  IoError,
  LimitExceeded,
  LockTimeout,
  PathOutsideArea,
  StaleRevision,
  UnsafePath
} from "../domain/Errors.js"
import type { CredentialsInUrl, InvalidUrl, UnsupportedScheme } from "../domain/IngestErrors.js"
import type { PlanCheckpointInput, PlanDocument, PlanInspectOutput, PlanStartInput } from "../domain/Plan.js"
import type {
  CompletionRefused,
  CorruptPlan,
  GoalConflict,
  NoPlan,
  UnregisteredDependency
} from "../domain/PlanErrors.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"

/** `StoreUnavailable` and `LockTimeout` come from a shared store (docs/store.md), never from the folder. */
export type PlanReadError = CorruptPlan | IoError | UnsafePath | LimitExceeded | StoreUnavailable | LockTimeout

export type PlanWriteError =
  | PlanReadError
  | LockTimeout
  | StaleRevision
  | NoPlan
  | GoalConflict
  | CompletionRefused
  | UnregisteredDependency
  | EditedRetainedFile
  | FileNotFound
  | PathOutsideArea
  | InvalidInput
  | InvalidUrl
  | UnsupportedScheme
  | CredentialsInUrl
  | StoreUnavailable

/**
 * Optional arguments, as every service of the library takes them: one trailing object that may be
 * left out, whose fields are plain values that may be left out (never an `Option`); `now`
 * defaults to Effect's Clock. A wrong value (or object) is `InvalidInput`, never a defect.
 */
export interface PlanStartOptions {
  readonly replaceGoal?: boolean | undefined
  /**
   * The revision last seen (needed with `replaceGoal` unless the input has `expectedRevision`).
   * Only with `replaceGoal`: a revision (here or in the input) without it is `InvalidInput`.
   */
  readonly expected?: number | undefined
  readonly now?: Date | undefined
}

export interface PlanCheckpointOptions {
  /** The plan's current revision (or the input's `expectedRevision`). */
  readonly expected?: number | undefined
  readonly now?: Date | undefined
}

export interface PlanShape {
  /** The current plan document, or None when plan.md has no plan section (or no plan.md). */
  readonly read: Effect.Effect<Option.Option<PlanDocument>, PlanReadError>
  /** Everything a newcomer needs to continue, with verification findings. Never writes. */
  readonly inspect: Effect.Effect<PlanInspectOutput, PlanReadError>
  /**
   * Create the plan, or (`replaceGoal` with the revision reconciled: `expected` or the input's
   * `expectedRevision`) replace its goal. `options` may be left out. A revision without
   * `replaceGoal` is `InvalidInput` (never ignored), and so is `replaceGoal` without a revision
   * (at `expected`, whatever is stored). With no plan stored, a revision is
   * `StaleRevision {expected, actual: 0}` and nothing is created.
   */
  readonly start: (
    input: PlanStartInput,
    options?: PlanStartOptions
  ) => Effect.Effect<
    { readonly revision: number; readonly created: boolean; readonly replaced?: boolean },
    PlanWriteError
  >
  /**
   * Record progress, naming the plan's current revision: `options.expected` or the input's
   * `expectedRevision` (both: they must agree); neither is `InvalidInput`.
   */
  readonly checkpoint: (
    input: PlanCheckpointInput,
    options?: PlanCheckpointOptions
  ) => Effect.Effect<{ readonly revision: number }, PlanWriteError>
}

export class Plan extends Context.Tag("dossier/Plan")<Plan, PlanShape>() {}
