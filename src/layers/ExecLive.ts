/**
 * Exec over Grants, Sandbox, WorkTree, the FileStore and the Lock. A run:
 *   1. under the lock: runs whose exec died are recorded as lost; the grant must be active with
 *      a run left, its roots' identities unchanged, the program allowed by its tools; an
 *      in-flight marker reserves the run's limits;
 *   2. the work root is scanned (lstat, no link followed), the program runs in the sandbox with
 *      the watchdog, the work root is scanned again and every created or changed regular file
 *      hashed;
 *   3. under the lock: stdout/stderr and the sealed record are written once, the marker removed;
 *      with --study, the journal events are appended (stable ids: a retry adds nothing).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import { InvalidInput } from "../domain/Errors.js"
import {
  changedFiles,
  type ExecutionRecord,
  executionPaths,
  type KillReason,
  linkEvents,
  type LogFile,
  markerDigest,
  narrowedBeyond,
  type OutputFile,
  programMissing,
  programPlaces,
  runLimits,
  type RunningMarker
} from "../domain/Execution.js"
import { BudgetExceeded, BudgetExhausted, ExecutionDigestMismatch, GrantInactive, GrantWidening, RootIdentityChanged } from "../domain/ExecErrors.js"
import { effectiveTerms, execRefusal, exhaustedResource, isRevoked, maskedPaths, type RootIdentity, type StoredGrant } from "../domain/Grant.js"
import { checkStudyId } from "../domain/Journal.js"
import { Exec, type ExecShape, type OutputFinding, type RecordFinding } from "../services/Exec.js"
import { FileStore } from "../services/FileStore.js"
import { EvidenceKey } from "../services/EvidenceKey.js"
import { Grants } from "../services/Grants.js"
import { Journal } from "../services/Journal.js"
import { Lock } from "../services/Lock.js"
import { type RunUsage, Sandbox } from "../services/Sandbox.js"
import { WorkTree } from "../services/WorkTree.js"
import { Workdir } from "../services/Workdir.js"
import { makeExecutionStore, startTicks } from "./ExecutionStore.js"

const MAX_WORK_ENTRIES = 100_000
const MiB = 1024 * 1024

/** The sandbox's view of the folder that decides where a program can be: the roots and the masks. */
const sandboxView = (g: StoredGrant, masks: ReadonlyArray<{ path: string }>) => ({ work: g.work.path, inputs: g.inputs.map((i) => i.path), masks: masks.map((m) => m.path) })

/**
 * Can the program start inside the sandbox? Looked up on the machine at the places the sandbox
 * shows at its name (as execvp would: the first executable regular file wins). A link inside a
 * root that points outside the sandbox is found here but not inside; prlimit then says so.
 */
const programProblem = (root: string, program: string, view: Parameters<typeof programPlaces>[1]): "missing" | "directory" | "not-executable" | null => {
  let seen: "missing" | "directory" | "not-executable" = "missing"
  for (const place of programPlaces(program, view)) {
    let st: fs.Stats
    try {
      st = fs.statSync("system" in place ? place.system : `${root}/${place.folder}`)
    } catch {
      continue
    }
    if (st.isFile() && (st.mode & 0o111) !== 0) return null
    if (seen === "missing") seen = st.isDirectory() ? "directory" : "not-executable"
  }
  return seen
}

const executionId = (now: Date): string =>
  `x-${now.toISOString().slice(0, 19).replace(/[-:]/g, "")}-${randomBytes(4).toString("hex")}`

