/**
 * The gate's decisions (pure): routing a parked run, the closure rule, `proceed` / `ask`, the
 * state updates for both kinds, the information-only maturity re-score and the recheck.
 *
 * Over 400 lines: the closure rule and both outcomes' state updates must agree; kept in one file.
 */
import * as Either from "effect/Either"
import type {
  Candidate,
  CitedSource,
  Decision,
  DecisionReason,
  EvaluatedGap,
  GapKind,
  MaturitySnapshot,
  ResearchGap,
  ResearchOutput,
  ResearchRecord,
  ResolvedAnswer,
  RunState,
  VerifiedSource
} from "./Gate.js"
import { isResearchable } from "./Gate.js"
import { NotResearchable, NoVerdict } from "./GateErrors.js"

export const OPEN_QUESTIONS_STEP = "phase-1/open-questions"
export const MATURITY_STEP = "phase-0/maturity"
export const MATURITY_OPTIONS = ["fix", "continue", "abort"] as const
export const OPEN_QUESTIONS_OPTIONS = ["ask-now", "assume", "abort"] as const

// ---------------------------------------------------------------------------------------------
// Activity and routing

/** The gate acts only in unattended runs: `DOSSIER_UNATTENDED=1` or `autopilot: true`. */
export const isActive = (unattendedEnv: string | undefined, state: RunState): boolean =>
  unattendedEnv === "1" || state.autopilot === true

/**
 * Which kind of gap a parked run waits on. `waitingFor: "maturity"`, or a halted run that still
 * carries blockers → maturity; a question at the open-questions step → open-questions; anything
 * else is a person's call.
 */
export const route = (state: RunState): Either.Either<GapKind, NotResearchable> => {
  const waitingFor = state.waitingFor ?? null
  if (waitingFor === "maturity") return Either.right("maturity")
  if (state.status === "halted" && (state.maturity?.blockers?.length ?? 0) > 0) return Either.right("maturity")
  if (waitingFor === "question" && state.pendingQuestion?.stepId === OPEN_QUESTIONS_STEP) {
    return Either.right("open-questions")
  }
  return Either.left(new NotResearchable({ waitingFor }))
}

/** A blocker or open question of the state: what a research gap may close. */
export interface Target {
  readonly id: string
  readonly category: string | null
  readonly row: Readonly<Record<string, unknown>>
}

export const targetsOf = (state: RunState, kind: GapKind): ReadonlyArray<Target> => {
  const rows: ReadonlyArray<
    Readonly<Record<string, unknown>> & { readonly id: string; readonly category?: string | null | undefined }
  > = kind === "maturity" ? (state.maturity?.blockers ?? []) : (state.analysis?.openQuestions ?? [])
  return rows.map((row) => ({ id: row.id, category: row.category ?? null, row }))
}

/** The research output must be for this item and this kind; otherwise it is stale. */
export const checkFreshness = (
  output: ResearchOutput,
  item: string,
  kind: GapKind
): Either.Either<ResearchOutput, NoVerdict> => {
  if (output.item !== item) {
    return Either.left(
      new NoVerdict({ reason: `the research output is for item '${output.item}', the state for '${item}'` })
    )
  }
  if (output.kind !== kind) {
    return Either.left(
      new NoVerdict({ reason: `the research output is of kind '${output.kind}', the state waits on '${kind}'` })
    )
  }
  const seen = new Set<string>()
  for (const g of output.gaps) {
    if (seen.has(g.id)) return Either.left(new NoVerdict({ reason: `the research output lists gap '${g.id}' twice` }))
    seen.add(g.id)
  }
  return Either.right(output)
}

// ---------------------------------------------------------------------------------------------
// The closure rule

export interface Evaluation {
  readonly gaps: ReadonlyArray<EvaluatedGap>
  readonly closed: ReadonlyArray<string>
  readonly candidates: ReadonlyArray<Candidate>
  /** Ids of the state's blockers / questions that remain after closing (in the state's order). */
  readonly open: ReadonlyArray<string>
  readonly ignored: ReadonlyArray<string>
  readonly resolved: ReadonlyArray<ResolvedAnswer>
}

