/** Schemas of the monitor area for `dossier schema <name>`: input files, stored records and success outputs. */
import type * as Schema from "effect/Schema"
import {
  CreateDueRunInput,
  CreateDueRunOutput,
  DueOutput,
  FinishRunInput,
  FinishRunOutput,
  NextOutput,
  OutcomeDispositionInput,
  ReportLine,
  RunRecord,
  SetOutcomeDispositionOutput,
  SetSubscriptionStatusOutput,
  ShowOutput,
  SubscriptionInput,
  SubscriptionRecord,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunFile,
  TransitionRunOutput,
  UnresolvedOutcomesOutput,
  UpdateSubscriptionOutput,
  CreateSubscriptionOutput
} from "../../domain/Monitor.js"
import { MonitorIntent } from "../../layers/SchedulerTransaction.js"

export const monitorSchemas = (): Record<string, Schema.Schema.Any> => ({
  subscription: SubscriptionInput,
  "subscription-update": SubscriptionUpdateInput,
  "subscription-status": SubscriptionStatusInput,
  "create-due-run": CreateDueRunInput,
  "transition-run": TransitionRunFile,
  "finish-run": FinishRunInput,
  "outcome-disposition": OutcomeDispositionInput,
  "subscription-record": SubscriptionRecord,
  "run-record": RunRecord,
  "monitor-report-line": ReportLine,
  "monitor-intent": MonitorIntent,
  "create-subscription-output": CreateSubscriptionOutput,
  "update-subscription-output": UpdateSubscriptionOutput,
  "set-subscription-status-output": SetSubscriptionStatusOutput,
  "due-output": DueOutput,
  "create-due-run-output": CreateDueRunOutput,
  "transition-run-output": TransitionRunOutput,
  "finish-run-output": FinishRunOutput,
  "set-outcome-disposition-output": SetOutcomeDispositionOutput,
  "unresolved-outcomes-output": UnresolvedOutcomesOutput,
  "show-output": ShowOutput,
  "next-output": NextOutput
})
