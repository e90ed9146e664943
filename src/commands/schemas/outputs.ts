/**
 * Success outputs (`--json`, and an MCP tool's `structuredContent`) of the commands whose
 * output has no Schema of its own elsewhere: their top-level fields, the rows of the lists typed
 * field by field (test/cli/outputRows.test.ts), what is deeper still described in words where it
 * is not typed yet (each nested record has its own schema where one exists: `grant-record`,
 * `grant-event`, `execution-record`, `subscription-record`, `run-record`).
 */
import * as Schema from "effect/Schema"
import { Authenticity } from "../../domain/ExecErrors.js"
import { ExecutionRecord, VerifyFinding } from "../../domain/Execution.js"
import { StoredGrant } from "../../domain/Grant.js"
import { CheckpointView, Head, SelectionView } from "../../domain/JournalOutput.js"
import { RunStatus, SubscriptionKind, SubscriptionStatus } from "../../domain/MonitorSchema.js"

const Ok = Schema.Literal(true)
const Anything = Schema.Unknown
const Rows = (description: string) => Schema.Array(Anything).annotations({ description })
const Obj = (description: string) => Schema.Record({ key: Schema.String, value: Anything }).annotations({ description })
const NullableObj = (description: string) =>
  Schema.NullOr(Schema.Record({ key: Schema.String, value: Anything })).annotations({ description })

/** What a copy between stores answers (src/layers/StoreTransfer.ts). */
const Transfer = Obj(
  "plan {revision, copied}, captures, journals [{study, events}], subscriptions, runs, reports, grants, grantEvents, executions (counts copied), files {copied, same} (execution logs included), kept (files there with other bytes, not overwritten), missing (named files the source lacks), skipped (named files at a path of dossier's own state here: .dossier/, plan.md, a journal's files; never written)."
)

const Unreadable = Schema.Literal("unreadable")
const UNREADABLE_ROW = "A record that cannot be read is listed by id with status unreadable and null fields."

const GrantState = Schema.Literal("active", "revoked", "expired", "exhausted")

const GrantStatus = {
  grant: StoredGrant,
  state: GrantState,
  deadline: Schema.String.annotations({
    description: "The soonest deadline of the grant and its ancestors (ISO-8601)."
  }),
  budget: Obj("The budget after narrowing: runs, wallSeconds, cpuSeconds, memoryMiB, outputMiB."),
  remaining: Obj(
    "What is left of the budget (same fields); grant show: not counting the runs of unreadableExecutions."
  ),
  events: Rows("The grant's events (schema grant-event)."),
  children: Schema.Array(Schema.String),
  chain: Schema.Array(Schema.String).annotations({ description: "The grant and its ancestors, nearest first." })
}