/**
 * A gap is closed only when research proposed it closed, its category (the state's; research's
 * own label only when the state has none) is researchable, it cites at least one source and
 * every cited source verifies. Non-researchable categories and failed closures become
 * candidates; ids that are not a target of the state are ignored.
 */
export const evaluateGap = (
  gap: ResearchGap,
  target: Target,
  verify: (source: CitedSource) => VerifiedSource
): EvaluatedGap & { readonly candidateReason: Candidate["reason"] | null } => {
  const category = target.category ?? gap.category ?? null
  const sources = gap.sources.map(verify)
  const researchable = isResearchable(category)
  const allVerified = sources.length > 0 && sources.every((s) => s.verified)
  const answer = gap.answer ?? null
  const base = { id: gap.id, category, proposed: gap.status, answer, sources }
  if (gap.status === "open") return { ...base, status: "open", candidateReason: null }
  if (!researchable) return { ...base, status: "candidate", candidateReason: "not-researchable" }
  if (gap.status === "candidate") return { ...base, status: "candidate", candidateReason: "proposed-candidate" }
  if (sources.length === 0) return { ...base, status: "candidate", candidateReason: "no-sources" }
  if (!allVerified) return { ...base, status: "candidate", candidateReason: "unverified" }
  return { ...base, status: "closed", candidateReason: null }
}

export const evaluate = (
  targets: ReadonlyArray<Target>,
  gaps: ReadonlyArray<ResearchGap>,
  verify: (source: CitedSource) => VerifiedSource
): Evaluation => {
  const byId = new Map(targets.map((t) => [t.id, t] as const))
  const evaluated: Array<EvaluatedGap> = []
  const candidates: Array<Candidate> = []
  const ignored: Array<string> = []
  const resolved: Array<ResolvedAnswer> = []
  const closedSet = new Set<string>()
  for (const gap of gaps) {
    const target = byId.get(gap.id)
    if (target === undefined) {
      ignored.push(gap.id)
      continue
    }
    const { candidateReason, ...e } = evaluateGap(gap, target, verify)
    evaluated.push(e)
    if (e.status === "closed") {
      closedSet.add(e.id)
      resolved.push({ id: e.id, category: e.category, answer: e.answer, sources: e.sources })
    } else if (candidateReason !== null) {
      candidates.push({ id: e.id, category: e.category, reason: candidateReason, answer: e.answer, sources: e.sources })
    }
  }
  const closed = targets.filter((t) => closedSet.has(t.id)).map((t) => t.id)
  const open = targets.filter((t) => !closedSet.has(t.id)).map((t) => t.id)
  return { gaps: evaluated, closed, candidates, open, ignored, resolved }
}

/** `proceed` exactly when nothing blocking is left; the score never enters this. */
export const decide = (evaluation: Pick<Evaluation, "open">): { decision: Decision; reason: DecisionReason } =>
  evaluation.open.length === 0
    ? { decision: "proceed", reason: "nothing-blocking" }
    : { decision: "ask", reason: "gaps-remain" }

// ---------------------------------------------------------------------------------------------
// Maturity re-score (information only)

/**
 * The re-score formula (information only; it never overrides the decision):
 * with `s` the score before, `n` the blockers before and `c` the blockers closed,
 * `s' = min(100, round(s + (100 - s) * c / n))`; unchanged when `n = 0` or `c = 0`;
 * `null` when there was no score.
 */
export const rescore = (score: number | null, blockersBefore: number, closed: number): number | null => {
  if (score === null) return null
  if (blockersBefore <= 0 || closed <= 0) return score
  return Math.min(100, Math.round(score + ((100 - score) * Math.min(closed, blockersBefore)) / blockersBefore))
}

export const maturitySnapshot = (state: RunState): MaturitySnapshot => ({
  score: state.maturity?.score ?? null,
  threshold: state.maturity?.threshold ?? null,
  blockers: state.maturity?.blockers ?? []
})

export const maturityAfter = (before: MaturitySnapshot, closed: ReadonlyArray<string>): MaturitySnapshot => {
  const closedSet = new Set(closed)
  const remaining = before.blockers.filter((b) => !closedSet.has((b as { id: string }).id))
  return {
    score: rescore(before.score, before.blockers.length, before.blockers.length - remaining.length),
    threshold: before.threshold,
    blockers: remaining
  }
}

