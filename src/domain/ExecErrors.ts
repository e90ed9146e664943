/** Refusals of grants and confined execution (`dossier grant …`, `dossier exec`). */
import * as Schema from "effect/Schema"

export class GrantNotFound extends Schema.TaggedError<GrantNotFound>()("GrantNotFound", {
  grantId: Schema.String
}) {
  override get message() {
    return `No grant '${this.grantId}' in this work folder.`
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

export class ProtectedPathInGrant extends Schema.TaggedError<ProtectedPathInGrant>()("ProtectedPathInGrant", {
  path: Schema.String,
  root: Schema.String
}) {
  override get message() {
    return `The root '${this.root}' would expose the protected path '${this.path}'.`
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
    return `The run '${this.executionId}' used ${this.actual} of ${this.resource}, beyond the ${this.limit} left; it is recorded.`
  }
}

export class ExecutionNotFound extends Schema.TaggedError<ExecutionNotFound>()("ExecutionNotFound", {
  executionId: Schema.String
}) {
  override get message() {
    return `No execution '${this.executionId}' in this work folder.`
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
