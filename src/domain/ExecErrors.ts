/** Refusals of grants and confined execution (`dossier grant …`, `dossier exec`). */
import * as Schema from "effect/Schema"
import { placeOf } from "./Place.js"

export class GrantNotFound extends Schema.TaggedError<GrantNotFound>()("GrantNotFound", {
  grantId: Schema.String,
  /** The shared dossier searched, in a folder bound to a store (docs/store.md); absent in a plain folder. */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return `No grant '${this.grantId}' in ${placeOf(this.dossier)}.`
  }
}

export class ConflictingGrant extends Schema.TaggedError<ConflictingGrant>()("ConflictingGrant", {
  grantId: Schema.String
}) {
  override get message() {
    return `A grant '${this.grantId}' is already stored with other content; grants are immutable.`
  }
}

export class GrantWidening extends Schema.TaggedError<GrantWidening>()("GrantWidening", {
  field: Schema.String,
  detail: Schema.String
}) {
  override get message() {
    return `'${this.field}' would widen what the grant allows: ${this.detail}.`
  }
}

/**
 * Why a root was refused (`ProtectedPathInGrant.reason`): it would expose an always-protected path
 * (`.dossier/`, `plan.md`); it is `research` or a study folder, which holds (or will hold) the
 * study's journal; it lies in a journal's recovered or legacy folder; it is a work root in an area
 * dossier owns (`research/sources`, `results`, `inputs`, `gate`); it lies inside (or, for the work
 * root, contains) one of the grant's own `protected` entries, or one an ancestor grant protects;
 * it overlaps the work root of another task's active grant.
 */
export const ProtectedReason = Schema.Literal(
  "always-protected",
  "study-folder",
  "journal-file",
  "dossier-owned",
  "protected",
  "ancestor-protected",
  "other-task-work"
)
export type ProtectedReason = typeof ProtectedReason.Type

export class ProtectedPathInGrant extends Schema.TaggedError<ProtectedPathInGrant>()("ProtectedPathInGrant", {
  path: Schema.String,
  root: Schema.String,
  reason: Schema.optionalWith(ProtectedReason, { exact: true })
}) {
  override get message() {
    switch (this.reason) {
      case "study-folder":
        return `The root '${this.root}' is a study folder: its journal '${this.path}' is always protected, whether or not it exists yet, and no entry of 'protected' can change that; grant a folder below it instead (e.g. '${this.root}/data').`
      case "journal-file":
        return `The root '${this.root}' lies in '${this.path}', which holds a study's journal; grant a folder outside it.`
      case "dossier-owned":
        return `The work root '${this.root}' lies in '${this.path}', which dossier owns and a run may never write; choose a work root elsewhere (e.g. 'research/<study>/runs/<name>').`
      case "ancestor-protected":
        return `The root '${this.root}' would expose '${this.path}', which an ancestor grant protects; choose a root outside it (a child grant never sees what an ancestor hides).`
      case "protected":
        return this.path.startsWith(`${this.root}/`)
          ? `The root '${this.root}' contains the protected path '${this.path}', and a work root is never masked; move '${this.path}' out of it or choose a work root beside it.`
          : `The root '${this.root}' lies inside the protected path '${this.path}'; choose a root outside it.`
      case "other-task-work":
        return `The root '${this.root}' overlaps '${this.path}', the work root of another task's active grant; choose a root outside it, or revoke that grant once its task is done.`
      case "always-protected":
        return this.path.startsWith(`${this.root}/`)
          ? `The root '${this.root}' holds '${this.path}', the marker of a work folder: a run would see that folder's records (and, in a work root, could change them, and a command run inside it would take it for its work folder); move that folder out of the root, or choose a root beside it.`
          : `The root '${this.root}' would expose '${this.path}', which dossier always protects (its own records, the plan); grant a folder of research beside them instead (e.g. 'research/<study>/data').`
      default:
        return `The root '${this.root}' would expose the protected path '${this.path}'; choose a root that does not contain it.`
    }
  }
}

export const GrantState = Schema.Literal("active", "revoked", "expired", "exhausted")
export type GrantState = typeof GrantState.Type

export class GrantInactive extends Schema.TaggedError<GrantInactive>()("GrantInactive", {
  grantId: Schema.String,
  state: GrantState
}) {
  override get message() {
    return `The grant '${this.grantId}' is ${this.state}; nothing runs under it.`
  }
}

