/**
 * Lock on Node: an in-process semaphore plus a cross-process lock that the OS releases when the
 * holder dies: `.dossier/lock.sqlite`, a SQLite database with no tables, held by an open
 * `BEGIN EXCLUSIVE` transaction. Waiting polls (never blocks the event loop) and gives up after
 * 10 s with `LockTimeout`. better-sqlite3's native addon is loaded only when a lock is first taken.
 */
import BetterSqlite3 from "better-sqlite3"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { IoError, LockTimeout } from "../domain/Errors.js"
import { FileStore } from "../services/FileStore.js"
import { LOCK_WAIT_MS, Lock, type LockShape } from "../services/Lock.js"
import { Workdir } from "../services/Workdir.js"

export const LOCK_FILE = ".dossier/lock.sqlite"
const POLL_MS = 20

interface SqliteDb {
  exec(sql: string): void
  close(): void
}

/**
 * The path of better-sqlite3's native addon, or undefined to let better-sqlite3 find it. The CLI
 * bundles better-sqlite3's JavaScript (it is then compiled once and kept in the code cache:
 * loading its modules through Node's loader took ~15 ms of every command's start), and inside a
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

const openDatabase = (file: string): SqliteDb => {
  const nativeBinding = addonPath()
  return new BetterSqlite3(file, nativeBinding === undefined ? { timeout: 0 } : { timeout: 0, nativeBinding })
}

const isBusy = (e: unknown) => {
  const code = (e as { code?: string })?.code ?? ""
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED"
}

/** The file a connection opened, identified as `lstat` saw it right after opening. */
interface Connection {
  readonly db: SqliteDb
  readonly dev: number
  readonly ino: number
}

const identity = (file: string): fs.Stats | undefined => {
  try {
    return fs.lstatSync(file)
  } catch (e) {
    const code = (e as { code?: string })?.code
    if (code === "ENOENT" || code === "ENOTDIR") return undefined
    throw e
  }
}

/**
 * Build a lock over a work folder root; `waitMs` bounds the wait (10 s by default).
 *
 * The SQLite connection stays open between locked regions (opening one costs more than taking
 * the lock) and holds no lock outside them: only the open `BEGIN EXCLUSIVE` transaction
 * excludes other processes, and the OS releases it when this process dies. Each time the
 * transaction is taken, the lock file's path must still name the file the connection opened
 * (device and inode); if `.dossier/lock.sqlite` was removed or replaced meanwhile, the
 * connection is closed and the current file is opened and locked instead, so this process
 * never holds a lock other processes cannot see. `close` closes the connection (the layer
 * does so when its scope closes); a region taken after that opens and closes its own.
 */
