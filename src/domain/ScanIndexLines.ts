/**
 * The run lines of the scan index (./ScanIndex.ts): how one run's scan answer (./RunScan.ts) is
 * written as a line, and `RunIndex`, which reads the lines of a loaded index where they are
 * stored (one buffer and the offsets of its lines: nothing per run lives on the JavaScript heap
 * until a scan asks for it). A run is found by its id and the SHA-256 of its file's bytes, and
 * only then decoded.
 *
 * The layout, one line per run, sorted by run id, fields separated by tabs (JSON strings never
 * hold a raw tab or newline):
 *
 *   quiet     idJSON  fileSha256  q  revision  stageSha256  surveySha256|-  stagePathJSON  surveyPathJSON|-  subscriptionIdJSON  createdAtJSON  targetJSON
 *   verified  idJSON  fileSha256  v  [subscriptionId, createdAt, status, revision, target, completion, unresolved]
 *   mismatch  idJSON  fileSha256  m  revision|null
 *
 * with completion `null | [stagePath, stageSha256, surveyPath | null, surveySha256 | null]` and
 * unresolved `0 | [[outcomeId, label, reason, citations], …]`. A quiet run (completed, nothing
 * undecided: the usual state of almost every run) has the short line of fixed fields; it is
 * written only when its revision is a safe non-negative integer and its digests are 64 hex
 * digits (the schema's rule); otherwise the run is written as verified.
 */
import { sha256Base64 } from "./Canonical.js"
import type { UnresolvedOutcome } from "./MonitorOutputs.js"
import type { RunStatus } from "./MonitorSchema.js"
import { isRunMismatch, NONE_UNRESOLVED, type RunScan, type RunScanResult } from "./RunScan.js"

export interface RunScanIndexEntry {
  /** SHA-256 (base64) of the run file's bytes the result was computed from. */
  readonly sha256: string
  readonly result: RunScanResult
}

/** The digest the index keys a file's bytes by (SHA-256, base64: 20 characters a file fewer than hex to store and compare). */
export const fileDigest: (bytes: Uint8Array) => string = sha256Base64

/** Length of a `fileDigest`. */
export const FILE_DIGEST_LENGTH = 44

/** A completed run with a completion and no undecided outcome: written as a quiet line. */
export const isQuietRun = (r: RunScan): boolean =>
  r.status === "completed" && r.completion !== null && r.unresolved.length === 0

const TAB = 0x09
const NL = 0x0a
const QUOTE = 0x22
const BACKSLASH = 0x5c
const DASH = 0x2d
const KIND_QUIET = 0x71 // q
const KIND_VERIFIED = 0x76 // v
const KIND_MISMATCH = 0x6d // m
const HEX64 = /^[0-9a-f]{64}$/

const json = JSON.stringify

/** The line of a run for a new index (with its newline). */
export const runLine = (runId: string, sha256: string, r: RunScanResult): string => {
  const head = `${json(runId)}\t${sha256}\t`
  if (isRunMismatch(r)) return `${head}m\t${json(r.revision)}\n`
  const c = r.completion
  if (
    isQuietRun(r) && c !== null && Number.isSafeInteger(r.revision) && r.revision >= 0 && HEX64.test(c.stage.sha256) &&
    (c.survey === null || HEX64.test(c.survey.sha256))
  ) {
    return `${head}q\t${r.revision}\t${c.stage.sha256}\t${c.survey?.sha256 ?? "-"}\t${json(c.stage.path)}\t${
      c.survey === null ? "-" : json(c.survey.path)
    }\t${json(r.subscriptionId)}\t${json(r.createdAt)}\t${json(r.target)}\n`
  }
  const completion = c === null
    ? null
    : [c.stage.path, c.stage.sha256, c.survey?.path ?? null, c.survey?.sha256 ?? null]
  const unresolved = r.unresolved.length === 0
    ? 0
    : r.unresolved.map((u) => [u.outcomeId, u.label, u.reason, u.citations])
  return `${head}v\t${json([r.subscriptionId, r.createdAt, r.status, r.revision, r.target, completion, unresolved])}\n`
}

/** A run of a new index: a line of the index being replaced (reused byte for byte), or one made by `runLine`. */
export type RunLineSource = number | string

