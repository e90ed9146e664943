/**
 * PgLock: the unit of atomicity of a shared dossier, as `Lock` (src/services/Lock.ts) is the
 * folder's. `withLock` runs the command as ONE SQL transaction that first takes the dossier's
 * advisory transaction lock (`pg_advisory_xact_lock` on a hash of the dossier's name): writers of
 * one dossier take turns, writers of different dossiers do not wait for each other, and the
 * server releases the lock when the transaction ends — commit, rollback, or the client gone. A
 * wait beyond `lock_timeout` is `LockTimeout`; the transaction as a whole is bounded by the
 * command's deadline (`StoreUnavailable`). Re-entrant: a locked region that calls another one
 * runs inside the same transaction (a savepoint; the advisory lock is the session's already).
 *
 * `withReadLock` runs a read-only command in one `REPEATABLE READ, READ ONLY` transaction (one
 * consistent snapshot, no lock, no write: it works under a role with SELECT only), and tells it
 * the lock is not held (it may not write). Inside a `withLock` region it joins that transaction.
 *
 * `PgLockLayer` provides it as the `Lock` (src/services/Lock.ts) of every Live layer — whose
 * error unions carry `StoreUnavailable` beside `LockTimeout` — and under its own tag `PgLock`,
 * whose shape names only the errors it can answer (`LockTimeout`, `StoreUnavailable`; never the
 * lock file's `IoError` or `UnsafePath`).
 */
import { TransactionConnection } from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { LockTimeout } from "../../domain/Errors.js"
import { StoreUnavailable } from "../../domain/StoreErrors.js"
import { Lock } from "../../services/Lock.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

export interface PgLockShape {
  readonly withLock: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>
  readonly withReadLock: <A, E, R>(
    self: (held: boolean) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>
}

export class PgLock extends Context.Tag("dossier/PgLock")<PgLock, PgLockShape>() {}

/** The advisory lock key of a dossier: a 64-bit hash of its name (computed by the server). */
const lockName = (dossier: string) => `dossier:${dossier}`

export const makePgLock = (store: PgStoreShape): PgLockShape => {
  const { sql, config, mapErrors } = store
  const inTransaction = Effect.map(Effect.serviceOption(TransactionConnection), Option.isSome)
  const deadline = <A, E, R>(self: Effect.Effect<A, E, R>) =>
    Effect.timeoutFail(self, {
      duration: Duration.millis(config.deadlineMs),
      onTimeout: () =>
        new StoreUnavailable({ reason: `the command did not finish within its deadline of ${config.deadlineMs} ms` })
    })
  const takeLock = sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockName(config.dossier)}, 0))`
  return {
    withLock: <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.flatMap(inTransaction, (nested): Effect.Effect<A, E | LockTimeout | StoreUnavailable, R> =>
        nested
          ? (mapErrors(Effect.zipRight(takeLock, self)) as Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>)
          : (deadline(mapErrors(sql.withTransaction(Effect.zipRight(takeLock, self)))) as Effect.Effect<
            A,
            E | LockTimeout | StoreUnavailable,
            R
          >)),
    withReadLock: <A, E, R>(self: (held: boolean) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(inTransaction, (nested): Effect.Effect<A, E | LockTimeout | StoreUnavailable, R> =>
        nested
          ? self(true)
          : (deadline(
            mapErrors(
              sql.withTransaction(
                Effect.zipRight(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`, self(false))
              )
            )
          ) as Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>))
  }
}

/** `PgLock` over the `PgStore` of the context, as `PgLock` and as the `Lock` (one instance). */
export const PgLockLayer: Layer.Layer<PgLock | Lock, never, PgStore> = Layer.effectContext(
  Effect.map(PgStore, (store) => {
    const lock = makePgLock(store)
    return Context.make(PgLock, lock).pipe(Context.add(Lock, lock))
  })
)
