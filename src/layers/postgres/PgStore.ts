/**
 * PgStore: one shared dossier in a PostgreSQL database, reached through `@effect/sql-pg` over a
 * node-postgres pool that dossier configures itself:
 *
 * - the URL's parameters are honoured the libpq way (`sslmode`, `sslrootcert`, `application_name`,
 *   …; pg-connection-string with libpq semantics); the password comes from the URL, else
 *   `PGPASSWORD`, else `~/.pgpass` (`PgPassword.ts`), and is handed to the driver only;
 * - every wait is bounded: the connect timeout, `lock_timeout` (a wait for another writer:
 *   `LockTimeout`), `statement_timeout` on the server and a read timeout on the client (the
 *   server or the network gone quiet), TCP keep-alive, and `idle_in_transaction_session_timeout`
 *   (a client that vanished mid-transaction does not hold its locks for long);
 * - a failure of the driver becomes `StoreUnavailable {reason}` or `LockTimeout` (`PgErrors.ts`).
 *
 * Building the layer connects once and checks the schema: a writer (`mode: "write"`) creates or
 * migrates it and the dossier's row when they are missing (and writes nothing when they are
 * there); a reader only reads the version (it sends no write).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import { SqlClient as SqlClientTag } from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as net from "node:net"
import * as os from "node:os"
import * as Pg from "pg"
import { parse as parseConnectionString } from "pg-connection-string"
import { UsageError } from "../../domain/CliErrors.js"
import type { LockTimeout } from "../../domain/Errors.js"
import { type StoreTooNew, StoreUnavailable } from "../../domain/StoreErrors.js"
import { DOSSIER_NAME, isMalformed, parseStoreUrl } from "../../domain/StoreUrl.js"
import { LOCK_WAIT_MS } from "../../services/Lock.js"
import { mapSqlError } from "./PgErrors.js"
import { lookupPassword } from "./PgPassword.js"
import { checkSchema, dossierExists, ensureDossier, migrate, PROBE, type Probe, SCHEMA_VERSION } from "./PgSchema.js"

export interface PgStoreOptions {
  /** `postgres://[user[:password]@]host[:port]/database[?…]`; a password here is used, never kept. */
  readonly url: string
  /** The shared dossier's name (`DOSSIER_NAME`). */
  readonly dossier: string
  /** `write` migrates the schema and creates the dossier's row; `read` sends no write. */
  readonly mode?: "write" | "read"
  /** Connecting, including TLS and authentication (default 5 s). */
  readonly connectTimeoutMs?: number
  /** Waiting for another writer of the dossier, or any lock (default `LOCK_WAIT_MS`, 10 s). */
  readonly lockTimeoutMs?: number
  /** One statement on the server (default: the lock wait + 5 s). */
  readonly statementTimeoutMs?: number
  /** A whole command (one transaction), from its first statement to its commit (default 60 s). */
  readonly deadlineMs?: number
}

export interface PgStoreConfig {
  readonly dossier: string
  readonly mode: "write" | "read"
  readonly connectTimeoutMs: number
  readonly lockTimeoutMs: number
  readonly statementTimeoutMs: number
  /** The client's read timeout: the server's statement timeout and a margin. */
  readonly queryTimeoutMs: number
  readonly deadlineMs: number
}

export interface PgStoreShape {
  readonly config: PgStoreConfig
  readonly sql: SqlClient.SqlClient
  /** Map a driver failure of `self` to `StoreUnavailable` / `LockTimeout` (a defect otherwise). */
  readonly mapErrors: <A, E, R>(
    self: Effect.Effect<A, E | SqlError, R>
  ) => Effect.Effect<A, Exclude<E, SqlError> | StoreUnavailable | LockTimeout, R>
}

export class PgStore extends Context.Tag("dossier/PgStore")<PgStore, PgStoreShape>() {}

/** The options with their defaults. */
export const resolveConfig = (options: PgStoreOptions): PgStoreConfig => {
  const lockTimeoutMs = options.lockTimeoutMs ?? LOCK_WAIT_MS
  const statementTimeoutMs = options.statementTimeoutMs ?? lockTimeoutMs + 5_000
  return {
    dossier: options.dossier,
    mode: options.mode ?? "write",
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    lockTimeoutMs,
    statementTimeoutMs,
    queryTimeoutMs: statementTimeoutMs + 2_000,
    deadlineMs: options.deadlineMs ?? 60_000
  }
}

