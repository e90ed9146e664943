/**
 * GrantStore: where grants are kept, and nothing about files. The grants' logic
 * (src/layers/GrantsLive.ts, with src/layers/ExecRecords.ts for what exec shares) runs over this
 * port, `ExecutionStore` (./ExecutionStore.ts: what runs spent), the `Lock` and `ExecFiles`
 * (src/services/ExecFiles.ts: the roots on the host that runs exec).
 *
 * A grant has two parts:
 * - **the record**, written once and never changed: the sealed grant (its content, the digest of
 *   that content, the machine's signature). `ContentStore` (../Store.ts) cannot serve: a grant is
 *   looked up by its id, not by its digest, and two grants with the same content under two ids
 *   are two grants. The digest and signature are checked by the logic on every load, whatever
 *   the store (a row can be edited as well as a file).
 * - **its events** (revoked, narrowed), its versioned state: an append-only list whose revision
 *   is the number of events stored. An append names the revision it read (compare-and-set), so
 *   two writers cannot both narrow from the same terms. `VersionedRecords` would rewrite the whole
 *   list; the folder appends one line, and a SQL store inserts one row.
 *
 * Contract (every adapter; `src/testing/GrantStoreConformance.ts` holds them to it):
 * - `get(id)`: the record as stored; None when there is none. A stored record that does not
 *   decode as a grant is `GrantDigestMismatch {grantId}` (fail closed: the logic names it
 *   damaged). The logic asks only for ids of the grammar (src/domain/Ids.ts).
 * - `create(grant)`: stores the record under `grant.id` when none is there and answers `true`;
 *   the same record already there (equal in every field) stores nothing and answers `false`;
 *   anything else there (another record, a damaged one) is `ConflictingGrant {grantId}` and
 *   nothing changes. Durable when it answers. SQL: `INSERT … ON CONFLICT (dossier, id) DO
 *   NOTHING`, then compare.
 * - `ids`: every id that holds a record, damaged ones included, sorted.
 * - `events(id)`: the events in the order stored, with `revision` = their count (0 and none when
 *   nothing was appended; a grant without a record may have events: the logic never asks). A
 *   stored event that does not decode is answered as a revocation (`reason: "damaged event
 *   line"`, at the epoch): a damaged history revokes, never widens.
 * - `appendEvent(id, event, expected)`: stores `event` after the `expected` events the caller
 *   read and answers the new revision (`expected + 1`); when another count is stored it is
 *   `StaleRevision {expected, actual}` and nothing changes. SQL: `INSERT (dossier, grant,
 *   seq = expected + 1)` under `UNIQUE (dossier, grant, seq)`.
 * - Every write runs inside the caller's `Lock.withLock` (one SQL transaction); reads may run
 *   outside it.
 * - Errors are tagged domain errors only (`GrantStoreError`, and the ones named above); no path,
 *   descriptor or Node error crosses the port. `StoreUnavailable` and `LockTimeout` are what a
 *   shared store answers when it cannot be reached or its row lock not had in time.
 *
 * Adapters: `GrantStoreFolder` (src/layers/folder/GrantStoreFolder.ts: `.dossier/grants/<id>.json`
 * pretty-printed, and `.dossier/grants/<id>.events.jsonl` one event a line, byte for byte),
 * `GrantStoreMemory` (src/layers/memory/GrantStoreMemory.ts) and `GrantStorePostgres`
 * (src/layers/postgres/GrantStorePostgres.ts: records of kind `grant`, events of log `grants`).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { IoError, LimitExceeded, LockTimeout, StaleRevision, UnsafePath } from "../../domain/Errors.js"
import type { ConflictingGrant, GrantDigestMismatch } from "../../domain/ExecErrors.js"
import type { GrantEvent, StoredGrant } from "../../domain/Grant.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"
import type { Versioned } from "../Store.js"

/** What storage itself may fail with. */
export type GrantStoreError = IoError | UnsafePath | LimitExceeded | StoreUnavailable | LockTimeout

/** `E`: what this store itself may fail with (a folder: never `StoreUnavailable` nor `LockTimeout`). */
export interface GrantStoreShape<E = GrantStoreError> {
  /** The record under `id`; None when none. Undecodable: `GrantDigestMismatch`. */
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredGrant>, E | GrantDigestMismatch>
  /** Store a record write-once: `true` stored, `false` the same was there; other content: `ConflictingGrant`. */
  readonly create: (grant: StoredGrant) => Effect.Effect<boolean, E | ConflictingGrant>
  /** Every id holding a record (damaged included), sorted. */
  readonly ids: Effect.Effect<ReadonlyArray<string>, E>
  /** The grant's events, in stored order; the revision is their count. */
  readonly events: (id: string) => Effect.Effect<Versioned<ReadonlyArray<GrantEvent>>, E>
  /** Append one event after the `expected` ones read (else `StaleRevision`); answers the new revision. */
  readonly appendEvent: (
    id: string,
    event: GrantEvent,
    expected: number
  ) => Effect.Effect<number, E | StaleRevision>
}

export class GrantStore extends Context.Tag("dossier/GrantStore")<GrantStore, GrantStoreShape>() {}
