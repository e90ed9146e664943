/**
 * Storage ports: the four shapes every subsystem's storage takes, and nothing about files.
 * Each subsystem (plan, journal, monitor, grants and execution records, captures) declares
 * its own tag over these shapes in `src/services/ports/`, with a folder adapter (today's bytes
 * on disk, byte for byte), a memory adapter, and later a SQL one. Logic lives above them, once.
 *
 * - `VersionedRecords`: records under a key, each with a revision that only grows; a write names
 *   the revision it read (compare-and-set; SQL: `UPDATE … WHERE revision = $expected`).
 * - `EventLog`: append-only streams of events with stable ids; a batch is stored whole or not
 *   at all, and a retried batch stores nothing twice (SQL: N rows under `UNIQUE(stream, id)`).
 * - `ContentStore`: bytes addressed by their SHA-256, written once, never changed.
 * - the unit of atomicity is the `Lock` service (`withLock`): a folder takes its lock file, a
 *   SQL store opens one transaction. Every port call a command makes runs inside it.
 *
 * Errors a port may answer are tagged domain errors only (`StaleRevision`, `ConflictingEvent`,
 * `EditedRetainedFile`, `IoError`, `LockTimeout`, …): no path, descriptor or Node error object
 * crosses a port.
 */
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { StaleRevision } from "../domain/Errors.js"

/** A record and the revision it was stored at (revisions start at 1 and only grow). */
export interface Versioned<A> {
  readonly revision: number
  readonly value: A
}

/** Records under keys `K`, each versioned; `E` is what storage itself may fail with. */
export interface VersionedRecords<K, A, E> {
  /** The record under `key` and its revision; None when there is none. */
  readonly get: (key: K) => Effect.Effect<Option.Option<Versioned<A>>, E>
  /**
   * Store `value` as revision `expected + 1`, or as revision 1 when `expected` is null (create).
   * Any other revision there (or a record there on create) is `StaleRevision`, and nothing changes.
   */
  readonly put: (key: K, value: A, expected: number | null) => Effect.Effect<number, E | StaleRevision>
  /** Every key that holds a record, in the adapter's stable order (sorted). */
  readonly keys: Effect.Effect<ReadonlyArray<K>, E>
}

/** One event of a batch: its stable id, the digest of its canonical content, and the event. */
export interface LoggedEvent<Ev> {
  readonly id: string
  readonly digest: string
  readonly event: Ev
}

/** What an idempotent append stored: the ids it added, and those already there with the same content. */
export interface AppendOutcome {
  readonly appended: ReadonlyArray<string>
  readonly existing: ReadonlyArray<string>
}

/**
 * Append-only streams `S` of events `Ev`. Ids are unique per stream. An event whose id is already
 * there with the same digest is `existing` (a retry); with another digest the batch fails as
 * `Conflict` and nothing of it is stored.
 */
export interface EventLog<S, Ev, E, Conflict> {
  readonly read: (stream: S) => Effect.Effect<ReadonlyArray<LoggedEvent<Ev>>, E>
  readonly append: (stream: S, batch: ReadonlyArray<LoggedEvent<Ev>>) => Effect.Effect<AppendOutcome, E | Conflict>
  /** Every stream that holds at least one event, sorted. */
  readonly streams: Effect.Effect<ReadonlyArray<S>, E>
}

/** A write-once answer: the content's address, its size, and whether it was already stored. */
export interface StoredContent {
  readonly sha256: string
  readonly bytes: number
  readonly reused: boolean
}

/** Bytes addressed by their SHA-256 (lower-case hex), written once and never changed. */
export interface ContentStore<E> {
  readonly put: (data: Uint8Array) => Effect.Effect<StoredContent, E>
  readonly get: (sha256: string) => Effect.Effect<Option.Option<Uint8Array>, E>
  readonly has: (sha256: string) => Effect.Effect<boolean, E>
}
