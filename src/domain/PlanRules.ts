/**
 * The plan's decisions as pure functions: verification findings, the completion rule, and how a
 * checkpoint changes the document given the digests the shell measured.
 */
import * as Either from "effect/Either"
import { EditedRetainedFile, InvalidInput, LimitExceeded, type PathOutsideArea, type UnsafePath } from "./Errors.js"
import { checkOrigin } from "./IngestContent.js"
import type { CredentialsInUrl, InvalidUrl, UnsupportedScheme } from "./IngestErrors.js"
import { normalizeInArea, normalizeRelative } from "./Paths.js"
import {
  type CompletedStep,
  type Completion,
  type Finding,
  PLAN_LIMITS,
  type PlanCheckpointInput,
  type PlanDocument,
  type PlanStartInput,
  type RegisteredOutput,
  type RegisteredSource,
  RESULTS_AREA,
  SOURCES_AREA,
  type Verification
} from "./Plan.js"
import { CompletionRefused, UnregisteredDependency } from "./PlanErrors.js"

/** What the shell found at a path: its digest, nothing, or an unsafe entry (never followed). */
export type Observed =
  | { readonly _tag: "Present"; readonly sha256: string; readonly bytes: number }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Unsafe"; readonly reason: string }

export type Observations = ReadonlyMap<string, Observed>

/** Every path whose current bytes verification needs. */
export const pathsToObserve = (doc: PlanDocument): ReadonlyArray<string> => {
  const set = new Set<string>()
  for (const s of doc.sources) set.add(s.path)
  for (const o of doc.outputs) {
    set.add(o.path)
    for (const d of o.dependsOn) set.add(d.path)
  }
  return [...set]
}

const observedOf = (obs: Observations, path: string): Observed => obs.get(path) ?? { _tag: "Missing" }

/** Verification findings, in document order: sources, then each output and its dependencies. */
export const verify = (doc: PlanDocument, obs: Observations): Verification => {
  const findings: Array<Finding> = []
  for (const s of doc.sources) {
    const o = observedOf(obs, s.path)
    if (o._tag === "Missing") findings.push({ kind: "source-missing", path: s.path, expected: s.sha256 })
    else if (o._tag === "Unsafe") {
      findings.push({ kind: "source-changed", path: s.path, expected: s.sha256, actual: `unsafe:${o.reason}` })
    } else if (o.sha256 !== s.sha256) {
      findings.push({ kind: "source-changed", path: s.path, expected: s.sha256, actual: o.sha256 })
    }
  }
  for (const out of doc.outputs) {
    const o = observedOf(obs, out.path)
    if (o._tag === "Missing") findings.push({ kind: "output-missing", path: out.path, expected: out.sha256 })
    else if (o._tag === "Unsafe") {
      findings.push({ kind: "output-changed", path: out.path, expected: out.sha256, actual: `unsafe:${o.reason}` })
    } else if (o.sha256 !== out.sha256) {
      findings.push({ kind: "output-changed", path: out.path, expected: out.sha256, actual: o.sha256 })
    }
    for (const d of out.dependsOn) {
      const od = observedOf(obs, d.path)
      const actual = od._tag === "Present" ? od.sha256 : od._tag === "Missing" ? "missing" : `unsafe:${od.reason}`
      if (actual !== d.sha256) {
        findings.push({ kind: "stale-dependency", path: out.path, dependency: d.path, expected: d.sha256, actual })
      }
    }
  }
  return { state: findings.length === 0 ? "current" : "needs-attention", findings }
}

/** Completion needs ≥ 1 output, no findings and nothing unresolved; `missing` says what lacks. */
export const completion = (doc: PlanDocument, verification: Verification): Completion => {
  const missing: Array<string> = []
  if (doc.outputs.length === 0) missing.push("at least one registered output")
  if (verification.findings.length > 0) {
    missing.push(`verification has ${verification.findings.length} finding(s) to resolve`)
  }
  if (doc.unresolved.length > 0) missing.push(`${doc.unresolved.length} unresolved item(s)`)
  return { ready: missing.length === 0, missing }
}

export const newPlan = (input: PlanStartInput, now: string): PlanDocument => ({
  version: 1,
  revision: 1,
  goal: input.goal,
  limits: input.limits,
  status: "in_progress",
  nextAction: input.nextAction,
  completedSteps: [],
  sources: [],
  outputs: [],
  unresolved: [],
  previousGoals: [],
  createdAt: now,
  updatedAt: now
})

/**
 * Why a revision given to `plan start` without replacing the goal is refused (it would be
 * ignored, or judged against a plan nobody asked to change): `given` names the revision as the
 * caller gave it, `replace` the switch it goes with.
 */
export const expectedOnlyWithReplace = (given: string, replace: string): string =>
  `${given} only goes with ${replace}: it names the plan revision whose goal you replace (after reconciling with its owner); to create the plan or repeat its goal, leave it out`

/**
 * The revision a write gives the plan. A revision is a whole number a JSON reader keeps exactly;
 * a section edited by hand to the largest one cannot take another write.
 */
