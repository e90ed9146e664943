/**
 * ExecutionStore in a shared dossier (PostgreSQL): the `ExecutionStore` port
 * (src/services/ports/ExecutionStore.ts) over the generic tables of ./PgSchema.ts, no migration.
 *
 * - An execution record is a `dossier.records` row of kind `execution`, key = the execution id,
 *   value the JSON text of the sealed record, created once (`INSERT … ON CONFLICT DO NOTHING`,
 *   through `pgVersionedRecords`). The same record again stores nothing; another one there is
 *   `EditedRetainedFile {path: the record's folder path, expected, actual}` (the digests of the
 *   two records as the folder would write them) and nothing changes. A row that does not decode
 *   or names another id is `ExecutionDigestMismatch`.
 * - A log's bytes are in `dossier.content` (by SHA-256, written once); which bytes a log path
 *   holds is a row of kind `execution-log`, key = the path (`executionPaths(id).stdout` /
 *   `.stderr`), value `{sha256, bytes}`, created once. Bytes and row are written in one
 *   transaction (a savepoint of the command's); a path holding other bytes is
 *   `EditedRetainedFile` and nothing is stored, the same bytes again are `reused`.
 * - An in-flight marker is a row of kind `execution-marker@<host>`, key = the execution id, value
 *   the marker's JSON text: written by `admit`, deleted by `finish`, listed by `markers` only on
 *   the host that wrote it (those that decode and name their own key, in id order). A marker
 *   names its run's process by pid and start time, which mean something on its own host only:
 *   another host would find that process gone and record a run still under way as `lost`. So a
 *   run in flight is its host's — reaped there once its exec is gone — and is charged to its
 *   grant by that host until its record, shared, is written. `<host>` is `hostKey()`: a digest
 *   of the machine's id (`/etc/machine-id`, else the host name), never the id itself.
 * - There is no disk to fill and nothing is ever half written (every write is a statement or a
 *   transaction): `admit` reserves no room, `release` and `recover` do nothing.
 *
 * The exec logic (ExecLive, ExecRecords) checks each record's receipt digest and signature on
 * every load, on the host that runs the command: a record signed with another host's key reads
 * as `unverifiable` there, never `signed`. Every statement is parameterized; every driver
 * failure is `StoreUnavailable` or `LockTimeout`.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as os from "node:os"
import { isDeepStrictEqual } from "node:util"
import { sha256Hex } from "../../domain/Canonical.js"
import { decodeWith, parseJson } from "../../domain/Decode.js"
import { EditedRetainedFile, FileNotFound } from "../../domain/Errors.js"
import { ExecutionDigestMismatch } from "../../domain/ExecErrors.js"
import {
  EXECUTION_ID,
  executionPaths,
  type ExecutionRecord,
  ExecutionRecord as ExecutionRecordSchema,
  RunningMarker
} from "../../domain/Execution.js"
import { ExecutionStore, type ExecutionStoreShape } from "../../services/ports/ExecutionStore.js"
import type { StoredContent } from "../../services/Store.js"
import { recordText } from "../folder/ExecutionStoreFolder.js"
import { pgContentStore, type PgStoreError, pgVersionedRecords } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `kind`s of the execution store's rows in `dossier.records`. */
export const EXECUTION_KIND = "execution"
export const EXECUTION_LOG_KIND = "execution-log"
export const EXECUTION_MARKER_KIND = "execution-marker"

/**
 * This machine's key for its in-flight markers: the first 16 hex digits of a SHA-256 over an
 * application prefix and `/etc/machine-id` (stable across reboots, so a run in flight when the
 * machine stopped is reaped when it is back), else the host name.
 */
export const hostKey = (): string => {
  let id: string
  try {
    id = fs.readFileSync("/etc/machine-id", "utf8").trim()
  } catch {
    id = ""
  }
  return sha256Hex(`dossier in-flight runs\n${id === "" ? `hostname:${os.hostname()}` : id}`).slice(0, 16)
}

/** The `kind` of the in-flight markers of the host `host` in `dossier.records`. */
export const markerKind = (host: string) => `${EXECUTION_MARKER_KIND}@${host}`

export interface ExecutionStorePostgresOptions {
  /** Whose in-flight markers `admit`, `markers` and `finish` see (default `hostKey()`). */
  readonly host?: string | undefined
}

/** Which bytes a log path holds. */
export const LogRow = Schema.Struct({ sha256: Schema.String, bytes: Schema.Number })

const encodeRecord = Schema.encodeSync(ExecutionRecordSchema)
const decodeRecord = decodeWith(ExecutionRecordSchema)
const encodeMarker = Schema.encodeSync(RunningMarker)
const decodeMarker = decodeWith(RunningMarker)

/** A stored record's text as the record under `id`, or Left when it does not decode or names another id. */
const parseRecord = (id: string, text: string): Either.Either<ExecutionRecord, ExecutionDigestMismatch> =>
  Either.flatMap(
    Either.mapLeft(
      Either.flatMap(parseJson(text), decodeRecord),
      () => new ExecutionDigestMismatch({ executionId: id })
    ),
    (r) => (r.id === id ? Either.right(r) : Either.left(new ExecutionDigestMismatch({ executionId: id })))
  )

/** The digest of a record as the folder writes it (so every adapter names a refused record alike). */
const folderDigest = (r: ExecutionRecord) => sha256Hex(recordText(r))

