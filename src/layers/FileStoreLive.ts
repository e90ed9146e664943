/**
 * FileStore on Node. Every path is normalized, then reached through the boundary primitive
 * (src/layers/Boundary.ts): directories are opened one component at a time from the work
 * folder's own descriptor without following links, and each file is opened, created, staged,
 * renamed, linked, truncated or removed relative to the descriptor of its verified directory, so a
 * swap of a directory for a symlink between a check and a use redirects nothing. The opened file's
 * type, link count and size are checked on its descriptor (fstat). Writes publish atomically and
 * check after publishing that the name holds the file written.
 *
 * Over 400 lines: every method is a few lines over the same boundary helpers of one closure
 * (`openIn`, `checkOpened`, `withOpen`, the boundary's verified directories), which are the part
 * that must be right once. The write-once files (`writeRetained`, `writeRetainedMany`) are in
 * ./FileStoreRetained.ts, handed those helpers; the fallbacks of the optional fast paths are in
 * ./FileStoreFallbacks.ts, the boundary primitive in ./Boundary.ts, the hash pool in ./HashPool.ts.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { toBuffer } from "../domain/Bytes.js"
import { FileNotFound, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import { normalizeRelative, readRefusal } from "../domain/Paths.js"
import {
  DEFAULT_MAX_BYTES,
  type Digest,
  type EntryKind,
  type EntryStat,
  FileStore,
  type FileStoreShape,
  isStagingName,
  type ReadManyEntry,
  type ReadManyWithEntry,
  type ReadOptions
} from "../services/FileStore.js"
import { Workdir } from "../services/Workdir.js"
import { type BoundaryError, type Dir, guard, ioError, isBoundaryError, makeBoundary } from "./Boundary.js"
import { appendDecided, readThenAppendOf } from "./FileStoreFallbacks.js"
import { digestOf, makeRetained, type Opened, step, toBytes } from "./FileStoreRetained.js"

/** The worker pool module loads only when a large file is hashed (keeps start-up small). */
const loadPool = () => import("./HashPool.js").then((m) => m.hashPool())

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_APPEND } = fs.constants

const HASH_CHUNK = 1024 * 1024
/** Files at least this large are hashed by the worker pool when it is available. */
const POOL_MIN_BYTES = 8 * 1024 * 1024

const kindOf = (st: fs.Stats): EntryKind =>
  st.isSymbolicLink() ? "symlink" : st.isFile() ? "file" : st.isDirectory() ? "directory" : "other"

/** Read up to `size` bytes from the start of an open file (fewer if it shrank meanwhile), into `into` when given (at least `size` bytes long). */
const readFully = (fd: number, size: number, into?: Buffer): Uint8Array => {
  const buf = into ?? Buffer.allocUnsafe(size)
  let off = 0
  while (off < size) {
    const n = fs.readSync(fd, buf, off, size - off, off)
    if (n === 0) break
    off += n
  }
  return buf.subarray(0, off)
}

const writeAll = (fd: number, bytes: Uint8Array) => {
  let off = 0
  while (off < bytes.byteLength) off += fs.writeSync(fd, bytes, off, bytes.byteLength - off)
}

