/** Handlers of `dossier monitor …` (`dossier next`'s is in ./next.impl.ts). */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import type { DossierError } from "../domain/AllErrors.js"
import { decodeWith } from "../domain/Decode.js"
import { InvalidInput } from "../domain/Errors.js"
import { DispositionRefused } from "../domain/MonitorErrors.js"
import type { Fact } from "../domain/MonitorOutputs.js"
import { nextWindowAt } from "../domain/MonitorRules.js"
import {
  CreateDueRunInput,
  FinishRunInput,
  MONITOR_VERIFICATION_NOTE,
  OutcomeDispositionInput,
  type RunRecord,
  SubscriptionInput,
  type SubscriptionRecord,
  SubscriptionStatusInput,
  SubscriptionUpdateInput,
  TransitionRunFile,
  type TransitionRunInput
} from "../domain/MonitorSchema.js"
import { MonitorLayer } from "../layers/MonitorLayer.js"
import { FileStore } from "../services/FileStore.js"
import { type InputRef, readInput } from "../services/InputFile.js"
import { Monitor, type MonitorShape } from "../services/Monitor.js"
import { Workdir } from "../services/Workdir.js"
import { isBoundFolder } from "./Cwd.js"
import {
  createDueRunFlags,
  setOutcomeDispositionFlags,
  setSubscriptionStatusFlags,
  transitionRunFlags
} from "./monitor.js"
import { type Flags, isChoiceFlag, type ValuesOf } from "./Spec.js"
import { type AnyWork, type CommandWork, usageError } from "./Work.js"

interface Base {
  readonly workdir: string
}
interface WithNow extends Base {
  readonly now: Option.Option<Date>
}
interface WithInput extends WithNow {
  readonly input: InputRef
}

const nowOf = (o: WithNow) => Option.getOrElse(o.now, () => new Date())

const inMonitor = <A extends object>(
  o: Base,
  body: (s: MonitorShape) => Effect.Effect<A, DossierError, Monitor | FileStore | Workdir>,
  human: (a: A) => string
): AnyWork => {
  const w: CommandWork<A, Monitor | FileStore | Workdir> = {
    effect: Effect.flatMap(Monitor, body),
    layer: MonitorLayer(o.workdir),
    human
  }
  return w
}

const withInputFile = <I, A extends object>(
  o: WithInput,
  schema: Schema.Schema<I, any, never>,
  body: (s: MonitorShape, input: I, now: Date) => Effect.Effect<A, DossierError>,
  human: (a: A) => string
): AnyWork =>
  inMonitor(o, (s) => Effect.flatMap(readInput(schema, o.input), (input) => body(s, input, nowOf(o))), human)

interface WithInputOrFlags extends WithNow {
  readonly input: Option.Option<InputRef>
}

const setPath = (target: Record<string, unknown>, dotted: string, value: unknown) => {
  const keys = dotted.split(".")
  let at = target
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>
  at[keys[keys.length - 1]!] = value
}

/**
 * The input of a small monitor action: the `--input` file, or the same fields given as the flags
 * that declare a `field` (validated by the same Schema; an issue names the flag). Both, neither, a
 * `needed` flag left out, or a value none of its flag's choices (`--status bogus`) is a UsageError.
 */
