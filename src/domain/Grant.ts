/**
 * Grants: what a confined run may touch (input roots read-only, one work root read-write,
 * nothing else), what it may spend (a budget carved from its parent's), until when. The pure
 * part: input schemas, the stored form and its digest, path rules (always-protected paths,
 * containment of a child in its parent), and the state and remaining budget of a grant from
 * its stored record, its appended events, its children and its executions.
 *
 * Over 400 lines: the stored form, its digest and the rules over it change together; a split would
 * let the digest and the schema drift.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { canonicalDigest, normalizeTimestamp } from "./Canonical.js"
import { InvalidInput, UnsafePath } from "./Errors.js"
import { Signature } from "./Evidence.js"
import {
  type BudgetResource,
  type GrantState,
  GrantWidening,
  ProtectedPathInGrant,
  type ProtectedReason
} from "./ExecErrors.js"
import { ID, idProblem, RESERVED_STUDY_IDS } from "./Ids.js"
import { isUnder, normalizeRelative } from "./Paths.js"

/** Grant ids follow the id rule (./Ids.ts). */
export const GRANT_ID = ID
const GrantId = Schema.String.pipe(Schema.pattern(GRANT_ID, { message: (issue) => idProblem("grant", issue.actual) }))
export const TOOLS = ["read", "bash", "notebook"] as const
export type Tool = (typeof TOOLS)[number]

const Iso = Schema.String.pipe(
  Schema.filter(
    (s) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
    {
      message: () => "expected an ISO-8601 instant with Z or an offset"
    }
  )
)
const Count = (max: number) => Schema.Number.pipe(Schema.int(), Schema.between(0, max))

export const GrantBudget = Schema.Struct({
  runs: Count(1_000_000),
  wallSeconds: Count(365 * 86_400),
  cpuSeconds: Count(365 * 86_400),
  memoryMiB: Count(1_048_576).pipe(Schema.greaterThanOrEqualTo(16)),
  outputMiB: Count(1_048_576)
})
export type GrantBudget = typeof GrantBudget.Type
export const BUDGET_FIELDS: ReadonlyArray<BudgetResource> = [
  "runs",
  "wallSeconds",
  "cpuSeconds",
  "memoryMiB",
  "outputMiB"
]
/** Figures spent by runs and carved out for children; `memoryMiB` is a per-run ceiling, never spent. */
export const SPENT_FIELDS: ReadonlyArray<BudgetResource> = ["runs", "wallSeconds", "cpuSeconds", "outputMiB"]

const RelPath = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1024))

/** The input of `dossier grant create`. */
export const GrantInput = Schema.Struct({
  id: Schema.optionalWith(GrantId, { exact: true }),
  task: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)),
  parent: Schema.optionalWith(GrantId, { exact: true }),
  inputs: Schema.optionalWith(Schema.Array(RelPath).pipe(Schema.maxItems(64)), { exact: true, default: () => [] }),
  work: RelPath,
  protected: Schema.optionalWith(Schema.Array(RelPath).pipe(Schema.maxItems(256)), { exact: true, default: () => [] }),
  tools: Schema.Array(Schema.Literal(...TOOLS)).pipe(Schema.maxItems(3)),
  budget: GrantBudget,
  deadline: Iso,
  candidateId: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(128)), { exact: true })
}).annotations({ identifier: "GrantInput" })
export type GrantInput = typeof GrantInput.Type

/** The input of `dossier grant narrow`: a sooner deadline and/or smaller budget figures. */
export const NarrowInput = Schema.Struct({
  deadline: Schema.optionalWith(Iso, { exact: true }),
  budget: Schema.optionalWith(Schema.partial(GrantBudget), { exact: true }),
  reason: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1024)), { exact: true })
}).annotations({ identifier: "NarrowInput" })
export type NarrowInput = typeof NarrowInput.Type

/** A directory's canonical identity: its real path relative to the work folder, device and inode. */
export const RootIdentity = Schema.Struct({ path: Schema.String, device: Schema.String, inode: Schema.String })
export type RootIdentity = typeof RootIdentity.Type