export const makeFileStoreLive = (root: string): FileStoreShape & { readonly close: () => void } => {
  const boundary = makeBoundary(root)

  const normalize = (p: string) => Either.match(normalizeRelative(p), { onLeft: Effect.fail, onRight: Effect.succeed })

  /**
   * The checks every opened file gets on its descriptor: a regular file, link count 1 when
   * required, at most `max` bytes. Closes the descriptor and throws when one fails.
   */
  const checkOpened = (rel: string, fd: number, requireSingleLink: boolean, max: number): fs.Stats => {
    let st: fs.Stats
    try {
      st = fs.fstatSync(fd)
    } catch (e) {
      fs.closeSync(fd)
      throw ioError(rel, "open")(e)
    }
    const refusal = readRefusal(rel, { kind: kindOf(st), size: st.size, nlink: st.nlink }, {
      requireSingleLink,
      maxBytes: max
    })
    if (refusal !== undefined) {
      fs.closeSync(fd)
      throw refusal
    }
    return st
  }

  /** Open an existing file of `dir` and check it; undefined when absent. */
  const openIn = (
    rel: string,
    dir: Dir,
    name: string,
    flags: number,
    requireSingleLink: boolean,
    max: number
  ): Opened | undefined => {
    const fd = boundary.openAt(rel, dir, name, flags)
    if (fd === undefined) return undefined
    return { fd, st: checkOpened(rel, fd, requireSingleLink, max) }
  }

  /** Open an existing regular file for reading, checked; `FileNotFound` when it (or a directory above it) is absent. */
  const openForRead = (rel: string, options: ReadOptions | undefined): Opened => {
    const max = options?.maxBytes ?? DEFAULT_MAX_BYTES
    const opened = boundary.inParent(
      rel,
      false,
      (dir, name) => openIn(rel, dir, name, O_RDONLY, options?.requireSingleLink !== false, max),
      () => undefined
    )
    if (opened === undefined) throw new FileNotFound({ path: rel })
    return opened
  }

  const withOpen = <A, E>(
    p: string,
    options: ReadOptions | undefined,
    use: (h: { rel: string; fd: number; size: number }) => Effect.Effect<A, E>
  ) =>
    Effect.acquireUseRelease(
      Effect.flatMap(normalize(p), (rel) =>
        step<{ rel: string } & Opened, BoundaryError | LimitExceeded>(
          rel,
          "open",
          () => ({ rel, ...openForRead(rel, options) })
        )),
      ({ fd, rel, st }) => use({ rel, fd, size: st.size }),
      (h) => Effect.sync(() => fs.closeSync(h.fd))
    )

  const fingerprint: NonNullable<FileStoreShape["fingerprint"]> = (p) =>
    Effect.flatMap(normalize(p), (rel) =>
      step(rel, "lstat", () =>
        boundary.inParent(rel, false, (dir, name) => {
          const st = boundary.lstatAt(rel, dir, name)
          return st === undefined
            ? Option.none()
            : Option.some(`${st.dev}:${st.ino}:${st.mode}:${st.nlink}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`)
        }, () => Option.none<string>())))

  const statEntry = (p: string): Effect.Effect<Option.Option<EntryStat>, IoError | UnsafePath> =>
    Effect.flatMap(normalize(p), (rel) =>
      step(rel, "lstat", () =>
        boundary.inParent(rel, false, (dir, name) => {
          const st = boundary.lstatAt(rel, dir, name)
          return st === undefined ? Option.none() : Option.some({ kind: kindOf(st), size: st.size, nlink: st.nlink })
        }, () => Option.none<EntryStat>())))

  /**
   * The file may have grown since fstat: whether it has a byte past `off` (what was read) that
   * takes it over `max`. Looked for only when `off` is `max` already: below that, the answer is
   * no whatever follows (the bytes read are within the bound), so no system call is made.
   */
  const grewPast = (fd: number, off: number, max: number) =>
    off + 1 > max && fs.readSync(fd, Buffer.allocUnsafe(1), 0, 1, off) > 0

  const read: FileStoreShape["read"] = (p, options) =>
    withOpen(p, options, ({ fd, rel, size }) =>
      Effect.try({
        try: () => {
          const max = options?.maxBytes ?? DEFAULT_MAX_BYTES
          const bytes = readFully(fd, size)
          if (grewPast(fd, bytes.byteLength, max)) {
            throw new LimitExceeded({ limit: "fileBytes", max, actual: bytes.byteLength + 1, path: rel })
          }
          return bytes
        },
        catch: (e) => (e instanceof LimitExceeded ? e : ioError(rel, "read")(e))
      }))

  const readText: FileStoreShape["readText"] = (p, options) =>
    Effect.map(read(p, options), (bytes) => toBuffer(bytes).toString("utf8"))

  /**
   * Streaming SHA-256: synchronous 1 MiB reads into one reused buffer (measured ~1.5x faster than
   * async reads through the thread pool), yielding to other fibers every 16 MiB. The file is
   * never held in memory.
   */
  const hashInThread = (fd: number, rel: string, options: ReadOptions | undefined) =>
    Effect.gen(function*() {
      const max = options?.maxBytes ?? DEFAULT_MAX_BYTES
      const h = createHash("sha256")
      const buf = Buffer.allocUnsafe(HASH_CHUNK)
      let total = 0
      for (let chunk = 1;; chunk++) {
        const n = yield* Effect.try({
          try: () => fs.readSync(fd, buf, 0, HASH_CHUNK, total),
          catch: ioError(rel, "read")
        })
        if (n === 0) break
        total += n
        if (total > max) return yield* new LimitExceeded({ limit: "fileBytes", max, actual: total, path: rel })
        h.update(n === HASH_CHUNK ? buf : buf.subarray(0, n))
        if (chunk % 16 === 0) yield* Effect.yieldNow()
      }
      return { bytes: total, sha256: h.digest("hex") }
    })

  /** Hash an open, checked descriptor; large files go to the hash worker pool (when present), so several files hash in parallel. */
  const hashFd = (fd: number, rel: string, size: number, options: ReadOptions | undefined) =>
    size < POOL_MIN_BYTES ? hashInThread(fd, rel, options) : Effect.flatMap(Effect.promise(loadPool), (pool) => {
      if (pool === undefined) return hashInThread(fd, rel, options)
      const max = options?.maxBytes ?? DEFAULT_MAX_BYTES
      return Effect.flatMap(
        Effect.promise(() => pool.hash(fd, max)),
        (a): Effect.Effect<Digest, IoError | LimitExceeded> =>
          "sha256" in a
            ? Effect.succeed({ bytes: a.bytes, sha256: a.sha256 })
            : "tooLarge" in a
            ? Effect.fail(new LimitExceeded({ limit: "fileBytes", max, actual: a.tooLarge, path: rel }))
            : Effect.fail(new IoError({ path: rel, operation: "read", code: a.error }))
      )
    })

  const hash: FileStoreShape["hash"] = (p, options) =>
    withOpen(p, options, ({ fd, rel, size }) => hashFd(fd, rel, size, options))

  /** A target to replace or append to must be absent or a regular file (a symlink is refused, not replaced). */
  const checkTarget = (rel: string, dir: Dir, name: string): fs.Stats | undefined => {
    const st = boundary.lstatAt(rel, dir, name)
    if (st !== undefined && st.isSymbolicLink()) throw new UnsafePath({ path: rel, reason: "symlink" })
    if (st !== undefined && !st.isFile()) throw new UnsafePath({ path: rel, reason: "not-regular-file" })
    return st
  }

  const writeAtomic: FileStoreShape["writeAtomic"] = (p, data) =>
    Effect.flatMap(normalize(p), (rel) =>
      step(rel, "write", () => {
        const bytes = toBytes(data)
        const dir = boundary.walk(rel, true, true)!
        try {
          const name = rel.slice(rel.lastIndexOf("/") + 1)
          checkTarget(rel, dir, name)
          boundary.publish(rel, dir, boundary.stage(rel, dir, name, bytes), name, "rename")
          return digestOf(bytes)
        } finally {
          dir.close()
        }
      }))

  const { writeRetained, writeRetainedMany } = makeRetained({ boundary, normalize, openIn, hashFd })

  /**
   * Write `bytes` at the end of an open file; when the write or its fsync fails (a full disk),
   * cut the file back to `before` bytes and fsync it, so a failed append leaves the file exactly
   * as it was, then throw the write's error.
   */
  const appendOrRestore = (rel: string, fd: number, before: number, bytes: Uint8Array) => {
    try {
      writeAll(fd, bytes)
      fs.fsyncSync(fd)
    } catch (e) {
      try {
        fs.ftruncateSync(fd, before)
        fs.fsyncSync(fd)
      } catch {
        // The write's own error is the one to report; the tail is checked by every reader.
      }
      throw ioError(rel, "append")(e)
    }
  }

  const append: FileStoreShape["append"] = (p, data) =>
    Effect.flatMap(normalize(p), (rel) =>
      step(rel, "append", () => {
        const bytes = toBytes(data)
        const dir = boundary.walk(rel, true, true)!
        try {
          const name = rel.slice(rel.lastIndexOf("/") + 1)
          // O_NOFOLLOW refuses a symlink, O_NONBLOCK a FIFO, and fstat anything but a regular file.
          let opened: Opened | undefined
          let created = false
          try {
            opened = openIn(rel, dir, name, O_WRONLY | O_APPEND, true, Number.MAX_SAFE_INTEGER)
            if (opened === undefined) {
              const fd = boundary.openAt(rel, dir, name, O_WRONLY | O_APPEND | O_CREAT | O_EXCL, 0o644)
              if (fd === undefined) throw new IoError({ path: rel, operation: "append", code: "ENOENT" })
              opened = { fd, st: checkOpened(rel, fd, true, Number.MAX_SAFE_INTEGER) }
              created = true
            }
          } catch (e) {
            throw e instanceof IoError ? new IoError({ path: rel, operation: "append", code: e.code }) : e
          }
          const { fd, st } = opened
          try {
            try {
              appendOrRestore(rel, fd, st.size, bytes)
            } catch (e) {
              // A file this append created is removed again: the folder is as before.
              if (created) boundary.unlinkAt(rel, dir, name)
              throw e
            }
            const size = fs.fstatSync(fd).size
            if (created) boundary.fsyncDir(rel, dir)
            return { created, size }
          } finally {
            fs.closeSync(fd)
          }
        } finally {
          dir.close()
        }
      }))

  /**
   * One descriptor for the read and the append: the file is opened O_RDWR | O_APPEND relative to
   * its verified directory and checked (a regular file with link count 1, bounded); read,
   * decision, write and fsync run in one synchronous step, and the descriptor is closed whatever
   * happens. A failed write is cut back (`appendOrRestore`). A file that cannot be opened for
   * writing (read-only) is read through `read` and appended through `append`.
   */
  const readThenAppend: NonNullable<FileStoreShape["readThenAppend"]> = <A, E>(
    p: string,
    options: ReadOptions & { readonly buffer?: (size: number) => Buffer },
    decide: (bytes: Uint8Array) => Either.Either<{ readonly append: string | null; readonly value: A }, E>
  ): Effect.Effect<A, E | IoError | UnsafePath | LimitExceeded> =>
    Effect.suspend((): Effect.Effect<A, E | IoError | UnsafePath | LimitExceeded> => {
      const normalized = normalizeRelative(p)
      if (Either.isLeft(normalized)) return Effect.fail(normalized.left)
      const rel = normalized.right
      const max = options.maxBytes ?? DEFAULT_MAX_BYTES
      /** No file to open: decide on nothing, and `append` creates the file when there is something to append. */
      const decideOnNothing = () => appendDecided(append, rel, new Uint8Array(0), decide)
      let outcome: { readonly next: () => Effect.Effect<A, E | IoError | UnsafePath | LimitExceeded> }
      try {
        outcome = guard(rel, "open", () =>
          boundary.inParent(rel, false, (dir, name) => {
            let opened: Opened | undefined
            try {
              opened = openIn(rel, dir, name, O_RDWR | O_APPEND, true, max)
            } catch (e) {
              const code = e instanceof IoError ? e.code : ""
              if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ETXTBSY") {
                return { next: () => readThenAppendOf({ read, append })(rel, options, decide) }
              }
              throw e
            }
            if (opened === undefined) return { next: decideOnNothing }
            const { fd, st } = opened
            let operation = "read"
            try {
              const into = options.buffer?.(st.size)
              const bytes = readFully(fd, st.size, into !== undefined && into.byteLength >= st.size ? into : undefined)
              if (grewPast(fd, bytes.byteLength, max)) {
                throw new LimitExceeded({ limit: "fileBytes", max, actual: bytes.byteLength + 1, path: rel })
              }
              const decided = decide(bytes)
              if (Either.isLeft(decided)) {
                return {
                  next: () => Effect.fail(decided.left)
                }
              }
              const { append: data, value } = decided.right
              if (data !== null && data.length > 0) {
                operation = "append"
                appendOrRestore(rel, fd, bytes.byteLength, toBytes(data))
              }
              return { next: () => Effect.succeed(value) }
            } catch (e) {
              if (isBoundaryError(e) || e instanceof LimitExceeded) throw e
              throw ioError(rel, operation)(e)
            } finally {
              fs.closeSync(fd)
            }
          }, () => ({ next: decideOnNothing })))
      } catch (e) {
        return Effect.fail(e as IoError | UnsafePath | LimitExceeded)
      }
      return outcome.next()
    })

  const truncate: FileStoreShape["truncate"] = (p, size) =>
    Effect.flatMap(normalize(p), (rel) =>
      step<void, BoundaryError | LimitExceeded>(rel, "truncate", () => {
        const { fd } = openForWrite(rel)
        try {
          fs.ftruncateSync(fd, size)
          fs.fsyncSync(fd)
        } finally {
          fs.closeSync(fd)
        }
      }))

  /** An existing regular file with link count 1, opened for writing. */
  const openForWrite = (rel: string): Opened => {
    const opened = boundary.inParent(
      rel,
      false,
      (dir, name) => openIn(rel, dir, name, O_WRONLY, true, Number.MAX_SAFE_INTEGER),
      () => undefined
    )
    if (opened === undefined) throw new FileNotFound({ path: rel })
    return opened
  }

  const remove: FileStoreShape["remove"] = (p) =>
    Effect.flatMap(normalize(p), (rel) =>
      step(rel, "remove", () =>
        boundary.inParent(rel, false, (dir, name) => {
          const st = boundary.lstatAt(rel, dir, name)
          if (st === undefined) return
          if (st.isDirectory()) throw new UnsafePath({ path: rel, reason: "not-regular-file" })
          boundary.unlinkAt(rel, dir, name)
        }, () => undefined)))

  /** Entries of a directory reached through the boundary; empty when it is absent. */
  const readDir = <A>(p: string, readAll: (dir: Dir) => ReadonlyArray<A>) =>
    Effect.flatMap(normalize(p), (rel) =>
      step(rel, "list", () => {
        const dir = boundary.walk(rel, false, false)
        if (dir === undefined) return []
        try {
          return readAll(dir)
        } finally {
          dir.close()
        }
      }))

  /** The directory a descriptor holds, as a path the kernel resolves to that descriptor. */
  const held = (dir: Dir) => `/proc/self/fd/${dir.fd}`

  const list: FileStoreShape["list"] = (p) =>
    readDir(p, (dir) =>
      fs.readdirSync(held(dir), { withFileTypes: true })
        .filter((d) => !isStagingName(d.name))
        .map((d) => ({
          name: d.name,
          kind: (d.isSymbolicLink()
            ? "symlink"
            : d.isFile()
            ? "file"
            : d.isDirectory()
            ? "directory"
            : "other") as EntryKind
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))

  /** Names only: no Dirent per entry. `sort()` orders by UTF-16 code units, as `list` does. */
  const listNames: NonNullable<FileStoreShape["listNames"]> = (p) =>
    readDir(p, (dir) => fs.readdirSync(held(dir)).filter((name) => !isStagingName(name)).sort())

  /**
   * Many small files: each directory is walked once per batch (its descriptor kept for the batch);
   * each file opened relative to it and fstat-checked (regular file, link count when required,
   * size bound), then read into one buffer reused across the batch and handed to `use` (no
   * per-file allocation).
   */
  const readManyWith: NonNullable<FileStoreShape["readManyWith"]> = <A>(
    paths: ReadonlyArray<string>,
    use: (bytes: Uint8Array, index: number) => A,
    options?: ReadOptions
  ) =>
    Effect.sync(() => {
      const max = options?.maxBytes ?? DEFAULT_MAX_BYTES
      const requireSingleLink = options?.requireSingleLink !== false
      const dirs = new Map<string, Dir | undefined | BoundaryError>()
      let scratch = Buffer.allocUnsafe(0)
      try {
        return paths.map((p, index): ReadManyWithEntry<A> => {
          const normalized = normalizeRelative(p)
          if (Either.isLeft(normalized)) return { path: p, value: null, error: normalized.left }
          const rel = normalized.right
          const slash = rel.lastIndexOf("/")
          const dirRel = slash < 0 ? "" : rel.slice(0, slash)
          let dir = dirs.get(dirRel)
          if (!dirs.has(dirRel)) {
            try {
              dir = boundary.walk(rel, true, false)
            } catch (e) {
              dir = isBoundaryError(e) ? e : ioError(rel, "open")(e)
            }
            dirs.set(dirRel, dir)
          }
          if (isBoundaryError(dir)) {
            return { path: rel, value: null, error: dir._tag === "FileNotFound" ? dir : withPath(dir, rel) }
          }
          if (dir === undefined) {
            return { path: rel, value: null, error: new FileNotFound({ path: rel }) }
          }
          let opened: Opened | undefined
          try {
            opened = openIn(rel, dir, rel.slice(slash + 1), O_RDONLY, requireSingleLink, max)
          } catch (e) {
            return {
              path: rel,
              value: null,
              error: isBoundaryError(e) || e instanceof LimitExceeded ? e : ioError(rel, "open")(e)
            }
          }
          if (opened === undefined) return { path: rel, value: null, error: new FileNotFound({ path: rel }) }
          const { fd, st } = opened
          let bytes: Uint8Array
          try {
            if (scratch.byteLength < st.size) {
              scratch = Buffer.allocUnsafe(Math.min(max, Math.max(st.size, 2 * scratch.byteLength, 64 * 1024)))
            }
            bytes = readFully(fd, st.size, scratch)
          } catch (e) {
            return { path: rel, value: null, error: ioError(rel, "read")(e) }
          } finally {
            fs.closeSync(fd)
          }
          return { path: rel, value: use(bytes, index), error: null }
        })
      } finally {
        for (const d of dirs.values()) if (d !== undefined && !isBoundaryError(d)) d.close()
      }
    })

  /** A directory's refusal, reported for each file of the batch under the file's own path. */
  const withPath = (e: IoError | UnsafePath, rel: string): IoError | UnsafePath =>
    e._tag === "UnsafePath"
      ? new UnsafePath({ path: rel, reason: e.reason })
      : new IoError({ path: rel, operation: e.operation, code: e.code })

  /** Copies of the bytes, for callers that keep them. */
  const readMany: NonNullable<FileStoreShape["readMany"]> = (paths, options) =>
    Effect.map(
      readManyWith(paths, (bytes) => new Uint8Array(bytes), options),
      (entries) => entries.map((e): ReadManyEntry => ({ path: e.path, bytes: e.value, error: e.error }))
    )

  const ensureDir: FileStoreShape["ensureDir"] = (p) =>
    Effect.flatMap(normalize(p), (rel) => step(rel, "mkdir", () => boundary.walk(rel, false, true)!.close()))

  return {
    normalize,
    readThenAppend,
    stat: statEntry,
    fingerprint,
    read,
    readText,
    hash,
    writeAtomic,
    writeRetained,
    writeRetainedMany,
    append,
    truncate,
    remove,
    list,
    listNames,
    readMany,
    readManyWith,
    ensureDir,
    close: boundary.closeRoot
  }
}

export const FileStoreLive: Layer.Layer<FileStore, never, Workdir> = Layer.scoped(
  FileStore,
  Effect.flatMap(
    Workdir,
    ({ root }) => Effect.acquireRelease(Effect.sync(() => makeFileStoreLive(root)), (store) => Effect.sync(store.close))
  )
)