const str = (u: unknown): u is string => typeof u === "string"
const strOrNull = (u: unknown): u is string | null => u === null || typeof u === "string"

/**
 * The run lines of an index, as stored (one buffer and the offsets of its lines: nothing per run
 * lives on the JavaScript heap). Lines are numbered 0…size-1 in id order. Looking a run up
 * compares bytes and makes no string; a quiet run's bindings are read from their fields.
 */
export class RunIndex {
  /** The line after the last one found: the scans look runs up in id order. */
  #cursor = 0
  /** Of each quiet line `find` accepted: where its stage digest starts (0 until then). */
  readonly #stageAt: Uint32Array

  constructor(private readonly buf: Buffer, private readonly starts: Uint32Array) {
    this.#stageAt = new Uint32Array(Math.max(0, starts.length - 1))
  }

  get size(): number {
    return this.starts.length - 1
  }

  /** End of the id field of line `k` (its first tab), or -1 when the line has none. */
  private idEnd(k: number): number {
    const t = this.buf.indexOf(TAB, this.starts[k]!)
    return t < 0 || t >= this.starts[k + 1]! ? -1 : t
  }

  /** The run id of line `k`, or undefined when the line is malformed. */
  runId(k: number): string | undefined {
    const t = this.idEnd(k)
    return t < 0 ? undefined : this.jsonString(this.starts[k]!, t)
  }

  /**
   * Whether line `k` holds `runId`: compared byte for byte when the id needs no escaping in JSON
   * and is ASCII (every valid run id is), else decoded.
   */
  private holds(k: number, runId: string): boolean {
    const s = this.starts[k]!
    const n = runId.length
    for (let j = 0; j < n; j++) {
      const c = runId.charCodeAt(j)
      if (c >= 0x7f || c < 0x20 || c === QUOTE || c === BACKSLASH) return this.runId(k) === runId
    }
    if (
      s + n + 2 >= this.starts[k + 1]! || this.buf[s] !== QUOTE || this.buf[s + n + 1] !== QUOTE ||
      this.buf[s + n + 2] !== TAB
    ) {
      return false
    }
    for (let j = 0; j < n; j++) if (this.buf[s + 1 + j] !== runId.charCodeAt(j)) return false
    return true
  }

  /** Whether the `length` bytes at `at` are the ASCII text `text`. */
  private bytesAre(at: number, text: string, length: number): boolean {
    if (text.length !== length) return false
    for (let j = 0; j < length; j++) if (this.buf[at + j] !== text.charCodeAt(j)) return false
    return true
  }

