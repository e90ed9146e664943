/**
 * FileStore's optional batch and one-descriptor methods, made of its required ones: what a caller
 * uses when a store (an embedding program's own, say) lacks them, and what a store's own fast
 * paths fall back to.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { sha256Hex } from "../domain/Canonical.js"
import { EditedRetainedFile } from "../domain/Errors.js"
import type { FileStoreShape, ReadManyWithEntry, ReadThenAppendError } from "../services/FileStore.js"

const EMPTY = new Uint8Array(0)

/** `readThenAppend`'s decision, applied: nothing is appended when it fails or has nothing to append. */
export const appendDecided = <A, E>(
  append: FileStoreShape["append"],
  path: string,
  bytes: Uint8Array,
  decide: (bytes: Uint8Array) => Either.Either<{ readonly append: string | null; readonly value: A }, E>
): Effect.Effect<A, E | ReadThenAppendError> =>
  Either.match(decide(bytes), {
    onLeft: (e) => Effect.fail(e),
    onRight: (
      { append: data, value }
    ) => (data === null || data.length === 0 ? Effect.succeed(value) : Effect.as(append(path, data), value))
  })

/**
 * `readThenAppend` through `read` (single link required; an absent file reads as empty) and
 * `append`: two descriptors instead of one, so the caller's lock is what keeps them together.
 */
export const readThenAppendOf =
  (store: Pick<FileStoreShape, "read" | "append">): NonNullable<FileStoreShape["readThenAppend"]> =>
  <A, E>(
    path: string,
    options: Parameters<NonNullable<FileStoreShape["readThenAppend"]>>[1],
    decide: (bytes: Uint8Array) => Either.Either<{ readonly append: string | null; readonly value: A }, E>
  ) =>
    Effect.flatMap(
      Effect.catchTag(store.read(path, { ...options, requireSingleLink: true }), "FileNotFound", () =>
        Effect.succeed(EMPTY)),
      (bytes) =>
        appendDecided(store.append, path, bytes, decide)
    )

/** `readManyWith` through `readMany` when the store has it, else file by file through `read`. */
export const readManyWithOf =
  (store: Pick<FileStoreShape, "read" | "readMany">): NonNullable<FileStoreShape["readManyWith"]> =>
  <A>(
    paths: ReadonlyArray<string>,
    use: (bytes: Uint8Array, index: number) => A,
    options?: Parameters<FileStoreShape["read"]>[1]
  ) =>
    store.readMany !== undefined
      ? Effect.map(store.readMany(paths, options), (entries) =>
        entries.map((e, i): ReadManyWithEntry<A> => ({
          path: e.path,
          value: e.bytes === null ? null : use(e.bytes, i),
          error: e.error
        })))
      : Effect.forEach(paths, (path, i) =>
        store.read(path, options).pipe(
          Effect.map((bytes): ReadManyWithEntry<A> => ({ path, value: use(bytes, i), error: null })),
          Effect.catchAll((error) => Effect.succeed<ReadManyWithEntry<A>>({ path, value: null, error }))
        ))

/** `listNames` through `list`. */
export const listNamesOf = (store: Pick<FileStoreShape, "list">): NonNullable<FileStoreShape["listNames"]> => (dir) =>
  Effect.map(store.list(dir), (entries) => entries.map((e) => e.name))

/**
 * `writeRetainedMany` through `stat`, `hash` and `writeRetained`: every target is looked at (an
 * existing file must hold the same bytes, checked by digest) before the first is written.
 */
export const writeRetainedManyOf = (
  store: Pick<FileStoreShape, "normalize" | "stat" | "hash" | "writeRetained">
): NonNullable<FileStoreShape["writeRetainedMany"]> =>
(files) =>
  Effect.gen(function*() {
    // Every path is checked before any target is looked at, as FileStoreLive's batch does.
    for (const f of files) yield* store.normalize(f.path)
    for (const f of files) {
      const st = yield* store.stat(f.path)
      if (Option.isNone(st)) continue
      const bytes = typeof f.data === "string" ? new TextEncoder().encode(f.data) : f.data
      const wanted = { sha256: sha256Hex(bytes), bytes: bytes.byteLength }
      const have = yield* store.hash(f.path, { requireSingleLink: true, maxBytes: Number.MAX_SAFE_INTEGER }).pipe(
        Effect.catchTag("FileNotFound", () => Effect.succeed(wanted))
      )
      if (have.sha256 !== wanted.sha256 || have.bytes !== wanted.bytes) {
        return yield* new EditedRetainedFile({ path: f.path, expected: wanted.sha256, actual: have.sha256 })
      }
    }
    return yield* Effect.forEach(files, (f) => store.writeRetained(f.path, f.data))
  })
