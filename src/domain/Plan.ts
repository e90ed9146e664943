/**
 * The plan document kept in plan.md's marked section, the inputs of `plan start` and
 * `plan checkpoint`, and the outputs of the plan commands.
 */
import * as Schema from "effect/Schema"
import { isStoredInstant } from "./Instant.js"
import { isNormalRelative, isUnder } from "./Paths.js"

export const SOURCES_AREA = "research/sources"
export const RESULTS_AREA = "research/results"

export const Sha256 = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{64}$/),
  Schema.annotations({ description: "SHA-256, lowercase hex" })
)
export const IsoTime = Schema.String.pipe(
  Schema.filter((s) => isStoredInstant(s) || "expected an ISO-8601 UTC instant such as 2026-01-05T08:00:00.000Z", {
    jsonSchema: { type: "string", format: "date-time" },
    description: "ISO-8601 UTC time",
    // Generated as real instants (a filtered random string would almost never pass).
    arbitrary: () => (fc) =>
      fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }).map((ms) => new Date(ms).toISOString())
  })
)
export const NonEmpty = Schema.String.pipe(Schema.minLength(1))

export const PlanStatus = Schema.Literal("in_progress", "blocked", "complete")
export type PlanStatus = typeof PlanStatus.Type

export const CompletedStep = Schema.Struct({
  summary: Schema.String,
  at: IsoTime,
  id: Schema.optional(Schema.String)
})
export type CompletedStep = typeof CompletedStep.Type

/**
 * A path the plan registered, as a checkpoint stores it: normalized, relative to the work folder,
 * under `area` when one is named. A section edited by hand to name another path is CorruptPlan.
 */
const RegisteredPath = (area?: string) =>
  Schema.String.pipe(
    Schema.filter(
      (p) =>
        (isNormalRelative(p) && (area === undefined || isUnder(p, area))) ||
        (area === undefined
          ? "expected a normalized path relative to the work folder"
          : `expected a normalized path under ${area}/, as a checkpoint registers it`),
      {
        // Generated as such paths (a filtered random string would almost never pass).
        arbitrary: () => (fc) =>
          fc.array(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,11}$/), { minLength: 1, maxLength: 3 }).map((parts) =>
            [area ?? "research/results", ...parts].join("/")
          )
      }
    )
  )

export const RegisteredSource = Schema.Struct({
  path: RegisteredPath(SOURCES_AREA),
  origin: Schema.String,
  bytes: Schema.NonNegativeInt,
  sha256: Sha256
})
export type RegisteredSource = typeof RegisteredSource.Type

export const Dependency = Schema.Struct({ path: RegisteredPath(), sha256: Sha256 })
export type Dependency = typeof Dependency.Type

export const RegisteredOutput = Schema.Struct({
  path: RegisteredPath(RESULTS_AREA),
  bytes: Schema.NonNegativeInt,
  sha256: Sha256,
  dependsOn: Schema.Array(Dependency)
})
export type RegisteredOutput = typeof RegisteredOutput.Type

export const Unresolved = Schema.Struct({ id: Schema.String, text: Schema.String })
export type Unresolved = typeof Unresolved.Type

export const PreviousGoal = Schema.Struct({ goal: Schema.String, replacedAt: IsoTime })

export const PlanDocument = Schema.Struct({
  version: Schema.Literal(1),
  revision: Schema.Int.pipe(Schema.positive()),
  goal: NonEmpty,
  limits: Schema.Array(Schema.String),
  status: PlanStatus,
  nextAction: Schema.String,
  completedSteps: Schema.Array(CompletedStep),
  sources: Schema.Array(RegisteredSource),
  outputs: Schema.Array(RegisteredOutput),
  unresolved: Schema.Array(Unresolved),
  previousGoals: Schema.Array(PreviousGoal),
  createdAt: IsoTime,
  updatedAt: IsoTime
}).annotations({ identifier: "PlanDocument" })
export type PlanDocument = typeof PlanDocument.Type

/** A revision a write names (compare-and-set): a whole number from 1. */
const Revision = Schema.Int.pipe(
  Schema.greaterThanOrEqualTo(1, { message: () => "expected a revision, a whole number from 1" })
)

// Descriptions on the fields, not on their types: a type's description is what a refusal says
// was expected ("Expected What to do next., actual 5").
export const PlanStartInput = Schema.Struct({
  goal: Schema.propertySignature(NonEmpty).annotations({ description: "The destination of the research (non-empty)." }),
  limits: Schema.propertySignature(Schema.Array(Schema.String)).annotations({
    description: "Constraints the work must respect."
  }),
  nextAction: Schema.propertySignature(Schema.String).annotations({ description: "What to do next." }),
  expectedRevision: Schema.optional(Revision).annotations({
    description:
      "Only when replacing the goal: the revision you reconciled (or give it as the command's expected revision)."
  })
}).annotations({ identifier: "plan-start" })
export type PlanStartInput = typeof PlanStartInput.Type

