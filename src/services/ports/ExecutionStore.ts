/**
 * ExecutionStore: where the evidence of confined runs is kept, and nothing about files — the
 * sealed execution records, their stdout/stderr logs, and the in-flight markers of runs under
 * way. The exec logic (src/layers/ExecLive.ts, with src/layers/ExecRecords.ts for what grants
 * share: verification, what runs spent, recording runs whose exec died as `lost`) runs over this
 * port, `GrantStore`, the `Lock` and `ExecFiles` (src/services/ExecFiles.ts: the work folder
 * on the host that runs the program).
 *
 * - **Records** are written once (`ContentStore`-like, but looked up by execution id: the id is
 *   chosen before the content exists). The logic checks the receipt digest and the signature on
 *   every load, whatever the store.
 * - **Logs** are write-once bytes named by the path their record gives them
 *   (`executionPaths(id).stdout`/`.stderr`, src/domain/Execution.ts: the record's format).
 * - **Markers** are the intent record of a run: written at admission (under the lock), removed
 *   once its record is written (under the lock). A marker whose run's owner is gone is what the
 *   logic records as `lost` (`reapLost`); a marker whose record is already there is what an exec
 *   that died between writing the record and removing its marker leaves behind.
 * - **The record's room**: a folder reserves disk space for the record at admission (a program
 *   that fills the disk cannot make its run unrecordable); `release` gives it back just before
 *   the record is written. A store with no such limit answers `admit`/`release` without keeping
 *   anything.
 *
 * Contract (every adapter; `src/testing/GrantStoreConformance.ts` holds them to it):
 * - `get(id)`: the record; None when there is none. One that does not decode, or names another
 *   id, is `ExecutionDigestMismatch {executionId}`. `has(id)`: whether anything is stored under
 *   the id (a damaged record included). `ids`: the ids holding a record, sorted.
 * - `put(record)`: write-once under `record.id`; the same record again stores nothing; another
 *   one there is `EditedRetainedFile` and nothing changes. A full disk is `IoError {code:
 *   "ENOSPC"}` (the logic then writes the record without its listing into the released room).
 * - `putLog(path, bytes)`: write-once, as `put` (same bytes: `reused`); `logDigest(path)`: the
 *   SHA-256 and size of what is kept there now; `FileNotFound` when nothing is; `readLog(path)`:
 *   the bytes kept there, None when nothing is (what a copy between stores reads:
 *   src/layers/StoreTransfer.ts).
 * - `admit(marker)`: reserves the record's room, then stores the marker (if the marker cannot be
 *   stored, the room is given back). `markers`: every stored marker that decodes and is stored
 *   under its own id, in id order (others are left out: they reserve nothing and are never
 *   reaped). `release(id)` gives the room back, `finish(id)` removes the marker; both succeed
 *   when there is nothing to remove.
 * - `recover`: what an exec interrupted between two writes left (the folder: a reservation whose
 *   run has no marker) is cleaned up; called first by every writing command, under the lock. A
 *   store that cannot be interrupted half way does nothing. SQL: nothing.
 * - Every write runs inside the caller's `Lock.withLock` (one SQL transaction); reads may run
 *   outside it. Errors are tagged domain errors only (`ExecutionStoreError` and those above).
 *
 * SQL (src/layers/postgres/ExecutionStorePostgres.ts, over the generic tables): records of kind
 * `execution` keyed by id, logs' bytes in the `ContentStore` with a record of kind `execution-log`
 * keyed by path holding their digest, markers of kind `execution-marker` keyed by id.
 *
 * Adapters: `ExecutionStoreFolder` (src/layers/folder/ExecutionStoreFolder.ts: under
 * `.dossier/executions/`, `<id>.json` pretty-printed, `<id>/stdout`, `<id>/stderr`,
 * `<id>.running.json` and `<id>.reserve`, byte for byte), `ExecutionStoreMemory`
 * (src/layers/memory/ExecutionStoreMemory.ts) and `ExecutionStorePostgres`
 * (src/layers/postgres/ExecutionStorePostgres.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type {
  EditedRetainedFile,
  FileNotFound,
  IoError,
  LimitExceeded,
  LockTimeout,
  UnsafePath
} from "../../domain/Errors.js"
import type { ExecutionDigestMismatch } from "../../domain/ExecErrors.js"
import type { ExecutionRecord, RunningMarker } from "../../domain/Execution.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"
import type { StoredContent } from "../Store.js"

/** What storage itself may fail with. */
export type ExecutionStoreError = IoError | UnsafePath | LimitExceeded | StoreUnavailable | LockTimeout

/** A log's digest and size as kept. */
export interface LogDigest {
  readonly sha256: string
  readonly bytes: number
}

/** `E`: what this store itself may fail with (a folder: never `StoreUnavailable` nor `LockTimeout`). */
export interface ExecutionStoreShape<E = ExecutionStoreError> {
  /** The record under `id`; None when none. Undecodable or another id's: `ExecutionDigestMismatch`. */
  readonly get: (
    id: string
  ) => Effect.Effect<Option.Option<ExecutionRecord>, E | ExecutionDigestMismatch>
  /** Whether a record (even a damaged one) is stored under `id`. */
  readonly has: (id: string) => Effect.Effect<boolean, E>
  /** Every id holding a record, sorted. */
  readonly ids: Effect.Effect<ReadonlyArray<string>, E>
  /** Store a record write-once (the same again: nothing; another: `EditedRetainedFile`). */
  readonly put: (record: ExecutionRecord) => Effect.Effect<void, E | EditedRetainedFile>
  /** Keep a run's log write-once at the path its record names. */
  readonly putLog: (
    path: string,
    bytes: Uint8Array
  ) => Effect.Effect<StoredContent, E | EditedRetainedFile>
  /** What is kept at a log's path now. */
  readonly logDigest: (path: string) => Effect.Effect<LogDigest, E | FileNotFound>
  /** The bytes kept at a log's path; None when nothing is. */
  readonly readLog: (path: string) => Effect.Effect<Option.Option<Uint8Array>, E>
  /** Every in-flight marker that decodes under its own id, by id. */
  readonly markers: Effect.Effect<ReadonlyArray<RunningMarker>, E>
  /** Reserve the record's room, then store the marker (the room given back if the marker fails). */
  readonly admit: (marker: RunningMarker) => Effect.Effect<void, E>
  /** Give the record's room back (nothing to do: succeeds). */
  readonly release: (id: string) => Effect.Effect<void, E>
  /** Remove the run's marker (none: succeeds). */
  readonly finish: (id: string) => Effect.Effect<void, E>
  /** Clean up what an interrupted exec left between two writes (see the contract). */
  readonly recover: Effect.Effect<void, E>
}

export class ExecutionStore extends Context.Tag("dossier/ExecutionStore")<ExecutionStore, ExecutionStoreShape>() {}
