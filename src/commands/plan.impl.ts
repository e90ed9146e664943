import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UsageError } from "../domain/CliErrors.js"
import { unsafePathWhy } from "../domain/Errors.js"
import { type Finding, PlanCheckpointInput, type PlanInspectOutput, PlanStartInput } from "../domain/Plan.js"
import { expectedOnlyWithReplace } from "../domain/PlanRules.js"
import { commandLineNote } from "../domain/StoreNotes.js"
import { PlanLayer } from "../layers/PlanLayer.js"
import { type InputRef, readInput } from "../services/InputFile.js"
import { Plan } from "../services/Plan.js"
import { usageError, work } from "./Work.js"

const nowOf = (now: Option.Option<Date>) => Option.getOrElse(now, () => new Date())

const short = (sha256: string) => `sha256 ${sha256.slice(0, 12)}…`

/**
 * One verification finding: which file (and dependency), the digest registered, and what is there
 * now: other bytes, nothing, or an entry dossier does not read (a link, a hard-linked file, …) and why.
 */
const findingLine = (f: Finding): string => {
  const found = f.actual === undefined || f.actual === "missing"
    ? "the file is gone"
    : f.actual.startsWith("unsafe:")
    ? `not read: ${unsafePathWhy(f.actual.slice("unsafe:".length))}`
    : `found ${short(f.actual)}`
  const what = f.expected === undefined ? found : `registered ${short(f.expected)}, ${found}`
  return `  - ${f.kind}: ${f.path}${f.dependency ? ` (depends on ${f.dependency})` : ""}: ${what}`
}

const humanInspect = (r: PlanInspectOutput): string => {
  if (r.state === "none") return r.hint
  const lines = [
    `Plan (revision ${r.revision}, ${r.status}): ${r.goal}`,
    `Next action: ${r.nextAction}`,
    `Progress: ${r.progress.completedSteps} step(s), ${r.progress.sources} source(s), ${r.progress.outputs} output(s), ${r.progress.unresolved} unresolved`
  ]
  // Which ones, not only how many: what a newcomer opens next.
  if (r.sources.length > 0) {
    lines.push("Sources:")
    for (const s of r.sources) lines.push(`  ${s.path} (${s.origin})`)
  }
  if (r.outputs.length > 0) {
    lines.push("Outputs:")
    for (const o of r.outputs) {
      lines.push(
        `  ${o.path}${o.dependsOn.length === 0 ? "" : ` (depends on ${o.dependsOn.map((d) => d.path).join(", ")})`}`
      )
    }
  }
  if (r.unresolved.length > 0) {
    lines.push("Unresolved:")
    for (const u of r.unresolved) lines.push(`  ${u.id}: ${u.text}`)
  }
  lines.push(
    `Verification: ${r.verification.state}${
      r.verification.findings.length === 0 ? "" : ` (${r.verification.findings.length} finding(s))`
    }`
  )
  for (const f of r.verification.findings) lines.push(findingLine(f))
  lines.push(r.completion.ready ? "Completion: ready" : `Completion: not ready (${r.completion.missing.join("; ")})`)
  lines.push(r.note)
  return lines.join("\n")
}

/** The way out of "no plan" on the command line and in a tool call (the service names its method). */
export const NO_PLAN_HINT = "No plan yet: run `dossier plan start --input <path>` (MCP: `plan_start`)."

export const inspect = (o: { readonly workdir: string }) =>
  work({
    effect: Effect.map(
      Effect.flatMap(Plan, (plan) => plan.inspect),
      (r): PlanInspectOutput => (r.state === "none"
        ? { ...r, hint: NO_PLAN_HINT }
        : { ...r, note: commandLineNote(r.note) })
    ),
    layer: PlanLayer(o.workdir),
    human: humanInspect
  })

export const start = (o: {
  readonly workdir: string
  readonly input: InputRef
  readonly replaceGoal: boolean
  readonly expected: Option.Option<number>
  readonly now: Option.Option<Date>
}) =>
  // A revision names the plan whose goal is replaced; without --replace-goal it is a mistake of
  // the command line (the flag here, the input file's expectedRevision below), never ignored.
  o.replaceGoal || Option.isNone(o.expected)
    ? startWork(o)
    : usageError(expectedOnlyWithReplace("--expected", "--replace-goal"))

const startWork = (o: Parameters<typeof start>[0]) =>
  work({
    effect: Effect.gen(function*() {
      const input = yield* readInput(PlanStartInput, o.input)
      if (!o.replaceGoal && input.expectedRevision !== undefined) {
        return yield* new UsageError({
          detail: expectedOnlyWithReplace("expectedRevision in the input file", "--replace-goal")
        })
      }
      // A missing argument, as the revision without --replace-goal above is a stray one (exit 2);
      // the library names its own option (`expected`), the command line the flag.
      if (o.replaceGoal && Option.isNone(o.expected) && input.expectedRevision === undefined) {
        return yield* new UsageError({
          detail:
            "--replace-goal needs --expected <revision> (or expectedRevision in the input): the revision you reconciled"
        })
      }
      const plan = yield* Plan
      return yield* plan.start(input, {
        replaceGoal: o.replaceGoal,
        expected: Option.getOrUndefined(o.expected),
        now: nowOf(o.now)
      })
    }),
    layer: PlanLayer(o.workdir),
    human: (r) =>
      r.created
        ? `Plan created (revision ${r.revision}).`
        : r.replaced === true
        ? `Goal replaced (revision ${r.revision}); the old goal is kept under previousGoals.`
        : `A plan with this goal exists already (revision ${r.revision}); nothing changed.`
  })

export const checkpoint = (o: {
  readonly workdir: string
  readonly input: InputRef
  readonly expected: Option.Option<number>
  readonly now: Option.Option<Date>
}) =>
  work({
    effect: Effect.gen(function*() {
      const input = yield* readInput(PlanCheckpointInput, o.input)
      const plan = yield* Plan
      return yield* plan.checkpoint(input, { expected: Option.getOrUndefined(o.expected), now: nowOf(o.now) })
    }),
    layer: PlanLayer(o.workdir),
    human: (r) => `Checkpoint saved (revision ${r.revision}).`
  })
