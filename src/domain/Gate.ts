/**
 * The gate's files (spec gate.md "Files"): the parked run state (decoded leniently — keys the
 * gate does not own are kept as they were), the research output and its context (decoded
 * strictly), the descriptor of the item as fetched fresh (with its comment limits), the
 * attempts log rows, and the gate's success outputs.
 *
 * Over 400 lines: one schema per file the spec's "Files" section names, each with its field
 * descriptions (the source of `dossier schema` and the help); they share the lenient and strict
 * building blocks at the top.
 */
import * as Schema from "effect/Schema"
import { FreeJson } from "./Decode.js"
import { WAITING_FOR_ROUTES } from "./GateRoutes.js"

/** Any further keys of an object: accepted and kept untouched. */
const Rest = Schema.Record({ key: Schema.String, value: FreeJson })

const NonEmpty = Schema.String.pipe(Schema.minLength(1))

export const GapKind = Schema.Literal("maturity", "open-questions")
export type GapKind = typeof GapKind.Type

/** Categories research may decide (close with verified quotes). */
export const RESEARCHABLE_CATEGORIES = [
  "description",
  "scope",
  "technical",
  "dependency",
  "design",
  "data",
  "environment",
  "estimate",
  "other"
] as const
/** Categories research may never decide: they only ever become candidates. */
export const NON_RESEARCHABLE_CATEGORIES = ["acceptance-criteria", "business-rule"] as const
/** Every category a blocker, an open question or a research gap may carry. */
export const GAP_CATEGORIES = [...RESEARCHABLE_CATEGORIES, ...NON_RESEARCHABLE_CATEGORIES] as const

/**
 * Researchable only when it is one of the researchable categories (or absent): a category read
 * from anywhere else — a misspelt `acceptance_criteria`, an unknown label in a recorded research —
 * is never closed.
 */
export const isResearchable = (category: string | null): boolean =>
  category === null || (RESEARCHABLE_CATEGORIES as ReadonlyArray<string>).includes(category)

/** A label reduced to its letters, singular: `Acceptance_Criteria`, `acceptanceCriteria` → `acceptancecriterion`-like keys. */
const spellingKey = (s: string): string =>
  s.toLowerCase().replace(/[^a-z]/g, "").replace(/(ies|ia|s)$/, (m) => (m === "ies" ? "y" : m === "ia" ? "ion" : ""))

/** The category a misspelt label most likely means (same letters, case, separators or plural aside). */
export const meantCategory = (label: string): string | undefined => {
  const key = spellingKey(label)
  return GAP_CATEGORIES.find((c) => spellingKey(c) === key)
}

/** Why a label is not a category, naming what it likely means and every allowed value. */
export const categoryMessage = (label: unknown): string => {
  const shown = typeof label === "string" ? `'${label}'` : JSON.stringify(label) ?? String(label)
  const meant = typeof label === "string" ? meantCategory(label) : undefined
  return `${shown} is not a category${meant === undefined ? "" : ` (did you mean '${meant}'?)`}; allowed: ${
    GAP_CATEGORIES.join(", ")
  } (research never closes ${NON_RESEARCHABLE_CATEGORIES.join(" or ")})`
}

/** A gap's category: an enumeration; anything else (a spelling variant included) is refused with the allowed values. */
export const GapCategory = Schema.String.pipe(
  Schema.filter((s): s is (typeof GAP_CATEGORIES)[number] => (GAP_CATEGORIES as ReadonlyArray<string>).includes(s), {
    message: (issue) => categoryMessage(issue.actual)
  })
).annotations({
  identifier: "GapCategory",
  description: `The category of a blocker, open question or gap: one of ${
    GAP_CATEGORIES.join(", ")
  }. Research never closes ${
    NON_RESEARCHABLE_CATEGORIES.join(" or ")
  }: they only become candidates. Any other value, a spelling variant such as acceptance_criteria included, is refused.`,
  jsonSchema: { enum: [...GAP_CATEGORIES] }
})
export type GapCategory = typeof GapCategory.Type
const Category = Schema.optional(Schema.NullOr(GapCategory))

// ---------------------------------------------------------------------------------------------
// Run state (lenient)