export const ExecLive = Layer.effect(
  Exec,
  Effect.gen(function*() {
    const { root } = yield* Workdir
    const store = yield* FileStore
    const lock = yield* Lock
    const tree = yield* WorkTree
    const grants = yield* Grants
    const sandbox = yield* Sandbox
    const journal = yield* Journal
    const key = yield* EvidenceKey
    const xs = makeExecutionStore(store, key)

    const rootsOf = (g: StoredGrant): ReadonlyArray<RootIdentity> => [...g.inputs, g.work]

    /** The first root that is no longer the directory granted (replaced, moved, now a link). */
    const changedRoot = (g: StoredGrant): Effect.Effect<string | null> =>
      Effect.gen(function*() {
        for (const r of rootsOf(g)) {
          const now = yield* Effect.either(tree.identity(r.path))
          if (Either.isLeft(now) || now.right.device !== r.device || now.right.inode !== r.inode) return r.path
        }
        return null
      })

    const retained = (path: string, bytes: Buffer, total: number) =>
      Effect.map(store.writeRetained(path, bytes), (d): LogFile => ({ path, bytes: d.bytes, sha256: d.sha256, truncated: total > bytes.length }))

    const run: ExecShape["run"] = (grantId, argv, options) =>
      Effect.gen(function*() {
        if (argv.length === 0) return yield* new InvalidInput({ issues: [{ path: "program", message: "name the program to run after --" }] })
        if (options.study !== null) {
          yield* Either.match(checkStudyId(options.study), { onLeft: Effect.fail, onRight: Effect.succeed })
          if (options.candidateId === null) {
            return yield* new InvalidInput({ issues: [{ path: "candidate", message: "--study needs --candidate: the candidate the run is linked to" }] })
          }
          const view = yield* journal.inspect(options.study)
          if (!view.candidates.some((c) => c.id === options.candidateId)) {
            return yield* new InvalidInput({
              issues: [{ path: "candidate", message: `no candidate '${options.candidateId}' in the journal of study '${options.study}'` }]
            })
          }
        }
        // An unknown grant is refused before the lock, which would create `.dossier/` in a folder
        // without one; an unknown or hand-edited grant is named before the sandbox is looked for,
        // so that a machine without one still says what is wrong with the grant.
        yield* xs.loadGrant(grantId)
        yield* sandbox.probe

        // 1. Admission, under the lock.
        const admitted = yield* lock.withLock(Effect.gen(function*() {
          const now = options.now()
          yield* xs.reapLost(now)
          const st = yield* grants.status(grantId, now)
          if (st.state === "exhausted") {
            return yield* new BudgetExhausted({ grantId, resource: exhaustedResource(st.remaining) ?? "runs" })
          }
          if (st.state !== "active") return yield* new GrantInactive({ grantId, state: st.state })
          const changed = yield* changedRoot(st.grant)
          if (changed !== null) return yield* new RootIdentityChanged({ grantId, path: changed })
          // The record will be signed: the key must be usable (and is created on first use) before
          // anything runs, or the run could not be recorded.
          yield* key.sign("execution", "admission")
          yield* xs.requireAuthentic(grantId)
          const notAllowed = execRefusal(st.grant.tools, argv[0]!)
          if (notAllowed !== null) return yield* new GrantWidening({ field: "tools", detail: notAllowed })
          const limits = runLimits(st.remaining, st.deadline, now)
          if (limits.wallSeconds < 1) return yield* new BudgetExhausted({ grantId, resource: "wallSeconds" })
          const masks: Array<{ path: string; directory: boolean }> = []
          for (const m of maskedPaths(st.grant)) {
            const s = yield* store.stat(m).pipe(Effect.catchTag("UnsafePath", () => Effect.succeed(Option.none())))
            if (Option.isSome(s) && (s.value.kind === "directory" || s.value.kind === "file" || s.value.kind === "other")) {
              masks.push({ path: m, directory: s.value.kind === "directory" })
            }
          }
          const missing = programProblem(root, argv[0]!, sandboxView(st.grant, masks))
          if (missing !== null) return yield* new InvalidInput({ issues: [{ path: "program", message: programMissing(argv[0]!, st.grant.work.path, missing) }] })
          const id = executionId(now)
          const marker: RunningMarker = {
            id,
            grantId,
            grantDigest: st.grant.digest,
            task: st.grant.task,
            candidateId: options.candidateId ?? st.grant.candidateId,
            argv,
            startedAt: now.toISOString(),
            owner: { pid: process.pid, startTicks: startTicks(process.pid) ?? "" },
            limits
          }
          const signed: RunningMarker = { ...marker, signature: yield* key.sign("marker", markerDigest(marker)) }
          yield* store.writeAtomic(executionPaths(id).running, `${JSON.stringify(signed)}\n`)
          const spentBefore = { wallSeconds: st.budget.wallSeconds - st.remaining.wallSeconds, cpuSeconds: st.budget.cpuSeconds - st.remaining.cpuSeconds }
          return { st, marker, masks, spentBefore }
        }))
        const { st, marker, masks } = admitted
        const grant = st.grant
        const paths = executionPaths(marker.id)

        // 2. The run.
        const before = yield* tree.scan(grant.work.path, MAX_WORK_ENTRIES)
        const check = (used: RunUsage): Effect.Effect<{ reason: KillReason; detail: string } | null> => Effect.gen(function*() {
          const now = options.now()
          for (const g of st.chain) {
            const events = yield* xs.grantEvents(g)
            if (isRevoked(events)) return { reason: "revoked" as const, detail: g === grantId ? `grant '${g}' was revoked` : `ancestor grant '${g}' was revoked` }
            const loaded = yield* Effect.either(xs.loadGrant(g))
            if (Either.isLeft(loaded)) return { reason: "revoked" as const, detail: `grant '${g}' can no longer be verified` }
            const terms = effectiveTerms(loaded.right, events)
            if (Date.parse(terms.deadline) <= now.getTime()) return { reason: "deadline" as const, detail: `the deadline ${terms.deadline} of grant '${g}' passed` }
            if (g === grantId) {
              // A narrowed budget: what this run may still use is the new figure less what was spent before it.
              const narrowed = narrowedBeyond(terms.budget, st.budget, admitted.spentBefore, used)
              if (narrowed !== null) {
                return { reason: "budget-narrowed" as const, detail: `grant '${g}' was narrowed to ${terms.budget[narrowed]} ${narrowed === "wallSeconds" ? "wall" : "CPU"} seconds` }
              }
            }
          }
          const changed = yield* changedRoot(grant)
          if (changed !== null) return { reason: "root-identity-changed" as const, detail: `'${changed}' is no longer the directory granted` }
          return null
        }).pipe(Effect.catchAll(() => Effect.succeed({ reason: "revoked" as const, detail: "the grant's records could not be read" })))

        // Refused before the program started (a root swapped since admission): no run, no charge.
        const outcome = yield* sandbox.run({ root, grant, argv, limits: marker.limits, masks }, { echo: options.echo, check }).pipe(
          Effect.tapError(() => lock.withLock(store.remove(paths.running)).pipe(Effect.ignore))
        )

        const after = yield* tree.scan(grant.work.path, MAX_WORK_ENTRIES)
        const changes = changedFiles(before, after)
        const outputs: Array<OutputFile> = []
        const ignored = [...changes.ignored]
        for (const path of changes.files) {
          const d = yield* Effect.either(store.hash(path, { maxBytes: Number.MAX_SAFE_INTEGER }))
          if (Either.isRight(d)) outputs.push({ path, bytes: d.right.bytes, sha256: d.right.sha256 })
          else if (d.left._tag === "FileNotFound") continue
          else if (d.left._tag === "UnsafePath") ignored.push({ path, kind: d.left.reason })
          else return yield* d.left
        }

        // 3. The evidence, under the lock.
        const record = yield* lock.withLock(Effect.gen(function*() {
          const endedAt = options.now()
          const r: ExecutionRecord = yield* xs.sealSigned({
            id: marker.id,
            grantId,
            grantDigest: grant.digest,
            task: grant.task,
            candidateId: marker.candidateId,
            argv,
            startedAt: marker.startedAt,
            endedAt: endedAt.toISOString(),
            status: outcome.killed === null ? "exited" : "killed",
            exitCode: outcome.exitCode,
            signal: outcome.signal,
            reason: outcome.killed?.reason ?? null,
            detail: outcome.killed?.detail ?? null,
            limits: marker.limits,
            cpuSeconds: outcome.cpuSeconds,
            maxRssKiB: outcome.maxRssKiB,
            wallSeconds: Math.round(outcome.wallMs) / 1000,
            stdout: yield* retained(paths.stdout, outcome.stdout.bytes, outcome.stdout.total),
            stderr: yield* retained(paths.stderr, outcome.stderr.bytes, outcome.stderr.total),
            outputs,
            ignored
          })
          yield* store.writeRetained(paths.record, `${JSON.stringify(r, null, 2)}\n`)
          yield* store.remove(paths.running)
          return r
        }))

        let linked: { study: string; appended: ReadonlyArray<string>; skipped: ReadonlyArray<string> } | null = null
        if (options.study !== null && options.candidateId !== null) {
          const a = yield* journal.append(options.study, linkEvents(record, options.candidateId))
          linked = { study: options.study, appended: a.appended, skipped: a.skipped }
        }
        // The watchdog ends a run whose tree reaches its CPU limit; one that ended between two of
        // its checks may still have gone beyond it.
        if (record.status === "exited" && record.cpuSeconds !== null && record.cpuSeconds > marker.limits.cpuSeconds) {
          return yield* new BudgetExceeded({ grantId, resource: "cpuSeconds", executionId: record.id, limit: marker.limits.cpuSeconds, actual: record.cpuSeconds })
        }
        const outputBytes = outputs.reduce((n, o) => n + o.bytes, 0)
        const allowedBytes = Math.floor(st.remaining.outputMiB * MiB)
        if (outputBytes > allowedBytes) {
          return yield* new BudgetExceeded({ grantId, resource: "outputMiB", executionId: record.id, limit: allowedBytes, actual: outputBytes })
        }
        return { execution: record, linked }
      })

    const show: ExecShape["show"] = (id, options) =>
      Effect.gen(function*() {
        // Only reads: lost runs are recorded when the lock can be had without creating anything.
        yield* lock.withReadLock((held) => held ? xs.reapLost(options.now) : Effect.void)
        const inspected = yield* xs.inspectExecution(id)
        const { record: execution, verdict: authentication } = inspected
        if (!options.verify) {
          if (authentication.authenticity === "tampered") return yield* new ExecutionDigestMismatch({ executionId: id })
          return { execution, authentication }
        }
        const findings: Array<RecordFinding | OutputFinding> = []
        if (authentication.authenticity !== "signed") {
          findings.push({ kind: `execution-${authentication.authenticity}`, path: executionPaths(id).record, detail: authentication.detail })
        }
        const files: Array<{ path: string; sha256: string; bytes: number; log: boolean }> = [
          { ...execution.stdout, log: true },
          { ...execution.stderr, log: true },
          ...execution.outputs.map((o) => ({ ...o, log: false }))
        ]
        for (const f of files) {
          const d = yield* Effect.either(store.hash(f.path, { maxBytes: Number.MAX_SAFE_INTEGER }))
          const expected = { sha256: f.sha256, bytes: f.bytes }
          if (Either.isRight(d)) {
            if (d.right.sha256 !== f.sha256 || d.right.bytes !== f.bytes) {
              findings.push({ kind: f.log ? "log-changed" : "output-changed", path: f.path, expected, actual: { ...d.right } })
            }
          } else if (d.left._tag === "FileNotFound") findings.push({ kind: f.log ? "log-changed" : "output-missing", path: f.path, expected, actual: null })
          else if (d.left._tag === "UnsafePath") findings.push({ kind: f.log ? "log-changed" : "output-changed", path: f.path, expected, actual: null })
          else return yield* d.left
        }
        return {
          execution,
          authentication,
          verify: {
            checked: files.length,
            findings,
            note: "A matching digest shows the files are the ones the run produced, not that the result is correct."
          }
        }
      })

    return { run, show }
  })
)
