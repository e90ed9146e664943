/**
 * The work folder's boundary on Node: the one primitive every path operation of FileStoreLive
 * (and the lock's check of its own file) goes through.
 *
 * A path is never resolved by the kernel from the work folder's name. Each operation starts from
 * the work folder's own directory descriptor (opened once), opens the directories of the path one
 * component at a time relative to the descriptor of the one before (`O_DIRECTORY | O_NOFOLLOW`:
 * a symlink or a non-directory is refused, never followed), and does its open, create, rename,
 * link, unlink, list and fsync relative to the last directory's descriptor. A directory swapped
 * for a symlink between a check and a use therefore cannot redirect anything: what is opened,
 * written or renamed is always an entry of a directory that was itself reached without following
 * a link. After a file is published (rename or link) its name is checked to be the file that was
 * written (device and inode), so a replacement at the last moment is refused, not reported as done.
 *
 * Node has no `openat`/`mkdirat`/`renameat`/`linkat`/`unlinkat`. On Linux the path
 * `/proc/self/fd/<dirfd>/<name>` gives them: the kernel takes `/proc/self/fd/<dirfd>` to the
 * directory the descriptor holds (not to a path naming it) and then looks `<name>` up in that
 * directory, so only `<name>` is subject to `O_NOFOLLOW`, exactly as with `openat(dirfd, name)`.
 * Where that does not hold (no `/proc`, another system) every operation fails closed with
 * `UnsafePath {reason: "unsupported-platform"}`.
 *
 * Functions here are synchronous and throw `IoError`/`UnsafePath`/`FileNotFound`; the callers
 * turn what they throw into the typed error channel (`Boundary.guard`).
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import { FileNotFound, IoError, LimitExceeded, UnsafePath } from "../domain/Errors.js"
import { STAGING_SUFFIX } from "../services/FileStore.js"

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants

export const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException)?.code ?? "EUNKNOWN"

export type BoundaryError = IoError | UnsafePath | FileNotFound

export const isBoundaryError = (e: unknown): e is BoundaryError =>
  e instanceof IoError || e instanceof UnsafePath || e instanceof FileNotFound

/** A directory reached through the boundary: its descriptor (the work folder's own is not closed by `close`). */
export interface Dir {
  readonly fd: number
  /** The path naming entry `name` of this directory (for a call that takes a path). */
  readonly at: (name: string) => string
  readonly close: () => void
}

/** What `publish` checked the published name against: the file that was written. */
export interface Staged {
  readonly name: string
  readonly dev: number
  readonly ino: number
}

/** The entry `name` of the directory held by `fd`, as a path the kernel resolves relative to that descriptor. */
const entryOf = (fd: number, name: string) => `/proc/self/fd/${fd}/${name}`

const isLinux = process.platform === "linux"

export interface Boundary {
  /**
   * Walk from the work folder to the directory holding the last component of `rel` (normalized,
   * relative, `/`-separated): `parents: true` stops before the last component, `false` opens `rel`
   * itself as a directory. Missing directories are created (and fsynced into their parent) when
   * `create`; otherwise the answer is `undefined`. A symlink or a non-directory on the way is
   * `UnsafePath`. The caller closes the answer.
   */
  readonly walk: (rel: string, parents: boolean, create: boolean) => Dir | undefined
  /** `walk(rel, true, create)`, `use(dir, lastName)`, and the directory closed whatever happens. */
  readonly inParent: <A>(rel: string, create: boolean, use: (dir: Dir, name: string) => A, missing: () => A) => A
  /** lstat of an entry of a directory; undefined when absent. */
  readonly lstatAt: (rel: string, dir: Dir, name: string) => fs.Stats | undefined
  /**
   * Open an entry (never following a symlink, never blocking on a FIFO); undefined when absent.
   * ELOOP (a symlink) → `UnsafePath symlink`; ENXIO/EISDIR (a socket, a FIFO without reader, a
   * directory opened for writing) → `UnsafePath not-regular-file`.
   */
  readonly openAt: (rel: string, dir: Dir, name: string, flags: number, mode?: number) => number | undefined
  /** Write `bytes` to a new staging file beside `name` in `dir` and fsync it. */
  readonly stage: (rel: string, dir: Dir, name: string, bytes: Uint8Array) => Staged
  /**
   * Publish a staged file under `name`: `rename` (replaces) or `link` (never replaces: EEXIST is
   * thrown as is), fsync the directory (unless `syncDir` is false: a caller publishing several
   * files of `dir` fsyncs it once after the last), then check that `name` is the staged file.
   */
  readonly publish: (
    rel: string,
    dir: Dir,
    staged: Staged,
    name: string,
    how: "rename" | "link",
    syncDir?: boolean
  ) => void
  /** Remove an entry of `dir` (not a directory) and fsync `dir`; nothing when absent. */
  readonly unlinkAt: (rel: string, dir: Dir, name: string) => void
  /** fsync a directory. */
  readonly fsyncDir: (rel: string, dir: Dir) => void
}

