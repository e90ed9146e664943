/**
 * Research monitor domain: input files, stored records, outputs and the pure rules of
 * subscriptions, runs, completions and dispositions (spec monitor.md). I/O lives in
 * src/layers/SchedulerLive.ts; window arithmetic in ./MonitorWindows.ts.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { canonicalDigest, canonicalJson, normalizeTimestamp, sha256Hex } from "./Canonical.js"
import { FreeJsonObject } from "./Decode.js"
import { isStoredInstant, LAST_YEAR } from "./Instant.js"
import { InvalidInput, type Issue, LimitExceeded } from "./Errors.js"
import { DispositionAlreadySet, DispositionRefused, InvalidTransition } from "./MonitorErrors.js"
import {
  defaultAnchor,
  firstWindowAfterP as firstAfter,
  type Grid,
  iso,
  latestStartedWindowP,
  parseAnchor,
  prepare,
  windowStartP,
  zoneOf
} from "./MonitorWindows.js"

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Ids chosen by clients (subscriptions, outcomes): safe as file names, no dots. */
export const MONITOR_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
export const Id = Schema.String.pipe(
  Schema.pattern(MONITOR_ID_PATTERN, { message: () => "expected 1-64 letters, digits, '_' or '-', starting with a letter or digit" })
)
/** Run ids are generated: `<subscriptionId>.w<k>` or `<subscriptionId>.g<grid>.w<k>`. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(\.g[1-9][0-9]{0,8})?\.w(0|[1-9][0-9]{0,9})$/
export const RunId = Schema.String.pipe(Schema.pattern(RUN_ID_PATTERN, { message: () => "expected a run id such as 'lit.w3'" }))

const Text = (max: number) => Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max))
const IsoTime = Schema.String.pipe(
  Schema.filter((s) => isStoredInstant(s) || "expected an ISO-8601 UTC instant such as 2026-01-05T08:00:00.000Z", {
    jsonSchema: { type: "string", format: "date-time" },
    description: "ISO-8601 UTC instant"
  })
)
const Sha256 = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/, { message: () => "expected 64 lowercase hex digits" }))
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

const isTimezone = (s: string): boolean => Option.isSome(zoneOf(s))
const isAnchor = (s: string): boolean => Option.isSome(parseAnchor(s))
const TIMEZONE_EXPECTED = "expected an IANA time zone such as Europe/Berlin"
const ANCHOR_EXPECTED = "expected a local YYYY-MM-DDTHH:MM (no seconds, no offset)"
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
/** `Scheduler.transitionRun`'s input: `to` is a status a transition can reach. */
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
export const TransitionRunFile = Schema.Struct({ ...TransitionRunInput.fields, to: RunStatus }).annotations({ identifier: "transition-run" })

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
  id: Id,
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
  outcomeId: Id,
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

// ---------------------------------------------------------------------------------------------
// Outputs

const Ok = Schema.Literal(true)
export const BindingState = Schema.NullOr(Schema.Literal("verified", "stale"))
export const RunView = Schema.extend(RunRecord, Schema.Struct({ binding: BindingState }))

export const CreateSubscriptionOutput = Schema.Struct({ ok: Ok, created: Schema.Boolean, subscription: SubscriptionRecord })
  .annotations({ identifier: "create-subscription-output" })
export const UpdateSubscriptionOutput = Schema.Struct({ ok: Ok, gridChanged: Schema.Boolean, subscription: SubscriptionRecord })
  .annotations({ identifier: "update-subscription-output" })
