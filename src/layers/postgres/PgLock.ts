/**
 * PgLock: the unit of atomicity of a shared dossier, as `Lock` (src/services/Lock.ts) is the
 * folder's. `withLock` runs the command as ONE SQL transaction that first takes the dossier's
 * advisory transaction lock (`pg_advisory_xact_lock` on a hash of the dossier's name): writers of
 * one dossier take turns, writers of different dossiers do not wait for each other, and the
 * server releases the lock when the transaction ends — commit, rollback, or the client gone. A
 * wait beyond `lock_timeout` is `LockTimeout`; the transaction as a whole is bounded by the
 * command's deadline (`StoreUnavailable`). Re-entrant: a locked region that calls another one
 * runs inside the same transaction (the advisory lock is the transaction's already).
 *
 * The transaction starts with ONE round trip: `BEGIN` and the lock sent together as one simple
 * query. Its key is the same `hashtextextended('dossier:<name>', 0)` as ever (hosts running
 * older builds still exclude each other), computed by the server once per `PgLock` with a
 * parameterized statement and written in the text as the number it is. Statements inside run on that connection
 * (`TransactionConnection`, as `sql.withTransaction` provides it: a nested `withTransaction` is a
 * savepoint), and the region learns that it holds the dossier's lock (`holdsDossierLock`), so an
 * adapter may skip what it takes only to be correct on its own (a savepoint, a lock of its own).
 * A failure or an interruption rolls the transaction back; a success commits it.
 *
 * A region whose caller says it opens with a statement (`LockRegionHint.opensWithStatement`: the
 * journal's append) does not wait for that round trip: the pool's clients run in pipeline mode,
 * so the `BEGIN` and the lock are sent and the region started at once, and its first statement
 * goes out right behind them — one round trip for the three. The server runs it after them, in
 * the transaction, once the lock is held; when the `BEGIN` fails (the lock's wait past
 * `lock_timeout`), the statement finds the transaction aborted and writes nothing, and the
 * region answers the `BEGIN`'s failure (`LockTimeout`), as if it had never started. A region
 * that also closes with a statement (`closesWithStatement`: the journal's append of a batch that
 * links no file) may send its `COMMIT` right behind that statement (`LockHeld.closing`), which
 * fails whenever the region may not commit: the whole command is then one round trip. The
 * socket holds what is written from the `BEGIN` on until the closing statement's `COMMIT` (or the
 * end of the event loop's turn, `holdWrites`): the three statements reach the server in one write,
 * and it wakes once for them, not three times.
 *
 * A command that is one such statement and nothing else (the journal's append of a known study:
 * `oneStatementOf`, `OneStatement`) needs no region at all: the same three statements go out in
 * one write on a client of the pool, and the command is the driver's callbacks, its deadline a
 * timer that cancels the statement (no fiber of its own).
 *
 * `withReadLock` runs a read-only command in one `REPEATABLE READ, READ ONLY` transaction (one
 * consistent snapshot, no lock, no write: it works under a role with SELECT only), and tells it
 * the lock is not held (it may not write). Inside a `withLock` region it joins that transaction.
 *
 * `PgLockLayer` provides it as the `Lock` (src/services/Lock.ts) of every Live layer — whose
 * error unions carry `StoreUnavailable` beside `LockTimeout` — and under its own tag `PgLock`,
 * whose shape names only the errors it can answer (`LockTimeout`, `StoreUnavailable`; never the
 * lock file's `IoError` or `UnsafePath`).
 *
 * Over 400 lines: a transaction's life (its opening, sent alone or with the region's first
 * statement, its closing, the deadline's cancel of a wait; the one-statement command's the same
 * in callbacks) is one piece; the order of its round trips would be harder to follow spread over files.
 */
