/**
 * `Plan` of the public surface: the work folder's plan in plan.md (spec plan-and-ingest.md).
 * `Plan` is the service tag; `PlanLive` needs a FileStore and a Lock (`Files.BaseLive(dir)` or
 * `Files.BaseMemory`); `PlanMemory` brings its own in-memory store and lock.
 */
export { Plan, type PlanReadError, type PlanShape, type PlanWriteError } from "../services/Plan.js"
export { PlanLive } from "../layers/PlanLive.js"
export { PlanMemory } from "../layers/PlanMemory.js"
export {
  Completion,
  CompletedStep,
  Dependency,
  Finding,
  FindingKind,
  PlanCheckpointInput,
  PlanCheckpointOutput,
  PlanDocument,
  PlanInspectOutput,
  PlanStartInput,
  PlanStartOutput,
  PlanStatus,
  RegisteredOutput,
  RegisteredSource,
  Unresolved,
  Verification,
  PLAN_FILE,
  PLAN_LIMITS,
  RESULTS_AREA,
  SOURCES_AREA
} from "../domain/Plan.js"
export { CompletionRefused, CorruptPlan, GoalConflict, NoPlan, PlanErrors, UnregisteredDependency, type PlanError } from "../domain/PlanErrors.js"
