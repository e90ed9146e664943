/**
 * The journal in a work folder: the folder adapter of JournalStore (./JournalStoreFolder.ts) and
 * the folder-only service beside it, JournalFolder — the manifest.json/index.json projections
 * (`rebuild`), tail recovery (`recoverTail`) and legacy import (`importLegacy`). Each runs under
 * `Lock.withLock` across its whole read → check → write sequence, on the journal's bytes.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { sha256Hex } from "../../domain/Canonical.js"
import { parseJsonBytes } from "../../domain/Decode.js"
import { AliasedFile, FileNotFound, IoError, UnsafePath } from "../../domain/Errors.js"
import { checkStudyId, type JournalEvent, studyPaths } from "../../domain/Journal.js"
import { checkBatch, entryOf, entryText, splitBatch } from "../../domain/JournalAppend.js"
import {
  InvalidManifest,
  StudyNotFound,
  UnimportedLegacyManifest,
  UnterminatedTail
} from "../../domain/JournalErrors.js"
import { encodeLine, storedDigest } from "../../domain/JournalLines.js"
import type { ImportResult, RebuildResult, RecoverResult } from "../../domain/JournalOutput.js"
import { manifestOf } from "../../domain/JournalProjection.js"
import { legacyEventId, manifestBytes, validateManifest } from "../../domain/JournalRules.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import { JournalFolder, type JournalFolderShape } from "../../services/JournalFolder.js"
import { Lock, type LockShape } from "../../services/Lock.js"
import { JournalStore } from "../../services/ports/JournalStore.js"
import { aliased, makeJournalFolderStore } from "./JournalStoreFolder.js"

/** How many published manifest digests the private projections record remembers. */
const PROJECTIONS_KEPT = 16
const EMPTY = new Uint8Array(0)

const study$ = (study: string) => Either.match(checkStudyId(study), { onLeft: Effect.fail, onRight: Effect.succeed })

