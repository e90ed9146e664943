import * as Schema from "effect/Schema"
import { placeOf } from "./Place.js"

export class CorruptPlan extends Schema.TaggedError<CorruptPlan>()("CorruptPlan", {
  reason: Schema.String,
  /**
   * The shared dossier whose stored plan record is damaged, in a folder bound to a store
   * (docs/store.md): the damage is in its record, not in plan.md (this folder's view of it).
   */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return this.dossier === undefined
      ? `plan.md cannot be read as a plan (${this.reason}); a person must repair it before anything is written.`
      : `The plan record of the shared dossier '${this.dossier}' cannot be read (${this.reason}); the damage is in the store, not in plan.md (this folder's view), and a person must repair it there before anything is written.`
  }
}

export class GoalConflict extends Schema.TaggedError<GoalConflict>()("GoalConflict", {
  current: Schema.String
}) {
  override get message() {
    return `This folder already holds a plan with another goal; reconcile with its owner, then replace the goal naming the plan's current revision.`
  }
}

export class CompletionRefused extends Schema.TaggedError<CompletionRefused>()("CompletionRefused", {
  reasons: Schema.Array(Schema.String)
}) {
  override get message() {
    return `The plan cannot be marked complete: ${this.reasons.join("; ")}.`
  }
}

export class UnregisteredDependency extends Schema.TaggedError<UnregisteredDependency>()("UnregisteredDependency", {
  output: Schema.String,
  path: Schema.String
}) {
  override get message() {
    return `The output '${this.output}' depends on '${this.path}', which is neither a registered source nor a registered output.`
  }
}

export class NoPlan extends Schema.TaggedError<NoPlan>()("NoPlan", {
  /** The shared dossier searched, in a folder bound to a store (docs/store.md); absent in a plain folder. */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return `There is no plan in ${placeOf(this.dossier)} yet; start one first.`
  }
}

export const PlanErrors = [CorruptPlan, GoalConflict, CompletionRefused, UnregisteredDependency, NoPlan] as const
export type PlanError = InstanceType<(typeof PlanErrors)[number]>
