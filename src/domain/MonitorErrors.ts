import * as Schema from "effect/Schema"
import { placeOf } from "./Place.js"

export class SubscriptionNotFound extends Schema.TaggedError<SubscriptionNotFound>()("SubscriptionNotFound", {
  subscriptionId: Schema.String,
  /** The shared dossier searched, in a folder bound to a store (docs/store.md); absent in a plain folder. */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return `No subscription '${this.subscriptionId}' in ${placeOf(this.dossier)}.`
  }
}

export class RunNotFound extends Schema.TaggedError<RunNotFound>()("RunNotFound", {
  runId: Schema.String,
  /** The shared dossier searched, in a folder bound to a store (docs/store.md); absent in a plain folder. */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return `No run '${this.runId}' in ${placeOf(this.dossier)}.`
  }
}

export class ConflictingSubscription extends Schema.TaggedError<ConflictingSubscription>()("ConflictingSubscription", {
  id: Schema.String
}) {
  override get message() {
    return `A subscription '${this.id}' already exists with other content.`
  }
}

export class SubscriptionCompleted extends Schema.TaggedError<SubscriptionCompleted>()("SubscriptionCompleted", {
  subscriptionId: Schema.String
}) {
  override get message() {
    return `The subscription '${this.subscriptionId}' is completed; a completed subscription never returns.`
  }
}

export class ActiveRunExists extends Schema.TaggedError<ActiveRunExists>()("ActiveRunExists", {
  runId: Schema.String
}) {
  override get message() {
    return `The run '${this.runId}' is still active; finish or cancel it first.`
  }
}

export class NotDue extends Schema.TaggedError<NotDue>()("NotDue", {
  nextDueAt: Schema.NullOr(Schema.String),
  status: Schema.String
}) {
  override get message() {
    if (this.status === "completed" || this.nextDueAt === null) {
      return `The subscription is ${this.status}: it is never due again.`
    }
    // A paused subscription's window may have started already: it waits for the resume, not the time.
    return this.status === "paused"
      ? `The subscription is paused: it is not due until it is resumed (its next window starts ${this.nextDueAt}).`
      : `The subscription is not due until ${this.nextDueAt}.`
  }
}

export class ReceiptDigestMismatch extends Schema.TaggedError<ReceiptDigestMismatch>()("ReceiptDigestMismatch", {
  runId: Schema.String
}) {
  override get message() {
    return `The frozen receipt of run '${this.runId}' no longer matches its digest; refusing to use it.`
  }
}

export class InvalidTransition extends Schema.TaggedError<InvalidTransition>()("InvalidTransition", {
  from: Schema.String,
  to: Schema.String,
  /** The statuses `monitor transition-run` may take the run to from `from` (none: it is terminal). */
  allowed: Schema.Array(Schema.String)
}) {
  override get message() {
    const head = `A run cannot go from '${this.from}' to '${this.to}'`
    const terminal = this.from === "completed" || this.from === "cancelled"
    if (terminal) {
      return `${head}: '${this.from}' is final and never reopens; the next window gets a new run (create the due run).`
    }
    if (this.to === "completed") {
      return this.from === "running"
        ? `${head} by a transition: only finishing the run completes it (with its stage, binding and outcomes).`
        : `${head}: finishing completes only a running run; transition the run to running first.`
    }
    return `${head}; from '${this.from}' it may go to ${
      this.allowed.join(" or ")
    } by a transition, and to completed only by finishing the run.`
  }
}

export class BindingMismatch extends Schema.TaggedError<BindingMismatch>()("BindingMismatch", {
  reason: Schema.String
}) {
  override get message() {
    return `The completion binding does not match the run: ${this.reason}.`
  }
}

export class DigestMismatch extends Schema.TaggedError<DigestMismatch>()("DigestMismatch", {
  path: Schema.String,
  expected: Schema.String,
  actual: Schema.NullOr(Schema.String)
}) {
  override get message() {
    if (this.actual === null) return `There is no file at '${this.path}' to compare with the SHA-256 given.`
    // A byte count given without a SHA-256 (a journal artifact's `bytes`) is compared as "N bytes".
    const sizes = / bytes$/.test(this.expected) && this.actual.endsWith(" bytes")
    return sizes
      ? `'${this.path}' has ${this.actual}, not the ${this.expected.slice(0, -" bytes".length)} given.`
      : `'${this.path}' does not have the SHA-256 given or recorded for it.`
  }
}

