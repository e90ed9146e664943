/**
 * The monitor's store in memory: records in maps, reports in a list, `commit` all or nothing
 * (every compare-and-set checked before anything is stored). Nothing is ever half done, so
 * `recover` finds nothing. Records are kept as given (the logic checks them before it writes).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { StaleRevision } from "../../domain/Errors.js"
import { ConflictingEvent } from "../../domain/JournalErrors.js"
import { byCreation } from "../../domain/MonitorLayout.js"
import type { ReportLine, RunRecord, SubscriptionRecord } from "../../domain/MonitorSchema.js"
import { runScanOf } from "../../domain/RunScan.js"
import {
  MonitorStore,
  type MonitorStoreError,
  type MonitorStoreShape,
  type MonitorWrite
} from "../../services/ports/MonitorStore.js"
import type { LoggedEvent, VersionedRecords } from "../../services/Store.js"

interface State {
  readonly subscriptions: ReadonlyMap<string, SubscriptionRecord>
  readonly runs: ReadonlyMap<string, RunRecord>
  readonly reports: ReadonlyArray<LoggedEvent<ReportLine>>
}

const sorted = (keys: Iterable<string>) => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

/** Apply the writes to a state, or the first refusal (nothing applied). */
const applied = (state: State, writes: ReadonlyArray<MonitorWrite>): StaleRevision | ConflictingEvent | State => {
  const subscriptions = new Map(state.subscriptions)
  const runs = new Map(state.runs)
  const reports = [...state.reports]
  for (const w of writes) {
    if (w._tag === "Report") {
      const same = reports.find((e) => e.id === w.event.id)
      if (same === undefined) reports.push(w.event)
      else if (same.digest !== w.event.digest) return new ConflictingEvent({ id: w.event.id })
      continue
    }
    const map: Map<string, SubscriptionRecord | RunRecord> = w._tag === "Subscription" ? subscriptions : runs
    const actual = map.get(w.record.id)?.revision ?? null
    if (actual !== w.expected) return new StaleRevision({ expected: w.expected ?? 0, actual: actual ?? 0 })
    map.set(w.record.id, w.record)
  }
  return { subscriptions, runs, reports }
}

export const makeMonitorStoreMemory: Effect.Effect<MonitorStoreShape> = Effect.gen(function*() {
  const state = yield* Ref.make<State>({ subscriptions: new Map(), runs: new Map(), reports: [] })

  const commit: MonitorStoreShape["commit"] = (writes) =>
    Effect.flatten(
      Ref.modify(state, (s): [Effect.Effect<void, StaleRevision | ConflictingEvent>, State] => {
        const next = applied(s, writes)
        return "_tag" in next ? [Effect.fail(next), s] : [Effect.void, next]
      })
    )

  // A commit of records alone cannot conflict on a report, nor one of reports alone on a revision.
  const commitRecords = (writes: ReadonlyArray<MonitorWrite>) =>
    commit(writes) as Effect.Effect<void, MonitorStoreError | StaleRevision>
  const commitReports = (writes: ReadonlyArray<MonitorWrite>) =>
    commit(writes) as Effect.Effect<void, MonitorStoreError | ConflictingEvent>

  const records = <A extends SubscriptionRecord | RunRecord>(
    pick: (s: State) => ReadonlyMap<string, A>,
    tag: "Subscription" | "Run"
  ): VersionedRecords<string, A, MonitorStoreError> => ({
    get: (id) =>
      Effect.map(
        Ref.get(state),
        (s) => Option.map(Option.fromNullable(pick(s).get(id)), (value) => ({ revision: value.revision, value }))
      ),
    put: (id, value, expected) =>
      Effect.as(commitRecords([{ _tag: tag, record: { ...value, id }, expected } as MonitorWrite]), value.revision),
    keys: Effect.map(Ref.get(state), (s) => sorted(pick(s).keys()))
  })

  const subscriptions = records((s) => s.subscriptions, "Subscription")
  const runs = records((s) => s.runs, "Run")

  const scanSubscriptions = Effect.map(
    Ref.get(state),
    (s) => ({ subs: [...s.subscriptions.values()].sort(byCreation), brokenIds: [] })
  )
  const scanRuns = Effect.map(Ref.get(state), (s) => ({
    ids: sorted(s.runs.keys()),
    mismatches: [],
    runs: [...s.runs.values()].map(runScanOf).sort(byCreation)
  }))

  return {
    subscriptions,
    runs,
    reports: {
      read: (program) => Effect.map(Ref.get(state), (s) => s.reports.filter((e) => e.event.program === program)),
      append: (program, batch) =>
        Effect.gen(function*() {
          const s = yield* Ref.get(state)
          const appended: Array<string> = []
          const existing: Array<string> = []
          const fresh: Array<MonitorWrite> = []
          for (const e of batch) {
            if (e.event.program !== program) return yield* new ConflictingEvent({ id: e.id })
            const same = s.reports.find((r) => r.id === e.id) ??
              batch.find((b, i) => b.id === e.id && appended.includes(b.id) && i >= 0)
            if (same !== undefined && same.digest !== e.digest) return yield* new ConflictingEvent({ id: e.id })
            if (same !== undefined) existing.push(e.id)
            else {
              appended.push(e.id)
              fresh.push({ _tag: "Report", event: e })
            }
          }
          yield* commitReports(fresh)
          return { appended, existing }
        }),
      streams: Effect.map(Ref.get(state), (s) => sorted(new Set(s.reports.map((e) => e.event.program))))
    },
    commit,
    scanSubscriptions: () => scanSubscriptions,
    scanRuns: () => scanRuns,
    scan: () => Effect.all({ subscriptions: scanSubscriptions, runs: scanRuns }),
    checkRuns: (ids) =>
      Effect.map(Ref.get(state), (s) => ids.map((id) => (s.runs.has(id) ? "ok" as const : "missing" as const))),
    allRuns: Effect.map(Ref.get(state), (s) => sorted(s.runs.keys()).map((id) => ({ id, run: s.runs.get(id)! }))),
    recover: Effect.succeed(Option.none()),
    pending: Effect.succeed(false)
  }
})

export const MonitorStoreMemory: Layer.Layer<MonitorStore> = Layer.effect(MonitorStore, makeMonitorStoreMemory)
