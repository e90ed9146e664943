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
 * there); a reader only reads the version (it sends no write). With `requireDossier` (a bound
 * folder's commands), a dossier the store does not hold is refused in either mode, read in the
 * same statement as the version.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import { SqlClient as SqlClientTag } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as os from "node:os"
import * as Pg from "pg"
import { parse as parseConnectionString } from "pg-connection-string"
import { UsageError } from "../../domain/CliErrors.js"
import type { LockTimeout } from "../../domain/Errors.js"
import { StoreTooNew, StoreUnavailable } from "../../domain/StoreErrors.js"
import { DOSSIER_NAME, DOSSIER_NAME_RULE, isMalformed, parseStoreUrl, type StoreUrl } from "../../domain/StoreUrl.js"
import { LOCK_WAIT_MS } from "../../services/Lock.js"
import { mapSqlError, NO_DOSSIER_REASON } from "./PgErrors.js"
import { lookupPassword } from "./PgPassword.js"
import { ensureDossier, lookStore, migrate, SCHEMA_NOT_CURRENT, SCHEMA_VERSION } from "./PgSchema.js"

export interface PgStoreOptions {
  /** `postgres://[user[:password]@]host[:port]/database[?…]`; a password here is used, never kept. */
  readonly url: string
  /** The shared dossier's name (`DOSSIER_NAME`). */
  readonly dossier: string
  /** `write` migrates the schema and creates the dossier's row; `read` sends no write. */
  readonly mode?: "write" | "read"
  /**
   * A dossier the store does not hold is refused (`StoreUnavailable` with `NO_DOSSIER_REASON`,
   * which a command answers as `BindingRefused no-dossier`; a store without dossier's schema at
   * all, `SCHEMA_NOT_CURRENT`), in either mode, and nothing is written (no schema, no dossier's
   * row): a bound folder's commands, since only `init --store` creates a dossier. Otherwise
   * (default) a writer creates it and a reader reads it as empty.
   */
  readonly requireDossier?: boolean
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
  /**
   * Whether the store's schema is this binary's when the layer was built (a writer makes it so; a
   * reader only reads the version: none yet, or an older one, is `false`).
   */
  readonly schemaCurrent: boolean
  /**
   * The node-postgres pool under `sql` (`PgLock`'s one-statement command takes its clients: see
   * `poolOf`), opaque here so that the published types need no declarations of `pg`.
   */
  readonly pool: PgPoolHandle
}

declare const PgPoolBrand: unique symbol
/** The node-postgres pool of a `PgStore`, as its published type names it (see `poolOf`). */
export interface PgPoolHandle {
  readonly [PgPoolBrand]: "node-postgres pool"
}

export class PgStore extends Context.Tag("dossier/PgStore")<PgStore, PgStoreShape>() {}

/** The optional timeouts of `PgStoreOptions`, each a whole number of milliseconds when given. */
const TIMEOUTS = ["connectTimeoutMs", "lockTimeoutMs", "statementTimeoutMs", "deadlineMs"] as const

/**
 * What is wrong with the options a caller gave (from JavaScript, not held by the types), or null:
 * an options object that is missing or no object, a `mode` that is neither "write" nor "read"
 * (any other was a reader), a timeout that is no whole number of milliseconds.
 */
export const optionsProblem = (options: unknown): string | null => {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    return "Give the options as one object: {url, dossier, workdir}."
  }
  const given = options as Readonly<Record<string, unknown>>
  if (given["mode"] !== undefined && given["mode"] !== "write" && given["mode"] !== "read") {
    return "The option mode is \"write\" or \"read\" (or left out: \"write\")."
  }
  for (const key of TIMEOUTS) {
    const value = given[key]
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) {
      return `The option ${key} is a whole number of milliseconds from 1 (or left out).`
    }
  }
  return null
}

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

/**
 * A connection that closes its socket when it fails to connect. node-postgres leaves the socket
 * open after a refusal of its own (the server asks for a password and none was given: the client
 * gives up without answering), and the server holds it until its `authentication_timeout` (a
 * minute by default): the command answered at once, and its process stayed a minute before it
 * exited (tested in test/store/bind.refused.test.ts).
 */
class ClosingClient extends Pg.Client {
  override connect(): Promise<void>
  override connect(callback: (err: Error | null | undefined) => void): void
  override connect(callback?: (err: Error | null | undefined) => void): Promise<void> | void {
    if (callback === undefined) {
      return super.connect().catch((e: unknown) => {
        this.connection?.stream.destroy()
        throw e
      })
    }
    super.connect((err) => {
      if (err !== null && err !== undefined) this.connection?.stream.destroy()
      callback(err)
    })
  }
}

