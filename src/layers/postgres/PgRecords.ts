/**
 * The PostgreSQL adapters of the generic storage shapes (src/services/Store.ts), for one dossier.
 * A subsystem's port picks a namespace (`kind` of records, `log` of events) and a Schema for its
 * values; every statement is parameterized, every driver failure is `StoreUnavailable` or
 * `LockTimeout`. Writes are meant to run inside `PgLock.withLock` (one transaction per command);
 * each is also correct on its own:
 *
 * - `pgVersionedRecords`: compare-and-set is `UPDATE … SET revision = revision + 1 WHERE
 *   revision = $expected` (racing writers: the row lock makes the second re-check the revision
 *   and find it changed) and a create is `INSERT … ON CONFLICT DO NOTHING`. A loss is
 *   `StaleRevision {expected, actual}` (`expected` 0 for a create, `actual` 0 when none) and
 *   nothing changes.
 * - `pgEventLog`: a batch is inserted in batch order at the next positions in one statement,
 *   `ON CONFLICT DO NOTHING`; when every row goes in, no id was stored. Otherwise (a retry) the
 *   rows that went in are taken back and the batch is looked up by id
 *   (`UNIQUE(dossier, log, stream, id)`, a lookup planned from the table's statistics): an id
 *   stored with the same digest is `existing`, with another digest the whole batch is the
 *   `conflict` the caller names and nothing is stored; the rest is inserted as before.
 * - `pgContentStore`: bytea by SHA-256, `INSERT … ON CONFLICT DO NOTHING` (written once).
 *
 * Values are stored as the JSON text of their Schema's encoded form (kept exactly as written,
 * not as jsonb); one that does not decode any more is a defect of the store, never answered.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import type { LockTimeout } from "../../domain/Errors.js"
import { StaleRevision } from "../../domain/Errors.js"
import type { StoreUnavailable } from "../../domain/StoreErrors.js"
import type {
  AppendOutcome,
  ContentStore,
  EventLog,
  LoggedEvent,
  StoredContent,
  VersionedRecords
} from "../../services/Store.js"
import type { PgStoreShape } from "./PgStore.js"

/** What the PostgreSQL adapters fail with themselves. */
export type PgStoreError = StoreUnavailable | LockTimeout

const encoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const encode = Schema.encodeSync(schema)
  const decode = Schema.decodeUnknownSync(schema)
  return {
    write: (a: A): string => JSON.stringify(encode(a)),
    read: (text: string): A => decode(JSON.parse(text))
  }
}

/** Records of one `kind` of the store's dossier, keys as strings. */
export const pgVersionedRecords = <A, I>(
  store: PgStoreShape,
  kind: string,
  schema: Schema.Schema<A, I>
): VersionedRecords<string, A, PgStoreError> => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  const codec = encoder(schema)
  const revisionOf = (key: string) =>
    Effect.map(
      sql<
        { revision: number }
      >`SELECT revision FROM dossier.records WHERE dossier = ${dossier} AND kind = ${kind} AND key = ${key}`,
      (rows) => rows[0]?.revision ?? 0
    )
  return {
    get: (key) =>
      mapErrors(
        Effect.map(
          sql<
            { revision: number; value: string }
          >`SELECT revision, value FROM dossier.records WHERE dossier = ${dossier} AND kind = ${kind} AND key = ${key}`,
          (rows) => (rows[0] === undefined
            ? Option.none()
            : Option.some({ revision: rows[0].revision, value: codec.read(rows[0].value) }))
        )
      ),
    put: (key, value, expected) =>
      mapErrors(
        Effect.gen(function*() {
          const text = codec.write(value)
          const rows = expected === null
            ? yield* sql<{ revision: number }>`INSERT INTO dossier.records (dossier, kind, key, revision, value)
                  VALUES (${dossier}, ${kind}, ${key}, 1, ${text})
                  ON CONFLICT (dossier, kind, key) DO NOTHING RETURNING revision`
            : yield* sql<{ revision: number }>`UPDATE dossier.records SET revision = revision + 1, value = ${text}
                  WHERE dossier = ${dossier} AND kind = ${kind} AND key = ${key} AND revision = ${expected}
                  RETURNING revision`
          if (rows[0] !== undefined) return rows[0].revision
          return yield* new StaleRevision({ expected: expected ?? 0, actual: yield* revisionOf(key) })
        })
      ),
    keys: mapErrors(
      Effect.map(
        sql<{ key: string }>`SELECT key FROM dossier.records WHERE dossier = ${dossier} AND kind = ${kind}`,
        (rows) => rows.map((r) => r.key).sort()
      )
    )
  }
}

