/**
 * FileStore: every read and write of the work folder goes through here. Paths are relative to
 * the work folder (`/`-separated); each is boundary-checked (no escape, no absolute path, no
 * symlink in any component, regular files only, link count 1 unless a read opts out) before it is touched.
 *
 * Layers: `FileStoreLive` (Node, in src/layers/FileStoreLive.ts) and `FileStoreMemory`
 * (src/layers/FileStoreMemory.ts), with the same semantics.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Either from "effect/Either"
import type * as Option from "effect/Option"
import type { EditedRetainedFile, FileNotFound, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"

export interface Digest {
  readonly bytes: number
  readonly sha256: string
}

export type EntryKind = "file" | "directory" | "symlink" | "other"

/** What a write-once answers: the file's digest, and whether it was already there with these bytes. */
export interface RetainedDigest extends Digest {
  readonly reused: boolean
}

export interface EntryStat {
  readonly kind: EntryKind
  readonly size: number
  readonly nlink: number
}

export interface ReadOptions {
  /** Refuse files larger than this many bytes (`LimitExceeded {limit: "fileBytes"}`). Default 16 MiB. */
  readonly maxBytes?: number
  /**
   * Refuse hard-linked files (`UnsafePath {reason: "hard-link"}`). **On by default**: a file with
   * a second name may be one outside the work folder, so every read on a user's behalf (`--input`,
   * `ingest --file`, the gate's files, stage files, sources, resources…) refuses it. `false` only
   * where a run's or a result's digest is taken and its content never shown: a run's outputs in its
   * work root, a journal artifact, a plan output.
   */
  readonly requireSingleLink?: boolean
}

export type ReadError = IoError | FileNotFound | UnsafePath | LimitExceeded
export type WriteError = IoError | UnsafePath | LimitExceeded
export type ReadThenAppendError = IoError | UnsafePath | LimitExceeded

/** Staging files are named `.<name>.<random>.dossier-tmp` and are never taken as state. */
export const STAGING_SUFFIX = ".dossier-tmp"
export const isStagingName = (name: string): boolean => name.startsWith(".") && name.endsWith(STAGING_SUFFIX)

export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024

/** One file of a `readMany` batch: its bytes, or why it could not be read. */
export interface ReadManyEntry {
  readonly path: string
  readonly bytes: Uint8Array | null
  readonly error: ReadError | null
}

/** One file of a `readManyWith` batch: what `use` made of its bytes, or why it could not be read. */
export interface ReadManyWithEntry<A> {
  readonly path: string
  readonly value: A | null
  readonly error: ReadError | null
}

