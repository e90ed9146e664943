/**
 * The Journal service over a FileStore and the work folder's Lock. Every write (append,
 * rebuild, recover-tail, import) runs inside `Lock.withLock`, across the whole
 * read → check → write sequence, so concurrent writers are serialized by the OS-released lock.
 * Reads (`inspect`, `studies`) take no lock: an append is one write of whole lines, and a
 * reader that sees a partial write sees an unterminated tail, never a damaged event.
 *
 * Over 400 lines: the seven methods share one closure of locked read → replay → plan → commit
 * helpers (and the instance's verified replays, ./JournalReplayCache.ts), which each write runs
 * under the same lock; `--verify` is ./JournalVerify.ts, the pure rules are in src/domain.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { canonicalJson, sha256Hex } from "../domain/Canonical.js"
import { AliasedFile, InvalidInput, IoError, type LimitExceeded, UnsafePath } from "../domain/Errors.js"
import { DigestMismatch } from "../domain/MonitorErrors.js"
import { normalizeRelative } from "../domain/Paths.js"

import { checkStudyId, isStudyId, type JournalEvent, studyPaths } from "../domain/Journal.js"
import { optionalBoolean, readOptions } from "../domain/Options.js"
import { type AppendResult, type Head, type ImportResult, type InspectResult, type RebuildResult, type RecoverResult, type StudyRow } from "../domain/JournalOutput.js"
import { decodeBatch, legacyEventId, manifestBytes, validateManifest } from "../domain/JournalRules.js"
import {
  ConflictingEvent,
  CorruptJournal,
  DuplicateEventId,
  InvalidManifest,
  StudyNotFound,
  UnimportedLegacyManifest,
  UnknownCandidate,
  UnterminatedTail
} from "../domain/JournalErrors.js"
import { encodeLine, eventText, type Replay, replay } from "../domain/JournalLines.js"
import { candidatesCreatedBy, checkAgainst, manifestOf, type Projection } from "../domain/JournalProjection.js"
import { FileStore, type FileStoreShape } from "../services/FileStore.js"
import { Journal, type JournalShape } from "../services/Journal.js"
import { Lock, type LockShape } from "../services/Lock.js"
import { makeExecutionStore } from "./ExecutionStore.js"
import { checkSignature } from "../domain/Evidence.js"
import { EvidenceKeyUnavailable } from "../domain/ExecErrors.js"
import { EvidenceKey, type EvidenceKeyShape } from "../services/EvidenceKey.js"
import { readThenAppendOf } from "./FileStoreFallbacks.js"
import { type AppendIndex, idHash, makeAppendIndex } from "./JournalAppendIndex.js"
import { makeVerifiedReplays } from "./JournalReplayCache.js"
import { makeJournalVerify } from "./JournalVerify.js"

/** Artifacts whose digest `journal append` computes are read up to this size. */
const ARTIFACT_MAX_BYTES = 16 * 1024 * 1024
const SHA256_PATTERN = /^[0-9a-f]{64}$/
const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const isArtifactEvent = (e: unknown): e is Record<string, unknown> => isRecord(e) && e["type"] === "artifact_linked"

/** A journal larger than this is refused (`LimitExceeded {limit: "fileBytes"}`); 100,000 events take ~25 MiB. */
export const JOURNAL_MAX_BYTES = 1024 * 1024 * 1024
/** How many published manifest digests the private projections record remembers. */
const PROJECTIONS_KEPT = 16

const EMPTY = new Uint8Array(0)

interface Planned {
  readonly appended: Array<string>
  readonly skipped: Array<string>
  readonly head: Head | null
  /** The new journal lines, `""` when there are none. */
  readonly lines: string
}

/** Symlinks and hard links on the journal, manifest or index are `AliasedFile`. */
const aliased = (path: string) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | AliasedFile, R> =>
  Effect.catchIf(
    self,
    (e) => e instanceof UnsafePath && (e.reason === "symlink" || e.reason === "hard-link"),
    () => Effect.fail(new AliasedFile({ path }))
  )

const study$ = (study: string) => Either.match(checkStudyId(study), { onLeft: Effect.fail, onRight: Effect.succeed })