export const makeJournalFolder = (
  store: FileStoreShape,
  lock: LockShape,
  folder: ReturnType<typeof makeJournalFolderStore>
): JournalFolderShape => {
  const { readJournal, withVerified, appendLines } = folder

  /**
   * Readers of one study: a study without a journal file does not exist (`journal append` creates
   * one). A symlink above the journal (the study folder) is `AliasedFile`, as for an append.
   */
  const requireStudy = (study: string) => {
    const path = studyPaths(study).journal
    return Effect.flatMap(
      aliased(path)(store.stat(path)),
      (st) => Option.isNone(st) ? Effect.fail(new StudyNotFound({ study })) : Effect.void
    )
  }

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

  /** The private record of manifest digests this program published (a damaged record counts as empty). */
  const readProjections = (path: string) =>
    store.readText(path, { maxBytes: 1024 * 1024 }).pipe(
      Effect.map((text): ReadonlyArray<string> => {
        try {
          const v = JSON.parse(text) as { manifestSha256?: unknown }
          return Array.isArray(v.manifestSha256)
            ? v.manifestSha256.filter((x): x is string => typeof x === "string")
            : []
        } catch {
          return []
        }
      }),
      Effect.catchTags({
        FileNotFound: () => Effect.succeed<ReadonlyArray<string>>([]),
        LimitExceeded: () => Effect.succeed<ReadonlyArray<string>>([])
      })
    )

  const rebuild: JournalFolderShape["rebuild"] = (study) =>
    Effect.gen(function*() {
      yield* study$(study)
      const paths = studyPaths(study)
      // Checked before the lock, so a typo creates nothing (not even the lock file). A study with
      // only a legacy manifest exists: rebuild then refuses with UnimportedLegacyManifest.
      // A symlink above the manifest is one above the journal: `AliasedFile` naming the journal.
      if (Option.isNone(yield* aliased(paths.journal)(store.stat(paths.manifest)))) yield* requireStudy(study)
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
            const ours = have === mSha || published.includes(have) ||
              p.legacyImports.some((l) => l.manifestSha256 === have)
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
        })))
    })

  const recoverTail: JournalFolderShape["recoverTail"] = (study) =>
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
            Effect.catchTag("FileNotFound", () =>
              Effect.fail(new IoError({ path: paths.journal, operation: "truncate", code: "ENOENT" }))),
            aliased(paths.journal)
          )
          return { study, recovered: { path, bytes: tail.byteLength, sha256 } } satisfies RecoverResult
        })
      )
    })

  const importLegacy: JournalFolderShape["importLegacy"] = (study) =>
    Effect.gen(function*() {
      yield* study$(study)
      const paths = studyPaths(study)
      // Checked before the lock, so a study with neither a manifest nor a journal creates nothing
      // (not even the lock file); with a journal, its tail and lines are judged first, under the lock.
      // A symlink above them (the study folder) is `AliasedFile` naming the journal, as for rebuild.
      const absent = (path: string) => Effect.map(aliased(paths.journal)(store.stat(path)), Option.isNone)
      if ((yield* absent(paths.manifest)) && (yield* absent(paths.journal))) {
        return yield* new FileNotFound({ path: paths.manifest })
      }
      return yield* lock.withLock(withVerified(paths.journal, (r) =>
        Effect.gen(function*() {
          if (r.tail.state === "unterminated") return yield* new UnterminatedTail({ bytes: r.tail.bytes })
          const bytes = yield* store.read(paths.manifest, { requireSingleLink: true }).pipe(
            aliased(paths.manifest),
            Effect.catchTag("LimitExceeded", (e) =>
              Effect.fail(
                new InvalidManifest({ issues: [{ path: "", message: `the manifest has more than ${e.max} bytes` }] })
              ))
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
              issues: [{
                path: "",
                message:
                  "manifest.json is the projection dossier wrote from this study's journal, not a legacy manifest: the journal already holds what it says, so there is nothing to import"
              }]
            })
          }
          const value = parseJsonBytes(bytes)
          if (Either.isLeft(value)) return yield* new InvalidManifest({ issues: value.left.issues })
          const m = validateManifest(value.right)
          if (Either.isLeft(m)) {
            return yield* new InvalidManifest({ issues: m.left })
          }
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
              issues: [{
                path: `candidates.${i}.id`,
                message: `the candidate '${problem.candidateId}' already exists in the journal`
              }]
            })
          }
          yield* store.writeRetained(snapshotPath, bytes)
          // The journal's rules on the history read under this lock, then one write.
          const entry = entryOf(event)
          const view = {
            tail: r.tail,
            digestOf: (id: string) => {
              const text = r.textOf(id)
              return text === undefined ? undefined : storedDigest(text)
            },
            claimed: r.projector.hasCandidate
          }
          const refused = checkBatch([entry], (i, candidateId) =>
            new InvalidManifest({
              issues: [{ path: `candidates.${i}.id`, message: `the candidate '${candidateId}' already exists` }]
            }))(view)
          if (refused !== null) return yield* refused
          const split = splitBatch([entry], view.digestOf)
          if (Either.isLeft(split)) {
            return yield* split.left
          }
          const { fresh } = split.right
          if (fresh.length > 0) {
            yield* appendLines(paths.journal, encodeLine(r.events + 1, entryText(entry), entry.digest))
          }
          return {
            study,
            eventId: event.id,
            snapshot: { path: snapshotPath, sha256 },
            imported: fresh.length > 0
          } satisfies ImportResult
        })))
    })

  return { rebuild, recoverTail, importLegacy }
}

/** The folder adapter of JournalStore and the JournalFolder service, over one FileStore and Lock. */
export const JournalFolderLayer: Layer.Layer<JournalStore | JournalFolder, never, FileStore | Lock> = Layer
  .effectContext(
    Effect.map(Effect.all([FileStore, Lock]), ([store, lock]) => {
      const folder = makeJournalFolderStore(store)
      return Context.make(JournalStore, folder.port).pipe(
        Context.add(JournalFolder, makeJournalFolder(store, lock, folder))
      )
    })
  )
