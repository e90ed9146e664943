/**
 * dossier's tables in a PostgreSQL database: the schema `dossier`, created and migrated by
 * dossier itself. One database holds many dossiers, each by name; every row names its dossier.
 *
 * - `dossier.schema_version`: one row, the schema's version. A version above `SCHEMA_VERSION` is
 *   a newer dossier's (`StoreTooNew`): nothing is read or written then.
 * - `dossier.dossiers`: one row per shared dossier (created by its first `init`).
 * - `dossier.records`: `VersionedRecords` (plan, monitor records, …) under (dossier, kind, key),
 *   with a revision that only grows; compare-and-set is `UPDATE … WHERE revision = $expected`.
 * - `dossier.events`: `EventLog` streams under (dossier, log, stream), ids `UNIQUE(dossier, log,
 *   stream, id)`, positions `UNIQUE(dossier, log, stream, position)`, each with its digest.
 * - `dossier.content`: `ContentStore` bytes (bytea) by (dossier, sha256), written once.
 *
 * Migration runs in one transaction holding an advisory transaction lock, so that N hosts
 * binding at once migrate once; a reader only reads the version (it sends no write).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import { StoreTooNew } from "../../domain/StoreErrors.js"

/** The schema version this binary writes and reads. */
export const SCHEMA_VERSION = 1

/**
 * Why a reader (a read-only command, `pull`, `export` of a bound folder) refuses a store that does
 * not hold this version's schema: it creates or migrates nothing (it sends no write).
 */
export const SCHEMA_NOT_CURRENT =
  "the store does not hold this version's schema yet (none, or an older one); `dossier init --store` creates it, and a writing command migrates an older one"

/** The advisory lock key of schema migration (any constant; dossiers take hashed keys). */
const MIGRATION_LOCK = 0x646f7373 // "doss"

/** Migrations: `MIGRATIONS[v - 1]` takes the schema from version v - 1 to v. */
const MIGRATIONS: ReadonlyArray<ReadonlyArray<string>> = [
  [
    `CREATE TABLE dossier.dossiers (
      name text PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE dossier.records (
      dossier text NOT NULL REFERENCES dossier.dossiers (name),
      kind text NOT NULL,
      key text NOT NULL,
      revision integer NOT NULL CHECK (revision > 0),
      value text NOT NULL,
      PRIMARY KEY (dossier, kind, key)
    )`,
    `CREATE TABLE dossier.events (
      dossier text NOT NULL REFERENCES dossier.dossiers (name),
      log text NOT NULL,
      stream text NOT NULL,
      position integer NOT NULL CHECK (position > 0),
      id text NOT NULL,
      digest text NOT NULL,
      event text NOT NULL,
      PRIMARY KEY (dossier, log, stream, id),
      UNIQUE (dossier, log, stream, position)
    )`,
    `CREATE TABLE dossier.content (
      dossier text NOT NULL REFERENCES dossier.dossiers (name),
      sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      size integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (dossier, sha256),
      CHECK (size = octet_length(bytes))
    )`
  ]
]

/** The stored version: 0 when dossier's schema is not there. */
export const storedVersion = (sql: SqlClient.SqlClient): Effect.Effect<number, SqlError> =>
  Effect.gen(function*() {
    // A scan of the catalog under the statement's snapshot (to_regclass answers from a cache that
    // may not yet see a table another session just created).
    const table = yield* sql<{ present: boolean }>`SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
      JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'dossier' AND c.relname = 'schema_version') AS present`
    if (table[0]?.present !== true) return 0
    const rows = yield* sql<{ version: number }>`SELECT version FROM dossier.schema_version WHERE id = 1`
    return rows[0]?.version ?? 0
  })

/** What one look at the store finds: the schema's version (0: none) and whether the dossier is there. */
export interface StoreLook {
  readonly version: number
  readonly exists: boolean
}

/**
 * The stored version and whether the dossier `dossier` exists, in the round trips `storedVersion`
 * makes (the dossier's row read with the version), so that a bound command's check of its dossier
 * costs no round trip of its own. A schema without `dossier.dossiers` (none, or a newer one that
 * moved it) is read for its version only: the dossier is not there for this binary.
 */