export const PlanCheckpointInput = Schema.Struct({
  completedSteps: Schema.optional(
    Schema.Array(Schema.Struct({ summary: Schema.String, id: Schema.optional(NonEmpty) })).pipe(
      Schema.filter((steps) => {
        // Two steps with one id in one input: refused, as journal append refuses a repeated event id.
        const seen = new Map<string, number>()
        for (const [i, s] of steps.entries()) {
          if (s.id === undefined) continue
          const first = seen.get(s.id)
          if (first !== undefined) {
            return { path: [i, "id"], message: `duplicate id '${s.id}' (also at completedSteps.${first})` }
          }
          seen.set(s.id, i)
        }
        return true
      }, { description: "step ids are unique within one input" })
    )
  ),
  sources: Schema.optional(Schema.Array(Schema.Struct({ path: Schema.String, origin: Schema.String }))),
  outputs: Schema.optional(
    Schema.Array(Schema.Struct({ path: Schema.String, dependsOn: Schema.Array(Schema.String) }))
  ),
  unresolved: Schema.optional(Schema.Array(Unresolved)),
  status: Schema.optional(PlanStatus),
  nextAction: Schema.optional(Schema.String),
  expectedRevision: Schema.optional(Revision).annotations({
    description: "The plan's current revision (compare-and-set; or give it to the command as its expected revision)."
  })
}).annotations({ identifier: "plan-checkpoint" })
export type PlanCheckpointInput = typeof PlanCheckpointInput.Type

export const FindingKind = Schema.Literal(
  "source-missing",
  "source-changed",
  "output-missing",
  "output-changed",
  "stale-dependency"
)
export type FindingKind = typeof FindingKind.Type

export const Finding = Schema.Struct({
  kind: FindingKind,
  path: Schema.String,
  expected: Schema.optional(Schema.String),
  actual: Schema.optional(Schema.String),
  dependency: Schema.optional(Schema.String)
})
export type Finding = typeof Finding.Type

export const Verification = Schema.Struct({
  state: Schema.Literal("current", "needs-attention"),
  findings: Schema.Array(Finding)
})
export type Verification = typeof Verification.Type

export const Completion = Schema.Struct({ ready: Schema.Boolean, missing: Schema.Array(Schema.String) })
export type Completion = typeof Completion.Type

export const PlanInspectNone = Schema.Struct({
  ok: Schema.Literal(true),
  state: Schema.Literal("none"),
  hint: Schema.String
})

export const PlanInspectActive = Schema.Struct({
  ok: Schema.Literal(true),
  state: Schema.Literal("active"),
  revision: Schema.Number,
  goal: Schema.String,
  limits: Schema.Array(Schema.String),
  status: PlanStatus,
  nextAction: Schema.String,
  updatedAt: IsoTime,
  progress: Schema.Struct({
    completedSteps: Schema.Number,
    sources: Schema.Number,
    outputs: Schema.Number,
    unresolved: Schema.Number
  }),
  completedSteps: Schema.Array(CompletedStep),
  sources: Schema.Array(RegisteredSource),
  outputs: Schema.Array(RegisteredOutput),
  unresolved: Schema.Array(Unresolved),
  previousGoals: Schema.Array(PreviousGoal),
  verification: Verification,
  completion: Completion,
  note: Schema.String
})
export const PlanInspectOutput = Schema.Union(PlanInspectNone, PlanInspectActive).annotations({
  identifier: "plan-inspect-output"
})
export type PlanInspectOutput = typeof PlanInspectActive.Type | typeof PlanInspectNone.Type

export const PlanStartOutput = Schema.Struct({
  ok: Schema.Literal(true),
  revision: Schema.Number,
  created: Schema.Boolean,
  replaced: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "plan-start-output" })

export const PlanCheckpointOutput = Schema.Struct({
  ok: Schema.Literal(true),
  revision: Schema.Number
}).annotations({ identifier: "plan-checkpoint-output" })

export const PLAN_LIMITS = { sources: 32, outputs: 32, completedSteps: 64, fileBytes: 16 * 1024 * 1024 } as const
export const PLAN_FILE = "plan.md"

/** The largest plan.md dossier reads (the plan's own adapter, and a bound view's check of it). */
export const PLAN_MD_MAX_BYTES = 16 * 1024 * 1024
