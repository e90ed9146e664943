/**
 * The research monitor's decisions as pure functions: a new or edited subscription, when it is
 * due, a new run and what it freezes, the run transition graph, the checks of a finish and of a
 * disposition (spec monitor.md). The shell (src/layers/MonitorCommands.ts) reads and writes.
 *
 * Over 400 lines: one pure rule per monitor transition, sharing the window arithmetic.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { canonicalDigest } from "./Canonical.js"
import { InvalidInput, type Issue, LimitExceeded } from "./Errors.js"
import { LAST_YEAR } from "./Instant.js"
import { DispositionAlreadySet, DispositionRefused, InvalidTransition } from "./MonitorErrors.js"
import { receiptDigestOf } from "./MonitorReceipt.js"
import {
  ANCHOR_EXPECTED,
  DEFAULT_BUDGET,
  DEFAULT_CADENCE,
  DEFAULT_MODE,
  type Disposition,
  type FinishRunInput,
  type Frozen,
  isAnchor,
  isTimezone,
  type Outcome,
  type OutcomeDispositionInput,
  type OutcomeLabel,
  type RunRecord,
  type RunStatus,
  type SubscriptionChanges,
  type SubscriptionInput,
  type SubscriptionRecord,
  type SubscriptionStatus,
  TIMEZONE_EXPECTED
} from "./MonitorSchema.js"
import {
  defaultAnchor,
  firstWindowAfterP as firstAfter,
  type Grid,
  iso,
  latestStartedWindowP,
  prepare,
  windowStartP
} from "./MonitorWindows.js"

const invalid = (path: string, message: string) => new InvalidInput({ issues: [{ path, message }] })

/** The content of a subscription that its digest covers (everything a run freezes). */
export const contentOf = (
  s: Pick<
    SubscriptionRecord,
    | "kind"
    | "target"
    | "scope"
    | "budget"
    | "cadence"
    | "timezone"
    | "anchor"
    | "mode"
    | "units"
    | "survey"
    | "program"
    | "preference"
  >
) => ({
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
  a.timezone === b.timezone && a.anchor === b.anchor && a.cadence.every === b.cadence.every &&
  a.cadence.unit === b.cadence.unit

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

/**
 * The start of the next window the subscription can be due in. Without an active run it is
 * `nextDueAt`. While a run is active, `nextDueAt` still names the window the run covers (already
 * started, so in the past): the next one is the first window after the active run's (the grid
 * version and window index are in the run's id, see `runIdOf`), and never before
 * `nextWindowIndex`. A run of an earlier grid (the cadence changed while it was active): the new
 * grid's `nextWindowIndex`, which the edit set after its own time.
 */
export const nextWindowAt = (sub: SubscriptionRecord): string => {
  if (sub.activeRunId === null) return sub.nextDueAt
  const m = /(?:\.g(\d+))?\.w(\d+)$/.exec(sub.activeRunId)
  const grid = prepare(gridOf(sub))
  if (m === null || Option.isNone(grid)) return sub.nextDueAt
  const sameGrid = (m[1] === undefined ? 1 : Number(m[1])) === sub.gridVersion
  const k = Math.max(sub.nextWindowIndex, sameGrid ? Number(m[2]) + 1 : 0)
  return iso(windowStartP(grid.value, k))
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
  ALLOWED_TRANSITIONS[from].includes(to)
    ? Either.void
    : Either.left(new InvalidTransition({ from, to, allowed: ALLOWED_TRANSITIONS[from] }))

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
    issues.push({
      path: "survey",
      message: "a survey-freshness run needs the survey bytes actually read {path, sha256}"
    })
  }
  if (run.frozen.kind !== "survey-freshness" && input.survey !== undefined) {
    issues.push({ path: "survey", message: "survey is only for survey-freshness runs" })
  }
  if (run.frozen.kind !== "unit-recheck" && input.units !== undefined) {
    issues.push({ path: "units", message: "units are only for unit-recheck runs" })
  }
  if (run.frozen.kind === "unit-recheck" && input.units !== undefined) {
    input.units.forEach((u, i) => {
      if (!run.frozen.units.includes(u)) {
        issues.push({ path: `units.${i}`, message: `'${u}' is not a frozen unit of the run` })
      }
    })
  }
  return issues.length > 0 ? Either.left(new InvalidInput({ issues })) : Either.void
}

/** Frozen units the finish does not list. */
export const missingUnits = (run: RunRecord, listed: ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  run.frozen.kind === "unit-recheck" ? run.frozen.units.filter((u) => !(listed ?? []).includes(u)) : []

/** Factual counts per label for the report line. */
export const outcomeCounts = (
  outcomes: ReadonlyArray<{ readonly label: OutcomeLabel }>
): Record<OutcomeLabel, number> => {
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
  const refuse = (reason: string, missing?: string) =>
    Either.left(
      new DispositionRefused(
        missing === undefined ? { outcomeId: outcome.id, reason } : { outcomeId: outcome.id, reason, missing }
      )
    )
  switch (input.disposition) {
    case "materialized":
      if (outcome.label === "contradiction_candidate") {
        return refuse("a contradiction candidate can never be materialized")
      }
      if (input.authorization === undefined) {
        return refuse(
          "materialized needs the authorization {messageId} of the user message that allowed it",
          "authorization"
        )
      }
      if (input.unitPath === undefined) return refuse("materialized needs the unit file", "unitPath")
      if (input.reviewItem !== undefined) {
        return Either.left(invalid("reviewItem", "reviewItem is only for sent_to_review"))
      }
      return Either.right("set")
    case "sent_to_review":
      if (outcome.label !== "contradiction_candidate") return refuse("only a contradiction candidate is sent to review")
      if (input.reviewItem === undefined) return refuse("sent_to_review needs the review item file", "reviewItem")
      if (input.authorization !== undefined || input.unitPath !== undefined) {
        return Either.left(
          invalid(input.authorization !== undefined ? "authorization" : "unitPath", "only for materialized")
        )
      }
      return Either.right("set")
    case "acknowledged":
    case "dismissed":
      if (input.authorization !== undefined || input.unitPath !== undefined || input.reviewItem !== undefined) {
        const field = input.authorization !== undefined
          ? "authorization"
          : input.unitPath !== undefined
          ? "unitPath"
          : "reviewItem"
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
