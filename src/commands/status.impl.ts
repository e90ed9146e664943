/**
 * `dossier status`: one read-only overview across every subsystem, computed from the same reads
 * as `dossier next` (the plan inspected once, the journals listed once, the monitor scanned once).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { LimitExceeded, UnsafePath } from "../domain/Errors.js"
import type { Fact } from "../domain/MonitorOutputs.js"
import type { PlanInspectOutput } from "../domain/Plan.js"
import type { CorruptPlan } from "../domain/PlanErrors.js"
import { journalFactsOf, orderFacts, planErrorFact, planFactsOf } from "../layers/MonitorNext.js"
import { StatusLayer } from "../layers/StatusLayer.js"
import { Journal } from "../services/Journal.js"
import { Monitor } from "../services/Monitor.js"
import { Plan } from "../services/Plan.js"
import { relativeFromCwd } from "./Cwd.js"
import { studyLine, studyOverview } from "./journal.impl.js"
import { factText } from "./monitor.impl.js"
import { grantsLine, grantsOverview } from "./status.grants.js"
import { work } from "./Work.js"

/**
 * What status (like next) does not check, because it would re-hash files: said in every answer so
 * that "nothing needs attention" is never read as "everything verified".
 */
const UNCHECKED = ["journal-artifacts", "execution-outputs"] as const
const UNCHECKED_TEXT =
  "files linked by journals, checked by dossier journal inspect --study <id> --verify; outputs of confined runs, checked by dossier exec show --execution <id> --verify"

/**
 * The one command to run next, from the first fact that needs attention, else a damaged grant,
 * else the plan's state.
 */
const suggestionOf = (facts: ReadonlyArray<Fact>, hasPlan: boolean, damagedGrants: number): string => {
  const f = facts[0]
  if (f !== undefined) {
    switch (f.kind) {
      case "subscription-due":
        return `dossier monitor create-due-run --subscription ${f.subscriptionId}`
      case "resume-monitor-run":
        return `dossier monitor show --run ${f.runId}`
      case "unresolved-outcome":
        return `dossier monitor set-outcome-disposition --run ${f.runId} --outcome ${f.outcomeId} --disposition <acknowledged|dismissed|…>`
      case "journal-unterminated-tail":
        return `dossier journal recover-tail --study ${f.study}`
      case "journal-corrupt":
        return `dossier journal inspect --study ${f.study}`
      case "plan-needs-attention":
      case "plan-corrupt":
        return "dossier plan inspect"
      default:
        return "dossier next"
    }
  }
  if (damagedGrants > 0) return "dossier grant list"
  return hasPlan ? "dossier plan inspect" : "dossier plan start --input <path>"
}

export const status = (o: { readonly workdir: string; readonly now: Option.Option<Date> }) => {
  const now = Option.getOrElse(o.now, () => new Date())
  const effect = Effect.gen(function*() {
    const monitorService = yield* Monitor
    const journal = yield* Journal
    const monitorFacts = yield* monitorService.facts({ now })
    // A plan.md that cannot be read is a fact (as in next); an I/O failure is a refusal.
    type Inspected = Either.Either<PlanInspectOutput, CorruptPlan | UnsafePath | LimitExceeded>
    const unreadable = (e: CorruptPlan | UnsafePath | LimitExceeded) => Effect.succeed<Inspected>(Either.left(e))
    const inspected = yield* Effect.flatMap(Plan, (p) => p.inspect).pipe(
      Effect.map((out): Inspected => Either.right(out)),
      Effect.catchTags({ CorruptPlan: unreadable, UnsafePath: unreadable, LimitExceeded: unreadable })
    )
    const planOut = Either.isRight(inspected) ? inspected.right : null
    const planFacts = Either.isRight(inspected) ? planFactsOf(inspected.right) : [planErrorFact(inspected.left)]
    const rows = yield* journal.studies
    const studies = yield* Effect.forEach(rows, (row) => studyOverview(journal, row))
    const facts = orderFacts(monitorFacts, planFacts, journalFactsOf(rows))
    const subscriptions = yield* monitorService.subscriptionCount
    const count = (kind: Fact["kind"]) => facts.filter((f) => f.kind === kind).length
    const grants = yield* grantsOverview(now)
    const plan = planOut === null || planOut.state === "none"
      ? null
      : {
        goal: planOut.goal,
        status: planOut.status,
        revision: planOut.revision,
        nextAction: planOut.nextAction,
        verification: planOut.verification,
        completion: planOut.completion
      }
    return {
      workdir: relativeFromCwd(o.workdir),
      now: now.toISOString(),
      plan,
      // plan is null both without a plan and with a plan.md that cannot be read: this says which.
      planError: Either.isLeft(inspected) ? { _tag: inspected.left._tag, message: inspected.left.message } : null,
      studies,
      monitor: {
        subscriptions,
        due: count("subscription-due"),
        activeRuns: count("resume-monitor-run"),
        unresolvedOutcomes: count("unresolved-outcome")
      },
      grants,
      facts,
      unchecked: UNCHECKED,
      suggestion: suggestionOf(
        facts,
        plan !== null || Either.isLeft(inspected),
        grants.damaged.length + grants.unreadableExecutions.length
      )
    }
  })
  return work({
    effect,
    layer: StatusLayer(o.workdir),
    human: (r) => {
      const lines: Array<string> = []
      if (r.planError !== null) lines.push(`plan: unreadable (${r.planError._tag}): ${r.planError.message}`)
      else if (r.plan === null) lines.push("plan: none yet")
      else {
        lines.push(`plan (revision ${r.plan.revision}, ${r.plan.status}): ${r.plan.goal}`)
        lines.push(`  next action: ${r.plan.nextAction}`)
        lines.push(
          `  verification: ${r.plan.verification.state}; completion: ${r.plan.completion.ready ? "ready" : "not ready"}`
        )
      }
      lines.push(r.studies.length === 0 ? "studies: none" : `studies (${r.studies.length}):`)
      for (const s of r.studies) lines.push(`  ${studyLine(s)}`)
      const m = r.monitor
      lines.push(
        `monitor: ${m.subscriptions} subscription(s), ${m.due} due, ${m.activeRuns} active run(s), ${m.unresolvedOutcomes} unresolved outcome(s)`
      )
      lines.push(grantsLine(r.grants))
      if (r.facts.length === 0 && r.grants.damaged.length + r.grants.unreadableExecutions.length > 0) {
        lines.push(`needs attention: what is damaged above`)
      } else if (r.facts.length === 0) {
        lines.push(`nothing needs attention in what status checks (not checked: ${UNCHECKED_TEXT})`)
      } else {
        lines.push(`needs attention (${r.facts.length}):`)
        for (const f of r.facts.slice(0, 20)) lines.push(`  - ${factText(f)}`)
        if (r.facts.length > 20) lines.push(`  … and ${r.facts.length - 20} more (dossier next)`)
      }
      lines.push(`next: ${r.suggestion}`)
      return lines.join("\n")
    }
  })
}