/** The stored grant (without its digest, which is computed over exactly this). */
export const GrantContent = Schema.Struct({
  id: Schema.String,
  task: Schema.String,
  parent: Schema.NullOr(Schema.String),
  inputs: Schema.Array(RootIdentity),
  work: RootIdentity,
  protected: Schema.Array(Schema.String),
  tools: Schema.Array(Schema.Literal(...TOOLS)),
  budget: GrantBudget,
  deadline: Schema.String,
  network: Schema.Literal("offline"),
  candidateId: Schema.NullOr(Schema.String)
})
export type GrantContent = typeof GrantContent.Type

/** The stored grant: its content, the digest over it, and the signature over that digest (absent in grants made before signing). */
export const StoredGrant = Schema.Struct({
  ...GrantContent.fields,
  digest: Schema.String,
  signature: Schema.optionalWith(Signature, { exact: true })
})
export type StoredGrant = typeof StoredGrant.Type

export const GrantEvent = Schema.Union(
  Schema.Struct({ type: Schema.Literal("revoked"), at: Schema.String, reason: Schema.NullOr(Schema.String) }),
  Schema.Struct({
    type: Schema.Literal("narrowed"),
    at: Schema.String,
    deadline: Schema.NullOr(Schema.String),
    budget: Schema.partial(GrantBudget),
    reason: Schema.NullOr(Schema.String)
  })
)
export type GrantEvent = typeof GrantEvent.Type

export const grantDigest = (content: GrantContent): string => canonicalDigest(content)

export const sealGrant = (content: GrantContent): StoredGrant => ({ ...content, digest: grantDigest(content) })

/** The id a grant gets when its input names none: derived from the input's content. */
export const derivedGrantId = (input: GrantInput): string => {
  const { id: _id, ...rest } = input
  return `g-${canonicalDigest(rest).slice(0, 16)}`
}

// ---------------------------------------------------------------------------------------------
// Paths

/** Paths never visible to a confined run, whatever a grant says. */
export const ALWAYS_PROTECTED = [".dossier", "plan.md", "research/<study>/research-events.jsonl"] as const
/** Folders of `research/` that are not studies (Journal's reserved study ids). */
const STUDY_RESERVED = new Set(RESERVED_STUDY_IDS)
/** Areas dossier owns below `research/`: readable by a run, never its work root. */
export const OWNED_AREAS: ReadonlyArray<string> = [
  "research/sources",
  "research/results",
  "research/inputs",
  "research/gate"
]
/** Folders of a study that hold its journal's recovered tails and legacy snapshots. */
const JOURNAL_FOLDERS = new Set(["recovered", "legacy"])

/** `a` equals `b` or lies below it. */
export const within = (a: string, b: string): boolean => a === b || isUnder(a, b)
export const overlaps = (a: string, b: string): boolean => within(a, b) || within(b, a)
/**
 * `within` and `isUnder` as a reader takes the names (NFC-equal at each component: `/` never
 * composes, so the whole path's NFC is its components'): a root spelt `cafe` + U+0301 lies inside
 * a protected `café`.
 */
const readerWithin = (a: string, b: string): boolean => within(a.normalize("NFC"), b.normalize("NFC"))
const readerUnder = (a: string, b: string): boolean => isUnder(a.normalize("NFC"), b.normalize("NFC"))

/** Why a root may not be granted whatever `protected` says, and the path it would expose. */
export interface Reserved {
  readonly path: string
  readonly reason: ProtectedReason
}

/**
 * The reason a root may never be granted, if any. Any root: `.dossier/` and below (and any
 * `.dossier` folder at any depth, with what is below it), `plan.md`,
 * `research` itself, a study folder `research/<study>` (it holds — or will hold — the study's
 * journal, manifest and index: a root is refused whether or not they exist yet, because a mask can
 * only hide what exists when the run starts), and a study's `recovered/` or `legacy/` folder. A
 * work root, besides: anything in `research/sources`, `research/results`, `research/inputs` or
 * `research/gate` (write-once captures, bound results, input files, the gate's research).
 */
