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
 * The directories a walk opens are kept open for the boundary's life (at most `HELD_MAX`, least
 * recently used first out), so that the next walk through them need not open them again: before
 * a kept descriptor is used, the name is checked to still reach it — `lstat` of the entry in the
 * (checked) parent, which follows no link, must be a directory with the descriptor's device and
 * inode (which no other directory can have while the descriptor holds it open). A symlink, a
 * missing or another directory there is not the kept one: it is closed and the walk opens the
 * name as above (and refuses what it refused). What is used is thus, at the moment of the check,
 * the directory a fresh walk would open, as a fresh walk's descriptor is at the moment it opens.
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

/** How many directories one boundary keeps open between walks (see the top). */
export const HELD_MAX = 64

/** A directory a boundary keeps open: its descriptor, its identity, and the walks' answers still using it. */
interface Kept {
  readonly fd: number
  readonly at: (name: string) => string
  readonly dev: number
  readonly ino: number
  users: number
  /** Forgotten (no longer what its name reaches, or pushed out): closed when `users` is 0. */
  dropped: boolean
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
   * thrown as is), fsync the directory, then check that `name` is the staged file.
   */
  readonly publish: (rel: string, dir: Dir, staged: Staged, name: string, how: "rename" | "link") => void
  /** Remove an entry of `dir` (not a directory) and fsync `dir`; nothing when absent. */
  readonly unlinkAt: (rel: string, dir: Dir, name: string) => void
  /** fsync a directory. */
  readonly fsyncDir: (rel: string, dir: Dir) => void
}

export const ioError = (rel: string, operation: string) => (e: unknown) => new IoError({ path: rel, operation, code: codeOf(e) })

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
  /** Directories kept open by walks: path from the work folder → descriptor and identity (in use order). */
  const held = new Map<string, Kept>()
  /** Every descriptor this boundary holds (the work folder's and `held`'s), closed when it is collected. */
  const open = new Set<number>()

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
      open.add(fd)
      closer?.register(handle, open, handle)
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

  /**
   * Close a kept directory and forget it. A walk's answer may still be in use (an operation that
   * walked, then waits for a hash worker): the descriptor is then closed by the answer's last
   * `close`, so that its number is never reused under an operation still holding it.
   */
  const forget = (prefix: string) => {
    const h = held.get(prefix)
    if (h === undefined) return
    held.delete(prefix)
    h.dropped = true
    if (h.users === 0) release(h)
  }
  const release = (h: Kept) => {
    open.delete(h.fd)
    fs.closeSync(h.fd)
  }

  /** A kept directory as a walk's answer: `close` ends this use of it (closing it if it was forgotten meanwhile). */
  const lease = (h: Kept): Dir => {
    h.users++
    let closed = false
    return {
      fd: h.fd,
      at: h.at,
      close: () => {
        if (closed) return
        closed = true
        h.users--
        if (h.dropped && h.users === 0) release(h)
      }
    }
  }

  /** Keep a directory a walk has just opened. */
  const keep = (rel: string, prefix: string, opened: Dir): Kept => {
    let st: fs.Stats
    try {
      st = fs.fstatSync(opened.fd)
    } catch (e) {
      opened.close()
      throw ioError(rel, "stat")(e)
    }
    const h: Kept = { fd: opened.fd, at: opened.at, dev: st.dev, ino: st.ino, users: 0, dropped: false }
    held.set(prefix, h)
    open.add(h.fd)
    return h
  }

  /** The kept directory `prefix` (entry `name` of `parent`) when the name still reaches it; otherwise it is forgotten. */
  const kept = (rel: string, parent: Dir, prefix: string, name: string): Kept | undefined => {
    const h = held.get(prefix)
    if (h === undefined) return undefined
    const st = lstatAt(rel, parent, name)
    if (st === undefined || !st.isDirectory() || st.dev !== h.dev || st.ino !== h.ino) {
      forget(prefix)
      return undefined
    }
    // Most recently used last.
    held.delete(prefix)
    held.set(prefix, h)
    return h
  }

  const walk: Boundary["walk"] = (rel, parents, create) => {
    const parts = rel === "" || rel === "." ? [] : rel.split("/")
    const upto = parents ? parts.length - 1 : parts.length
    const root = rootDir(rel)
    if (upto <= 0) return root
    // The directories on the way stay in `held` during the walk (nothing is forgotten before its
    // end); the last one is leased, then the least recently used beyond HELD_MAX are forgotten.
    let dir: Dir = root
    let last: Kept | undefined
    let prefix = ""
    for (let i = 0; i < upto; i++) {
      const name = parts[i]!
      prefix = i === 0 ? name : `${prefix}/${name}`
      let h = kept(rel, dir, prefix, name)
      if (h === undefined) {
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
        h = keep(rel, prefix, next)
      }
      last = h
      dir = { fd: h.fd, at: h.at, close: () => {} }
    }
    const answer = lease(last!)
    for (const oldest of held.keys()) {
      if (held.size <= HELD_MAX) break
      forget(oldest)
    }
    return answer
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

  const publish: Boundary["publish"] = (rel, dir, staged, name, how) => {
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
    fsyncDir(rel, dir)
    const now = lstatAt(rel, dir, name)
    if (now === undefined || now.dev !== staged.dev || now.ino !== staged.ino) {
      throw new UnsafePath({ path: rel, reason: "replaced-after-publish" })
    }
  }

  const handle = {}
  const closeRoot = () => {
    for (const prefix of [...held.keys()]) forget(prefix)
    if (rootFd !== undefined) {
      closer?.unregister(handle)
      open.delete(rootFd)
      fs.closeSync(rootFd)
      rootFd = undefined
    }
  }

  return { walk, inParent, lstatAt, openAt, stage, publish, unlinkAt, fsyncDir, closeRoot }
}

/** A boundary dropped without `closeRoot` (a store made by `makeFileStoreLive` and let go) closes its descriptors when collected. */
const closer = typeof FinalizationRegistry === "function"
  ? new FinalizationRegistry<Set<number>>((fds) => {
    for (const fd of fds) {
      try {
        fs.closeSync(fd)
      } catch {
        // Already closed.
      }
    }
  })
  : undefined