/** The node-postgres pool's configuration (no password in it unless the URL had one). */
const poolConfig = (url: string, config: PgStoreConfig): Pg.PoolConfig => {
  const parsed = parseConnectionString(url, { useLibpqCompat: true })
  const { password: urlPassword, port, host, database, user, ...rest } = parsed
  const target = {
    host: host ?? "localhost",
    port: port === null || port === undefined || port === "" ? 5432 : Number(port),
    database: database ?? user ?? os.userInfo().username,
    user: user ?? process.env.PGUSER ?? os.userInfo().username
  }
  return {
    ...(rest as Pg.PoolConfig),
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    // The URL's, else PGPASSWORD, else the password file; undefined lets the server decide (trust, peer).
    password: urlPassword !== undefined && urlPassword !== "" ? urlPassword : () => lookupPassword(target),
    connectionTimeoutMillis: config.connectTimeoutMs,
    lock_timeout: config.lockTimeoutMs,
    statement_timeout: config.statementTimeoutMs,
    query_timeout: config.queryTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(config.deadlineMs, config.queryTimeoutMs) + 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 5_000,
    application_name: (rest.application_name as string | undefined) ?? "dossier",
    // A query goes out at once, behind those still waiting for their answers (each is still its
    // own message with its own Sync): `PgLock` sends a region's opening with its first statement.
    // Statements awaited one after another, as everywhere else, go as they did.
    pipeline: true,
    max: 4,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true
  }
}

const newPool = (connect: string, config: PgStoreConfig, stream?: () => net.Socket): Pg.Pool => {
  const p = new Pg.Pool(stream === undefined ? poolConfig(connect, config) : { ...poolConfig(connect, config), stream })
  // An idle client's socket error: the next command finds out and answers StoreUnavailable.
  p.on("error", () => {})
  return p
}

/** What a pool's configuration is made from, to match an early connection with its layer. */
const poolKey = (connect: string, config: PgStoreConfig) => JSON.stringify([connect, config])

/** How an early connection ended: connected (with `PROBE`'s answer when it gave one), or the driver's error. */
type Settled =
  | { readonly failure: unknown; readonly probe?: undefined }
  | { readonly failure?: undefined; readonly probe?: Probe }

/** The connection `connectEarly` started, until a `PgStoreLayer` for the same store takes it. */
let early:
  | {
    readonly key: string
    readonly pool: Pg.Pool
    /** Settles when the connection is made and `PROBE` answered (or not), or has failed. */
    readonly settled: Promise<Settled>
  }
  | undefined

/**
 * Start connecting to the store `options` names (a bound folder's CLI command, before it loads
 * and builds its services), so that the server starts its session, authenticates and answers
 * while the command's code loads rather than after. A `PgStoreLayer` with the same options takes
 * the connection. Until then its socket does not keep the process alive: a command that fails
 * before it builds its services leaves at once. Never fails: a connection that cannot be made is
 * the layer's to report.
 */
export const connectEarly = (options: PgStoreOptions): void => {
  const parsed = parseStoreUrl(options.url)
  if (early !== undefined || isMalformed(parsed) || !DOSSIER_NAME.test(options.dossier)) return
  const config = resolveConfig(options)
  let socket: net.Socket | undefined
  // The pool's first client (this one) gets a socket that does not hold the process; the others
  // get the driver's own kind (a plain socket: TLS is set up over it).
  const pool = newPool(parsed.connect, config, () => {
    const s = new net.Socket()
    if (socket === undefined) {
      socket = s
      s.unref()
    }
    return s
  })
  // Once connected it asks what the layer would ask first (the schema's version, the dossier's
  // row), in one statement: a failure there (no schema yet) leaves the layer to ask the long way.
  const settled = pool.connect().then(
    (c): Promise<Settled> =>
      c.query<{ version: number; present: boolean }>(PROBE, [options.dossier]).then(
        (r) => {
          c.release()
          const row = r.rows[0]
          return row === undefined ? {} : { probe: { version: row.version, present: row.present } }
        },
        () => {
          c.release(true)
          return {}
        }
      ),
    (e: unknown): Settled => ({ failure: e ?? new Error("connection error") })
  )
  // The driver makes the first client's socket as it starts connecting, within `connect()`.
  if (socket !== undefined) early = { key: poolKey(parsed.connect, config), pool, settled }
  else void pool.end().catch(() => undefined)
}

