/**
 * FileStoreLive's write-once files: `writeRetained` and its batch, `writeRetainedMany`, over the
 * boundary (./Boundary.ts) and the opened-file checks FileStoreLive hands in (`openIn`, `hashFd`).
 * With them, the small helpers both modules use: `step` (a synchronous boundary step as an
 * effect), `toBytes`, `digestOf`.
 *
 * A retained file is never overwritten: an existing one is opened relative to its verified
 * directory and hashed through that descriptor; an absent one is created by linking a staged,
 * fsynced copy (link() never replaces an entry), and its name is then checked to be the file
 * written. The batch walks each directory once and fsyncs it once, after every file of it is
 * linked; the single write is the batch of one.
 */
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { EditedRetainedFile, IoError, LimitExceeded, type UnsafePath } from "../domain/Errors.js"
import type { Digest, FileStoreShape, ReadOptions, RetainedDigest, WriteError } from "../services/FileStore.js"
import { type Boundary, type BoundaryError, codeOf, type Dir, guard, ioError, isBoundaryError } from "./Boundary.js"

const { O_RDONLY } = fs.constants

/** A retained file created or removed by someone else meanwhile is looked at again this many times. */
const RETAIN_ATTEMPTS = 3

export interface Opened {
  readonly fd: number
  readonly st: fs.Stats
}

export const toBytes = (
  data: Uint8Array | string
): Uint8Array => (typeof data === "string" ? Buffer.from(data, "utf8") : data)

export const digestOf = (data: Uint8Array): Digest => ({
  bytes: data.byteLength,
  sha256: createHash("sha256").update(data).digest("hex")
})

/**
 * An effect of a synchronous boundary step: what it throws becomes the typed error (`IoError
 * {operation}` unless already a domain error). `E` names the errors the step can throw (a write
 * creates its directories, so it never throws `FileNotFound`; only reads bound sizes).
 */
export const step = <A, E extends BoundaryError | LimitExceeded = IoError | UnsafePath>(
  rel: string,
  operation: string,
  f: () => A
): Effect.Effect<A, E> =>
  Effect.try({
    try: () => guard(rel, operation, f),
    catch: (e) => (isBoundaryError(e) || e instanceof LimitExceeded ? e : ioError(rel, operation)(e)) as E
  })

export interface RetainedDeps {
  readonly boundary: Boundary
  readonly normalize: (p: string) => Effect.Effect<string, UnsafePath>
  readonly openIn: (
    rel: string,
    dir: Dir,
    name: string,
    flags: number,
    requireSingleLink: boolean,
    max: number
  ) => Opened | undefined
  readonly hashFd: (
    fd: number,
    rel: string,
    size: number,
    options: ReadOptions | undefined
  ) => Effect.Effect<Digest, IoError | LimitExceeded>
}

/** Files at least this large are hashed on libuv's thread pool (WebCrypto), beside the writes and fsyncs. */
const OFF_THREAD_MIN_BYTES = 64 * 1024

/**
 * One file of a batch: where, what, and its digest, computed here from the bytes written. The
 * digest starts (`digest()`, memoized) in the same synchronous step as the first thing that
 * needs the bytes — the write of the staged copy, or the comparison with an existing file — and
 * WebCrypto copies its input when called, so what is hashed is exactly what is written.
 */
interface Target {
  readonly rel: string
  readonly name: string
  readonly bytes: Uint8Array
  readonly digest: () => Digest | Promise<Digest>
}

const targetOf = (rel: string, bytes: Uint8Array): Target => {
  let started: Digest | Promise<Digest> | undefined
  const digest = () => (started ??= bytes.byteLength < OFF_THREAD_MIN_BYTES || bytes.buffer instanceof SharedArrayBuffer
    ? digestOf(bytes)
    : globalThis.crypto.subtle.digest("SHA-256", bytes).then((d) => ({
      bytes: bytes.byteLength,
      sha256: Buffer.from(d).toString("hex")
    })))
  return { rel, name: rel.slice(rel.lastIndexOf("/") + 1), bytes, digest }
}

/** A small file's digest is there at once (so a write of small files stays synchronous); a large one's is awaited. */
const awaitDigest = (
  d: Digest | Promise<Digest>
): Effect.Effect<Digest> => (d instanceof Promise ? Effect.promise(() => d) : Effect.succeed(d))

