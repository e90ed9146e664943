/**
 * CaptureStore in a shared dossier (PostgreSQL, docs/store.md): the store holds every retained
 * file's bytes and the capture log; the work folder's `research/sources/` is a view of them that
 * the view's refresh writes, never this adapter.
 *
 * - Bytes: the dossier's `pgContentStore` (`dossier.content`, by SHA-256, written once).
 * - Which bytes a retained path holds: a `pgVersionedRecords` row of kind `"retained"`, key = the
 *   path, value `{sha256, bytes}`, created once and never updated. A path that already holds
 *   other bytes is `EditedRetainedFile {path, expected: the new bytes' digest, actual: the
 *   stored one}` and the capture stores nothing; the same bytes again are `reused: true`. A row
 *   that does not decode is `CorruptCaptureLog {path}` (written behind dossier's back), from a
 *   capture of that path and from `records`, which checks every such row with the log.
 * - This host's view of a retained path holding other bytes (a file of `research/sources/`
 *   edited by hand) refuses the capture the same way (`actual`: the local file's digest), as a
 *   folder's capture over an edited file is refused: the capture's refresh of the view would
 *   never overwrite it, and answering `reused` would leave the edit unsaid (spec store.md: a
 *   local file that differs is reported as today). Looked at path by path after the store's
 *   row, before anything is written.
 * - The capture log: the `pgEventLog` of log `"captures"`, stream `""`, read in position order.
 *   Its records have no stable id, so each one's id is its position (`"1"`, `"2"`, …: the next
 *   positions after the log's last, under the dossier's lock), and its digest the SHA-256 of its
 *   line as `.dossier/captures.jsonl` would hold it (`captureLine`). A record that no longer
 *   decodes is `CorruptCaptureLog {line: its position, reason, dossier}`: no write of the store
 *   is ever torn, so it was written behind dossier's back, and reading (or pulling) the log as
 *   if it were not there would drop a capture in silence.
 * - `record(files, records)` runs as one transaction (inside the command's `Lock.withLock`, a
 *   savepoint of it): every path is looked up before anything is written, then the bytes, the
 *   path rows and the records, all or nothing. Ids by position rely on the dossier's lock: the
 *   logic calls `record` inside `Lock.withLock` (PgLock: the dossier's advisory lock).
 * - `readImport` reads the work folder's file through the FileStore it is given (as the folder
 *   adapter does): what `ingest --file` imports is on this host.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"
import { EditedRetainedFile } from "../../domain/Errors.js"
import { captureLine, CaptureRecord } from "../../domain/IngestContent.js"
import { CorruptCaptureLog } from "../../domain/StoreErrors.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import { CaptureStore, type CaptureStoreShape, type RetainedContent } from "../../services/ports/CaptureStore.js"
import { pgContentStore, pgEventLog, type PgStoreError, pgVersionedRecords } from "./PgRecords.js"
import { PgStore, type PgStoreShape } from "./PgStore.js"

/** The `kind` of a retained path's row in `dossier.records`. */
export const RETAINED_KIND = "retained"
/** The `log` (stream `""`) of the capture log in `dossier.events`. */
export const CAPTURES_EVENT_LOG = "captures"
const STREAM = ""

/** Which bytes a retained path holds. */
export const RetainedPath = Schema.Struct({ sha256: Schema.String, bytes: Schema.Number })
export type RetainedPath = typeof RetainedPath.Type

const encodeRecord = Schema.encodeSync(CaptureRecord)
const decodeRecord = Schema.decodeUnknownEither(CaptureRecord, { onExcessProperty: "ignore" })

const sha256Of = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex")

/** Another id's content at a position this writer computed: only a writer outside the lock. */
class PositionTaken {
  readonly _tag = "PositionTaken"
  constructor(readonly id: string) {}
}

/** A row of the capture log as a record, or `CorruptCaptureLog` naming its position. */
const decodeRowOf =
  (dossier: string) => (line: number, text: string): Effect.Effect<CaptureRecord, CorruptCaptureLog> => {
    const corrupt = (reason: string) => Effect.fail(new CorruptCaptureLog({ line, reason, dossier }))
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return corrupt("not JSON")
    }
    return Either.match(decodeRecord(value), {
      onLeft: (error) =>
        corrupt(`not a capture record: ${ParseResult.TreeFormatter.formatErrorSync(error).split("\n")[0]}`),
      onRight: Effect.succeed
    })
  }

const decodeRetainedJson = Schema.decodeUnknownEither(Schema.parseJson(RetainedPath))

/** Which bytes `path` retains in the dossier (None: nothing), or `CorruptCaptureLog` naming it. */
const retainedOf = (
  store: PgStoreShape,
  path: string
): Effect.Effect<Option.Option<RetainedPath>, PgStoreError | CorruptCaptureLog> =>
  Effect.flatMap(
    store.mapErrors(store.sql<{ value: string }>`SELECT value FROM dossier.records
      WHERE dossier = ${store.config.dossier} AND kind = ${RETAINED_KIND} AND key = ${path}`),
    (rows) =>
      rows.length === 0
        ? Effect.succeedNone
        : Effect.map(decodeRetained(store.config.dossier, path, rows[0]!.value), Option.some)
  )

const decodeRetained = (dossier: string, path: string, text: string): Effect.Effect<RetainedPath, CorruptCaptureLog> =>
  Either.match(decodeRetainedJson(text), {
    onLeft: () =>
      Effect.fail(
        new CorruptCaptureLog({ path, reason: "not a record of a retained file's digest and size", dossier })
      ),
    onRight: Effect.succeed
  })

