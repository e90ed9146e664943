/**
 * What grants and exec share, over the GrantStore and ExecutionStore ports (no path, no file):
 * grant records verified by digest and signature on every load, their events, execution records
 * verified by receipt digest and signature, what each grant's runs spent, and the recording of
 * runs whose `dossier exec` died as `lost` (their marker is the run's intent record).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import type { EditedRetainedFile } from "../domain/Errors.js"
import type { Verdict } from "../domain/Evidence.js"
import {
  type EvidenceKeyUnavailable,
  ExecutionDigestMismatch,
  ExecutionNotFound,
  GrantDigestMismatch,
  GrantNotFound,
  GrantUnauthenticated,
  ProtectedPathInGrant
} from "../domain/ExecErrors.js"
import {
  chargedOutputBytes,
  EXECUTION_ID,
  type ExecutionContent,
  executionPaths,
  type ExecutionRecord,
  type LogFile,
  markerDigest,
  receiptHolds,
  type RunningMarker,
  sealExecution,
  setIdFindings
} from "../domain/Execution.js"
import { GRANT_ID, grantDigest, type GrantEvent, type Spent, type StoredGrant } from "../domain/Grant.js"
import type { EvidenceKeyShape } from "../services/EvidenceKey.js"
import type { ExecutionStoreError, ExecutionStoreShape } from "../services/ports/ExecutionStore.js"
import type { GrantStoreError, GrantStoreShape } from "../services/ports/GrantStore.js"
import type { WorkTreeShape } from "../services/WorkTree.js"
import { endLostRun } from "./SandboxMachine.js"

/**
 * Refuse a work root that holds another work folder's marker (`WorkTree.markers`: a `.dossier`, a
 * plan.md with the plan's marker): a run could change that folder, and a command run inside the
 * root would take it for its work folder; and after the run it would be renamed as if the run had
 * left it (docs/exec.md). Grant creation and exec admission both ask, under the folder's lock.
 */
export const refuseWorkFolderInside = <E>(
  markers: (path: string) => Effect.Effect<ReadonlyArray<string>, E>,
  root: string
): Effect.Effect<void, E | ProtectedPathInGrant> =>
  Effect.flatMap(markers(root), (held) =>
    held.length === 0
      ? Effect.void
      : Effect.fail(new ProtectedPathInGrant({ path: held[0]!, root, reason: "always-protected" })))

/**
 * The markers of each of `roots` walked now, before the folder's lock (about 1 s per 100,000
 * entries, which every other writing command would wait for under it): the `markers` to give
 * `refuseWorkFolderInside` under the lock, which look again at a root only where it changed since,
 * and walk any other path (or a root whose walk failed: refused there, in its turn) whole.
 */
export const markersWalkedBefore = (tree: WorkTreeShape, roots: ReadonlyArray<string>) =>
  Effect.map(
    Effect.forEach(roots, (root) =>
      Effect.map(Effect.either(tree.surveyMarkers(root)), (survey) => [root, survey] as const)),
    (surveys) => {
      const walked = new Map(surveys)
      return (path: string) => {
        const survey = walked.get(path)
        return survey !== undefined && Either.isRight(survey) ? survey.right.again : tree.markers(path)
      }
    }
  )

/**
 * `EG`, `EX`: what the two stores themselves may fail with. `clearSetIds`, where the work folder is
 * on this host: the set-user-ID and set-group-ID bits a lost run left in its work root are cleared
 * when it is recorded, as those of a recorded run are (./ExecLive.ts).
 */