// ---------------------------------------------------------------------------------------------
// State updates

type Json = Record<string, unknown>

const asObject = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {})

/**
 * The next run state. `raw` is the state as read (every key kept); only the keys the spec gives
 * the gate are replaced:
 * - maturity, proceed: blockers closed removed, score re-scored, `waitingFor: "maturity"`;
 * - open-questions, proceed: closed rows removed, `waitingFor` / `pendingQuestion` cleared,
 *   `status: "in_progress"`, `analysis.openQuestionsGate: "pass"`;
 * - ask (both kinds): `waitingFor: "question"` and the `pendingQuestion` of that kind;
 * - always: `research`.
 */
export const nextState = (raw: Json, state: RunState, record: ResearchRecord, targets: ReadonlyArray<Target>): Json => {
  const out: Json = { ...raw }
  const closedSet = new Set(record.closed)
  if (record.decision === "proceed") {
    if (record.kind === "maturity") {
      const maturity = asObject(raw["maturity"])
      const after = record.maturityAfter
      out["maturity"] = {
        ...maturity,
        ...(after === null || after.score === null ? {} : { score: after.score }),
        blockers: (state.maturity?.blockers ?? []).filter((b) => !closedSet.has(b.id))
      }
      out["waitingFor"] = "maturity"
    } else {
      const analysis = asObject(raw["analysis"])
      out["analysis"] = {
        ...analysis,
        openQuestions: (state.analysis?.openQuestions ?? []).filter((q) => !closedSet.has(q.id)),
        openQuestionsGate: "pass"
      }
      out["waitingFor"] = null
      out["pendingQuestion"] = null
      out["status"] = "in_progress"
    }
  } else {
    const rows = targets.filter((t) => !closedSet.has(t.id)).map((t) => t.row)
    out["waitingFor"] = "question"
    out["pendingQuestion"] = record.kind === "maturity"
      ? { id: "maturity", stepId: MATURITY_STEP, rows, candidates: record.candidates, options: [...MATURITY_OPTIONS] }
      : {
        id: "open-questions",
        stepId: OPEN_QUESTIONS_STEP,
        rows,
        candidates: record.candidates,
        options: [...OPEN_QUESTIONS_OPTIONS]
      }
  }
  out["research"] = record
  return out
}

export interface RecordParts {
  readonly round: number
  readonly kind: GapKind
  readonly dir: string
  readonly at: string
}

/** The research record of an evaluated round. */
export const researchRecord = (state: RunState, evaluation: Evaluation, parts: RecordParts): ResearchRecord => {
  const { decision, reason } = decide(evaluation)
  const before = parts.kind === "maturity" ? maturitySnapshot(state) : null
  return {
    round: parts.round,
    kind: parts.kind,
    decision,
    reason,
    dir: parts.dir,
    gaps: evaluation.gaps,
    closed: evaluation.closed,
    candidates: evaluation.candidates,
    open: evaluation.open,
    ignored: evaluation.ignored,
    resolved: evaluation.resolved,
    maturityBefore: before,
    maturityAfter: before === null ? null : maturityAfter(before, evaluation.closed),
    at: parts.at
  }
}

/** The record at the round ceiling: nothing evaluated, every target still open, `ask`. */
export const ceilingRecord = (state: RunState, targets: ReadonlyArray<Target>, parts: RecordParts): ResearchRecord => {
  const before = parts.kind === "maturity" ? maturitySnapshot(state) : null
  return {
    round: parts.round,
    kind: parts.kind,
    decision: "ask",
    reason: "maxAskRounds",
    dir: parts.dir,
    gaps: [],
    closed: [],
    candidates: [],
    open: targets.map((t) => t.id),
    ignored: [],
    resolved: [],
    maturityBefore: before,
    maturityAfter: before,
    at: parts.at
  }
}

// ---------------------------------------------------------------------------------------------
// Round ceiling

/**
 * Rounds used by an item: the sum of `researchRounds` over every row of the attempts log whose
 * `item` matches (the whole log). Lines that are not JSON objects (a torn last line) and rows
 * without a non-negative number of rounds count nothing.
 */
