/**
 * Research monitor schema: the input files, the stored records (one JSON file each under
 * `.dossier/monitor/`) and their building blocks (spec monitor.md). The outputs are in
 * ./MonitorOutputs.ts, the pure rules in ./MonitorRules.ts, the receipt digest in
 * ./MonitorReceipt.ts; I/O in src/layers/Monitor*.ts; window arithmetic in ./MonitorWindows.ts.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { FreeJsonObject } from "./Decode.js"
import { idProblem, RUN_ID, SUBSCRIPTION_ID } from "./Ids.js"
import { isStoredInstant } from "./Instant.js"
import { isNamedZone, parseAnchor } from "./MonitorWindows.js"

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Ids chosen by clients (subscriptions, outcomes): the id rule without dots (./Ids.ts says why). */
export const MONITOR_ID_PATTERN = SUBSCRIPTION_ID
export const Id = Schema.String.pipe(
  Schema.pattern(MONITOR_ID_PATTERN, { message: (issue) => idProblem("subscription", issue.actual) })
)
/** An outcome's id: the same grammar as a subscription id, refused as an outcome id. */
export const OutcomeId = Schema.String.pipe(
  Schema.pattern(MONITOR_ID_PATTERN, { message: (issue) => idProblem("outcome", issue.actual) })
)
/** Run ids are generated: `<subscriptionId>.w<k>` or `<subscriptionId>.g<grid>.w<k>`. */
export const RUN_ID_PATTERN = RUN_ID
export const RunId = Schema.String.pipe(
  Schema.pattern(RUN_ID_PATTERN, { message: (issue) => idProblem("run", issue.actual) })
)

const Text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))
export const IsoTime = Schema.String.pipe(
  Schema.filter((s) => isStoredInstant(s) || "expected an ISO-8601 UTC instant such as 2026-01-05T08:00:00.000Z", {
    jsonSchema: { type: "string", format: "date-time" },
    description: "ISO-8601 UTC instant"
  })
)
const Sha256 = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{64}$/, { message: () => "expected 64 lowercase hex digits" })
)
const PositiveInt = Schema.Int.pipe(Schema.positive())
const RelPath = Text(1024).annotations({ description: "a path relative to the work folder, with '/'" })

export const SubscriptionKind = Schema.Literal("literature", "survey-freshness", "unit-recheck")
export type SubscriptionKind = typeof SubscriptionKind.Type
export const Mode = Schema.Literal("remind", "run")
export type Mode = typeof Mode.Type
export const CadenceUnit = Schema.Literal("day", "week", "month")
export const Cadence = Schema.Struct({
  every: Schema.Int.pipe(Schema.between(1, 366)),
  unit: CadenceUnit
})
export type Cadence = typeof Cadence.Type
export const Budget = Schema.Struct({
  maxSources: PositiveInt.pipe(Schema.lessThanOrEqualTo(10_000)),
  maxMinutes: PositiveInt.pipe(Schema.lessThanOrEqualTo(100_000))
})
export type Budget = typeof Budget.Type
export const Scope = FreeJsonObject.annotations({
  description: "free JSON object describing the scope; stored as given, digested into each run"
})
export type Scope = typeof Scope.Type

export const isTimezone = (s: string): boolean => isNamedZone(s)
export const isAnchor = (s: string): boolean => Option.isSome(parseAnchor(s))
export const TIMEZONE_EXPECTED = "expected an IANA time zone such as Europe/Berlin"
export const ANCHOR_EXPECTED = "expected a local YYYY-MM-DDTHH:MM (no seconds, no offset)"
const Timezone = Schema.String.pipe(
  Schema.filter((s) => isTimezone(s) || TIMEZONE_EXPECTED, {
    jsonSchema: { type: "string", description: "IANA time zone" }
  })
)
const Anchor = Schema.String.pipe(
  Schema.filter((s) => isAnchor(s) || ANCHOR_EXPECTED, {
    jsonSchema: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$" }
  })
)

export const DEFAULT_CADENCE: Cadence = { every: 2, unit: "week" }
export const DEFAULT_BUDGET: Budget = { maxSources: 20, maxMinutes: 30 }
export const DEFAULT_MODE: Mode = "remind"

// ---------------------------------------------------------------------------------------------
// Inputs

export const SubscriptionInput = Schema.Struct({
  kind: SubscriptionKind,
  target: Text(2000),
  scope: Schema.optional(Scope),
  budget: Schema.optional(Budget),
  cadence: Schema.optional(Cadence),
  timezone: Timezone,
  anchor: Schema.optional(Anchor),
  mode: Schema.optional(Mode),
  units: Schema.optional(Schema.Array(Text(256)).pipe(Schema.maxItems(256))),
  survey: Schema.optional(RelPath),
  program: Schema.optional(Text(256)),
  preference: Schema.optional(Text(256)),
  id: Schema.optional(Id)
}).annotations({ identifier: "subscription" })
export type SubscriptionInput = typeof SubscriptionInput.Type