const withInputOrFlags = <F extends Flags, I, A extends object>(
  o: ValuesOf<F, {}> & WithInputOrFlags,
  flags: F,
  command: string,
  schema: Schema.Schema<I, any, never>,
  body: (s: MonitorShape, input: I, now: Date) => Effect.Effect<A, DossierError>,
  human: (a: A) => string
): AnyWork => {
  const values: Readonly<Record<string, unknown>> = o
  const fields = Object.entries(flags).flatMap(([key, f]) =>
    "field" in f && f.field !== undefined
      ? [{
        flag: `--${f.name}`,
        field: f.field,
        needed: f.needed === true,
        value: values[key] as Option.Option<unknown>
      }]
      : []
  )
  const given = fields.filter((f) => Option.isSome(f.value))
  const choices = new Set(Object.values(flags).filter(isChoiceFlag).map((f) => `--${f.name}`))
  if (Option.isSome(o.input)) {
    if (given.length > 0) {
      return usageError(`${command}: give --input or the flags (${given.map((f) => f.flag).join(", ")}), not both`)
    }
    return withInputFile({ ...o, input: o.input.value }, schema, body, human)
  }
  const missing = fields.filter((f) => f.needed && Option.isNone(f.value)).map((f) => f.flag)
  if (missing.length > 0) return usageError(`${command} needs --input <path> or the flags ${missing.join(", ")}`)
  const value: Record<string, unknown> = {}
  for (const f of given) setPath(value, f.field, Option.getOrThrow(f.value))
  const decoded = Either.mapLeft(decodeWith(schema)(value), (e) =>
    new InvalidInput({
      issues: e.issues.map((i) => {
        const hit = fields.find((f) => i.path === f.field || i.path.startsWith(`${f.field}.`))
        return hit === undefined ? i : { path: hit.flag, message: i.message }
      })
    }))
  const notAChoice = Either.isLeft(decoded) ? decoded.left.issues.filter((i) => choices.has(i.path)) : []
  if (notAChoice.length > 0) return usageError(notAChoice.map((i) => `${i.path} <status>: ${i.message}`).join("; "))
  // A refusal that names what is missing names the option, as the action was given as options.
  const asOptions = (e: DossierError): DossierError => {
    if (e._tag !== "DispositionRefused" || e.missing === undefined) return e
    const hit = fields.find((f) => f.field === e.missing || f.field.startsWith(`${e.missing}.`))
    return hit === undefined
      ? e
      : new DispositionRefused({ outcomeId: e.outcomeId, reason: e.reason, missing: hit.flag })
  }
  return inMonitor(
    o,
    (s) => Effect.mapError(Effect.flatMap(decoded, (input) => body(s, input, nowOf(o))), asOptions),
    human
  )
}

const cadenceText = (s: Pick<SubscriptionRecord, "cadence">) =>
  `every ${s.cadence.every} ${s.cadence.unit}${s.cadence.every === 1 ? "" : "s"}`

/**
 * When a subscription is next due, said alike by `show`, `list` and `due` (from `nextWindowAt`,
 * src/domain/MonitorRules.ts): with an active run, `nextDueAt` is when it fell due (the first
 * window its run coalesced, in the past), and the next window is the one after the run's.
 */
const nextDueText = (
  s: { readonly nextDueAt: string; readonly nextWindowAt: string; readonly activeRunId: string | null }
): string =>
  s.activeRunId === null
    ? `next due ${s.nextWindowAt}`
    : `active run ${s.activeRunId} (due since ${s.nextDueAt}); next window after it ${s.nextWindowAt}`

const subscriptionText = (s: SubscriptionRecord) =>
  `subscription ${s.id} (revision ${s.revision}, ${s.status}): ${s.kind} "${s.target}", ${
    cadenceText(s)
  } in ${s.timezone}, mode ${s.mode}, ${nextDueText({ ...s, nextWindowAt: nextWindowAt(s) })}`

const runText = (r: RunRecord) =>
  `run ${r.id} (revision ${r.revision}, ${r.status}) of ${r.subscriptionId}, window ${r.windowIndex} from ${r.windowStart}` +
  `${r.coalescedWindows > 1 ? ` (${r.coalescedWindows} windows coalesced)` : ""}; receipt ${r.receiptDigest}`

/** A run's outcomes for a person (`show --run`): each with its label, reason and disposition. */
const outcomesText = (outcomes: RunRecord["outcomes"]): ReadonlyArray<string> =>
  outcomes.length === 0 ? [] : [
    `${outcomes.length} outcome(s):`,
    ...outcomes.map((u) =>
      `  ${u.id}: ${u.label} — ${u.reason}; ${
        u.disposition === null ? "no disposition yet" : `disposition ${u.disposition.value}`
      }`
    )
  ]

export const createSubscription = (o: WithInput) =>
  withInputFile(
    o,
    SubscriptionInput,
    (s, input, now) => s.createSubscription(input, { now }),
    (r) => `${r.created ? "created" : "already there (no change)"}: ${subscriptionText(r.subscription)}`
  )

export const updateSubscription = (o: WithInput) =>
  withInputFile(
    o,
    SubscriptionUpdateInput,
    (s, input, now) => s.updateSubscription(input, { now }),
    (r) => `updated${r.gridChanged ? " (new window grid)" : ""}: ${subscriptionText(r.subscription)}`
  )

export const setSubscriptionStatus = (o: ValuesOf<typeof setSubscriptionStatusFlags, {}>) =>
  withInputOrFlags(
    o,
    setSubscriptionStatusFlags,
    "monitor set-subscription-status",
    SubscriptionStatusInput,
    (s, input, now) => s.setSubscriptionStatus(input, { now }),
    (r) => `${r.changed ? "status set" : "no change"}: ${subscriptionText(r.subscription)}`
  )

