/**
 * Lock on Node: an in-process semaphore plus a cross-process lock that the OS releases when the
 * holder dies: `.dossier/lock.sqlite`, a SQLite database with no tables, held by an open
 * `BEGIN IMMEDIATE` transaction (see `BEGIN`). Waiting for the OS lock polls (never blocks the
 * event loop); waiting for both is bounded by 10 s on Effect's clock (`LockTimeout`), as in
 * LockMemory (src/layers/LockRegion.ts). better-sqlite3 and its native addon are loaded when a
 * lock is first taken (not when the library is imported, nor when the layer is built): a
 * read-only command in a folder without a lock file, or one that cannot be written, never loads
 * them.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { IoError, LockTimeout, UnsafePath } from "../domain/Errors.js"
import { FileStore } from "../services/FileStore.js"
import { Lock, LOCK_WAIT_MS, type LockShape } from "../services/Lock.js"
import { Workdir } from "../services/Workdir.js"
import { type Boundary, type Dir, guard, makeBoundary } from "./Boundary.js"
import { makeLockRegion } from "./LockRegion.js"
import { guardedAcquire } from "./PlainFolderGuard.js"

export const LOCK_FILE = ".dossier/lock.sqlite"
const POLL_MS = 20

/**
 * The statement that takes the lock. `BEGIN IMMEDIATE` takes SQLite's RESERVED lock on the file
 * (an fcntl lock the kernel drops when the process dies), and SQLite lets one connection at a time
 * hold RESERVED or anything above it: a second `BEGIN IMMEDIATE` (or `BEGIN EXCLUSIVE`, as
 * dossier took before) is SQLITE_BUSY until the holder's `ROLLBACK`, in this process or another.
 * `EXCLUSIVE` would go on to PENDING and EXCLUSIVE, two more fcntl calls to take and to release,
 * excluding only readers of the database, and this database has none (no tables, never read).
 */
const BEGIN = "BEGIN IMMEDIATE"

interface SqliteDb {
  exec(sql: string): void
  close(): void
}

/**
 * The path of better-sqlite3's native addon, or undefined to let better-sqlite3 find it. The CLI
 * bundles better-sqlite3's JavaScript (it is then compiled once and kept in the code cache:
 * loading its ten modules through Node's loader on every command's start is avoided), and inside a
 * bundle better-sqlite3's own finder (`bindings`, which searches from the calling file) would
 * look in the wrong package; so the addon is named by path, resolved from here.
 */
let addon: string | undefined | null = null
const addonPath = (): string | undefined => {
  if (addon === null) {
    try {
      addon = createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node")
    } catch {
      addon = undefined
    }
  }
  return addon
}

type Sqlite = typeof import("better-sqlite3")

/** better-sqlite3 is loaded when a LockLive first takes the OS lock, so that importing the library or building the layer does not load it. */
let sqliteModule: Promise<Sqlite> | undefined
const loadSqlite = Effect.promise(() => (sqliteModule ??= import("better-sqlite3").then((m) => m.default)))

/**
 * Every connection this process opened, closed ones included, kept reachable until the process
 * ends. On Node 24, better-sqlite3 12's native object (a `node::ObjectWrap`) asserts and aborts
 * the process (SIGABRT, exit 134, a native stack trace on stderr) when the garbage collector
 * destroys it while no Node environment is current: at exit, or from a collection that runs
 * outside JavaScript. An object that is never garbage is never destroyed that way. Each entry is
 * a closed or open handle of a few hundred bytes, and a process opens one connection per work
 * folder (plus one per replaced lock file), so nothing grows with the work done.
 */
const connections: Array<SqliteDb> = []

/** Open the lock file, which `checkLockFile` made sure exists: SQLite never creates a file (that could be elsewhere). */
const openDatabase = (Sqlite: Sqlite, file: string): SqliteDb => {
  const nativeBinding = addonPath()
  const db: SqliteDb = new Sqlite(
    file,
    nativeBinding === undefined
      ? { timeout: 0, fileMustExist: true }
      : { timeout: 0, fileMustExist: true, nativeBinding }
  )
  connections.push(db)
  return db
}

