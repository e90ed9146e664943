import * as Schema from "effect/Schema"

export class NotResearchable extends Schema.TaggedError<NotResearchable>()("NotResearchable", {
  waitingFor: Schema.NullOr(Schema.String)
}) {
  override get message() {
    return this.waitingFor === null
      ? "The run is not waiting (waitingFor is null): there is nothing for research to decide; resume or finish the run."
      : `The run waits for '${this.waitingFor}', which research does not decide; a person must answer.`
  }
}

export class NoVerdict extends Schema.TaggedError<NoVerdict>()("NoVerdict", {
  reason: Schema.String
}) {
  override get message() {
    return `No verdict: ${this.reason}. The state was not changed.`
  }
}

export class BlockersRemain extends Schema.TaggedError<BlockersRemain>()("BlockersRemain", {
  blockers: Schema.Array(Schema.Unknown)
}) {
  override get message() {
    return `${this.blockers.length} blocker(s) remain after rechecking against the fresh item.`
  }
}

/**
 * The gate's compare-and-set on the run's state file lost: the file no longer holds the bytes
 * the gate read. Its revisions are the SHA-256 of the file's bytes (the state file is not
 * dossier's record and carries no revision of its own): `expected` is the digest of the bytes
 * read, `actual` that of the bytes found, `null` when the file is gone. The tag and fields are
 * `StaleRevision {expected, actual}`'s (spec gate.md), so a caller matching the tag sees both.
 */
export class StaleStateFile extends Schema.TaggedError<StaleStateFile>("StaleStateFile")("StaleRevision", {
  expected: Schema.String,
  actual: Schema.NullOr(Schema.String)
}) {
  override get message() {
    return `The state file changed since it was read: expected SHA-256 ${this.expected}, found ${
      this.actual ?? "no file"
    }.`
  }
}

export const GateErrors = [NotResearchable, NoVerdict, BlockersRemain, StaleStateFile] as const
export type GateError = InstanceType<(typeof GateErrors)[number]>