export const Blocker = Schema.Struct(
  {
    id: NonEmpty,
    category: Category
  },
  Rest
).annotations({ description: "A maturity blocker; further keys are kept." })
export type Blocker = typeof Blocker.Type

export const OpenQuestion = Schema.Struct(
  {
    id: NonEmpty,
    text: Schema.optional(Schema.String),
    category: Category
  },
  Rest
).annotations({ description: "An open analysis question; further keys are kept." })
export type OpenQuestion = typeof OpenQuestion.Type

/** The maturity scale: scores and thresholds are numbers from 0 to 100 (the run's own scale; 40 means 40 of 100). */
export const MATURITY_MAX = 100

const OnMaturityScale = Schema.Number.pipe(
  Schema.filter(
    (n) =>
      (Number.isFinite(n) && n >= 0 && n <= MATURITY_MAX) ||
      `expected a number from 0 to ${MATURITY_MAX} (the maturity scale), got ${n}`,
    {
      jsonSchema: { minimum: 0, maximum: MATURITY_MAX }
    }
  )
).annotations({ description: `On the maturity scale, 0 to ${MATURITY_MAX}.` })

export const Maturity = Schema.Struct(
  {
    score: Schema.optional(Schema.NullOr(OnMaturityScale)),
    threshold: Schema.optional(Schema.NullOr(OnMaturityScale)),
    blockers: Schema.optional(Schema.Array(Blocker))
  },
  Rest
).pipe(
  // 0.4 with threshold 0.8 is a 0-1 scale: re-scored on 0-100 it would become 60, so it is refused
  // (a threshold of at most 1 means nothing on a 0-100 scale).
  Schema.filter((m) =>
    typeof m.threshold === "number" && m.threshold > 0 && m.threshold <= 1 && typeof m.score === "number" &&
      m.score <= 1
      ? {
        path: ["threshold"],
        message:
          `score ${m.score} and threshold ${m.threshold} look like a 0-1 scale; the maturity scale is 0 to ${MATURITY_MAX} (write ${
            Math.round(m.score * 100)
          } and ${Math.round(m.threshold * 100)})`
      }
      : true
  )
).annotations({
  description: `maturity {score, threshold} on the scale 0 to ${MATURITY_MAX}, blockers; further keys are kept.`
})
export type Maturity = typeof Maturity.Type

export const PendingQuestion = Schema.Struct(
  { id: Schema.optional(Schema.String), stepId: Schema.optional(Schema.String) },
  Rest
)

export const RunState = Schema.Struct(
  {
    item: Schema.propertySignature(NonEmpty).annotations({ description: "The item the run works on (e.g. PROJ-12)." }),
    autopilot: Schema.optional(Schema.Boolean),
    status: Schema.optional(Schema.String),
    waitingFor: Schema.optional(
      Schema.NullOr(Schema.String).annotations({ description: `What the run waits on: ${WAITING_FOR_ROUTES}.` })
    ),
    pendingQuestion: Schema.optional(Schema.NullOr(PendingQuestion)),
    maturity: Schema.optional(Schema.NullOr(Maturity)),
    analysis: Schema.optional(
      Schema.NullOr(Schema.Struct({ openQuestions: Schema.optional(Schema.Array(OpenQuestion)) }, Rest))
    ),
    research: Schema.optional(Schema.Unknown)
  },
  Rest
).annotations({
  identifier: "run-state",
  description:
    "The parked run (--state). The gate reads item, autopilot, status, waitingFor, pendingQuestion, maturity {score, threshold (each 0 to 100), blockers [{id, category}]}, analysis {openQuestions [{id, text, category}]}; it is the only writer of research. Keys it does not own are kept as they were."
})
export type RunState = typeof RunState.Type

// ---------------------------------------------------------------------------------------------
// Research output and context (strict)

export const GapStatus = Schema.Literal("closed", "candidate", "open")
export type GapStatus = typeof GapStatus.Type