const isBusy = (e: unknown) => {
  const code = (e as { code?: string })?.code ?? ""
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED"
}

/**
 * The file a connection opened, identified as `lstat` saw it right after opening, and the
 * `.dossier` directory it was found in: kept open (and identified) so that checking the path
 * again looks the lock file up in that very directory, without opening it each time.
 */
interface Connection {
  readonly db: SqliteDb
  readonly dev: number
  readonly ino: number
  readonly dir: Dir
  readonly dirDev: number
  readonly dirIno: number
}

/**
 * Check `.dossier/lock.sqlite` through the work folder's boundary before SQLite sees the path:
 * `.dossier` a directory and the lock file a regular file with link count 1 (looked at with
 * `lstat`, never followed if a symlink) that this process may write (created here, never by
 * SQLite, when absent). Answers its identity.
 *
 * An existing lock file is never opened here: fcntl locks belong to the process, and closing
 * any descriptor of the file drops all of them, so opening and closing it while another
 * instance in this process holds the lock would let other processes take it too. A file
 * created here is new: no connection holds a lock on it yet.
 */
const checkLockFile = (boundary: Boundary): { readonly dev: number; readonly ino: number } =>
  guard(LOCK_FILE, "lock", () =>
    boundary.inParent(LOCK_FILE, false, (dir, name) => {
      let st = boundary.lstatAt(LOCK_FILE, dir, name)
      if (st === undefined) {
        let fd: number | undefined
        try {
          fd = boundary.openAt(
            LOCK_FILE,
            dir,
            name,
            fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL,
            0o644
          )
        } catch (e) {
          // Created by another process meanwhile: look at it as it is.
          if (!(e instanceof IoError && e.code === "EEXIST")) throw e
        }
        if (fd !== undefined) {
          try {
            st = fs.fstatSync(fd)
          } finally {
            fs.closeSync(fd)
          }
          boundary.fsyncDir(LOCK_FILE, dir)
        } else st = boundary.lstatAt(LOCK_FILE, dir, name)
        if (st === undefined) throw new IoError({ path: LOCK_FILE, operation: "lock", code: "ENOENT" })
      }
      if (st.isSymbolicLink()) throw new UnsafePath({ path: LOCK_FILE, reason: "symlink" })
      if (!st.isFile()) throw new UnsafePath({ path: LOCK_FILE, reason: "not-regular-file" })
      if (st.nlink > 1) throw new UnsafePath({ path: LOCK_FILE, reason: "hard-link" })
      // SQLite would open a file it may not write read-only, and fail only when locking.
      fs.accessSync(dir.at(name), fs.constants.W_OK)
      return { dev: st.dev, ino: st.ino }
    }, () => {
      throw new IoError({ path: LOCK_FILE, operation: "lock", code: "ENOENT" })
    }))

const DOSSIER_DIR = ".dossier"
const LOCK_NAME = "lock.sqlite"

/** `.dossier` opened through the boundary (never through a symlink), with its identity; undefined when absent. */
const openLockDir = (
  boundary: Boundary
): { readonly dir: Dir; readonly dev: number; readonly ino: number } | undefined =>
  guard(LOCK_FILE, "lock", () => {
    const dir = boundary.walk(DOSSIER_DIR, false, false)
    if (dir === undefined) return undefined
    try {
      const st = fs.fstatSync(dir.fd)
      return { dir, dev: st.dev, ino: st.ino }
    } catch (e) {
      dir.close()
      throw e
    }
  })

/**
 * Whether `.dossier/lock.sqlite` still names the connection's file: the work folder's entry
 * `.dossier` is (not a symlink to) the directory the connection kept, and that directory's entry
 * `lock.sqlite` is the file (device and inode). The same two steps as walking to the file again
 * (open `.dossier` without following a link, look the name up in it), with an `lstat` of the
 * entry compared to the kept descriptor in place of opening and closing the directory.
 */
