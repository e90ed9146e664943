/**
 * The monitor's methods that only read: `due`, `unresolvedOutcomes` and `list` over every
 * record (through the scan, ./MonitorScanIndex.ts), `showSubscription` and `showRun` of one.
 * A damaged record is listed (by id or as a receipt mismatch), never fatal for the healthy ones,
 * except where one record is asked for by id (then it fails closed).
 */
import * as Effect from "effect/Effect"
import type { DueEntry } from "../domain/MonitorOutputs.js"
import { isDue } from "../domain/MonitorRules.js"
import { MONITOR_ID_PATTERN, type SubscriptionRecord } from "../domain/MonitorSchema.js"
import { scanRunText, verifyRunText } from "../domain/RunScan.js"
import type { MonitorList, MonitorServiceError, MonitorShape } from "../services/Monitor.js"
import type { NowGiven } from "./Now.js"
import { byCreation, checkId, RECORD_MAX, type Records, RUNS_DIR, runPath, SUBSCRIPTIONS_DIR, textOf } from "./MonitorRecords.js"
import type { Scan } from "./MonitorScanIndex.js"

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
  activeRunId: s.activeRunId
})

/** The read methods, each run under `readLocked` (the lock when it can be taken without writing). */
export const makeScans = (
  records: Records,
  scan: Scan,
  readLocked: <A, E>(self: Effect.Effect<A, E>) => Effect.Effect<A, E | MonitorServiceError>
) => {
  const due: NowGiven<MonitorShape["due"]> = (now) =>
    readLocked(
      Effect.gen(function*() {
        // A damaged subscription record is reported by id, not fatal for the healthy ones.
        const { subscriptions: { brokenIds, subs } } = yield* scan(["subscriptions"])
        const damaged = brokenIds.map((id) => ({ id, damaged: "not a valid subscription record" }))
        const active = subs.flatMap((s) => (s.activeRunId === null ? [] : [s.activeRunId]))
        const read = yield* records.readAllWith(active.map(runPath), (bytes) => textOf(bytes), RECORD_MAX)
        const receiptMismatches = read.flatMap((r, i) =>
          r.error?._tag === "FileNotFound" ? [] : scanRunText(active[i]!, r.value ?? "")._tag === "Ok" ? [] : [active[i]!]
        )
        return { now: now.toISOString(), subscriptions: subs.map((s) => dueEntry(s, now)), damaged, receiptMismatches }
      })
    )

  const unresolvedOutcomes: MonitorShape["unresolvedOutcomes"] = readLocked(
    Effect.map(scan(["runs"]), ({ runs: { mismatches, runs } }) => ({
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
      const { subscriptions: { broken, subs } } = yield* scan(["subscriptions"], true)
      const subscriptions: Array<MonitorList["subscriptions"][number]> = subs.map((s) => ({
        id: s.id,
        status: s.status,
        revision: s.revision,
        kind: s.kind,
        target: s.target,
        nextDueAt: s.nextDueAt,
        activeRunId: s.activeRunId
      }))
      for (const p of broken) {
        const id = p.slice(SUBSCRIPTIONS_DIR.length + 1, -".json".length)
        subscriptions.push({ id, status: "unreadable", revision: null, kind: null, target: null, nextDueAt: null, activeRunId: null })
      }
      const entries = yield* records.listJson(RUNS_DIR)
      const read = yield* records.readAllWith(entries.map((e) => runPath(e.id)), (bytes, i) => {
        const loaded = verifyRunText(entries[i]!.id, textOf(bytes))
        return loaded._tag === "Ok" ? loaded.run : null
      }, RECORD_MAX)
      const good = read.flatMap((r) => (r.value === null ? [] : [r.value])).sort(byCreation)
      const runs: Array<MonitorList["runs"][number]> = good.map((r) => ({
        id: r.id,
        subscriptionId: r.subscriptionId,
        status: r.status,
        revision: r.revision,
        windowStart: r.windowStart
      }))
      read.forEach((r, i) => {
        if (r.value === null) runs.push({ id: entries[i]!.id, subscriptionId: null, status: "unreadable", revision: null, windowStart: null })
      })
      return { subscriptions, runs }
    })
  )

  return { due, unresolvedOutcomes, showSubscription, showRun, list }
}
