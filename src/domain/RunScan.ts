/**
 * What the scans (`next`, `due`, `unresolved-outcomes`) make of one stored run, and the run scan
 * index that remembers it.
 *
 * A scan's answer for a run is a pure function of the run's id and the exact bytes of its file
 * (and of this code): the record must be whole and well-formed, name itself, and its receipt
 * digest must match its frozen content; otherwise it is a mismatch (fail closed). The index keeps
 * that answer keyed by the SHA-256 of the bytes it was computed from, so a later scan that reads
 * the same bytes again reuses it instead of parsing, checking and digesting the record again:
 * every scan still reads every run file whole and hashes it, so an edit of any byte — by hand,
 * by a tool, by a rollback — is seen by the next scan exactly as before. Nothing but content is
 * trusted (no timestamps, sizes or inode numbers).
 *
 * The index is derived state (`.dossier/monitor/run-scan.index`): a header line with its own
 * SHA-256 over the body and a stamp naming the rules that made it (RUN_SCAN_INDEX_VERSION and
 * the Node.js and time-zone database versions), then the body. Anything that does not match —
 * another stamp, a damaged or truncated file, a missing one — is ignored whole and rebuilt by the
 * scan; it can make a scan slower, never different.
 */
import * as Either from "effect/Either"
import { sha256Hex } from "./Canonical.js"
import { decodeWith, parseJson } from "./Decode.js"
import { compileGuard } from "./Guard.js"
import { receiptDigestOf, RunRecord, type RunStatus, type UnresolvedOutcome } from "./Monitor.js"

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
 * touch every run, and a Schema decode of each dominated `next` (measured: ~3x the cost of
 * reading the files), so the guard is compiled from the Schema (./Guard.ts, ~5 µs a record).
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
const NONE_UNRESOLVED: ReadonlyArray<UnresolvedOutcome> = Object.freeze([])

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