export const CitedSource = Schema.Struct({
  label: Schema.optional(Schema.String),
  ref: Schema.propertySignature(NonEmpty).annotations({
    description:
      "descriptor:description, descriptor:comment:<id>, a path under research/sources/ registered in the plan, or a context.json document ref."
  }),
  quote: Schema.propertySignature(Schema.String).annotations({
    description: "Verbatim text of the source (at least 20 characters after whitespace collapsing)."
  })
})
export type CitedSource = typeof CitedSource.Type

export const ResearchGap = Schema.Struct({
  // In `jsonSchema`, not `description`: a type's description is what a refusal names as expected,
  // and this struct's encoded side (its default below) does not keep a field's own annotations.
  id: NonEmpty.annotations({
    jsonSchema: {
      description: "A blocker id (maturity) or an open question id (open-questions) of the state.",
      minLength: 1
    }
  }),
  category: Category,
  status: GapStatus,
  answer: Schema.optional(Schema.NullOr(Schema.String)),
  sources: Schema.optionalWith(Schema.Array(CitedSource), { default: () => [] })
})
export type ResearchGap = typeof ResearchGap.Type

export const ResearchOutput = Schema.Struct({
  item: NonEmpty,
  kind: GapKind,
  gaps: Schema.Array(ResearchGap)
}).annotations({
  identifier: "research-output",
  description:
    "research.json in the research folder: {item, kind: maturity | open-questions, gaps: [{id, category?, status: closed | candidate | open, answer?, sources: [{label?, ref, quote}]}]}. item and kind must match the state."
})
export type ResearchOutput = typeof ResearchOutput.Type

export const ContextDocument = Schema.Struct({ ref: NonEmpty, text: Schema.String })
export const ResearchContext = Schema.Struct({ documents: Schema.Array(ContextDocument) }).annotations({
  identifier: "context",
  description:
    "context.json in the research folder: {documents: [{ref, text}]}, the documents the research session read (written by the session: weaker evidence)."
})
export type ResearchContext = typeof ResearchContext.Type

// ---------------------------------------------------------------------------------------------
// Descriptor (the item as fetched fresh)

export const DescriptorComment = Schema.Struct(
  { id: Schema.Union(NonEmpty, Schema.Number), text: Schema.String },
  Rest
)
export const DescriptorLink = Schema.Struct({
  ref: Schema.String,
  title: Schema.optional(Schema.NullOr(Schema.String))
}, Rest)

export const Descriptor = Schema.Struct(
  {
    item: NonEmpty,
    description: Schema.optional(Schema.NullOr(Schema.String)),
    acceptanceCriteria: Schema.optional(Schema.Array(Schema.Unknown)),
    comments: Schema.optional(Schema.Array(DescriptorComment)).annotations({
      description:
        "Oldest first. Only the newest 20 are used, each cut to 1500 characters, 12000 UTF-8 bytes together; a cut comment ends with the marker ' [… cut by dossier]'."
    }),
    commentsTotal: Schema.optional(Schema.Number).annotations({
      description: "How many comments the item has, when the fetcher sent fewer (counted as left out)."
    }),
    links: Schema.optional(Schema.Array(DescriptorLink))
  },
  Rest
).annotations({
  identifier: "descriptor",
  description:
    "--descriptor: the item as the fetcher printed it: {item, description, acceptanceCriteria [...], comments [{id, text}] (oldest first), links [{ref, title}]}. Further keys are accepted and ignored."
})
export type Descriptor = typeof Descriptor.Type

export const COMMENT_LIMITS = { count: 20, chars: 1500, totalBytes: 12000 } as const
export const CUT_MARKER = " [… cut by dossier]"

export interface LimitedComments {
  readonly comments: ReadonlyArray<{ readonly id: string; readonly text: string }>
  /** Comments in the descriptor (or its commentsTotal when larger). */
  readonly total: number
  /** Ids of comments whose text was cut. */
  readonly truncated: ReadonlyArray<string>
  /** How many comments were left out (older than the newest 20, or beyond the byte budget). */
  readonly dropped: number
}

const utf8Bytes = (s: string): number => Buffer.byteLength(s, "utf8")