export interface FileStoreShape {
  /** Normalize and boundary-check a relative path without touching it (pure). */
  readonly normalize: (path: string) => Effect.Effect<string, UnsafePath>
  /** lstat of the path after checking its parent components; None when nothing is there. */
  readonly stat: (path: string) => Effect.Effect<Option.Option<EntryStat>, IoError | UnsafePath>
  /** Whole contents of a regular file (bounded). */
  readonly read: (path: string, options?: ReadOptions) => Effect.Effect<Uint8Array, ReadError>
  /** Whole contents decoded as UTF-8 (bounded). */
  readonly readText: (path: string, options?: ReadOptions) => Effect.Effect<string, ReadError>
  /** Streaming SHA-256 and byte count; the file is never held in memory whole. */
  readonly hash: (path: string, options?: ReadOptions) => Effect.Effect<Digest, ReadError>
  /** Replace a file atomically: staging file → fsync → rename → fsync directory. Creates parents. */
  readonly writeAtomic: (path: string, data: Uint8Array | string) => Effect.Effect<Digest, WriteError>
  /**
   * Write-once: create the file atomically if absent; identical bytes already there → `reused: true`;
   * different bytes → `EditedRetainedFile`. Never overwrites.
   */
  readonly writeRetained: (
    path: string,
    data: Uint8Array | string
  ) => Effect.Effect<RetainedDigest, WriteError | EditedRetainedFile>
  /**
   * Optional fast path: `writeRetained` of several files, answered in their order. Every target
   * is looked at (absent, or holding the same bytes) before any is written, so one edited target
   * (`EditedRetainedFile`) refuses the batch with nothing written. When it succeeds, every file is
   * as durable as after `writeRetained` (a layer may fsync a directory once for all its new
   * files). Layers that lack it are checked then written file by file (`writeRetainedManyOf`).
   */
  readonly writeRetainedMany?: (
    files: ReadonlyArray<{ readonly path: string; readonly data: Uint8Array | string }>
  ) => Effect.Effect<ReadonlyArray<RetainedDigest>, WriteError | EditedRetainedFile>
  /**
   * Append bytes with one write and one fsync (the directory is fsynced when the file is
   * created). The file must be a regular file with link count 1.
   */
  readonly append: (
    path: string,
    data: Uint8Array | string
  ) => Effect.Effect<{ readonly created: boolean; readonly size: number }, WriteError>
  /** Truncate a regular file to `size` bytes and fsync it. */
  readonly truncate: (path: string, size: number) => Effect.Effect<void, ReadError>
  /** Remove a file (no error when absent) and fsync its directory. */
  readonly remove: (path: string) => Effect.Effect<void, IoError | UnsafePath>
  /** Entries of a directory (staging files left out); empty when the directory is absent. */
  readonly list: (
    dir: string
  ) => Effect.Effect<ReadonlyArray<{ readonly name: string; readonly kind: EntryKind }>, IoError | UnsafePath>
  /**
   * Optional fast path: the names of `list`'s entries, sorted the same way, with the same checks
   * (for a scan that opens every entry anyway and checks its type then, so a kind per entry is
   * work done twice; bench/monitor.ts measures it). Layers that lack it use `list`.
   */
  readonly listNames?: (dir: string) => Effect.Effect<ReadonlyArray<string>, IoError | UnsafePath>
  /**
   * Optional fast path for scanning many small files (e.g. every record of a directory): the same
   * boundary checks as `read` (parent components checked once per directory, O_NOFOLLOW, regular
   * files only, bounded), without one effect per file. Layers that lack it are read file by file.
   */
  readonly readMany?: (
    paths: ReadonlyArray<string>,
    options?: ReadOptions
  ) => Effect.Effect<ReadonlyArray<ReadManyEntry>>
  /**
   * `readMany` that hands each file's bytes to `use` as soon as they are read and keeps only what
   * `use` returns (a parsed record, a digest), with the same checks. The bytes are valid only
   * during the call (the layer may read every file into one reused buffer): `use` must not keep
   * them, and must not throw. `index` is the file's position in `paths`. `use` is not called for a
   * file that cannot be read.
   */
  readonly readManyWith?: <A>(
    paths: ReadonlyArray<string>,
    use: (bytes: Uint8Array, index: number) => A,
    options?: ReadOptions
  ) => Effect.Effect<ReadonlyArray<ReadManyWithEntry<A>>>
  /**
   * Optional fast path for an append-only log: open a regular file with link count 1 once (the
   * checks of `read` with `requireSingleLink`), read it whole (bounded), let `decide` (a pure
   * decision) choose what to append, and append that to the same open file with one write and one fsync — so the
   * bytes `decide` saw are those of the file appended to. An absent file reads as empty and is
   * created (as `append` does) only when there is something to append; nothing is written when
   * `decide` fails or returns `append: null`. Layers that lack it use `read` then `append`.
   *
   * `options.buffer`, when given, supplies the memory to read into: it is called with the file's
   * size and returns a buffer at least that long (the caller may hand the same memory out again
   * once it no longer keeps the bytes). First touching fresh memory can cost more than reading a
   * small file, so a caller that reads the same growing file over and over can recycle its
   * buffers (bench/journal.ts's append measures it). A layer may ignore it.
   */
  readonly readThenAppend?: <A, E>(
    path: string,
    options: ReadOptions & { readonly buffer?: (size: number) => Buffer },
    decide: (bytes: Uint8Array) => Either.Either<{ readonly append: string | null; readonly value: A }, E>
  ) => Effect.Effect<A, E | ReadThenAppendError>
  /**
   * Optional, for caches derived from a file: a string that changes whenever the entry at the
   * path changes (its device and inode, type, link count, size, modification and change times),
   * read without opening it; None when nothing is there. A cache that recorded it may trust what
   * it derived while it is unchanged (src/layers/folder/JournalAppendIndex.ts). A layer without such
   * metadata leaves it out, and its callers read the file instead.
   */
  readonly fingerprint?: (path: string) => Effect.Effect<Option.Option<string>, IoError | UnsafePath>
  /** Create a directory and its parents (each checked not to be a symlink). */
  readonly ensureDir: (dir: string) => Effect.Effect<void, IoError | UnsafePath>
}

export class FileStore extends Context.Tag("dossier/FileStore")<FileStore, FileStoreShape>() {}
