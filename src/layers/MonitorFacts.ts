/**
 * The monitor's facts for `dossier next` (spec monitor.md): due subscriptions, runs to resume,
 * undecided outcomes, stale completion bindings, receipt mismatches and broken links, each with
 * the revisions it was computed from. `monitorFacts` reads (every record through the scan, the
 * digest of every bound file once, whether each cited file is there); `monitorFactsOf` decides
 * from what was read. The plan's and the journals' facts, and their order, are in ./MonitorNext.ts.
 */
import * as Effect from "effect/Effect"
import { runPath, subscriptionPath } from "../domain/MonitorLayout.js"
import type { Fact } from "../domain/MonitorOutputs.js"
import { isActiveRun, isDue } from "../domain/MonitorRules.js"
import type { RunScan } from "../domain/RunScan.js"
import type {
  MonitorFilesShape,
  MonitorStoreShape,
  RecoveredTransaction,
  RunsScan,
  SubscriptionsScan
} from "../services/ports/MonitorStore.js"

/** What the facts are decided from. */
export interface FactsInput {
  readonly now: Date
  readonly recovered: ReadonlyArray<RecoveredTransaction>
  readonly subscriptions: SubscriptionsScan
  readonly runs: RunsScan
  /** By path as the run records write it: the SHA-256 of each bound file, null when it cannot be read. */
  readonly digests: ReadonlyMap<string, string | null>
  /** By path as the run records write it: whether each cited file is a regular file. */
  readonly present: ReadonlyMap<string, boolean>
}

/** The files completed runs are bound to (stage, survey), each once. */
export const boundPathsOf = (runs: ReadonlyArray<RunScan>): ReadonlyArray<string> => {
  const bound = new Set<string>()
  for (const run of runs) {
    if (run.status !== "completed" || run.completion === null) continue
    bound.add(run.completion.stage.path)
    if (run.completion.survey !== null) bound.add(run.completion.survey.path)
  }
  return [...bound]
}

/** The files undecided outcomes cite, each once. */
export const citedPathsOf = (runs: ReadonlyArray<RunScan>): ReadonlyArray<string> => {
  const cited = new Set<string>()
  for (const run of runs) for (const u of run.unresolved) for (const c of u.citations) cited.add(c.path)
  return [...cited]
}

/** The monitor's facts, in the order `next` lists them (after the recovered transactions). */
export const monitorFactsOf = (
  { digests, now, present, recovered, runs: scanned, subscriptions }: FactsInput
): Array<Fact> => {
  const out: Array<Fact> = []
  for (const r of recovered) {
    out.push({ kind: "transaction-recovered", transactionId: r.transactionId, direction: r.direction, paths: r.paths })
  }
  const subs = new Map(subscriptions.subs.map((s) => [s.id, s]))
  for (const id of subscriptions.brokenIds) {
    out.push({
      kind: "broken-link",
      runId: null,
      runRevision: null,
      missing: subscriptionPath(id),
      reason: "unreadable subscription record"
    })
  }
  for (const s of subscriptions.subs) {
    if (isDue(s, now)) {
      out.push({
        kind: "subscription-due",
        subscriptionId: s.id,
        subscriptionRevision: s.revision,
        mode: s.mode,
        target: s.target,
        nextDueAt: s.nextDueAt
      })
    }
  }
  const runIds = new Set(scanned.ids)
  for (const s of subscriptions.subs) {
    if (s.activeRunId !== null && !runIds.has(s.activeRunId)) {
      out.push({
        kind: "broken-link",
        runId: s.activeRunId,
        runRevision: null,
        missing: runPath(s.activeRunId),
        reason: `the active run of subscription '${s.id}' (revision ${s.revision}) is gone`
      })
    }
  }
  for (const m of scanned.mismatches) out.push({ kind: "receipt-mismatch", runId: m.runId, runRevision: m.revision })

  for (const run of scanned.runs) {
    const sub = subs.get(run.subscriptionId)
    if (isActiveRun(run.status)) {
      if (sub === undefined) {
        out.push({
          kind: "broken-link",
          runId: run.id,
          runRevision: run.revision,
          missing: subscriptionPath(run.subscriptionId),
          reason: "the run's subscription is gone"
        })
      } else {
        out.push({
          kind: "resume-monitor-run",
          runId: run.id,
          runRevision: run.revision,
          status: run.status,
          subscriptionId: run.subscriptionId,
          subscriptionRevision: sub.revision,
          target: run.target
        })
      }
      continue
    }
    if (run.status !== "completed" || run.completion === null) continue
    // Arrays only when something is off: most completed runs have nothing to report.
    const completion = run.completion
    let gone: Array<string> | null = null
    let stale: Array<string> | null = null
    for (let k = 0; k < (completion.survey === null ? 1 : 2); k++) {
      const b = k === 0 ? completion.stage : completion.survey!
      const d = digests.get(b.path) ?? null
      if (d === null) (gone ??= []).push(b.path)
      else if (d !== b.sha256) (stale ??= []).push(b.path)
    }
    const unresolved = run.unresolved
    let links: Array<string> | null = gone === null ? null : [...gone]
    if (unresolved.length > 0) {
      if (sub === undefined) (links ??= []).push(subscriptionPath(run.subscriptionId))
      for (const u of unresolved) {
        for (const c of u.citations) if (present.get(c.path) !== true) (links ??= []).push(c.path)
      }
    }
    if (links !== null) {
      for (const path of new Set(links)) {
        out.push({
          kind: "broken-link",
          runId: run.id,
          runRevision: run.revision,
          missing: path,
          reason: "a file the completed run is bound to is gone"
        })
      }
    }
    if (stale !== null || gone !== null) {
      out.push({
        kind: "completion-binding-stale",
        runId: run.id,
        runRevision: run.revision,
        paths: [...(stale ?? []), ...(gone ?? [])]
      })
    }
    for (const u of unresolved) {
      out.push({
        kind: "unresolved-outcome",
        runId: run.id,
        runRevision: run.revision,
        outcomeId: u.outcomeId,
        label: u.label
      })
    }
  }
  return out
}

/** Read what the facts are decided from, then decide them (the caller holds the read lock). */
export const makeMonitorFacts = (
  store: MonitorStoreShape,
  files: MonitorFilesShape,
  readOnly: Effect.Effect<boolean>,
  recoveredSoFar: Effect.Effect<ReadonlyArray<RecoveredTransaction>>
) =>
(now: Date) =>
  Effect.gen(function*() {
    const recovered = yield* recoveredSoFar
    const { runs, subscriptions } = yield* store.scan({ readOnly: yield* readOnly })
    // Keyed by each path as the records write it, so another spelling of a bound path still finds its digest.
    const bound = boundPathsOf(runs.runs)
    const hashed = yield* files.digests(bound)
    const digests = new Map<string, string | null>()
    for (let i = 0; i < bound.length; i++) digests.set(bound[i]!, hashed[i] ?? null)
    const present = new Map<string, boolean>()
    for (const path of citedPathsOf(runs.runs)) {
      const kind = yield* files.kind(path).pipe(Effect.orElseSucceed(() => "none" as const))
      present.set(path, kind === "file")
    }
    return monitorFactsOf({ now, recovered, subscriptions, runs, digests, present })
  })
