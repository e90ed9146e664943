/** Research monitor outputs: what each command answers, and the facts of `dossier next` (spec monitor.md). */
import * as Schema from "effect/Schema"
import {
  Cadence,
  Citation,
  IsoTime,
  Mode,
  Outcome,
  OutcomeLabel,
  RunRecord,
  RunStatus,
  SubscriptionKind,
  SubscriptionRecord,
  SubscriptionStatus
} from "./MonitorSchema.js"

const Ok = Schema.Literal(true)
export const BindingState = Schema.NullOr(Schema.Literal("verified", "stale"))
export const RunView = Schema.extend(RunRecord, Schema.Struct({ binding: BindingState }))

export const CreateSubscriptionOutput = Schema.Struct({
  ok: Ok,
  created: Schema.Boolean,
  subscription: SubscriptionRecord
})
  .annotations({ identifier: "create-subscription-output" })
export const UpdateSubscriptionOutput = Schema.Struct({
  ok: Ok,
  gridChanged: Schema.Boolean,
  subscription: SubscriptionRecord
})
  .annotations({ identifier: "update-subscription-output" })
export const SetSubscriptionStatusOutput = Schema.Struct({
  ok: Ok,
  changed: Schema.Boolean,
  subscription: SubscriptionRecord
})
  .annotations({ identifier: "set-subscription-status-output" })
/** When a subscription is next due, as `show`, `due` and `list` say it (`nextWindowAt`, ./MonitorRules.ts). */
const NextWindowAt = IsoTime.annotations({
  description:
    "The start of the next window the subscription can be due in: nextDueAt without an active run; with one (whose window nextDueAt still names), the first window after the active run's."
})
export const DueEntry = Schema.Struct({
  id: Schema.String,
  revision: Schema.Number,
  status: SubscriptionStatus,
  kind: SubscriptionKind,
  target: Schema.String,
  mode: Mode,
  cadence: Cadence,
  timezone: Schema.String,
  due: Schema.Boolean,
  nextDueAt: IsoTime,
  nextWindowAt: NextWindowAt,
  activeRunId: Schema.NullOr(Schema.String)
})
export type DueEntry = typeof DueEntry.Type
export const DueOutput = Schema.Struct({
  ok: Ok,
  now: IsoTime,
  subscriptions: Schema.Array(DueEntry),
  damaged: Schema.Array(Schema.Struct({ id: Schema.String, damaged: Schema.String })).annotations({
    description: "subscription records that cannot be read (by id, the file name) and why; the healthy ones are listed"
  }),
  receiptMismatches: Schema.Array(Schema.String)
}).annotations({ identifier: "due-output" })
export const CreateDueRunOutput = Schema.Struct({ ok: Ok, created: Schema.Boolean, run: RunRecord })
  .annotations({ identifier: "create-due-run-output" })
export const TransitionRunOutput = Schema.Struct({ ok: Ok, run: RunRecord }).annotations({
  identifier: "transition-run-output"
})
export const FinishRunOutput = Schema.Struct({
  ok: Ok,
  changed: Schema.Boolean.annotations({
    description: "false: an exact repeat of the finish that completed the run; nothing written"
  }),
  run: RunRecord,
  subscription: Schema.Struct({ id: Schema.String, revision: Schema.Number, nextDueAt: IsoTime }),
  reported: Schema.Boolean,
  note: Schema.String
}).annotations({ identifier: "finish-run-output" })
export const SetOutcomeDispositionOutput = Schema.Struct({
  ok: Ok,
  changed: Schema.Boolean,
  runId: Schema.String,
  runRevision: Schema.Number,
  outcome: Outcome
}).annotations({ identifier: "set-outcome-disposition-output" })
export const UnresolvedOutcome = Schema.Struct({
  runId: Schema.String,
  runRevision: Schema.Number,
  subscriptionId: Schema.String,
  outcomeId: Schema.String,
  label: OutcomeLabel,
  reason: Schema.String,
  citations: Schema.Array(Citation)
})
export type UnresolvedOutcome = typeof UnresolvedOutcome.Type
export const UnresolvedOutcomesOutput = Schema.Struct({
  ok: Ok,
  count: Schema.Number,
  outcomes: Schema.Array(UnresolvedOutcome),
  receiptMismatches: Schema.Array(Schema.String)
}).annotations({ identifier: "unresolved-outcomes-output" })
export const ShowOutput = Schema.Union(
  Schema.Struct({
    ok: Ok,
    subscription: SubscriptionRecord,
    nextWindowAt: NextWindowAt
  }),
  Schema.Struct({
    ok: Ok,
    run: RunView,
    note: Schema.optional(Schema.String.annotations({
      description:
        "Only in a folder bound to a shared dossier, when the run's binding is stale because a stage or survey file it was completed with is missing here: names the files and says that `dossier pull` brings them."
    }))
  })
).annotations({ identifier: "show-output" })

export const Fact = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("subscription-due"),
    subscriptionId: Schema.String,
    subscriptionRevision: Schema.Number,
    mode: Mode,
    target: Schema.String,
    nextDueAt: IsoTime
  }),
  Schema.Struct({
    kind: Schema.Literal("resume-monitor-run"),
    runId: Schema.String,
    runRevision: Schema.Number,
    status: RunStatus,
    subscriptionId: Schema.String,
    subscriptionRevision: Schema.NullOr(Schema.Number),
    target: Schema.String
  }),
  Schema.Struct({
    kind: Schema.Literal("unresolved-outcome"),
    runId: Schema.String,
    runRevision: Schema.Number,
    outcomeId: Schema.String,
    label: OutcomeLabel
  }),
  Schema.Struct({
    kind: Schema.Literal("completion-binding-stale"),
    runId: Schema.String,
    runRevision: Schema.Number,
    paths: Schema.Array(Schema.String)
  }),
  Schema.Struct({
    kind: Schema.Literal("receipt-mismatch"),
    runId: Schema.String,
    runRevision: Schema.NullOr(Schema.Number)
  }),
  Schema.Struct({
    kind: Schema.Literal("broken-link"),
    runId: Schema.NullOr(Schema.String),
    runRevision: Schema.NullOr(Schema.Number),
    missing: Schema.String,
    reason: Schema.String
  }),
  Schema.Struct({
    kind: Schema.Literal("plan-needs-attention"),
    planRevision: Schema.Number,
    findings: Schema.Array(Schema.Struct({ kind: Schema.String, path: Schema.String }))
  }),
  Schema.Struct({ kind: Schema.Literal("plan-corrupt"), reason: Schema.String }),
  Schema.Struct({
    kind: Schema.Literal("journal-unterminated-tail"),
    study: Schema.String,
    tailBytes: Schema.Number,
    head: Schema.Unknown
  }),
  Schema.Struct({
    kind: Schema.Literal("journal-corrupt"),
    study: Schema.String,
    corruptLine: Schema.Unknown,
    head: Schema.Unknown
  }),
  Schema.Struct({
    kind: Schema.Literal("transaction-recovered"),
    transactionId: Schema.String,
    direction: Schema.Literal("rolled-back", "rolled-forward"),
    paths: Schema.Array(Schema.String)
  })
)
export type Fact = typeof Fact.Type
export const NextOutput = Schema.Struct({
  ok: Ok,
  now: IsoTime,
  count: Schema.Number,
  facts: Schema.Array(Fact),
  note: Schema.String
}).annotations({ identifier: "next-output" })

// Defined beside the records (./MonitorSchema.ts): the monitor's commands answer it, and importing
// it from here built every output schema below at each start of `next` and `monitor …`.
export { MONITOR_VERIFICATION_NOTE } from "./MonitorSchema.js"
