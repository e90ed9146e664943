/**
 * The experiment journal's events, study ids and command results (spec: journal.md).
 *
 * Two validators describe the same event language: the `Schema` values (used for input files,
 * `dossier schema journal-events` and error paths) and `eventProblem`, a hand-written check of
 * the same rules used on replay, where a 100,000-line journal must be read in well under a
 * second. test/journal/validate.test.ts property-tests that the two always agree.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { decodeWith, FreeJsonObject, issueOf, jsonProblem, MAX_DOCUMENT_DEPTH, MAX_FREE_DEPTH } from "./Decode.js"
import { InvalidInput, type Issue } from "./Errors.js"
import { isRealInstant } from "./Instant.js"
import { normalizeRelative } from "./Paths.js"

// ---------------------------------------------------------------------------------------------
// Study ids

export const STUDY_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/
export const RESERVED_STUDY_IDS: ReadonlyArray<string> = ["inputs", "sources", "results", "gate"]

export const isStudyId = (s: string): boolean => STUDY_ID.test(s) && !RESERVED_STUDY_IDS.includes(s)

export const checkStudyId = (study: string): Either.Either<string, InvalidInput> =>
  isStudyId(study)
    ? Either.right(study)
    : Either.left(
      new InvalidInput({
        issues: [{
          path: "study",
          message: STUDY_ID.test(study)
            ? `'${study}' is a reserved folder name (inputs, sources, results, gate)`
            : "a study id matches ^[a-z0-9][a-z0-9._-]{0,63}$"
        }]
      })
    )

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

// ---------------------------------------------------------------------------------------------
// Field rules (shared by the Schemas and the fast check)

export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/
export const SHA256_PATTERN = /^[0-9a-f]{64}$/
export const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/
export const MAX_TEXT = 4096

const isRelativePath = (s: string) => {
  const n = normalizeRelative(s)
  return Either.isRight(n) && n.right === s
}

const Id = Schema.String.pipe(
  Schema.filter((s) => ID_PATTERN.test(s) || "1–128 characters of A-Za-z0-9._:-", {
    jsonSchema: { pattern: ID_PATTERN.source },
    description: "a stable id: 1–128 characters of A-Za-z0-9._:-"
  })
)
const Text = Schema.String.pipe(
  Schema.filter((s) => (s.length >= 1 && s.length <= MAX_TEXT) || `a non-empty string of at most ${MAX_TEXT} characters`, {
    jsonSchema: { minLength: 1, maxLength: MAX_TEXT }
  })
)
const IsoTime = Schema.String.pipe(
  Schema.filter((s) => isRealInstant(s) || "an ISO-8601 instant with Z or an offset", {
    jsonSchema: { format: "date-time" },
    description: "an ISO-8601 instant with Z or an offset",
    // Generated as real instants (a filtered random string would almost never pass).
    arbitrary: () => (fc) => fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }).map((ms) => new Date(ms).toISOString())
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
const FiniteNumber = Schema.Number.pipe(Schema.filter((n) => Number.isFinite(n) || "a finite number", { jsonSchema: {} }))
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
  execution: Schema.Struct({ runtimeId: Text, status: Text, logRef: opt(Text) })
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

const byType: { readonly [K in EventType]: Schema.Schema<Extract<JournalEvent, { type: K }>, any, never> } = {
  candidate_created: CandidateCreated,
  execution_linked: ExecutionLinked,
  artifact_linked: ArtifactLinked,
  evaluation_recorded: EvaluationRecorded,
  candidate_selected: CandidateSelected,
  checkpoint_saved: CheckpointSaved,
  legacy_imported: LegacyImported
}
export const EVENT_TYPES = Object.keys(byType) as ReadonlyArray<EventType>

const decoders = Object.fromEntries(
  EVENT_TYPES.map((t) => [t, decodeWith(byType[t] as Schema.Schema<JournalEvent, any, never>)])
) as Record<EventType, (u: unknown) => Either.Either<JournalEvent, InvalidInput>>

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const join = (prefix: string, path: string) => (prefix === "" ? path : path === "" ? prefix : `${prefix}.${path}`)

/** A private copy of plain data (JSON-like values), or undefined when it cannot be copied that way. */
const plainCopy = (value: unknown): unknown => {
  try {
    return structuredClone(value)
  } catch {
    return undefined
  }
}

/**
 * Decode one event; issue paths are prefixed with `prefix` (the event's index in a batch).
 *
 * Fast path: a structured clone of the value (a private copy, so a caller changing its object
 * later changes nothing here) that passes `eventProblem` is the event, as the Schema would
 * decode it (the two checks agree: validate.test.ts). Anything else goes through the Schema,
 * which decides and words the issues.
 */