export const makeCaptureStorePostgres = (store: PgStoreShape, files: FileStoreShape): CaptureStoreShape => {
  const { sql, config, mapErrors } = store
  const retained = pgVersionedRecords(store, RETAINED_KIND, RetainedPath)
  const content = pgContentStore(store)
  const log = pgEventLog(store, CAPTURES_EVENT_LOG, Schema.Unknown, (id) => new PositionTaken(id))
  const decodeRow = decodeRowOf(config.dossier)

  const lastPosition = mapErrors(
    Effect.map(
      sql<{ last: number }>`SELECT coalesce(max(position), 0)::int AS last FROM dossier.events
        WHERE dossier = ${config.dossier} AND log = ${CAPTURES_EVENT_LOG} AND stream = ${STREAM}`,
      (rows) => rows[0]?.last ?? 0
    )
  )

  /** The digest of this host's file at `path` (None: no file there). */
  const localDigest = (path: string) =>
    files.hash(path).pipe(
      Effect.map((d) => Option.some(d.sha256)),
      Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>()))
    )

  const record: CaptureStoreShape["record"] = (batch, records) =>
    mapErrors(sql.withTransaction(Effect.gen(function*() {
      // Look at every path before anything is written.
      const planned: Array<RetainedContent & { readonly data: Uint8Array; readonly fresh: boolean }> = []
      const inBatch = new Map<string, string>()
      for (const f of batch) {
        const sha256 = sha256Of(f.data)
        const held = inBatch.get(f.path) ??
          Option.getOrUndefined(Option.map(yield* retainedOf(store, f.path), (r) => r.sha256))
        if (held !== undefined && held !== sha256) {
          return yield* new EditedRetainedFile({ path: f.path, expected: sha256, actual: held })
        }
        // This host's view of the path, edited by hand: refused as a folder refuses it.
        const local = yield* localDigest(f.path)
        if (Option.isSome(local) && local.value !== sha256) {
          return yield* new EditedRetainedFile({ path: f.path, expected: sha256, actual: local.value })
        }
        planned.push({
          path: f.path,
          sha256,
          bytes: f.data.byteLength,
          reused: held !== undefined,
          data: f.data,
          fresh: held === undefined
        })
        inBatch.set(f.path, sha256)
      }
      for (const p of planned) {
        if (!p.fresh) continue
        yield* content.put(p.data)
        yield* retained.put(p.path, { sha256: p.sha256, bytes: p.bytes }, null)
      }
      if (records.length > 0) {
        const last = yield* lastPosition
        yield* log.append(
          STREAM,
          records.map((r, i) => ({
            id: String(last + i + 1),
            digest: sha256Of(captureLine(r)),
            event: encodeRecord(r)
          }))
        )
      }
      return planned.map(({ bytes, path, reused, sha256 }): RetainedContent => ({ path, sha256, bytes, reused }))
    }))).pipe(
      // A path row or a position taken meanwhile: only a writer outside the dossier's lock.
      Effect.catchTags({
        StaleRevision: (e) => Effect.dieMessage(`CaptureStore.record outside the dossier's lock: ${e.message}`),
        PositionTaken: (e) =>
          Effect.dieMessage(`CaptureStore.record outside the dossier's lock: position ${e.id} taken`)
      })
    )

  return {
    record,
    records: Effect.flatMap(
      mapErrors(sql<{ position: number; event: string }>`SELECT position, event FROM dossier.events
        WHERE dossier = ${config.dossier} AND log = ${CAPTURES_EVENT_LOG} AND stream = ${STREAM}
        ORDER BY position`),
      (rows) => Effect.forEach(rows, (row) => decodeRow(row.position, row.event))
    ).pipe(
      // The records of which bytes each path retains are read with the log: one that does not
      // decode would otherwise fail the copy of its file later, or a capture of its path.
      Effect.zipLeft(Effect.flatMap(
        mapErrors(sql<{ key: string; value: string }>`SELECT key, value FROM dossier.records
          WHERE dossier = ${config.dossier} AND kind = ${RETAINED_KIND}`),
        (rows) => Effect.forEach(rows, (row) => decodeRetained(config.dossier, row.key, row.value), { discard: true })
      ))
    ),
    readImport: (path, maxBytes) => files.read(path, { maxBytes })
  }
}

/**
 * The paths the dossier retains, each with its digest and size, sorted (for a pull or an export).
 * A row that does not decode is `CorruptCaptureLog {path, dossier}`, as from `records`.
 */
export const retainedPaths = (
  store: PgStoreShape
): Effect.Effect<ReadonlyArray<RetainedPath & { readonly path: string }>, PgStoreError | CorruptCaptureLog> => {
  const { sql, config, mapErrors } = store
  return Effect.flatMap(
    mapErrors(sql<{ key: string; value: string }>`SELECT key, value FROM dossier.records
      WHERE dossier = ${config.dossier} AND kind = ${RETAINED_KIND} ORDER BY key COLLATE "C"`),
    (rows) =>
      Effect.forEach(
        rows,
        (r) => Effect.map(decodeRetained(config.dossier, r.key, r.value), (v) => ({ path: r.key, ...v }))
      )
  )
}

/** The bytes a retained path holds in the dossier; None when it retains nothing there. */
export const retainedBytes = (
  store: PgStoreShape,
  path: string
): Effect.Effect<Option.Option<Uint8Array>, PgStoreError | CorruptCaptureLog> => {
  const content = pgContentStore(store)
  return Effect.flatMap(
    retainedOf(store, path),
    Option.match({ onNone: () => Effect.succeed(Option.none()), onSome: (r) => content.get(r.sha256) })
  )
}

/** CaptureStore of the dossier of the context's `PgStore`, reading imports through the FileStore. */
export const CaptureStorePostgres: Layer.Layer<CaptureStore, never, PgStore | FileStore> = Layer.effect(
  CaptureStore,
  Effect.zipWith(PgStore, FileStore, makeCaptureStorePostgres)
)
