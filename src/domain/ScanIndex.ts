/**
 * The scan index: what the scans made of each monitor record file, keyed by the SHA-256 of the
 * exact bytes it was made from, so that a later scan that reads the same bytes again reuses the
 * answer instead of parsing, checking and digesting the record again.
 *
 * - Runs: the scan's whole answer (./RunScan.ts: verified and the fields the scans use, or a
 *   mismatch).
 * - Subscriptions: that the file passed the whole-record check under its id (the record itself is
 *   still parsed from the file; failures are not kept and are checked again each time).
 *
 * Every scan still reads every file whole and hashes it, so an edit of any byte — by hand, by a
 * tool, by a rollback — is seen by the very next scan. Nothing but content is trusted (no
 * timestamps, sizes or inode numbers).
 *
 * The index is derived state (`.dossier/monitor/scan.index`): a header line with the SHA-256 of
 * the body and a stamp naming the rules that made it (SCAN_INDEX_VERSION and the Node.js,
 * time-zone and ICU versions), then the body. Anything that does not match — another stamp, a
 * damaged or truncated file, a missing one — is ignored whole and rebuilt by the scan: the index
 * can make a scan slower, never different.
 */
import { toBuffer } from "./Bytes.js"
import { sha256Base64, sha256Hex } from "./Canonical.js"
import type { RunStatus, UnresolvedOutcome } from "./Monitor.js"
import { isRunMismatch, NONE_UNRESOLVED, type RunScan, type RunScanResult, scanRun } from "./RunScan.js"

/**
 * Bump whenever what the scans make of a record's bytes changes (the RunRecord or
 * SubscriptionRecord schema, the guards, the receipt digest, the RunScan fields): an index written
 * under another version is ignored. test/monitor/scanIndex.test.ts pins a fingerprint of both
 * schemas as a reminder.
 */
export const SCAN_INDEX_VERSION = 1
const FORMAT = "dossier-scan-index"

/** The rules an index was made under: this code's version and the runtime's time-zone data. */
export const scanStamp = (versions: { readonly node?: string; readonly tz?: string; readonly icu?: string }): string =>
  `v${SCAN_INDEX_VERSION} node ${versions.node ?? "?"} tz ${versions.tz ?? "?"} icu ${versions.icu ?? "?"}`

export interface RunScanIndexEntry {
  /** SHA-256 (base64) of the run file's bytes the result was computed from. */
  readonly sha256: string
  readonly result: RunScanResult
}

export interface ScanIndex {
  /** By run id. */
  readonly runs: ReadonlyMap<string, RunScanIndexEntry>
  /** By subscription id: the SHA-256 (base64) of a file that passed the whole-record check under that id. */
  readonly subscriptions: ReadonlyMap<string, string>
}

/** The digest the index keys a file's bytes by (SHA-256, base64: 20 characters a file fewer than hex to store and parse). */
export const fileDigest: (bytes: Uint8Array) => string = sha256Base64

export const EMPTY_SCAN_INDEX: ScanIndex = { runs: new Map(), subscriptions: new Map() }

/** The scan's answer for `runId` from the bytes just read: the index's when they are the same bytes, else computed. */
export const scanRunWithIndex = (
  index: ScanIndex["runs"],
  runId: string,
  bytes: Uint8Array,
  textOf: (bytes: Uint8Array) => string
): { readonly entry: RunScanIndexEntry; readonly reused: boolean } => {
  const sha256 = fileDigest(bytes)
  const known = index.get(runId)
  if (known !== undefined && known.sha256 === sha256) return { entry: known, reused: true }
  return { entry: { sha256, result: scanRun(runId, textOf(bytes)) }, reused: false }
}

/**
 * The index file: a header line `{format, stamp, runs, subscriptions, sha256}` (counts, and the
 * SHA-256 of the body), then the body `{runs: [row…], subscriptions: [[id, sha256]…]}`, the run
 * rows positional so that they are small and quick to parse: a verified run `[runId, fileSha256,
 * subscriptionId, createdAt, status, revision, target, completion, unresolved]` with completion `null | [stagePath, stageSha256, surveyPath | null,
 * surveySha256 | null]` and unresolved `0 | [[outcomeId, label, reason, citations], …]`;
 * a mismatch `[runId, fileSha256, revision | null]`.
 */