export const decodeEvent = (value: unknown, prefix = ""): Either.Either<JournalEvent, ReadonlyArray<Issue>> => {
  if (isRecord(value)) {
    const copy = plainCopy(value)
    if (copy !== undefined && eventProblem(copy) === null) return Either.right(copy as JournalEvent)
  }
  return decodeEventBySchema(value, prefix)
}

/** `decodeEvent` through the Schemas only (the reference the fast path is tested against). */
export const decodeEventBySchema = (value: unknown, prefix = ""): Either.Either<JournalEvent, ReadonlyArray<Issue>> => {
  if (!isRecord(value)) return Either.left([{ path: prefix, message: "expected an event object" }])
  const type = value["type"]
  if (typeof type !== "string" || !(EVENT_TYPES as ReadonlyArray<string>).includes(type)) {
    return Either.left([{ path: join(prefix, "type"), message: `expected one of ${EVENT_TYPES.join(", ")}` }])
  }
  return Either.mapLeft(decoders[type as EventType](value), (e) =>
    mergeIssues(e.issues).map((i) => ({ path: join(prefix, i.path), message: i.message })))
}

const LITERAL_MISS = /^Expected (".*"), actual (.*)$/

/** One issue per path: the alternatives of a literal union are listed in one message. */
export const mergeIssues = (issues: ReadonlyArray<Issue>): ReadonlyArray<Issue> => {
  const byPath = new Map<string, Array<string>>()
  for (const i of issues) {
    const list = byPath.get(i.path)
    if (list === undefined) byPath.set(i.path, [i.message])
    else if (!list.includes(i.message)) list.push(i.message)
  }
  return [...byPath].map(([path, messages]) => {
    if (messages.length === 1) return { path, message: messages[0]! }
    const literals = messages.map((m) => LITERAL_MISS.exec(m))
    if (literals.every((m) => m !== null && m[2] === literals[0]![2])) {
      return { path, message: `Expected one of ${literals.map((m) => m![1]).join(", ")}, actual ${literals[0]![2]}` }
    }
    return { path, message: messages.join("; ") }
  })
}

export const MAX_BATCH = 10_000

/** Decode an append input (one event or a non-empty array) as a whole; every issue is reported. */
export const decodeBatch = (input: unknown): Either.Either<ReadonlyArray<JournalEvent>, InvalidInput> => {
  // Plain data first (depth, `__proto__`, lone surrogates), as every other input is checked.
  const problem = jsonProblem(input, MAX_DOCUMENT_DEPTH)
  if (problem !== null) return Either.left(new InvalidInput({ issues: [issueOf(problem)] }))
  if (!Array.isArray(input)) {
    return Either.mapBoth(decodeEvent(input), { onLeft: (issues) => new InvalidInput({ issues }), onRight: (e) => [e] })
  }
  if (input.length === 0) return Either.left(new InvalidInput({ issues: [{ path: "", message: "a batch holds at least one event" }] }))
  if (input.length > MAX_BATCH) {
    return Either.left(new InvalidInput({ issues: [{ path: "", message: `a batch holds at most ${MAX_BATCH} events` }] }))
  }
  const issues: Array<Issue> = []
  const events: Array<JournalEvent> = []
  input.forEach((v, i) => {
    const r = decodeEvent(v, String(i))
    if (Either.isLeft(r)) issues.push(...r.left)
    else events.push(r.right)
  })
  return issues.length > 0 ? Either.left(new InvalidInput({ issues })) : Either.right(events)
}

// ---------------------------------------------------------------------------------------------
// The fast check used on replay: the same rules as the Schemas, written out by hand.

const str = (u: unknown): u is string => typeof u === "string"
const isId = (u: unknown) => str(u) && ID_PATTERN.test(u)
const isText = (u: unknown) => str(u) && u.length >= 1 && u.length <= MAX_TEXT
const onlyKeys = (o: Record<string, unknown>, required: ReadonlyArray<string>, optional: ReadonlyArray<string>) => {
  let seen = 0
  for (const k in o) {
    if (required.includes(k)) seen++
    else if (!optional.includes(k)) return false
  }
  return seen === required.length
}
const allStrings = (o: Record<string, unknown>) => {
  for (const k in o) if (!str(k)) return false
  return true
}