const runScanOf = (run: RunRecord): RunScan => ({
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

// --- the run scan index ----------------------------------------------------------------------

/**
 * Bump whenever what `scanRun` makes of a run's bytes changes (the RunRecord schema, the guard,
 * the receipt digest, the RunScan fields): an index written under another version is ignored.
 * test/monitor/runScanIndex.test.ts pins a fingerprint of the RunRecord schema as a reminder.
 */
export const RUN_SCAN_INDEX_VERSION = 1
const FORMAT = "dossier-run-scan-index"

/** The rules an index was made under: this code's version and the runtime's time-zone data. */
export const runScanStamp = (versions: { readonly node?: string; readonly tz?: string; readonly icu?: string }): string =>
  `v${RUN_SCAN_INDEX_VERSION} node ${versions.node ?? "?"} tz ${versions.tz ?? "?"} icu ${versions.icu ?? "?"}`

export interface RunScanIndexEntry {
  /** SHA-256 (hex) of the run file's bytes the result was computed from. */
  readonly sha256: string
  readonly result: RunScanResult
}

export type RunScanIndex = ReadonlyMap<string, RunScanIndexEntry>

export const EMPTY_RUN_SCAN_INDEX: RunScanIndex = new Map()

/** The scan's answer for `runId` from the bytes just read: the index's when they are the same bytes, else computed. */
export const scanWithIndex = (
  index: RunScanIndex,
  runId: string,
  bytes: Uint8Array,
  textOf: (bytes: Uint8Array) => string
): { readonly entry: RunScanIndexEntry; readonly reused: boolean } => {
  const sha256 = sha256Hex(bytes)
  const known = index.get(runId)
  if (known !== undefined && known.sha256 === sha256) return { entry: known, reused: true }
  return { entry: { sha256, result: scanRun(runId, textOf(bytes)) }, reused: false }
}

/**
 * The index file: a header line `{format, stamp, count, sha256}` (the SHA-256 of the body), then
 * the body, one row per run file, positional so that it is small and quick to parse:
 * a verified run `[runId, fileSha256, subscriptionId, createdAt, status, revision, target,
 * completion, unresolved]` with completion `null | [stagePath, stageSha256, surveyPath | null,
 * surveySha256 | null]` and unresolved `0 | [[outcomeId, label, reason, citations], …]`;
 * a mismatch `[runId, fileSha256, revision | null]`.
 */
export const encodeRunScanIndex = (stamp: string, index: RunScanIndex): string => {
  const rows: Array<ReadonlyArray<unknown>> = []
  for (const [runId, { result: r, sha256 }] of index) {
    if (isRunMismatch(r)) {
      rows.push([runId, sha256, r.revision])
      continue
    }
    const c = r.completion
    rows.push([
      runId,
      sha256,
      r.subscriptionId,
      r.createdAt,
      r.status,
      r.revision,
      r.target,
      c === null ? null : [c.stage.path, c.stage.sha256, c.survey?.path ?? null, c.survey?.sha256 ?? null],
      r.unresolved.length === 0 ? 0 : r.unresolved.map((u) => [u.outcomeId, u.label, u.reason, u.citations])
    ])
  }
  const body = JSON.stringify(rows)
  return `${JSON.stringify({ format: FORMAT, stamp, count: rows.length, sha256: sha256Hex(body) })}\n${body}`
}

const SHA256_HEX = /^[0-9a-f]{64}$/

/**
 * The index stored as `bytes`, or undefined when it is not one this code made under `stamp`
 * (another format or stamp, a body whose SHA-256 differs from the header's, malformed rows).
 * Past the body's digest the rows are only checked for shape: only this code writes them.
 */
export const decodeRunScanIndex = (stamp: string, bytes: Uint8Array): RunScanIndex | undefined => {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const nl = buf.indexOf(0x0a)
  if (nl < 0) return undefined
  let header: unknown
  let rows: unknown
  try {
    header = JSON.parse(buf.toString("utf8", 0, nl))
    if (!isHeader(header) || header.format !== FORMAT || header.stamp !== stamp) return undefined
    const body = buf.subarray(nl + 1)
    if (sha256Hex(body) !== header.sha256) return undefined
    rows = JSON.parse(body.toString("utf8"))
  } catch {
    return undefined
  }
  if (!Array.isArray(rows) || rows.length !== header.count) return undefined
  const index = new Map<string, RunScanIndexEntry>()
  for (const row of rows) {
    const entry = Array.isArray(row) ? entryOf(row) : undefined
    if (entry === undefined || index.has(row[0])) return undefined
    index.set(row[0], entry)
  }
  return index
}

const str = (u: unknown): u is string => typeof u === "string"
const strOrNull = (u: unknown): u is string | null => u === null || typeof u === "string"

const entryOf = (row: ReadonlyArray<unknown>): RunScanIndexEntry | undefined => {
  const [runId, sha256] = row
  if (!str(runId) || !str(sha256) || !SHA256_HEX.test(sha256)) return undefined
  if (row.length === 3) {
    const revision = row[2]
    if (revision !== null && typeof revision !== "number") return undefined
    return { sha256, result: { _tag: "Mismatch", runId, revision } }
  }
  if (row.length !== 9) return undefined
  const [, , subscriptionId, createdAt, status, revision, target, c, u] = row
  if (!str(subscriptionId) || !str(createdAt) || !str(status) || typeof revision !== "number" || !str(target)) return undefined
  let completion: RunScan["completion"] = null
  if (c !== null) {
    if (!Array.isArray(c) || c.length !== 4) return undefined
    const [stagePath, stageSha, surveyPath, surveySha] = c
    if (!str(stagePath) || !str(stageSha) || !strOrNull(surveyPath) || !strOrNull(surveySha)) return undefined
    completion = {
      stage: { path: stagePath, sha256: stageSha },
      survey: surveyPath === null || surveySha === null ? null : { path: surveyPath, sha256: surveySha }
    }
  }
  let unresolved: ReadonlyArray<UnresolvedOutcome> = NONE_UNRESOLVED
  if (u !== 0) {
    if (!Array.isArray(u)) return undefined
    const out: Array<UnresolvedOutcome> = []
    for (const o of u) {
      if (!Array.isArray(o) || o.length !== 4 || !str(o[0]) || !str(o[1]) || !str(o[2]) || !Array.isArray(o[3])) return undefined
      out.push({
        runId,
        runRevision: revision,
        subscriptionId,
        outcomeId: o[0],
        label: o[1] as UnresolvedOutcome["label"],
        reason: o[2],
        citations: o[3]
      })
    }
    unresolved = out
  }
  return {
    sha256,
    result: { id: runId, subscriptionId, createdAt, status: status as RunStatus, revision, target, completion, unresolved }
  }
}

const isHeader = (u: unknown): u is { format: string; stamp: string; count: number; sha256: string } => {
  if (typeof u !== "object" || u === null) return false
  const h = u as Record<string, unknown>
  return typeof h["format"] === "string" && typeof h["stamp"] === "string" && typeof h["count"] === "number" &&
    typeof h["sha256"] === "string"
}