export const encodeScanIndex = (stamp: string, index: ScanIndex): string => {
  const rows: Array<ReadonlyArray<unknown>> = []
  for (const [runId, { result: r, sha256 }] of index.runs) {
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
  const subscriptions = [...index.subscriptions]
  const body = JSON.stringify({ runs: rows, subscriptions })
  const header = { format: FORMAT, stamp, runs: rows.length, subscriptions: subscriptions.length, sha256: sha256Hex(body) }
  return `${JSON.stringify(header)}\n${body}`
}

/** A file digest as the index stores it (SHA-256 in base64). */
const isSha256 = (u: unknown): u is string => typeof u === "string" && u.length === 44

/**
 * The index stored as `bytes`, or undefined when it is not one this code made under `stamp`
 * (another format or stamp, a body whose SHA-256 differs from the header's, malformed rows).
 * Past the body's digest the rows are only checked for shape: only this code writes them.
 */
export const decodeScanIndex = (stamp: string, bytes: Uint8Array): ScanIndex | undefined => {
  const buf = toBuffer(bytes)
  const nl = buf.indexOf(0x0a)
  if (nl < 0) return undefined
  let header: unknown
  let body: unknown
  try {
    header = JSON.parse(buf.toString("utf8", 0, nl))
    if (!isHeader(header) || header.format !== FORMAT || header.stamp !== stamp) return undefined
    const text = buf.subarray(nl + 1)
    if (sha256Hex(text) !== header.sha256) return undefined
    body = JSON.parse(text.toString("utf8"))
  } catch {
    return undefined
  }
  if (typeof body !== "object" || body === null) return undefined
  const { runs: rows, subscriptions: subs } = body as { runs?: unknown; subscriptions?: unknown }
  if (!Array.isArray(rows) || rows.length !== header.runs || !Array.isArray(subs) || subs.length !== header.subscriptions) {
    return undefined
  }
  const runs = new Map<string, RunScanIndexEntry>()
  for (const row of rows) {
    const entry = Array.isArray(row) ? entryOf(row) : undefined
    if (entry === undefined || runs.has(row[0])) return undefined
    runs.set(row[0], entry)
  }
  const subscriptions = new Map<string, string>()
  for (const pair of subs) {
    if (!Array.isArray(pair) || pair.length !== 2 || !str(pair[0]) || !isSha256(pair[1]) || subscriptions.has(pair[0])) return undefined
    subscriptions.set(pair[0], pair[1])
  }
  return { runs, subscriptions }
}

const str = (u: unknown): u is string => typeof u === "string"
const strOrNull = (u: unknown): u is string | null => u === null || typeof u === "string"

/** A verified run's row: `[runId, fileSha256, subscriptionId, createdAt, status, revision, target, completion, unresolved]`. */
type RunRow = readonly [string, string, string, string, RunStatus, number, string, CompletionCell, UnresolvedCell]
type CompletionCell = null | readonly [string, string, string | null, string | null]
type UnresolvedCell = 0 | ReadonlyArray<readonly [string, UnresolvedOutcome["label"], string, UnresolvedOutcome["citations"]]>

/**
 * A verified run read from the index: both the index entry and the RunScan, answering from its row
 * through getters; the nested values are built the first time they are read. The rows live for the
 * whole scan, and every object made per row at load is copied by the young-generation collector
 * before it is promoted: answering from the row took the collector's time on `next` over 10,000
 * runs from ~120 to ~105 ms (`--trace-gc`, three runs each).
 */
class IndexedRun implements RunScanIndexEntry, RunScan {
  #completion: RunScan["completion"] | undefined = undefined
  #unresolved: ReadonlyArray<UnresolvedOutcome> | undefined = undefined
  constructor(private readonly row: RunRow) {}
  get sha256(): string {
    return this.row[1]
  }
  get result(): RunScanResult {
    return this
  }
  get id(): string {
    return this.row[0]
  }
  get subscriptionId(): string {
    return this.row[2]
  }
  get createdAt(): string {
    return this.row[3]
  }
  get status(): RunStatus {
    return this.row[4]
  }
  get revision(): number {
    return this.row[5]
  }
  get target(): string {
    return this.row[6]
  }
  get completion(): RunScan["completion"] {
    if (this.#completion === undefined) {
      const c = this.row[7]
      this.#completion = c === null ? null : {
        stage: { path: c[0], sha256: c[1] },
        survey: c[2] === null || c[3] === null ? null : { path: c[2], sha256: c[3] }
      }
    }
    return this.#completion
  }
  get unresolved(): ReadonlyArray<UnresolvedOutcome> {
    if (this.#unresolved === undefined) {
      const u = this.row[8]
      const [runId, , subscriptionId, , , runRevision] = this.row
      this.#unresolved = u === 0 ? NONE_UNRESOLVED : u.map(([outcomeId, label, reason, citations]) => ({
        runId,
        runRevision,
        subscriptionId,
        outcomeId,
        label,
        reason,
        citations
      }))
    }
    return this.#unresolved
  }
}

/** Shape checks of a row (past the body's digest, only this code wrote it). */
const entryOf = (row: ReadonlyArray<unknown>): RunScanIndexEntry | undefined => {
  const [runId, sha256] = row
  if (!str(runId) || !isSha256(sha256)) return undefined
  if (row.length === 3) {
    const revision = row[2]
    if (revision !== null && typeof revision !== "number") return undefined
    return { sha256, result: { _tag: "Mismatch", runId, revision } }
  }
  if (row.length !== 9) return undefined
  const [, , subscriptionId, createdAt, status, revision, target, c, u] = row
  if (!str(subscriptionId) || !str(createdAt) || !str(status) || typeof revision !== "number" || !str(target)) return undefined
  if (c !== null) {
    if (!Array.isArray(c) || c.length !== 4) return undefined
    if (!str(c[0]) || !str(c[1]) || !strOrNull(c[2]) || !strOrNull(c[3])) return undefined
  }
  if (u !== 0) {
    if (!Array.isArray(u)) return undefined
    for (const o of u) {
      if (!Array.isArray(o) || o.length !== 4 || !str(o[0]) || !str(o[1]) || !str(o[2]) || !Array.isArray(o[3])) return undefined
    }
  }
  return new IndexedRun(row as unknown as RunRow)
}

const isHeader = (u: unknown): u is { format: string; stamp: string; runs: number; subscriptions: number; sha256: string } => {
  if (typeof u !== "object" || u === null) return false
  const h = u as Record<string, unknown>
  return typeof h["format"] === "string" && typeof h["stamp"] === "string" && typeof h["runs"] === "number" &&
    typeof h["subscriptions"] === "number" && typeof h["sha256"] === "string"
}
