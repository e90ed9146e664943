/**
 * `Journal` of the public surface: one study's experiment journal (spec journal.md). `Journal`
 * is the service tag; `JournalLive` needs a FileStore and a Lock (`Files.BaseLive(dir)` or
 * `Files.BaseMemory`); `JournalMemory` brings its own in-memory store and lock.
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
export { JournalLive } from "../layers/JournalLive.js"
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
