/**
 * `dossier next`: the factual candidates across the work folder. Monitor facts come from the
 * Monitor; plan facts from `Plan.inspect`; journal facts from `Journal.studies`. Each fact
 * carries the revisions it was computed from. Unreadable state is a fact, never skipped.
 */
import * as Effect from "effect/Effect"
import type { IoError, LimitExceeded, LockTimeout, UnsafePath } from "../domain/Errors.js"
import type { StudyRow } from "../domain/JournalOutput.js"
import type { Fact } from "../domain/MonitorOutputs.js"
import type { PlanInspectOutput } from "../domain/Plan.js"
import type { CorruptPlan } from "../domain/PlanErrors.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"
import { Journal } from "../services/Journal.js"
import { Monitor, type MonitorOptions, type MonitorServiceError } from "../services/Monitor.js"
import { Plan } from "../services/Plan.js"

/** The plan's facts, from what `Plan.inspect` answered. */
export const planFactsOf = (out: PlanInspectOutput): ReadonlyArray<Fact> =>
  out.state === "active" && out.verification.state === "needs-attention"
    ? [{
      kind: "plan-needs-attention",
      planRevision: out.revision,
      findings: out.verification.findings.map((f) => ({ kind: f.kind, path: f.path }))
    }]
    : []

/** A plan.md that cannot be read is a fact, not a failure. */
export const planErrorFact = (e: CorruptPlan | UnsafePath | LimitExceeded): Fact =>
  e._tag === "CorruptPlan"
    ? { kind: "plan-corrupt", reason: e.reason }
    : e._tag === "UnsafePath"
    ? { kind: "plan-corrupt", reason: `plan.md: ${e.reason}` }
    : { kind: "plan-corrupt", reason: "plan.md is too large" }

/** What reading the plan may fail with that is not a fact (a shared store's refusals among them). */
type PlanFactsError = IoError | StoreUnavailable | LockTimeout

export const planFacts: Effect.Effect<ReadonlyArray<Fact>, PlanFactsError, Plan> = Effect.flatMap(
  Plan,
  (plan) =>
    plan.inspect.pipe(
      Effect.map(planFactsOf),
      Effect.catchTags({
        CorruptPlan: (e) => Effect.succeed<ReadonlyArray<Fact>>([planErrorFact(e)]),
        UnsafePath: (e) => Effect.succeed<ReadonlyArray<Fact>>([planErrorFact(e)]),
        LimitExceeded: (e) => Effect.succeed<ReadonlyArray<Fact>>([planErrorFact(e)])
      })
    )
)

/** The journals' facts, from the rows of `Journal.studies`. */
export const journalFactsOf = (rows: ReadonlyArray<StudyRow>): ReadonlyArray<Fact> =>
  rows.flatMap((row): ReadonlyArray<Fact> =>
    row.tail === "unterminated"
      ? [{ kind: "journal-unterminated-tail", study: row.study, tailBytes: row.tailBytes, head: row.head }]
      : row.tail === "corrupt"
      ? [{ kind: "journal-corrupt", study: row.study, corruptLine: row.corruptLine, head: row.head }]
      : []
  )

export const journalFacts: Effect.Effect<
  ReadonlyArray<Fact>,
  IoError | MonitorServiceError | StoreUnavailable,
  Journal
> = Effect.flatMap(
  Journal,
  (journal) => Effect.map(journal.studies, journalFactsOf)
)

/** The order of `next`: recovered transactions first, then plan, journals, and the monitor's own facts. */
export const orderFacts = (
  monitor: ReadonlyArray<Fact>,
  plan: ReadonlyArray<Fact>,
  journals: ReadonlyArray<Fact>
): ReadonlyArray<Fact> => [
  ...monitor.filter((f) => f.kind === "transaction-recovered"),
  ...plan,
  ...journals,
  ...monitor.filter((f) => f.kind !== "transaction-recovered")
]

/** Every fact: recovered transactions first, then plan, journals, and the monitor's own facts. */
export const nextFacts = (
  options?: MonitorOptions
): Effect.Effect<ReadonlyArray<Fact>, MonitorServiceError | StoreUnavailable, Monitor | Plan | Journal> =>
  Effect.gen(function*() {
    const service = yield* Monitor
    const monitor = yield* service.facts(options)
    const plan = yield* planFacts
    const journals = yield* journalFacts
    return orderFacts(monitor, plan, journals)
  })
