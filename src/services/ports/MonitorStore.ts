/**
 * The monitor's storage ports (issue 25): what the monitor's logic (src/layers/MonitorLive.ts)
 * needs from whatever holds its state, over the shapes of ../Store.ts. Two tags:
 *
 * - `MonitorStore`: the monitor's own records. Subscriptions and runs are `VersionedRecords`
 *   (the revision is the record's own `revision` field; a write names the revision it read).
 *   Completion reports are an `EventLog` whose streams are programs. `commit` writes several of
 *   them as one (all or nothing). The scans answer every record, checked.
 * - `MonitorFiles`: the work folder's files a run is bound to or cites (stage, survey, sources,
 *   unit files), by path. `ContentStore` cannot serve here: the monitor does not store these
 *   bytes, it checks whether the file a user names still has the bytes a run was completed with,
 *   so the question is "what is at this path now", not "give me the bytes of this digest".
 *
 * Every call a command makes runs inside the `Lock` (the unit of atomicity: the folder's lock
 * file, or one SQL transaction), except the scans of a reader that could not take it
 * (`readOnly`).
 *
 * For a SQL adapter (src/layers/postgres/MonitorStorePostgres.ts does this over the generic tables):
 * - `subscriptions`/`runs`: one row per record, `(id PRIMARY KEY, revision, record JSONB)`;
 *   `put(k, v, null)` is an `INSERT` (a unique violation is `StaleRevision`), `put(k, v, n)` is
 *   `UPDATE … SET revision = n + 1 … WHERE id = k AND revision = n` (0 rows: `StaleRevision`).
 * - **One run per window.** A run's id is `runIdOf(subscription, gridVersion, windowIndex)`
 *   (src/domain/MonitorRules.ts): the window is in the key, so `create-due-run`'s
 *   `commit([Run create, Subscription CAS])` cannot store two runs of one window whoever asks; a
 *   SQL table may add `UNIQUE (subscription_id, grid_version, window_index)` to say it twice.
 *   A lost race answers `StaleRevision`, and the logic reads again (finding the winner's run).
 * - `reports`: ids `UNIQUE`, the digest beside it. A report's id is unique across programs (the
 *   folder's one `reports.jsonl`; the memory adapter too), so the PostgreSQL adapter keeps every
 *   report in one stream and answers a program's by the line's `program`.
 * - `commit`: the statements of every write in the transaction `Lock.withLock` opened (a
 *   `SAVEPOINT` around them, so a `StaleRevision` leaves nothing behind).
 * - `recover`/`pending`: nothing is ever left half done: `Option.none()` and `false`.
 * - the scans: `SELECT` every row; `fromScratch`/`readOnly` concern derived state a SQL store
 *   does not keep.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type {
  FileNotFound,
  IoError,
  LimitExceeded,
  LockTimeout,
  StaleRevision,
  UnsafePath
} from "../../domain/Errors.js"
import type { ConflictingEvent } from "../../domain/JournalErrors.js"
import type { CorruptMonitorRecord, ReceiptDigestMismatch } from "../../domain/MonitorErrors.js"
import type { ReportLine, RunRecord, SubscriptionRecord } from "../../domain/MonitorSchema.js"
import type { RunScan } from "../../domain/RunScan.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"
import type { EventLog, LoggedEvent, VersionedRecords } from "../Store.js"

/**
 * What storage itself may fail with. A stored record that does not decode is
 * `CorruptMonitorRecord`; a run record that is a JSON object but no valid run, or whose receipt
 * digest does not verify, is `ReceiptDigestMismatch` (fail closed). A shared store (PostgreSQL)
 * out of reach is `StoreUnavailable` (retryable), a wait for a row another writer holds beyond
 * the lock wait `LockTimeout` (the folder adapters never answer either).
 */
export type MonitorStoreError =
  | IoError
  | StoreUnavailable
  | LockTimeout
  | UnsafePath
  | LimitExceeded
  | FileNotFound
  | CorruptMonitorRecord
  | ReceiptDigestMismatch

/** One write of a `commit`: a record created (`expected: null`) or replacing revision `expected`, or a report. */
export type MonitorWrite =
  | { readonly _tag: "Subscription"; readonly record: SubscriptionRecord; readonly expected: number | null }
  | { readonly _tag: "Run"; readonly record: RunRecord; readonly expected: number | null }
  | { readonly _tag: "Report"; readonly event: LoggedEvent<ReportLine> }

/** An interrupted commit the store completed or undid before the next command (`next` reports it). */
export interface RecoveredTransaction {
  readonly transactionId: string
  readonly direction: "rolled-back" | "rolled-forward"
  /** The records it touched, by the names the answers give them (spec monitor.md). */
  readonly paths: ReadonlyArray<string>
}

