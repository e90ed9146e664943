/** `dossier monitor …` and `dossier next`, declared as data (see src/commands/Spec.ts). */
import { idRule } from "../domain/Ids.js"
import { command, type CommandSpec, type Flags, type FlagSpec, input, json, now, workdir } from "./Spec.js"

const load = () => import("./monitor.impl.js")

export const monitorGroup = {
  name: "monitor",
  description:
    "Subscriptions that re-check a topic on a cadence, their frozen runs and outcomes: list, due, show, create-subscription, update-subscription, set-subscription-status, create-due-run, transition-run, finish-run, set-outcome-disposition, unresolved-outcomes. State: .dossier/monitor/ (one JSON file per subscription and per run, and scan.index: derived, what the scans made of each file by its SHA-256, safe to delete). No daemon."
}

/** `--input`, optional where the command also takes its fields as flags (both together: UsageError). */
const inputOrFlags = {
  kind: "optionalText",
  name: "input",
  value: "path",
  description: `${input.description} Or give the fields as the flags below (not both).`
} as const satisfies FlagSpec
const subscriptionFlag = {
  kind: "optionalText",
  name: "subscription",
  value: "id",
  description: `The subscription id (input field subscriptionId): ${idRule("subscription")}.`,
  field: "subscriptionId",
  needed: true
} as const satisfies FlagSpec
const runFlag = {
  kind: "optionalText",
  name: "run",
  value: "id",
  description: `The run id (input field runId): ${idRule("run")}.`,
  field: "runId",
  needed: true
} as const satisfies FlagSpec
const expectedFlag = {
  kind: "integer",
  name: "expected",
  description: "The revision last seen (input field expectedRevision).",
  optional: true,
  min: 1,
  field: "expectedRevision",
  needed: true
} as const satisfies FlagSpec

// The flags of the actions that take their input file's fields as flags too: each names its field
// (and whether the flag form needs it), and the handler builds the input from these tables.
export const setSubscriptionStatusFlags = {
  workdir,
  json,
  input: inputOrFlags,
  subscription: subscriptionFlag,
  expected: expectedFlag,
  status: {
    kind: "optionalText",
    name: "status",
    value: "status",
    description: "active | paused | completed (input field status).",
    field: "status",
    needed: true
  },
  now
} as const satisfies Flags
export const createDueRunFlags = {
  workdir,
  json,
  input: inputOrFlags,
  subscription: subscriptionFlag,
  now
} as const satisfies Flags
export const transitionRunFlags = {
  workdir,
  json,
  input: inputOrFlags,
  run: runFlag,
  expected: expectedFlag,
  to: {
    kind: "optionalText",
    name: "to",
    value: "status",
    description: "running | blocked | failed_retryable | cancelled (input field to).",
    field: "to",
    needed: true
  },
  reason: { kind: "optionalText", name: "reason", description: "Why (input field reason, optional).", field: "reason" },
  now
} as const satisfies Flags
export const setOutcomeDispositionFlags = {
  workdir,
  json,
  input: inputOrFlags,
  run: runFlag,
  outcome: {
    kind: "optionalText",
    name: "outcome",
    value: "id",
    description: `The outcome id (input field outcomeId): ${idRule("outcome")}.`,
    field: "outcomeId",
    needed: true
  },
  disposition: {
    kind: "optionalText",
    name: "disposition",
    value: "status",
    description: "acknowledged | materialized | sent_to_review | dismissed (input field disposition).",
    field: "disposition",
    needed: true
  },
  authorization: {
    kind: "optionalText",
    name: "authorization",
    value: "id",
    description: "The id of the user message that allowed materializing (input field authorization.messageId).",
    field: "authorization.messageId"
  },
  unit: {
    kind: "optionalText",
    name: "unit",
    value: "path",
    description: "The materialized unit file (input field unitPath).",
    field: "unitPath"
  },
  reviewItem: {
    kind: "optionalText",
    name: "review-item",
    value: "path",
    description: "The review item file (input field reviewItem).",
    field: "reviewItem"
  },
  now
} as const satisfies Flags