const stillNamed = (boundary: Boundary, c: Connection): boolean =>
  guard(LOCK_FILE, "lock", () => {
    const root = boundary.walk(DOSSIER_DIR, true, false)!
    const top = boundary.lstatAt(DOSSIER_DIR, root, DOSSIER_DIR)
    if (top === undefined || !top.isDirectory() || top.dev !== c.dirDev || top.ino !== c.dirIno) return false
    const st = boundary.lstatAt(LOCK_FILE, c.dir, LOCK_NAME)
    return st !== undefined && st.dev === c.dev && st.ino === c.ino
  })

/**
 * Build a lock over a work folder root; `waitMs` bounds the wait (10 s by default).
 *
 * The SQLite connection stays open between locked regions (opening one costs more than taking
 * the lock) and holds no lock outside them: only the open `BEGIN IMMEDIATE` transaction
 * excludes other processes, and the OS releases it when this process dies. Each time the
 * transaction is taken, the lock file's path must still name the file the connection opened
 * (device and inode); if `.dossier/lock.sqlite` was removed or replaced meanwhile, the
 * connection is closed and the current file is opened and locked instead, so this process
 * never holds a lock other processes cannot see. `close` closes the connection (the layer
 * does so when its scope closes); a region taken after that opens and closes its own.
 */