export const SetSubscriptionStatusOutput = Schema.Struct({ ok: Ok, changed: Schema.Boolean, subscription: SubscriptionRecord })
  .annotations({ identifier: "set-subscription-status-output" })
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
export const TransitionRunOutput = Schema.Struct({ ok: Ok, run: RunRecord }).annotations({ identifier: "transition-run-output" })
export const FinishRunOutput = Schema.Struct({
  ok: Ok,
  changed: Schema.Boolean.annotations({ description: "false: an exact repeat of the finish that completed the run; nothing written" }),
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
  Schema.Struct({ ok: Ok, subscription: SubscriptionRecord }),
  Schema.Struct({ ok: Ok, run: RunView })
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
  Schema.Struct({ kind: Schema.Literal("receipt-mismatch"), runId: Schema.String, runRevision: Schema.NullOr(Schema.Number) }),
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
  Schema.Struct({ kind: Schema.Literal("journal-corrupt"), study: Schema.String, corruptLine: Schema.Unknown, head: Schema.Unknown }),
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

// ---------------------------------------------------------------------------------------------
// Pure rules

const invalid = (path: string, message: string) => new InvalidInput({ issues: [{ path, message }] })

/** The content of a subscription that its digest covers (everything a run freezes). */
export const contentOf = (s: Pick<
  SubscriptionRecord,
  "kind" | "target" | "scope" | "budget" | "cadence" | "timezone" | "anchor" | "mode" | "units" | "survey" | "program" | "preference"
>) => ({
  kind: s.kind,
  target: s.target,
  scope: s.scope,
  budget: s.budget,
  cadence: s.cadence,
  timezone: s.timezone,
  anchor: s.anchor,
  mode: s.mode,
  units: s.units,
  survey: s.survey,
  program: s.program,
  preference: s.preference
})

export const gridOf = (s: Pick<SubscriptionRecord, "timezone" | "anchor" | "cadence">): Grid => ({
  timezone: s.timezone,
  anchor: s.anchor,
  cadence: s.cadence
})

export const sameGrid = (a: Grid, b: Grid): boolean =>
  a.timezone === b.timezone && a.anchor === b.anchor && a.cadence.every === b.cadence.every && a.cadence.unit === b.cadence.unit

/** Digest of the request as given (without its id): a retry of the same request is recognised by it. */
export const requestDigestOf = (input: SubscriptionInput): string => {
  const { id: _id, ...rest } = input
  return canonicalDigest(rest)
}

/** A generated subscription id: derived from the request, so a retry without an id finds the same one. */
export const generatedSubscriptionId = (requestDigest: string): string => `sub-${requestDigest.slice(0, 16)}`

export const runIdOf = (subscriptionId: string, gridVersion: number, windowIndex: number): string =>
  gridVersion === 1 ? `${subscriptionId}.w${windowIndex}` : `${subscriptionId}.g${gridVersion}.w${windowIndex}`

/** Subscription id of a run id (runs are named after their subscription). */
export const subscriptionIdOfRun = (runId: string): string => runId.slice(0, runId.indexOf("."))

/**
 * Resolve a create-subscription request into a new record (defaults applied, cross-field rules
 * checked). The survey file's existence is checked by the caller.
 */
export const newSubscription = (
  input: SubscriptionInput,
  now: Date
): Either.Either<SubscriptionRecord, InvalidInput | LimitExceeded> => {
  const issues: Array<Issue> = []
  if (input.kind === "unit-recheck" && (input.units === undefined || input.units.length === 0)) {
    issues.push({ path: "units", message: "unit-recheck needs a non-empty list of unit ids" })
  }
  if (input.kind !== "unit-recheck" && input.units !== undefined) {
    issues.push({ path: "units", message: "units are only for unit-recheck subscriptions" })
  }
  if (input.kind === "survey-freshness" && input.survey === undefined) {
    issues.push({ path: "survey", message: "survey-freshness needs the survey path" })
  }
  if (input.kind !== "survey-freshness" && input.survey !== undefined) {
    issues.push({ path: "survey", message: "survey is only for survey-freshness subscriptions" })
  }
  if (input.units !== undefined && new Set(input.units).size !== input.units.length) {
    issues.push({ path: "units", message: "unit ids must be unique" })
  }
  // The Schema checks both; a program calling this with an input it did not decode gets the same refusal.
  if (!isTimezone(input.timezone)) issues.push({ path: "timezone", message: TIMEZONE_EXPECTED })
  if (input.anchor !== undefined && !isAnchor(input.anchor)) issues.push({ path: "anchor", message: ANCHOR_EXPECTED })
  if (issues.length > 0) return Either.left(new InvalidInput({ issues }))
  const cadence = input.cadence ?? DEFAULT_CADENCE
  const anchor = input.anchor ?? Option.getOrElse(defaultAnchor(input.timezone, cadence, now.getTime()), () => "")
  // The default anchor (now + one cadence) can fall after year 9999.
  if (!isAnchor(anchor)) return Either.left(yearLimit(Number.parseInt(anchor, 10) || LAST_YEAR + 1))
  const requestDigest = requestDigestOf(input)
  const base = {
    kind: input.kind,
    target: input.target,
    scope: input.scope ?? {},
    budget: input.budget ?? DEFAULT_BUDGET,
    cadence,
    timezone: input.timezone,
    anchor,
    mode: input.mode ?? DEFAULT_MODE,
    units: input.units ?? [],
    survey: input.survey ?? null,
    program: input.program ?? null,
    preference: input.preference ?? null
  }
  const grid = Option.getOrThrow(prepare(gridOf(base)))
  const at = now.toISOString()
  return Either.right({
    id: input.id ?? generatedSubscriptionId(requestDigest),
    revision: 1,
    status: "active",
    ...base,
    contentDigest: canonicalDigest(contentOf(base)),
    requestDigest,
    gridVersion: 1,
    nextWindowIndex: 0,
    nextDueAt: iso(windowStartP(grid, 0)),
    activeRunId: null,
    lastRunId: null,
    createdAt: at,
    updatedAt: at
  })
}

const yearLimit = (actual: number) => new LimitExceeded({ limit: "year", max: LAST_YEAR, actual })

const SIX_DIGIT_YEAR = /"[+-](\d{6})-\d{2}-\d{2}T/

/**
 * A record about to be written whose computed times (a next window, a window start) fall after
 * year 9999 is refused, `LimitExceeded {limit: "year"}`, instead of storing a six-digit year that
 * every later read would refuse.
 */
export const timesInRange = <A>(record: A): Either.Either<A, LimitExceeded> => {
  const m = SIX_DIGIT_YEAR.exec(JSON.stringify(record))
  return m === null ? Either.right(record) : Either.left(yearLimit(Number(m[1])))
}

/** Apply update-subscription changes: new content digest; a changed grid moves nextDueAt past now. */
export const updateSubscription = (
  sub: SubscriptionRecord,
  changes: typeof SubscriptionChanges.Type,
  now: Date
): { readonly record: SubscriptionRecord; readonly gridChanged: boolean } => {
  const base = {
    ...contentOf(sub),
    ...(changes.target !== undefined ? { target: changes.target } : {}),
    ...(changes.scope !== undefined ? { scope: changes.scope } : {}),
    ...(changes.budget !== undefined ? { budget: changes.budget } : {}),
    ...(changes.cadence !== undefined ? { cadence: changes.cadence } : {}),
    ...(changes.timezone !== undefined ? { timezone: changes.timezone } : {}),
    ...(changes.anchor !== undefined ? { anchor: changes.anchor } : {}),
    ...(changes.mode !== undefined ? { mode: changes.mode } : {})
  }
  const gridChanged = !sameGrid(gridOf(sub), gridOf(base))
  let next = { gridVersion: sub.gridVersion, nextWindowIndex: sub.nextWindowIndex, nextDueAt: sub.nextDueAt }
  if (gridChanged) {
    const grid = Option.getOrThrow(prepare(gridOf(base)))
    const k = firstAfter(grid, now.getTime())
    next = { gridVersion: sub.gridVersion + 1, nextWindowIndex: k, nextDueAt: iso(windowStartP(grid, k)) }
  }
  return {
    gridChanged,
    record: {
      ...sub,
      ...base,
      ...next,
      contentDigest: canonicalDigest(contentOf(base)),
      revision: sub.revision + 1,
      updatedAt: now.toISOString()
    }
  }
}

/** Is the subscription due at `now`: active, no active run, now >= nextDueAt. */
export const isDue = (sub: SubscriptionRecord, now: Date): boolean =>
  sub.status === "active" && sub.activeRunId === null && now.getTime() >= Date.parse(sub.nextDueAt)

/** The subscription after a run of it ended at `endedAt`: next window is the first one after it. */
export const afterRunEnded = (sub: SubscriptionRecord, endedAt: Date): SubscriptionRecord => {
  const grid = Option.getOrThrow(prepare(gridOf(sub)))
  const k = Math.max(sub.nextWindowIndex, firstAfter(grid, endedAt.getTime()))
  return {
    ...sub,
    nextWindowIndex: k,
    nextDueAt: iso(windowStartP(grid, k)),
    activeRunId: null,
    revision: sub.revision + 1,
    updatedAt: endedAt.toISOString()
  }
}

/** The latest window of the subscription's grid that has started at `now` (-1: none). */
export const latestWindow = (sub: SubscriptionRecord, now: Date): number =>
  latestStartedWindowP(Option.getOrThrow(prepare(gridOf(sub))), now.getTime())

/** The frozen receipt of a new run. */
export const freeze = (sub: SubscriptionRecord): Frozen => ({
  kind: sub.kind,
  target: sub.target,
  scope: sub.scope,
  scopeDigest: canonicalDigest(sub.scope),
  budget: sub.budget,
  cadence: sub.cadence,
  timezone: sub.timezone,
  anchor: sub.anchor,
  mode: sub.mode,
  units: sub.units,
  survey: sub.survey,
  program: sub.program,
  subscriptionRevision: sub.revision,
  contentDigest: sub.contentDigest,
  preference: sub.preference
})

/** What the receipt digest covers: the frozen content, the run's id and its window. */
export const receiptOf = (run: Pick<
  RunRecord,
  "id" | "subscriptionId" | "gridVersion" | "windowIndex" | "windowStart" | "coalescedWindows" | "createdAt" | "frozen"
>) => ({
  id: run.id,
  subscriptionId: run.subscriptionId,
  gridVersion: run.gridVersion,
  windowIndex: run.windowIndex,
  windowStart: run.windowStart,
  coalescedWindows: run.coalescedWindows,
  createdAt: run.createdAt,
  frozen: run.frozen
})

/**
 * `canonicalJson(receiptOf(run))` for the receipt's known shape, computed without the generic
 * walk (`next` recomputes every run's digest, and the walk dominated it): every field's type is
 * checked and the text is written directly with the keys in RFC 8785 order, each string by
 * JSON.stringify (which writes strings as RFC 8785 does) and each safe integer in decimal (as
 * RFC 8785 does; -0 is written 0 by both), the one timestamp key (`createdAt`) normalized as
 * canonicalJson does, and `scope` (free-form) through the generic `canonicalJson` unless it is
 * empty. Anything off-shape, or a lone surrogate (which JSON.stringify writes as a lowercase
 * `\udXXX` escape: the output is checked once; escaped backslashes may match too, and then fall
 * back needlessly with the same result), falls back to the generic `canonicalJson`. A property
 * test checks that both give the same text.
 */
class OffShape extends Error {}
const ESCAPED_SURROGATE = /\\ud[89a-f]/
const str = (x: unknown): string => {
  if (typeof x !== "string") throw new OffShape()
  return x
}
/** A string as JSON text. */
const q = (x: unknown): string => JSON.stringify(str(x))
const int = (x: unknown): number => {
  if (typeof x !== "number" || !Number.isSafeInteger(x)) throw new OffShape()
  return x
}
const nullableQ = (x: unknown): string => (x === null ? "null" : q(x))
const obj = (x: unknown): Record<string, unknown> => {
  if (typeof x !== "object" || x === null || Array.isArray(x)) throw new OffShape()
  return x as Record<string, unknown>
}
const fastReceiptJson = (run: Parameters<typeof receiptOf>[0]): string => {
  const f = obj(run.frozen)
  const budget = obj(f["budget"])
  const cadence = obj(f["cadence"])
  const scope = obj(f["scope"])
  const units = f["units"]
  if (!Array.isArray(units)) throw new OffShape()
  let unitsJson = "["
  for (let i = 0; i < units.length; i++) unitsJson += i === 0 ? q(units[i]) : `,${q(units[i])}`
  unitsJson += "]"
  if (Object.keys(f).length !== 15 || Object.keys(budget).length !== 2 || Object.keys(cadence).length !== 2) throw new OffShape()
  const out = `{"coalescedWindows":${int(run.coalescedWindows)},"createdAt":${q(normalizeTimestamp(str(run.createdAt)))},` +
    `"frozen":{"anchor":${q(f["anchor"])},` +
    `"budget":{"maxMinutes":${int(budget["maxMinutes"])},"maxSources":${int(budget["maxSources"])}},` +
    `"cadence":{"every":${int(cadence["every"])},"unit":${q(cadence["unit"])}},` +
    `"contentDigest":${q(f["contentDigest"])},"kind":${q(f["kind"])},"mode":${q(f["mode"])},` +
    `"preference":${nullableQ(f["preference"])},"program":${nullableQ(f["program"])},` +
    `"scope":${Object.keys(scope).length === 0 ? "{}" : canonicalJson(scope)},"scopeDigest":${q(f["scopeDigest"])},` +
    `"subscriptionRevision":${int(f["subscriptionRevision"])},"survey":${nullableQ(f["survey"])},` +
    `"target":${q(f["target"])},"timezone":${q(f["timezone"])},"units":${unitsJson}},` +
    `"gridVersion":${int(run.gridVersion)},"id":${q(run.id)},"subscriptionId":${q(run.subscriptionId)},` +
    `"windowIndex":${int(run.windowIndex)},"windowStart":${q(run.windowStart)}}`
  if (ESCAPED_SURROGATE.test(out)) throw new OffShape()
  return out
}

export const receiptJsonOf = (run: Parameters<typeof receiptOf>[0]): string => {
  try {
    return fastReceiptJson(run)
  } catch (e) {
    if (!(e instanceof OffShape)) throw e
    return canonicalJson(receiptOf(run))
  }
}

export const receiptDigestOf = (run: Parameters<typeof receiptOf>[0]): string => sha256Hex(receiptJsonOf(run))

/** A new run for window `windowIndex` of the subscription, `coalesced` windows merged into it. */
export const newRun = (sub: SubscriptionRecord, windowIndex: number, now: Date): RunRecord => {
  const grid = Option.getOrThrow(prepare(gridOf(sub)))
  const base = {
    id: runIdOf(sub.id, sub.gridVersion, windowIndex),
    subscriptionId: sub.id,
    gridVersion: sub.gridVersion,
    windowIndex,
    windowStart: iso(windowStartP(grid, windowIndex)),
    coalescedWindows: windowIndex - sub.nextWindowIndex + 1,
    createdAt: now.toISOString(),
    frozen: freeze(sub)
  }
  return {
    ...base,
    receiptDigest: receiptDigestOf(base),
    status: "planned",
    revision: 1,
    updatedAt: now.toISOString(),
    transitions: [],
    completion: null,
    outcomes: []
  }
}

export const ACTIVE_RUN_STATUSES: ReadonlyArray<RunStatus> = ["planned", "running", "blocked", "failed_retryable"]
export const isActiveRun = (status: RunStatus): boolean => ACTIVE_RUN_STATUSES.includes(status)
export const isTerminalRun = (status: RunStatus): boolean => status === "completed" || status === "cancelled"

/** The run transition graph; `completed` is reached only through finish-run. */
export const ALLOWED_TRANSITIONS: Readonly<Record<RunStatus, ReadonlyArray<RunStatus>>> = {
  planned: ["running", "cancelled"],
  running: ["blocked", "failed_retryable", "cancelled"],
  blocked: ["running", "cancelled"],
  failed_retryable: ["running", "cancelled"],
  completed: [],
  cancelled: []
}

export const checkTransition = (from: RunStatus, to: RunStatus): Either.Either<void, InvalidTransition> =>
  ALLOWED_TRANSITIONS[from].includes(to) ? Either.void : Either.left(new InvalidTransition({ from, to }))

/** Subscription status changes: active ⇄ paused; active/paused → completed; completed never returns. */
export type StatusChange = "same" | "change" | "from-completed"
export const statusChange = (from: SubscriptionStatus, to: SubscriptionStatus): StatusChange =>
  from === to ? "same" : from === "completed" ? "from-completed" : "change"

/** Pure checks of a finish-run input against its run (files are checked by the caller). */
export const checkFinishInput = (run: RunRecord, input: FinishRunInput): Either.Either<void, InvalidInput> => {
  const issues: Array<Issue> = []
  const seen = new Set<string>()
  input.outcomes.forEach((o, i) => {
    if (seen.has(o.id)) issues.push({ path: `outcomes.${i}.id`, message: `duplicate outcome id '${o.id}'` })
    seen.add(o.id)
  })
  if (run.frozen.kind === "survey-freshness" && input.survey === undefined) {
    issues.push({ path: "survey", message: "a survey-freshness run needs the survey bytes actually read {path, sha256}" })
  }
  if (run.frozen.kind !== "survey-freshness" && input.survey !== undefined) {
    issues.push({ path: "survey", message: "survey is only for survey-freshness runs" })
  }
  if (run.frozen.kind !== "unit-recheck" && input.units !== undefined) {
    issues.push({ path: "units", message: "units are only for unit-recheck runs" })
  }
  if (run.frozen.kind === "unit-recheck" && input.units !== undefined) {
    input.units.forEach((u, i) => {
      if (!run.frozen.units.includes(u)) issues.push({ path: `units.${i}`, message: `'${u}' is not a frozen unit of the run` })
    })
  }
  return issues.length > 0 ? Either.left(new InvalidInput({ issues })) : Either.void
}

/** Frozen units the finish does not list. */
export const missingUnits = (run: RunRecord, listed: ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  run.frozen.kind === "unit-recheck" ? run.frozen.units.filter((u) => !(listed ?? []).includes(u)) : []

/** Factual counts per label for the report line. */
export const outcomeCounts = (outcomes: ReadonlyArray<{ readonly label: OutcomeLabel }>): Record<OutcomeLabel, number> => {
  const counts: Record<OutcomeLabel, number> = {
    new: 0,
    duplicate: 0,
    contradiction_candidate: 0,
    worth_reviewing: 0,
    no_substantive_change: 0
  }
  for (const o of outcomes) counts[o.label]++
  return counts
}

/**
 * Disposition rules (the existence of unitPath/reviewItem files is checked by the caller):
 * "noop" when the same disposition is already set; "set" when it may be written.
 */
export const checkDisposition = (
  outcome: Outcome,
  input: OutcomeDispositionInput
): Either.Either<"noop" | "set", DispositionAlreadySet | DispositionRefused | InvalidInput> => {
  if (outcome.disposition !== null) {
    return outcome.disposition.value === input.disposition
      ? Either.right("noop")
      : Either.left(new DispositionAlreadySet({ outcomeId: outcome.id, current: outcome.disposition.value }))
  }
  const refuse = (reason: string) => Either.left(new DispositionRefused({ outcomeId: outcome.id, reason }))
  switch (input.disposition) {
    case "materialized":
      if (outcome.label === "contradiction_candidate") return refuse("a contradiction candidate can never be materialized")
      if (input.authorization === undefined) return refuse("materialized needs authorization {messageId} of the user message that allowed it")
      if (input.unitPath === undefined) return refuse("materialized needs unitPath naming the unit file")
      if (input.reviewItem !== undefined) return Either.left(invalid("reviewItem", "reviewItem is only for sent_to_review"))
      return Either.right("set")
    case "sent_to_review":
      if (outcome.label !== "contradiction_candidate") return refuse("only a contradiction candidate is sent to review")
      if (input.reviewItem === undefined) return refuse("sent_to_review needs reviewItem naming the review file")
      if (input.authorization !== undefined || input.unitPath !== undefined) {
        return Either.left(invalid(input.authorization !== undefined ? "authorization" : "unitPath", "only for materialized"))
      }
      return Either.right("set")
    case "acknowledged":
    case "dismissed":
      if (input.authorization !== undefined || input.unitPath !== undefined || input.reviewItem !== undefined) {
        const field = input.authorization !== undefined ? "authorization" : input.unitPath !== undefined ? "unitPath" : "reviewItem"
        return Either.left(invalid(field, `not used by '${input.disposition}'`))
      }
      return Either.right("set")
  }
}

export const dispositionOf = (input: OutcomeDispositionInput, now: Date): Disposition => ({
  value: input.disposition,
  at: now.toISOString(),
  authorization: input.authorization === undefined ? null : { messageId: input.authorization.messageId },
  unitPath: input.unitPath ?? null,
  reviewItem: input.reviewItem ?? null
})

export const MONITOR_VERIFICATION_NOTE =
  "Digests show the files are the bytes that were bound; they do not show that a finding is correct."
