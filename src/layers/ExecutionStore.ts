/**
 * Reading and writing the private state of grants and executions under `.dossier/` through a
 * FileStore (so every access gets its boundary checks): grant records (verified by digest on
 * every load), their appended events, execution records (verified by receipt digest), in-flight
 * markers, and the recording of runs whose `dossier exec` died as `lost`.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import { decodeWith, parseJson } from "../domain/Decode.js"
import type { EditedRetainedFile, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import type { Verdict } from "../domain/Evidence.js"
import {
  type EvidenceKeyUnavailable,
  ExecutionDigestMismatch,
  ExecutionNotFound,
  GrantDigestMismatch,
  GrantNotFound,
  GrantUnauthenticated
} from "../domain/ExecErrors.js"
import {
  chargedOutputBytes,
  EXECUTION_ID,
  type ExecutionContent,
  executionPaths,
  type ExecutionRecord,
  ExecutionRecord as ExecutionRecordSchema,
  type LogFile,
  markerDigest,
  receiptHolds,
  RunningMarker,
  sealExecution
} from "../domain/Execution.js"
import {
  GRANT_ID,
  grantDigest,
  type GrantEvent,
  GrantEvent as GrantEventSchema,
  type Spent,
  type StoredGrant,
  StoredGrant as StoredGrantSchema
} from "../domain/Grant.js"
import type { EvidenceKeyShape } from "../services/EvidenceKey.js"
import type { FileStoreShape } from "../services/FileStore.js"

export const GRANTS_DIR = ".dossier/grants"
export const EXECUTIONS_DIR = ".dossier/executions"
export const grantPath = (id: string) => `${GRANTS_DIR}/${id}.json`
export const grantEventsPath = (id: string) => `${GRANTS_DIR}/${id}.events.jsonl`

type Fs = IoError | UnsafePath | LimitExceeded

const decodeGrant = decodeWith(StoredGrantSchema)
const decodeEvent = decodeWith(GrantEventSchema)
const decodeRecord = decodeWith(ExecutionRecordSchema)
const decodeMarker = decodeWith(RunningMarker)

export const makeExecutionStore = (store: FileStoreShape, key: EvidenceKeyShape) => {
  /**
   * A stored grant whose digest holds and whose signature is not forged. An unsigned grant (made
   * before signing, or its signature removed) or one signed with another key loads (its state and
   * budget are still shown); `grantAuthenticity` tells, and exec and child grants require `signed`.
   */
  const loadGrant = (id: string): Effect.Effect<StoredGrant, GrantNotFound | GrantDigestMismatch | Fs> =>
    GRANT_ID.test(id)
      ? store.readText(grantPath(id), { requireSingleLink: true, maxBytes: 1024 * 1024 }).pipe(
        Effect.catchTag("FileNotFound", () => Effect.fail(new GrantNotFound({ grantId: id }))),
        Effect.flatMap((text) => {
          const g = Either.flatMap(parseJson(text), decodeGrant)
          if (Either.isLeft(g)) return Effect.fail(new GrantDigestMismatch({ grantId: id }))
          const { digest, signature, ...content } = g.right
          if (digest !== grantDigest(content) || content.id !== id) {
            return Effect.fail(new GrantDigestMismatch({ grantId: id }))
          }
          return Effect.flatMap(
            key.check("grant", digest, signature),
            (v) =>
              v.authenticity === "tampered"
                ? Effect.fail(new GrantDigestMismatch({ grantId: id }))
                : Effect.succeed(g.right)
          )
        })
      )
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

  /** The appended events of a grant; a line that does not decode counts as a revocation (fail closed). */
  const grantEvents = (id: string): Effect.Effect<ReadonlyArray<GrantEvent>, Fs> =>
    store.readText(grantEventsPath(id), { requireSingleLink: true }).pipe(
      Effect.map((text) =>
        text.split("\n").filter((l) => l.trim() !== "").map((line): GrantEvent => {
          const e = Either.flatMap(parseJson(line), decodeEvent)
          return Either.isRight(e)
            ? e.right
            : { type: "revoked", at: new Date(0).toISOString(), reason: "damaged event line" }
        })
      ),
      Effect.catchTag("FileNotFound", () => Effect.succeed([]))
    )

  const appendGrantEvent = (id: string, event: GrantEvent) =>
    store.append(grantEventsPath(id), `${JSON.stringify(event)}\n`)

  const grantIds: Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath> = Effect.map(
    store.list(GRANTS_DIR),
    (entries) =>
      entries.filter((e) => e.kind === "file" && e.name.endsWith(".json")).map((e) => e.name.slice(0, -5)).filter((
        id
      ) => GRANT_ID.test(id))
  )

  /**
   * An execution record as stored, with how it stands: its receipt digest (a record that does not
   * decode, or names another id, is `ExecutionDigestMismatch`) and its signature. A record whose
   * digest does not hold is `tampered` whatever its signature says.
   */
  const inspectExecution = (
    id: string
  ): Effect.Effect<{ record: ExecutionRecord; verdict: Verdict }, ExecutionNotFound | ExecutionDigestMismatch | Fs> =>
    EXECUTION_ID.test(id)
      ? store.readText(executionPaths(id).record, { requireSingleLink: true }).pipe(
        Effect.catchTag("FileNotFound", () => Effect.fail(new ExecutionNotFound({ executionId: id }))),
        Effect.flatMap((text) => {
          const r = Either.flatMap(parseJson(text), decodeRecord)
          if (Either.isLeft(r) || r.right.id !== id) {
            return Effect.fail(new ExecutionDigestMismatch({ executionId: id }))
          }
          const record = r.right
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
      )
      : Effect.fail(new ExecutionNotFound({ executionId: id }))

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

  const executionNames = Effect.map(
    store.list(EXECUTIONS_DIR),
    (entries) => entries.filter((e) => e.kind === "file").map((e) => e.name)
  )

  /** What every recorded and in-flight run of each grant spent (in-flight runs count their limits). */
  const spentByGrant: Effect.Effect<ReadonlyMap<string, ReadonlyArray<Spent>>, Fs> = Effect.gen(function*() {
    const out = new Map<string, Array<Spent>>()
    const add = (g: string, s: Spent) => out.set(g, [...(out.get(g) ?? []), s])
    const names = yield* executionNames
    const recorded = new Set<string>()
    for (const name of names) {
      if (!name.endsWith(".json") || name.endsWith(".running.json")) continue
      const id = name.slice(0, -5)
      const r = yield* Effect.either(inspectExecution(id))
      if (Either.isLeft(r)) {
        if (r.left._tag === "ExecutionNotFound" || r.left._tag === "ExecutionDigestMismatch") continue
        return yield* r.left
      }
      recorded.add(id)
      const x = r.right.record
      // A tampered record's figures are not believed: it is charged its whole wall and CPU limits.
      const believed = r.right.verdict.authenticity !== "tampered"
      add(x.grantId, {
        wallSeconds: believed ? x.wallSeconds : x.limits.wallSeconds,
        cpuSeconds: believed ? x.cpuSeconds ?? x.limits.cpuSeconds : x.limits.cpuSeconds,
        outputBytes: chargedOutputBytes(x)
      })
    }
    for (const m of yield* runningMarkers) {
      if (recorded.has(m.id)) continue
      add(m.grantId, { wallSeconds: m.limits.wallSeconds, cpuSeconds: m.limits.cpuSeconds, outputBytes: 0 })
    }
    return out
  })

  const runningMarkers: Effect.Effect<ReadonlyArray<RunningMarker>, Fs> = Effect.gen(function*() {
    const out: Array<RunningMarker> = []
    for (const name of yield* executionNames) {
      if (!name.endsWith(".running.json")) continue
      const text = yield* store.readText(`${EXECUTIONS_DIR}/${name}`, { requireSingleLink: true }).pipe(
        Effect.map(Option.some),
        Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>()))
      )
      if (Option.isNone(text)) continue
      const m = Either.flatMap(parseJson(text.value), decodeMarker)
      if (Either.isRight(m) && EXECUTION_ID.test(m.right.id) && name === `${m.right.id}.running.json`) out.push(m.right)
    }
    return out
  })

  const logOf = (path: string) =>
    store.hash(path, { maxBytes: Number.MAX_SAFE_INTEGER }).pipe(
      Effect.map((d): LogFile => ({ path, bytes: d.bytes, sha256: d.sha256, truncated: false })),
      Effect.catchTag("FileNotFound", () =>
        Effect.map(
          store.writeRetained(path, ""),
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
      const markers = yield* runningMarkers
      // A reservation whose run is not in flight (its exec died between the two writes of
      // admission, or after the record): given back.
      const inFlight = new Set(markers.map((m) => executionPaths(m.id).reserve))
      for (const name of yield* executionNames) {
        const p = `${EXECUTIONS_DIR}/${name}`
        if (name.endsWith(".reserve") && !inFlight.has(p)) yield* store.remove(p)
      }
      for (const m of markers) {
        const paths = executionPaths(m.id)
        if (Option.isSome(yield* store.stat(paths.record))) {
          yield* store.remove(paths.reserve)
          yield* store.remove(paths.running)
          continue
        }
        if (ownerAlive(m.owner)) continue
        // Its reservation makes room for the record (the run may have filled the disk).
        yield* store.remove(paths.reserve)
        // Only a marker dossier signed becomes a signed record; any other (written by hand, or by a
        // version before signing) is recorded unsigned, and reported so.
        const authentic = (yield* key.check("marker", markerDigest(m), m.signature)).authenticity === "signed"
        const content: ExecutionContent = {
          id: m.id,
          grantId: m.grantId,
          grantDigest: m.grantDigest,
          task: m.task,
          candidateId: m.candidateId,
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
          ignored: []
        }
        const record = authentic ? yield* sealSigned(content) : sealExecution(content)
        yield* store.writeRetained(paths.record, `${JSON.stringify(record, null, 2)}\n`)
        yield* store.remove(paths.running)
        lost.push(m.id)
      }
      return lost
    })

  return {
    loadGrant,
    grantEvents,
    appendGrantEvent,
    grantIds,
    grantAuthenticity,
    requireAuthentic,
    inspectExecution,
    loadExecution,
    sealSigned,
    spentByGrant,
    runningMarkers,
    reapLost
  }
}

export type ExecutionStore = ReturnType<typeof makeExecutionStore>

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

export const encodeRecord = Schema.encodeSync(ExecutionRecordSchema)
