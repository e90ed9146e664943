/**
 * Exec over Grants, Sandbox, the GrantStore and ExecutionStore ports (src/services/ports/), the
 * Lock, and the folder-side WorkTree and ExecFiles (the work folder on the host that runs the
 * program: roots, masks, outputs). A run:
 *   1. under the lock: runs whose exec died are recorded as lost; the grant must be active with
 *      a run left, its roots' identities unchanged, the program allowed by its tools; an
 *      in-flight marker reserves the run's limits, and the store the record's room;
 *   2. the work root is scanned (lstat, no link followed), the program runs in the sandbox with
 *      the watchdog, the work root is scanned again and every created or changed regular file
 *      hashed;
 *   3. under the lock: stdout/stderr are written in the space left, the reservation given back
 *      and the sealed record written in its place, the marker removed;
 *      with --study, the journal events are appended (stable ids: a retry adds nothing).
 *
 * Over 400 lines: admission, the run, the recording and `show` share one closure over the
 * services (stores, lock, key, sandbox) and the run's marker, paths and cleanup; split into
 * modules, each would take all of them as arguments, and the order of the guarantees (record
 * whatever the program leaves) would be spread over files.
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { InvalidInput, type IoError, UnsafePath } from "../domain/Errors.js"
import {
  BudgetExceeded,
  BudgetExhausted,
  ExecutionDigestMismatch,
  GrantInactive,
  GrantWidening,
  RootIdentityChanged
} from "../domain/ExecErrors.js"
import {
  argvProblems,
  changedFiles,
  type ExecutionContent,
  executionPaths,
  type ExecutionRecord,
  type KillReason,
  linkEvents,
  type LogFile,
  markerDigest,
  MAX_LISTED_OUTPUTS,
  MAX_LISTED_PATH_BYTES,
  MAX_WORK_ENTRIES,
  narrowedBeyond,
  type OutputFile,
  outsideLinkFindings,
  programMissing,
  type RunFinding,
  runLimits,
  type RunningMarker,
  type RunStop,
  setIdFindings,
  type TreeEntry,
  withoutListing
} from "../domain/Execution.js"
import {
  candidateRefusal,
  effectiveTerms,
  execRefusal,
  exhaustedResource,
  inheritProtection,
  isRevoked,
  maskedPaths,
  outermostMasks,
  type RootIdentity,
  type StoredGrant
} from "../domain/Grant.js"
import { checkStudyId } from "../domain/Journal.js"
import {
  checkIdOf,
  optionalBoolean,
  optionalNow,
  optionalText,
  readArgs,
  readOptions,
  textArray
} from "../domain/Options.js"
import { EvidenceKey } from "../services/EvidenceKey.js"
import { Exec, type ExecShape, type OutputFinding, type RecordFinding } from "../services/Exec.js"
import { ExecFiles } from "../services/ExecFiles.js"
import { Grants, type GrantStatus } from "../services/Grants.js"
import { Journal } from "../services/Journal.js"
import { Lock } from "../services/Lock.js"
import { ExecutionStore } from "../services/ports/ExecutionStore.js"
import { GrantStore } from "../services/ports/GrantStore.js"
import { type RunUsage, Sandbox, type SandboxOutcome } from "../services/Sandbox.js"
import { Workdir } from "../services/Workdir.js"
import { type UnnamedFile, WorkTree } from "../services/WorkTree.js"
import { makeExecRecords, markersWalkedBefore, refuseWorkFolderInside, startTicks } from "./ExecRecords.js"
import { currentDate, dateOr } from "./Now.js"
import { spellingFinder } from "./ProtectedSpellings.js"
import { registerRun } from "./RunStops.js"
import { spanned } from "./Spans.js"

/** A bounded scan of the work root (`WorkTree.scanUpTo`). */
type Scanned = {
  readonly entries: ReadonlyArray<TreeEntry>
  readonly incomplete: string | null
  readonly unnamed: ReadonlyArray<UnnamedFile>
}

const MiB = 1024 * 1024

/** The sandbox's view of the folder that decides where a program can be: the roots and the masks. */
const sandboxView = (g: StoredGrant, masks: ReadonlyArray<{ path: string }>) => ({
  work: g.work.path,
  inputs: g.inputs.map((i) => i.path),
  masks: masks.map((m) => m.path)
})

