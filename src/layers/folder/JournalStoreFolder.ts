/**
 * The folder adapter of JournalStore: each study's journal is `research/<study>/research-events.jsonl`,
 * one line per event (src/domain/JournalLines.ts), written as it always was, byte for byte.
 *
 * An append reads, checks and appends through one descriptor (FileStore `readThenAppend`), under
 * the caller's lock. What keeps it cheap whatever the history's length is folder business:
 * - the append index (./JournalAppendIndex.ts): a new process appends new ids without replaying
 *   the journal while the journal's fingerprint is the one the index recorded;
 * - the verified replays of this instance (./JournalReplayCache.ts): a process that appends again
 *   replays only what follows the bytes it verified.
 * `makeJournalFolderStore` also hands the folder service (./JournalFolderLive.ts) the locked reads
 * it shares with the appends.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { AliasedFile, type IoError, type LimitExceeded, UnsafePath } from "../../domain/Errors.js"
import { isStudyId, type JournalEvent, studyPaths } from "../../domain/Journal.js"
import { type BatchEntry, entryText, splitBatch } from "../../domain/JournalAppend.js"
import { type ConflictingEvent, CorruptJournal } from "../../domain/JournalErrors.js"
import { encodeLine, eventDigest, type Replay, replay, storedDigest } from "../../domain/JournalLines.js"
import type { StudyRow } from "../../domain/JournalOutput.js"
import { rememberProjection } from "../../domain/JournalProjection.js"
import type { FileStoreShape } from "../../services/FileStore.js"
import type {
  AppendView,
  JournalAppended,
  JournalStoreShape,
  JournalTail,
  StoredJournal
} from "../../services/ports/JournalStore.js"
import type { LoggedEvent } from "../../services/Store.js"
import { readThenAppendOf } from "../FileStoreFallbacks.js"
import { type AppendIndex, idHash, makeAppendIndex } from "./JournalAppendIndex.js"
import { makeVerifiedReplays } from "./JournalReplayCache.js"

/** A journal larger than this is refused (`LimitExceeded {limit: "fileBytes"}`); 100,000 events take ~25 MiB. */
export const JOURNAL_MAX_BYTES = 1024 * 1024 * 1024

const EMPTY = new Uint8Array(0)
const CLEAN: JournalTail = { state: "clean", bytes: 0 }

const tailOf = (r: Replay): JournalTail =>
  r.tail.state === "clean" ? CLEAN : { state: "unterminated", bytes: r.tail.bytes }

/** Symlinks and hard links on the journal, manifest or index are `AliasedFile`. */
export const aliased =
  (path: string) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | AliasedFile, R> =>
    Effect.catchIf(
      self,
      (e) => e instanceof UnsafePath && (e.reason === "symlink" || e.reason === "hard-link"),
      () => Effect.fail(new AliasedFile({ path }))
    )

/** A stored event whose digest is computed when asked (inspect reads every event, never a digest). */
class StoredEvent implements LoggedEvent<JournalEvent> {
  constructor(readonly event: JournalEvent) {}
  get id() {
    return this.event.id
  }
  get digest() {
    return eventDigest(this.event)
  }
}

/** What an append decided on a view: the new entries, their lines, its answer. */
interface Decided {
  readonly fresh: ReadonlyArray<BatchEntry>
  readonly lines: string
  readonly outcome: JournalAppended
}

/** The view an append's check sees of a replayed journal. */
const viewOf = (r: Replay): AppendView => ({
  events: r.events,
  head: r.projector.currentHead(),
  tail: tailOf(r),
  digestOf: (id) => {
    const text = r.textOf(id)
    return text === undefined ? undefined : storedDigest(text)
  },
  claimed: r.projector.hasCandidate
})