  /**
   * The line of `runId` whose file digest is `sha256`, or -1; a quiet line only when its fields
   * are well-formed (a verified or mismatch line is checked by `result`). Looked up next to the
   * previous find first (the scans go in id order), else by bisection.
   */
  find(runId: string, sha256: string): number {
    const n = this.size
    let k = -1
    const c = this.#cursor
    if (c < n && this.holds(c, runId)) k = c
    else {
      let lo = 0
      let hi = n - 1
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1
        const id = this.runId(mid)
        if (id === undefined) return -1
        if (id === runId) {
          k = mid
          break
        }
        if (id < runId) lo = mid + 1
        else hi = mid - 1
      }
    }
    if (k < 0) return -1
    this.#cursor = k + 1
    const t = this.idEnd(k)
    const end = this.starts[k + 1]! - 1
    if (
      t + FILE_DIGEST_LENGTH + 3 > end || this.buf[t + FILE_DIGEST_LENGTH + 1] !== TAB ||
      this.buf[t + FILE_DIGEST_LENGTH + 3] !== TAB
    ) return -1
    if (!this.bytesAre(t + 1, sha256, FILE_DIGEST_LENGTH)) return -1
    const kind = this.buf[t + FILE_DIGEST_LENGTH + 2]
    if (kind === KIND_QUIET) {
      const stageAt = this.quietStageAt(t + FILE_DIGEST_LENGTH + 4, end)
      if (stageAt < 0) return -1
      this.#stageAt[k] = stageAt
      return k
    }
    return kind === KIND_VERIFIED || kind === KIND_MISMATCH ? k : -1
  }

  /**
   * Check the fields of a quiet line from its revision (at `p`) to its end (the newline at
   * `end`): where its stage digest starts, or -1 when a field is malformed.
   */
  private quietStageAt(p: number, end: number): number {
    const buf = this.buf
    const revision = p
    while (p < end && buf[p]! >= 0x30 && buf[p]! <= 0x39) p++
    if (p === revision || p - revision > 15 || buf[p] !== TAB) return -1
    const stageAt = p + 1
    if (stageAt + 64 >= end || buf[stageAt + 64] !== TAB) return -1
    p = stageAt + 65
    const noSurvey = buf[p] === DASH && buf[p + 1] === TAB
    if (noSurvey) p += 2
    else if (p + 64 < end && buf[p + 64] === TAB) p += 65
    else return -1
    // stage path, survey path (or -), subscription id, creation time, target (ends the line)
    for (let field = 6; field <= 10; field++) {
      const e = field === 10 ? end : buf.indexOf(TAB, p)
      if (e < 0 || e > end) return -1
      const ok = field === 7 && noSurvey ? e - p === 1 && buf[p] === DASH : this.isJsonString(p, e)
      if (!ok) return -1
      p = e + 1
    }
    return p === end + 1 ? stageAt : -1
  }

  /** Whether line `k` (found by `find`) is a quiet run. */
  isQuiet(k: number): boolean {
    return this.#stageAt[k] !== 0
  }

  /** The file digest of line `k` (found by `find`). */
  sha256(k: number): string {
    const t = this.idEnd(k)
    return this.buf.toString("latin1", t + 1, t + 1 + FILE_DIGEST_LENGTH)
  }

  /** Where the survey digest (or `-`) of quiet line `k` starts. */
  private surveyAt(k: number): number {
    return this.#stageAt[k]! + 65
  }

  /** Where the stage path of quiet line `k` starts. */
  private stagePathAt(k: number): number {
    const p = this.surveyAt(k)
    return this.buf[p] === DASH ? p + 2 : p + 65
  }

  /** The stage path of quiet line `k` (found by `find`). */
  stagePath(k: number): string {
    const p = this.stagePathAt(k)
    return this.jsonString(p, this.buf.indexOf(TAB, p))!
  }

  /** The stage digest (hex) of quiet line `k` (found by `find`). */
  stageSha256(k: number): string {
    const p = this.#stageAt[k]!
    return this.buf.toString("latin1", p, p + 64)
  }

  /** The survey path of quiet line `k` (found by `find`), or null when the run has none. */
  surveyPath(k: number): string | null {
    if (this.buf[this.surveyAt(k)] === DASH) return null
    const p = this.buf.indexOf(TAB, this.stagePathAt(k)) + 1
    return this.jsonString(p, this.buf.indexOf(TAB, p))!
  }

  /** The survey digest (hex) of quiet line `k` (found by `find`), or null when the run has none. */
  surveySha256(k: number): string | null {
    const p = this.surveyAt(k)
    return this.buf[p] === DASH ? null : this.buf.toString("latin1", p, p + 64)
  }

  /** What the scan made of the run of line `k`, or undefined when the line is malformed. */
  result(k: number): RunScanResult | undefined {
    const runId = this.runId(k)
    if (runId === undefined) return undefined
    const t = this.idEnd(k)
    const kind = this.buf[t + FILE_DIGEST_LENGTH + 2]
    const rest = t + FILE_DIGEST_LENGTH + 4
    const end = this.starts[k + 1]! - 1
    if (kind === KIND_QUIET) {
      const stageAt = this.quietStageAt(rest, end)
      if (stageAt < 0) return undefined
      this.#stageAt[k] = stageAt
      // stage path, survey path (or -), subscription id, creation time, target
      const fields: Array<string | undefined> = []
      for (let p = this.stagePathAt(k); p <= end;) {
        const e = this.buf.indexOf(fields.length === 4 ? NL : TAB, p)
        fields.push(this.jsonString(p, e))
        p = e + 1
      }
      const text = (i: number) => fields[i]!
      const surveyPath = fields[1] ?? null // `-` (no survey) is not a JSON string
      return {
        id: runId,
        subscriptionId: text(2),
        createdAt: text(3),
        status: "completed",
        revision: Number(this.buf.toString("latin1", rest, stageAt - 1)),
        target: text(4),
        completion: {
          stage: { path: text(0), sha256: this.stageSha256(k) },
          survey: surveyPath === null ? null : { path: surveyPath, sha256: this.surveySha256(k)! }
        },
        unresolved: NONE_UNRESOLVED
      }
    }
    let row: unknown
    try {
      row = JSON.parse(this.buf.toString("utf8", rest, end))
    } catch {
      return undefined
    }
    if (kind === KIND_MISMATCH) {
      return row === null || typeof row === "number"
        ? { _tag: "Mismatch", runId, revision: row }
        : undefined
    }
    return kind === KIND_VERIFIED && Array.isArray(row) ? verifiedOf(runId, row) : undefined
  }

  /** Line `k` with its newline, as stored. */
  lineBytes(k: number): Buffer {
    return this.buf.subarray(this.starts[k]!, this.starts[k + 1]!)
  }

  /** Every line that is well-formed, as entries (tests; scans use `find`). */
  *entries(): Generator<readonly [string, RunScanIndexEntry]> {
    for (let k = 0; k < this.size; k++) {
      const runId = this.runId(k)
      const result = this.result(k)
      if (runId !== undefined && result !== undefined) yield [runId, { sha256: this.sha256(k), result }]
    }
  }

  /**
   * The JSON string stored between `s` and `e`, or undefined. Without a backslash its text is
   * the string itself (JSON.stringify escapes quotes and control characters).
   */
  private jsonString(s: number, e: number): string | undefined {
    if (e - s < 2 || this.buf[s] !== QUOTE || this.buf[e - 1] !== QUOTE) return undefined
    return this.plain(s, e) ? this.buf.toString("utf8", s + 1, e - 1) : this.parsedString(s, e)
  }

  /** `jsonString(s, e) !== undefined`, without making the string when it needs no unescaping. */
  private isJsonString(s: number, e: number): boolean {
    if (e - s < 2 || this.buf[s] !== QUOTE || this.buf[e - 1] !== QUOTE) return false
    return this.plain(s, e) || this.parsedString(s, e) !== undefined
  }

  /** No backslash or quote inside the quotes of the JSON string between `s` and `e`. */
  private plain(s: number, e: number): boolean {
    for (let i = s + 1; i < e - 1; i++) if (this.buf[i] === BACKSLASH || this.buf[i] === QUOTE) return false
    return true
  }

  private parsedString(s: number, e: number): string | undefined {
    try {
      const v: unknown = JSON.parse(this.buf.toString("utf8", s, e))
      return typeof v === "string" ? v : undefined
    } catch {
      return undefined
    }
  }
}

