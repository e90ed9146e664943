/**
 * `Monitor` of the public surface: the research monitor (spec monitor.md). `Scheduler` is the
 * service tag; `SchedulerLive` needs a FileStore and a Lock (`Files.BaseLive(dir)` or
 * `Files.BaseMemory`); `SchedulerMemory` brings its own in-memory store and lock. `nextFacts`
 * gathers what `dossier next` reports (the monitor's facts with the plan's and the journals').
 */
export { Scheduler, type RecoveredTransaction, type SchedulerError, type SchedulerShape } from "../services/Scheduler.js"
export { SchedulerLive } from "../layers/SchedulerLive.js"
export { SchedulerMemory } from "../layers/SchedulerMemory.js"
export { nextFacts } from "../layers/SchedulerNext.js"
export {
  CreateDueRunOutput,
  CreateSubscriptionOutput,
  DueEntry,
  DueOutput,
  Fact,
  FinishRunOutput,
  NextOutput,
  SetOutcomeDispositionOutput,
  SetSubscriptionStatusOutput,
  ShowOutput,
  TransitionRunOutput,
  UnresolvedOutcome,
  UnresolvedOutcomesOutput,
  UpdateSubscriptionOutput
} from "../domain/MonitorOutputs.js"
export { ALLOWED_TRANSITIONS } from "../domain/MonitorRules.js"
export {
  Budget,
  Cadence,
  Citation,
  CreateDueRunInput,
  DEFAULT_BUDGET,
  DEFAULT_CADENCE,
  DEFAULT_MODE,
  Disposition,
  DispositionValue,
  FileBinding,
  FinishRunInput,
  Frozen,
  Mode,
  Outcome,
  OutcomeDispositionInput,
  OutcomeInput,
  OutcomeLabel,
  RunCompletion,
  RunRecord,
  RunStatus,
  Scope,
  SubscriptionInput,
  SubscriptionKind,
  SubscriptionRecord,
  SubscriptionStatus,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunFile,
  TransitionRunInput,
  TransitionTarget
} from "../domain/MonitorSchema.js"
export {
  ActiveRunExists,
  BindingMismatch,
  CitationNotFound,
  ConflictingSubscription,
  CorruptMonitorRecord,
  DigestMismatch,
  DispositionAlreadySet,
  DispositionRefused,
  InvalidTransition,
  MissingUnits,
  MonitorErrors,
  NotDue,
  OutcomeNotFound,
  ReceiptDigestMismatch,
  RunNotFound,
  SubscriptionCompleted,
  SubscriptionNotFound,
  type MonitorError
} from "../domain/MonitorErrors.js"
