/**
 * CaptureStore: what ingest keeps — the retained files of each capture (the original bytes, the
 * readable copy, the WARC record: write-once, each named by a path that carries its own SHA-256)
 * and the capture log (one record per retained file per capture: these bytes, at this path, came
 * to dossier this way). The capture logic (src/layers/IngestLive.ts) runs over this port, the
 * `Lock` and, for a fetch, `WarcWriter` (src/layers/folder/WarcWriter.ts: the WARC's bytes).
 *
 * Contract:
 * - `record(files, records)` is one unit. Every file is looked at before anything is written:
 *   a path holding other bytes is `EditedRetainedFile {path, expected, actual}` and nothing is
 *   stored (no file, no record); a log that cannot be appended to refuses the same way. Then each
 *   file is stored unless its path already holds these bytes (`reused: true`; never rewritten),
 *   then `records` are appended to the log in order. Answers one `RetainedContent` per file, in
 *   order. Every file is durable when it answers. SQL: in one transaction, `retained(study, path
 *   PRIMARY KEY, sha256)` over a `ContentStore` (bytes by SHA-256), and the records as rows under
 *   `(study, seq)`.
 * - The capture log is not an `EventLog` (src/services/Store.ts): its records have no stable id,
 *   and a capture made again is recorded again (a new `fetchedAt`), so there is nothing to make
 *   idempotent; it is an append-only list of records. Retained files are a `ContentStore` keyed
 *   by path as well as by digest: the folder's names carry the page's origin.
 * - `records` answers the log in order. In a folder, a record that does not decode (a hand edit,
 *   a torn line) is left out: it only loses a claim, it never makes one. In a shared store no
 *   write is ever torn, so such a record was written behind dossier's back: `CorruptCaptureLog`
 *   naming its position, never a log read (or copied by a pull) as if it were not there. Empty
 *   when there is no log.
 * - Errors are tagged domain errors only (`IoError`, `UnsafePath`, `LimitExceeded`,
 *   `EditedRetainedFile`). The logic calls `record` inside `Lock.withLock`.
 *
 * Adapters: `CaptureStoreFolder` (src/layers/folder/CaptureStoreFolder.ts: files under
 * `research/sources/`, the log in `.dossier/captures.jsonl`, byte for byte) and
 * `CaptureStoreMemory` (src/layers/memory/CaptureStoreMemory.ts: the log in a Ref). Both keep
 * retained files through the `FileStore` they are given: they are files of the work folder that
 * agents read and the plan registers. `CaptureStorePostgres` (src/layers/postgres/) keeps the bytes,
 * which path holds which, and the log in a shared dossier (the local files are a view of it,
 * written elsewhere). `CaptureStoreConformance` (src/testing/) checks an adapter.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type {
  EditedRetainedFile,
  FileNotFound,
  IoError,
  LimitExceeded,
  LockTimeout,
  UnsafePath
} from "../../domain/Errors.js"
import type { CaptureRecord } from "../../domain/IngestContent.js"
import type { CorruptCaptureLog, StoreUnavailable } from "../../domain/StoreErrors.js"
import type { WarcExchange } from "../../domain/Warc.js"
import type { StoredContent } from "../Store.js"

/** A file to retain: where, and its bytes. */
export interface RetainFile {
  readonly path: string
  readonly data: Uint8Array
}

/** A retained file as stored: its digest, and whether its path already held these bytes. */
export interface RetainedContent extends StoredContent {
  readonly path: string
}

/**
 * `StoreUnavailable`, `LockTimeout` and `CorruptCaptureLog`: a shared store
 * (src/layers/postgres/CaptureStorePostgres.ts).
 */
export type CaptureStoreError =
  | IoError
  | UnsafePath
  | LimitExceeded
  | StoreUnavailable
  | LockTimeout
  | CorruptCaptureLog

export interface CaptureStoreShape {
  /** Retain `files` write-once and append `records` to the log, as one unit (see the contract). */
  readonly record: (
    files: ReadonlyArray<RetainFile>,
    records: ReadonlyArray<CaptureRecord>
  ) => Effect.Effect<ReadonlyArray<RetainedContent>, CaptureStoreError | EditedRetainedFile>
  /** Every record of the capture log, in order (see the contract for one that does not decode). */
  readonly records: Effect.Effect<ReadonlyArray<CaptureRecord>, CaptureStoreError>
  /**
   * The bytes of a work-folder file `ingest --file` imports (a normalized relative path; a
   * regular single-link file of at most `maxBytes`, else `LimitExceeded`). Never writes.
   */
  readonly readImport: (path: string, maxBytes: number) => Effect.Effect<Uint8Array, FileNotFound | CaptureStoreError>
}

export class CaptureStore extends Context.Tag("dossier/CaptureStore")<CaptureStore, CaptureStoreShape>() {}

/**
 * WarcWriter (folder-side work beside the port): the bytes of a capture's WARC/1.1 file, each
 * record its own gzip member (src/domain/Warc.ts). `start` begins the work off the main thread
 * and answers an effect that awaits the bytes, so the capture extracts its readable copy
 * meanwhile. Layer: `WarcWriterLive` (src/layers/folder/WarcWriter.ts).
 */
export interface WarcWriterShape {
  readonly start: (exchanges: ReadonlyArray<WarcExchange>) => Effect.Effect<Effect.Effect<Uint8Array>>
}

export class WarcWriter extends Context.Tag("dossier/WarcWriter")<WarcWriter, WarcWriterShape>() {}
