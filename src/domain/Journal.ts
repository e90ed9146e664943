/**
 * The experiment journal's study ids and event language, as Schemas (spec: journal.md): the
 * events, the `journal append` input and the legacy manifest v1. The rules over them (decoding
 * with issue paths, the replay check, the manifest validator) are in ./JournalRules.ts, the
 * command results in ./JournalOutput.ts.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { FreeJsonObject } from "./Decode.js"
import { type InvalidInput, LimitExceeded } from "./Errors.js"
import { EVENT_ID, EVENT_ID_RULE, idProblem, isStudyId } from "./Ids.js"
import { isRealInstant } from "./Instant.js"
import { checkIdOf } from "./Options.js"
import { normalizeRelative } from "./Paths.js"

// ---------------------------------------------------------------------------------------------
// Study ids

export { isStudyId, RESERVED_STUDY_IDS, STUDY_ID } from "./Ids.js"

/** A study id argument, or `InvalidInput` at `study` (the rule and its reason: ./Ids.ts). */
export const checkStudyId = (study: unknown): Either.Either<string, InvalidInput> => checkIdOf("study", study, "study")

/** Paths of a study's files, relative to the work folder. */
export const studyPaths = (study: string) => {
  const dir = `research/${study}`
  return {
    dir,
    journal: `${dir}/research-events.jsonl`,
    manifest: `${dir}/manifest.json`,
    index: `${dir}/index.json`,
    recovered: (sha256: string) => `${dir}/recovered/tail-${sha256}.bin`,
    legacy: (sha256: string) => `${dir}/legacy/manifest-${sha256}.json`,
    /** Private record of the manifest projections this program published (not derived state). */
    projections: `.dossier/journal/${study}.projections.json`
  }
}

/**
 * A study's journal of `actual` bytes, over the `max` a reader asked for: refused as the folder's
 * FileStore refuses the file, so every journal store's refusal carries the same fields.
 */
export const journalTooLarge = (study: string, max: number, actual: number): LimitExceeded =>
  new LimitExceeded({ limit: "fileBytes", max, actual, path: studyPaths(study).journal })

// ---------------------------------------------------------------------------------------------
// Field rules (shared by the Schemas and the hand-written check of ./JournalRules.ts)

/** Event ids (and candidate ids): an exception to the id rule, see ./Ids.ts. */
export const ID_PATTERN = EVENT_ID
export const SHA256_PATTERN = /^[0-9a-f]{64}$/
export const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/
export const MAX_TEXT = 4096

/** A normalized path relative to the work folder (the `RelPath` rule). */
export const isRelativePath = (s: string): boolean => {
  const n = normalizeRelative(s)
  return Either.isRight(n) && n.right === s
}

const Id = Schema.String.pipe(
  Schema.filter((s) => ID_PATTERN.test(s) || EVENT_ID_RULE, {
    jsonSchema: { pattern: ID_PATTERN.source },
    description: `a stable id: ${EVENT_ID_RULE}`
  })
)
const Text = Schema.String.pipe(
  Schema.filter(
    (s) => (s.length >= 1 && s.length <= MAX_TEXT) || `a non-empty string of at most ${MAX_TEXT} characters`,
    {
      jsonSchema: { minLength: 1, maxLength: MAX_TEXT }
    }
  )
)
/** Why an `at` is refused: `9999-12-31T23:30:00-01:00` is an instant with an offset, but year 10000 in UTC. */
const INSTANT_PROBLEM = "a real ISO-8601 instant with Z or an offset whose UTC form is within years 0000-9999"
const IsoTime = Schema.String.pipe(
  Schema.filter((s) => isRealInstant(s) || INSTANT_PROBLEM, {
    jsonSchema: { format: "date-time" },
    description: "an ISO-8601 instant with Z or an offset",
    // Generated as real instants (a filtered random string would almost never pass).
    arbitrary: () => (fc) =>
      fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }).map((ms) => new Date(ms).toISOString())
  })
)
const Sha256 = Schema.String.pipe(
  Schema.filter((s) => SHA256_PATTERN.test(s) || "64 lowercase hex digits (SHA-256)", {
    jsonSchema: { pattern: SHA256_PATTERN.source }
  })
)
const RelPath = Schema.String.pipe(
  Schema.filter((s) => isRelativePath(s) || "a normalized path relative to the work folder, with /", {
    description: "a normalized path relative to the work folder, with / (no .., no leading /)"
  })
)
const FiniteNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isFinite(n) || "a finite number", { jsonSchema: {} })
)
const ByteCount = Schema.Number.pipe(
  Schema.filter((n) => (Number.isSafeInteger(n) && n >= 0) || "a whole number of bytes, at least 0", {
    jsonSchema: { type: "integer", minimum: 0 }
  })
)

export const CandidateStatus = Schema.Literal("created", "evaluated", "accepted", "rejected", "selected")
export type CandidateStatus = typeof CandidateStatus.Type
export const Decision = Schema.Literal("accept", "reject", "inconclusive")
export type Decision = typeof Decision.Type

