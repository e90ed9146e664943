/**
 * The pure projection of a journal's events: candidate statuses, the latest selection, the
 * latest checkpoint and the head — what `inspect` prints, and what manifest.json (v1) and
 * index.json are derived from.
 *
 * Rules (journal.md): a candidate's `status` is `selected` when the latest selection names it;
 * otherwise its latest evaluation decides (`accept` → accepted, `reject` → rejected,
 * `inconclusive` → evaluated); otherwise `created`. A legacy-imported candidate starts from the
 * status its manifest recorded (a legacy `selected` that is no longer the selection falls back
 * to `accepted` when the manifest listed it as completed, else `evaluated`).
 *
 * Referential rules enforced while applying: an event's `candidateId` names a candidate created
 * earlier (`candidate_created` or a `legacy_imported` candidate); a candidate is created once; a
 * `legacy_imported` event's `completed` and `selected` name candidates (its own or earlier ones).
 */
import { absurd } from "effect/Function"
import type { CandidateStatus, JournalEvent, ManifestV1 } from "./Journal.js"
import type { CandidateView, Head } from "./JournalOutput.js"

interface CandidateAcc {
  id: string
  title: string
  protocolVersion: string | null
  createdBy: string
  createdSeq: number
  legacyStatus: CandidateStatus | null
  legacyCompleted: boolean
  legacyResultPaths: Array<string>
  artifacts: Array<{ path: string; sha256: string; bytes: number; eventId: string }>
  executions: Array<{ runtimeId: string; status: string; exitCode?: number | null; logRef?: string; eventId: string }>
  lastEvaluation: {
    evaluatorVersion: string
    metrics: Record<string, number>
    decision: "accept" | "reject" | "inconclusive"
    eventId: string
  } | null
  lastSeq: number
}

export interface Projection {
  readonly events: number
  readonly head: Head | null
  readonly protocolVersion: string | null
  readonly candidates: ReadonlyArray<CandidateView>
  readonly selected: { readonly candidateId: string; readonly reason: string; readonly eventId: string } | null
  readonly checkpoint: {
    readonly summary: string
    readonly nextAction: string
    readonly reviewed: boolean
    readonly at?: string
    readonly eventId: string
  } | null
  readonly legacyImports: ReadonlyArray<
    { readonly eventId: string; readonly manifestSha256: string; readonly snapshotPath: string }
  >
  /** Candidates whose latest evaluation is an accept (or, before any evaluation, that a legacy manifest listed as completed). */
  readonly completed: ReadonlyArray<string>
}

const fresh = (
  eventId: string,
  seq: number,
  id: string,
  title: string,
  protocolVersion: string | null
): CandidateAcc => ({
  id,
  title,
  protocolVersion,
  createdBy: eventId,
  createdSeq: seq,
  legacyStatus: null,
  legacyCompleted: false,
  legacyResultPaths: [],
  artifacts: [],
  executions: [],
  lastEvaluation: null,
  lastSeq: seq
})

/** Why an event cannot follow the events applied so far (a referential rule). */
export type ApplyProblem =
  | { readonly _tag: "unknown-candidate"; readonly candidateId: string }
  | { readonly _tag: "duplicate-candidate"; readonly candidateId: string }

/** The ids of the candidates an event creates. */
const NONE: ReadonlyArray<string> = []

export const candidatesCreatedBy = (e: JournalEvent): ReadonlyArray<string> =>
  e.type === "candidate_created"
    ? [e.candidate.id]
    : e.type === "legacy_imported"
    ? e.candidates.map((c) => c.id)
    : NONE

/** The referential rules: may `e` follow a history whose candidates are those `has` names? */
export const checkAgainst = (has: (id: string) => boolean, e: JournalEvent): ApplyProblem | null => {
  switch (e.type) {
    case "candidate_created":
      return has(e.candidate.id) ? { _tag: "duplicate-candidate", candidateId: e.candidate.id } : null
    case "legacy_imported": {
      // The manifest's own consistency (what `import`'s strict validator checks), for an event
      // appended by hand: its candidates are new and distinct, and `completed` and `selected`
      // name candidates (its own or earlier ones), else the projection would select a candidate
      // that does not exist.
      const own = new Set<string>()
      for (const c of e.candidates) {
        if (has(c.id) || own.has(c.id)) return { _tag: "duplicate-candidate", candidateId: c.id }
        own.add(c.id)
      }
      const named = e.selected === null ? e.completed : [...e.completed, e.selected]
      const unknown = named.find((id) => !own.has(id) && !has(id))
      return unknown === undefined ? null : { _tag: "unknown-candidate", candidateId: unknown }
    }
    case "checkpoint_saved":
      return null
    case "candidate_selected":
    case "execution_linked":
    case "artifact_linked":
    case "evaluation_recorded":
      return has(e.candidateId) ? null : { _tag: "unknown-candidate", candidateId: e.candidateId }
    default:
      // A new event type must say here whether it refers to a candidate.
      return absurd(e)
  }
}