/** `null` when `u` is a valid event, else a short reason. Agrees with the Schemas above. */
export const eventProblem = (u: unknown): string | null => {
  if (!isRecord(u)) return "not an object"
  if (!isId(u["id"])) return "bad id"
  if ("at" in u && !(str(u["at"]) && isRealInstant(u["at"]))) return "bad at"
  const c = u["candidateId"]
  switch (u["type"]) {
    case "candidate_created": {
      if (!onlyKeys(u, ["id", "type", "candidate"], ["at"])) return "unexpected fields"
      const k = u["candidate"]
      if (!isRecord(k) || !onlyKeys(k, ["id", "title"], ["protocolVersion", "params"])) return "bad candidate"
      if (!isId(k["id"]) || !isText(k["title"])) return "bad candidate"
      if ("protocolVersion" in k && !isText(k["protocolVersion"])) return "bad candidate"
      if ("params" in k && !(isRecord(k["params"]) && allStrings(k["params"]) && jsonProblem(k["params"], MAX_FREE_DEPTH) === null)) {
        return "bad candidate"
      }
      return null
    }
    case "execution_linked": {
      if (!onlyKeys(u, ["id", "type", "candidateId", "execution"], ["at"]) || !isId(c)) return "unexpected fields"
      const x = u["execution"]
      if (!isRecord(x) || !onlyKeys(x, ["runtimeId", "status"], ["logRef"])) return "bad execution"
      if (!isText(x["runtimeId"]) || !isText(x["status"]) || ("logRef" in x && !isText(x["logRef"]))) return "bad execution"
      return null
    }
    case "artifact_linked": {
      if (!onlyKeys(u, ["id", "type", "candidateId", "artifact"], ["at"]) || !isId(c)) return "unexpected fields"
      const a = u["artifact"]
      if (!isRecord(a) || !onlyKeys(a, ["path", "sha256", "bytes"], [])) return "bad artifact"
      const p = a["path"]
      const s = a["sha256"]
      const b = a["bytes"]
      if (!str(p) || !isRelativePath(p) || !str(s) || !SHA256_PATTERN.test(s)) return "bad artifact"
      if (typeof b !== "number" || !Number.isSafeInteger(b) || b < 0) return "bad artifact"
      return null
    }
    case "evaluation_recorded": {
      if (!onlyKeys(u, ["id", "type", "candidateId", "evaluation"], ["at"]) || !isId(c)) return "unexpected fields"
      const e = u["evaluation"]
      if (!isRecord(e) || !onlyKeys(e, ["evaluatorVersion", "metrics", "decision"], [])) return "bad evaluation"
      if (!isText(e["evaluatorVersion"])) return "bad evaluation"
      const d = e["decision"]
      if (d !== "accept" && d !== "reject" && d !== "inconclusive") return "bad evaluation"
      const m = e["metrics"]
      if (!isRecord(m)) return "bad evaluation"
      for (const k in m) {
        const v = m[k]
        if (typeof v !== "number" || !Number.isFinite(v)) return "bad evaluation"
      }
      return null
    }
    case "candidate_selected":
      if (!onlyKeys(u, ["id", "type", "candidateId", "reason"], ["at"]) || !isId(c) || !isText(u["reason"])) {
        return "bad selection"
      }
      return null
    case "checkpoint_saved": {
      if (!onlyKeys(u, ["id", "type", "checkpoint"], ["at"])) return "unexpected fields"
      const k = u["checkpoint"]
      if (!isRecord(k) || !onlyKeys(k, ["summary", "nextAction", "reviewed"], [])) return "bad checkpoint"
      if (!isText(k["summary"]) || !isText(k["nextAction"]) || typeof k["reviewed"] !== "boolean") return "bad checkpoint"
      return null
    }
    case "legacy_imported": {
      if (
        !onlyKeys(
          u,
          ["id", "type", "manifestSha256", "snapshotPath", "protocolVersion", "candidates", "completed", "selected"],
          ["at"]
        )
      ) return "unexpected fields"
      const s = u["manifestSha256"]
      const p = u["snapshotPath"]
      if (!str(s) || !SHA256_PATTERN.test(s) || !str(p) || !isRelativePath(p)) return "bad legacy import"
      if (u["protocolVersion"] !== null && !isText(u["protocolVersion"])) return "bad legacy import"
      if (u["selected"] !== null && !isId(u["selected"])) return "bad legacy import"
      const done = u["completed"]
      if (!Array.isArray(done) || !done.every(isId)) return "bad legacy import"
      const cs = u["candidates"]
      if (!Array.isArray(cs)) return "bad legacy import"
      for (const k of cs) {
        if (!isRecord(k) || !onlyKeys(k, ["id", "status", "resultPaths"], [])) return "bad legacy import"
        if (!isId(k["id"]) || !(CandidateStatus.literals as ReadonlyArray<unknown>).includes(k["status"])) return "bad legacy import"
        const rp = k["resultPaths"]
        if (!Array.isArray(rp) || !rp.every((x) => str(x) && isRelativePath(x))) return "bad legacy import"
      }
      return null
    }
    default:
      return "unknown type"
  }
}

/** The candidate an event refers to (`candidateId`), if any. */
export const candidateRef = (e: JournalEvent): string | undefined => ("candidateId" in e ? e.candidateId : undefined)