export const SubscriptionChanges = Schema.Struct({
  target: Schema.optional(Text(2000)),
  scope: Schema.optional(Scope),
  budget: Schema.optional(Budget),
  cadence: Schema.optional(Cadence),
  timezone: Schema.optional(Timezone),
  anchor: Schema.optional(Anchor),
  mode: Schema.optional(Mode)
})
export const SubscriptionUpdateInput = Schema.Struct({
  subscriptionId: Id,
  expectedRevision: PositiveInt,
  changes: SubscriptionChanges
}).annotations({ identifier: "subscription-update" })
export type SubscriptionUpdateInput = typeof SubscriptionUpdateInput.Type

export const SubscriptionStatus = Schema.Literal("active", "paused", "completed")
export type SubscriptionStatus = typeof SubscriptionStatus.Type
export const SubscriptionStatusInput = Schema.Struct({
  subscriptionId: Id,
  expectedRevision: PositiveInt,
  status: SubscriptionStatus
}).annotations({ identifier: "subscription-status" })
export type SubscriptionStatusInput = typeof SubscriptionStatusInput.Type

export const CreateDueRunInput = Schema.Struct({ subscriptionId: Id }).annotations({ identifier: "create-due-run" })
export type CreateDueRunInput = typeof CreateDueRunInput.Type

export const RunStatus = Schema.Literal("planned", "running", "blocked", "failed_retryable", "completed", "cancelled")
export type RunStatus = typeof RunStatus.Type
/** The statuses a transition can reach (`completed` only through finish-run; `planned` never again). */
export const TransitionTarget = Schema.Literal("running", "blocked", "failed_retryable", "cancelled")
export type TransitionTarget = typeof TransitionTarget.Type
/** `Monitor.transitionRun`'s input: `to` is a status a transition can reach. */
export const TransitionRunInput = Schema.Struct({
  runId: RunId,
  expectedRevision: PositiveInt,
  to: TransitionTarget,
  reason: Schema.optional(Text(2000))
})
export type TransitionRunInput = typeof TransitionRunInput.Type
/**
 * The transition-run input file: any status in `to`, so that a run asked to reach `planned` or
 * `completed` is refused as `InvalidTransition {from, to}` (the transitionRun implementation checks
 * every `to` against the run's status, whatever the caller's types said).
 */
export const TransitionRunFile = Schema.Struct({ ...TransitionRunInput.fields, to: RunStatus }).annotations({
  identifier: "transition-run"
})

export const OutcomeLabel = Schema.Literal(
  "new",
  "duplicate",
  "contradiction_candidate",
  "worth_reviewing",
  "no_substantive_change"
)
export type OutcomeLabel = typeof OutcomeLabel.Type
export const Citation = Schema.Struct({ path: RelPath, quote: Text(4000) })
export type Citation = typeof Citation.Type
export const OutcomeInput = Schema.Struct({
  id: OutcomeId,
  label: OutcomeLabel,
  reason: Text(4000),
  citations: Schema.Array(Citation).pipe(Schema.maxItems(64))
})
export const FileBinding = Schema.Struct({ path: RelPath, sha256: Sha256 })
export type FileBinding = typeof FileBinding.Type
/** A file named in finish-run's input: `sha256` omitted is computed at finish time; given, it must match. */
export const FileBindingInput = Schema.Struct({ path: RelPath, sha256: Schema.optional(Sha256) })
export const CompletionBinding = Schema.Struct({ runId: Schema.String, taskDigest: Schema.String })
export const FinishRunInput = Schema.Struct({
  runId: RunId,
  expectedRevision: PositiveInt,
  binding: CompletionBinding,
  stage: FileBindingInput,
  survey: Schema.optional(FileBindingInput),
  units: Schema.optional(Schema.Array(Text(256)).pipe(Schema.maxItems(256))),
  outcomes: Schema.Array(OutcomeInput).pipe(Schema.maxItems(256))
}).annotations({ identifier: "finish-run" })
export type FinishRunInput = typeof FinishRunInput.Type