export const due = (o: WithNow) =>
  inMonitor(o, (s) => s.due({ now: nowOf(o) }), (r) =>
    r.subscriptions.length === 0 && r.damaged.length === 0
      ? "no subscriptions"
      : [
        ...r.subscriptions.map((d) =>
          `${d.due ? "DUE " : "    "}${d.id}: "${d.target}" ${d.status}, ${cadenceText(d)}, ${
            d.due ? `due since ${d.nextDueAt}` : nextDueText(d)
          }, ${d.mode === "remind" ? "remind the user first" : "may run straight away"}`
        ),
        ...r.damaged.map((d) => `damaged: subscription ${d.id}: ${d.damaged}`),
        ...r.receiptMismatches.map((id) => `receipt mismatch: run ${id} (fail closed)`)
      ].join("\n"))

export const createDueRun = (o: ValuesOf<typeof createDueRunFlags, {}>) =>
  withInputOrFlags(
    o,
    createDueRunFlags,
    "monitor create-due-run",
    CreateDueRunInput,
    (s, input, now) => s.createDueRun(input, { now }),
    (r) => `${r.created ? "created" : "already there (same window)"}: ${runText(r.run)}`
  )

export const transitionRun = (o: ValuesOf<typeof transitionRunFlags, {}>) =>
  withInputOrFlags(
    o,
    transitionRunFlags,
    "monitor transition-run",
    // The file may name any status: transitionRun refuses an unreachable one as InvalidTransition.
    TransitionRunFile,
    (s, input, now) => s.transitionRun(input as TransitionRunInput, { now }),
    (r) => runText(r.run)
  )

export const finishRun = (o: WithInput) =>
  withInputFile(
    o,
    FinishRunInput,
    (s, input, now) => Effect.map(s.finishRun(input, { now }), (r) => ({ ...r, note: MONITOR_VERIFICATION_NOTE })),
    (r) =>
      `completed: ${
        runText(r.run)
      } with ${r.run.outcomes.length} outcome(s); subscription next due ${r.subscription.nextDueAt}` +
      `${r.reported ? "; report line written" : ""}\n${r.note}`
  )

export const setOutcomeDisposition = (o: ValuesOf<typeof setOutcomeDispositionFlags, {}>) =>
  withInputOrFlags(
    o,
    setOutcomeDispositionFlags,
    "monitor set-outcome-disposition",
    OutcomeDispositionInput,
    (s, input, now) => s.setOutcomeDisposition(input, { now }),
    (r) =>
      `${
        r.changed ? "set" : "already set (no change)"
      }: outcome ${r.outcome.id} of run ${r.runId} is ${r.outcome.disposition?.value}`
  )

export const list = (o: Base) =>
  inMonitor(o, (s) => s.list, (r) =>
    r.subscriptions.length === 0 && r.runs.length === 0
      ? "no subscriptions and no runs"
      : [
        `${r.subscriptions.length} subscription(s):`,
        ...r.subscriptions.map((x) =>
          x.status === "unreadable"
            ? `  ${x.id}: unreadable`
            : `  ${x.id} (revision ${x.revision}, ${x.status}): ${x.kind} "${x.target}", ${
              nextDueText({
                nextDueAt: x.nextDueAt ?? "",
                nextWindowAt: x.nextWindowAt ?? "",
                activeRunId: x.activeRunId
              })
            }`
        ),
        `${r.runs.length} run(s):`,
        ...r.runs.map((x) =>
          x.status === "unreadable"
            ? `  ${x.id}: unreadable`
            : `  ${x.id} (revision ${x.revision}, ${x.status}) of ${x.subscriptionId}, window from ${x.windowStart}`
        )
      ].join("\n"))

export const unresolvedOutcomes = (o: Base) =>
  inMonitor(
    o,
    (s) => Effect.map(s.unresolvedOutcomes, (r) => ({ count: r.outcomes.length, ...r })),
    (r) =>
      r.count === 0 && r.receiptMismatches.length === 0
        ? "no unresolved outcomes"
        : [
          ...r.outcomes.map((u) => `${u.runId} ${u.outcomeId}: ${u.label} — ${u.reason}`),
          ...r.receiptMismatches.map((id) => `receipt mismatch: run ${id} (fail closed)`)
        ].join("\n")
  )

