/**
 * Lock: one writer per work folder. A cross-process lock the operating system releases when
 * its holder dies (a table-less SQLite database under `.dossier/`, held by an open
 * transaction), plus an in-process mutex. Re-entrant within one fiber tree: a locked region
 * may call another service that also takes the lock.
 *
 * Layers: `LockLive` (src/layers/LockLive.ts) and `LockMemory` (src/layers/LockMemory.ts); a
 * shared dossier's is `PgLockLayer` (src/layers/postgres/PgLock.ts: one SQL transaction per
 * command), which may also answer `StoreUnavailable` (the server out of reach, the command's
 * deadline passed) — never the folder layers.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { IoError, LockTimeout, UnsafePath } from "../domain/Errors.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"

export const LOCK_WAIT_MS = 10_000

/** What a caller of `withLock` tells the lock about its region (a folder's lock ignores it). */
export interface LockRegionHint {
  /**
   * The region's first step that needs the lock is a statement of the store, and nothing it does
   * before that statement depends on holding the lock (it only computes): a SQL lock may then
   * send the transaction's opening and its lock together with that statement instead of a round
   * trip ahead of it. The guarantees are the same: the statement runs in the transaction, after
   * the lock; a wait beyond the lock's timeout is `LockTimeout` and nothing is written.
   */
  readonly opensWithStatement?: boolean
  /**
   * The region's last step that needs the lock is a statement of the store that fails whenever
   * the region may not commit (the store's adapter knows which), and nothing after it can fail
   * or write: a SQL lock may then send its `COMMIT` right behind that statement. A statement that
   * fails rolls the transaction back, as before, and the adapter goes on in a new one.
   */
  readonly closesWithStatement?: boolean
}

export interface LockShape {
  /**
   * Run `self` holding the lock. `UnsafePath` when `.dossier` or `.dossier/lock.sqlite` is not a
   * plain directory and a plain single-link file (a symlink is never followed to a lock elsewhere).
   */
  readonly withLock: <A, E, R>(
    self: Effect.Effect<A, E, R>,
    hint?: LockRegionHint
  ) => Effect.Effect<A, E | LockTimeout | IoError | UnsafePath | StoreUnavailable, R>
  /**
   * For commands that only read: take the lock only when its file already exists and can be
   * written; otherwise (no lock file yet, a read-only mount or copy) run without it and create
   * nothing. `self` learns whether the lock is held, i.e. whether it may write (recover an
   * interrupted transaction, refresh a derived index).
   */
  readonly withReadLock: <A, E, R>(
    self: (held: boolean) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | LockTimeout | IoError | UnsafePath | StoreUnavailable, R>
}

export class Lock extends Context.Tag("dossier/Lock")<Lock, LockShape>() {}