import { TransactionConnection } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Pg from "pg"
import type { LockTimeout } from "../../domain/Errors.js"
import { StoreUnavailable } from "../../domain/StoreErrors.js"
import { Lock, type LockRegionHint } from "../../services/Lock.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The node-postgres pool of `store` (opaque in `PgStoreShape`, so that its published type needs no `pg`). */
const poolOf = (store: PgStoreShape): Pg.Pool => store.pool as unknown as Pg.Pool

export interface PgLockShape {
  readonly withLock: <A, E, R>(
    self: Effect.Effect<A, E, R>,
    hint?: LockRegionHint
  ) => Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>
  readonly withReadLock: <A, E, R>(
    self: (held: boolean) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>
}

export class PgLock extends Context.Tag("dossier/PgLock")<PgLock, PgLockShape>() {}

/**
 * A command that is one statement: `BEGIN` and the dossier's lock, `text` (with `params`; a
 * statement prepared once per connection as `name`) and `COMMIT`, written at once on a client of
 * the pool, as a `withLock` region that opens and closes with that statement sends them (see
 * `oneStatement`). The statement must fail whenever the command may not commit.
 */
export interface OneStatement {
  readonly text: string
  readonly params: ReadonlyArray<unknown>
  readonly name: string
  /** A failure of the statement that is its own check's: the command answers null (rolled back). */
  readonly refused: (e: SqlError) => boolean
  /** Called once the `COMMIT` is answered as committed. */
  readonly committed: () => void
}

/**
 * The one-statement command of `lock` when it is the `PgLock` of `store` (`makePgLock(store)`),
 * else null: what a caller that holds the `Lock` of a composition may send instead of a region.
 */
export const oneStatementOf = (
  lock: unknown,
  store: PgStoreShape
):
  | ((statement: OneStatement) => Effect.Effect<ReadonlyArray<unknown> | null, LockTimeout | StoreUnavailable>)
  | null =>
{
  const own = typeof lock === "object" && lock !== null ? oneStatements.get(lock) : undefined
  return own !== undefined && own.store === store ? own.run : null
}
const oneStatements = new WeakMap<object, {
  readonly store: PgStoreShape
  readonly run: (
    statement: OneStatement
  ) => Effect.Effect<ReadonlyArray<unknown> | null, LockTimeout | StoreUnavailable>
}>()

/** What a `withLock` region knows of its transaction. */
export interface LockHeld {
  /**
   * Run `f` once the transaction has committed (never when it rolls back, or when the outcome
   * of the COMMIT is unknown); null when the region runs inside a transaction that is not
   * `withLock`'s own (its commit is the caller's).
   */
  readonly afterCommit: ((f: () => void) => void) | null
  /**
   * Null unless the region's caller said it closes with a statement
   * (`LockRegionHint.closesWithStatement`) and the transaction is `withLock`'s own on a client
   * that pipelines. Then the region may send its last statement with `closing.send`: the
   * `COMMIT` goes out right behind it (one round trip for both). That statement must fail
   * whenever the region may not commit what it did (the transaction is then aborted, and the
   * `COMMIT` a rollback), and nothing may follow it in the region but computing. After such a
   * failure, `closing.reopen` opens a new transaction with the lock on the same connection (the
   * rollback awaited first), and the region goes on in it as in any other.
   */
  readonly closing: ClosingStatement | null
}

export interface ClosingStatement {
  /**
   * `name`: a prepared statement of that name on the connection (parsed and planned by the server
   * once per connection; one name, one text).
   */
  readonly send: (
    text: string,
    params: ReadonlyArray<unknown>,
    name?: string
  ) => Effect.Effect<ReadonlyArray<unknown>, SqlError>
  readonly reopen: Effect.Effect<void, SqlError>
}

/** Inside `withLock`: the dossier whose advisory lock the transaction on `connection` holds. */
class DossierLockHeld extends Context.Tag("dossier/PgLock/DossierLockHeld")<DossierLockHeld, {
  readonly dossier: string
  readonly connection: Connection
  readonly held: LockHeld
}>() {}

/**
 * Whether the current transaction holds dossier `dossier`'s lock (a `withLock` region of that
 * dossier, on the connection the statements run on): what it knows of it, or null.
 */
export const holdsDossierLock = (dossier: string): Effect.Effect<LockHeld | null> =>
  Effect.contextWith((context: Context.Context<never>) => {
    const held = Context.getOption(context, DossierLockHeld)
    const tx = Context.getOption(context, TransactionConnection)
    return Option.isSome(held) && Option.isSome(tx) && held.value.dossier === dossier &&
        held.value.connection === tx.value[0]
      ? held.value.held
      : null
  })

/**
 * The node-postgres client under a reserved connection of the pool (`@effect/sql-pg`'s
 * connection keeps it as `pg`), when it runs in pipeline mode (`PgStore` configures its pool so):
 * a query sent to it goes out at once, behind the ones still waiting for their answers. Null
 * otherwise (the transaction then opens with a round trip of its own).
 */
interface PipelineClient {
  readonly pipeline: boolean
  readonly processID?: number | null
  /** The connection's socket (node-postgres keeps it as `connection.stream`). */
  readonly connection?: { readonly stream?: CorkableStream }
  query(
    query: string | { readonly name: string; readonly text: string; readonly values: ReadonlyArray<unknown> },
    values: ReadonlyArray<unknown> | undefined,
    callback: (err: Error | null, result: PgResult | ReadonlyArray<PgResult>) => void
  ): unknown
}
/** A socket whose writes can be held and sent together (Node's `Writable.cork`). */
interface CorkableStream {
  cork(): void
  uncork(): void
}

/**
 * Hold what is written to `client`'s socket from now on, and send it all in one write when the
 * returned function is called — or, at the latest, once the current turn of the event loop has
 * run its callbacks and promise jobs (`process.nextTick`, which Node runs only when both queues
 * are empty: when the fiber waits for an answer, the held statements have gone out). A region
 * that sends its statements in one turn so reaches the server in one write, and the server
 * wakes once for them all instead of once per statement. Called twice, the second is a no-op.
 */
const holdWrites = (client: PipelineClient): () => void => {
  const stream = client.connection?.stream
  if (stream === undefined || typeof stream.cork !== "function" || typeof stream.uncork !== "function") {
    return () => {}
  }
  stream.cork()
  let held = true
  const release = () => {
    if (!held) return
    held = false
    stream.uncork()
  }
  process.nextTick(release)
  return release
}

/** A statement's answer (`command`: its tag, `COMMIT` or `ROLLBACK` for a `COMMIT`). */
interface PgResult {
  readonly command?: string
  readonly rows?: ReadonlyArray<unknown>
}
const pipelineClientOf = (conn: Connection): PipelineClient | null => {
  const pg: unknown = (conn as { readonly pg?: unknown }).pg
  return typeof pg === "object" && pg !== null && (pg as PipelineClient).pipeline === true &&
      typeof (pg as PipelineClient).query === "function"
    ? pg as PipelineClient
    : null
}

/**
 * Send `text` (with no `params`: a simple query, which may hold several statements) on `client`
 * now; its answer (the last statement's), awaited later. What is sent after it on that connection
 * runs after it, in its transaction.
 */
const sendNow = (
  client: PipelineClient,
  text: string,
  params: ReadonlyArray<unknown> = [],
  cancel?: Effect.Effect<void>,
  name?: string
): Effect.Effect<PgResult, SqlError> => {
  let answer: Effect.Effect<PgResult, SqlError> | null = null
  let waiting: ((answer: Effect.Effect<PgResult, SqlError>) => void) | null = null
  const query = name === undefined ? text : { name, text, values: params }
  client.query(query, name === undefined ? params : undefined, (err, result) => {
    answer = err === null || err === undefined
      ? Effect.succeed(Array.isArray(result) ? result[result.length - 1] ?? {} : result as PgResult)
      : Effect.fail(new SqlError({ cause: err, message: "Failed to execute statement" }))
    if (waiting !== null) waiting(answer)
  })
  return Effect.async<PgResult, SqlError>((resume) => {
    if (answer !== null) resume(answer)
    else waiting = resume
    return cancel
  })
}

/** The advisory lock key of a dossier: a 64-bit hash of its name (computed by the server). */
const lockName = (dossier: string) => `dossier:${dossier}`

export const makePgLock = (store: PgStoreShape): PgLockShape => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  /**
   * `self` within the command's deadline, else `StoreUnavailable` once `self` is interrupted (its
   * transaction rolled back). As `Effect.timeoutFail`, with one fiber and one timer instead of a
   * race of two fibers: it runs around every command.
   */
  const deadline = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreUnavailable, R> =>
    Effect.flatMap(Effect.fork(self), (fiber) =>
      Effect.async<A, E | StoreUnavailable>((resume) => {
        let done = false
        const timer = setTimeout(() => {
          if (done) return
          done = true
          resume(Effect.zipRight(
            Fiber.interrupt(fiber),
            Effect.fail(
              new StoreUnavailable({
                reason: `the command did not finish within its deadline of ${config.deadlineMs} ms`
              })
            )
          ))
        }, config.deadlineMs)
        fiber.addObserver((exit) => {
          if (done) return
          done = true
          clearTimeout(timer)
          // As a join: the command's fiber refs come back with its answer.
          resume(Effect.zipRight(Fiber.inheritAll(fiber), exit))
        })
        return Effect.suspend(() => {
          done = true
          clearTimeout(timer)
          return Fiber.interrupt(fiber)
        })
      }))
  const takeLock = sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockName(dossier)}, 0))`
  // The lock's key, computed by the server once (a parameterized statement), then written in the
  // text of the `BEGIN` that takes it: a number, checked as one.
  let key: string | null = null
  const keyOf = (conn: Connection): Effect.Effect<string, SqlError> =>
    key !== null
      ? Effect.succeed(key)
      : Effect.flatMap(
        conn.executeUnprepared("SELECT hashtextextended($1, 0)::text AS key", [lockName(dossier)], undefined),
        (rows) => {
          const k: unknown = (rows[0] as { key?: unknown } | undefined)?.key
          if (typeof k !== "string" || !/^-?[0-9]{1,20}$/.test(k)) {
            return Effect.dieMessage("the server answered no lock key for the dossier")
          }
          key = k
          return Effect.succeed(k)
        }
      )
  const beginLockedText = (k: string) => `BEGIN; SELECT pg_advisory_xact_lock(${k})`
  const beginLocked = (conn: Connection) =>
    Effect.flatMap(keyOf(conn), (k) => conn.executeUnprepared(beginLockedText(k), [], undefined))
  const beginRead = (conn: Connection) =>
    conn.executeUnprepared("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", [], undefined)

  /**
   * `self` in a transaction of its own on a connection of the pool: `begin` opens it (a wait for
   * the lock may be interrupted: the deadline), a success commits it, a failure or an
   * interruption rolls it back. As `sql.withTransaction` (whose nested calls inside are
   * savepoints of this one), a failed COMMIT or ROLLBACK is a defect that `mapErrors` maps.
   *
   * With `pipelined` (the text of the locked `BEGIN`, for a region that opens with a statement)
   * and a client in pipeline mode, that text is sent and `self` started at once: its first
   * statement goes out behind the `BEGIN` and the lock, in the same round trip, and runs once
   * the lock is held. A `BEGIN` that failed (the lock's wait timed out) fails the region as it
   * would have before it started — its statements found the transaction aborted and wrote nothing.
   */
  const transaction = <A, E, R>(
    begin: (conn: Connection) => Effect.Effect<unknown, SqlError>,
    self: Effect.Effect<A, E, R>,
    held: boolean,
    pipelined: string | null = null,
    closes = false
  ) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.scoped(Effect.flatMap(sql.reserve, (conn) => {
        const committed: Array<() => void> = []
        const client = pipelined === null ? null : pipelineClientOf(conn)
        /** The `COMMIT` sent behind the region's closing statement: its answer. */
        let commitSent: Effect.Effect<PgResult, SqlError> | null = null
        /** Sends what the region wrote since its `BEGIN` (see `holdWrites`). */
        let release = () => {}
        const closing: ClosingStatement | null = client === null || !closes ? null : {
          send: (text, params, name) =>
            Effect.suspend(() => {
              if (commitSent !== null) return Effect.dieMessage("a region sends one closing statement")
              // Waiting for it interrupted (the deadline): what the server runs on this
              // connection is cancelled (the lock's wait, the statement), as `@effect/sql-pg` does.
              const pid = client.processID
              const cancel = typeof pid === "number"
                ? Effect.ignore(Effect.timeoutOption(
                  // On another connection of the pool, not this transaction's.
                  Effect.mapInputContext(
                    sql.unsafe("SELECT pg_cancel_backend($1)", [pid]),
                    (context: Context.Context<never>) => Context.omit(TransactionConnection)(context)
                  ),
                  5_000
                ))
                : undefined
              const answer = sendNow(client, text, params, cancel, name)
              commitSent = sendNow(client, "COMMIT")
              release()
              return Effect.map(answer, (r) => r.rows ?? [])
            }),
          reopen: Effect.suspend(() => {
            const sent = commitSent
            commitSent = null
            return Effect.zipRight(
              sent === null ? Effect.void : Effect.flatMap(
                Effect.orElseSucceed(sent, () => ({}) as PgResult),
                (r) =>
                  r.command === "COMMIT"
                    ? Effect.dieMessage("a region reopened its transaction after it committed")
                    : Effect.void
              ),
              Effect.asVoid(sendNow(client, pipelined!))
            )
          })
        }
        const context = Context.make(TransactionConnection, [conn, 0] as const)
        const inside = held
          ? Context.add(context, DossierLockHeld, {
            dossier,
            connection: conn,
            held: { afterCommit: (f) => committed.push(f), closing }
          })
          : context
        const region = client === null
          ? Effect.zipRight(begin(conn), Effect.provide(self, inside))
          : Effect.suspend(() => {
            release = holdWrites(client)
            const begun = sendNow(client, pipelined!)
            // The region's answer once the BEGIN's is known (a failed BEGIN answers for both); an
            // interrupted region answers at once (its statement's cancellation reaches the lock's wait).
            return Effect.flatMap(
              Effect.exit(Effect.provide(self, inside)),
              (exit) => Exit.isInterrupted(exit) ? exit : Effect.zipRight(begun, exit)
            )
          })
        const afterCommit = Effect.sync(() => {
          for (const f of committed) f()
        })
        return Effect.flatMap(
          Effect.exit(restore(region)),
          (exit) => {
            const sent = commitSent
            if (sent === null) {
              return Exit.isSuccess(exit)
                ? Effect.as(
                  Effect.zipRight(Effect.orDie(conn.executeUnprepared("COMMIT", [], undefined)), afterCommit),
                  exit.value
                )
                : Effect.zipRight(Effect.orDie(conn.executeUnprepared("ROLLBACK", [], undefined)), exit)
            }
            // The COMMIT went out behind the closing statement: its answer says what happened. A
            // region that failed after its closing statement committed broke its caller's word.
            return Effect.flatMap(Effect.orDie(sent), (r) =>
              Exit.isSuccess(exit)
                ? r.command === "COMMIT"
                  ? Effect.as(afterCommit, exit.value)
                  : Effect.dieMessage("the transaction was rolled back at its COMMIT")
                : r.command === "COMMIT" && !Exit.isInterrupted(exit)
                ? Effect.dieMessage("a region failed after its closing statement committed")
                : exit)
          }
        )
      }))
    )

  /**
   * `statement` as a whole command, without a region: what `transaction` does for a region that
   * opens and closes with one statement, in the driver's callbacks. A client of the pool (a wait
   * for one is the pool's), the locked `BEGIN`, the statement and `COMMIT` written in one write,
   * their answers in order, the client given back (closed when its connection failed). The
   * answer: the statement's rows once committed; null when the statement refused (its own check:
   * the `COMMIT` behind it was a rollback); the locked `BEGIN`'s failure (`LockTimeout`) or the
   * driver's, mapped as `mapErrors` does. The deadline is a timer, not a fiber: nothing of the
   * command runs in Effect between the write and the answers, so what it can wait for is the pool
   * and the server. At the deadline, or when the caller is interrupted, the statement running on
   * the connection is cancelled (`pg_cancel_backend` on another connection, as the region's
   * interruption does), and the answer waits for the `COMMIT`'s, which is then a rollback; while
   * the pool has no client yet, the deadline answers at once and the client, once given, goes
   * back unused. Null (the caller runs a region instead) inside a transaction, on a client that
   * does not pipeline, or before the process knows the lock's key.
   */
  const oneStatement = (statement: OneStatement) =>
    Effect.flatMap(
      Effect.serviceOption(TransactionConnection),
      (tx): Effect.Effect<ReadonlyArray<unknown> | null, LockTimeout | StoreUnavailable> =>
        Option.isSome(tx) || key === null || poolOf(store).options.pipeline !== true
          ? Effect.succeed(null)
          : oneStatementCommand(store, beginLockedText(key), statement)
    )

  const lock: PgLockShape = {
    withLock: <A, E, R>(self: Effect.Effect<A, E, R>, hint?: LockRegionHint) =>
      Effect.flatMap(
        Effect.serviceOption(TransactionConnection),
        (tx): Effect.Effect<A, E | LockTimeout | StoreUnavailable, R> =>
          Option.isSome(tx)
            ? (mapErrors(Effect.zipRight(
              takeLock,
              Effect.flatMap(holdsDossierLock(dossier), (outer) =>
                Effect.provideService(self, DossierLockHeld, {
                  dossier,
                  connection: tx.value[0],
                  // Inside a transaction of this lock, its commit; inside another, unknown. Never
                  // the outer region's closing statement: its caller closes it.
                  held: { afterCommit: outer?.afterCommit ?? null, closing: null }
                }))
            )) as Effect.Effect<A, E | LockTimeout | StoreUnavailable, R>)
            : (deadline(mapErrors(transaction(
              beginLocked,
              self,
              true,
              hint?.opensWithStatement === true && key !== null ? beginLockedText(key) : null,
              hint?.closesWithStatement === true
            ))) as Effect.Effect<
              A,
              E | LockTimeout | StoreUnavailable,
              R
            >)
      ),
    withReadLock: <A, E, R>(self: (held: boolean) => Effect.Effect<A, E, R>) =>
      Effect.flatMap(
        Effect.serviceOption(TransactionConnection),
        (tx): Effect.Effect<A, E | LockTimeout | StoreUnavailable, R> =>
          Option.isSome(tx)
            ? self(true)
            : (deadline(mapErrors(transaction(beginRead, self(false), false))) as Effect.Effect<
              A,
              E | LockTimeout | StoreUnavailable,
              R
            >)
      )
  }
  oneStatements.set(lock, { store, run: oneStatement })
  return lock
}

/** The deadline's refusal. */
const pastDeadline = (deadlineMs: number) =>
  new StoreUnavailable({ reason: `the command did not finish within its deadline of ${deadlineMs} ms` })

/** See `oneStatement` in `makePgLock`. */
const oneStatementCommand = (store: PgStoreShape, begin: string, statement: OneStatement) =>
  Effect.async<ReadonlyArray<unknown> | null, LockTimeout | StoreUnavailable>((resume) => {
    const { config, mapErrors } = store
    const pool = poolOf(store)
    /** Answered (by the answers, the deadline or an interruption). */
    let answered = false
    /** The client given back; `ended` is then called. */
    let finished = false
    let ended: (() => void) | null = null
    /** The deadline passed, or the caller was interrupted: the statement is cancelled. */
    let stopped = false
    let client: PipelineClient | null = null
    const answer = (effect: Effect.Effect<ReadonlyArray<unknown> | null, LockTimeout | StoreUnavailable>) => {
      if (answered) return
      answered = true
      clearTimeout(timer)
      resume(effect)
    }
    const failed = (cause: unknown) =>
      mapErrors(Effect.fail(new SqlError({ cause, message: "Failed to execute statement" })))
    const finish = () => {
      finished = true
      if (ended !== null) ended()
    }
    /** Cancel what the server runs for the command (on another connection of the pool). */
    const cancel = () => {
      const pid = client?.processID
      if (typeof pid !== "number") return
      // Its own failure changes nothing: the answers still come, within the client's read timeout.
      pool.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => {})
    }
    const stop = () => {
      if (stopped) return
      stopped = true
      cancel()
    }
    const timer = setTimeout(() => {
      // Before a client was given: answered now (the client, when it comes, goes back unused).
      if (client === null) answer(Effect.fail(pastDeadline(config.deadlineMs)))
      stop()
    }, config.deadlineMs)
    pool.connect((err, given, release) => {
      if (err !== undefined && err !== null || given === undefined) {
        if (given !== undefined) release()
        answer(failed(err ?? new Error("No client returned")))
        return finish()
      }
      if (stopped || answered) {
        release()
        return finish()
      }
      const c = given as unknown as PipelineClient & Pg.Client
      client = c
      let broken: Error | undefined = undefined
      const onError = (e: Error) => {
        broken = e
      }
      c.on("error", onError)
      let beginError: unknown = null
      let statementError: unknown = null
      let rows: ReadonlyArray<unknown> = []
      const sent = holdWrites(c)
      c.query(begin, [], (e) => {
        if (e !== null && e !== undefined) beginError = e
      })
      c.query({ name: statement.name, text: statement.text, values: statement.params }, undefined, (e, r) => {
        if (e !== null && e !== undefined) statementError = e
        else rows = (Array.isArray(r) ? r[r.length - 1] : r as PgResult)?.rows ?? []
      })
      c.query("COMMIT", [], (e, r) => {
        c.off("error", onError)
        release(broken)
        const result = Array.isArray(r) ? r[r.length - 1] : r as PgResult
        const committed = (e === null || e === undefined) && result?.command === "COMMIT"
        if (committed) statement.committed()
        if (committed) answer(Effect.succeed(rows))
        else if (stopped) answer(Effect.fail(pastDeadline(config.deadlineMs)))
        else if (beginError !== null) answer(failed(beginError))
        else if (statementError !== null) {
          answer(
            statement.refused(new SqlError({ cause: statementError, message: "Failed to execute statement" }))
              ? Effect.succeed(null)
              : failed(statementError)
          )
        } else if (e !== null && e !== undefined) answer(failed(e))
        else answer(Effect.dieMessage("the transaction was rolled back at its COMMIT"))
        finish()
      })
      sent()
    })
    // Interrupted: the statement cancelled, and the interruption done once the client is back.
    return Effect.suspend(() => {
      answered = true
      clearTimeout(timer)
      if (client === null || finished) return Effect.void
      stop()
      return Effect.async<void>((done) => {
        if (finished) done(Effect.void)
        else ended = () => done(Effect.void)
      })
    })
  })

/** `PgLock` over the `PgStore` of the context, as `PgLock` and as the `Lock` (one instance). */
export const PgLockLayer: Layer.Layer<PgLock | Lock, never, PgStore> = Layer.effectContext(
  Effect.map(PgStore, (store) => {
    const lock = makePgLock(store)
    return Context.make(PgLock, lock).pipe(Context.add(Lock, lock))
  })
)
