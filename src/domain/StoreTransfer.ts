/**
 * What a transfer between two stores does (src/layers/StoreTransfer.ts: `export --to`, `pull`,
 * the import of `init --store`), decided from what each side holds, before anything is written.
 *
 * - `fresh` (import, export): the destination must hold nothing (no plan, no prose, no capture
 *   record, no journal, no monitor record or report, no grant, no execution record); everything
 *   is copied.
 * - `refresh` (pull): the destination may hold an earlier state of the same dossier: a plan at a
 *   lower revision, a prefix of each journal and of the capture log, monitor records at lower
 *   revisions, some of the reports, some of the grants with a prefix of each one's events, some
 *   of the execution records. What it lacks is copied; what is ahead of the source or other than
 *   it is a divergence, and nothing is written.
 *
 * Revisions, ids, digests and order are the source's: a journal's events are appended in their
 * stored order, so their positions are the same; records keep their own revisions.
 */
import * as Either from "effect/Either"
import { isDeepStrictEqual } from "node:util"
import type { CaptureRecord } from "./IngestContent.js"
import type { JournalEvent } from "./Journal.js"
import type { PlanDocument } from "./Plan.js"

/** A stored event as a transfer compares it: its id and digest. */
export interface HeldEvent {
  readonly id: string
  readonly digest: string
}

/** What one side holds, as far as deciding a transfer needs. */
export interface Holdings {
  /** The plan's revision, or null when there is no plan. */
  readonly planRevision: number | null
  /** Prose kept where no plan is ("" when none). */
  readonly prose: string
  readonly captures: ReadonlyArray<CaptureRecord>
  /** Each study's events, in stored order. */
  readonly journals: ReadonlyMap<string, ReadonlyArray<HeldEvent>>
  /** Monitor records by id: their revision. */
  readonly subscriptions: ReadonlyMap<string, number>
  readonly runs: ReadonlyMap<string, number>
  /** Completion reports by program: id → digest. */
  readonly reports: ReadonlyMap<string, ReadonlyMap<string, string>>
  /** Grants by id: the digest of the record and of each of its events, in stored order. */
  readonly grants: ReadonlyMap<string, HeldGrant>
  /** Execution records by id: the digest of the record. */
  readonly executions: ReadonlyMap<string, string>
}

/** A grant as a transfer compares it (digests of canonical JSON: the same whatever the adapter). */
export interface HeldGrant {
  readonly record: string
  readonly events: ReadonlyArray<string>
}

/**
 * The parts of a dossier a transfer reads and copies. `pull`, `export` and the import copy all of
 * them; a bound folder's command refreshes the part of the view it touched (spec store.md). A
 * part left out is read from neither side, so it is neither compared nor copied.
 */
export interface TransferParts {
  /** The plan record, its prose and the files it registers. */
  readonly plan: boolean
  /** The capture log and the files it retains. */
  readonly captures: boolean
  /** Every study's journal and the artifacts its events link. */
  readonly journals: boolean
  /** Subscriptions, runs (and the files they name) and reports. */
  readonly monitor: boolean
  readonly grants: boolean
  /** Execution records and their logs. */
  readonly executions: boolean
}

export const ALL_PARTS: TransferParts = {
  plan: true,
  captures: true,
  journals: true,
  monitor: true,
  grants: true,
  executions: true
}

/** The parts of a folder's view: the transfer's, and the gate's attempts logs. */
export interface ViewParts extends TransferParts {
  readonly attempts: boolean
}

/** The whole view (`dossier pull`). */
export const WHOLE_VIEW: ViewParts = { ...ALL_PARTS, attempts: true }

export type TransferMode = "fresh" | "refresh"

/** Why a transfer cannot be made: the part, the key within it, and what is wrong. */
export interface Divergence {
  readonly part: "plan" | "captures" | "journal" | "subscription" | "run" | "report" | "grant" | "execution"
  readonly key: string
  readonly reason: string
}

/** A record to write: its id, and the revision the destination holds (null: none). */
export interface RecordStep {
  readonly id: string
  readonly expected: number | null
}

/** The writes a transfer makes, in the order it makes them. */
export interface TransferSteps {
  /** Restore the plan (or the prose) in place of this revision; null: nothing to do. */
  readonly plan: { readonly expected: number | null } | null
  /** Append the source's capture records from this index on (none when it is their count). */
  readonly capturesFrom: number
  /** Per study, append the source's events from this index on (studies with nothing to add left out). */
  readonly journals: ReadonlyArray<{ readonly study: string; readonly from: number }>
  readonly subscriptions: ReadonlyArray<RecordStep>
  readonly runs: ReadonlyArray<RecordStep>
  /** Per program, the ids of the reports to append (in the source's order). */
  readonly reports: ReadonlyArray<{ readonly program: string; readonly ids: ReadonlyArray<string> }>
  /** Per grant, whether to create its record, and its events to append from this index on. */
  readonly grants: ReadonlyArray<{ readonly id: string; readonly create: boolean; readonly eventsFrom: number }>
  /** The execution records to store, by id. */
  readonly executions: ReadonlyArray<string>
}

