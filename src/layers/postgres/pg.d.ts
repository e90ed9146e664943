/**
 * The few parts of node-postgres (`pg`, installed with @effect/sql-pg) that dossier uses
 * directly: the package ships no types of its own and `@types/pg` is not installed.
 */
declare module "pg" {
  export interface QueryResult<R = Record<string, unknown>> {
    readonly rows: Array<R>
    readonly rowCount: number | null
  }
  export interface ClientConfig {
    connectionString?: string | undefined
    host?: string | undefined
    port?: number | undefined
    user?: string | undefined
    database?: string | undefined
    password?: string | (() => string | undefined | Promise<string | undefined>) | undefined
    ssl?: unknown
    connectionTimeoutMillis?: number | undefined
    statement_timeout?: number | undefined
    lock_timeout?: number | undefined
    query_timeout?: number | undefined
    idle_in_transaction_session_timeout?: number | undefined
    keepAlive?: boolean | undefined
    keepAliveInitialDelayMillis?: number | undefined
    application_name?: string | undefined
    /** The server's startup `options` (command-line switches such as `-c name=value`). */
    options?: string | undefined
    /** Send each query at once, not after the previous one's answer (node-postgres 8.20+). */
    pipeline?: boolean | undefined
  }
  export interface PoolConfig extends ClientConfig {
    max?: number | undefined
    min?: number | undefined
    idleTimeoutMillis?: number | undefined
    allowExitOnIdle?: boolean | undefined
    /** The client class the pool makes its connections with. */
    Client?: typeof Client | undefined
  }
  export class Client {
    constructor(config?: string | ClientConfig)
    readonly processID: number | undefined
    /** The connection's socket (set once connecting starts). */
    readonly connection: { readonly stream: { destroy(): void } } | undefined
    connect(): Promise<void>
    connect(callback: (err: Error | null | undefined) => void): void
    query<R = Record<string, unknown>>(text: string, values?: Array<unknown>): Promise<QueryResult<R>>
    /** A prepared statement: parsed once per connection under `name`. */
    query<R = Record<string, unknown>>(
      config: { name: string; text: string; values?: Array<unknown> }
    ): Promise<QueryResult<R>>
    end(): Promise<void>
    on(event: "error", listener: (err: Error) => void): this
    off(event: "error", listener: (err: Error) => void): this
  }
  export class Pool {
    constructor(config?: PoolConfig)
    readonly options: PoolConfig
    readonly ending: boolean
    query<R = Record<string, unknown>>(text: string, values?: Array<unknown>): Promise<QueryResult<R>>
    /** A client of the pool; `release(err)` gives it back (with an error: closes it). */
    connect(
      callback: (err: Error | undefined, client: Client | undefined, release: (err?: Error) => void) => void
    ): void
    end(): Promise<void>
    on(event: "error", listener: (err: Error) => void): this
  }
  export function escapeIdentifier(s: string): string
  export interface CustomTypesConfig {
    getTypeParser: (oid: number, format?: string) => (value: string) => unknown
  }
}