export class MissingUnits extends Schema.TaggedError<MissingUnits>()("MissingUnits", {
  missing: Schema.Array(Schema.String)
}) {
  override get message() {
    return `The finish does not list every frozen unit: missing ${this.missing.join(", ")}.`
  }
}

export class CitationNotFound extends Schema.TaggedError<CitationNotFound>()("CitationNotFound", {
  outcome: Schema.String,
  path: Schema.String,
  /**
   * Why the quote did not verify: `quote-not-found` (not in the file's text under the quote rule),
   * `quote-too-short` (fewer than 20 characters once whitespace is collapsed: never checked against
   * the file), `file-missing` (no file at `path`).
   */
  reason: Schema.Literal("quote-not-found", "quote-too-short", "file-missing")
}) {
  override get message() {
    switch (this.reason) {
      case "quote-too-short":
        return `A quote of outcome '${this.outcome}' citing '${this.path}' is shorter than 20 characters (whitespace collapsed); a quote must be at least 20 to be checked.`
      case "file-missing":
        return `Outcome '${this.outcome}' cites '${this.path}', and there is no file there.`
      case "quote-not-found":
        return `A quote of outcome '${this.outcome}' does not occur in '${this.path}'.`
    }
  }
}

export class OutcomeNotFound extends Schema.TaggedError<OutcomeNotFound>()("OutcomeNotFound", {
  runId: Schema.String,
  outcomeId: Schema.String
}) {
  override get message() {
    return `The run '${this.runId}' has no outcome '${this.outcomeId}'.`
  }
}

export class DispositionAlreadySet extends Schema.TaggedError<DispositionAlreadySet>()("DispositionAlreadySet", {
  outcomeId: Schema.String,
  current: Schema.String
}) {
  override get message() {
    return `The outcome '${this.outcomeId}' is already '${this.current}'; a disposition is set once.`
  }
}

export class DispositionRefused extends Schema.TaggedError<DispositionRefused>()("DispositionRefused", {
  outcomeId: Schema.String,
  reason: Schema.String,
  /**
   * What to give to be accepted, when something is missing: the input field (`reviewItem`,
   * `unitPath`, `authorization`), or the option (`--review-item`…) when the action was given
   * as options.
   */
  missing: Schema.optional(Schema.String)
}) {
  override get message() {
    return `The disposition of '${this.outcomeId}' is refused: ${this.reason}${
      this.missing === undefined ? "" : `; give ${this.missing}`
    }.`
  }
}

export class CorruptMonitorRecord extends Schema.TaggedError<CorruptMonitorRecord>()("CorruptMonitorRecord", {
  path: Schema.String,
  reason: Schema.String,
  /**
   * The shared dossier whose stored monitor record is damaged, in a folder bound to a store
   * (docs/store.md): the damage is in its row, not in the file `path` (this folder's view of it).
   */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return this.dossier === undefined
      ? `The monitor record '${this.path}' cannot be read (${this.reason}); a person must repair or remove it.`
      : `The monitor record of the shared dossier '${this.dossier}' viewed here as '${this.path}' cannot be read (${this.reason}); the damage is in the store, not in this folder's view, and a person must repair it there.`
  }
}

export const MonitorErrors = [
  SubscriptionNotFound,
  RunNotFound,
  ConflictingSubscription,
  SubscriptionCompleted,
  ActiveRunExists,
  NotDue,
  ReceiptDigestMismatch,
  InvalidTransition,
  BindingMismatch,
  DigestMismatch,
  MissingUnits,
  CitationNotFound,
  OutcomeNotFound,
  DispositionAlreadySet,
  DispositionRefused,
  CorruptMonitorRecord
] as const
export type MonitorError = InstanceType<(typeof MonitorErrors)[number]>