/** A verified row: `[subscriptionId, createdAt, status, revision, target, completion, unresolved]`. */
const verifiedOf = (id: string, row: ReadonlyArray<unknown>): RunScan | undefined => {
  if (row.length !== 7) return undefined
  const [subscriptionId, createdAt, status, revision, target, c, u] = row
  if (!str(subscriptionId) || !str(createdAt) || !str(status) || typeof revision !== "number" || !str(target)) {
    return undefined
  }
  if (
    c !== null &&
    (!Array.isArray(c) || c.length !== 4 || !str(c[0]) || !str(c[1]) || !strOrNull(c[2]) || !strOrNull(c[3]))
  ) {
    return undefined
  }
  let unresolved: ReadonlyArray<UnresolvedOutcome> = NONE_UNRESOLVED
  if (u !== 0) {
    if (!Array.isArray(u)) return undefined
    for (const o of u) {
      if (!Array.isArray(o) || o.length !== 4 || !str(o[0]) || !str(o[1]) || !str(o[2]) || !Array.isArray(o[3])) {
        return undefined
      }
    }
    unresolved = u.map(([outcomeId, label, reason, citations]) => ({
      runId: id,
      runRevision: revision,
      subscriptionId,
      outcomeId,
      label,
      reason,
      citations
    }))
  }
  return {
    id,
    subscriptionId,
    createdAt,
    status: status as RunStatus,
    revision,
    target,
    completion: c === null ? null : {
      stage: { path: c[0], sha256: c[1] },
      survey: c[2] === null || c[3] === null ? null : { path: c[2], sha256: c[3] }
    },
    unresolved
  }
}
