/**
 * The monitor's methods that only read: `due`, `unresolvedOutcomes` and `list` over every
 * record (through the store's scans), `showSubscription` and `showRun` of one.
 * A damaged record is listed (by id or as a receipt mismatch), never fatal for the healthy ones,
 * except where one record is asked for by id (then it fails closed).
 */
import * as Effect from "effect/Effect"
import { byCreation } from "../domain/MonitorLayout.js"
import type { DueEntry } from "../domain/MonitorOutputs.js"
import { isDue, nextWindowAt } from "../domain/MonitorRules.js"
import { MONITOR_ID_PATTERN, type SubscriptionRecord } from "../domain/MonitorSchema.js"
import type { MonitorList, MonitorServiceError, MonitorShape } from "../services/Monitor.js"
import type { MonitorStoreShape } from "../services/ports/MonitorStore.js"
import { checkId, type NowGiven, type RecordAccess } from "./MonitorRecordAccess.js"

const dueEntry = (s: SubscriptionRecord, now: Date): DueEntry => ({
  id: s.id,
  revision: s.revision,
  status: s.status,
  kind: s.kind,
  target: s.target,
  mode: s.mode,
  cadence: s.cadence,
  timezone: s.timezone,
  due: isDue(s, now),
  nextDueAt: s.nextDueAt,
  nextWindowAt: nextWindowAt(s),
  activeRunId: s.activeRunId
})

/** The read methods, each run under `readLocked` (the lock when it can be taken without writing). */
export const makeScans = (
  store: MonitorStoreShape,
  records: RecordAccess,
  /** Whether this fiber reads without the lock (then the store writes nothing). */
  readOnly: Effect.Effect<boolean>,
  readLocked: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>
) => {
  const due: NowGiven<MonitorShape["due"]> = (now) =>
    readLocked(
      Effect.gen(function*() {
        // A damaged subscription record is reported by id, not fatal for the healthy ones.
        const { brokenIds, subs } = yield* store.scanSubscriptions({ readOnly: yield* readOnly })
        const damaged = brokenIds.map((id) => ({ id, damaged: "not a valid subscription record" }))
        const active = subs.flatMap((s) => (s.activeRunId === null ? [] : [s.activeRunId]))
        const checks = yield* store.checkRuns(active)
        const receiptMismatches = active.filter((_, i) => checks[i] === "mismatch")
        return { now: now.toISOString(), subscriptions: subs.map((s) => dueEntry(s, now)), damaged, receiptMismatches }
      })
    )

  const unresolvedOutcomes: MonitorShape["unresolvedOutcomes"] = readLocked(
    Effect.map(Effect.flatMap(readOnly, (r) => store.scanRuns({ readOnly: r })), ({ mismatches, runs }) => ({
      outcomes: runs.flatMap((r) => r.unresolved),
      receiptMismatches: mismatches.map((m) => m.runId)
    }))
  )

  const showSubscription = (id: string) =>
    readLocked(Effect.zipRight(checkId(id, MONITOR_ID_PATTERN, "--subscription"), records.loadSubscription(id)))

  const showRun = (id: string) =>
    readLocked(
      Effect.gen(function*() {
        const run = yield* records.loadRun(id)
        return { ...run, binding: yield* records.bindingState(run) }
      })
    )

  const list: MonitorShape["list"] = readLocked(
    Effect.gen(function*() {
      // Every subscription checked from scratch: `list` leaves the scan index alone.
      const { brokenIds, subs } = yield* store.scanSubscriptions({ fromScratch: true, readOnly: yield* readOnly })
      const subscriptions: Array<MonitorList["subscriptions"][number]> = subs.map((s) => ({
        id: s.id,
        status: s.status,
        revision: s.revision,
        kind: s.kind,
        target: s.target,
        nextDueAt: s.nextDueAt,
        nextWindowAt: nextWindowAt(s),
        activeRunId: s.activeRunId
      }))
      for (const id of brokenIds) {
        subscriptions.push({
          id,
          status: "unreadable",
          revision: null,
          kind: null,
          target: null,
          nextDueAt: null,
          nextWindowAt: null,
          activeRunId: null
        })
      }
      const read = yield* store.allRuns
      const good = read.flatMap((r) => (r.run === null ? [] : [r.run])).sort(byCreation)
      const runs: Array<MonitorList["runs"][number]> = good.map((r) => ({
        id: r.id,
        subscriptionId: r.subscriptionId,
        status: r.status,
        revision: r.revision,
        windowStart: r.windowStart
      }))
      for (const r of read) {
        if (r.run === null) {
          runs.push({ id: r.id, subscriptionId: null, status: "unreadable", revision: null, windowStart: null })
        }
      }
      return { subscriptions, runs }
    })
  )

  return { due, unresolvedOutcomes, showSubscription, showRun, list }
}