/** A malformed id given as a flag is refused naming the flag, as the other monitor actions do. */
const namingFlag = (flag: string) => (e: DossierError): DossierError =>
  e._tag === "InvalidInput"
    ? new InvalidInput({ issues: e.issues.map((i) => (i.path === "" ? { ...i, path: flag } : i)) })
    : e

/** Added to `show --run` in a bound folder when the run reads stale because a file it was completed with is not here. */
export const showBoundNote = (missing: ReadonlyArray<string>) =>
  `This folder is bound to a shared dossier: ${missing.join(", ")}, which this run was completed with, ${
    missing.length === 1 ? "is" : "are"
  } missing here, so its binding reads stale; the shared dossier holds ${
    missing.length === 1 ? "it" : "them"
  } and \`dossier pull\` brings ${missing.length === 1 ? "it" : "them"}.`

/** The stage and survey files a stale run of a bound folder was completed with that this folder lacks. */
const missingHere = (run: RunRecord & { readonly binding: "verified" | "stale" | null }) =>
  Effect.gen(function*() {
    if (run.binding !== "stale" || run.completion === null) return []
    const { root } = yield* Workdir
    if (!isBoundFolder(root)) return []
    const files = yield* FileStore
    const missing: Array<string> = []
    for (const b of [run.completion.stage, ...(run.completion.survey === null ? [] : [run.completion.survey])]) {
      const stat = yield* Effect.orElseSucceed(files.stat(b.path), () => Option.some(null))
      if (Option.isNone(stat)) missing.push(b.path)
    }
    return missing
  })

export const show = (
  o: Base & { readonly subscription: Option.Option<string>; readonly run: Option.Option<string> }
) => {
  if (Option.isSome(o.subscription) === Option.isSome(o.run)) {
    return usageError("monitor show needs exactly one of --subscription <id> or --run <id>")
  }
  return Option.match(o.subscription, {
    onSome: (id) =>
      inMonitor(
        o,
        (s) =>
          Effect.map(
            Effect.mapError(s.showSubscription(id), namingFlag("--subscription")),
            (subscription) => ({ subscription, nextWindowAt: nextWindowAt(subscription) })
          ),
        (r) => subscriptionText(r.subscription)
      ),
    onNone: () =>
      inMonitor(
        o,
        (s) =>
          Effect.flatMap(
            Effect.mapError(s.showRun(Option.getOrThrow(o.run)), namingFlag("--run")),
            (run) =>
              Effect.map(
                missingHere(run),
                (missing) => missing.length === 0 ? { run } : { run, note: showBoundNote(missing) }
              )
          ),
        (r) =>
          [
            `${runText(r.run)}; completion binding ${r.run.binding ?? "none yet"}`,
            ...outcomesText(r.run.outcomes),
            ...("note" in r ? [r.note] : [])
          ].join("\n")
      )
  })
}

export const factText = (f: Fact): string => {
  switch (f.kind) {
    case "subscription-due":
      return `subscription ${f.subscriptionId} is due since ${f.nextDueAt} ("${f.target}"; ${
        f.mode === "remind" ? "remind the user first" : "may run straight away"
      })`
    case "resume-monitor-run":
      return `run ${f.runId} is ${f.status}: resume it ("${f.target}")`
    case "unresolved-outcome":
      return `outcome ${f.outcomeId} of run ${f.runId} (${f.label}) awaits a disposition`
    case "completion-binding-stale":
      return `run ${f.runId}: the bound bytes changed (${f.paths.join(", ")}); its completion is no longer verified`
    case "receipt-mismatch":
      return `run ${f.runId}: its frozen receipt no longer matches; nothing uses it`
    case "broken-link":
      return `${f.runId === null ? "monitor state" : `run ${f.runId}`}: ${f.missing} — ${f.reason}`
    case "plan-needs-attention":
      return `the plan (revision ${f.planRevision}) needs attention: ${
        f.findings.map((x) => `${x.kind} ${x.path}`).join(", ")
      }`
    case "plan-corrupt":
      return `plan.md cannot be read: ${f.reason}`
    case "journal-unterminated-tail":
      return `study ${f.study}: its journal ends in an unterminated line (${f.tailBytes} bytes)`
    case "journal-corrupt":
      return `study ${f.study}: its journal is damaged`
    case "transaction-recovered":
      return `an interrupted monitor transaction was ${f.direction} (${f.paths.length} file(s))`
  }
}
