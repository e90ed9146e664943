/**
 * The Journal service: the journal's logic, once, over the JournalStore port
 * (src/services/ports/JournalStore.ts) and the Lock. Every append runs inside `Lock.withLock`
 * (a folder takes its lock file, a SQL store opens one transaction) — or, a batch that links no
 * file, as one command of the store's own when it offers one (`JournalStore.appendCommand`: the
 * same transaction and lock without a region), the region deciding what it did not store — the store checking the
 * batch with the journal's rules (src/domain/JournalAppend.ts) on what it holds. Reads
 * (`inspect`, `studies`, `lines`) take no lock. The folder-only operations (`rebuild`,
 * `recoverTail`, `importLegacy`) are the JournalFolder service's (src/layers/folder/), when the
 * composition has one.
 *
 * Layers: `JournalFromStore` (over any JournalStore, JournalArtifacts and Lock) and `JournalLive`
 * (the folder: over a FileStore and a Lock, as before).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { InvalidInput, UnsafePath } from "../domain/Errors.js"
import { checkStudyId, type JournalEvent } from "../domain/Journal.js"
import { checkBatch, entryOf } from "../domain/JournalAppend.js"
import { DuplicateEventId, StudyNotFound } from "../domain/JournalErrors.js"
import type { AppendResult, InspectResult } from "../domain/JournalOutput.js"
import { type Projection, projectionOf } from "../domain/JournalProjection.js"
import { decodeBatch } from "../domain/JournalRules.js"
import { DigestMismatch } from "../domain/MonitorErrors.js"
import { integer, optionalBoolean, readArgs, readOptions } from "../domain/Options.js"
import { stateFileAt } from "../domain/Ownership.js"
import { normalizeRelative } from "../domain/Paths.js"
import type { FileStore } from "../services/FileStore.js"
import { Journal, type JournalShape } from "../services/Journal.js"
import { JournalFolder, type JournalFolderShape } from "../services/JournalFolder.js"
import { Lock, type LockShape } from "../services/Lock.js"
import {
  type AppendView,
  type JournalAppended,
  JournalArtifacts,
  type JournalArtifactsShape,
  JournalStore,
  type JournalStoreShape,
  type JournalTail
} from "../services/ports/JournalStore.js"
import { JournalArtifactsFolder } from "./folder/JournalArtifactsFolder.js"
import { JournalFolderLayer } from "./folder/JournalFolderLive.js"
import { spanned } from "./Spans.js"

/** Artifacts whose digest `journal append` computes are read up to this size. */
export const ARTIFACT_MAX_BYTES = 16 * 1024 * 1024
const SHA256_PATTERN = /^[0-9a-f]{64}$/
/** The digest an unread artifact's event carries to the journal's checks (never stored). */
const PLACEHOLDER_SHA256 = "0".repeat(64)
/** What reading an artifact may refuse: answered after the journal's own checks. */
type ArtifactRefusal = Effect.Effect.Error<ReturnType<JournalArtifactsShape["digest"]>> | DigestMismatch
const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
const isArtifactEvent = (e: unknown): e is Record<string, unknown> => isRecord(e) && e["type"] === "artifact_linked"

const study$ = (study: string) => Either.match(checkStudyId(study), { onLeft: Effect.fail, onRight: Effect.succeed })

/** Without a JournalFolder the folder-only operations are a composition error, not a refusal a user meets. */
const noFolder = (operation: string) =>
  Effect.dieMessage(`journal ${operation} needs the JournalFolder service (a work folder)`)