/**
 * The early connection's pool when it is to the same store, once connected, with `PROBE`'s
 * answer; its failure is the layer's (the same one attempt the layer would have made). Another
 * store's is closed.
 */
const takeEarly = (
  key: string
): Effect.Effect<{ readonly pool: Pg.Pool; readonly probe: Probe | undefined } | undefined, SqlError> =>
  Effect.suspend(() => {
    const e = early
    early = undefined
    if (e === undefined) return Effect.succeed(undefined)
    if (e.key !== key) {
      endInBackground(e.pool)
      return Effect.succeed(undefined)
    }
    // From here the command waits on it, and the process must wait too (the socket does not hold
    // it; once connected, the pool holds the process while a client is in use, as for any other).
    const hold = setInterval(() => {}, 60_000)
    const settled = Effect.ensuring(Effect.promise(() => e.settled), Effect.sync(() => clearInterval(hold)))
    return Effect.flatMap(settled, (s) => {
      if (s.failure === undefined) return Effect.succeed({ pool: e.pool, probe: s.probe })
      endInBackground(e.pool)
      return Effect.fail(new SqlError({ cause: s.failure, message: "Failed to connect" }))
    })
  })

/**
 * End a pool without waiting for the server to close each session: its idle clients do not hold
 * the process (`allowExitOnIdle`), and waiting for the server's goodbye held every CLI command's
 * answer back by a round trip and the session's end (~6 ms).
 */
const endInBackground = (pool: Pg.Pool): void => {
  void pool.end().catch(() => undefined)
}

/**
 * The store's layer: a `PgStore` (and the `SqlClient` it wraps) for one dossier. Fails with
 * `UsageError` for a malformed URL or dossier name, `StoreUnavailable` when the server cannot be
 * reached within the connect timeout, `StoreTooNew` for a newer schema.
 */
export const PgStoreLayer = (
  options: PgStoreOptions
): Layer.Layer<PgStore | SqlClient.SqlClient, UsageError | StoreUnavailable | StoreTooNew | LockTimeout> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const parsed = parseStoreUrl(options.url)
      if (isMalformed(parsed)) return yield* new UsageError({ detail: parsed.malformed })
      if (!DOSSIER_NAME.test(options.dossier)) {
        return yield* new UsageError({
          detail: "a dossier name is 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit"
        })
      }
      const config = resolveConfig(options)
      const mapErrors = mapSqlError(config.lockTimeoutMs)
      const { pool, probe } = yield* Effect.acquireRelease(
        Effect.map(
          mapErrors(takeEarly(poolKey(parsed.connect, config))),
          (taken) => taken ?? { pool: newPool(parsed.connect, config), probe: undefined }
        ),
        (p) => Effect.sync(() => endInBackground(p.pool))
      )
      const client = yield* mapErrors(PgClient.fromPool({ acquire: Effect.succeed(pool), applicationName: "dossier" }))
      const sql: SqlClient.SqlClient = client
      const connectDeadline = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.timeoutFail(self, {
          duration: Duration.millis(config.connectTimeoutMs + config.queryTimeoutMs),
          onTimeout: () => new StoreUnavailable({ reason: "no answer from the server within the connect timeout" })
        })
      // An early connection's probe that found the schema current (and, for a writer, the
      // dossier's row) answered all that is asked below.
      const checked = probe !== undefined && probe.version === SCHEMA_VERSION &&
        (config.mode === "read" || probe.present)
      if (!checked) {
        yield* connectDeadline(mapErrors(
          config.mode === "write"
            // Nothing is written when the schema is current and the dossier exists (a bound
            // folder's read-only commands then work under a role with SELECT only).
            ? Effect.zipRight(
              migrate(sql),
              Effect.flatMap(
                dossierExists(sql, config.dossier),
                (exists) => exists ? Effect.void : Effect.asVoid(ensureDossier(sql, config.dossier))
              )
            )
            : Effect.asVoid(checkSchema(sql))
        ))
      }
      const store: PgStoreShape = { config, sql, mapErrors }
      return Context.make(PgStore, store).pipe(Context.add(PgClient.PgClient, client), Context.add(SqlClientTag, sql))
    })
  ).pipe(Layer.provide(Reactivity.layer)) as Layer.Layer<
    PgStore | SqlClient.SqlClient,
    UsageError | StoreUnavailable | StoreTooNew | LockTimeout
  >