export const makeLockLive = (
  root: string,
  ensureDir: Effect.Effect<void, IoError | UnsafePath>,
  waitMs = LOCK_WAIT_MS
) =>
  Effect.gen(function*() {
    /** better-sqlite3, once loaded (before the first connection: see `acquireOsPolling`). */
    let Sqlite: Sqlite | undefined
    const file = path.join(root, ...LOCK_FILE.split("/"))
    // The work folder's descriptor is kept as long as the lock (closed when it is collected).
    const boundary = makeBoundary(root)
    /** The open connection; only touched while holding the in-process semaphore. */
    let connection: Connection | undefined

    const disconnect = () => {
      const c = connection
      connection = undefined
      if (c === undefined) return
      try {
        c.db.close()
      } finally {
        c.dir.close()
      }
    }

    const connect = (): Connection | "busy" => {
      const checked = checkLockFile(boundary)
      const db = openDatabase(Sqlite!, file)
      let held: ReturnType<typeof openLockDir>
      let connected: Connection | undefined
      try {
        // No rollback-journal file: creating and deleting `lock.sqlite-journal` on every lock
        // would add a file created and deleted in `.dossier/` to every locked region, beside the
        // holder's own fsyncs (bench/journal.ts's append measures the difference).
        db.exec("PRAGMA journal_mode=MEMORY")
        held = openLockDir(boundary)
        if (held === undefined) return "busy"
        const dir = held.dir
        const st = guard(LOCK_FILE, "lock", () => boundary.lstatAt(LOCK_FILE, dir, LOCK_NAME))
        if (st === undefined) return "busy"
        // SQLite opened the path by name: it must still be the file checked.
        if (st.dev !== checked.dev || st.ino !== checked.ino) {
          throw new UnsafePath({ path: LOCK_FILE, reason: "changed-while-opening" })
        }
        connected = { db, dev: st.dev, ino: st.ino, dir, dirDev: held.dev, dirIno: held.ino }
        return connected
      } catch (e) {
        if (isBusy(e)) {
          return "busy"
        }
        throw e
      } finally {
        if (connected === undefined) {
          held?.dir.close()
          db.close()
        }
      }
    }

    /**
     * Take the transaction on the open connection (opening one if needed); "busy" to retry
     * later, "stale" to reconnect at once (the connection's file is no longer the lock file).
     */
    const tryAcquire = (): SqliteDb | "busy" | "stale" => {
      if (connection === undefined) {
        const c = connect()
        if (c === "busy") return "busy"
        connection = c
      }
      const c = connection
      try {
        c.db.exec(BEGIN)
      } catch (e) {
        if (isBusy(e)) return "busy"
        disconnect()
        throw e
      }
      let named: boolean
      try {
        named = stillNamed(boundary, c)
      } catch (e) {
        releaseNow(c.db)
        throw e
      }
      if (named) return c.db
      // The path names another file now (or none): this lock would exclude nobody.
      releaseNow(c.db)
      disconnect()
      return "stale"
    }

    const releaseNow = (db: SqliteDb) => {
      try {
        db.exec("ROLLBACK")
      } catch (e) {
        // Closing the connection releases whatever it still holds.
        disconnect()
        throw e
      }
    }

    /** `.dossier` must be a directory (a symlink is `UnsafePath`, never retried). */
    const ensure = ensureDir

    const lockError = (e: unknown): IoError | UnsafePath =>
      e instanceof IoError || e instanceof UnsafePath
        ? e
        : new IoError({
          path: LOCK_FILE,
          operation: "lock",
          code: String((e as { code?: string })?.code ?? "EUNKNOWN")
        })

    /**
     * Take the OS lock (called holding the in-process semaphore). The usual case without the
     * polling loop: the connection is open and the lock is free.
     */
    const acquireOs = (started: number): Effect.Effect<SqliteDb, LockTimeout | IoError | UnsafePath> =>
      Effect.suspend(() => {
        if (connection === undefined) return acquireOsPolling(started)
        let got: SqliteDb | "busy" | "stale"
        try {
          got = tryAcquire()
        } catch (e) {
          return Effect.fail(lockError(e))
        }
        return typeof got === "object" ? Effect.succeed(got) : acquireOsPolling(started)
      })

    /** Poll every POLL_MS until the OS lock is free or `waitMs` (Effect's clock, since `started`) have passed. */
    const acquireOsPolling = (started: number): Effect.Effect<SqliteDb, LockTimeout | IoError | UnsafePath> =>
      Effect.gen(function*() {
        // The first time the OS lock is taken: no connection yet, so `acquireOs` came here.
        if (Sqlite === undefined) Sqlite = yield* loadSqlite
        for (;;) {
          if (connection === undefined) yield* ensure
          const got = yield* Effect.try({ try: tryAcquire, catch: lockError })
          if (got !== "busy" && got !== "stale") return got
          const waited = (yield* Clock.currentTimeMillis) - started
          if (waited >= waitMs) return yield* new LockTimeout({ waitedMs: waited })
          if (got === "busy") yield* Effect.sleep(Duration.millis(POLL_MS))
        }
      })

    /** After `close`, each locked region opens and closes its own connection (nothing stays open). */
    let closed = false
    const releaseOs = (db: SqliteDb) =>
      Effect.sync(() => {
        releaseNow(db)
        if (closed) disconnect()
      })

    // The OS lock, then the binding read again under it (./PlainFolderGuard.ts).
    const region = yield* makeLockRegion(waitMs, {
      acquire: guardedAcquire(root, acquireOs, releaseOs),
      release: releaseOs
    })

    /** Close the connection (after a locked region in progress). The lock stays usable, without keeping a connection. */
    const close = region.exclusive(Effect.sync(() => {
      closed = true
      disconnect()
    }))

    /** The lock file exists and this process may write it (so taking the lock creates nothing). */
    const lockable = (): boolean => {
      try {
        if (!fs.lstatSync(file).isFile()) return false
        fs.accessSync(file, fs.constants.W_OK)
        return true
      } catch {
        return false
      }
    }

    /** Re-entrant like withLock: a holder that reads takes the region again, which is a no-op. */
    const withReadLock: LockShape["withReadLock"] = (self) =>
      Effect.suspend(() => (lockable() ? region.withLock(Effect.suspend(() => self(true))) : self(false)))

    return { withLock: region.withLock, withReadLock, close }
  })

export const LockLive: Layer.Layer<Lock, never, Workdir | FileStore> = Layer.scoped(
  Lock,
  Effect.gen(function*() {
    const { root } = yield* Workdir
    const store = yield* FileStore
    const lock = yield* Effect.acquireRelease(makeLockLive(root, store.ensureDir(".dossier")), (l) => l.close)
    return { withLock: lock.withLock, withReadLock: lock.withReadLock } satisfies LockShape
  })
)
