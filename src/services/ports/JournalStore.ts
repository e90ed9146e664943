/**
 * JournalStore: where the studies' experiment journals are stored, and nothing about files. It is
 * the `EventLog` shape of ../Store.ts (a stream per study, events with stable ids and the digest
 * of their canonical content, idempotent all-or-nothing batches) with two adaptations the
 * journal cannot do without, both checked under the same unit of atomicity as the write:
 *
 * - `append` takes a pure `check` that the adapter calls with a view of the stored stream
 *   (event count, head, tail, the stored digests of the batch's ids, the names stored events
 *   claim) before it stores anything: the journal's rules (an evaluation of an unknown
 *   candidate, a candidate created twice, a retry with other content) decide on that view, in
 *   batch order, and a refusal stores nothing. A plain `EventLog.append` could only answer the
 *   id conflicts, not the referential rules, and not in the order the journal reports them.
 * - a stream has a `tail`: a folder journal may end with bytes after its last whole event (a torn
 *   write), which the journal reports and refuses to append after; a store without torn writes
 *   always answers `{ state: "clean" }`.
 *
 * Contract (every adapter; `src/testing/JournalStoreConformance.ts` holds them to it):
 * - Streams are keyed by study id (already checked by the caller, `checkStudyId`). A study exists
 *   once its first batch is stored (the folder: once its journal file exists, even empty).
 * - Ids are unique per study. `digest` is the SHA-256 (lower-case hex) of the event's canonical
 *   JSON (`eventText`, RFC 8785): the `sha256` of its journal line.
 * - `append(study, batch, check)`: under the caller's `Lock.withLock` (a SQL adapter: inside its
 *   transaction, which holds the dossier's lock; used on its own, it takes a lock on the study).
 *   The adapter builds the view, calls `check`
 *   (pure, synchronous, may be called again on a retried transaction); a non-null answer fails
 *   the append with it and stores nothing. Otherwise the events whose id is not stored are stored
 *   in batch order with positions `events + 1, events + 2, …` (`appended`), those stored with the
 *   same digest are `existing`, and one stored with another digest fails the whole batch as
 *   `ConflictingEvent` (nothing stored). Names in `claims` become claimed (`view.claimed`).
 *   The answer's `head` is the stream's last event after the append (null for an empty stream).
 *   SQL: N rows under `UNIQUE(dossier, study, id)`, a retry compares `digest`; claims are rows
 *   under `UNIQUE(dossier, study, name)`.
 * - `read(study)`: the stored events in order (positions 1…n), with the tail; None when the study
 *   has no journal. A stored history that is damaged (a line that does not decode, a digest that
 *   does not hold, an event that breaks the journal's rules) is `CorruptJournal {line, reason}`.
 * - `studies`: one row per study that has a journal, sorted by study id; a damaged journal is a
 *   row (`tail: "corrupt"`, the first damaged position, the head of the valid prefix), never a
 *   failure.
 * - `lines(study, maxBytes)`: the study's journal in its exchange form, the JSON lines of
 *   spec journal.md (`{"seq":n,"sha256":…,"event":…}\n`, what `encodeLine` writes), as bytes;
 *   None when the study has no journal; more than `maxBytes` is `LimitExceeded`. The folder
 *   answers the file's bytes as they are (a torn tail included).
 * - Errors are tagged domain errors only: `IoError`, `LimitExceeded`, from the folder
 *   `AliasedFile`/`UnsafePath` (a journal that is a link or not a regular file), and from a
 *   shared store `StoreUnavailable`/`LockTimeout` (both retryable; nothing of the call stored).
 *   No path beyond the ones these errors name, no descriptor, no Node or driver error object
 *   crosses the port.
 *
 * Adapters: the folder, src/layers/folder/JournalStoreFolder.ts (research/<study>/
 * research-events.jsonl, byte for byte, with its private append index), memory,
 * src/layers/memory/JournalStoreMemory.ts, and PostgreSQL,
 * src/layers/postgres/JournalStorePostgres.ts (rows of `dossier.events`; its `lines` are the
 * folder's bytes for the same appends).
 *
 * `JournalArtifacts` (below) is not storage: it reads the work folder's files that
 * `artifact_linked` events name and checks linked executions (`inspect --verify`). Every
 * composition takes the FileStore one (src/layers/folder/JournalArtifactsFolder.ts); a shared
 * store adds `register`, which uploads the linked files' bytes in the append's transaction
 * (src/layers/postgres/JournalArtifactsPostgres.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { AliasedFile, FileNotFound, IoError, LimitExceeded, LockTimeout, UnsafePath } from "../../domain/Errors.js"
import type { JournalEvent } from "../../domain/Journal.js"
import type { ConflictingEvent, CorruptJournal } from "../../domain/JournalErrors.js"
import type { Head, InspectResult, StudyRow } from "../../domain/JournalOutput.js"
import type { Projection } from "../../domain/JournalProjection.js"
import type { DigestMismatch } from "../../domain/MonitorErrors.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"
import type { AppendOutcome, LoggedEvent } from "../Store.js"

/**
 * What storage itself may fail with: the folder's file errors, and a shared store's
 * `StoreUnavailable` (the server out of reach; retryable) and `LockTimeout` (a wait for another
 * writer past its bound; retryable).
 */