/** Event streams of one `log` of the store's dossier; `conflict(id)` is the caller's refusal. */
export const pgEventLog = <Ev, I, Conflict>(
  store: PgStoreShape,
  log: string,
  schema: Schema.Schema<Ev, I>,
  conflict: (id: string) => Conflict
): EventLog<string, Ev, PgStoreError, Conflict> => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  const codec = encoder(schema)
  return {
    read: (stream) =>
      mapErrors(
        Effect.map(
          sql<{ id: string; digest: string; event: string }>`SELECT id, digest, event FROM dossier.events
            WHERE dossier = ${dossier} AND log = ${log} AND stream = ${stream} ORDER BY position`,
          (rows): ReadonlyArray<LoggedEvent<Ev>> =>
            rows.map((r) => ({ id: r.id, digest: r.digest, event: codec.read(r.event) }))
        )
      ),
    append: (stream, batch) =>
      mapErrors(
        Effect.gen(function*() {
          // Within the batch: the first of an id counts; the same id again must carry the same digest.
          const first = new Map<string, LoggedEvent<Ev>>()
          for (const e of batch) {
            const seen = first.get(e.id)
            if (seen === undefined) first.set(e.id, e)
            else if (seen.digest !== e.digest) return yield* Effect.fail(conflict(e.id))
          }
          if (first.size === 0) return { appended: [], existing: [] } satisfies AppendOutcome
          const insertAfterLast = (fresh: ReadonlyArray<{ id: string; digest: string; event: string; ord: number }>) =>
            sql<{ position: number }>`INSERT INTO dossier.events (dossier, log, stream, position, id, digest, event)
              SELECT ${dossier}, ${log}, ${stream}, base.last + t.ord, t.id, t.digest, t.event
              FROM json_to_recordset(${
              JSON.stringify(fresh)
            }::json) AS t(id text, digest text, event text, ord integer),
                (SELECT coalesce(max(position), 0) AS last FROM dossier.events
                  WHERE dossier = ${dossier} AND log = ${log} AND stream = ${stream}) AS base
              ORDER BY t.ord
              ON CONFLICT DO NOTHING
              RETURNING position`
          // First as if no id of the batch were stored (the common case): when every row goes in,
          // none was (each id a probe of the primary key, whatever the plan). Otherwise the rows
          // that went in are taken back (this transaction's own) and the ids are looked up.
          const all = [...first.values()].map((e, i) => ({
            id: e.id,
            digest: e.digest,
            event: codec.write(e.event),
            ord: i + 1
          }))
          const inserted = yield* insertAfterLast(all)
          if (inserted.length === all.length) return { appended: all.map((f) => f.id), existing: [] }
          if (inserted.length > 0) {
            yield* sql`DELETE FROM dossier.events WHERE dossier = ${dossier} AND log = ${log} AND stream = ${stream}
              AND position = ANY(${`{${inserted.map((r) => r.position).join(",")}}`}::int[])`
          }
          const ids = JSON.stringify([...first.keys()])
          const stored = yield* sql<{ id: string; digest: string }>`SELECT id, digest FROM dossier.events
            WHERE dossier = ${dossier} AND log = ${log} AND stream = ${stream}
              AND id IN (SELECT json_array_elements_text(${ids}::json))`
          const storedDigest = new Map(stored.map((r) => [r.id, r.digest]))
          const existing: Array<string> = []
          const fresh: Array<{ id: string; digest: string; event: string; ord: number }> = []
          for (const e of first.values()) {
            const d = storedDigest.get(e.id)
            if (d === undefined) {
              fresh.push({ id: e.id, digest: e.digest, event: codec.write(e.event), ord: fresh.length + 1 })
            } else if (d === e.digest) {
              existing.push(e.id)
            } else return yield* Effect.fail(conflict(e.id))
          }
          if (fresh.length > 0) {
            const stored = yield* insertAfterLast(fresh)
            // Under the caller's lock nothing else writes the stream between the two statements.
            if (stored.length < fresh.length) {
              return yield* Effect.dieMessage("an event log's rows were taken meanwhile")
            }
          }
          return {
            appended: fresh.map((f) => f.id),
            existing
          } satisfies AppendOutcome
        })
      ),
    streams: mapErrors(
      Effect.map(
        sql<{ stream: string }>`SELECT DISTINCT stream FROM dossier.events WHERE dossier = ${dossier} AND log = ${log}`,
        (rows) => rows.map((r) => r.stream).sort()
      )
    )
  }
}

/** Bytes of the store's dossier by SHA-256 (lower-case hex). */
export const pgContentStore = (store: PgStoreShape): ContentStore<PgStoreError> => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  return {
    put: (data) =>
      mapErrors(
        Effect.gen(function*() {
          const sha256 = createHash("sha256").update(data).digest("hex")
          const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
          const rows = yield* sql<{ sha256: string }>`INSERT INTO dossier.content (dossier, sha256, size, bytes)
            VALUES (${dossier}, ${sha256}, ${data.byteLength}, ${bytes})
            ON CONFLICT (dossier, sha256) DO NOTHING RETURNING sha256`
          return { sha256, bytes: data.byteLength, reused: rows.length === 0 } satisfies StoredContent
        })
      ),
    get: (sha256) =>
      mapErrors(
        Effect.map(
          sql<{ bytes: Buffer }>`SELECT bytes FROM dossier.content WHERE dossier = ${dossier} AND sha256 = ${sha256}`,
          (rows) => rows[0] === undefined ? Option.none() : Option.some(new Uint8Array(rows[0].bytes))
        )
      ),
    has: (sha256) =>
      mapErrors(
        Effect.map(
          sql<
            { n: number }
          >`SELECT count(*)::int AS n FROM dossier.content WHERE dossier = ${dossier} AND sha256 = ${sha256}`,
          (rows) => (rows[0]?.n ?? 0) > 0
        )
      )
  }
}