/** The node-postgres pool's configuration (no password in it unless the URL had one). */
const poolConfig = (url: StoreUrl, config: PgStoreConfig): Pg.PoolConfig => {
  const parsed = parseConnectionString(url.connect, { useLibpqCompat: true })
  const { password: urlPassword, port, host, user, ...rest } = parsed
  const target = {
    // An IPv6 literal without the brackets the URL needs around it (`[::1]` is `::1`), as libpq
    // reads it: the driver would look the bracketed text up as a name, and the password file
    // names the address bare.
    host: host === null || host === undefined ? "localhost" : host.replace(/^\[(.*)\]$/, "$1"),
    port: port === null || port === undefined || port === "" ? 5432 : Number(port),
    // The database as libpq reads the path (every %-escape decoded): pg-connection-string leaves
    // %23, %40, %3A, … as they are, so `/odd%23db` would name another database.
    database: url.database,
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
    // The functions dossier calls (pg_advisory_xact_lock, hashtextextended, octet_length, …) are
    // pg_catalog's, whatever the URL's `options` set search_path to: a schema someone else can
    // create functions in, put first, would otherwise take the lock's place and run its SQL as
    // this role. Its tables are all named with their schema (`dossier.events`). The last `-c`
    // of the startup options wins.
    options: `${typeof rest.options === "string" ? `${rest.options} ` : ""}-c search_path=pg_catalog`,
    // A query goes out at once, behind those still waiting for their answers (each is still its
    // own message with its own Sync): `PgLock` sends a region's opening with its first statement.
    // Statements awaited one after another, as everywhere else, go as they did.
    pipeline: true,
    max: 4,
    Client: ClosingClient,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true
  }
}

/**
 * The store's layer: a `PgStore` (and the `SqlClient` it wraps) for one dossier. Fails with
 * `UsageError` for a malformed URL or dossier name, `StoreUnavailable` when the server cannot be
 * reached within the connect timeout (or, with `requireDossier`, a dossier the store does not
 * hold: `NO_DOSSIER_REASON`), `StoreTooNew` for a newer schema.
 */
export const PgStoreLayer = (
  options: PgStoreOptions
): Layer.Layer<PgStore | SqlClient.SqlClient, UsageError | StoreUnavailable | StoreTooNew | LockTimeout> =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const problem = optionsProblem(options)
      if (problem !== null) return yield* new UsageError({ detail: problem })
      const parsed = parseStoreUrl(options.url)
      if (isMalformed(parsed)) return yield* new UsageError({ detail: parsed.malformed })
      if (typeof options.dossier !== "string" || !DOSSIER_NAME.test(options.dossier)) {
        return yield* new UsageError({ detail: DOSSIER_NAME_RULE })
      }
      const config = resolveConfig(options)
      const mapErrors = mapSqlError(config.lockTimeoutMs)
      // The driver reads the files the URL names (sslcert, sslkey, sslrootcert) here: one it
      // cannot read is the URL's mistake, said without the path.
      const pgConfig = yield* Effect.try({
        try: () => poolConfig(parsed, config),
        catch: (e) => {
          const code = (e as { code?: unknown }).code
          return new UsageError({
            detail: typeof code === "string"
              ? `A file the store URL names (sslcert, sslkey or sslrootcert) cannot be read (${code}): give the path of a readable file.`
              : "The store URL's parameters cannot be used: check sslmode and the ssl* parameters."
          })
        }
      })
      const pool = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const p = new Pg.Pool(pgConfig)
          // An idle client's socket error: the next command finds out and answers StoreUnavailable.
          p.on("error", () => {})
          return p
        }),
        (p) => Effect.promise(() => p.end()).pipe(Effect.timeoutOption(1_000), Effect.ignore)
      )
      const client = yield* mapErrors(PgClient.fromPool({ acquire: Effect.succeed(pool), applicationName: "dossier" }))
      const sql: SqlClient.SqlClient = client
      const connectDeadline = <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.timeoutFail(self, {
          duration: Duration.millis(config.connectTimeoutMs + config.queryTimeoutMs),
          onTimeout: () => new StoreUnavailable({ reason: "no answer from the server within the connect timeout" })
        })
      // One look reads the schema's version and whether the dossier is there (the round trips of
      // the version alone): nothing is written when the schema is current and the dossier exists
      // (a bound folder's read-only commands then work under a role with SELECT only).
      const schemaCurrent = yield* connectDeadline(mapErrors(Effect.gen(function*() {
        const look = yield* lookStore(sql, config.dossier)
        if (look.version > SCHEMA_VERSION) {
          return yield* new StoreTooNew({ schema: look.version, supported: SCHEMA_VERSION })
        }
        if (!look.exists && options.requireDossier === true) {
          // No schema at all: said as `pull` and `export` say it (`init --store` creates it).
          return yield* new StoreUnavailable({ reason: look.version === 0 ? SCHEMA_NOT_CURRENT : NO_DOSSIER_REASON })
        }
        if (config.mode === "read") return look.version === SCHEMA_VERSION
        yield* migrate(sql, look)
        if (!look.exists) yield* ensureDossier(sql, config.dossier)
        return true
      })))
      const store: PgStoreShape = { config, sql, mapErrors, schemaCurrent, pool: pool as unknown as PgPoolHandle }
      return Context.make(PgStore, store).pipe(Context.add(PgClient.PgClient, client), Context.add(SqlClientTag, sql))
    })
  ).pipe(Layer.provide(Reactivity.layer)) as Layer.Layer<
    PgStore | SqlClient.SqlClient,
    UsageError | StoreUnavailable | StoreTooNew | LockTimeout
  >