export type JournalStoreError = IoError | LimitExceeded | AliasedFile | UnsafePath | StoreUnavailable | LockTimeout

/** How a stored journal ends: clean, or with `bytes` after its last whole event (folder only). */
export type JournalTail = { readonly state: "clean"; readonly bytes: 0 } | {
  readonly state: "unterminated"
  readonly bytes: number
}

/** An event to store: the `EventLog` entry, and the names (candidate ids) it claims. */
export interface JournalEntry extends LoggedEvent<JournalEvent> {
  readonly claims: ReadonlyArray<string>
}

/** A study's stored history. */
export interface StoredJournal {
  /** The events, in stored order (the first is at position 1). */
  readonly events: ReadonlyArray<LoggedEvent<JournalEvent>>
  readonly tail: JournalTail
}

/** What `check` sees of the stored stream, under the lock, before anything of the batch is stored. */
export interface AppendView {
  /** How many events are stored. */
  readonly events: number
  readonly head: Head | null
  readonly tail: JournalTail
  /** The stored digest of `id` (asked only for the batch's ids); undefined when it is not stored. */
  readonly digestOf: (id: string) => string | undefined
  /** Whether a stored event claims `name`. */
  readonly claimed: (name: string) => boolean
}

/** What an append stored, and the stream's head after it. */
export interface JournalAppended extends AppendOutcome {
  readonly head: Head | null
}

export interface JournalStoreShape {
  readonly read: (study: string) => Effect.Effect<Option.Option<StoredJournal>, JournalStoreError | CorruptJournal>
  readonly append: <E>(
    study: string,
    batch: ReadonlyArray<JournalEntry>,
    check: (view: AppendView) => E | null
  ) => Effect.Effect<JournalAppended, JournalStoreError | CorruptJournal | ConflictingEvent | E>
  readonly studies: Effect.Effect<ReadonlyArray<StudyRow>, IoError | UnsafePath | StoreUnavailable | LockTimeout>
  /**
   * Optional: `append` as a whole command of its own (its transaction and the dossier's lock),
   * for an adapter that can run it without a region of the caller's `lock` — null when it cannot
   * with that lock (not its store's own). `Option.none()` when it did not store the batch (the
   * caller then runs `append` inside `lock.withLock`, which decides); `check` may have been called.
   * The PostgreSQL adapter's one round trip for a study it knows (JournalStorePostgres.ts).
   */
  readonly appendCommand?: <E>(
    study: string,
    batch: ReadonlyArray<JournalEntry>,
    check: (view: AppendView) => E | null,
    lock: unknown
  ) => Effect.Effect<Option.Option<JournalAppended>, StoreUnavailable | LockTimeout> | null
  readonly lines: (study: string, maxBytes: number) => Effect.Effect<Option.Option<Uint8Array>, JournalStoreError>
}

export class JournalStore extends Context.Tag("dossier/JournalStore")<JournalStore, JournalStoreShape>() {}

/** What `inspect --verify` adds to the inspection. */
export type VerifyResult = NonNullable<InspectResult["verify"]>

/** The digest of a work-folder file (`artifact_linked`): its SHA-256 and size. */
export interface ArtifactDigest {
  readonly sha256: string
  readonly bytes: number
}

export interface JournalArtifactsShape {
  /** Hash the file at a work-folder path (at most `maxBytes`; a hard link is allowed). */
  readonly digest: (
    path: string,
    maxBytes: number
  ) => Effect.Effect<ArtifactDigest, FileNotFound | IoError | UnsafePath | LimitExceeded>
  /**
   * `inspect --verify`: every linked artifact hashed again, every linked dossier execution checked
   * (against `study`, the journal's, when given: a record run for another study's journal is not
   * this one's evidence).
   */
  readonly verify: (p: Projection, study?: string) => Effect.Effect<VerifyResult, IoError>
  /**
   * Where a composition shares registered bytes (a shared store): store the bytes of the files
   * that the appended `artifact_linked` events link, called by the Journal inside its lock (the
   * same transaction as the events), after they are stored. A file not there is skipped (the
   * event was kept as given); one whose SHA-256 is no longer the event's is `DigestMismatch`
   * (the whole append is undone). Absent in the folder: its artifacts stay where they are.
   */
  readonly register?: (
    linked: ReadonlyArray<ArtifactLink>
  ) => Effect.Effect<void, IoError | UnsafePath | LimitExceeded | DigestMismatch | StoreUnavailable | LockTimeout>
}

/** What an `artifact_linked` event says of its file. */
export interface ArtifactLink {
  readonly path: string
  readonly sha256: string
  readonly bytes: number
}

export class JournalArtifacts
  extends Context.Tag("dossier/JournalArtifacts")<JournalArtifacts, JournalArtifactsShape>()
{}