export const nextRevision = (doc: PlanDocument): Either.Either<number, LimitExceeded> =>
  doc.revision < Number.MAX_SAFE_INTEGER
    ? Either.right(doc.revision + 1)
    : Either.left(new LimitExceeded({ limit: "revision", max: Number.MAX_SAFE_INTEGER, actual: doc.revision + 1 }))

export const replaceGoal = (
  doc: PlanDocument,
  input: PlanStartInput,
  now: string
): Either.Either<PlanDocument, LimitExceeded> =>
  Either.map(nextRevision(doc), (revision) => ({
    ...doc,
    revision,
    goal: input.goal,
    limits: input.limits,
    nextAction: input.nextAction,
    status: "in_progress",
    previousGoals: [...doc.previousGoals, { goal: doc.goal, replacedAt: now }],
    updatedAt: now
  }))

/** The paths a checkpoint input names, normalized and checked against their areas. */
export interface CheckpointPaths {
  readonly sources: ReadonlyArray<{ readonly path: string; readonly origin: string }>
  readonly outputs: ReadonlyArray<{ readonly path: string; readonly dependsOn: ReadonlyArray<string> }>
}

export const checkpointPaths = (
  input: PlanCheckpointInput
): Either.Either<
  CheckpointPaths,
  UnsafePath | PathOutsideArea | InvalidInput | InvalidUrl | UnsupportedScheme | CredentialsInUrl
> => {
  // An absolute path, or one that names no file, is refused naming the field (never echoing the
  // machine's path), as every other bad input is.
  const named = <A>(field: string, r: Either.Either<A, UnsafePath | PathOutsideArea>) =>
    Either.mapLeft(r, (e) =>
      e._tag === "UnsafePath" && (e.reason === "absolute" || e.reason === "invalid")
        ? new InvalidInput({
          issues: [{
            path: field,
            message: e.reason === "absolute"
              ? "an absolute path; paths are relative to the work folder"
              : "not a file's path (empty, '.' or holding a NUL character)"
          }]
        })
        : e)
  const sources: Array<{ path: string; origin: string }> = []
  for (const [i, s] of (input.sources ?? []).entries()) {
    const p = named(`sources.${i}.path`, normalizeInArea(s.path, SOURCES_AREA))
    if (Either.isLeft(p)) return Either.left(p.left)
    // An origin is the absolute http(s) URL the file came from, as `ingest --file --origin` takes
    // it (the same tags); a user or password in it would be written into plan.md.
    const origin = checkOrigin(s.origin)
    if (Either.isLeft(origin)) return Either.left(origin.left)
    sources.push({ path: p.right, origin: origin.right })
  }
  const outputs: Array<{ path: string; dependsOn: Array<string> }> = []
  for (const [i, o] of (input.outputs ?? []).entries()) {
    const p = named(`outputs.${i}.path`, normalizeInArea(o.path, RESULTS_AREA))
    if (Either.isLeft(p)) return Either.left(p.left)
    const deps: Array<string> = []
    for (const [j, d] of o.dependsOn.entries()) {
      const dp = named(`outputs.${i}.dependsOn.${j}`, normalizeRelative(d))
      if (Either.isLeft(dp)) return Either.left(dp.left)
      if (dp.right === p.right) {
        return Either.left(
          new InvalidInput({
            issues: [{ path: `outputs.${i}.dependsOn.${j}`, message: "an output cannot depend on itself" }]
          })
        )
      }
      if (!deps.includes(dp.right)) deps.push(dp.right)
    }
    outputs.push({ path: p.right, dependsOn: deps })
  }
  return Either.right({ sources, outputs })
}

export type CheckpointError = LimitExceeded | EditedRetainedFile | UnregisteredDependency | InvalidInput

/** An origin as checkpoints store it (a plan written before origins were checked keeps its text). */
const sameOrigin = (a: string, b: string): boolean =>
  a === b || Either.getOrElse(checkOrigin(a), () => a) === Either.getOrElse(checkOrigin(b), () => b)

/**
 * The first source of the input registered (in `doc`, or earlier in this input) with another
 * origin: a registration is write-once, its origin as much as its bytes, so the record never keeps
 * an origin the caller no longer gives. `InvalidInput` at `sources.<i>.origin`, naming both.
 */
export const originConflict = (doc: PlanDocument, paths: CheckpointPaths): InvalidInput | undefined => {
  const known = new Map<string, { readonly origin: string; readonly at?: number }>(
    doc.sources.map((s) => [s.path, { origin: s.origin }])
  )
  for (const [i, s] of paths.sources.entries()) {
    const first = known.get(s.path)
    if (first === undefined) {
      known.set(s.path, { origin: s.origin, at: i })
      continue
    }
    if (!sameOrigin(first.origin, s.origin)) {
      // Registered by an earlier checkpoint, or given earlier in this same input (nothing registered yet).
      const where = first.at === undefined
        ? `is registered with origin '${first.origin}'`
        : `is given with origin '${first.origin}' at sources.${first.at}`
      return new InvalidInput({
        issues: [{
          path: `sources.${i}.origin`,
          message: `'${s.path}' ${where}, not '${s.origin}'; ` +
            "a source's origin is recorded once (give the recorded one, or capture to a new file)"
        }]
      })
    }
  }
  return undefined
}