export const ioError = (rel: string, operation: string) => (e: unknown) =>
  new IoError({ path: rel, operation, code: codeOf(e) })

/** Run a boundary step: what it throws that is not already a domain error becomes `IoError {operation}`. */
export const guard = <A>(rel: string, operation: string, f: () => A): A => {
  try {
    return f()
  } catch (e) {
    if (isBoundaryError(e) || e instanceof LimitExceeded) throw e
    throw ioError(rel, operation)(e)
  }
}

/**
 * The boundary of one work folder. `root` is its real path (resolved once by `Workdir`); its
 * descriptor is opened at the first operation and kept (links above the work folder are the
 * user's business: what was opened then is the work folder from then on).
 */
export const makeBoundary = (root: string): Boundary & { readonly closeRoot: () => void } => {
  let rootFd: number | undefined

  const rootDir = (rel: string): Dir => {
    if (rootFd === undefined) {
      if (!isLinux) throw new UnsafePath({ path: rel, reason: "unsupported-platform" })
      let fd: number
      try {
        fd = fs.openSync(root, O_RDONLY | O_DIRECTORY)
      } catch (e) {
        throw ioError(".", "open")(e)
      }
      // The descriptor paths must name the descriptor's own directory; otherwise fail closed.
      let works = false
      try {
        const held = fs.fstatSync(fd)
        const named = fs.statSync(`/proc/self/fd/${fd}`)
        works = held.isDirectory() && held.dev === named.dev && held.ino === named.ino
      } catch {
        works = false
      }
      if (!works) {
        fs.closeSync(fd)
        throw new UnsafePath({ path: rel, reason: "unsupported-platform" })
      }
      rootFd = fd
      closer?.register(handle, fd, handle)
    }
    const fd = rootFd
    return { fd, at: (name) => entryOf(fd, name), close: () => {} }
  }

  const ownDir = (fd: number): Dir => ({ fd, at: (name) => entryOf(fd, name), close: () => fs.closeSync(fd) })

  const lstatAt: Boundary["lstatAt"] = (rel, dir, name) => {
    try {
      return fs.lstatSync(dir.at(name))
    } catch (e) {
      const code = codeOf(e)
      if (code === "ENOENT" || code === "ENOTDIR") return undefined
      throw ioError(rel, "lstat")(e)
    }
  }

  /** Open entry `name` of `dir` as a directory; undefined when absent. */
  const openDirAt = (rel: string, dir: Dir, name: string): Dir | undefined => {
    try {
      return ownDir(fs.openSync(dir.at(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW))
    } catch (e) {
      const code = codeOf(e)
      if (code === "ENOENT") return undefined
      if (code === "ELOOP") throw new UnsafePath({ path: rel, reason: "symlink" })
      if (code === "ENOTDIR") {
        // A symlink opened with O_DIRECTORY | O_NOFOLLOW is ENOTDIR too: say which it is.
        const st = lstatAt(rel, dir, name)
        throw new UnsafePath({ path: rel, reason: st?.isSymbolicLink() === true ? "symlink" : "not-directory" })
      }
      throw ioError(rel, "open")(e)
    }
  }

  const fsyncDir: Boundary["fsyncDir"] = (rel, dir) => {
    try {
      fs.fsyncSync(dir.fd)
    } catch (e) {
      throw ioError(rel, "fsync-directory")(e)
    }
  }

  const walk: Boundary["walk"] = (rel, parents, create) => {
    const parts = rel === "" || rel === "." ? [] : rel.split("/")
    const upto = parents ? parts.length - 1 : parts.length
    let dir = rootDir(rel)
    let reached = false
    try {
      for (let i = 0; i < upto; i++) {
        const name = parts[i]!
        let next = openDirAt(rel, dir, name)
        if (next === undefined) {
          if (!create) return undefined
          try {
            fs.mkdirSync(dir.at(name))
            fsyncDir(rel, dir)
          } catch (e) {
            if (e instanceof IoError) throw e
            if (codeOf(e) !== "EEXIST") throw ioError(rel, "mkdir")(e)
          }
          next = openDirAt(rel, dir, name)
          if (next === undefined) throw new IoError({ path: rel, operation: "mkdir", code: "ENOENT" })
        }
        dir.close()
        dir = next
      }
      reached = true
      return dir
    } finally {
      if (!reached) dir.close()
    }
  }

  const inParent: Boundary["inParent"] = (rel, create, use, missing) => {
    const dir = walk(rel, true, create)
    if (dir === undefined) return missing()
    try {
      return use(dir, rel.slice(rel.lastIndexOf("/") + 1))
    } finally {
      dir.close()
    }
  }

  const openAt: Boundary["openAt"] = (rel, dir, name, flags, mode) => {
    try {
      return fs.openSync(dir.at(name), flags | O_NOFOLLOW | O_NONBLOCK, mode)
    } catch (e) {
      const code = codeOf(e)
      if (code === "ENOENT") return undefined
      if (code === "ELOOP") throw new UnsafePath({ path: rel, reason: "symlink" })
      if (code === "ENXIO" || code === "EISDIR") throw new UnsafePath({ path: rel, reason: "not-regular-file" })
      throw ioError(rel, "open")(e)
    }
  }

  const unlinkAt: Boundary["unlinkAt"] = (rel, dir, name) => {
    try {
      fs.unlinkSync(dir.at(name))
    } catch (e) {
      if (codeOf(e) === "ENOENT") return
      throw ioError(rel, "remove")(e)
    }
    fsyncDir(rel, dir)
  }

  const stage: Boundary["stage"] = (rel, dir, name, bytes) => {
    const stagingName = `.${name}.${randomBytes(6).toString("hex")}${STAGING_SUFFIX}`
    let fd: number
    try {
      fd = fs.openSync(dir.at(stagingName), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
    } catch (e) {
      throw ioError(rel, "write")(e)
    }
    try {
      let off = 0
      while (off < bytes.byteLength) off += fs.writeSync(fd, bytes, off, bytes.byteLength - off)
      fs.fsyncSync(fd)
      const st = fs.fstatSync(fd)
      return { name: stagingName, dev: st.dev, ino: st.ino }
    } catch (e) {
      try {
        fs.unlinkSync(dir.at(stagingName))
      } catch {
        // The staging file is never taken as state; a leftover is harmless.
      }
      throw ioError(rel, "write")(e)
    } finally {
      fs.closeSync(fd)
    }
  }

  const publish: Boundary["publish"] = (rel, dir, staged, name, how, syncDir = true) => {
    try {
      if (how === "rename") fs.renameSync(dir.at(staged.name), dir.at(name))
      else fs.linkSync(dir.at(staged.name), dir.at(name))
    } catch (e) {
      try {
        fs.unlinkSync(dir.at(staged.name))
      } catch {
        // As above.
      }
      if (how === "link" && codeOf(e) === "EEXIST") throw e
      throw ioError(rel, "write")(e)
    }
    if (how === "link") {
      try {
        fs.unlinkSync(dir.at(staged.name))
      } catch (e) {
        throw ioError(rel, "write")(e)
      }
    }
    if (syncDir) fsyncDir(rel, dir)
    const now = lstatAt(rel, dir, name)
    if (now === undefined || now.dev !== staged.dev || now.ino !== staged.ino) {
      throw new UnsafePath({ path: rel, reason: "replaced-after-publish" })
    }
  }

  const handle = {}
  const closeRoot = () => {
    if (rootFd !== undefined) {
      closer?.unregister(handle)
      fs.closeSync(rootFd)
      rootFd = undefined
    }
  }

  return { walk, inParent, lstatAt, openAt, stage, publish, unlinkAt, fsyncDir, closeRoot }
}

/** A boundary dropped without `closeRoot` (a store made by `makeFileStoreLive` and let go) closes its descriptor when collected. */
const closer = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry<number>((fd) => {
    try {
      fs.closeSync(fd)
    } catch {
      // Already closed.
    }
  })
  : undefined