export const reservedRoot = (root: string, role: "input" | "work"): Reserved | undefined => {
  if (within(root, ".dossier")) return { path: ".dossier", reason: "always-protected" }
  // A `.dossier` folder at any depth is a work folder's private state (a nested dossier's), and a
  // work root there would make its parent a work folder for any command run from inside it.
  const marker = root.split("/").indexOf(".dossier")
  if (marker !== -1) return { path: root.split("/").slice(0, marker + 1).join("/"), reason: "always-protected" }
  if (root === "plan.md") return { path: "plan.md", reason: "always-protected" }
  if (root === "research") return { path: "research/<study>/research-events.jsonl", reason: "study-folder" }
  const parts = root.split("/")
  if (parts[0] === "research" && parts.length >= 2 && !STUDY_RESERVED.has(parts[1]!)) {
    if (parts.length === 2) return { path: `${root}/research-events.jsonl`, reason: "study-folder" }
    if (JOURNAL_FOLDERS.has(parts[2]!)) return { path: parts.slice(0, 3).join("/"), reason: "journal-file" }
  }
  if (role === "work") {
    const area = OWNED_AREAS.find((a) => within(root, a))
    if (area !== undefined) return { path: area, reason: "dossier-owned" }
  }
  return undefined
}

/** The always-protected path a root would expose (or lie inside), if any (any role). */
export const alwaysProtectedIn = (root: string): string | undefined => reservedRoot(root, "input")?.path

export interface CheckedPaths {
  readonly inputs: ReadonlyArray<string>
  readonly work: string
  readonly protected: ReadonlyArray<string>
}

/** The refusal names the field and the path as normalizeRelative shows it (an absolute path is never echoed). */
const normalized = (field: string, p: string): Either.Either<string, UnsafePath> =>
  Either.mapLeft(normalizeRelative(p), (e) => new UnsafePath({ path: `${field}: ${e.path}`, reason: e.reason }))

/**
 * Normalize the roots and apply the protection rules: no root is reserved (`reservedRoot`); no
 * root lies inside a `protected` entry; the work root contains no `protected` entry (an entry
 * below an input root is masked in the sandbox instead); inputs and work do not overlap. Inside
 * and below compare names as a reader takes them (`readerWithin`).
 */
export const checkPaths = (
  input: GrantInput
): Either.Either<CheckedPaths, UnsafePath | ProtectedPathInGrant | InvalidInput> =>
  Either.gen(function*() {
    const work = yield* normalized("work", input.work)
    const inputs: Array<string> = []
    for (const p of input.inputs) {
      const n = yield* normalized("inputs", p)
      if (!inputs.includes(n)) inputs.push(n)
    }
    const prot: Array<string> = []
    for (const p of input.protected) {
      const n = yield* normalized("protected", p)
      if (!prot.includes(n)) prot.push(n)
    }
    for (const [root, role] of [...inputs.map((i) => [i, "input"] as const), [work, "work"] as const]) {
      const hit = reservedRoot(root, role)
      if (hit !== undefined) {
        return yield* Either.left(new ProtectedPathInGrant({ path: hit.path, root, reason: hit.reason }))
      }
      const inside = prot.find((p) => readerWithin(root, p))
      if (inside !== undefined) {
        return yield* Either.left(new ProtectedPathInGrant({ path: inside, root, reason: "protected" }))
      }
    }
    const inWork = prot.find((p) => readerUnder(p, work))
    if (inWork !== undefined) {
      return yield* Either.left(new ProtectedPathInGrant({ path: inWork, root: work, reason: "protected" }))
    }
    const clash = inputs.find((i) => overlaps(i, work))
    if (clash !== undefined) {
      return yield* Either.left(
        new InvalidInput({ issues: [{ path: "work", message: `the work root overlaps the input root '${clash}'` }] })
      )
    }
    return { inputs, work, protected: prot }
  })

