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
  ArtifactLinked,
  CandidateCreated,
  CandidateSelected,
  CandidateStatus,
  CheckpointSaved,
  Decision,
  EvaluationRecorded,
  type EventType,
  ExecutionLinked,
  isStudyId,
  JournalEvent,
  JournalEventsInput,
  LegacyImported,
  ManifestV1,
  studyPaths
} from "../domain/Journal.js"
export {
  ConflictingEvent,
  CorruptJournal,
  DuplicateEventId,
  InvalidManifest,
  type JournalError,
  JournalErrors,
  UnimportedLegacyManifest,
  UnknownCandidate,
  UnterminatedTail
} from "../domain/JournalErrors.js"
export {
  AppendOutput,
  type AppendResult,
  CandidateView,
  ImportOutput,
  type ImportResult,
  InspectOutput,
  type InspectResult,
  RebuildOutput,
  type RebuildResult,
  RecoverOutput,
  type RecoverResult,
  type StudyRow
} from "../domain/JournalOutput.js"
export { JournalArtifactsFolder } from "../layers/folder/JournalArtifactsFolder.js"
export { JournalFromStore, JournalLive } from "../layers/JournalLive.js"
export { JournalMemory } from "../layers/JournalMemory.js"
export { JournalStoreMemory } from "../layers/memory/JournalStoreMemory.js"
export {
  type AppendError,
  type ImportError,
  type InspectError,
  Journal,
  type JournalShape,
  type ReadHistoryError,
  type RebuildError,
  type RecoverError
} from "../services/Journal.js"
export { type LinesError } from "../services/Journal.js"
export { JournalFolder, type JournalFolderShape } from "../services/JournalFolder.js"
export {
  type AppendView,
  type ArtifactDigest,
  type JournalAppended,
  JournalArtifacts,
  type JournalArtifactsShape,
  type JournalEntry,
  JournalStore,
  type JournalStoreError,
  type JournalStoreShape,
  type JournalTail,
  type StoredJournal,
  type VerifyResult
} from "../services/ports/JournalStore.js"