/** Keep at most `maxChars` code points, ending with the marker when cut. */
const cutChars = (text: string, maxChars: number): { text: string; cut: boolean } => {
  const cps = [...text]
  if (cps.length <= maxChars) return { text, cut: false }
  const keep = Math.max(0, maxChars - [...CUT_MARKER].length)
  return { text: cps.slice(0, keep).join("") + CUT_MARKER, cut: true }
}

/** Keep at most `maxBytes` UTF-8 bytes (marker included), cutting at a code point boundary. */
const cutBytes = (text: string, maxBytes: number): string => {
  const budget = maxBytes - utf8Bytes(CUT_MARKER)
  let used = 0
  let out = ""
  for (const cp of text) {
    const b = utf8Bytes(cp)
    if (used + b > budget) break
    used += b
    out += cp
  }
  return out + CUT_MARKER
}

/**
 * The descriptor's comment limits: the newest 20 (the last 20 of the list, which is oldest
 * first), each at most 1500 characters, at most 12000 UTF-8 bytes together (newest kept
 * first). Longer input is cut and ends with `CUT_MARKER`; the result says what was cut.
 */
export const limitComments = (
  comments: ReadonlyArray<{ readonly id: string | number; readonly text: string }>,
  commentsTotal?: number
): LimitedComments => {
  const newest = comments.slice(-COMMENT_LIMITS.count)
  const kept: Array<{ id: string; text: string }> = []
  const truncated: Array<string> = []
  let budget = COMMENT_LIMITS.totalBytes
  for (let i = newest.length - 1; i >= 0; i--) {
    const c = newest[i]!
    const id = String(c.id)
    const capped = cutChars(c.text, COMMENT_LIMITS.chars)
    let text = capped.text
    let cut = capped.cut
    const size = utf8Bytes(text)
    if (size > budget) {
      if (budget <= utf8Bytes(CUT_MARKER)) break
      text = cutBytes(c.text, budget)
      cut = true
    }
    budget -= utf8Bytes(text)
    kept.push({ id, text })
    if (cut) truncated.push(id)
  }
  kept.reverse()
  truncated.reverse()
  const total = Math.max(comments.length, commentsTotal ?? 0)
  return { comments: kept, total, truncated, dropped: total - kept.length }
}

/**
 * The text each kept comment's quotes are matched against, by id: a cut comment without the
 * marker. The marker is dossier's words, not the commenter's, so a quote that reaches into it
 * (the last character kept and the 19 of the marker make 20) would verify text nobody wrote.
 */
export const commentQuoteTexts = (limited: LimitedComments): ReadonlyMap<string, string> => {
  const cut = new Set(limited.truncated)
  return new Map(
    limited.comments.map((c) =>
      [
        c.id,
        cut.has(c.id) && c.text.endsWith(CUT_MARKER) ? c.text.slice(0, -CUT_MARKER.length) : c.text
      ] as const
    )
  )
}

// ---------------------------------------------------------------------------------------------
// Attempts log

export const AttemptRow = Schema.Struct({
  item: Schema.String,
  at: Schema.String,
  researchRounds: Schema.Number,
  decision: Schema.String
}).annotations({
  identifier: "gate-attempt",
  description: "One line of the attempts log (JSONL). The gate sums researchRounds over every row of the item."
})
export type AttemptRow = typeof AttemptRow.Type

// ---------------------------------------------------------------------------------------------
// Outputs

export const SourceOrigin = Schema.Literal("descriptor", "capture", "registered", "context")
export type SourceOrigin = typeof SourceOrigin.Type

export const SourceReason = Schema.Literal(
  "quote-not-found",
  "quote-too-short",
  "source-changed",
  "source-missing",
  "source-unreadable",
  "source-unknown"
)
export type SourceReason = typeof SourceReason.Type

export const VerifiedSource = Schema.Struct({
  label: Schema.optional(Schema.String),
  ref: Schema.String,
  quote: Schema.String,
  verified: Schema.Boolean,
  origin: Schema.optional(SourceOrigin),
  reason: Schema.optional(SourceReason),
  /** Where a verified quote is in the cited text: code-point offsets into the file's own text (end exclusive). */
  start: Schema.optional(Schema.Number),
  end: Schema.optional(Schema.Number)
})
export type VerifiedSource = typeof VerifiedSource.Type