/**
 * What a grant hides, given what its ancestors hide: its own `protected` entries and every
 * ancestor's (a child never sees what an ancestor protects). Refused when one of its roots lies
 * inside an entry an ancestor protects, or its work root contains one (the work root is never
 * masked): `ProtectedPathInGrant {reason: "ancestor-protected"}`, in any Unicode spelling of
 * the entry (`readerWithin`). Entries come out normalized, each once, the grant's own first.
 */
export const inheritProtection = (
  grant: { readonly inputs: ReadonlyArray<string>; readonly work: string; readonly protected: ReadonlyArray<string> },
  ancestors: ReadonlyArray<{ readonly protected: ReadonlyArray<string> }>
): Either.Either<ReadonlyArray<string>, ProtectedPathInGrant> => {
  const out = [...grant.protected]
  for (const a of ancestors) {
    for (const p of a.protected) {
      for (const root of [...grant.inputs, grant.work]) {
        if (readerWithin(root, p)) {
          return Either.left(new ProtectedPathInGrant({ path: p, root, reason: "ancestor-protected" }))
        }
      }
      if (readerUnder(p, grant.work)) {
        return Either.left(new ProtectedPathInGrant({ path: p, root: grant.work, reason: "ancestor-protected" }))
      }
      if (!out.includes(p)) out.push(p)
    }
  }
  return Either.right(out)
}

/** Two names of a folder are one to a reader when their Unicode NFC forms are (`café` typed, `café` from a Mac). */
export const sameNameToAReader = (a: string, b: string): boolean => a === b || a.normalize("NFC") === b.normalize("NFC")

/**
 * A `protected` entry masks the path spelt exactly as written: the sandbox's mount and the
 * folder's names are bytes. `spellings` maps each entry to the paths of the folder that a reader
 * would take for it (`sameNameToAReader` at every component). Each of those not listed in
 * `protected` itself would stay visible while the grant looked as if it hid it: an issue at the
 * entry's field, naming the spelling to add. Empty when every spelling is protected.
 */
export const unprotectedSpellings = (
  entries: ReadonlyArray<{ readonly field: string; readonly path: string }>,
  spellings: ReadonlyMap<string, ReadonlyArray<string>>
): ReadonlyArray<{ path: string; message: string }> => {
  const listed = new Set(entries.map((e) => e.path))
  const issues: Array<{ path: string; message: string }> = []
  for (const e of entries) {
    for (const other of spellings.get(e.path) ?? []) {
      if (listed.has(other)) continue
      issues.push({
        path: e.field,
        message: `'${e.path}' does not protect '${other}', the same name in another Unicode form (${
          other.normalize("NFC") === other ? "NFC" : other.normalize("NFD") === other ? "NFD" : "mixed"
        }) in the folder: the mask applies to the exact bytes; list '${other}' in protected too (or instead)`
      })
    }
  }
  return issues
}

/** The `protected` entries that lie below one of the input roots: masked inside the sandbox. */
export const maskedPaths = (
  grant: { readonly inputs: ReadonlyArray<{ readonly path: string }>; readonly protected: ReadonlyArray<string> }
): ReadonlyArray<string> => grant.protected.filter((p) => grant.inputs.some((i) => isUnder(p, i.path)))

/**
 * The masks a sandbox mounts: each path once, none inside another (a path below a masked
 * directory is hidden with it, and a mount below a read-only empty directory cannot be made).
 * Order kept.
 */
export const outermostMasks = <M extends { readonly path: string }>(masks: ReadonlyArray<M>): ReadonlyArray<M> =>
  masks.filter((m, i) => !masks.some((o, j) => o.path === m.path ? j < i : isUnder(m.path, o.path)))

/**
 * Whether a path of the work folder can be seen inside a sandbox of this grant: it lies in one of
 * its roots and in none of the paths masked there (the model of the mounts `bwrapArgs` makes,
 * with every mask present; the property tests hold the grant checks to it).
 */
export const visibleIn = (
  grant: {
    readonly inputs: ReadonlyArray<{ readonly path: string }>
    readonly work: { readonly path: string }
    readonly protected: ReadonlyArray<string>
  },
  path: string
): boolean =>
  [...grant.inputs, grant.work].some((r) => within(path, r.path)) && !maskedPaths(grant).some((m) => within(path, m))

