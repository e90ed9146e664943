/**
 * Ingest: capture one URL through `SafeHttp` and retain the original bytes, a readable copy and
 * a WARC/1.1 record of the fetch under `research/sources/` (write-once, each named by its own
 * digest), recording every capture in `.dossier/captures.jsonl`; or import a file of the work
 * folder that the host's own browser saved (`importFile`: the same two retained files, no WARC,
 * recorded `via: "file"`).
 *
 * Layers: `IngestLive` (src/layers/IngestLive.ts), the logic over the CaptureStore port
 * (src/services/ports/CaptureStore.ts), requiring SafeHttp | CaptureStore | WarcWriter | Lock |
 * Workdir; `IngestFolder` (src/layers/folder/IngestFolder.ts) is it over the work folder,
 * requiring SafeHttp | FileStore | Lock | Workdir.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { TargetError } from "../domain/DestinationPolicy.js"
import type {
  EditedRetainedFile,
  FileNotFound,
  InputOutsideWorkdir,
  InputTooLarge,
  InvalidInput,
  IoError,
  LimitExceeded,
  LockTimeout,
  UnsafePath
} from "../domain/Errors.js"
import { type CaptureRecord, CAPTURES_LOG, parseCaptures } from "../domain/IngestContent.js"
import type {
  CredentialsInUrl,
  IngestError,
  InvalidUrl,
  UnsupportedContent,
  UnsupportedScheme
} from "../domain/IngestErrors.js"
import type { CorruptCaptureLog, StoreUnavailable } from "../domain/StoreErrors.js"
import { FileStore, type ReadError } from "./FileStore.js"

/** Options of `Ingest.capture` (the convention: src/domain/Options.ts). */
export interface CaptureOptions {
  /** Deadline in seconds (1–120, default 10). */
  readonly timeoutSeconds?: number | undefined
  /** The capture time to record (default: Effect's Clock). */
  readonly now?: Date | undefined
}

export interface RetainedFile {
  readonly path: string
  readonly bytes: number
  readonly sha256: string
}

/** What every capture answers, fetched or imported. */
interface Retained {
  readonly finalUrl: string
  readonly redirects: ReadonlyArray<string>
  readonly original: RetainedFile & { readonly contentType: string }
  readonly source: RetainedFile & { readonly origin: string }
  readonly fetchedAt: string
  /** The original and the readable copy were already retained with these bytes (kept, not rewritten). */
  readonly reused: boolean
}

export interface CaptureResult extends Retained {
  readonly network: "checked"
  readonly via: "fetch"
  readonly url: string
  /** The WARC/1.1 record of this fetch (every hop); each fetch writes its own. */
  readonly warc: RetainedFile
}

/** Options of `Ingest.importFile`. */
export interface IngestFileOptions {
  /** The media type; default: from the file's extension. */
  readonly contentType?: string | undefined
  /** The capture time to record (default: Effect's Clock). */
  readonly now?: Date | undefined
}

export interface IngestFileResult extends Retained {
  readonly network: "none"
  readonly via: "file"
  /** The origin as given (`finalUrl`: as the URL parser normalizes it). */
  readonly url: string
  /** The imported file, relative to the work folder. */
  readonly file: string
  /** No WARC: nothing was fetched. */
  readonly warc: null
}

export interface DryRunResult {
  readonly network: "not_checked"
  readonly url: string
  readonly host: string
  readonly literal: boolean
}

export type CaptureError =
  | IngestError
  | InvalidInput
  | IoError
  | UnsafePath
  | LimitExceeded
  | EditedRetainedFile
  | LockTimeout
  | StoreUnavailable
  | CorruptCaptureLog

export type IngestFileError =
  | InputOutsideWorkdir
  | InvalidInput
  | UnsupportedContent
  | InputTooLarge
  | UnsafePath
  | InvalidUrl
  | UnsupportedScheme
  | CredentialsInUrl
  | FileNotFound
  | EditedRetainedFile
  | IoError
  | LimitExceeded
  | LockTimeout
  | StoreUnavailable
  | CorruptCaptureLog

export interface IngestShape {
  /** Fetch, extract, retain the original, the readable copy and the WARC, and record the capture. */
  readonly capture: (url: string, options?: CaptureOptions) => Effect.Effect<CaptureResult, CaptureError>
  /**
   * Import a file of the work folder (a regular file, at most 16 MiB, UTF-8, of an accepted type):
   * retain its bytes and a readable copy as a fetch would, and record them `via: "file"`.
   * `path` is relative to the work folder (or absolute inside it); `origin` is where the page came
   * from (an absolute http(s) URL; only recorded).
   */
  readonly importFile: (
    path: string,
    origin: string,
    options?: IngestFileOptions
  ) => Effect.Effect<IngestFileResult, IngestFileError>
  /** Check the URL's syntax and any literal destination; no DNS, no HTTP, no write. */
  readonly dryRun: (url: string) => Effect.Effect<DryRunResult, TargetError>
}

export class Ingest extends Context.Tag("dossier/Ingest")<Ingest, IngestShape>() {}

/**
 * Every capture recorded in `.dossier/captures.jsonl` (empty when there is none): the record
 * that these bytes at this path came from the fetcher. Invalid lines are skipped.
 */
export const readCaptures: Effect.Effect<
  ReadonlyArray<CaptureRecord>,
  Exclude<ReadError, { _tag: "FileNotFound" }>,
  FileStore
> = Effect.flatMap(FileStore, (fs) =>
  fs.stat(CAPTURES_LOG).pipe(
    Effect.flatMap((st) =>
      Option.isNone(st)
        ? Effect.succeed<ReadonlyArray<CaptureRecord>>([])
        : fs.readText(CAPTURES_LOG, { maxBytes: 256 * 1024 * 1024 }).pipe(
          Effect.map(parseCaptures),
          Effect.catchTag("FileNotFound", () => Effect.succeed<ReadonlyArray<CaptureRecord>>([]))
        )
    )
  ))