export const makeJournal = (store: FileStoreShape, lock: LockShape, key: EvidenceKeyShape = NO_KEY): JournalShape => {
  const verifyJournal = makeJournalVerify(store, makeExecutionStore(store, key))
  /** The journal's bytes (empty when there is none), refusing aliases. */
  const readJournal = (path: string): Effect.Effect<Uint8Array, AliasedFile | IoError | UnsafePath | LimitExceeded> =>
    store.read(path, { maxBytes: JOURNAL_MAX_BYTES, requireSingleLink: true }).pipe(
      Effect.catchTag("FileNotFound", () => Effect.succeed(EMPTY)),
      aliased(path)
    )

  /** Replay the committed history; a damaged line is `CorruptJournal`. */
  const history = (path: string) =>
    Effect.flatMap(readJournal(path), (bytes) => {
      const r = replay(bytes)
      return r.corrupt === null ? Effect.succeed(r) : Effect.fail(new CorruptJournal(r.corrupt))
    })

  const { verifiedReplay, remember, keepVerified, readBuffer, hasVerified } = makeVerifiedReplays()
  /** The append index (./JournalAppendIndex.ts), over stores that can fingerprint a file. */
  const fingerprint = store.fingerprint
  const appendIndex = fingerprint === undefined ? undefined : makeAppendIndex({ ...store, fingerprint })

  /** `history` for operations under the lock (see `verifiedReplay`). */
  const lockedHistory = (path: string) =>
    Effect.flatMap(readJournal(path), (bytes) =>
      Either.match(verifiedReplay(path, bytes), { onLeft: Effect.fail, onRight: Effect.succeed }))

  /** Run `use` on the locked history and keep it as verified when `use` succeeds. */
  const withVerified = <A, E>(path: string, use: (r: Replay) => Effect.Effect<A, E>) =>
    Effect.flatMap(lockedHistory(path), (r) => Effect.tap(use(r), () => keepVerified(path, r)))

  /** Refuse a file that is a symlink, a hard link or not a regular file (when present). */
  const refuseAlias = (path: string) =>
    Effect.flatMap(aliased(path)(store.stat(path)), (st) =>
      Option.match(st, {
        onNone: (): Effect.Effect<void, AliasedFile | UnsafePath> => Effect.void,
        onSome: (s): Effect.Effect<void, AliasedFile | UnsafePath> =>
          s.kind === "symlink" || (s.kind === "file" && s.nlink > 1)
            ? Effect.fail(new AliasedFile({ path }))
            : s.kind !== "file"
            ? Effect.fail(new UnsafePath({ path, reason: "not-regular-file" }))
            : Effect.void
      }))

  /**
   * Check a decoded batch against the replayed history: what is new, as journal lines. Same id
   * + same canonical content → skipped; same id + other content → refused (nothing to write).
   */
  const plan = <D>(
    r: Replay,
    events: ReadonlyArray<JournalEvent>,
    onDuplicateCandidate: (index: number, candidateId: string) => D
  ): Either.Either<Planned, UnterminatedTail | ConflictingEvent | UnknownCandidate | D> => {
    if (r.tail.state === "unterminated") return Either.left(new UnterminatedTail({ bytes: r.tail.bytes }))
    const appended: Array<string> = []
    const skipped: Array<string> = []
    const lines: Array<string> = []
    let seq = r.events
    let head: Head | null = r.projector.currentHead()
    // Checked against the history without applying to it: a refused batch leaves `r` as read.
    const pending = r.projector.pending()
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!
      const text = eventText(e)
      const existing = r.textOf(e.id)
      if (existing !== undefined) {
        if (existing === text || canonicalJson(JSON.parse(existing)) === text) {
          skipped.push(e.id)
          continue
        }
        return Either.left(new ConflictingEvent({ id: e.id }))
      }
      const problem = pending.check(e)
      if (problem !== null) {
        if (problem._tag === "unknown-candidate") {
          return Either.left(new UnknownCandidate({ eventId: e.id, candidateId: problem.candidateId }))
        }
        return Either.left(onDuplicateCandidate(i, problem.candidateId))
      }
      pending.add(e)
      seq++
      lines.push(encodeLine(seq, text))
      appended.push(e.id)
      head = { seq, id: e.id }
    }
    return Either.right({ appended, skipped, head, lines: lines.join("") })
  }

  /** `plan`, then append the new lines in one write (+ fsync). Must run under the lock. */
  const commit = <D>(
    path: string,
    r: Replay,
    events: ReadonlyArray<JournalEvent>,
    onDuplicateCandidate: (index: number, candidateId: string) => D
  ) =>
    Effect.flatMap(Either.match(plan(r, events, onDuplicateCandidate), { onLeft: Effect.fail, onRight: Effect.succeed }), ({ lines, ...out }) =>
      lines === "" ? Effect.succeed(out) : Effect.as(aliased(path)(store.append(path, lines)), out))

  /** Read a file and append to it (one descriptor when the store offers it). */
  const readThenAppend = store.readThenAppend ?? readThenAppendOf(store)

  /** The input of an append, decoded and checked on its own (before the lock). */
  const appendInput = (study: string, input: unknown) =>
    Either.flatMap(checkStudyId(study), () =>
      Either.flatMap(decodeBatch(input), (events): Either.Either<ReadonlyArray<JournalEvent>, DuplicateEventId> => {
        const seen = new Set<string>()
        for (const e of events) {
          if (seen.has(e.id)) return Either.left(new DuplicateEventId({ id: e.id }))
          seen.add(e.id)
        }
        return Either.right(events)
      }))

  /**
   * `artifact_linked` events may omit `artifact.sha256` and `artifact.bytes`: both are computed
   * from the file (boundary-checked, at most 16 MiB) and filled in before anything else, so the
   * idempotency comparison sees the stored content. Given values must match the file
   * (`DigestMismatch`); with both given and no file at the path, the event is kept as given.
   * Events whose path is not a valid relative path are left to validation.
   */
  const fillDigests = (input: unknown) =>
    Effect.gen(function*() {
      const events: ReadonlyArray<unknown> = Array.isArray(input) ? input : [input]
      let changed = false
      const out: Array<unknown> = []
      for (const e of events) {
        const a = isArtifactEvent(e) && isRecord(e["artifact"]) ? e["artifact"] : undefined
        const p = a?.["path"]
        if (a === undefined || typeof p !== "string" || Either.isLeft(normalizeRelative(p))) {
          out.push(e)
          continue
        }
        const sha = a["sha256"]
        const bytes = a["bytes"]
        // Both given and no file (yet): kept as given, as before; `inspect --verify` reports it missing.
        // An artifact is bound by its digest (never shown): a hard-linked one, as a run may leave, is hashed.
        const found = yield* store.hash(p, { maxBytes: ARTIFACT_MAX_BYTES, requireSingleLink: false }).pipe(
          Effect.map(Option.some),
          Effect.catchTag("FileNotFound", (e) => (sha !== undefined && bytes !== undefined ? Effect.succeed(Option.none()) : Effect.fail(e)))
        )
        if (Option.isNone(found)) {
          out.push(e)
          continue
        }
        const digest = found.value
        if (sha !== undefined && typeof sha === "string" && SHA256_PATTERN.test(sha) && sha !== digest.sha256) {
          return yield* new DigestMismatch({ path: p, expected: sha, actual: digest.sha256 })
        }
        if (typeof bytes === "number" && bytes !== digest.bytes) {
          return yield* new DigestMismatch({ path: p, expected: `${bytes} bytes`, actual: `${digest.bytes} bytes` })
        }
        if (sha === undefined || bytes === undefined) {
          changed = true
          out.push({
            ...(e as object),
            artifact: { ...a, ...(sha === undefined ? { sha256: digest.sha256 } : {}), ...(bytes === undefined ? { bytes: digest.bytes } : {}) }
          })
        } else out.push(e)
      }
      return !changed ? input : Array.isArray(input) ? out : out[0]
    })

  /** Whether `fillDigests` has anything to look at (most appends link no artifact). */
  const linksArtifacts = (input: unknown) =>
    Array.isArray(input) ? input.some(isArtifactEvent) : isArtifactEvent(input)

  const append: JournalShape["append"] = (study, input) =>
    linksArtifacts(input) ? Effect.flatMap(fillDigests(input), (filled) => appendFilled(study, filled)) : appendFilled(study, input)

  const appendFilled = (study: string, input: unknown): ReturnType<JournalShape["append"]> =>
    Effect.suspend((): ReturnType<JournalShape["append"]> => {
      const decoded = appendInput(study, input)
      if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
      const events = decoded.right
      const path = studyPaths(study).journal
      const onDuplicate = (i: number, candidateId: string) =>
        new InvalidInput({
          issues: [{
            path: events.length === 1 && !Array.isArray(input) ? "candidate.id" : `${i}.candidate.id`,
            message: `the candidate '${candidateId}' is already created in this study`
          }]
        })
      // The journal is read, checked and appended to through one descriptor, under the lock.
      const replayed = (index: AppendIndex | undefined) => {
        // A new instance (a new process) keeps the append index current for the next one; an
        // instance that holds a verified replay appends through it and leaves the index alone.
        const keepIndex = appendIndex !== undefined && !hasVerified(path)
        let memory: Buffer | undefined
        const buffer = (size: number) => (memory = readBuffer(size))
        return Effect.flatMap(
          aliased(path)(
            readThenAppend(path, { maxBytes: JOURNAL_MAX_BYTES, buffer }, (bytes) =>
              Either.flatMap(verifiedReplay(path, bytes), (r) =>
                Either.map(plan(r, events, onDuplicate), ({ lines, ...out }) => ({
                  append: lines === "" ? null : lines,
                  value: { out, r }
                }))))
          ),
          ({ out, r }) => {
            const result = { study, ...out, head: out.head! } satisfies AppendResult
            const appendedIds = new Set(out.appended)
            const added = events.filter((e) => appendedIds.has(e.id))
            const state = {
              events: r.events + added.length,
              head: out.head,
              candidates: [...r.projector.candidateIds(), ...added.flatMap(candidatesCreatedBy)]
            }
            const hashes = () => {
              const all = new Uint32Array(state.events)
              for (const [id, seq] of r.ids) all[seq - 1] = idHash(id)
              added.forEach((e, i) => (all[r.events + i] = idHash(e.id)))
              return all
            }
            // A study's first append writes no index (a new study's journal costs nothing to
            // replay, and a batch into it stays one write): its next append builds one.
            const index$ = !keepIndex || (index === undefined && r.events === 0)
              ? Effect.void
              : index !== undefined
              ? (added.length === 0 ? Effect.void : appendIndex.extend(study, index, state, added.map((e) => e.id)))
              : appendIndex.rebuild(study, state, hashes())
            remember(path, r, memory)
            return Effect.as(index$, result)
          }
        )
      }
      /**
       * The append through a current index: only when every id is new for certain (its hash is not
       * in the index); the referential checks are those of `plan`, over the indexed candidates.
       * Undefined: the journal must be replayed.
       */
      const indexed = (index: AppendIndex) => {
        const hashes = events.map((e) => idHash(e.id))
        if (events.length <= 8) {
          if (hashes.some((h) => index.hashes.includes(h))) return undefined
        } else {
          const wanted = new Set(hashes)
          if (index.hashes.some((h) => wanted.has(h))) return undefined
        }
        const known = new Set(index.candidates)
        const created: Array<string> = []
        const has = (id: string) => known.has(id)
        const lines: Array<string> = []
        let seq = index.events
        for (let i = 0; i < events.length; i++) {
          const e = events[i]!
          const problem = checkAgainst(has, e)
          if (problem !== null) {
            return Effect.fail(
              problem._tag === "unknown-candidate"
                ? new UnknownCandidate({ eventId: e.id, candidateId: problem.candidateId })
                : onDuplicate(i, problem.candidateId)
            )
          }
          for (const c of candidatesCreatedBy(e)) {
            created.push(c)
            known.add(c)
          }
          lines.push(encodeLine(++seq, eventText(e)))
        }
        const head = { seq, id: events[events.length - 1]!.id }
        const state = { events: seq, head, candidates: [...index.candidates, ...created] }
        return Effect.flatMap(aliased(path)(store.append(path, lines.join(""))), ({ size }) =>
          // Past the journal's size limit the next append replays, and refuses as before.
          Effect.as(
            size > JOURNAL_MAX_BYTES ? Effect.void : appendIndex!.extend(study, index, state, events.map((e) => e.id)),
            { study, appended: events.map((e) => e.id), skipped: [], head } satisfies AppendResult
          ))
      }
      return lock.withLock(
        appendIndex === undefined || hasVerified(path)
          ? replayed(undefined)
          : Effect.flatMap(appendIndex.load(study), (index) =>
            Option.match(index, {
              onNone: () => replayed(undefined),
              onSome: (ix) => indexed(ix) ?? replayed(ix)
            }))
      )
    })

  const inspectView = (study: string, r: Replay, p: Projection): InspectResult => ({
    study,
    events: r.events,
    tail: r.tail.state === "clean" ? { state: "clean" } : { state: "unterminated", bytes: r.tail.bytes },
    head: p.head,
    protocolVersion: p.protocolVersion,
    candidates: p.candidates,
    selected: p.selected,
    checkpoint: p.checkpoint,
    legacyImports: p.legacyImports
  })

  /** Readers of one study: a study without a journal file does not exist (`journal append` creates one). */
  const requireStudy = (study: string) =>
    Effect.flatMap(store.stat(studyPaths(study).journal), (st) =>
      Option.isNone(st) ? Effect.fail(new StudyNotFound({ study })) : Effect.void)

  const inspect: JournalShape["inspect"] = (study, options) =>
    Effect.gen(function*() {
      yield* study$(study)
      const { verify } = yield* Either.match(readOptions(options, { verify: optionalBoolean }), { onLeft: Effect.fail, onRight: Effect.succeed })
      yield* requireStudy(study)
      const r = yield* history(studyPaths(study).journal)
      const p = r.projector.result()
      const view = inspectView(study, r, p)
      if (verify !== true) return view
      return { ...view, verify: yield* verifyJournal(p) }
    })

  /** The private record of manifest digests this program published (a damaged record counts as empty). */
  const readProjections = (path: string) =>
    store.readText(path, { maxBytes: 1024 * 1024 }).pipe(
      Effect.map((text): ReadonlyArray<string> => {
        try {
          const v = JSON.parse(text) as { manifestSha256?: unknown }
          return Array.isArray(v.manifestSha256) ? v.manifestSha256.filter((x): x is string => typeof x === "string") : []
        } catch {
          return []
        }
      }),
      Effect.catchTags({
        FileNotFound: () => Effect.succeed<ReadonlyArray<string>>([]),
        LimitExceeded: () => Effect.succeed<ReadonlyArray<string>>([])
      })
    )

  const rebuild: JournalShape["rebuild"] = (study) =>
    Effect.gen(function*() {
      yield* study$(study)
      const paths = studyPaths(study)
      // Checked before the lock, so a typo creates nothing (not even the lock file). A study with
      // only a legacy manifest exists: rebuild then refuses with UnimportedLegacyManifest.
      if (Option.isNone(yield* store.stat(paths.manifest))) yield* requireStudy(study)
      return yield* lock.withLock(withVerified(paths.journal, (r) =>
        Effect.gen(function*() {
          const p = r.projector.result()
          const manifest = manifestOf(study, p)
          if (Either.isLeft(validateManifest(manifest))) {
            return yield* Effect.die(new Error("the manifest projection failed its own validator"))
          }
          const mBytes = manifestBytes(manifest)
          const mSha = sha256Hex(mBytes)
          yield* refuseAlias(paths.manifest)
          yield* refuseAlias(paths.index)
          const published = yield* readProjections(paths.projections)
          const current = yield* store.read(paths.manifest, { requireSingleLink: true }).pipe(
            Effect.map(Option.some),
            Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<Uint8Array>())),
            Effect.catchTag("LimitExceeded", () => Effect.succeed(Option.some(EMPTY))),
            aliased(paths.manifest)
          )
          if (Option.isSome(current)) {
            const have = sha256Hex(current.value)
            const ours = have === mSha || published.includes(have) || p.legacyImports.some((l) => l.manifestSha256 === have)
            if (!ours) return yield* new UnimportedLegacyManifest({ path: paths.manifest })
          }
          const seqs = r.projector.seqs()
          const index = {
            version: 1,
            study,
            journal: {
              path: paths.journal,
              events: r.events,
              bytes: r.committedBytes,
              head: p.head
            },
            manifestSha256: mSha,
            candidates: p.candidates.map((c, i) => ({
              id: c.id,
              status: c.status,
              createdBy: c.createdBy,
              createdSeq: seqs[i]!.createdSeq,
              lastSeq: seqs[i]!.lastSeq,
              artifacts: c.artifacts.length,
              executions: c.executions.length,
              lastEvaluationEventId: c.lastEvaluation?.eventId ?? null
            })),
            selected: p.selected,
            checkpointEventId: p.checkpoint?.eventId ?? null,
            legacyImports: p.legacyImports
          }
          const iBytes = `${JSON.stringify(index, null, 2)}\n`
          if (!published.includes(mSha)) {
            const kept = [...published, mSha].slice(-PROJECTIONS_KEPT)
            yield* store.writeAtomic(paths.projections, `${JSON.stringify({ study, manifestSha256: kept }, null, 2)}\n`)
          }
          const m = yield* aliased(paths.manifest)(store.writeAtomic(paths.manifest, mBytes))
          const ix = yield* aliased(paths.index)(store.writeAtomic(paths.index, iBytes))
          return {
            study,
            events: r.events,
            head: p.head,
            manifest: { path: paths.manifest, ...m },
            index: { path: paths.index, ...ix }
          } satisfies RebuildResult
        }))
      )
    })

  const recoverTail: JournalShape["recoverTail"] = (study) =>
    Effect.gen(function*() {
      yield* study$(study)
      yield* requireStudy(study)
      const paths = studyPaths(study)
      return yield* lock.withLock(
        Effect.gen(function*() {
          const bytes = yield* readJournal(paths.journal)
          const committed = bytes.lastIndexOf(0x0a) + 1
          if (committed === bytes.byteLength) return { study, recovered: null } satisfies RecoverResult
          const tail = bytes.subarray(committed)
          const sha256 = sha256Hex(tail)
          const path = paths.recovered(sha256)
          yield* store.writeRetained(path, tail)
          yield* store.truncate(paths.journal, committed).pipe(
            // Removed by another process since it was read (the lock binds only dossier): a typed, retryable refusal.
            Effect.catchTag("FileNotFound", () => Effect.fail(new IoError({ path: paths.journal, operation: "truncate", code: "ENOENT" }))),
            aliased(paths.journal)
          )
          return { study, recovered: { path, bytes: tail.byteLength, sha256 } } satisfies RecoverResult
        })
      )
    })

  const importLegacy: JournalShape["importLegacy"] = (study) =>
    Effect.gen(function*() {
      yield* study$(study)
      const paths = studyPaths(study)
      return yield* lock.withLock(withVerified(paths.journal, (r) =>
        Effect.gen(function*() {
          if (r.tail.state === "unterminated") return yield* new UnterminatedTail({ bytes: r.tail.bytes })
          const bytes = yield* store.read(paths.manifest, { requireSingleLink: true }).pipe(
            aliased(paths.manifest),
            Effect.catchTag("LimitExceeded", (e) =>
              Effect.fail(new InvalidManifest({ issues: [{ path: "", message: `the manifest has more than ${e.max} bytes` }] })))
          )
          const sha256 = sha256Hex(bytes)
          const p = r.projector.result()
          const already = p.legacyImports.find((l) => l.manifestSha256 === sha256)
          if (already !== undefined) {
            yield* store.writeRetained(already.snapshotPath, bytes)
            return {
              study,
              eventId: already.eventId,
              snapshot: { path: already.snapshotPath, sha256 },
              imported: false
            } satisfies ImportResult
          }
          const published = yield* readProjections(paths.projections)
          const isProjection = published.includes(sha256) || sha256 === sha256Hex(manifestBytes(manifestOf(study, p)))
          if (isProjection) {
            const last = p.legacyImports[p.legacyImports.length - 1]
            if (last !== undefined) {
              return {
                study,
                eventId: last.eventId,
                snapshot: { path: last.snapshotPath, sha256: last.manifestSha256 },
                imported: false
              } satisfies ImportResult
            }
            return yield* new InvalidManifest({
              issues: [{ path: "", message: "manifest.json is a projection dossier wrote from the journal, not a legacy manifest" }]
            })
          }
          let value: unknown
          try {
            value = JSON.parse(Buffer.from(bytes).toString("utf8"))
          } catch (e) {
            return yield* new InvalidManifest({ issues: [{ path: "", message: `not valid JSON: ${(e as Error).message}` }] })
          }
          const m = validateManifest(value)
          if (Either.isLeft(m)) return yield* new InvalidManifest({ issues: m.left })
          if (m.right.study !== study) {
            return yield* new InvalidManifest({
              issues: [{ path: "study", message: `the manifest is of the study '${m.right.study}', not '${study}'` }]
            })
          }
          const snapshotPath = paths.legacy(sha256)
          const event: JournalEvent = {
            id: legacyEventId(sha256),
            type: "legacy_imported",
            manifestSha256: sha256,
            snapshotPath,
            protocolVersion: m.right.protocolVersion,
            candidates: m.right.candidates,
            completed: m.right.completed,
            selected: m.right.selected
          }
          // Check before writing anything, so a refused import leaves no snapshot behind.
          const problem = r.projector.check(event)
          if (problem !== null) {
            const i = m.right.candidates.findIndex((c) => c.id === problem.candidateId)
            return yield* new InvalidManifest({
              issues: [{ path: `candidates.${i}.id`, message: `the candidate '${problem.candidateId}' already exists in the journal` }]
            })
          }
          yield* store.writeRetained(snapshotPath, bytes)
          const out = yield* commit(paths.journal, r, [event], (i, candidateId) =>
            new InvalidManifest({ issues: [{ path: `candidates.${i}.id`, message: `the candidate '${candidateId}' already exists` }] }))
          return {
            study,
            eventId: event.id,
            snapshot: { path: snapshotPath, sha256 },
            imported: out.appended.length > 0
          } satisfies ImportResult
        }))
      )
    })

  const studies: JournalShape["studies"] = Effect.gen(function*() {
    const entries = yield* store.list("research")
    const rows: Array<StudyRow> = []
    for (const entry of entries) {
      if (entry.kind !== "directory" || !isStudyId(entry.name)) continue
      const path = studyPaths(entry.name).journal
      const st = yield* store.stat(path)
      if (Option.isNone(st)) continue
      const corruptRow: StudyRow = { study: entry.name, tail: "corrupt", tailBytes: 0, corruptLine: null, head: null }
      if (st.value.kind !== "file" || st.value.nlink > 1) {
        rows.push(corruptRow)
        continue
      }
      const bytes = yield* store.read(path, { maxBytes: JOURNAL_MAX_BYTES, requireSingleLink: true }).pipe(
        Effect.map(Option.some),
        Effect.catchTags({
          FileNotFound: () => Effect.succeed(Option.none<Uint8Array>()),
          LimitExceeded: () => Effect.succeed(Option.some(EMPTY)),
          UnsafePath: () => Effect.succeed(Option.some(EMPTY))
        })
      )
      if (Option.isNone(bytes)) continue
      if (bytes.value === EMPTY) {
        rows.push(corruptRow)
        continue
      }
      const r = replay(bytes.value)
      rows.push({
        study: entry.name,
        tail: r.corrupt !== null ? "corrupt" : r.tail.state,
        tailBytes: r.tail.bytes,
        corruptLine: r.corrupt?.line ?? null,
        head: r.projector.currentHead()
      })
    }
    return rows.sort((a, b) => (a.study < b.study ? -1 : a.study > b.study ? 1 : 0))
  })

  return { studies, append, inspect, rebuild, recoverTail, importLegacy }
}

/**
 * Without an EvidenceKey in the context (a FileStore and Lock composed by hand), signatures cannot
 * be checked: a signed execution is `unverifiable`, never `verified`.
 */
const NO_KEY: EvidenceKeyShape = {
  sign: () => Effect.fail(new EvidenceKeyUnavailable({ reason: "no evidence key in this composition" })),
  check: (kind, digest, signature) => Effect.sync(() => checkSignature({ missing: "no evidence key in this composition" }, kind, digest, signature))
}

export const JournalLive: Layer.Layer<Journal, never, FileStore | Lock> = Layer.effect(
  Journal,
  Effect.map(Effect.all([FileStore, Lock, Effect.serviceOption(EvidenceKey)]), ([store, lock, key]) =>
    makeJournal(store, lock, Option.getOrElse(key, () => NO_KEY)))
)