export const makeJournalFolderStore = (store: FileStoreShape) => {
  /** The journal's bytes (empty when there is none), refusing aliases. */
  const readJournal = (path: string): Effect.Effect<Uint8Array, AliasedFile | IoError | UnsafePath | LimitExceeded> =>
    store.read(path, { maxBytes: JOURNAL_MAX_BYTES, requireSingleLink: true }).pipe(
      Effect.catchTag("FileNotFound", () => Effect.succeed(EMPTY)),
      aliased(path)
    )

  const { verifiedReplay, remember, keepVerified, readBuffer, hasVerified } = makeVerifiedReplays()
  /** The append index (./JournalAppendIndex.ts), over stores that can fingerprint a file. */
  const fingerprint = store.fingerprint
  const appendIndex = fingerprint === undefined ? undefined : makeAppendIndex({ ...store, fingerprint })

  /** The history read under the lock (see `verifiedReplay`). */
  const lockedHistory = (path: string) =>
    Effect.flatMap(
      readJournal(path),
      (bytes) => Either.match(verifiedReplay(path, bytes), { onLeft: Effect.fail, onRight: Effect.succeed })
    )

  /** Run `use` on the locked history and keep it as verified when `use` succeeds. Under the lock. */
  const withVerified = <A, E>(path: string, use: (r: Replay) => Effect.Effect<A, E>) =>
    Effect.flatMap(lockedHistory(path), (r) => Effect.tap(use(r), () => keepVerified(path, r)))

  /** Whether the study has a journal file (a symlinked study folder is `AliasedFile`, as for an append). */
  const exists = (study: string) => {
    const path = studyPaths(study).journal
    return Effect.map(aliased(path)(store.stat(path)), Option.isSome)
  }

  const read: JournalStoreShape["read"] = (study) =>
    Effect.flatMap(exists(study), (found) => {
      if (!found) return Effect.succeed(Option.none())
      const path = studyPaths(study).journal
      return Effect.flatMap(readJournal(path), (bytes) => {
        const r = replay(bytes)
        if (r.corrupt !== null) return Effect.fail(new CorruptJournal(r.corrupt))
        // The events are decoded again only when asked for: `projectionOf` takes the projection
        // this replay built, so that an inspection keeps no event (100,000 of them cost seconds of GC).
        let events: ReadonlyArray<LoggedEvent<JournalEvent>> | undefined
        const history: StoredJournal = {
          tail: tailOf(r),
          get events() {
            if (events === undefined) {
              const list: Array<JournalEvent> = []
              replay(bytes, list)
              events = list.map((e) => new StoredEvent(e))
            }
            return events
          }
        }
        rememberProjection(history, r.projector, r.events)
        return Effect.succeed(Option.some(history))
      })
    })

  const append = <E>(
    study: string,
    batch: ReadonlyArray<BatchEntry>,
    check: (view: AppendView) => E | null
  ): Effect.Effect<
    JournalAppended,
    AliasedFile | IoError | UnsafePath | LimitExceeded | CorruptJournal | ConflictingEvent | E
  > =>
    Effect.suspend(() => {
      const path = studyPaths(study).journal
      /** Check the batch on a view, then what is new as journal lines. */
      const decide = (view: AppendView): Either.Either<Decided, E | ConflictingEvent> => {
        const refused = check(view)
        if (refused !== null) return Either.left(refused)
        return Either.map(splitBatch(batch, view.digestOf), ({ existing, fresh }) => {
          let seq = view.events
          const lines = fresh.map((e) => encodeLine(++seq, entryText(e), e.digest)).join("")
          const last = fresh[fresh.length - 1]
          const outcome: JournalAppended = {
            appended: fresh.map((e) => e.id),
            existing,
            head: last === undefined ? view.head : { seq, id: last.id }
          }
          return { lines, fresh, outcome }
        })
      }
      // The journal is read, checked and appended to through one descriptor, under the lock.
      const replayed = (index: AppendIndex | undefined) => {
        // A new instance (a new process) keeps the append index current for the next one; an
        // instance that holds a verified replay appends through it and leaves the index alone.
        const keepIndex = appendIndex !== undefined && !hasVerified(path)
        let memory: Buffer | undefined
        const buffer = (size: number) => (memory = readBuffer(size))
        return Effect.flatMap(
          aliased(path)(
            readThenAppendOf$(path, { maxBytes: JOURNAL_MAX_BYTES, buffer }, (bytes) =>
              Either.flatMap(verifiedReplay(path, bytes), (r) =>
                Either.map(decide(viewOf(r)), ({ fresh, lines, outcome }) => ({
                  append: lines === "" ? null : lines,
                  value: { fresh, outcome, r }
                }))))
          ),
          ({ fresh, outcome, r }) => {
            const state = {
              events: r.events + fresh.length,
              head: outcome.head,
              candidates: [
                ...r.projector.candidateIds(),
                ...fresh.flatMap((e) =>
                  e.claims
                )
              ]
            }
            const hashes = () => {
              const all = new Uint32Array(state.events)
              for (const [id, seq] of r.ids) {
                all[seq - 1] = idHash(id)
              }
              fresh.forEach((e, i) => (all[r.events + i] = idHash(e.id)))
              return all
            }
            // A study's first append writes no index (a new study's journal costs nothing to
            // replay, and a batch into it stays one write): its next append builds one.
            const index$ = !keepIndex || (index === undefined && r.events === 0)
              ? Effect.void
              : index !== undefined
              ? (fresh.length === 0 ? Effect.void : appendIndex.extend(
                study,
                index,
                state,
                fresh.map((e) =>
                  e.id
                )
              ))
              : appendIndex.rebuild(study, state, hashes())
            remember(path, r, memory)
            return Effect.as(index$, outcome)
          }
        )
      }
      /**
       * The append through a current index: only when every id is new for certain (its hash is not
       * in the index), over the indexed candidates. Undefined: the journal must be replayed.
       */
      const indexed = (index: AppendIndex) => {
        const hashes = batch.map((e) => idHash(e.id))
        if (batch.length <= 8) {
          if (hashes.some((h) => index.hashes.includes(h))) return undefined
        } else {
          const wanted = new Set(hashes)
          if (index.hashes.some((h) => wanted.has(h))) return undefined
        }
        const known = new Set(index.candidates)
        const view: AppendView = {
          events: index.events,
          head: index.head,
          tail: CLEAN,
          digestOf: () => undefined,
          claimed: (name) => known.has(name)
        }
        const decided = decide(view)
        if (Either.isLeft(decided)) return Effect.fail(decided.left)
        const { fresh, lines, outcome } = decided.right
        const state = {
          events: index.events + fresh.length,
          head: outcome.head,
          candidates: [...index.candidates, ...fresh.flatMap((e) => e.claims)]
        }
        return Effect.flatMap(aliased(path)(store.append(path, lines)), ({ size }) =>
          // Past the journal's size limit the next append replays, and refuses as before.
          Effect.as(
            size > JOURNAL_MAX_BYTES ? Effect.void : appendIndex!.extend(
              study,
              index,
              state,
              fresh.map((e) => e.id)
            ),
            outcome
          ))
      }
      return appendIndex === undefined || hasVerified(path)
        ? replayed(undefined)
        : Effect.flatMap(appendIndex.load(study), (index) =>
          Option.match(index, {
            onNone: () => replayed(undefined),
            onSome: (ix) => indexed(ix) ?? replayed(ix)
          }))
    })

  /** Read a file and append to it (one descriptor when the store offers it). */
  const readThenAppendOf$ = store.readThenAppend ?? readThenAppendOf(store)

  /**
   * Append lines already checked on `r` (a locked, verified history) with one write; the append
   * index is left to notice the change (its fingerprint no longer matches).
   */
  const appendLines = (path: string, lines: string) => Effect.asVoid(aliased(path)(store.append(path, lines)))

  const studies: JournalStoreShape["studies"] = Effect.gen(function*() {
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

  const lines: JournalStoreShape["lines"] = (study, maxBytes) =>
    store.read(studyPaths(study).journal, { maxBytes }).pipe(
      Effect.map(Option.some),
      Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<Uint8Array>()))
    )

  const port: JournalStoreShape = { read, append, studies, lines }
  return { port, readJournal, withVerified, appendLines }
}