const executionId = (now: Date): string =>
  `x-${now.toISOString().slice(0, 19).replace(/[-:]/g, "")}-${randomBytes(4).toString("hex")}`

export const ExecLive = Layer.effect(
  Exec,
  Effect.gen(function*() {
    const { root } = yield* Workdir
    const folder = yield* ExecFiles
    const executions = yield* ExecutionStore
    const lock = yield* Lock
    const tree = yield* WorkTree
    const grants = yield* Grants
    const sandbox = yield* Sandbox
    const journal = yield* Journal
    const key = yield* EvidenceKey
    const xs = makeExecRecords(yield* GrantStore, executions, key, tree.clearSetIds)

    /** The first grant of `chain` (a grant and its ancestors) whose events say it was revoked, or null; an unreadable list counts as none. */
    const revokedIn = (chain: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        for (const g of chain) {
          const events = yield* Effect.either(xs.grantEvents(g))
          if (Either.isRight(events) && isRevoked(events.right)) return g
        }
        return null
      })

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
      Effect.map(
        executions.putLog(path, bytes),
        (d): LogFile => ({ path, bytes: d.bytes, sha256: d.sha256, truncated: total > bytes.length })
      )

    /** The checked options of `run`; `now` is read at admission, by the watchdog and at the end. */
    interface RunOptions {
      readonly candidateId: string | null
      readonly study: string | null
      readonly echo: boolean
      readonly now: Effect.Effect<Date>
    }

    const run = (grantId: string, argv: ReadonlyArray<string>, options: RunOptions) =>
      Effect.gen(function*() {
        if (argv.length === 0) {
          return yield* new InvalidInput({ issues: [{ path: "program", message: "name the program to run after --" }] })
        }
        // A command line the system cannot start (a NUL, a lone surrogate, too long): refused before
        // the grant is looked at, so nothing is admitted or charged.
        const badArgv = argvProblems(argv)
        if (badArgv.length > 0) return yield* new InvalidInput({ issues: badArgv })
        if (options.study !== null) {
          yield* Either.match(checkStudyId(options.study), { onLeft: Effect.fail, onRight: Effect.succeed })
          if (options.candidateId === null) {
            return yield* new InvalidInput({
              issues: [{ path: "candidate", message: "--study needs --candidate: the candidate the run is linked to" }]
            })
          }
          const view = yield* journal.inspect(options.study)
          if (!view.candidates.some((c) => c.id === options.candidateId)) {
            return yield* new InvalidInput({
              issues: [{
                path: "candidate",
                message: `no candidate '${options.candidateId}' in the journal of study '${options.study}'`
              }]
            })
          }
        }
        // An unknown grant is refused before the lock, which would create `.dossier/` in a folder
        // without one; an unknown or hand-edited grant is named before the sandbox is looked for,
        // so that a machine without one still says what is wrong with the grant.
        const stored = yield* xs.loadGrant(grantId)
        const otherCandidate = candidateRefusal(stored.candidateId, options.candidateId)
        if (otherCandidate !== null) return yield* new GrantWidening({ field: "candidateId", detail: otherCandidate })
        yield* sandbox.probe
        // The roots' walks for a work folder's marker, before the lock; looked at again under it.
        const markers = yield* markersWalkedBefore(tree, [stored.work.path, ...stored.inputs.map((i) => i.path)])

        // 1. Admission, under the lock.
        const admitted = yield* lock.withLock(Effect.gen(function*() {
          const now = yield* options.now
          yield* xs.reapLost(now)
          const st = yield* grants.status(grantId, { now })
          if (st.state === "exhausted") {
            return yield* new BudgetExhausted({ grantId, resource: exhaustedResource(st.remaining) ?? "runs" })
          }
          if (st.state !== "active") return yield* new GrantInactive({ grantId, state: st.state })
          const changed = yield* changedRoot(st.grant)
          if (changed !== null) return yield* new RootIdentityChanged({ grantId, path: changed })
          // A work folder's marker in the work root before the run (a nested dossier kept there, or
          // one put there since the grant): refused, never renamed as if the run had left it.
          yield* refuseWorkFolderInside(markers, st.grant.work.path)
          // One in an input root (put there since the grant) would show the run that folder's records.
          for (const input of st.grant.inputs) yield* refuseWorkFolderInside(markers, input.path)
          // The record will be signed: the key must be usable (and is created on first use) before
          // anything runs, or the run could not be recorded.
          yield* key.sign("execution", "admission")
          yield* xs.requireAuthentic(grantId)
          const notAllowed = execRefusal(st.grant.tools, argv[0]!)
          if (notAllowed !== null) return yield* new GrantWidening({ field: "tools", detail: notAllowed })
          const limits = runLimits(st.remaining, st.deadline, now)
          if (limits.wallSeconds < 1) return yield* new BudgetExhausted({ grantId, resource: "wallSeconds" })
          // What every ancestor protects is hidden too (grants stored before children inherited it included).
          const ancestors: Array<StoredGrant> = []
          for (const a of st.chain.slice(1)) ancestors.push(yield* xs.loadGrant(a))
          const hidden = yield* Either.match(
            inheritProtection({
              inputs: st.grant.inputs.map((i) => i.path),
              work: st.grant.work.path,
              protected: st.grant.protected
            }, ancestors),
            { onLeft: Effect.fail, onRight: Effect.succeed }
          )
          // Every spelling a reader takes for a hidden entry (NFC-equal at each name below an input
          // root: `café` typed, `café` from a Mac), as the folder has them now, is masked too.
          const toMask = maskedPaths({ inputs: st.grant.inputs, protected: hidden })
            .map((path) => ({ path, throughLink: false }))
          const find = spellingFinder(folder.list)
          for (const p of hidden) {
            for (const s of yield* find(p, st.grant.inputs.map((i) => i.path))) {
              if (!toMask.some((t) => t.path === s.path)) toMask.push(s)
            }
          }
          const found: Array<{ path: string; directory: boolean }> = []
          for (const { path: m, throughLink } of toMask) {
            if (throughLink) return yield* new UnsafePath({ path: m, reason: "symlink" })
            // A protected path that is a symlink, or reached through one, cannot be masked: what it
            // names would be visible inside through the link. Refused, never run unmasked.
            const s = yield* folder.stat(m).pipe(Effect.catchTag("UnsafePath", (e) =>
              e.reason === "symlink"
                ? Effect.fail(new UnsafePath({ path: m, reason: "symlink" }))
                : Effect.succeed(Option.none())))
            if (Option.isSome(s) && s.value.kind === "symlink") {
              return yield* new UnsafePath({ path: m, reason: "symlink" })
            }
            if (
              Option.isSome(s) && (s.value.kind === "directory" || s.value.kind === "file" || s.value.kind === "other")
            ) {
              found.push({ path: m, directory: s.value.kind === "directory" })
            }
          }
          const masks = outermostMasks(found)
          const missing = yield* folder.programProblem(argv[0]!, sandboxView(st.grant, masks))
          if (missing !== null) {
            return yield* new InvalidInput({
              issues: [{ path: "program", message: programMissing(argv[0]!, st.grant.work.path, missing) }]
            })
          }
          const id = executionId(now)
          const marker: RunningMarker = {
            id,
            grantId,
            grantDigest: st.grant.digest,
            task: st.grant.task,
            candidateId: options.candidateId ?? st.grant.candidateId,
            ...(options.study === null ? {} : { study: options.study }),
            argv,
            startedAt: now.toISOString(),
            owner: { pid: process.pid, startTicks: startTicks(process.pid) ?? "" },
            limits
          }
          const signed: RunningMarker = { ...marker, signature: yield* key.sign("marker", markerDigest(marker)) }
          // The record's room is taken now, before the program can fill the disk; a disk already
          // too full refuses the run here.
          yield* executions.admit(signed)
          const spentBefore = {
            wallSeconds: st.budget.wallSeconds - st.remaining.wallSeconds,
            cpuSeconds: st.budget.cpuSeconds - st.remaining.cpuSeconds
          }
          return { st, marker, masks, spentBefore }
        }))
        const { st, marker, masks } = admitted
        const grant = st.grant

        // 2. The run.
        const check = (used: RunUsage): Effect.Effect<{ reason: KillReason; detail: string } | null> =>
          Effect.gen(function*() {
            const now = yield* options.now
            for (const g of st.chain) {
              const events = yield* xs.grantEvents(g)
              if (isRevoked(events)) {
                return {
                  reason: "revoked" as const,
                  detail: g === grantId ? `grant '${g}' was revoked` : `ancestor grant '${g}' was revoked`
                }
              }
              const loaded = yield* Effect.either(xs.loadGrant(g))
              if (Either.isLeft(loaded)) {
                return { reason: "revoked" as const, detail: `grant '${g}' can no longer be verified` }
              }
              const terms = effectiveTerms(loaded.right, events)
              if (Date.parse(terms.deadline) <= now.getTime()) {
                return { reason: "deadline" as const, detail: `the deadline ${terms.deadline} of grant '${g}' passed` }
              }
              if (g === grantId) {
                // A narrowed budget: what this run may still use is the new figure less what was spent before it.
                const narrowed = narrowedBeyond(terms.budget, st.budget, admitted.spentBefore, used)
                if (narrowed !== null) {
                  return {
                    reason: "budget-narrowed" as const,
                    detail: `grant '${g}' was narrowed to ${terms.budget[narrowed]} ${
                      narrowed === "wallSeconds" ? "wall" : "CPU"
                    } seconds`
                  }
                }
              }
            }
            const changed = yield* changedRoot(grant)
            if (changed !== null) {
              return {
                reason: "root-identity-changed" as const,
                detail: `'${changed}' is no longer the directory granted`
              }
            }
            return null
          }).pipe(Effect.catchAll(() =>
            Effect.succeed({ reason: "revoked" as const, detail: "the grant's records could not be read" })
          ))

        // From here on the run is recorded whatever happens to this fiber: an interruption (an
        // MCP cancel, the server shutting down) ends the sandbox and the run is recorded
        // `cancelled` or `interrupted`; a signal to dossier or its stdout closing does the same
        // through RunStops. Only a refusal before the program started leaves no record.
        return yield* Effect.uninterruptibleMask((restore) =>
          Effect.gen(function*() {
            const stop = yield* Deferred.make<RunStop>()
            const unregister = registerRun((s) =>
              Deferred.unsafeDone(stop, Exit.succeed(s))
            )
            return yield* Effect.gen(function*() {
              const before = yield* Effect.either(tree.scanUpTo(grant.work.path, MAX_WORK_ENTRIES))
              // A daemon: an interruption of this fiber reaches its children at once, and the
              // sandbox's watchdog must go on until the program is gone.
              const running = yield* Effect.forkDaemon(
                sandbox.run({ root, grant, argv, limits: marker.limits, masks, runId: marker.id }, {
                  echo: options.echo,
                  check,
                  stop: Deferred.await(stop)
                })
              )
              const waited = yield* Effect.exit(restore(Fiber.join(running)))
              const ended = Exit.isInterrupted(waited)
                ? yield* Deferred.succeed(stop, {
                  status: "cancelled" as const,
                  detail: "the request that started the run was cancelled"
                }).pipe(
                  Effect.zipRight(Effect.exit(Fiber.join(running)))
                )
                : waited
              if (Exit.isFailure(ended)) {
                // Refused before the program started (a root swapped since admission, or a sandbox that
                // failed while being set up): no run, no charge.
                yield* lock.withLock(Effect.zipRight(executions.finish(marker.id), executions.release(marker.id))).pipe(
                  Effect.ignore
                )
                // `grant revoke` ends the sandboxes of the grants it revoked itself: one it ended
                // while the sandbox was being set up ran nothing, and the answer is the grant's
                // state (retrying cannot help), not a sandbox to try again.
                const failed = Cause.failureOption(ended.cause)
                if (
                  Option.isSome(failed) && failed.value._tag === "SandboxUnavailable" &&
                  (yield* revokedIn(st.chain)) !== null
                ) {
                  return yield* new GrantInactive({ grantId, state: "revoked" })
                }
                return yield* Effect.failCause(ended.cause)
              }
              return yield* record(admitted, ended.value, before, argv, options)
            }).pipe(Effect.ensuring(Effect.sync(unregister)))
          })
        )
      })

    /** What the run left under the work root: bounded, never failing; what could not be read is a finding. */
    const outputsOf = (
      workPath: string,
      scannedBefore: Either.Either<
        Scanned,
        IoError | UnsafePath
      >
    ) =>
      Effect.gen(function*() {
        const findings: Array<RunFinding> = []
        const after = yield* Effect.either(tree.scanUpTo(workPath, MAX_WORK_ENTRIES))
        const scanned = (e: typeof after, when: string) => {
          if (Either.isLeft(e)) {
            findings.push({
              kind: "outputs-incomplete",
              detail: `the work root could not be scanned ${when} the run (${e.left._tag})`
            })
            return []
          }
          if (e.right.incomplete !== null) {
            findings.push({
              kind: "outputs-incomplete",
              detail: `scanning the work root ${when} the run: ${e.right.incomplete}`
            })
          }
          return e.right.entries
        }
        const changes = changedFiles(scanned(scannedBefore, "before"), scanned(after, "after"))
        const sizes = new Map(Either.isRight(after) ? after.right.entries.map((e) => [e.path, e.size]) : [])
        const outputs: Array<OutputFile> = []
        const ignored: Array<{ path: string; kind: string }> = []
        let listedBytes = 0
        let unlisted = 0
        let outputBytes = 0
        const room = (p: string) =>
          outputs.length + ignored.length < MAX_LISTED_OUTPUTS && listedBytes + p.length <= MAX_LISTED_PATH_BYTES
        for (const e of changes.ignored) {
          if (!room(e.path)) {
            unlisted++
            continue
          }
          listedBytes += e.path.length
          ignored.push(e)
        }
        for (const path of changes.files) {
          if (!room(path)) {
            unlisted++
            outputBytes += sizes.get(path) ?? 0
            continue
          }
          // A run may hard-link files of its own work root to each other (a link across mounts is
          // EXDEV): they are outputs; only their digests are taken.
          const d = yield* Effect.either(folder.hash(path))
          if (Either.isRight(d)) {
            listedBytes += path.length
            outputs.push({ path, bytes: d.right.bytes, sha256: d.right.sha256 })
            outputBytes += d.right.bytes
          } else if (d.left._tag === "FileNotFound") continue
          else if (d.left._tag === "UnsafePath") {
            listedBytes += path.length
            ignored.push({ path, kind: d.left.reason })
          } else {
            outputBytes += sizes.get(path) ?? 0
            findings.push({
              kind: "output-unreadable",
              detail: `'${path}' could not be hashed (${d.left._tag}); its size is charged`
            })
          }
        }
        // Regular files below a name that is not UTF-8 cannot be listed; those the run created or
        // changed (an identity the scan before did not see) are charged all the same.
        const seen = new Set(Either.isRight(scannedBefore) ? scannedBefore.right.unnamed.map((u) => u.id) : [])
        if (Either.isRight(after)) { for (const u of after.right.unnamed) if (!seen.has(u.id)) outputBytes += u.size }
        for (
          const f of outsideLinkFindings(
            Either.isRight(after) ? after.right.entries : [],
            outputs.map((o) => o.path)
          )
        ) {
          findings.push(f)
        }
        if (unlisted > 0) {
          findings.push({
            kind: "outputs-incomplete",
            detail:
              `${unlisted} changed entries are not listed: a record lists at most ${MAX_LISTED_OUTPUTS} (and ${MAX_LISTED_PATH_BYTES} bytes of paths); their sizes are charged`
          })
        }
        return { outputs, ignored, outputBytes, findings }
      })

    /**
     * Keep a log if the disk takes it beside the record's reservation; else keep it empty (the
     * reservation given up first: an empty file may still need a directory entry), and say so.
     * Once the reservation is given up, a log is kept empty: its room is the record's.
     */
    const keepLog = (
      path: string,
      captured: { bytes: Buffer; total: number },
      findings: Array<RunFinding>,
      reservation: { held: boolean; release: Effect.Effect<void> }
    ) => {
      const empty = (why: string) => {
        findings.push({ kind: "logs-not-kept", detail: `'${path}' could not be written (${why}); kept empty` })
        reservation.held = false
        return Effect.zipRight(reservation.release, retained(path, Buffer.alloc(0), captured.total))
      }
      if (!reservation.held && captured.bytes.length > 0) return empty("the disk was full")
      return retained(path, captured.bytes, captured.total).pipe(Effect.catchTag("IoError", (e) => empty(e.code)))
    }

    /** Step 3: the evidence, under the lock; then the journal links and the budget checks. */
    const record = (
      admitted: { st: GrantStatus; marker: RunningMarker },
      outcome: SandboxOutcome,
      before: Either.Either<Scanned, IoError | UnsafePath>,
      argv: ReadonlyArray<string>,
      options: RunOptions
    ) =>
      Effect.gen(function*() {
        const { st, marker } = admitted
        const grant = st.grant
        const grantId = grant.id
        const paths = executionPaths(marker.id)
        // First, before anything else reads the work root: a file the program marked set-user-ID
        // or set-group-ID would run as dossier's user on the machine (the mount inside is nosuid,
        // the folder outside is not).
        const setIds = yield* Effect.either(tree.clearSetIds(grant.work.path))
        const scanned = yield* outputsOf(grant.work.path, before)
        const findings = [
          ...scanned.findings,
          ...setIdFindings(Either.isRight(setIds) ? setIds.right : { failed: setIds.left._tag })
        ]
        if (outcome.memory.oomKills > 0) {
          findings.push({
            kind: "memory-limit",
            detail:
              `the kernel ended ${outcome.memory.oomKills} process(es) of the run at its memory limit of ${marker.limits.memoryMiB} MiB`
          })
        }
        // `grant revoke` kills the sandbox of a run in flight itself (SIGKILL): such a run is
        // recorded as killed by the revocation, not as a program that died of a signal.
        let killed = outcome.killed
        if (
          killed === null && outcome.stopped === null && (outcome.signal !== null || (outcome.exitCode ?? 0) >= 128)
        ) {
          const g = yield* revokedIn(st.chain)
          if (g !== null) {
            killed = {
              reason: "revoked",
              detail: g === grantId ? `grant '${g}' was revoked` : `ancestor grant '${g}' was revoked`
            }
          }
        }
        // Its wrapper ended without saying how the program ended, and nothing else ended it: the
        // run is lost to dossier (a revocation that ended it is said above).
        const wrapperEnded = killed === null && outcome.stopped === null ? outcome.wrapperEnded ?? null : null
        const r = yield* lock.withLock(Effect.gen(function*() {
          const endedAt = yield* options.now
          const logs = [...findings]
          // The logs take what the disk has left beside the reservation; then the reservation
          // makes room for the record.
          const reservation = { held: true, release: Effect.ignore(executions.release(marker.id)) }
          const stdout = yield* keepLog(paths.stdout, outcome.stdout, logs, reservation)
          const stderr = yield* keepLog(paths.stderr, outcome.stderr, logs, reservation)
          yield* reservation.release
          const content: ExecutionContent = {
            id: marker.id,
            grantId,
            grantDigest: grant.digest,
            task: grant.task,
            candidateId: marker.candidateId,
            ...(marker.study === undefined ? {} : { study: marker.study }),
            argv,
            startedAt: marker.startedAt,
            endedAt: endedAt.toISOString(),
            status: killed !== null
              ? "killed"
              : outcome.stopped !== null
              ? outcome.stopped.status
              : wrapperEnded !== null
              ? "lost"
              : "exited",
            exitCode: outcome.exitCode,
            signal: outcome.signal,
            reason: killed?.reason ?? (wrapperEnded !== null ? "wrapper-ended" : null),
            detail: killed?.detail ?? outcome.stopped?.detail ?? wrapperEnded?.detail ?? null,
            limits: marker.limits,
            cpuSeconds: outcome.cpuSeconds,
            maxRssKiB: outcome.maxRssKiB,
            wallSeconds: Math.round(outcome.wallMs) / 1000,
            stdout,
            stderr,
            outputs: scanned.outputs,
            ignored: scanned.ignored,
            enforcement: { memory: outcome.memory.enforcement },
            memoryPeakKiB: outcome.memory.peakKiB,
            outputBytes: scanned.outputBytes,
            findings: logs,
            ...(wrapperEnded !== null ? { leftProcesses: wrapperEnded.left } : {})
          }
          const write = (c: ExecutionContent) =>
            Effect.flatMap(
              xs.sealSigned(c),
              (r) => Effect.as(executions.put(r), r)
            )
          // A record too long for the reservation on a disk still full: written without its
          // listing (every byte still charged), which the reservation holds.
          const r: ExecutionRecord = yield* write(content).pipe(
            Effect.catchTag(
              "IoError",
              (e) => e.code === "ENOSPC" || e.code === "EDQUOT" ? write(withoutListing(content)) : Effect.fail(e)
            )
          )
          yield* executions.finish(marker.id)
          return r
        }))

        let linked: { study: string; appended: ReadonlyArray<string>; skipped: ReadonlyArray<string> } | null = null
        if (options.study !== null && options.candidateId !== null) {
          const a = yield* journal.append(options.study, linkEvents(r, options.candidateId))
          linked = { study: options.study, appended: a.appended, skipped: a.skipped }
        }
        // The watchdog ends a run whose tree reaches its CPU limit; one that ended between two of
        // its checks may still have gone beyond it.
        if (r.status === "exited" && r.cpuSeconds !== null && r.cpuSeconds > marker.limits.cpuSeconds) {
          return yield* new BudgetExceeded({
            grantId,
            resource: "cpuSeconds",
            executionId: r.id,
            limit: marker.limits.cpuSeconds,
            actual: r.cpuSeconds
          })
        }
        const allowedBytes = Math.floor(st.remaining.outputMiB * MiB)
        if (scanned.outputBytes > allowedBytes) {
          return yield* new BudgetExceeded({
            grantId,
            resource: "outputMiB",
            executionId: r.id,
            limit: allowedBytes,
            actual: scanned.outputBytes
          })
        }
        return { execution: r, linked }
      })

    const show = (id: string, options: { readonly verify: boolean; readonly now: Date }) =>
      Effect.gen(function*() {
        // Only reads: lost runs are recorded when the lock can be had without creating anything.
        yield* lock.withReadLock((held) => held ? xs.reapLost(options.now) : Effect.void)
        const inspected = yield* xs.inspectHere(id)
        const { record: execution, verdict: authentication } = inspected
        if (!options.verify) {
          if (authentication.authenticity === "tampered") return yield* new ExecutionDigestMismatch({ executionId: id })
          return { execution, authentication }
        }
        const findings: Array<RecordFinding | OutputFinding> = []
        if (authentication.authenticity !== "signed") {
          findings.push({
            kind: `execution-${authentication.authenticity}`,
            path: executionPaths(id).record,
            detail: authentication.detail
          })
        }
        const files: Array<{ path: string; sha256: string; bytes: number; log: boolean }> = [
          { ...execution.stdout, log: true },
          { ...execution.stderr, log: true },
          ...execution.outputs.map((o) => ({ ...o, log: false }))
        ]
        for (const f of files) {
          const d = yield* Effect.either(f.log ? executions.logDigest(f.path) : folder.hash(f.path))
          const expected = { sha256: f.sha256, bytes: f.bytes }
          if (Either.isRight(d)) {
            if (d.right.sha256 !== f.sha256 || d.right.bytes !== f.bytes) {
              findings.push({
                kind: f.log ? "log-changed" : "output-changed",
                path: f.path,
                expected,
                actual: { ...d.right },
                reason: "content-changed"
              })
            }
          } else if (d.left._tag === "FileNotFound") {
            findings.push({
              kind: f.log ? "log-changed" : "output-missing",
              path: f.path,
              expected,
              actual: null,
              reason: "missing"
            })
          } else if (d.left._tag === "UnsafePath") {
            // Not the regular file it was: a symlink now, a FIFO, a directory… (`reason` says which).
            findings.push({
              kind: f.log ? "log-changed" : "output-changed",
              path: f.path,
              expected,
              actual: null,
              reason: d.left.reason
            })
          } else return yield* d.left
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

    const fromEither = <A, E>(e: Either.Either<A, E>) =>
      Either.match(e, { onLeft: Effect.fail, onRight: Effect.succeed })

    // The public methods: arguments and options checked first (src/domain/Options.ts); ids by
    // their grammar (src/domain/Ids.ts); `now` defaults to Effect's Clock.
    return spanned("Exec")(
      {
        run: (grantId, argv, options) =>
          Effect.flatMap(
            fromEither(readArgs(
              checkIdOf("grant", grantId, "grant"),
              textArray(0)(argv, "argv"),
              readOptions(options, {
                candidateId: optionalText,
                study: optionalText,
                echo: optionalBoolean,
                now: optionalNow
              })
            )),
            ([g, a, o]) =>
              run(g, a, {
                candidateId: o.candidateId ?? null,
                study: o.study ?? null,
                echo: o.echo === true,
                now: o.now === undefined ? currentDate : Effect.succeed(o.now)
              })
          ),
        show: (id, options) =>
          Effect.flatMap(
            fromEither(
              readArgs(
                checkIdOf("execution", id, "execution"),
                readOptions(options, { verify: optionalBoolean, now: optionalNow })
              )
            ),
            ([x, o]) => Effect.flatMap(dateOr(o.now), (now) => show(x, { verify: o.verify === true, now }))
          )
      } satisfies ExecShape
    )
  })
)