export const makeJournal = (
  journals: JournalStoreShape,
  artifacts: JournalArtifactsShape,
  lock: LockShape,
  folder: Option.Option<JournalFolderShape> = Option.none()
): JournalShape => {
  /** The input of an append, decoded and checked on its own (before the lock). */
  const appendInput = (study: string, input: unknown) =>
    Either.flatMap(
      checkStudyId(study),
      () =>
        Either.flatMap(decodeBatch(input), (events): Either.Either<ReadonlyArray<JournalEvent>, DuplicateEventId> => {
          const seen = new Set<string>()
          for (const e of events) {
            if (seen.has(e.id)) return Either.left(new DuplicateEventId({ id: e.id }))
            seen.add(e.id)
          }
          return Either.right(events)
        })
    )

  /**
   * `artifact_linked` events may omit `artifact.sha256` and `artifact.bytes`: both are computed
   * from the file (boundary-checked, at most 16 MiB) and filled in before the journal is read, so
   * the idempotency comparison sees the stored content; a file's refusal waits for the journal's. Given values must match the file
   * (`DigestMismatch`); with both given and no file at the path, the event is kept as given.
   * Events whose path is not a valid relative path are left to validation.
   */
  const fillDigests = (input: unknown) =>
    Effect.gen(function*() {
      const events: ReadonlyArray<unknown> = Array.isArray(input) ? input : [input]
      let changed = false
      const out: Array<unknown> = []
      // A file's refusal is kept (the first, in batch order) and answered only after what the
      // batch and the journal decide without the files (references, conflicts), under the lock;
      // its event goes there with placeholder digests, never stored.
      let deferred: ArtifactRefusal | undefined = undefined
      const unread = new Set<string>()
      const defer = (e: Record<string, unknown>, a: Record<string, unknown>, refusal: ArtifactRefusal) => {
        if (deferred === undefined) deferred = refusal
        if (typeof e["id"] === "string") unread.add(e["id"])
        changed = true
        out.push({
          ...e,
          artifact: {
            ...a,
            ...(typeof a["sha256"] === "string" ? {} : { sha256: PLACEHOLDER_SHA256 }),
            ...(typeof a["bytes"] === "number" ? {} : { bytes: 0 })
          }
        })
      }
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
        const found = yield* artifacts.digest(p, ARTIFACT_MAX_BYTES).pipe(
          Effect.map((d) => Either.right(Option.some(d))),
          Effect.catchAll((refusal) =>
            Effect.succeed(
              refusal._tag === "FileNotFound" && sha !== undefined && bytes !== undefined
                ? Either.right(Option.none())
                : Either.left(refusal)
            )
          )
        )
        if (Either.isLeft(found)) {
          defer(e as Record<string, unknown>, a, found.left)
          continue
        }
        if (Option.isNone(found.right)) {
          out.push(e)
          continue
        }
        const digest = found.right.value
        if (sha !== undefined && typeof sha === "string" && SHA256_PATTERN.test(sha) && sha !== digest.sha256) {
          defer(
            e as Record<string, unknown>,
            a,
            new DigestMismatch({ path: p, expected: sha, actual: digest.sha256 })
          )
          continue
        }
        if (typeof bytes === "number" && bytes !== digest.bytes) {
          defer(
            e as Record<string, unknown>,
            a,
            new DigestMismatch({ path: p, expected: `${bytes} bytes`, actual: `${digest.bytes} bytes` })
          )
          continue
        }
        if (sha === undefined || bytes === undefined) {
          changed = true
          out.push({
            ...(e as object),
            artifact: {
              ...a,
              ...(sha === undefined ? { sha256: digest.sha256 } : {}),
              ...(bytes === undefined ? { bytes: digest.bytes } : {})
            }
          })
        } else out.push(e)
      }
      const filled = !changed ? input : Array.isArray(input) ? out : out[0]
      return { filled, deferred: deferred as ArtifactRefusal | undefined, unread }
    })

  /**
   * An artifact's `sha256` and `bytes` may be left out of an input (they are computed); when the
   * event is refused for another reason before they could be (a bad path), they are not missing.
   */
  const omittedDigest = (input: unknown, issue: { readonly path: string; readonly message: string }) => {
    const m = /^(?:(\d+)\.)?artifact\.(sha256|bytes)$/.exec(issue.path)
    if (m === null || issue.message !== "is missing") return false
    const event = Array.isArray(input) ? (m[1] === undefined ? undefined : input[Number(m[1])]) : input
    return isArtifactEvent(event) && isRecord(event["artifact"]) && !(m[2]! in event["artifact"])
  }
  const withoutOmittedDigests = <E extends { readonly _tag: string }>(input: unknown, e: E): E | InvalidInput => {
    if (e._tag !== "InvalidInput") return e
    const issues = (e as unknown as InvalidInput).issues.filter((issue) => !omittedDigest(input, issue))
    return issues.length === 0 ? e : new InvalidInput({ issues })
  }

  /** Whether `fillDigests` has anything to look at (most appends link no artifact). */
  const linksArtifacts = (input: unknown) => Array.isArray(input) ? input.some(isArtifactEvent) : isArtifactEvent(input)

  /**
   * The input's own refusal (study id, every event's shape and fields, duplicate ids), the
   * digests it may leave out aside: decided before any file is read, so that a batch with a bad
   * event and a missing artifact answers every issue of the data, not the missing file.
   */
  const dataRefusal = (study: string, input: unknown) => {
    const decoded = appendInput(study, input)
    if (Either.isRight(decoded)) return undefined
    const e = decoded.left
    return e._tag === "InvalidInput" && e.issues.every((issue) => omittedDigest(input, issue))
      ? undefined
      : withoutOmittedDigests(input, e)
  }

  /**
   * An artifact at one of dossier's own state files (under `.dossier/`, `plan.md`, a study's
   * journal, manifest or index: `stateFileAt`), the first in batch order: those change under
   * every command (and `.dossier/store.json` is a bound folder's binding), so a digest bound to
   * one is broken by the next command. Refused as a path the study may not name, decided from the
   * data alone: before any file is read or the journal is, so a retry of such a batch is refused
   * too.
   */
  const stateArtifact = (input: unknown): UnsafePath | undefined => {
    for (const e of Array.isArray(input) ? input : [input]) {
      const path = isArtifactEvent(e) && isRecord(e["artifact"]) ? e["artifact"]["path"] : undefined
      const reason = typeof path === "string" ? stateFileAt(path) : null
      if (reason !== null) return new UnsafePath({ path: path as string, reason })
    }
    return undefined
  }

  const append: JournalShape["append"] = (study, input) =>
    Effect.suspend(() => {
      if (!linksArtifacts(input)) return appendFilled(study, input, false)
      const refused = dataRefusal(study, input) ?? stateArtifact(input)
      return refused !== undefined
        ? Effect.fail(refused)
        : Effect.flatMap(
          fillDigests(input),
          ({ deferred, filled, unread }) => appendFilled(study, filled, true, deferred, unread)
        )
    })

  const appendFilled = (
    study: string,
    input: unknown,
    links: boolean,
    deferred?: ArtifactRefusal,
    unread: ReadonlySet<string> = new Set()
  ): ReturnType<JournalShape["append"]> =>
    Effect.suspend((): ReturnType<JournalShape["append"]> => {
      const decoded = appendInput(study, input)
      if (Either.isLeft(decoded)) return Effect.fail(withoutOmittedDigests(input, decoded.left))
      const events = decoded.right
      const onDuplicate = (i: number, candidateId: string) => {
        const e = events[i]!
        // A legacy_imported event creates its candidates at `candidates.<j>.id` (an id it repeats:
        // the second one).
        const at = e.type === "legacy_imported"
          ? e.candidates.flatMap((c, j) => (c.id === candidateId ? [j] : []))
          : []
        const field = e.type === "legacy_imported" ? `candidates.${at[1] ?? at[0]}.id` : "candidate.id"
        return new InvalidInput({
          issues: [{
            path: events.length === 1 && !Array.isArray(input) ? field : `${i}.${field}`,
            message: at.length > 1
              ? `the candidate '${candidateId}' is given more than once in this event`
              : `the candidate '${candidateId}' is already created in this study`
          }]
        })
      }
      const entries = events.map(entryOf)
      const rules = checkBatch(entries, onDuplicate)
      // With a file refused, the journal's own answer comes first; an unread event already
      // stored is taken as a retry there (its digest is unknown), then the file's refusal.
      const check = deferred === undefined
        ? rules
        : (view: AppendView) =>
          rules({
            tail: view.tail,
            claimed: view.claimed,
            digestOf: (id) => {
              const digest = view.digestOf(id)
              return digest !== undefined && unread.has(id)
                ? entries.find((e) => e.id === id)?.digest
                : digest
            }
          }) ?? deferred
      const stored = journals.append(study, entries, check)
      const result = (out: JournalAppended): AppendResult => ({
        study,
        appended: out.appended,
        skipped: out.existing,
        head: out.head!
      })
      const locked = Effect.map(
        lock.withLock(
          artifacts.register === undefined ? stored : Effect.tap(stored, (out) => registerLinked(events, out.appended)),
          // The store's append is the region's first step; before it, nothing but computing. It
          // is also the last unless linked files are registered after it.
          { opensWithStatement: true, closesWithStatement: !links || artifacts.register === undefined }
        ),
        result
      )
      // A batch that links no file, as one command of the store's own when it can (else, or when
      // that did not store it, the region decides).
      const alone = links ? null : journals.appendCommand?.(study, entries, check, lock) ?? null
      return alone === null ? locked : Effect.flatMap(
        alone,
        Option.match({
          onNone: () => locked,
          onSome: (out) => Effect.succeed(result(out))
        })
      )
    })

  /** The composition's `register` over the files the appended events link (inside the lock). */
  const registerLinked = (events: ReadonlyArray<JournalEvent>, appended: ReadonlyArray<string>) => {
    const ids = new Set(appended)
    const linked = events.flatMap((e) => (e.type === "artifact_linked" && ids.has(e.id) ? [e.artifact] : []))
    return linked.length === 0 || artifacts.register === undefined ? Effect.void : artifacts.register(linked)
  }

  const inspectView = (study: string, events: number, tail: JournalTail, p: Projection): InspectResult => ({
    study,
    events,
    tail: tail.state === "clean" ? { state: "clean" } : { state: "unterminated", bytes: tail.bytes },
    head: p.head,
    protocolVersion: p.protocolVersion,
    candidates: p.candidates,
    selected: p.selected,
    checkpoint: p.checkpoint,
    legacyImports: p.legacyImports
  })

  /** A study's stored history; a study without a journal does not exist (`journal append` creates one). */
  const stored = (study: string) =>
    Effect.flatMap(
      journals.read(study),
      Option.match({
        onNone: () => Effect.fail(new StudyNotFound({ study })),
        onSome: Effect.succeed
      })
    )

  const inspect: JournalShape["inspect"] = (study, options) =>
    Effect.gen(function*() {
      yield* study$(study)
      const { verify } = yield* Either.match(readOptions(options, { verify: optionalBoolean }), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
      const history = yield* stored(study)
      // The store answers a history that keeps the journal's rules (else CorruptJournal).
      const { events, projection: p } = projectionOf(history)
      const view = inspectView(study, events, history.tail, p)
      if (verify !== true) return view
      return { ...view, verify: yield* artifacts.verify(p, study) }
    })

  const lines: JournalShape["lines"] = (study, maxBytes) =>
    Effect.flatMap(
      // A JavaScript caller is not held by the types: a limit that is no whole number is named.
      Either.match(readArgs(checkStudyId(study), integer(0)(maxBytes, "maxBytes")), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      }),
      () =>
        Effect.flatMap(
          journals.lines(study, maxBytes),
          Option.match({
            onNone: () => Effect.fail(new StudyNotFound({ study })),
            onSome: Effect.succeed
          })
        )
    )

  return {
    studies: journals.studies,
    append,
    inspect,
    lines,
    rebuild: (study) => Option.match(folder, { onNone: () => noFolder("rebuild"), onSome: (f) => f.rebuild(study) }),
    recoverTail: (study) =>
      Option.match(folder, { onNone: () => noFolder("recover-tail"), onSome: (f) => f.recoverTail(study) }),
    importLegacy: (study) =>
      Option.match(folder, { onNone: () => noFolder("import-legacy"), onSome: (f) => f.importLegacy(study) })
  }
}

/** The Journal over any JournalStore (and the JournalFolder, when the composition has one). */
export const JournalFromStore: Layer.Layer<Journal, never, JournalStore | JournalArtifacts | Lock> = Layer.effect(
  Journal,
  Effect.map(
    Effect.all([JournalStore, JournalArtifacts, Lock, Effect.serviceOption(JournalFolder)]),
    ([journals, artifacts, lock, folder]) => spanned("Journal")(makeJournal(journals, artifacts, lock, folder))
  )
)

/** The Journal in a work folder: its folder adapter and JournalFolder, over a FileStore and the folder's Lock. */
export const JournalLive: Layer.Layer<Journal, never, FileStore | Lock> = JournalFromStore.pipe(
  Layer.provide(Layer.merge(JournalFolderLayer, JournalArtifactsFolder))
)