/** Checks a batch against a projector without changing it (`Projector.pending`). */
export interface PendingCheck {
  readonly check: (e: JournalEvent) => ApplyProblem | null
  /** Record a checked event as following (its candidates exist for the next checks). */
  readonly add: (e: JournalEvent) => void
}

/**
 * Accumulates events in order. `check` tells whether an event may follow (without applying it);
 * `apply` applies a checked event. Mutable inside, pure from the outside (`project`).
 */
export class Projector {
  private readonly cands = new Map<string, CandidateAcc>()
  private selected: Projection["selected"] = null
  private checkpoint: Projection["checkpoint"] = null
  private protocolVersion: string | null = null
  private readonly legacy: Array<{ eventId: string; manifestSha256: string; snapshotPath: string }> = []
  private count = 0
  private headId: string | null = null

  /** The last applied event (`seq` counts from 1), or null before any. */
  currentHead(): Head | null {
    return this.headId === null ? null : { seq: this.count, id: this.headId }
  }

  readonly hasCandidate = (id: string): boolean => this.cands.has(id)

  /** The ids of the candidates created so far, in creation order. */
  candidateIds(): ReadonlyArray<string> {
    return [...this.cands.keys()]
  }

  check(e: JournalEvent): ApplyProblem | null {
    return checkAgainst(this.hasCandidate, e)
  }

  /**
   * A check of events that would follow the applied ones, in order, without applying them:
   * `check` sees the applied candidates plus those created by the events `add`ed so far. The
   * projector is not changed (a write path can check a whole batch, then drop it on refusal).
   */
  pending(): PendingCheck {
    const created = new Set<string>()
    const has = (id: string) => this.cands.has(id) || created.has(id)
    return {
      check: (e) => checkAgainst(has, e),
      add: (e) => {
        for (const id of candidatesCreatedBy(e)) created.add(id)
      }
    }
  }

  apply(e: JournalEvent): void {
    const seq = ++this.count
    this.headId = e.id
    switch (e.type) {
      case "candidate_created": {
        const pv = e.candidate.protocolVersion ?? null
        this.cands.set(e.candidate.id, fresh(e.id, seq, e.candidate.id, e.candidate.title, pv))
        if (pv !== null) this.protocolVersion = pv
        return
      }
      case "legacy_imported": {
        const done = new Set(e.completed)
        for (const c of e.candidates) {
          const acc = fresh(e.id, seq, c.id, c.id, e.protocolVersion)
          acc.legacyStatus = c.status
          acc.legacyCompleted = done.has(c.id)
          acc.legacyResultPaths = [...c.resultPaths]
          this.cands.set(c.id, acc)
        }
        if (e.protocolVersion !== null) this.protocolVersion = e.protocolVersion
        if (e.selected !== null) {
          this.selected = { candidateId: e.selected, reason: "selected in the imported legacy manifest", eventId: e.id }
        }
        this.legacy.push({ eventId: e.id, manifestSha256: e.manifestSha256, snapshotPath: e.snapshotPath })
        return
      }
      case "checkpoint_saved":
        this.checkpoint = { ...e.checkpoint, ...(e.at !== undefined ? { at: e.at } : {}), eventId: e.id }
        return
      case "candidate_selected":
        this.selected = { candidateId: e.candidateId, reason: e.reason, eventId: e.id }
        this.touch(e.candidateId, seq)
        return
      case "execution_linked": {
        const c = this.touch(e.candidateId, seq)
        c?.executions.push({ ...e.execution, eventId: e.id })
        return
      }
      case "artifact_linked": {
        const c = this.touch(e.candidateId, seq)
        c?.artifacts.push({ ...e.artifact, eventId: e.id })
        return
      }
      case "evaluation_recorded": {
        const c = this.touch(e.candidateId, seq)
        if (c !== undefined) {
          const v = e.evaluation
          c.lastEvaluation = {
            evaluatorVersion: v.evaluatorVersion,
            metrics: v.metrics,
            decision: v.decision,
            eventId: e.id
          }
        }
        return
      }
      default:
        // A new event type must say here what it changes in the projection.
        return absurd(e)
    }
  }