export const DispositionValue = Schema.Literal("acknowledged", "materialized", "sent_to_review", "dismissed")
export type DispositionValue = typeof DispositionValue.Type
export const OutcomeDispositionInput = Schema.Struct({
  runId: RunId,
  outcomeId: OutcomeId,
  disposition: DispositionValue,
  authorization: Schema.optional(Schema.Struct({ messageId: Text(512) })),
  unitPath: Schema.optional(RelPath),
  reviewItem: Schema.optional(RelPath)
}).annotations({ identifier: "outcome-disposition" })
export type OutcomeDispositionInput = typeof OutcomeDispositionInput.Type

// ---------------------------------------------------------------------------------------------
// Stored records (one JSON file each under .dossier/monitor/)

export const SubscriptionRecord = Schema.Struct({
  id: Id,
  revision: PositiveInt,
  status: SubscriptionStatus,
  kind: SubscriptionKind,
  target: Schema.String,
  scope: Scope,
  budget: Budget,
  cadence: Cadence,
  timezone: Timezone,
  anchor: Anchor,
  mode: Mode,
  units: Schema.Array(Schema.String),
  survey: Schema.NullOr(Schema.String),
  program: Schema.NullOr(Schema.String),
  preference: Schema.NullOr(Schema.String),
  contentDigest: Schema.String,
  requestDigest: Schema.String,
  gridVersion: PositiveInt,
  nextWindowIndex: Schema.Int.pipe(Schema.nonNegative()),
  nextDueAt: IsoTime,
  activeRunId: Schema.NullOr(Schema.String),
  lastRunId: Schema.NullOr(Schema.String),
  createdAt: IsoTime,
  updatedAt: IsoTime
}).annotations({ identifier: "subscription-record" })
export type SubscriptionRecord = typeof SubscriptionRecord.Type

export const Frozen = Schema.Struct({
  kind: SubscriptionKind,
  target: Schema.String,
  scope: Scope,
  scopeDigest: Schema.String,
  budget: Budget,
  cadence: Cadence,
  timezone: Schema.String,
  anchor: Schema.String,
  mode: Mode,
  units: Schema.Array(Schema.String),
  survey: Schema.NullOr(Schema.String),
  program: Schema.NullOr(Schema.String),
  subscriptionRevision: PositiveInt,
  contentDigest: Schema.String,
  preference: Schema.NullOr(Schema.String)
})
export type Frozen = typeof Frozen.Type

export const Disposition = Schema.Struct({
  value: DispositionValue,
  at: IsoTime,
  authorization: Schema.NullOr(Schema.Struct({ messageId: Schema.String })),
  unitPath: Schema.NullOr(Schema.String),
  reviewItem: Schema.NullOr(Schema.String)
})
export type Disposition = typeof Disposition.Type

export const Outcome = Schema.Struct({
  id: Schema.String,
  label: OutcomeLabel,
  reason: Schema.String,
  citations: Schema.Array(Citation),
  disposition: Schema.NullOr(Disposition)
})
export type Outcome = typeof Outcome.Type

export const RunCompletion = Schema.Struct({
  at: IsoTime,
  binding: CompletionBinding,
  stage: FileBinding,
  survey: Schema.NullOr(FileBinding),
  units: Schema.Array(Schema.String)
})
export type RunCompletion = typeof RunCompletion.Type

export const TransitionEntry = Schema.Struct({
  from: RunStatus,
  to: RunStatus,
  at: IsoTime,
  reason: Schema.NullOr(Schema.String)
})

export const RunRecord = Schema.Struct({
  id: Schema.String,
  subscriptionId: Schema.String,
  gridVersion: PositiveInt,
  windowIndex: Schema.Int.pipe(Schema.nonNegative()),
  windowStart: IsoTime,
  coalescedWindows: PositiveInt,
  createdAt: IsoTime,
  frozen: Frozen,
  receiptDigest: Schema.String,
  status: RunStatus,
  revision: PositiveInt,
  updatedAt: IsoTime,
  transitions: Schema.Array(TransitionEntry),
  completion: Schema.NullOr(RunCompletion),
  outcomes: Schema.Array(Outcome)
}).annotations({ identifier: "run-record" })
export type RunRecord = typeof RunRecord.Type

export const ReportLine = Schema.Struct({
  at: IsoTime,
  event: Schema.Literal("run-completed"),
  program: Schema.String,
  subscriptionId: Schema.String,
  runId: Schema.String,
  windowIndex: Schema.Number,
  outcomes: Schema.Number,
  outcomeCounts: Schema.Record({ key: OutcomeLabel, value: Schema.Number })
}).annotations({ identifier: "monitor-report-line" })
export type ReportLine = typeof ReportLine.Type

/** What `monitor finish-run` answers beside the run: digests bind bytes, not findings. */
export const MONITOR_VERIFICATION_NOTE =
  "Digests show the files are the bytes that were bound; they do not show that a finding is correct."
