/**
 * Ingest: capture one URL through `SafeHttp` and retain the original bytes and a readable copy
 * under `research/sources/` (write-once, each named by its own digest), recording every capture
 * in `.dossier/captures.jsonl`.
 *
 * Layer: `IngestLive` (src/layers/IngestLive.ts), requiring SafeHttp | FileStore | Lock.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { TargetError } from "../domain/DestinationPolicy.js"
import type { EditedRetainedFile, InvalidInput, IoError, LimitExceeded, LockTimeout, UnsafePath } from "../domain/Errors.js"
import { CAPTURES_LOG, type CaptureRecord, parseCaptures } from "../domain/IngestContent.js"
import type { IngestError } from "../domain/IngestErrors.js"
import { FileStore, type ReadError } from "./FileStore.js"

export interface CaptureOptions {
  /** Deadline in seconds (1–120, default 10). */
  readonly timeoutSeconds?: number
  /** The capture time to record (default: the clock). */
  readonly now?: Date
}

export interface CaptureResult {
  readonly network: "checked"
  readonly url: string
  readonly finalUrl: string
  readonly redirects: ReadonlyArray<string>
  readonly original: { readonly path: string; readonly bytes: number; readonly sha256: string; readonly contentType: string }
  readonly source: { readonly path: string; readonly bytes: number; readonly sha256: string; readonly origin: string }
  readonly fetchedAt: string
  readonly reused: boolean
}

export interface DryRunResult {
  readonly network: "not_checked"
  readonly url: string
  readonly host: string
  readonly literal: boolean
}

export type CaptureError = IngestError | InvalidInput | IoError | UnsafePath | LimitExceeded | EditedRetainedFile | LockTimeout

export interface IngestShape {
  /** Fetch, extract, retain both files and record the capture. */
  readonly capture: (url: string, options?: CaptureOptions) => Effect.Effect<CaptureResult, CaptureError>
  /** Check the URL's syntax and any literal destination; no DNS, no HTTP, no write. */
  readonly dryRun: (url: string) => Effect.Effect<DryRunResult, TargetError>
}

export class Ingest extends Context.Tag("dossier/Ingest")<Ingest, IngestShape>() {}

/**
 * Every capture recorded in `.dossier/captures.jsonl` (empty when there is none): the record
 * that these bytes at this path came from the fetcher. Invalid lines are skipped.
 */
export const readCaptures: Effect.Effect<ReadonlyArray<CaptureRecord>, Exclude<ReadError, { _tag: "FileNotFound" }>, FileStore> =
  Effect.flatMap(FileStore, (fs) =>
    fs.stat(CAPTURES_LOG).pipe(
      Effect.flatMap((st) =>
        Option.isNone(st)
          ? Effect.succeed<ReadonlyArray<CaptureRecord>>([])
          : fs.readText(CAPTURES_LOG, { maxBytes: 256 * 1024 * 1024 }).pipe(
              Effect.map(parseCaptures),
              Effect.catchTag("FileNotFound", () => Effect.succeed<ReadonlyArray<CaptureRecord>>([]))
            )
      )
    )
  )