export const makeExecRecords = <EG = GrantStoreError, EX = ExecutionStoreError>(
  grants: GrantStoreShape<EG>,
  executions: ExecutionStoreShape<EX>,
  key: EvidenceKeyShape,
  clearSetIds?: WorkTreeShape["clearSetIds"]
) => {
  type Fs = EG | EX
  /**
   * A stored grant whose digest holds and whose signature is not forged. An unsigned grant (made
   * before signing, or its signature removed) or one signed with another key loads (its state and
   * budget are still shown); `grantAuthenticity` tells, and exec and child grants require `signed`.
   */
  const loadGrant = (id: string): Effect.Effect<StoredGrant, GrantNotFound | GrantDigestMismatch | Fs> =>
    GRANT_ID.test(id)
      ? Effect.flatMap(grants.get(id), (stored): Effect.Effect<StoredGrant, GrantNotFound | GrantDigestMismatch> => {
        if (Option.isNone(stored)) return Effect.fail(new GrantNotFound({ grantId: id }))
        const { digest, signature, ...content } = stored.value
        if (digest !== grantDigest(content) || content.id !== id) {
          return Effect.fail(new GrantDigestMismatch({ grantId: id }))
        }
        return Effect.flatMap(
          key.check("grant", digest, signature),
          (v) =>
            v.authenticity === "tampered"
              ? Effect.fail(new GrantDigestMismatch({ grantId: id }))
              : Effect.succeed(stored.value)
        )
      })
      : Effect.fail(new GrantNotFound({ grantId: id }))

  const grantAuthenticity = (g: StoredGrant): Effect.Effect<Verdict> => key.check("grant", g.digest, g.signature)

  /** The grant and every ancestor load and are signed with this machine's key (`GrantUnauthenticated` otherwise). */
  const requireAuthentic = (
    id: string
  ): Effect.Effect<void, GrantNotFound | GrantDigestMismatch | GrantUnauthenticated | Fs> =>
    Effect.gen(function*() {
      let next: string | null = id
      for (let depth = 0; next !== null && depth < 1000; depth++) {
        const g: StoredGrant = yield* loadGrant(next)
        const v = yield* grantAuthenticity(g)
        if (v.authenticity !== "signed") {
          return yield* new GrantUnauthenticated({
            grantId: g.id,
            authenticity: v.authenticity === "unsigned" ? "unsigned" : "unverifiable",
            detail: v.detail
          })
        }
        next = g.parent
      }
    })

  /** The events of a grant (a stored event that does not decode is a revocation: fail closed). */
  const grantEvents = (id: string): Effect.Effect<ReadonlyArray<GrantEvent>, Fs> =>
    Effect.map(grants.events(id), (v) => v.value)

  /**
   * An execution record as stored, with how it stands: its receipt digest (a record that does not
   * decode, or names another id, is `ExecutionDigestMismatch`) and its signature. A record whose
   * digest does not hold is `tampered` whatever its signature says.
   */
  const inspectExecution = (
    id: string
  ): Effect.Effect<{ record: ExecutionRecord; verdict: Verdict }, ExecutionNotFound | ExecutionDigestMismatch | Fs> =>
    EXECUTION_ID.test(id)
      ? Effect.flatMap(executions.get(id), (stored) => {
        if (Option.isNone(stored)) return Effect.fail(new ExecutionNotFound({ executionId: id }))
        const record = stored.value
        if (!receiptHolds(record)) {
          return Effect.succeed({
            record,
            verdict: { authenticity: "tampered" as const, detail: "the record does not match its receipt digest" }
          })
        }
        return Effect.map(
          key.check("execution", record.receiptDigest, record.signature),
          (verdict) => ({ record, verdict })
        )
      })
      : Effect.fail(new ExecutionNotFound({ executionId: id }))

  /**
   * `inspectExecution`, and for a signed record its grant here: the grant it names, with the digest
   * it ran under. A record signed with this key but copied in from another folder (whose grants
   * are other records, of other roots) proves nothing about this one: `unverifiable`, saying why.
   * Grants are immutable, and a copy of the whole folder keeps them, so its records still verify.
   */
  const inspectHere = (
    id: string
  ): Effect.Effect<{ record: ExecutionRecord; verdict: Verdict }, ExecutionNotFound | ExecutionDigestMismatch | Fs> =>
    Effect.flatMap(inspectExecution(id), (inspected) => {
      const { record, verdict } = inspected
      if (verdict.authenticity !== "signed") return Effect.succeed(inspected)
      const unverifiable = (detail: string) =>
        Effect.succeed({ record, verdict: { authenticity: "unverifiable" as const, detail } })
      const notHere = (why: string) =>
        unverifiable(`signed with this machine's key, but ${why}: it was not written for this folder`)
      return loadGrant(record.grantId).pipe(
        Effect.flatMap((g) =>
          g.digest === record.grantDigest
            ? Effect.succeed(inspected)
            : notHere(`this folder's grant '${record.grantId}' is not the one it ran under (another digest)`)
        ),
        Effect.catchIf(
          (e): e is GrantNotFound | GrantDigestMismatch =>
            e instanceof GrantNotFound || e instanceof GrantDigestMismatch,
          (e) =>
            e instanceof GrantNotFound
              ? notHere(`its grant '${record.grantId}' is not in this folder`)
              : unverifiable(
                `signed with this machine's key, but its grant '${record.grantId}' does not verify here ` +
                  "(GrantDigestMismatch): what the run could touch is not known"
              )
        )
      )
    })

  /** A record that is not tampered (signed, unsigned or signed with another key: see `inspectExecution`). */
  const loadExecution = (
    id: string
  ): Effect.Effect<ExecutionRecord, ExecutionNotFound | ExecutionDigestMismatch | Fs> =>
    Effect.flatMap(
      inspectExecution(id),
      ({ record, verdict }) =>
        verdict.authenticity === "tampered"
          ? Effect.fail(new ExecutionDigestMismatch({ executionId: id }))
          : Effect.succeed(record)
    )

  /** Seal a record's content and sign its receipt digest. */
  const sealSigned = (content: Parameters<typeof sealExecution>[0]) => {
    const sealed = sealExecution(content)
    return Effect.map(
      key.sign("execution", sealed.receiptDigest),
      (signature): ExecutionRecord => ({ ...sealed, signature })
    )
  }

  /**
   * What every recorded and in-flight run of each grant spent (in-flight runs count their limits),
   * and `unreadable`: the ids of the records that do not decode (or name another id), whose run
   * is of no grant anyone can tell, so what it spent is charged nowhere; the grants' logic then
   * admits no run and carves no child (see GrantsLive), never a budget widened in silence.
   */
  const spentByGrant: Effect.Effect<{
    readonly byGrant: ReadonlyMap<string, ReadonlyArray<Spent>>
    readonly unreadable: ReadonlyArray<string>
  }, Fs> = Effect.gen(function*() {
    const out = new Map<string, Array<Spent>>()
    const add = (g: string, s: Spent) => out.set(g, [...(out.get(g) ?? []), s])
    const recorded = new Set<string>()
    const unreadable: Array<string> = []
    for (const id of yield* executions.ids) {
      // A record that is not there (any more) is no run; one that does not decode is unreadable.
      const r = yield* inspectExecution(id).pipe(
        Effect.map(Option.some),
        Effect.catchIf(
          (e): e is ExecutionNotFound | ExecutionDigestMismatch =>
            e instanceof ExecutionNotFound || e instanceof ExecutionDigestMismatch,
          (e) =>
            Effect.as(Effect.sync(() => e instanceof ExecutionDigestMismatch && unreadable.push(id)), Option.none())
        )
      )
      if (Option.isNone(r)) continue
      recorded.add(id)
      const x = r.value.record
      // A tampered record's figures are not believed: it is charged its whole wall and CPU limits.
      const believed = r.value.verdict.authenticity !== "tampered"
      add(x.grantId, {
        wallSeconds: believed ? x.wallSeconds : x.limits.wallSeconds,
        cpuSeconds: believed ? x.cpuSeconds ?? x.limits.cpuSeconds : x.limits.cpuSeconds,
        outputBytes: chargedOutputBytes(x)
      })
    }
    for (const m of yield* executions.markers) {
      if (recorded.has(m.id)) continue
      add(m.grantId, { wallSeconds: m.limits.wallSeconds, cpuSeconds: m.limits.cpuSeconds, outputBytes: 0 })
    }
    return { byGrant: out, unreadable }
  })

  const runningMarkers: Effect.Effect<ReadonlyArray<RunningMarker>, Fs> = executions.markers

  /** A lost run's log as kept, or kept empty when its exec died before keeping it. */
  const logOf = (path: string) =>
    executions.logDigest(path).pipe(
      Effect.map((d): LogFile => ({ path, bytes: d.bytes, sha256: d.sha256, truncated: false })),
      Effect.catchTag("FileNotFound", () =>
        Effect.map(
          executions.putLog(path, new Uint8Array(0)),
          (d): LogFile => ({ path, bytes: d.bytes, sha256: d.sha256, truncated: false })
        ))
    )

  /**
   * Record as `lost` every in-flight run whose `dossier exec` is gone (call under the lock). A lost
   * run is charged its whole wall and CPU limits: nothing measured it.
   */
  const reapLost = (
    now: Date
  ): Effect.Effect<ReadonlyArray<string>, Fs | EditedRetainedFile | ExecutionNotFound | EvidenceKeyUnavailable> =>
    Effect.gen(function*() {
      const lost: Array<string> = []
      yield* executions.recover
      for (const m of yield* executions.markers) {
        const paths = executionPaths(m.id)
        // Its exec died after writing the record and before removing the marker.
        if (yield* executions.has(m.id)) {
          yield* executions.release(m.id)
          yield* executions.finish(m.id)
          continue
        }
        if (ownerAlive(m.owner)) continue
        // A process of the run still going (its exec and wrapper were both killed outright) is
        // ended before the run is recorded: its cgroup, named after the dead exec, is emptied, and
        // its sandbox, found by the run's id, killed. The record says what was found.
        const left = clearSetIds === undefined ? undefined : yield* Effect.sync(() => endLostRun(m.owner.pid, m.id))
        // Its reservation makes room for the record (the run may have filled the disk).
        yield* executions.release(m.id)
        // Only a marker dossier signed becomes a signed record; any other (written by hand, or by a
        // version before signing) is recorded unsigned, and reported so.
        const authentic = (yield* key.check("marker", markerDigest(m), m.signature)).authenticity === "signed"
        const grant = clearSetIds === undefined ? null : yield* Effect.either(loadGrant(m.grantId))
        const findings = grant === null || Either.isLeft(grant) ? [] : setIdFindings(
          yield* Effect.match(clearSetIds!(grant.right.work.path), {
            onFailure: (e) => ({ failed: e._tag }),
            onSuccess: (r) => r
          })
        )
        const content: ExecutionContent = {
          id: m.id,
          grantId: m.grantId,
          grantDigest: m.grantDigest,
          task: m.task,
          candidateId: m.candidateId,
          ...(m.study === undefined ? {} : { study: m.study }),
          argv: m.argv,
          startedAt: m.startedAt,
          endedAt: now.toISOString(),
          status: "lost",
          exitCode: null,
          signal: null,
          reason: null,
          detail: "dossier exec ended before the run was recorded; charged its whole wall and CPU limits",
          limits: m.limits,
          cpuSeconds: null,
          maxRssKiB: null,
          wallSeconds: m.limits.wallSeconds,
          stdout: yield* logOf(paths.stdout),
          stderr: yield* logOf(paths.stderr),
          outputs: [],
          ignored: [],
          ...(findings.length > 0 ? { findings } : {}),
          ...(left === undefined ? {} : { leftProcesses: left })
        }
        const record = authentic ? yield* sealSigned(content) : sealExecution(content)
        yield* executions.put(record)
        yield* executions.finish(m.id)
        lost.push(m.id)
      }
      return lost
    })

  return {
    loadGrant,
    grantEvents,
    grantAuthenticity,
    requireAuthentic,
    inspectExecution,
    inspectHere,
    loadExecution,
    sealSigned,
    spentByGrant,
    runningMarkers,
    reapLost
  }
}

export type ExecRecords<EG = GrantStoreError, EX = ExecutionStoreError> = ReturnType<typeof makeExecRecords<EG, EX>>

/** This process's start time in clock ticks since boot (/proc/self/stat field 22), to tell a reused pid apart. */
export const startTicks = (pid: number): string | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null
  } catch {
    return null
  }
}

export const ownerAlive = (owner: { readonly pid: number; readonly startTicks: string }): boolean => {
  const ticks = startTicks(owner.pid)
  return ticks !== null && ticks === owner.startTicks
}