  private touch(id: string, seq: number): CandidateAcc | undefined {
    const c = this.cands.get(id)
    if (c !== undefined) c.lastSeq = seq
    return c
  }

  private statusOf(c: CandidateAcc): CandidateStatus {
    if (this.selected !== null && this.selected.candidateId === c.id) return "selected"
    if (c.lastEvaluation !== null) {
      const d = c.lastEvaluation.decision
      return d === "accept" ? "accepted" : d === "reject" ? "rejected" : "evaluated"
    }
    if (c.legacyStatus !== null) {
      if (c.legacyStatus === "selected") return c.legacyCompleted ? "accepted" : "evaluated"
      return c.legacyStatus
    }
    return "created"
  }

  result(): Projection {
    const candidates: Array<CandidateView> = []
    for (const c of this.cands.values()) {
      const resultPaths: Array<string> = []
      for (const p of [...c.legacyResultPaths, ...c.artifacts.map((a) => a.path)]) {
        if (!resultPaths.includes(p)) resultPaths.push(p)
      }
      candidates.push({
        id: c.id,
        title: c.title,
        status: this.statusOf(c),
        protocolVersion: c.protocolVersion,
        artifacts: c.artifacts.map((a) => ({ ...a })),
        executions: c.executions.map((x) => ({ ...x })),
        lastEvaluation: c.lastEvaluation === null
          ? null
          : { ...c.lastEvaluation, metrics: { ...c.lastEvaluation.metrics } },
        resultPaths,
        createdBy: c.createdBy
      })
    }
    return {
      events: this.count,
      head: this.currentHead(),
      protocolVersion: this.protocolVersion,
      candidates,
      selected: this.selected,
      checkpoint: this.checkpoint,
      legacyImports: this.legacy.map((l) => ({ ...l })),
      completed: [...this.cands.values()]
        .filter((c) => (c.lastEvaluation !== null ? c.lastEvaluation.decision === "accept" : c.legacyCompleted))
        .map((c) => c.id)
    }
  }

  /** Per-candidate sequence numbers, for the derived index. */
  seqs(): ReadonlyArray<{ readonly id: string; readonly createdSeq: number; readonly lastSeq: number }> {
    return [...this.cands.values()].map((c) => ({ id: c.id, createdSeq: c.createdSeq, lastSeq: c.lastSeq }))
  }
}

/**
 * Project a sequence of events. Events that break a referential rule are reported (with their
 * 0-based index) and projection stops before them, as replay does.
 */
export const project = (
  events: ReadonlyArray<JournalEvent>
): {
  readonly projection: Projection
  readonly problem: { readonly index: number; readonly problem: ApplyProblem } | null
} => {
  const p = new Projector()
  for (let i = 0; i < events.length; i++) {
    const problem = p.check(events[i]!)
    if (problem !== null) return { projection: p.result(), problem: { index: i, problem } }
    p.apply(events[i]!)
  }
  return { projection: p.result(), problem: null }
}

/** A stored history's projection and its event count. */
export interface HistoryProjection {
  readonly projection: Projection
  readonly events: number
}

/** Projections stores already computed while reading a history, by the history object they answered. */
const remembered = new WeakMap<object, () => HistoryProjection>()

/**
 * Remember the projection of a history a store replayed with a Projector while reading it (the
 * folder's replay checks every line that way), so that `projectionOf` does not apply every event
 * again, nor make the store keep every event: `history` must be the object the store answers.
 */
export const rememberProjection = (history: object, projector: Projector, events: number): void => {
  remembered.set(history, () => ({ projection: projector.result(), events }))
}

/** The projection of a stored history (its events, in order, keep the referential rules). */
export const projectionOf = (
  history: { readonly events: ReadonlyArray<{ readonly event: JournalEvent }> }
): HistoryProjection => {
  const known = remembered.get(history)
  if (known !== undefined) return known()
  const p = new Projector()
  for (const e of history.events) p.apply(e.event)
  return { projection: p.result(), events: history.events.length }
}

/** The manifest v1 projection of a study. */
export const manifestOf = (study: string, p: Projection): ManifestV1 => ({
  version: 1,
  study,
  protocolVersion: p.protocolVersion,
  candidates: p.candidates.map((c) => ({ id: c.id, status: c.status, resultPaths: c.resultPaths })),
  completed: p.completed,
  selected: p.selected?.candidateId ?? null
})
