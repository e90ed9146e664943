/** Schemas of the monitor area for `dossier schema <name>`: input files, stored records and success outputs. */
import type * as Schema from "effect/Schema"
import {
  CreateDueRunOutput,
  CreateSubscriptionOutput,
  DueOutput,
  FinishRunOutput,
  NextOutput,
  SetOutcomeDispositionOutput,
  SetSubscriptionStatusOutput,
  ShowOutput,
  TransitionRunOutput,
  UnresolvedOutcomesOutput,
  UpdateSubscriptionOutput
} from "../../domain/MonitorOutputs.js"
import {
  CreateDueRunInput,
  FinishRunInput,
  OutcomeDispositionInput,
  ReportLine,
  RunRecord,
  SubscriptionInput,
  SubscriptionRecord,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunFile
} from "../../domain/MonitorSchema.js"
import { MonitorIntent } from "../../layers/folder/MonitorTransaction.js"

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
