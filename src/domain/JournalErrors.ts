import * as Schema from "effect/Schema"
import { Issue } from "./Errors.js"

export class DuplicateEventId extends Schema.TaggedError<DuplicateEventId>()("DuplicateEventId", {
  id: Schema.String
}) {
  override get message() {
    return `The event id '${this.id}' appears more than once in the batch.`
  }
}

export class UnknownCandidate extends Schema.TaggedError<UnknownCandidate>()("UnknownCandidate", {
  eventId: Schema.String,
  candidateId: Schema.String
}) {
  override get message() {
    return `The event '${this.eventId}' names the candidate '${this.candidateId}', which is not created earlier in the journal or the batch.`
  }
}

export class ConflictingEvent extends Schema.TaggedError<ConflictingEvent>()("ConflictingEvent", {
  id: Schema.String
}) {
  override get message() {
    return `The journal already holds an event '${this.id}' with other content; nothing of the batch was written.`
  }
}

export class CorruptJournal extends Schema.TaggedError<CorruptJournal>()("CorruptJournal", {
  line: Schema.Number,
  reason: Schema.String,
  /** The study whose journal it is, where the refusal may concern more than one (`pull`, a bound folder). */
  study: Schema.optional(Schema.String),
  /**
   * The shared dossier whose stored journal is damaged, in a folder bound to a store (docs/store.md):
   * the damage is in its rows (`line` is the event's position), not in this folder's view.
   */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    if (this.dossier !== undefined) {
      return `The journal of study '${
        this.study ?? "?"
      }' in the shared dossier '${this.dossier}' is damaged at event ${this.line} (${this.reason}); the damage is in the store, not in this folder's view, and a person must repair it there.`
    }
    if (this.study !== undefined) {
      return `The journal line ${this.line} of research/${this.study}/research-events.jsonl is damaged (${this.reason}); a person must repair it.`
    }
    return `The journal line ${this.line} is damaged (${this.reason}); a person must repair it.`
  }
}

export class UnterminatedTail extends Schema.TaggedError<UnterminatedTail>()("UnterminatedTail", {
  bytes: Schema.Number
}) {
  override get message() {
    return `The journal ends in an unterminated tail of ${this.bytes} bytes; recover the tail first.`
  }
}

export class UnimportedLegacyManifest
  extends Schema.TaggedError<UnimportedLegacyManifest>()("UnimportedLegacyManifest", {
    path: Schema.String
  })
{
  override get message() {
    return `'${this.path}' is neither a projection dossier wrote nor an imported manifest (a legacy manifest, or a projection edited by hand); it is not overwritten.`
  }
}

export class InvalidManifest extends Schema.TaggedError<InvalidManifest>()("InvalidManifest", {
  issues: Schema.Array(Issue)
}) {
  override get message() {
    // The first issue, as InvalidInput words its own: the shape, or why an import cannot take it.
    const first = this.issues[0]
    const why = first === undefined
      ? ": it is not a strict v1 manifest"
      : `${first.path === "" ? "" : ` at '${first.path}'`}: ${first.message}`
    const more = this.issues.length > 1 ? ` (and ${this.issues.length - 1} more issue(s))` : ""
    return `The manifest is refused${why}${more}.`
  }
}

export class StudyNotFound extends Schema.TaggedError<StudyNotFound>()("StudyNotFound", {
  study: Schema.String,
  /** The shared dossier searched, in a folder bound to a store (docs/store.md); absent in a plain folder. */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return this.dossier === undefined
      ? `No study '${this.study}': research/${this.study}/research-events.jsonl does not exist.`
      : `No study '${this.study}' in the shared dossier '${this.dossier}'.`
  }
}

export const JournalErrors = [
  StudyNotFound,
  DuplicateEventId,
  UnknownCandidate,
  ConflictingEvent,
  CorruptJournal,
  UnterminatedTail,
  UnimportedLegacyManifest,
  InvalidManifest
] as const
export type JournalError = InstanceType<(typeof JournalErrors)[number]>