export class GrantDigestMismatch extends Schema.TaggedError<GrantDigestMismatch>()("GrantDigestMismatch", {
  grantId: Schema.String
}) {
  override get message() {
    return `The stored grant '${this.grantId}' does not match its digest or its signature; it was altered and is not used.`
  }
}

export class RootIdentityChanged extends Schema.TaggedError<RootIdentityChanged>()("RootIdentityChanged", {
  grantId: Schema.String,
  path: Schema.String
}) {
  override get message() {
    return `The root '${this.path}' of grant '${this.grantId}' is no longer the directory that was granted.`
  }
}

export class SandboxUnavailable extends Schema.TaggedError<SandboxUnavailable>()("SandboxUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `No confined run is possible here (${this.reason}); dossier never runs a program unconfined.`
  }
}

export const BudgetResource = Schema.Literal("runs", "wallSeconds", "cpuSeconds", "memoryMiB", "outputMiB")
export type BudgetResource = typeof BudgetResource.Type

export class BudgetExhausted extends Schema.TaggedError<BudgetExhausted>()("BudgetExhausted", {
  grantId: Schema.String,
  resource: BudgetResource
}) {
  override get message() {
    return `The grant '${this.grantId}' has no ${this.resource} left.`
  }
}

export class BudgetExceeded extends Schema.TaggedError<BudgetExceeded>()("BudgetExceeded", {
  grantId: Schema.String,
  resource: BudgetResource,
  executionId: Schema.String,
  limit: Schema.Number,
  actual: Schema.Number
}) {
  override get message() {
    // `actual` and `limit` are in the unit named here (bytes for outputMiB), not the field's.
    const unit = EXCEEDED_UNITS[this.resource]
    return `The run '${this.executionId}' used ${this.actual} ${unit}, beyond the ${this.limit} ${unit} left (${this.resource}); it is recorded.`
  }
}

/** The unit of `actual` and `limit` of a BudgetExceeded, per resource. */
const EXCEEDED_UNITS: Record<BudgetResource, string> = {
  runs: "runs",
  wallSeconds: "wall seconds",
  cpuSeconds: "CPU seconds",
  memoryMiB: "MiB of memory",
  outputMiB: "bytes of output"
}

export class ExecutionNotFound extends Schema.TaggedError<ExecutionNotFound>()("ExecutionNotFound", {
  executionId: Schema.String,
  /** The shared dossier searched, in a folder bound to a store (docs/store.md); absent in a plain folder. */
  dossier: Schema.optional(Schema.String)
}) {
  override get message() {
    return `No execution '${this.executionId}' in ${placeOf(this.dossier)}.`
  }
}

export class ExecutionDigestMismatch extends Schema.TaggedError<ExecutionDigestMismatch>()("ExecutionDigestMismatch", {
  executionId: Schema.String
}) {
  override get message() {
    return `The execution record '${this.executionId}' does not match its receipt digest or its signature; it was altered.`
  }
}

export class EvidenceKeyUnavailable extends Schema.TaggedError<EvidenceKeyUnavailable>()("EvidenceKeyUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `Grants and execution records cannot be signed: ${this.reason}.`
  }
}

export const Authenticity = Schema.Literal("signed", "unsigned", "unverifiable", "tampered")
export type Authenticity = typeof Authenticity.Type

export class GrantUnauthenticated extends Schema.TaggedError<GrantUnauthenticated>()("GrantUnauthenticated", {
  grantId: Schema.String,
  authenticity: Schema.Literal("unsigned", "unverifiable"),
  detail: Schema.String
}) {
  override get message() {
    return `The grant '${this.grantId}' cannot be authenticated (${this.detail}); nothing runs under it and no child is made from it.`
  }
}

export const ExecErrors = [
  GrantNotFound,
  ConflictingGrant,
  GrantWidening,
  ProtectedPathInGrant,
  GrantInactive,
  GrantDigestMismatch,
  RootIdentityChanged,
  SandboxUnavailable,
  BudgetExhausted,
  BudgetExceeded,
  ExecutionNotFound,
  ExecutionDigestMismatch,
  EvidenceKeyUnavailable,
  GrantUnauthenticated
] as const
export type ExecError = InstanceType<(typeof ExecErrors)[number]>