export const makeExecutionStorePostgres = (
  store: PgStoreShape,
  options: ExecutionStorePostgresOptions = {}
): ExecutionStoreShape<PgStoreError> => {
  const { sql, config, mapErrors } = store
  const dossier = config.dossier
  const markersHere = markerKind(options.host ?? hostKey())
  const records = pgVersionedRecords(store, EXECUTION_KIND, Schema.Unknown)
  const logs = pgVersionedRecords(store, EXECUTION_LOG_KIND, LogRow)
  const content = pgContentStore(store)

  const textOf = (id: string) =>
    mapErrors(
      Effect.map(
        sql<{ value: string }>`SELECT value FROM dossier.records
          WHERE dossier = ${dossier} AND kind = ${EXECUTION_KIND} AND key = ${id}`,
        (rows) => Option.fromNullable(rows[0]?.value)
      )
    )

  /** Keep a log's bytes and its path's row, in one transaction; `retried`: after losing a race for the path. */
  const putLog = (
    path: string,
    bytes: Uint8Array,
    retried = false
  ): Effect.Effect<StoredContent, PgStoreError | EditedRetainedFile> => {
    const sha256 = sha256Hex(bytes)
    const kept = (reused: boolean): StoredContent => ({ sha256, bytes: bytes.byteLength, reused })
    return mapErrors(sql.withTransaction(Effect.gen(function*() {
      const there = yield* logs.get(path)
      if (Option.isSome(there)) {
        return there.value.value.sha256 === sha256
          ? kept(true)
          : yield* new EditedRetainedFile({ path, expected: sha256, actual: there.value.value.sha256 })
      }
      yield* content.put(bytes)
      yield* logs.put(path, { sha256, bytes: bytes.byteLength }, null)
      return kept(false)
    }))).pipe(
      // Another writer kept this path meanwhile (outside the dossier's lock): compare with theirs.
      Effect.catchTag(
        "StaleRevision",
        (e) => retried ? Effect.dieMessage(`ExecutionStore.putLog: ${e.message}`) : putLog(path, bytes, true)
      )
    )
  }

  return {
    get: (id) =>
      Effect.flatMap(
        textOf(id),
        Option.match({
          onNone: () => Effect.succeed(Option.none()),
          onSome: (text) =>
            Either.match(parseRecord(id, text), { onLeft: Effect.fail, onRight: (r) => Effect.succeed(Option.some(r)) })
        })
      ),
    has: (id) => Effect.map(textOf(id), Option.isSome),
    ids: records.keys,
    put: (record) =>
      records.put(record.id, encodeRecord(record), null).pipe(
        Effect.asVoid,
        Effect.catchTag("StaleRevision", () =>
          Effect.flatMap(textOf(record.id), (there) => {
            const text = Option.getOrElse(there, () => "")
            const stored = Either.getRight(parseRecord(record.id, text))
            const given = Either.getRight(parseRecord(record.id, JSON.stringify(encodeRecord(record))))
            if (Option.isSome(stored) && Option.isSome(given) && isDeepStrictEqual(stored.value, given.value)) {
              return Effect.void
            }
            return Effect.fail(
              new EditedRetainedFile({
                path: executionPaths(record.id).record,
                expected: folderDigest(record),
                actual: Option.match(stored, { onNone: () => sha256Hex(text), onSome: folderDigest })
              })
            )
          }))
      ),
    putLog: (path, bytes) => putLog(path, bytes),
    logDigest: (path) =>
      Effect.flatMap(
        logs.get(path),
        Option.match({
          onNone: () => Effect.fail(new FileNotFound({ path })),
          onSome: (r) => Effect.succeed({ sha256: r.value.sha256, bytes: r.value.bytes })
        })
      ),
    readLog: (path) =>
      Effect.flatMap(
        logs.get(path),
        Option.match({
          onNone: () => Effect.succeed(Option.none<Uint8Array>()),
          onSome: (r) => content.get(r.value.sha256)
        })
      ),
    markers: mapErrors(
      Effect.map(
        sql<{ key: string; value: string }>`SELECT key, value FROM dossier.records
          WHERE dossier = ${dossier} AND kind = ${markersHere}`,
        (rows) =>
          [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).flatMap((r) => {
            const m = Either.flatMap(parseJson(r.value), decodeMarker)
            return Either.isRight(m) && m.right.id === r.key && EXECUTION_ID.test(r.key) ? [m.right] : []
          })
      )
    ),
    admit: (marker) => {
      const text = JSON.stringify(encodeMarker(marker))
      return mapErrors(Effect.asVoid(
        sql`INSERT INTO dossier.records (dossier, kind, key, revision, value)
          VALUES (${dossier}, ${markersHere}, ${marker.id}, 1, ${text})
          ON CONFLICT (dossier, kind, key) DO UPDATE SET value = EXCLUDED.value, revision = dossier.records.revision + 1`
      ))
    },
    release: () => Effect.void,
    finish: (id) =>
      mapErrors(Effect.asVoid(
        sql`DELETE FROM dossier.records WHERE dossier = ${dossier} AND kind = ${markersHere} AND key = ${id}`
      )),
    recover: Effect.void
  }
}

/** ExecutionStore of the shared dossier of the `PgStore` in context. */
export const ExecutionStorePostgres: Layer.Layer<ExecutionStore, never, PgStore> = Layer.effect(
  ExecutionStore,
  Effect.map(PgStore, makeExecutionStorePostgres)
)
