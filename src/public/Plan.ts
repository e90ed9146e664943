/**
 * `Plan` of the public surface: the work folder's plan in plan.md (spec plan-and-ingest.md).
 * `Plan` is the service tag. `PlanLive` is the plan's logic over a `PlanStore` (the storage
 * port) and a Lock; `PlanFolder` is it over plan.md (needs a FileStore and a Lock:
 * `Files.BaseLive(dir)` or `Files.BaseMemory`); `PlanMemory` keeps the plan in memory and brings
 * its own in-memory store and lock. `PlanStoreFolder`/`PlanStoreMemory` are the port's adapters.
 */
export {
  CompletedStep,
  Completion,
  Dependency,
  Finding,
  FindingKind,
  PLAN_FILE,
  PLAN_LIMITS,
  PlanCheckpointInput,
  PlanCheckpointOutput,
  PlanDocument,
  PlanInspectOutput,
  PlanStartInput,
  PlanStartOutput,
  PlanStatus,
  RegisteredOutput,
  RegisteredSource,
  RESULTS_AREA,
  SOURCES_AREA,
  Unresolved,
  Verification
} from "../domain/Plan.js"
export {
  CompletionRefused,
  CorruptPlan,
  GoalConflict,
  NoPlan,
  type PlanError,
  PlanErrors,
  UnregisteredDependency
} from "../domain/PlanErrors.js"
export { PlanFolder, PlanStoreFolder } from "../layers/folder/PlanStoreFolder.js"
export { PlanStoreMemory } from "../layers/memory/PlanStoreMemory.js"
export { PlanLive } from "../layers/PlanLive.js"
export { PlanMemory } from "../layers/PlanMemory.js"
export { Plan, type PlanReadError, type PlanShape, type PlanWriteError } from "../services/Plan.js"
export {
  PLAN_KEY,
  type PlanHeld,
  type PlanKey,
  type PlanRecord,
  PlanStore,
  type PlanStoreError,
  type PlanStoreShape,
  type RegisteredFileError
} from "../services/ports/PlanStore.js"
