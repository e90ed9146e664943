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
import type {
  PlanCheckpointInput,
  PlanDocument,
  PlanInspectOutput,
  PlanStartInput
} from "../domain/Plan.js"
import type { CompletionRefused, CorruptPlan, GoalConflict, NoPlan, UnregisteredDependency } from "../domain/PlanErrors.js"

export type PlanReadError = CorruptPlan | IoError | UnsafePath | LimitExceeded

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

export interface PlanShape {
  /** The current plan document, or None when plan.md has no plan section (or no plan.md). */
  readonly read: Effect.Effect<Option.Option<PlanDocument>, PlanReadError>
  /** Everything a newcomer needs to continue, with verification findings. Never writes. */
  readonly inspect: Effect.Effect<PlanInspectOutput, PlanReadError>
  readonly start: (
    input: PlanStartInput,
    options: { readonly replaceGoal: boolean; readonly expected: Option.Option<number>; readonly now?: Date }
  ) => Effect.Effect<{ readonly revision: number; readonly created: boolean; readonly replaced?: boolean }, PlanWriteError>
  readonly checkpoint: (
    input: PlanCheckpointInput,
    options: { readonly expected: number; readonly now?: Date }
  ) => Effect.Effect<{ readonly revision: number }, PlanWriteError>
}

export class Plan extends Context.Tag("dossier/Plan")<Plan, PlanShape>() {}