export const CandidateReason = Schema.Literal("not-researchable", "unverified", "no-sources", "proposed-candidate")
export type CandidateReason = typeof CandidateReason.Type

export const EvaluatedGap = Schema.Struct({
  id: Schema.String,
  category: Schema.NullOr(Schema.String),
  proposed: GapStatus,
  status: GapStatus,
  answer: Schema.NullOr(Schema.String),
  sources: Schema.Array(VerifiedSource)
})
export type EvaluatedGap = typeof EvaluatedGap.Type

export const Candidate = Schema.Struct({
  id: Schema.String,
  category: Schema.NullOr(Schema.String),
  reason: CandidateReason,
  answer: Schema.NullOr(Schema.String),
  sources: Schema.Array(VerifiedSource)
})
export type Candidate = typeof Candidate.Type

export const ResolvedAnswer = Schema.Struct({
  id: Schema.String,
  category: Schema.NullOr(Schema.String),
  answer: Schema.NullOr(Schema.String),
  sources: Schema.Array(VerifiedSource)
})
export type ResolvedAnswer = typeof ResolvedAnswer.Type

export const Decision = Schema.Literal("proceed", "ask")
export type Decision = typeof Decision.Type

export const DecisionReason = Schema.Literal("nothing-blocking", "gaps-remain", "maxAskRounds")
export type DecisionReason = typeof DecisionReason.Type

export const MaturitySnapshot = Schema.Struct({
  score: Schema.NullOr(Schema.Number),
  threshold: Schema.NullOr(Schema.Number),
  blockers: Schema.Array(Schema.Unknown)
})
export type MaturitySnapshot = typeof MaturitySnapshot.Type

/** `state.research`, written by the gate only. */
export const ResearchRecord = Schema.Struct({
  round: Schema.Number,
  kind: GapKind,
  decision: Decision,
  reason: DecisionReason,
  dir: Schema.String,
  gaps: Schema.Array(EvaluatedGap),
  closed: Schema.Array(Schema.String),
  candidates: Schema.Array(Candidate),
  open: Schema.Array(Schema.String),
  ignored: Schema.Array(Schema.String),
  resolved: Schema.Array(ResolvedAnswer),
  maturityBefore: Schema.NullOr(MaturitySnapshot),
  maturityAfter: Schema.NullOr(MaturitySnapshot),
  at: Schema.String
}).annotations({ identifier: "gate-research-record" })
export type ResearchRecord = typeof ResearchRecord.Type

/** What the descriptor's limits kept of its comments: how many it has, used, cut (ids) and dropped. */
export const CommentsUsed = Schema.Struct({
  total: Schema.Number,
  used: Schema.Number,
  truncated: Schema.Array(Schema.String),
  dropped: Schema.Number
})

export const GateActiveOutput = Schema.Struct({
  ok: Schema.Literal(true),
  active: Schema.Literal(true),
  kind: GapKind,
  decision: Decision,
  reason: DecisionReason,
  researchRounds: Schema.Literal(0, 1),
  research: ResearchRecord,
  /** With --descriptor, when research was evaluated: what the comment limits kept. */
  comments: Schema.optional(CommentsUsed),
  note: Schema.String
})
export const GateNoopOutput = Schema.Struct({ ok: Schema.Literal(true), active: Schema.Literal(false) })
export const GateOutput = Schema.Union(GateActiveOutput, GateNoopOutput).annotations({ identifier: "gate-output" })

export const Finding = Schema.Struct({
  id: Schema.String,
  category: Schema.NullOr(Schema.String),
  answer: Schema.NullOr(Schema.String),
  sources: Schema.Array(VerifiedSource)
})

export const GateRecheckOutput = Schema.Struct({
  ok: Schema.Literal(true),
  continue: Schema.Literal(true),
  description: Schema.String,
  findings: Schema.Array(Finding),
  maturity: MaturitySnapshot,
  comments: CommentsUsed,
  note: Schema.String
}).annotations({ identifier: "gate-recheck-output" })

export const VERIFICATION_NOTE =
  "A verified quote proves the text is in the cited source's current bytes (or in the text the research session supplied, for origin 'context'); it does not prove the answer is right."