export const makeRetained = ({ boundary, normalize, openIn, hashFd }: RetainedDeps) => {
  /**
   * What is at `t` now: `absent`, or the same bytes (`reused`), or `EditedRetainedFile`. A file
   * removed or replaced while it was hashed is looked at again (what was hashed is no longer the
   * file); after `RETAIN_ATTEMPTS` the answer is `IoError` (retryable).
   */
  const look = (dir: Dir, t: Target): Effect.Effect<"absent" | "reused", WriteError | EditedRetainedFile> =>
    Effect.gen(function*() {
      for (let attempt = 1; attempt <= RETAIN_ATTEMPTS; attempt++) {
        const existing = yield* step<Opened | undefined, IoError | UnsafePath | LimitExceeded>(
          t.rel,
          "open",
          () => openIn(t.rel, dir, t.name, O_RDONLY, true, Number.MAX_SAFE_INTEGER)
        )
        if (existing === undefined) return "absent" as const
        const wanting = t.digest()
        const have = yield* Effect.ensuring(
          hashFd(existing.fd, t.rel, existing.st.size, { maxBytes: Number.MAX_SAFE_INTEGER }),
          Effect.sync(() => fs.closeSync(existing.fd))
        )
        const wanted = yield* awaitDigest(wanting)
        const still = yield* step(t.rel, "lstat", () => boundary.lstatAt(t.rel, dir, t.name))
        if (still === undefined || still.dev !== existing.st.dev || still.ino !== existing.st.ino) continue
        if (have.sha256 === wanted.sha256 && have.bytes === wanted.bytes) return "reused" as const
        return yield* new EditedRetainedFile({ path: t.rel, expected: wanted.sha256, actual: have.sha256 })
      }
      return yield* new IoError({ path: t.rel, operation: "write", code: "ECHANGED" })
    })

  /**
   * Create `t` (absent when looked at): stage and fsync a copy, link it under its name, check the
   * name is that copy. The directory is not fsynced here (the batch does it once). Another
   * process creating the file meanwhile: looked at again, as `look` does.
   */
  const create = (dir: Dir, t: Target): Effect.Effect<boolean, WriteError | EditedRetainedFile> =>
    Effect.gen(function*() {
      for (let attempt = 1; attempt <= RETAIN_ATTEMPTS; attempt++) {
        const created = yield* step(t.rel, "write", () => {
          t.digest()
          const staged = boundary.stage(t.rel, dir, t.name, t.bytes)
          try {
            boundary.publish(t.rel, dir, staged, t.name, "link", false)
            return true
          } catch (e) {
            if (codeOf(e) === "EEXIST") return false
            throw e
          }
        })
        if (created) return true
        if ((yield* look(dir, t)) === "reused") return false
      }
      return yield* new IoError({ path: t.rel, operation: "write", code: "ECHANGED" })
    })

  /**
   * Every directory walked once and every target looked at (a missing directory holds only
   * absent targets), before anything is written: an edited target refuses the batch with nothing
   * written, not even a directory. Then the missing directories are created, the absent files
   * too, and each directory that got a new name is fsynced once. A batch that fails part-way
   * still fsyncs what it linked (best effort: the failure is the answer).
   */
  const writeRetainedMany: NonNullable<FileStoreShape["writeRetainedMany"]> = (files) =>
    Effect.gen(function*() {
      const targets: Array<Target> = []
      for (const f of files) {
        targets.push(targetOf(yield* normalize(f.path), toBytes(f.data)))
      }
      const dirs = new Map<string, { dir: Dir | undefined; readonly rel: string; linked: boolean }>()
      const dirOf = (t: Target) => dirs.get(t.rel.slice(0, Math.max(0, t.rel.lastIndexOf("/"))))!
      /** The target's directory, created now if it was missing when looked at. */
      const madeDirOf = (t: Target) =>
        Effect.gen(function*() {
          const d = dirOf(t)
          if (d.dir === undefined) d.dir = yield* step(t.rel, "write", () => boundary.walk(t.rel, true, true)!)
          return d.dir
        })
      const syncLinked = Effect.forEach(dirs.values(), (d) =>
        step(d.rel, "write", () => {
          if (d.linked && d.dir !== undefined) boundary.fsyncDir(d.rel, d.dir)
          d.linked = false
        }), { discard: true })
      return yield* Effect.gen(function*() {
        for (const t of targets) {
          const parent = t.rel.slice(0, Math.max(0, t.rel.lastIndexOf("/")))
          if (!dirs.has(parent)) {
            dirs.set(parent, {
              dir: yield* step(t.rel, "write", () => boundary.walk(t.rel, true, false)),
              rel: t.rel,
              linked: false
            })
          }
        }
        const found: Array<"absent" | "reused"> = []
        for (const t of targets) {
          const dir = dirOf(t).dir
          found.push(dir === undefined ? "absent" : yield* look(dir, t))
        }
        const made: Array<boolean> = []
        for (let i = 0; i < targets.length; i++) {
          const t = targets[i]!
          const created = found[i] === "absent" && (yield* create(yield* madeDirOf(t), t))
          if (created) dirOf(t).linked = true
          made.push(created)
        }
        yield* syncLinked
        const digests = yield* Effect.forEach(targets, (t) => awaitDigest(t.digest()))
        return digests.map((d, i): RetainedDigest => ({ ...d, reused: !made[i] }))
      }).pipe(
        Effect.onError(() => Effect.ignore(syncLinked)),
        Effect.ensuring(Effect.sync(() => {
          for (const d of dirs.values()) d.dir?.close()
        }))
      )
    })

  const writeRetained: FileStoreShape["writeRetained"] = (p, data) =>
    Effect.map(writeRetainedMany([{ path: p, data }]), (answers) => answers[0]!)

  return { writeRetained, writeRetainedMany }
}
