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
  AppendOutput,
  ArtifactLinked,
  CandidateCreated,
  CandidateSelected,
  CandidateStatus,
  CandidateView,
  CheckpointSaved,
  Decision,
  EvaluationRecorded,
  ExecutionLinked,
  ImportOutput,
  InspectOutput,
  JournalEvent,
  JournalEventsInput,
  LegacyImported,
  ManifestV1,
  RebuildOutput,
  RecoverOutput,
  isStudyId,
  studyPaths,
  type AppendResult,
  type EventType,
  type ImportResult,
  type InspectResult,
  type RebuildResult,
  type RecoverResult,
  type StudyRow
} from "../domain/Journal.js"
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