/** Whether a side holds any state at all. */
export const holdsState = (h: Holdings): boolean =>
  h.planRevision !== null || h.prose !== "" || h.captures.length > 0 || h.journals.size > 0 ||
  h.subscriptions.size > 0 || h.runs.size > 0 || h.reports.size > 0 || h.grants.size > 0 || h.executions.size > 0

const sorted = (keys: Iterable<string>) => [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

/** The first part a side holds, for a refusal that says where. */
const firstHeld = (h: Holdings): Divergence => {
  const held = (part: Divergence["part"], key: string): Divergence => ({
    part,
    key,
    reason: "the destination already holds state"
  })
  if (h.planRevision !== null || h.prose !== "") return held("plan", "plan")
  if (h.captures.length > 0) return held("captures", h.captures[0]!.path)
  if (h.journals.size > 0) return held("journal", sorted(h.journals.keys())[0]!)
  if (h.subscriptions.size > 0) return held("subscription", sorted(h.subscriptions.keys())[0]!)
  if (h.runs.size > 0) return held("run", sorted(h.runs.keys())[0]!)
  if (h.reports.size > 0) return held("report", sorted(h.reports.keys())[0]!)
  if (h.grants.size > 0) return held("grant", sorted(h.grants.keys())[0]!)
  return held("execution", sorted(h.executions.keys())[0]!)
}

const recordSteps = (
  part: "subscription" | "run",
  source: ReadonlyMap<string, number>,
  dest: ReadonlyMap<string, number>
): Either.Either<ReadonlyArray<RecordStep>, Divergence> => {
  for (const id of sorted(dest.keys())) {
    if (!source.has(id)) {
      return Either.left({ part, key: id, reason: "the destination holds a record the source does not" })
    }
  }
  const steps: Array<RecordStep> = []
  for (const id of sorted(source.keys())) {
    const revision = source.get(id)!
    const held = dest.get(id)
    if (held === undefined) steps.push({ id, expected: null })
    else if (held > revision) {
      return Either.left({ part, key: id, reason: `the destination is at revision ${held}, the source at ${revision}` })
    } else if (held < revision) steps.push({ id, expected: held })
  }
  return Either.right(steps)
}

/** Decide a transfer from `source` into `dest`: the writes to make, or why none can be made. */
export const decideTransfer = (
  source: Holdings,
  dest: Holdings,
  mode: TransferMode
): Either.Either<TransferSteps, Divergence> =>
  Either.gen(function*() {
    if (mode === "fresh" && holdsState(dest)) return yield* Either.left(firstHeld(dest))

    // The plan: a higher revision replaces a lower one; prose only goes where nothing is.
    let plan: TransferSteps["plan"] = null
    if (source.planRevision === null) {
      if (dest.planRevision !== null) {
        return yield* Either.left<Divergence>({
          part: "plan",
          key: "plan",
          reason: "the destination holds a plan the source does not"
        })
      }
      if (source.prose !== "" && dest.prose === "") plan = { expected: null }
    } else if (dest.planRevision === null) {
      if (dest.prose !== "") {
        return yield* Either.left<Divergence>({
          part: "plan",
          key: "plan",
          reason: "the destination holds prose where the source holds a plan"
        })
      }
      plan = { expected: null }
    } else if (dest.planRevision > source.planRevision) {
      return yield* Either.left<Divergence>({
        part: "plan",
        key: "plan",
        reason: `the destination is at revision ${dest.planRevision}, the source at ${source.planRevision}`
      })
    } else if (dest.planRevision < source.planRevision) plan = { expected: dest.planRevision }

    // The capture log: the destination's must be the source's first records.
    for (let i = 0; i < dest.captures.length; i++) {
      if (i >= source.captures.length || !isDeepStrictEqual(dest.captures[i], source.captures[i])) {
        return yield* Either.left<Divergence>({
          part: "captures",
          key: dest.captures[i]!.path,
          reason: `record ${i + 1} of the destination's capture log is not the source's`
        })
      }
    }

    // Each journal: the destination's events must be the source's first ones (same ids, same digests).
    for (const study of sorted(dest.journals.keys())) {
      if (!source.journals.has(study)) {
        return yield* Either.left<Divergence>({
          part: "journal",
          key: study,
          reason: "the destination holds a journal the source does not"
        })
      }
    }
    const journals: Array<{ readonly study: string; readonly from: number }> = []
    for (const study of sorted(source.journals.keys())) {
      const events = source.journals.get(study)!
      const held = dest.journals.get(study) ?? []
      for (let i = 0; i < held.length; i++) {
        const e = events[i]
        if (e === undefined || e.id !== held[i]!.id || e.digest !== held[i]!.digest) {
          return yield* Either.left<Divergence>({
            part: "journal",
            key: study,
            reason: `event ${i + 1} of the destination's journal is not the source's`
          })
        }
      }
      // A study whose journal exists but is empty is copied too (it exists once its file does).
      if (held.length < events.length || !dest.journals.has(study)) journals.push({ study, from: held.length })
    }

    const subscriptions = yield* recordSteps("subscription", source.subscriptions, dest.subscriptions)
    const runs = yield* recordSteps("run", source.runs, dest.runs)

    // Reports: the same id must have the same digest; the destination may not hold one the source does not.
    const reports: Array<{ readonly program: string; readonly ids: ReadonlyArray<string> }> = []
    for (const program of sorted(dest.reports.keys())) {
      const mine = source.reports.get(program)
      for (const [id, digest] of dest.reports.get(program)!) {
        if (mine?.get(id) !== digest) {
          return yield* Either.left<Divergence>({
            part: "report",
            key: id,
            reason: mine?.has(id) === true
              ? "the destination's report differs"
              : "the destination holds a report the source does not"
          })
        }
      }
    }
    for (const program of sorted(source.reports.keys())) {
      const held = dest.reports.get(program)
      const ids = [...source.reports.get(program)!.keys()].filter((id) => held?.has(id) !== true)
      if (ids.length > 0) reports.push({ program, ids })
    }

    // Grants: the destination's must be the source's, each with a prefix of its events.
    const grants: Array<TransferSteps["grants"][number]> = []
    for (const id of sorted(dest.grants.keys())) {
      const mine = source.grants.get(id)
      const held = dest.grants.get(id)!
      if (mine === undefined) {
        return yield* Either.left<Divergence>({
          part: "grant",
          key: id,
          reason: "the destination holds a grant the source does not"
        })
      }
      if (mine.record !== held.record) {
        return yield* Either.left<Divergence>({ part: "grant", key: id, reason: "the destination's grant differs" })
      }
      if (held.events.some((d, i) => mine.events[i] !== d)) {
        return yield* Either.left<Divergence>({
          part: "grant",
          key: id,
          reason: "the destination's events of the grant are not the source's first ones"
        })
      }
    }
    for (const id of sorted(source.grants.keys())) {
      const held = dest.grants.get(id)
      const from = held?.events.length ?? 0
      if (held === undefined || from < source.grants.get(id)!.events.length) {
        grants.push({ id, create: held === undefined, eventsFrom: from })
      }
    }

    // Execution records: written once, so the destination's must be the source's.
    for (const id of sorted(dest.executions.keys())) {
      const mine = source.executions.get(id)
      if (mine !== dest.executions.get(id)) {
        return yield* Either.left<Divergence>({
          part: "execution",
          key: id,
          reason: mine === undefined
            ? "the destination holds an execution record the source does not"
            : "the destination's execution record differs"
        })
      }
    }
    const executions = sorted(source.executions.keys()).filter((id) => !dest.executions.has(id))

    return {
      plan,
      capturesFrom: dest.captures.length,
      journals,
      subscriptions,
      runs,
      reports,
      grants,
      executions
    } satisfies TransferSteps
  })

/** A file a record names, with the digest it registered (null: it names the file without one, a citation). */
export interface RegisteredFile {
  readonly path: string
  readonly sha256: string | null
}

/**
 * The files the records name (plan sources, outputs and their dependencies, journal artifacts, a
 * run's stage and survey files and the files its outcomes cite), each path once (the first digest
 * named), sorted. The capture log's files are
 * copied with the log, not here.
 */
export const registeredFiles = (
  plan: PlanDocument | null,
  events: ReadonlyArray<JournalEvent>,
  stages: ReadonlyArray<RegisteredFile>
): ReadonlyArray<RegisteredFile> => {
  const byPath = new Map<string, string | null>()
  const add = (path: string, sha256: string | null) => {
    if (!byPath.has(path)) byPath.set(path, sha256)
  }
  for (const s of plan?.sources ?? []) add(s.path, s.sha256)
  for (const o of plan?.outputs ?? []) add(o.path, o.sha256)
  for (const o of plan?.outputs ?? []) for (const d of o.dependsOn) add(d.path, d.sha256)
  for (const e of events) if (e.type === "artifact_linked") add(e.artifact.path, e.artifact.sha256)
  for (const f of stages) add(f.path, f.sha256)
  return sorted(byPath.keys()).map((path) => ({ path, sha256: byPath.get(path)! }))
}

/** The retained files of a capture log (each path once, the first digest named), sorted. */
export const retainedFiles = (records: ReadonlyArray<CaptureRecord>): ReadonlyArray<RegisteredFile> =>
  registeredFiles(null, [], records.map((r) => ({ path: r.path, sha256: r.sha256 })))