/**
 * The first output dependency that is neither a registered source or output of `doc` nor a
 * source or earlier output of this input (`applyCheckpoint`'s rule). Judged from the input and
 * the plan alone, before any file is hashed, so a dependency that is neither registered nor on
 * disk is `UnregisteredDependency`, never `FileNotFound`.
 */
export const unregisteredDependency = (
  doc: PlanDocument,
  paths: CheckpointPaths
): UnregisteredDependency | undefined => {
  const known = new Set<string>([
    ...doc.sources.map((s) => s.path),
    ...doc.outputs.map((o) => o.path),
    ...paths.sources.map((s) => s.path)
  ])
  for (const o of paths.outputs) {
    for (const dep of o.dependsOn) {
      if (!known.has(dep)) return new UnregisteredDependency({ output: o.path, path: dep })
    }
    known.add(o.path)
  }
  return undefined
}

/**
 * Apply a checkpoint to a document. `digest(path)` is the current digest of a named file (the
 * shell has hashed every source, output and dependency the input names). A checkpoint that sets
 * `status: "complete"` must then pass `requireComplete` on the resulting document.
 */
export const applyCheckpoint = (
  doc: PlanDocument,
  input: PlanCheckpointInput,
  paths: CheckpointPaths,
  digest: (path: string) => { readonly sha256: string; readonly bytes: number },
  now: string
): Either.Either<PlanDocument, CheckpointError> => {
  const revision = nextRevision(doc)
  if (Either.isLeft(revision)) return Either.left(revision.left)
  const conflict = originConflict(doc, paths)
  if (conflict !== undefined) return Either.left(conflict)
  // Completed steps: append; a recorded id (or one earlier in this input) is skipped.
  const steps: Array<CompletedStep> = [...doc.completedSteps]
  const ids = new Set(doc.completedSteps.flatMap((s) => (s.id === undefined ? [] : [s.id])))
  for (const s of input.completedSteps ?? []) {
    if (s.id !== undefined) {
      if (ids.has(s.id)) continue
      ids.add(s.id)
    }
    steps.push(s.id === undefined ? { summary: s.summary, at: now } : { summary: s.summary, at: now, id: s.id })
  }
  if (steps.length > PLAN_LIMITS.completedSteps) {
    return Either.left(
      new LimitExceeded({ limit: "completedSteps", max: PLAN_LIMITS.completedSteps, actual: steps.length })
    )
  }

  // Sources: write-once registration.
  const sources: Array<RegisteredSource> = [...doc.sources]
  for (const s of paths.sources) {
    const d = digest(s.path)
    const existing = sources.find((x) => x.path === s.path)
    if (existing !== undefined) {
      if (existing.sha256 !== d.sha256) {
        return Either.left(new EditedRetainedFile({ path: s.path, expected: existing.sha256, actual: d.sha256 }))
      }
      continue
    }
    sources.push({ path: s.path, origin: s.origin, bytes: d.bytes, sha256: d.sha256 })
  }
  if (sources.length > PLAN_LIMITS.sources) {
    return Either.left(new LimitExceeded({ limit: "sources", max: PLAN_LIMITS.sources, actual: sources.length }))
  }

  // Outputs: (re)bind to current bytes and dependencies' current digests.
  const outputs: Array<RegisteredOutput> = [...doc.outputs]
  for (const o of paths.outputs) {
    for (const dep of o.dependsOn) {
      const known = sources.some((s) => s.path === dep) || outputs.some((x) => x.path === dep)
      if (!known) return Either.left(new UnregisteredDependency({ output: o.path, path: dep }))
    }
    const d = digest(o.path)
    const entry: RegisteredOutput = {
      path: o.path,
      bytes: d.bytes,
      sha256: d.sha256,
      dependsOn: o.dependsOn.map((p) => ({ path: p, sha256: digest(p).sha256 }))
    }
    const at = outputs.findIndex((x) => x.path === o.path)
    if (at === -1) outputs.push(entry)
    else outputs[at] = entry
  }
  if (outputs.length > PLAN_LIMITS.outputs) {
    return Either.left(new LimitExceeded({ limit: "outputs", max: PLAN_LIMITS.outputs, actual: outputs.length }))
  }

  return Either.right({
    ...doc,
    revision: revision.right,
    completedSteps: steps,
    sources,
    outputs,
    unresolved: input.unresolved ?? doc.unresolved,
    status: input.status ?? doc.status,
    nextAction: input.nextAction ?? doc.nextAction,
    updatedAt: now
  })
}

/** The completion rule for a document about to be marked complete, given what its files hold now. */
export const requireComplete = (
  doc: PlanDocument,
  obs: Observations
): Either.Either<PlanDocument, CompletionRefused> => {
  const v = verify(doc, obs)
  const c = completion(doc, v)
  if (c.ready) return Either.right(doc)
  const reasons = [
    ...c.missing,
    ...v.findings.map((f) => `${f.kind}: ${f.path}${f.dependency ? ` (${f.dependency})` : ""}`)
  ]
  return Either.left(new CompletionRefused({ reasons }))
}