export const outputSchemas = (): Record<string, Schema.Schema.Any> => ({
  "init-output": Schema.Struct({
    ok: Ok,
    created: Schema.Boolean,
    paths: Schema.Array(Schema.String)
  }).annotations({
    description: "With --store (CLI), also store: {kind, url (no password), dossier, imported, pulled}."
  }),
  "store-status-output": Schema.Struct({
    ok: Ok,
    bound: Schema.Boolean,
    store: NullableObj(
      "null when unbound; else kind, url (without its password), dossier, schema {version, supported}, exists, reachable (true)."
    )
  }),
  "pull-output": Schema.Struct({ ok: Ok, dossier: Schema.String, transfer: Transfer }),
  "export-output": Schema.Struct({ ok: Ok, to: Schema.String, transfer: Transfer }),
  "status-output": Schema.Struct({
    ok: Ok,
    workdir: Schema.String,
    now: Schema.String,
    plan: NullableObj("goal, status, revision, nextAction, verification, completion; null without a plan."),
    planError: Schema.NullOr(Schema.Struct({ _tag: Schema.String, message: Schema.String })).annotations({
      description: "Why plan.md cannot be read (plan is then null too); null when it can, or there is none."
    }),
    studies: Schema.Array(Schema.Struct({
      study: Schema.String,
      events: Schema.NullOr(Schema.Number).annotations({ description: "null when the journal cannot be read" }),
      head: Schema.NullOr(Head),
      tail: Schema.Literal("clean", "unterminated", "corrupt"),
      selected: Schema.NullOr(SelectionView),
      checkpoint: Schema.NullOr(CheckpointView)
    })).annotations({ description: "Each study under research/ with a journal, as journal list lists it." }),
    monitor: Obj("subscriptions, due, activeRuns, unresolvedOutcomes (counts)."),
    grants: Obj(
      "active (count); damaged and unreadableExecutions, as grant list lists them."
    ),
    facts: Rows("The facts of `next`, each {kind, …}."),
    unchecked: Schema.Array(Schema.String).annotations({
      description: "What status does not verify (it would re-hash files): journal-artifacts, execution-outputs."
    }),
    suggestion: Schema.NullOr(Schema.String).annotations({ description: "The one command to run next." })
  }),
  "journal-list-output": Schema.Struct({
    ok: Ok,
    count: Schema.Number,
    studies: Schema.Array(Schema.Struct({
      study: Schema.String,
      events: Schema.NullOr(Schema.Number).annotations({ description: "null when the journal cannot be read" }),
      head: Schema.NullOr(Schema.Struct({ seq: Schema.Number, id: Schema.String })),
      tail: Schema.Literal("clean", "unterminated", "corrupt")
    })).annotations({
      description: "Each study under research/ with a journal (status adds selected and checkpoint)."
    })
  }),
  "monitor-list-output": Schema.Struct({
    ok: Ok,
    subscriptions: Schema.Array(Schema.Struct({
      id: Schema.String,
      status: Schema.Union(SubscriptionStatus, Unreadable),
      revision: Schema.NullOr(Schema.Number),
      kind: Schema.NullOr(SubscriptionKind),
      target: Schema.NullOr(Schema.String),
      nextDueAt: Schema.NullOr(Schema.String),
      nextWindowAt: Schema.NullOr(Schema.String).annotations({
        description: "When it is next due: with an active run, the window after the run's."
      }),
      activeRunId: Schema.NullOr(Schema.String)
    })).annotations({ description: `In creation order. ${UNREADABLE_ROW}` }),
    runs: Schema.Array(Schema.Struct({
      id: Schema.String,
      subscriptionId: Schema.NullOr(Schema.String),
      status: Schema.Union(RunStatus, Unreadable),
      revision: Schema.NullOr(Schema.Number),
      windowStart: Schema.NullOr(Schema.String)
    })).annotations({ description: `In creation order. ${UNREADABLE_ROW}` })
  }),
  "source-follow-output": Schema.Struct({
    ok: Ok,
    matches: Schema.Array(Schema.Struct({
      path: Schema.String,
      sha256: Schema.String,
      registered: Schema.Boolean.annotations({
        description: "Whether the file's current bytes are the ones the plan registered."
      }),
      origin: Schema.NullOr(Schema.String),
      start: Schema.Number.annotations({ description: "Code points into the file's text." }),
      end: Schema.Number,
      line: Schema.Number,
      paragraph: Schema.String,
      section: Schema.NullOr(Schema.String).annotations({ description: "The nearest heading above." })
    })),
    skipped: Rows(
      "Files under research/sources/ a search without --path could not read as text, each {path, error, message}: the error tag --path naming it answers (UnsafePath for a hard link, symlink or special file; LimitExceeded; InvalidInput for bytes that are not UTF-8; IoError) and its sentence; {path: research/sources, error: LimitExceeded} when it holds more files than are searched (10,000). Empty with --path."
    ),
    note: Schema.optional(Schema.String)
  }),
  "grant-create-output": Schema.Struct({
    ok: Ok,
    created: Schema.Boolean,
    grant: Schema.Struct({ ...StoredGrant.fields, state: GrantState }).annotations({
      description: "The stored grant (schema grant-record) with its state."
    })
  }),
  "grant-show-output": Schema.Struct({
    ok: Ok,
    ...GrantStatus,
    unreadableExecutions: Schema.Array(Schema.String).annotations({
      description:
        "Ids of execution records that do not decode (whose grant cannot be told): while any, what is left is not known and exec refuses."
    })
  }),
  "grant-narrow-output": Schema.Struct({ ok: Ok, ...GrantStatus }),
  "grant-list-output": Schema.Struct({
    ok: Ok,
    grants: Schema.Array(Schema.Struct({
      id: Schema.String,
      task: Schema.String,
      parent: Schema.NullOr(Schema.String),
      state: GrantStatus.state,
      deadline: GrantStatus.deadline,
      budget: GrantStatus.budget,
      remaining: GrantStatus.remaining,
      children: GrantStatus.children
    })),
    damaged: Schema.Array(Schema.Struct({ id: Schema.String, error: Schema.String })).annotations({
      description: "A grant whose record (or an ancestor's) cannot be read or verified; error: what grant show answers."
    }),
    unreadableExecutions: Schema.Array(Schema.String).annotations({
      description:
        "Ids of execution records that do not decode: runs charged to no grant, so remaining overstates; exec refuses until each is restored or removed."
    })
  }),
  "grant-revoke-output": Schema.Struct({
    ok: Ok,
    ...GrantStatus,
    appended: Schema.Boolean.annotations({
      description: "Whether this call recorded a revocation (false: the grant was revoked already)."
    }),
    revoked: Schema.Array(Schema.String).annotations({
      description: "The grant and descendants this revocation ended."
    })
  }),
  "exec-show-output": Schema.Struct({
    ok: Ok,
    execution: ExecutionRecord,
    authentication: Schema.Struct({
      authenticity: Authenticity,
      detail: Schema.String
    }).annotations({ description: "Is the record the one dossier signed (with this machine's key)?" }),
    verify: Schema.optional(
      Schema.Struct({
        checked: Schema.Number.annotations({ description: "How many files were re-hashed (stdout, stderr, outputs)." }),
        findings: Schema.Array(VerifyFinding),
        note: Schema.String
      }).annotations({ description: "With --verify: the record's signature and its files checked again." })
    )
  }),
  "schema-output": Schema.Struct({
    ok: Ok,
    names: Schema.optional(
      Schema.Array(Schema.String).annotations({ description: "Without a name: every schema name." })
    ),
    name: Schema.optional(Schema.String),
    schema: Schema.optional(Obj("The JSON Schema (draft-07)."))
  })
})