export const monitorSpecs: ReadonlyArray<CommandSpec> = [
  command({
    path: ["monitor", "create-subscription"],
    inputSchema: "subscription",
    description:
      `Create a subscription that re-checks a topic on a cadence. Input file fields: kind (literature | survey-freshness | unit-recheck, required); target (string, required); scope (object, default {}); budget {maxSources, maxMinutes} (positive integers, default 20 and 30); cadence {every (1-366), unit (day | week | month)} (default every 2 weeks); timezone (IANA, required); anchor (local YYYY-MM-DDTHH:MM of window 0, no seconds or offset; default now + one cadence, local); mode (remind | run, default remind: tell the user first); units (array of unit ids, required and non-empty for unit-recheck); survey (path in the work folder, required for survey-freshness, must exist); program (optional program id); preference (optional opaque selection id, stored as given); id (optional stable id: ${
        idRule("subscription")
      }). Same id and same request again: created false. Same id, other content: ConflictingSubscription.`,
    flags: { workdir, json, input, now },
    run: (v) => load().then((m) => m.createSubscription(v))
  }),
  command({
    path: ["monitor", "update-subscription"],
    inputSchema: "subscription-update",
    description:
      "Edit a subscription (a new revision and content digest). Input file fields: subscriptionId; expectedRevision (compare-and-set); changes {target?, scope? (object), budget? {maxSources, maxMinutes} (positive integers, both), cadence? {every (1-366), unit (day | week | month)} (both), timezone? (IANA), anchor? (local YYYY-MM-DDTHH:MM), mode? (remind | run)}. When the grid (cadence, timezone, anchor) changes, nextDueAt becomes the first window of the new grid after now: an edit never causes a surprise run. Started runs keep their frozen content.",
    flags: { workdir, json, input, now },
    run: (v) => load().then((m) => m.updateSubscription(v))
  }),
  command({
    path: ["monitor", "set-subscription-status"],
    inputSchema: "subscription-status",
    description:
      "Pause, resume or complete a subscription. Input file fields: subscriptionId; expectedRevision; status (active | paused | completed); or the flags --subscription, --expected, --status. active and paused switch freely; completed never returns (SubscriptionCompleted); a subscription with an active run cannot complete (ActiveRunExists).",
    flags: setSubscriptionStatusFlags,
    run: (v) => load().then((m) => m.setSubscriptionStatus(v))
  }),
  command({
    path: ["monitor", "due"],
    description:
      "List every subscription with {id, due, nextDueAt, activeRunId, mode, …}. Due: active, no active run, now >= nextDueAt. mode remind: tell the user first; run: the agent may run straight away. Nothing runs by itself: there is no daemon. nextWindowAt: when it is next due (with an active run, the window after the run's).",
    flags: { workdir, json, now },
    run: (v) => load().then((m) => m.due(v))
  }),
  command({
    path: ["monitor", "create-due-run"],
    inputSchema: "create-due-run",
    description:
      "Create the one frozen run of the latest window that has started; missed windows coalesce into it (coalescedWindows). Input file fields: subscriptionId (or --subscription <id>). A retry for the same window answers the same run with created false; an active run of an earlier window is ActiveRunExists; not due is NotDue {nextDueAt}.",
    flags: createDueRunFlags,
    run: (v) => load().then((m) => m.createDueRun(v))
  }),
  command({
    path: ["monitor", "transition-run"],
    inputSchema: "transition-run",
    description:
      "Move a run along its graph. Input file fields: runId; expectedRevision; to (running | blocked | failed_retryable | cancelled); reason (optional string); or the flags --run, --expected, --to, --reason. Allowed: planned→running|cancelled; running→blocked|failed_retryable|cancelled; blocked→running|cancelled; failed_retryable→running|cancelled. completed is reached only by finish-run; terminal runs never reopen (InvalidTransition).",
    flags: transitionRunFlags,
    run: (v) => load().then((m) => m.transitionRun(v))
  }),
  command({
    path: ["monitor", "finish-run"],
    inputSchema: "finish-run",
    description:
      "Complete a running run with its outcomes, in one atomic operation. Input file fields: runId; expectedRevision; binding {runId, taskDigest (the run's receiptDigest)} (the stage file's text must contain both); stage {path, sha256?} (the literature stage file); survey {path, sha256?} (survey-freshness: the survey bytes actually read); a sha256 left out is computed at finish time, one given must match (DigestMismatch); units (unit-recheck: every frozen unit id); outcomes [{id (unique), label (new | duplicate | contradiction_candidate | worth_reviewing | no_substantive_change), reason, citations [{path, quote (occurs verbatim in the file, at least 20 characters)}]}]. The checks are mechanical: labels are not judged.",
    flags: { workdir, json, input, now },
    run: (v) => load().then((m) => m.finishRun(v))
  }),
  command({
    path: ["monitor", "set-outcome-disposition"],
    inputSchema: "outcome-disposition",
    description:
      "Set an outcome's disposition once. Input file fields: runId; outcomeId; disposition (acknowledged | materialized | sent_to_review | dismissed); authorization {messageId} (materialized: the user message that allowed it); unitPath (materialized: an existing file); reviewItem (sent_to_review, only for contradiction_candidate: an existing file); or the flags --run, --outcome, --disposition, --authorization, --unit, --review-item. A contradiction candidate is never materialized. The same disposition again is a no-op; another one is DispositionAlreadySet.",
    flags: setOutcomeDispositionFlags,
    run: (v) => load().then((m) => m.setOutcomeDisposition(v))
  }),
  command({
    path: ["monitor", "unresolved-outcomes"],
    description: "List every outcome of a completed run whose disposition is still null.",
    flags: { workdir, json },
    run: (v) => load().then((m) => m.unresolvedOutcomes(v))
  }),
  command({
    path: ["monitor", "show"],
    description:
      "Show one subscription (--subscription <id>) or one run (--run <id>); the run's receipt is re-verified.",
    flags: {
      workdir,
      json,
      subscription: {
        kind: "optionalText",
        name: "subscription",
        value: "id",
        description: `Show this subscription: ${idRule("subscription")}.`
      },
      run: {
        kind: "optionalText",
        name: "run",
        value: "id",
        description:
          "Show this run, with binding verified | stale | null (null until it completes); a note if a bound folder lacks its stage file."
      }
    },
    run: (v) => load().then((m) => m.show(v))
  }),
  command({
    path: ["monitor", "list"],
    description:
      "List every subscription (id, status, kind, target, nextDueAt, activeRunId, revision) and every run (id, subscriptionId, status, revision, windowStart), in creation order; an unreadable record is listed with status unreadable. Never writes. Each subscription's nextWindowAt: when it is next due (with an active run, the window after the run's).",
    flags: { workdir, json },
    run: (v) => load().then((m) => m.list(v))
  }),
  command({
    path: ["next"],
    description:
      "List the factual candidates for what to do next across the work folder, each {kind, …} with the revisions it came from: subscription-due, resume-monitor-run, unresolved-outcome, completion-binding-stale, receipt-mismatch, broken-link, plan-needs-attention, plan-corrupt, journal-unterminated-tail, journal-corrupt, transaction-recovered. Never decides. Reads every record file whole on every call; a record whose bytes the scan index already verified is not checked again.",
    flags: { workdir, json, now },
    run: (v) => import("./next.impl.js").then((m) => m.next(v))
  })
]
