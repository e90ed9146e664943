/** The journal commands' results (also the `dossier schema journal-*-output` documents). */
import * as Schema from "effect/Schema"
import { CandidateStatus, Decision } from "./Journal.js"

export const Head = Schema.Struct({ seq: Schema.Number, id: Schema.String })
export type Head = typeof Head.Type

export const Tail = Schema.Struct({
  state: Schema.Literal("clean", "unterminated"),
  bytes: Schema.optionalWith(Schema.Number, { exact: true })
})
export type Tail = typeof Tail.Type

export const ArtifactView = Schema.Struct({
  path: Schema.String,
  sha256: Schema.String,
  bytes: Schema.Number,
  eventId: Schema.String
})
export const ExecutionView = Schema.Struct({
  runtimeId: Schema.String,
  status: Schema.String,
  exitCode: Schema.optionalWith(Schema.NullOr(Schema.Number), { exact: true }),
  logRef: Schema.optionalWith(Schema.String, { exact: true }),
  eventId: Schema.String
})
export const EvaluationView = Schema.Struct({
  evaluatorVersion: Schema.String,
  metrics: Schema.Record({ key: Schema.String, value: Schema.Number }),
  decision: Decision,
  eventId: Schema.String
})
export const CandidateView = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  status: CandidateStatus,
  protocolVersion: Schema.NullOr(Schema.String),
  artifacts: Schema.Array(ArtifactView),
  executions: Schema.Array(ExecutionView),
  lastEvaluation: Schema.NullOr(EvaluationView),
  resultPaths: Schema.Array(Schema.String),
  createdBy: Schema.String
})
export type CandidateView = typeof CandidateView.Type

export const SelectionView = Schema.Struct({
  candidateId: Schema.String,
  reason: Schema.String,
  eventId: Schema.String
})
export const CheckpointView = Schema.Struct({
  summary: Schema.String,
  nextAction: Schema.String,
  reviewed: Schema.Boolean,
  at: Schema.optionalWith(Schema.String, { exact: true }),
  eventId: Schema.String
})

export const ArtifactFinding = Schema.Struct({
  kind: Schema.Literal("artifact-missing", "artifact-changed"),
  candidateId: Schema.String,
  eventId: Schema.String,
  path: Schema.String,
  expected: Schema.Struct({ sha256: Schema.String, bytes: Schema.Number }),
  actual: Schema.NullOr(Schema.Struct({ sha256: Schema.String, bytes: Schema.Number })),
  detail: Schema.optionalWith(Schema.String, { exact: true })
})
export type ArtifactFinding = typeof ArtifactFinding.Type

/** A finding about an `execution_linked` that names a dossier execution (`.dossier/executions/<id>.json`). */
export const ExecutionFinding = Schema.Struct({
  kind: Schema.Literal(
    "execution-missing",
    "execution-tampered",
    "execution-unsigned",
    "execution-unverifiable",
    "artifact-not-from-execution"
  ),
  candidateId: Schema.String,
  eventId: Schema.String,
  runtimeId: Schema.String,
  path: Schema.String,
  expected: Schema.optionalWith(Schema.Struct({ sha256: Schema.String, bytes: Schema.Number }), { exact: true }),
  actual: Schema.optionalWith(Schema.Struct({ sha256: Schema.String, bytes: Schema.Number }), { exact: true }),
  detail: Schema.optionalWith(Schema.String, { exact: true })
})
export type ExecutionFinding = typeof ExecutionFinding.Type

/**
 * How each linked execution was checked: a dossier execution verified (its record signed with this
 * machine's key and its digest holding), missing, tampered, unsigned (made before records were
 * signed, or its signature removed), unverifiable (signed with a key this machine does not have),
 * or another runtime's id (unchecked).
 */
export const ExecutionCheck = Schema.Struct({
  candidateId: Schema.String,
  eventId: Schema.String,
  runtimeId: Schema.String,
  check: Schema.Literal("verified", "missing", "tampered", "unsigned", "unverifiable", "external"),
  /**
   * Of a run recorded `lost` (its `dossier exec` died), when its record says: what was left of its
   * processes when it was recorded (`killed`, `none-found`, `unchecked`; the record's `leftProcesses`).
   */
  leftProcesses: Schema.optionalWith(Schema.Literal("killed", "none-found", "unchecked"), { exact: true })
})
export type ExecutionCheck = typeof ExecutionCheck.Type

export const InspectOutput = Schema.Struct({
  study: Schema.String,
  events: Schema.Number,
  tail: Tail,
  head: Schema.NullOr(Head),
  protocolVersion: Schema.NullOr(Schema.String),
  candidates: Schema.Array(CandidateView),
  selected: Schema.NullOr(SelectionView),
  checkpoint: Schema.NullOr(CheckpointView),
  legacyImports: Schema.Array(
    Schema.Struct({ eventId: Schema.String, manifestSha256: Schema.String, snapshotPath: Schema.String })
  ),
  verify: Schema.optionalWith(
    Schema.Struct({
      checked: Schema.Number,
      findings: Schema.Array(Schema.Union(ArtifactFinding, ExecutionFinding)),
      executions: Schema.Array(ExecutionCheck),
      note: Schema.String
    }),
    { exact: true }
  )
})
export type InspectResult = typeof InspectOutput.Type

export const AppendOutput = Schema.Struct({
  study: Schema.String,
  appended: Schema.Array(Schema.String),
  skipped: Schema.Array(Schema.String),
  head: Head
})
export type AppendResult = typeof AppendOutput.Type

const Published = Schema.Struct({ path: Schema.String, sha256: Schema.String, bytes: Schema.Number })
export const RebuildOutput = Schema.Struct({
  study: Schema.String,
  events: Schema.Number,
  head: Schema.NullOr(Head),
  manifest: Published,
  index: Published
})
export type RebuildResult = typeof RebuildOutput.Type

export const RecoverOutput = Schema.Struct({
  study: Schema.String,
  recovered: Schema.NullOr(Schema.Struct({ path: Schema.String, bytes: Schema.Number, sha256: Schema.String }))
})
export type RecoverResult = typeof RecoverOutput.Type

export const ImportOutput = Schema.Struct({
  study: Schema.String,
  eventId: Schema.String,
  snapshot: Schema.Struct({ path: Schema.String, sha256: Schema.String }),
  imported: Schema.Boolean
})
export type ImportResult = typeof ImportOutput.Type

export interface StudyRow {
  readonly study: string
  readonly tail: "clean" | "unterminated" | "corrupt"
  readonly tailBytes: number
  readonly corruptLine: number | null
  readonly head: { readonly seq: number; readonly id: string } | null
}
