/**
 * Journal: one study's experiment journal, `research/<study>/research-events.jsonl`, the only
 * decision history of the study. Everything else about a study (inspect state, manifest.json,
 * index.json) is a projection of it.
 *
 * Its logic is written once over the JournalStore port (src/services/ports/JournalStore.ts).
 * Layers (src/layers/JournalLive.ts): `JournalFromStore`, over any JournalStore (with
 * JournalArtifacts and Lock), and `JournalLive`, the work folder's, requiring FileStore | Lock
 * (no Workdir). `rebuild`, `recoverTail` and `importLegacy` are folder work: the Journal answers
 * them through the JournalFolder service (src/services/JournalFolder.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type {
  AliasedFile,
  EditedRetainedFile,
  FileNotFound,
  InvalidInput,
  IoError,
  LimitExceeded,
  LockTimeout,
  UnsafePath
} from "../domain/Errors.js"
import type { AppendInput } from "../domain/Journal.js"
import type {
  ConflictingEvent,
  CorruptJournal,
  DuplicateEventId,
  InvalidManifest,
  StudyNotFound,
  UnimportedLegacyManifest,
  UnknownCandidate,
  UnterminatedTail
} from "../domain/JournalErrors.js"
import type {
  AppendResult,
  ImportResult,
  InspectResult,
  RebuildResult,
  RecoverResult,
  StudyRow
} from "../domain/JournalOutput.js"
import type { DigestMismatch } from "../domain/MonitorErrors.js"
import type { StoreUnavailable } from "../domain/StoreErrors.js"

/** What a shared store adds to every call (src/services/ports/JournalStore.ts): both retryable. */
export type JournalStoreFailure = StoreUnavailable | LockTimeout

/** Errors of reading a study's committed history. */
export type ReadHistoryError =
  | InvalidInput
  | CorruptJournal
  | AliasedFile
  | IoError
  | UnsafePath
  | LimitExceeded
  | JournalStoreFailure

export type AppendError =
  | ReadHistoryError
  | FileNotFound
  | DigestMismatch
  | DuplicateEventId
  | UnknownCandidate
  | ConflictingEvent
  | UnterminatedTail
  | LockTimeout
  | StoreUnavailable

export type InspectError = ReadHistoryError | StudyNotFound

export type RebuildError =
  | ReadHistoryError
  | StudyNotFound
  | UnimportedLegacyManifest
  | LockTimeout
  | StoreUnavailable

export type RecoverError =
  | InvalidInput
  | StudyNotFound
  | AliasedFile
  | IoError
  | UnsafePath
  | LimitExceeded
  | EditedRetainedFile
  | LockTimeout
  | StoreUnavailable

/** Errors of reading a study's journal in its exchange form. */
export type LinesError =
  | InvalidInput
  | StudyNotFound
  | AliasedFile
  | IoError
  | UnsafePath
  | LimitExceeded
  | JournalStoreFailure

export type ImportError =
  | AppendError
  | InvalidManifest
  | FileNotFound
  | EditedRetainedFile

/** Options of `Journal.inspect` (the convention: src/domain/Options.ts). */
export interface JournalInspectOptions {
  /** Re-hash every linked artifact (and check every linked execution record). */
  readonly verify?: boolean | undefined
}

export interface JournalShape {
  /**
   * One row per folder under `research/` (excluding inputs/sources/results/gate and names that
   * are not study ids) that holds a `research-events.jsonl`, sorted by study id. A damaged or
   * aliased journal is a row (`tail: "corrupt"`), never a failure.
   */
  readonly studies: Effect.Effect<ReadonlyArray<StudyRow>, IoError | UnsafePath | JournalStoreFailure>
  /**
   * Append one event or an ordered batch, in their encoded (JSON) form. The input is still
   * validated here as a whole before any write (`InvalidInput` names the field), for callers
   * whose values did not come through the types.
   */
  readonly append: (study: string, input: AppendInput) => Effect.Effect<AppendResult, AppendError>
  /** The projection of the committed history; `verify` re-hashes every linked artifact. */
  readonly inspect: (study: string, options?: JournalInspectOptions) => Effect.Effect<InspectResult, InspectError>
  /**
   * The study's journal in its exchange form (the JSON lines of journal.md, a torn tail included),
   * at most `maxBytes` (`LimitExceeded` beyond): what the MCP resource `dossier://journal/<study>` reads.
   */
  readonly lines: (study: string, maxBytes: number) => Effect.Effect<Uint8Array, LinesError>
  /** Publish manifest.json (v1) and index.json atomically from the committed history. */
  readonly rebuild: (study: string) => Effect.Effect<RebuildResult, RebuildError>
  /** Preserve an unterminated tail write-once, then truncate the journal to its last `\n`. */
  readonly recoverTail: (study: string) => Effect.Effect<RecoverResult, RecoverError>
  /** Import a legacy manifest.json: snapshot its bytes and append one `legacy_imported` event. */
  readonly importLegacy: (study: string) => Effect.Effect<ImportResult, ImportError>
}

export class Journal extends Context.Tag("dossier/Journal")<Journal, JournalShape>() {}