const opt = <S extends Schema.Schema.All>(s: S) => Schema.optionalWith(s, { exact: true })

const common = { id: Id, at: opt(IsoTime) }

export const CandidateCreated = Schema.Struct({
  ...common,
  type: Schema.Literal("candidate_created"),
  candidate: Schema.Struct({
    id: Id,
    title: Text,
    protocolVersion: opt(Text),
    params: opt(FreeJsonObject)
  })
})

export const ExecutionLinked = Schema.Struct({
  ...common,
  type: Schema.Literal("execution_linked"),
  candidateId: Id,
  /** `exitCode`: how the run ended (null when a signal ended it or it was lost), so a reader sees a failed run. */
  execution: Schema.Struct({
    runtimeId: Text,
    status: Text,
    exitCode: opt(Schema.NullOr(Schema.Int)),
    logRef: opt(Text)
  })
})

export const ArtifactLinked = Schema.Struct({
  ...common,
  type: Schema.Literal("artifact_linked"),
  candidateId: Id,
  artifact: Schema.Struct({ path: RelPath, sha256: Sha256, bytes: ByteCount })
})

export const EvaluationRecorded = Schema.Struct({
  ...common,
  type: Schema.Literal("evaluation_recorded"),
  candidateId: Id,
  evaluation: Schema.Struct({
    evaluatorVersion: Text,
    metrics: Schema.Record({ key: Schema.String, value: FiniteNumber }),
    decision: Decision
  })
})

export const CandidateSelected = Schema.Struct({
  ...common,
  type: Schema.Literal("candidate_selected"),
  candidateId: Id,
  reason: Text
})

export const CheckpointSaved = Schema.Struct({
  ...common,
  type: Schema.Literal("checkpoint_saved"),
  checkpoint: Schema.Struct({ summary: Text, nextAction: Text, reviewed: Schema.Boolean })
})

export const ManifestCandidate = Schema.Struct({
  id: Id,
  status: CandidateStatus,
  resultPaths: Schema.Array(RelPath)
})

export const LegacyImported = Schema.Struct({
  ...common,
  type: Schema.Literal("legacy_imported"),
  manifestSha256: Sha256,
  snapshotPath: RelPath,
  protocolVersion: Schema.NullOr(Text),
  candidates: Schema.Array(ManifestCandidate),
  completed: Schema.Array(Id),
  selected: Schema.NullOr(Id)
})

export const JournalEvent = Schema.Union(
  CandidateCreated,
  ExecutionLinked,
  ArtifactLinked,
  EvaluationRecorded,
  CandidateSelected,
  CheckpointSaved,
  LegacyImported
)
export type JournalEvent = typeof JournalEvent.Type
export type EventType = JournalEvent["type"]

/** An `artifact_linked` event as written in an input: `sha256` and `bytes` are computed when omitted. */
export const ArtifactLinkedInput = Schema.Struct({
  ...common,
  type: Schema.Literal("artifact_linked"),
  candidateId: Id,
  artifact: Schema.Struct({ path: RelPath, sha256: Schema.optional(Sha256), bytes: Schema.optional(ByteCount) })
})
const JournalEventInput = Schema.Union(
  CandidateCreated,
  ExecutionLinked,
  ArtifactLinkedInput,
  EvaluationRecorded,
  CandidateSelected,
  CheckpointSaved,
  LegacyImported
)

/** The `--input` file of `journal append`: one event or an ordered batch. */
export const JournalEventsInput = Schema.Union(JournalEventInput, Schema.Array(JournalEventInput))
/** What `Journal.append` takes: one encoded event (an artifact's digest may be left out) or an ordered batch. */
export type AppendInput = typeof JournalEventsInput.Encoded

/** Each event type's Schema: a new member of `JournalEvent` fails to compile until it is listed here. */
export const EVENT_SCHEMAS: {
  readonly [K in EventType]: Schema.Schema<Extract<JournalEvent, { type: K }>, any, never>
} = {
  candidate_created: CandidateCreated,
  execution_linked: ExecutionLinked,
  artifact_linked: ArtifactLinked,
  evaluation_recorded: EvaluationRecorded,
  candidate_selected: CandidateSelected,
  checkpoint_saved: CheckpointSaved,
  legacy_imported: LegacyImported
}
export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as ReadonlyArray<EventType>

// ---------------------------------------------------------------------------------------------
// Manifest v1: exactly six fields, validated strictly.

export const ManifestV1 = Schema.Struct({
  version: Schema.Literal(1),
  study: Schema.String.pipe(Schema.filter((s) => isStudyId(s) || idProblem("study", s))),
  protocolVersion: Schema.NullOr(Text),
  candidates: Schema.Array(ManifestCandidate),
  completed: Schema.Array(Id),
  selected: Schema.NullOr(Id)
})
export type ManifestV1 = typeof ManifestV1.Type

/** The real-instant check of every instant Schema (./Instant.ts), under its earlier name. */
export const isIso = isRealInstant