export const roundsUsed = (log: string, item: string): number => {
  let sum = 0
  for (const line of log.split("\n")) {
    const t = line.trim()
    if (t === "") continue
    let row: unknown
    try {
      row = JSON.parse(t)
    } catch {
      continue
    }
    const r = asObject(row)
    const n = r["researchRounds"]
    if (r["item"] === item && typeof n === "number" && Number.isFinite(n) && n > 0) sum += n
  }
  return sum
}

// ---------------------------------------------------------------------------------------------
// Recheck

/** A closure recorded in `state.research.gaps` (what the recheck needs of it). */
export interface RecordedClosure {
  readonly id: string
  readonly category: string | null
  readonly answer: string | null
  readonly sources: ReadonlyArray<{ readonly label?: string | undefined; readonly ref: string; readonly quote: string }>
}

export interface RecheckInput {
  readonly state: RunState
  /** The recorded research (state.research), if any, of kind maturity. */
  readonly recorded: {
    readonly closedGaps: ReadonlyArray<RecordedClosure>
    readonly maturityBefore: MaturitySnapshot | null
  } | null
  readonly verify: (source: CitedSource) => VerifiedSource
}

export interface RecheckOutcome {
  readonly remaining: ReadonlyArray<unknown>
  readonly findings: ReadonlyArray<ResolvedAnswer>
  readonly maturity: MaturitySnapshot
}

/**
 * Re-verify the recorded closures against fresh evidence. Remaining blockers = the state's
 * blockers never closed + the closures that no longer verify (each with `reason:
 * "no-longer-verified"` and its per-source results).
 */
export const recheck = (input: RecheckInput): RecheckOutcome => {
  const closedGaps = input.recorded?.closedGaps ?? []
  const closedIds = new Set(closedGaps.map((g) => g.id))
  const neverClosed = (input.state.maturity?.blockers ?? []).filter((b) => !closedIds.has(b.id))
  const findings: Array<ResolvedAnswer> = []
  const failed: Array<unknown> = []
  const beforeBlockers = input.recorded?.maturityBefore?.blockers ?? []
  for (const g of closedGaps) {
    const sources = g.sources.map((s) =>
      input.verify(
        s.label === undefined ? { ref: s.ref, quote: s.quote } : { label: s.label, ref: s.ref, quote: s.quote }
      )
    )
    const row = beforeBlockers.find((b) => asObject(b)["id"] === g.id)
    // The category the blocker had (else the recorded one): a closure research may not make —
    // acceptance criteria, business rules, or any label that is not a researchable category, as a
    // state edited by hand may carry — is never applied.
    const stated = row === undefined ? undefined : asObject(row)["category"]
    const category = typeof stated === "string" ? stated : g.category
    if (!isResearchable(category)) {
      failed.push({
        ...(row === undefined ? { id: g.id, category: g.category } : asObject(row)),
        reason: "not-researchable",
        sources
      })
      continue
    }
    if (sources.length > 0 && sources.every((s) => s.verified)) {
      findings.push({ id: g.id, category: g.category, answer: g.answer, sources })
    } else {
      failed.push({
        ...(row === undefined ? { id: g.id, category: g.category } : asObject(row)),
        reason: "no-longer-verified",
        sources
      })
    }
  }
  const remaining = [...neverClosed, ...failed]
  const base = input.recorded?.maturityBefore ?? maturitySnapshot(input.state)
  const blockersBefore = Math.max(base.blockers.length, remaining.length + findings.length)
  return {
    remaining,
    findings,
    maturity: {
      score: rescore(base.score, blockersBefore, findings.length),
      threshold: base.threshold,
      blockers: remaining
    }
  }
}

/** The fresh description with each verified finding appended, with its sources. */
export const describeWithFindings = (description: string, findings: ReadonlyArray<ResolvedAnswer>): string => {
  if (findings.length === 0) return description
  const lines = findings.map((f) => {
    const cites = f.sources.map((s) => `"${s.quote.replace(/\s+/g, " ").trim()}" (${s.ref})`).join("; ")
    return `- ${f.id}${f.category === null ? "" : ` [${f.category}]`}: ${
      f.answer ?? "(no answer text)"
    } — source: ${cites}`
  })
  const head = description.trimEnd()
  return `${head}${head.length > 0 ? "\n\n" : ""}Research findings (quotes verified by dossier gate --recheck):\n${
    lines.join("\n")
  }\n`
}
