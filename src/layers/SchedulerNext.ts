/**
 * `dossier next`: the factual candidates across the work folder. Monitor facts come from the
 * Scheduler; plan facts from `Plan.inspect`; journal facts from `Journal.studies`. Each fact
 * carries the revisions it was computed from. Unreadable state is a fact, never skipped.
 */
import * as Effect from "effect/Effect"
import type { Fact } from "../domain/Monitor.js"
import { Journal } from "../services/Journal.js"
import { Plan } from "../services/Plan.js"
import { Scheduler, type SchedulerError } from "../services/Scheduler.js"
import type { IoError } from "../domain/Errors.js"

export const planFacts: Effect.Effect<ReadonlyArray<Fact>, IoError, Plan> = Effect.flatMap(Plan, (plan) =>
  plan.inspect.pipe(
    Effect.map((out): ReadonlyArray<Fact> =>
      out.state === "active" && out.verification.state === "needs-attention"
        ? [{
          kind: "plan-needs-attention",
          planRevision: out.revision,
          findings: out.verification.findings.map((f) => ({ kind: f.kind, path: f.path }))
        }]
        : []
    ),
    Effect.catchTags({
      CorruptPlan: (e) => Effect.succeed<ReadonlyArray<Fact>>([{ kind: "plan-corrupt", reason: e.reason }]),
      UnsafePath: (e) => Effect.succeed<ReadonlyArray<Fact>>([{ kind: "plan-corrupt", reason: `plan.md: ${e.reason}` }]),
      LimitExceeded: () => Effect.succeed<ReadonlyArray<Fact>>([{ kind: "plan-corrupt", reason: "plan.md is too large" }])
    })
  )
)

export const journalFacts: Effect.Effect<ReadonlyArray<Fact>, IoError | SchedulerError, Journal> = Effect.flatMap(
  Journal,
  (journal) =>
    Effect.map(journal.studies, (rows) =>
      rows.flatMap((row): ReadonlyArray<Fact> =>
        row.tail === "unterminated"
          ? [{ kind: "journal-unterminated-tail", study: row.study, tailBytes: row.tailBytes, head: row.head }]
          : row.tail === "corrupt"
          ? [{ kind: "journal-corrupt", study: row.study, corruptLine: row.corruptLine, head: row.head }]
          : []
      )
    )
)

/** Every fact: recovered transactions first, then plan, journals, and the monitor's own facts. */
export const nextFacts = (now?: Date): Effect.Effect<ReadonlyArray<Fact>, SchedulerError, Scheduler | Plan | Journal> =>
  Effect.gen(function*() {
    const scheduler = yield* Scheduler
    const monitor = yield* scheduler.facts(now)
    const recovered = monitor.filter((f) => f.kind === "transaction-recovered")
    const rest = monitor.filter((f) => f.kind !== "transaction-recovered")
    const plan = yield* planFacts
    const journals = yield* journalFacts
    return [...recovered, ...plan, ...journals, ...rest]
  })