/** Every subscription record, checked. */
export interface SubscriptionsScan {
  /** Every valid subscription record, by creation (then id). */
  readonly subs: ReadonlyArray<SubscriptionRecord>
  /** The ids of the records that are no valid record under their id, in key order. */
  readonly brokenIds: ReadonlyArray<string>
}

/** Every run record, checked (receipt included). */
export interface RunsScan {
  /** Every run record's id, in key order. */
  readonly ids: ReadonlyArray<string>
  /** The runs that failed the check (unreadable, malformed, altered), in key order: never skipped. */
  readonly mismatches: ReadonlyArray<{ readonly runId: string; readonly revision: number | null }>
  /** What the scans use of every verified run (src/domain/RunScan.ts), by creation (then id). */
  readonly runs: ReadonlyArray<RunScan>
}

export interface ScanOptions {
  /** Check every record from its stored form, without derived shortcuts (the folder's scan index) and leaving them alone. */
  readonly fromScratch?: boolean | undefined
  /** The caller does not hold the lock: store nothing at all, not even derived state. */
  readonly readOnly?: boolean | undefined
}

/** How a run record checks out: absent, verified, or failing its check. */
export type RunCheck = "missing" | "ok" | "mismatch"

export interface MonitorStoreShape {
  /** Subscriptions by id. `keys`: every id holding a record, readable or not, sorted. */
  readonly subscriptions: VersionedRecords<string, SubscriptionRecord, MonitorStoreError>
  /** Runs by id (an id names its subscription, grid and window: one run per window). `get` verifies the receipt. */
  readonly runs: VersionedRecords<string, RunRecord, MonitorStoreError>
  /**
   * Completion reports, one stream per program; a report's id is `<runId>:run-completed` and its
   * digest the SHA-256 of its canonical JSON. Appended only through `commit`.
   */
  readonly reports: EventLog<string, ReportLine, MonitorStoreError, ConflictingEvent>
  /**
   * Every write, or none: each record write is compare-and-set as in `put` (`StaleRevision`, and
   * nothing of the batch is stored), a report as in `EventLog.append`.
   */
  readonly commit: (
    writes: ReadonlyArray<MonitorWrite>
  ) => Effect.Effect<void, MonitorStoreError | StaleRevision | ConflictingEvent>
  readonly scanSubscriptions: (options?: ScanOptions) => Effect.Effect<SubscriptionsScan, MonitorStoreError>
  readonly scanRuns: (options?: ScanOptions) => Effect.Effect<RunsScan, MonitorStoreError>
  /** Both scans in one pass (subscriptions read first): the same answers as the two calls. */
  readonly scan: (
    options?: ScanOptions
  ) => Effect.Effect<{ readonly subscriptions: SubscriptionsScan; readonly runs: RunsScan }, MonitorStoreError>
  /** How each run checks out, in the order asked; an unreadable record is a `mismatch`. */
  readonly checkRuns: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<RunCheck>, MonitorStoreError>
  /** Every run record in full, in key order; `run` null for one that fails its check. */
  readonly allRuns: Effect.Effect<
    ReadonlyArray<{ readonly id: string; readonly run: RunRecord | null }>,
    MonitorStoreError
  >
  /** Complete or undo a commit that was interrupted, if any (every command does this first, under the lock). */
  readonly recover: Effect.Effect<Option.Option<RecoveredTransaction>, MonitorStoreError>
  /** Is an interrupted commit waiting for `recover`? Reads only. */
  readonly pending: Effect.Effect<boolean, MonitorStoreError>
}

export class MonitorStore extends Context.Tag("dossier/MonitorStore")<MonitorStore, MonitorStoreShape>() {}

export type MonitorFilesError = IoError | UnsafePath | LimitExceeded | FileNotFound

/** What is at a path: a regular file, a symbolic link (never followed), something else, or nothing. */
export type FileKind = "file" | "symlink" | "other" | "none"

/** The work folder's files, by path relative to it (bounded reads: 16 MiB). */
export interface MonitorFilesShape {
  /** The path in normal form; one that leaves the work folder is `UnsafePath`. Touches nothing. */
  readonly normalize: (path: string) => Effect.Effect<string, UnsafePath>
  readonly kind: (path: string) => Effect.Effect<FileKind, IoError | UnsafePath>
  /** A regular file's bytes; None when nothing is there. `singleLink`: a hard-linked file is `UnsafePath`. */
  readonly read: (
    path: string,
    options?: { readonly singleLink?: boolean | undefined }
  ) => Effect.Effect<Option.Option<Uint8Array>, MonitorFilesError>
  /** The SHA-256 of a file; null when it is missing, unsafe or too large (an I/O error fails). */
  readonly digest: (path: string) => Effect.Effect<string | null, IoError>
  /** The SHA-256 of each file, in order; null for one that cannot be read for any reason. */
  readonly digests: (paths: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string | null>, MonitorFilesError>
}

export class MonitorFiles extends Context.Tag("dossier/MonitorFiles")<MonitorFiles, MonitorFilesShape>() {}