// ---------------------------------------------------------------------------------------------
// Manifest v1: exactly six fields, validated strictly.

export const ManifestV1 = Schema.Struct({
  version: Schema.Literal(1),
  study: Schema.String.pipe(Schema.filter((s) => isStudyId(s) || "a study id")),
  protocolVersion: Schema.NullOr(Text),
  candidates: Schema.Array(ManifestCandidate),
  completed: Schema.Array(Id),
  selected: Schema.NullOr(Id)
})
export type ManifestV1 = typeof ManifestV1.Type

const decodeManifestShape = decodeWith(ManifestV1)

/**
 * The strict validator of manifest v1: the exact six-field shape (excess fields refused), plus
 * its internal consistency: unique candidate ids, `completed` and `selected` naming candidates,
 * no repeated completed id.
 */
export const validateManifest = (value: unknown): Either.Either<ManifestV1, ReadonlyArray<Issue>> => {
  const shape = decodeManifestShape(value)
  if (Either.isLeft(shape)) return Either.left(mergeIssues(shape.left.issues))
  const m = shape.right
  const issues: Array<Issue> = []
  const ids = new Set<string>()
  m.candidates.forEach((c, i) => {
    if (ids.has(c.id)) issues.push({ path: `candidates.${i}.id`, message: `the candidate id '${c.id}' is repeated` })
    ids.add(c.id)
  })
  const done = new Set<string>()
  m.completed.forEach((id, i) => {
    if (!ids.has(id)) issues.push({ path: `completed.${i}`, message: `'${id}' is not a candidate of the manifest` })
    if (done.has(id)) issues.push({ path: `completed.${i}`, message: `'${id}' is repeated` })
    done.add(id)
  })
  if (m.selected !== null && !ids.has(m.selected)) {
    issues.push({ path: "selected", message: `'${m.selected}' is not a candidate of the manifest` })
  }
  return issues.length > 0 ? Either.left(issues) : Either.right(m)
}

/** Deterministic manifest bytes: the six fields in their documented order, 2-space JSON, final newline. */
export const manifestBytes = (m: ManifestV1): string =>
  `${
    JSON.stringify(
      {
        version: 1,
        study: m.study,
        protocolVersion: m.protocolVersion,
        candidates: m.candidates.map((c) => ({ id: c.id, status: c.status, resultPaths: c.resultPaths })),
        completed: m.completed,
        selected: m.selected
      },
      null,
      2
    )
  }\n`

/** The id of the `legacy_imported` event of a manifest with this digest (stable: import is idempotent). */
export const legacyEventId = (manifestSha256: string) => `legacy:${manifestSha256}`

// ---------------------------------------------------------------------------------------------
// Results (also the `dossier schema journal-*-output` documents)

export const Head = Schema.Struct({ seq: Schema.Number, id: Schema.String })
export type Head = typeof Head.Type

export const Tail = Schema.Struct({
  state: Schema.Literal("clean", "unterminated"),
  bytes: Schema.optionalWith(Schema.Number, { exact: true })
})
export type Tail = typeof Tail.Type

export const ArtifactView = Schema.Struct({ path: Schema.String, sha256: Schema.String, bytes: Schema.Number, eventId: Schema.String })
export const ExecutionView = Schema.Struct({
  runtimeId: Schema.String,
  status: Schema.String,
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

export const SelectionView = Schema.Struct({ candidateId: Schema.String, reason: Schema.String, eventId: Schema.String })
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
  kind: Schema.Literal("execution-missing", "execution-tampered", "artifact-not-from-execution"),
  candidateId: Schema.String,
  eventId: Schema.String,
  runtimeId: Schema.String,
  path: Schema.String,
  expected: Schema.optionalWith(Schema.Struct({ sha256: Schema.String, bytes: Schema.Number }), { exact: true }),
  actual: Schema.optionalWith(Schema.Struct({ sha256: Schema.String, bytes: Schema.Number }), { exact: true }),
  detail: Schema.optionalWith(Schema.String, { exact: true })
})
export type ExecutionFinding = typeof ExecutionFinding.Type

/** How each linked execution was checked: a dossier execution verified, missing or tampered, or another runtime's id (unchecked). */
export const ExecutionCheck = Schema.Struct({
  candidateId: Schema.String,
  eventId: Schema.String,
  runtimeId: Schema.String,
  check: Schema.Literal("verified", "missing", "tampered", "external")
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
  legacyImports: Schema.Array(Schema.Struct({ eventId: Schema.String, manifestSha256: Schema.String, snapshotPath: Schema.String })),
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

/** The real-instant check of every instant Schema (./Instant.ts), under its earlier name. */
export const isIso = isRealInstant
