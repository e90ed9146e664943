/**
 * What the scans (`next`, `due`, `unresolved-outcomes`) make of one stored run: a pure function
 * of the run's id and the exact bytes of its file (and of this code). The record must be whole
 * and well-formed, name itself, and its receipt digest must match its frozen content; otherwise
 * it is a mismatch (fail closed). The scan index (./ScanIndex.ts) remembers the answer by the
 * SHA-256 of the bytes.
 */
import * as Either from "effect/Either"
import { decodeWith, parseJson } from "./Decode.js"
import { compileGuard } from "./Guard.js"
import type { UnresolvedOutcome } from "./MonitorOutputs.js"
import { receiptDigestOf } from "./MonitorReceipt.js"
import { RunRecord, type RunStatus } from "./MonitorSchema.js"

export type LoadedRun =
  | { readonly _tag: "Ok"; readonly run: RunRecord }
  | RunMismatch

/** A run that failed its load check: unreadable, malformed, naming another id, or its receipt digest differs. */
export interface RunMismatch {
  readonly _tag: "Mismatch"
  readonly runId: string
  readonly revision: number | null
}

const decodeRun = decodeWith(RunRecord)

/** The receipt digest, or null when the stored content has no canonical form (e.g. a lone surrogate). */
const safeDigest = (run: RunRecord): string | null => {
  try {
    return receiptDigestOf(run)
  } catch {
    return null
  }
}

/** A well-formed run record (or `undefined`) as loaded: it must name itself and its receipt digest must match. */
const loadedRun = (runId: string, run: RunRecord | undefined): LoadedRun =>
  run === undefined
    ? { _tag: "Mismatch", runId, revision: null }
    : run.id !== runId || safeDigest(run) !== run.receiptDigest
    ? { _tag: "Mismatch", runId, revision: run.revision }
    : { _tag: "Ok", run }

/** Check a run's stored text: decodes, names itself, and its receipt digest matches. */
export const verifyRunText = (runId: string, text: string): LoadedRun =>
  loadedRun(runId, Either.getOrUndefined(Either.flatMap(parseJson(text), decodeRun)))

/**
 * The whole-record check of the scans: the same answer as the Schema decode of single-run loads,
 * so a scan lists as a mismatch exactly the runs that `show` and the transitions refuse. Scans
 * touch every run, and a Schema decode of each would cost more than reading the files, so the
 * guard is compiled from the Schema (./Guard.ts; bench/monitor.ts measures `next`).
 */
const isRunRecord = compileGuard(RunRecord)

/** Scan check of a run's stored text (see `isRunRecord`). */
export const scanRunText = (runId: string, text: string): LoadedRun => {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    raw = undefined
  }
  return loadedRun(runId, isRunRecord(raw) ? raw : undefined)
}

/** What the scans use of a verified run. */
export interface RunScan {
  readonly id: string
  readonly subscriptionId: string
  readonly createdAt: string
  readonly status: RunStatus
  readonly revision: number
  readonly target: string
  readonly completion: Pick<NonNullable<RunRecord["completion"]>, "stage" | "survey"> | null
  readonly unresolved: ReadonlyArray<UnresolvedOutcome>
}

/** A scan's answer for one run file. */
export type RunScanResult = RunScan | RunMismatch

export const isRunMismatch = (r: RunScanResult): r is RunMismatch => "_tag" in r

/** Shared by every run without an undecided outcome (never mutated: scans only read it). */
export const NONE_UNRESOLVED: ReadonlyArray<UnresolvedOutcome> = Object.freeze([])

const unresolvedOf = (run: RunRecord): ReadonlyArray<UnresolvedOutcome> => {
  if (run.status !== "completed") return NONE_UNRESOLVED
  let out: Array<UnresolvedOutcome> | null = null
  for (const o of run.outcomes) {
    if (o.disposition !== null) continue
    if (out === null) out = []
    out.push({
      runId: run.id,
      runRevision: run.revision,
      subscriptionId: run.subscriptionId,
      outcomeId: o.id,
      label: o.label,
      reason: o.reason,
      citations: o.citations
    })
  }
  return out ?? NONE_UNRESOLVED
}

export const runScanOf = (run: RunRecord): RunScan => ({
  id: run.id,
  subscriptionId: run.subscriptionId,
  createdAt: run.createdAt,
  status: run.status,
  revision: run.revision,
  target: run.frozen.target,
  completion: run.completion === null ? null : { stage: run.completion.stage, survey: run.completion.survey },
  unresolved: unresolvedOf(run)
})

/** A scan's answer for the run `runId` stored as `text`: only what the scans use is kept. */
export const scanRun = (runId: string, text: string): RunScanResult => {
  const loaded = scanRunText(runId, text)
  return loaded._tag === "Ok" ? runScanOf(loaded.run) : loaded
}