// ---------------------------------------------------------------------------------------------
// State and budget

export type Figures = { readonly [K in BudgetResource]: number }

/** What one execution spent (`outputMiB` in MiB, fractional). */
export interface Spent {
  readonly wallSeconds: number
  readonly cpuSeconds: number
  readonly outputBytes: number
}

/** The deadline and budget of a grant after its narrowing events. */
export const effectiveTerms = (
  grant: StoredGrant,
  events: ReadonlyArray<GrantEvent>
): { deadline: string; budget: Figures } => {
  let deadline = grant.deadline
  const budget: Record<BudgetResource, number> = { ...grant.budget }
  for (const e of events) {
    if (e.type !== "narrowed") continue
    if (e.deadline !== null && Date.parse(e.deadline) < Date.parse(deadline)) deadline = e.deadline
    for (const f of BUDGET_FIELDS) {
      const v = e.budget[f]
      if (v !== undefined && v < budget[f]) budget[f] = v
    }
  }
  return { deadline, budget }
}

export const isRevoked = (events: ReadonlyArray<GrantEvent>): boolean => events.some((e) => e.type === "revoked")

/** Remaining budget: the effective budget less what children were granted and what runs spent. */
export const remainingBudget = (
  budget: Figures,
  children: ReadonlyArray<GrantBudget>,
  spent: ReadonlyArray<Spent>
): Figures => {
  const out: Record<BudgetResource, number> = { ...budget }
  for (const c of children) for (const f of SPENT_FIELDS) out[f] -= c[f]
  out.runs -= spent.length
  for (const s of spent) {
    out.wallSeconds -= s.wallSeconds
    out.cpuSeconds -= s.cpuSeconds
    out.outputMiB -= s.outputBytes / (1024 * 1024)
  }
  for (const f of SPENT_FIELDS) out[f] = Math.max(0, Math.round(out[f] * 1000) / 1000)
  return out
}

/** The first spent figure with nothing left, if any. */
export const exhaustedResource = (remaining: Figures): BudgetResource | undefined =>
  SPENT_FIELDS.find((f) => (f === "cpuSeconds" ? remaining[f] < 1 : remaining[f] <= 0))

/**
 * A grant's state. `chain` is the grant and then its ancestors, each with its events; a grant is
 * revoked when it or an ancestor is, expired when its deadline or an ancestor's has passed.
 */
export const grantState = (
  chain: ReadonlyArray<{ readonly grant: StoredGrant; readonly events: ReadonlyArray<GrantEvent> }>,
  remaining: Figures,
  now: Date
): GrantState => {
  if (chain.some((c) => isRevoked(c.events))) return "revoked"
  if (Date.parse(effectiveDeadline(chain)) <= now.getTime()) return "expired"
  if (exhaustedResource(remaining) !== undefined) return "exhausted"
  return "active"
}

/** The soonest deadline along the chain (after narrowing). */
export const effectiveDeadline = (
  chain: ReadonlyArray<{ readonly grant: StoredGrant; readonly events: ReadonlyArray<GrantEvent> }>
): string =>
  chain.map((c) => effectiveTerms(c.grant, c.events).deadline).reduce((a, b) => (Date.parse(b) < Date.parse(a) ? b : a))

/**
 * A child grant is contained in its parent: every input root inside one of the parent's roots,
 * its work root inside the parent's work root, tools a subset, each budget figure at most what
 * the parent has left (memory at most the parent's ceiling), deadline no later, and the parent's
 * candidate (`candidateId`) if it names one: a child of one candidate's grant running another
 * candidate's experiments would be evidence for a candidate its chain was not granted to.
 */
