/**
 * `Journal` of the public surface: one study's experiment journal (spec journal.md). `Journal`
 * is the service tag; `JournalLive` needs a FileStore and a Lock (`Files.BaseLive(dir)` or
 * `Files.BaseMemory`); `JournalMemory` brings its own in-memory store and lock.
 *
 * Storage: the journal's logic is `JournalFromStore`, over the `JournalStore` port (its contract
 * is in its doc comment), `JournalArtifacts` and a Lock. `JournalStoreMemory` is the port's memory
 * adapter; the folder's is inside `JournalLive`, with the folder-only `JournalFolder` service.
 */
export {
  Journal,
  type AppendError,
  type ImportError,
  type InspectError,
  type JournalShape,
  type ReadHistoryError,
  type RebuildError,
  type RecoverError
} from "../services/Journal.js"
export { JournalFromStore, JournalLive } from "../layers/JournalLive.js"
export { type LinesError } from "../services/Journal.js"
export { JournalFolder, type JournalFolderShape } from "../services/JournalFolder.js"
export {
  type AppendView,
  type ArtifactDigest,
  JournalArtifacts,
  type JournalArtifactsShape,
  type JournalAppended,
  type JournalEntry,
  JournalStore,
  type JournalStoreError,
  type JournalStoreShape,
  type JournalTail,
  type StoredJournal,
  type VerifyResult
} from "../services/ports/JournalStore.js"
export { JournalStoreMemory } from "../layers/memory/JournalStoreMemory.js"
export { JournalArtifactsFolder } from "../layers/folder/JournalArtifactsFolder.js"
export { JournalMemory } from "../layers/JournalMemory.js"
export {
  ArtifactLinked,
  CandidateCreated,
  CandidateSelected,
  CandidateStatus,
  CheckpointSaved,
  Decision,
  EvaluationRecorded,
  ExecutionLinked,
  JournalEvent,
  JournalEventsInput,
  LegacyImported,
  ManifestV1,
  isStudyId,
  studyPaths,
  type EventType
} from "../domain/Journal.js"
export {
  AppendOutput,
  CandidateView,
  ImportOutput,
  InspectOutput,
  RebuildOutput,
  RecoverOutput,
  type AppendResult,
  type ImportResult,
  type InspectResult,
  type RebuildResult,
  type RecoverResult,
  type StudyRow
} from "../domain/JournalOutput.js"
export {
  ConflictingEvent,
  CorruptJournal,
  DuplicateEventId,
  InvalidManifest,
  JournalErrors,
  UnimportedLegacyManifest,
  UnknownCandidate,
  UnterminatedTail,
  type JournalError
} from "../domain/JournalErrors.js"