export const makeLockLive = (
  root: string,
  ensureDir: Effect.Effect<void, IoError | import("../domain/Errors.js").UnsafePath>,
  waitMs = LOCK_WAIT_MS
) =>
  Effect.gen(function*() {
    const held = FiberRef.unsafeMake(false)
    const file = path.join(root, ...LOCK_FILE.split("/"))
    /** The open connection; only touched while holding `mutex`. */
    let connection: Connection | undefined

    const disconnect = () => {
      const c = connection
      connection = undefined
      c?.db.close()
    }

    const connect = (): Connection | "busy" => {
      const db = openDatabase(file)
      try {
        // No rollback-journal file: creating and deleting `lock.sqlite-journal` on every lock
        // would add directory churn to the holder's own fsyncs (measured: ~2x an append).
        db.exec("PRAGMA journal_mode=MEMORY")
        const st = identity(file)
        if (st === undefined) {
          db.close()
          return "busy"
        }
        return { db, dev: st.dev, ino: st.ino }
      } catch (e) {
        db.close()
        if (isBusy(e)) return "busy"
        throw e
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
        c.db.exec("BEGIN EXCLUSIVE")
      } catch (e) {
        if (isBusy(e)) return "busy"
        disconnect()
        throw e
      }
      let st: fs.Stats | undefined
      try {
        st = identity(file)
      } catch (e) {
        releaseNow(c.db)
        throw e
      }
      if (st !== undefined && st.dev === c.dev && st.ino === c.ino) return c.db
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

    const ensure = ensureDir.pipe(
      Effect.mapError((e) => (e._tag === "IoError" ? e : new IoError({ path: ".dossier", operation: "lock", code: e.reason })))
    )

    const lockError = (e: unknown) =>
      new IoError({ path: LOCK_FILE, operation: "lock", code: String((e as { code?: string })?.code ?? "EUNKNOWN") })

    /** The usual case without the polling loop: the connection is open and the lock is free. */
    const acquireOs: Effect.Effect<SqliteDb, LockTimeout | IoError> = Effect.suspend(() => {
      if (connection === undefined) return acquireOsPolling
      let got: SqliteDb | "busy" | "stale"
      try {
        got = tryAcquire()
      } catch (e) {
        return Effect.fail(lockError(e))
      }
      return typeof got === "object" ? Effect.succeed(got) : acquireOsPolling
    })

    const acquireOsPolling: Effect.Effect<SqliteDb, LockTimeout | IoError> = Effect.gen(function*() {
      const started = Date.now()
      for (;;) {
        if (connection === undefined) yield* ensure
        const got = yield* Effect.try({ try: tryAcquire, catch: lockError })
        if (got !== "busy" && got !== "stale") return got
        const waited = Date.now() - started
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

    /**
     * The in-process mutex. Taken only in uninterruptible code, and released by the finalizer
     * registered right after taking it (no interruption can fall in between); a release wakes
     * every waiter, each of which tries again, so an interrupted waiter loses no wake-up.
     */
    let taken = false
    const waiters = new Set<() => void>()
    const releaseMutex = () => {
      taken = false
      for (const wake of [...waiters]) wake()
    }
    /** Wait (interruptibly) until the mutex is free at some point; it is not taken. */
    const mutexFreed = Effect.async<void>((resume) => {
      if (!taken) return resume(Effect.void)
      const wake = () => {
        waiters.delete(wake)
        resume(Effect.void)
      }
      waiters.add(wake)
      return Effect.sync(() => {
        waiters.delete(wake)
      })
    })
    const withMutex = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.uninterruptibleMask((restore) =>
        Effect.suspend(() => {
          if (taken) return restore(Effect.zipRight(mutexFreed, withMutex(self)))
          taken = true
          return Effect.ensuring(restore(self), Effect.sync(releaseMutex))
        })
      )

    /** The general path: wait for the in-process mutex, then for the OS lock (polling). */
    const withLockSlow = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      withMutex(Effect.acquireUseRelease(acquireOs, () => Effect.locally(self, held, true), releaseOs))

    /**
     * The usual case in a few steps (measured: the general path's steps cost ~0.1 ms on each of
     * a process's first calls): nobody holds or waits for the mutex, the connection is open and
     * the OS lock free. The mutex is taken all the same and held for the whole region, and
     * taking the mutex and the OS lock, marking the fiber as holder and registering the
     * release happen in one uninterruptible step; when the OS lock is busy (or the connection
     * stale) the mutex is released at once and the general path runs instead.
     */
    const withLock: LockShape["withLock"] = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.withFiberRuntime<A, E | LockTimeout | IoError, R>((fiber) => {
          if (fiber.getFiberRef(held)) return restore(self)
          if (taken || waiters.size > 0 || closed || connection === undefined) return restore(withLockSlow(self))
          taken = true
          let got: SqliteDb | "busy" | "stale"
          try {
            got = tryAcquire()
          } catch (e) {
            releaseMutex()
            return Effect.fail(lockError(e))
          }
          if (typeof got === "string") {
            releaseMutex()
            return restore(withLockSlow(self))
          }
          const db = got
          return Effect.zipRight(
            FiberRef.set(held, true),
            Effect.onExit(restore(self), () =>
              Effect.zipRight(
                FiberRef.set(held, false),
                Effect.sync(() => {
                  try {
                    releaseNow(db)
                    if (closed) disconnect()
                  } finally {
                    releaseMutex()
                  }
                })
              ))
          )
        })
      )

    /** Close the connection (after a locked region in progress). The lock stays usable, without keeping a connection. */
    const close = withMutex(Effect.sync(() => {
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

    const withReadLock: LockShape["withReadLock"] = (self) =>
      Effect.withFiberRuntime((fiber) =>
        fiber.getFiberRef(held) ? self(true) : lockable() ? withLock(Effect.suspend(() => self(true))) : self(false)
      )

    return { withLock, withReadLock, close }
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