export const checkContained = (
  child: Pick<GrantContent, "inputs" | "work" | "tools" | "budget" | "deadline" | "candidateId">,
  parent: { readonly grant: StoredGrant; readonly deadline: string; readonly remaining: Figures }
): Either.Either<void, GrantWidening> => {
  const p = parent.grant
  const parentRoots = [...p.inputs.map((i) => i.path), p.work.path]
  for (const [i, r] of child.inputs.entries()) {
    if (!parentRoots.some((root) => within(r.path, root))) {
      return Either.left(
        new GrantWidening({ field: `inputs.${i}`, detail: `'${r.path}' is not inside a root of grant '${p.id}'` })
      )
    }
  }
  if (!within(child.work.path, p.work.path)) {
    return Either.left(
      new GrantWidening({
        field: "work",
        detail: `'${child.work.path}' is not inside the work root '${p.work.path}' of grant '${p.id}'`
      })
    )
  }
  for (const t of child.tools) {
    if (!p.tools.includes(t)) {
      return Either.left(new GrantWidening({ field: "tools", detail: `'${t}' is not among the parent's tools` }))
    }
  }
  for (const f of BUDGET_FIELDS) {
    if (child.budget[f] > parent.remaining[f]) {
      return Either.left(
        new GrantWidening({
          field: `budget.${f}`,
          detail: `${child.budget[f]} is more than the ${parent.remaining[f]} the parent has left`
        })
      )
    }
  }
  if (Date.parse(child.deadline) > Date.parse(parent.deadline)) {
    return Either.left(
      new GrantWidening({
        field: "deadline",
        detail: `${normalizeTimestamp(child.deadline)} is later than the parent's ${parent.deadline}`
      })
    )
  }
  if (p.candidateId !== null && child.candidateId !== p.candidateId) {
    return Either.left(
      new GrantWidening({
        field: "candidateId",
        detail: `grant '${p.id}' was made for candidate '${p.candidateId}', not '${child.candidateId}'; ` +
          `give '${p.candidateId}' or leave candidateId out (the child takes its parent's)`
      })
    )
  }
  return Either.right(undefined)
}

/** A narrowing may only make the deadline sooner and budget figures smaller. */
export const checkNarrowing = (
  terms: { readonly deadline: string; readonly budget: Figures },
  narrow: NarrowInput
): Either.Either<void, GrantWidening> => {
  if (narrow.deadline !== undefined && Date.parse(narrow.deadline) > Date.parse(terms.deadline)) {
    return Either.left(
      new GrantWidening({
        field: "deadline",
        detail: `${normalizeTimestamp(narrow.deadline)} is later than ${terms.deadline}`
      })
    )
  }
  for (const f of BUDGET_FIELDS) {
    const v = narrow.budget?.[f]
    if (v !== undefined && v > terms.budget[f]) {
      return Either.left(
        new GrantWidening({ field: `budget.${f}`, detail: `${v} is more than the current ${terms.budget[f]}` })
      )
    }
  }
  return Either.right(undefined)
}

/**
 * A grant made for one candidate (`candidateId`) runs that candidate's experiments only: `exec
 * --candidate` naming another would record (and, with `--study`, link) a run of this grant as
 * evidence for a candidate it was not granted to. Null when the run may go on (the grant names
 * no candidate, or the same one, or none is asked for), else why it may not.
 */
export const candidateRefusal = (granted: string | null, asked: string | null): string | null =>
  granted === null || asked === null || asked === granted
    ? null
    : `the grant was made for candidate '${granted}', not '${asked}'; create a grant for '${asked}' to run for it`

/**
 * The tools ceiling and `exec`. Any program can start a shell (`env sh`, `perl -e 'exec "/bin/sh"'`,
 * `python3 -c 'os.system(…)'`, a copy of a shell binary written to the work root, a script with
 * `#!/bin/sh`), so no check of the program's name can keep a shell out of a run. Running a program
 * is therefore what the `bash` tool allows: `exec` needs `bash` among the grant's tools, whatever
 * the program is. `read` and `notebook` run nothing through dossier. Null when the run may go on,
 * else why it may not.
 */
export const execRefusal = (tools: ReadonlyArray<Tool>, program: string): string | null =>
  tools.includes("bash")
    ? null
    : `exec runs '${program}' as a program, which only the 'bash' tool allows (this grant has ${
      tools.length === 0 ? "no tools" : tools.map((t) => `'${t}'`).join(", ")
    }); any program can start a shell, so the ceiling does not depend on the program's name`