export const lookStore = (sql: SqlClient.SqlClient, dossier: string): Effect.Effect<StoreLook, SqlError> =>
  Effect.gen(function*() {
    const tables = yield* sql<{ present: boolean; dossiers: boolean }>`SELECT
      EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'dossier' AND c.relname = 'schema_version') AS present,
      EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'dossier' AND c.relname = 'dossiers') AS dossiers`
    if (tables[0]?.present !== true) return { version: 0, exists: false }
    if (tables[0]?.dossiers !== true) {
      const rows = yield* sql<{ version: number }>`SELECT version FROM dossier.schema_version WHERE id = 1`
      return { version: rows[0]?.version ?? 0, exists: false }
    }
    const rows = yield* sql<{ version: number; held: boolean }>`SELECT v.version,
      EXISTS (SELECT 1 FROM dossier.dossiers d WHERE d.name = ${dossier}) AS held
      FROM dossier.schema_version v WHERE v.id = 1`
    return { version: rows[0]?.version ?? 0, exists: rows[0]?.held === true }
  })

/** Refuse a schema newer than this binary's. */
const notTooNew = (version: number): Effect.Effect<void, StoreTooNew> =>
  version > SCHEMA_VERSION ? Effect.fail(new StoreTooNew({ schema: version, supported: SCHEMA_VERSION })) : Effect.void

/**
 * Create or migrate dossier's schema to `SCHEMA_VERSION` (one transaction; concurrent callers
 * wait for each other on an advisory lock and the later ones find nothing to do), after `look`
 * when the caller has looked already. Answers the version found before.
 */
export const migrate = (sql: SqlClient.SqlClient, look?: StoreLook): Effect.Effect<number, SqlError | StoreTooNew> =>
  Effect.gen(function*() {
    // A quick look first (or the caller's): an up-to-date schema needs no lock and no write.
    const seen = look === undefined ? yield* storedVersion(sql) : look.version
    yield* notTooNew(seen)
    if (seen === SCHEMA_VERSION) return seen
    return yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
        const before = yield* storedVersion(sql)
        yield* notTooNew(before)
        if (before === 0) {
          yield* sql`CREATE SCHEMA IF NOT EXISTS dossier`
          yield* sql`CREATE TABLE dossier.schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)`
          yield* sql`INSERT INTO dossier.schema_version (id, version) VALUES (1, 0)`
        }
        for (let v = before + 1; v <= SCHEMA_VERSION; v++) {
          for (const statement of MIGRATIONS[v - 1]!) yield* sql.unsafe(statement)
        }
        yield* sql`UPDATE dossier.schema_version SET version = ${SCHEMA_VERSION} WHERE id = 1`
        return before
      })
    )
  })

/** Create the dossier's row when there is none; answers whether it was created now. */
export const ensureDossier = (sql: SqlClient.SqlClient, dossier: string): Effect.Effect<boolean, SqlError> =>
  Effect.map(
    sql<
      { name: string }
    >`INSERT INTO dossier.dossiers (name) VALUES (${dossier}) ON CONFLICT (name) DO NOTHING RETURNING name`,
    (rows) => rows.length === 1
  )

/** Whether the dossier exists in the store. */
export const dossierExists = (sql: SqlClient.SqlClient, dossier: string): Effect.Effect<boolean, SqlError> =>
  Effect.map(
    sql<{ n: number }>`SELECT count(*)::int AS n FROM dossier.dossiers WHERE name = ${dossier}`,
    (rows) => (rows[0]?.n ?? 0) > 0
  )

/** Whether the dossier holds any state (a record, an event or stored bytes). */
export const dossierHasState = (sql: SqlClient.SqlClient, dossier: string): Effect.Effect<boolean, SqlError> =>
  Effect.map(
    sql<{ has: boolean }>`SELECT EXISTS (SELECT 1 FROM dossier.records WHERE dossier = ${dossier})
      OR EXISTS (SELECT 1 FROM dossier.events WHERE dossier = ${dossier})
      OR EXISTS (SELECT 1 FROM dossier.content WHERE dossier = ${dossier}) AS has`,
    (rows) => rows[0]?.has === true
  )
