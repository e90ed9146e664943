/**
 * `Monitor` of the public surface: the research monitor (spec monitor.md). `Monitor` is the
 * service tag; `MonitorLive` needs a FileStore and a Lock (`Files.BaseLive(dir)` or
 * `Files.BaseMemory`); `MonitorMemory` brings its own in-memory store and lock. `nextFacts`
 * gathers what `dossier next` reports (the monitor's facts with the plan's and the journals').
 * `Scheduler`, `SchedulerLive`, `SchedulerMemory`, `SchedulerError` and `SchedulerShape` are the
 * names of an earlier release, kept as deprecated aliases.
 */
import { MonitorLive } from "../layers/MonitorLive.js"
import { MonitorMemory } from "../layers/MonitorMemory.js"
import { Monitor } from "../services/Monitor.js"
import type { MonitorServiceError, MonitorShape } from "../services/Monitor.js"

export { MonitorLive } from "../layers/MonitorLive.js"
export { MonitorMemory } from "../layers/MonitorMemory.js"
export { nextFacts } from "../layers/MonitorNext.js"
export {
  Monitor,
  type MonitorOptions,
  type MonitorServiceError,
  type MonitorShape,
  type RecoveredTransaction
} from "../services/Monitor.js"

/** @deprecated Use `Monitor` (the same tag; its key is now `dossier/Monitor`). */
export const Scheduler = Monitor
/** @deprecated Use `Monitor`. */
export type Scheduler = Monitor
/** @deprecated Use `MonitorLive`. */
export const SchedulerLive = MonitorLive
/** @deprecated Use `MonitorMemory`. */
export const SchedulerMemory = MonitorMemory
/** @deprecated Use `MonitorServiceError`. */
export type SchedulerError = MonitorServiceError
/** @deprecated Use `MonitorShape`. */
export type SchedulerShape = MonitorShape
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
  type MonitorError,
  MonitorErrors,
  NotDue,
  OutcomeNotFound,
  ReceiptDigestMismatch,
  RunNotFound,
  SubscriptionCompleted,
  SubscriptionNotFound
} from "../domain/MonitorErrors.js"
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
