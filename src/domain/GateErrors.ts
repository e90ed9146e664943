import * as Schema from "effect/Schema"

export class NotResearchable extends Schema.TaggedError<NotResearchable>()("NotResearchable", {
  waitingFor: Schema.NullOr(Schema.String)
}) {
  override get message() {
    return `The run waits for '${this.waitingFor ?? "nothing"}', which research does not decide; a person must answer.`
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

export const GateErrors = [NotResearchable, NoVerdict, BlockersRemain] as const
export type GateError = InstanceType<(typeof GateErrors)[number]>
