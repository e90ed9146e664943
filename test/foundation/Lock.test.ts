import { describe, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { FileStoreLive, makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { LockLive, makeLockLive } from "../../src/layers/LockLive.js"
import { makeLockMemory } from "../../src/layers/LockMemory.js"
import { Lock } from "../../src/services/Lock.js"
import { Workdir } from "../../src/services/Workdir.js"
import { tempWorkdir } from "../support/cli.js"
import { bundleFixture } from "../support/fixtures.js"

const lockFor = (root: string, waitMs: number) =>
  makeLockLive(root, makeFileStoreLive(root).ensureDir(".dossier"), waitMs)

/** Start the fixture that holds the lock; resolves once it says it holds it. */
const holdInChild = (script: string, root: string) =>
  new Promise<ReturnType<typeof spawn>>((resolve, reject) => {
    const child = spawn(process.execPath, [script, root], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, NODE_PATH: path.resolve(__dirname, "../../node_modules") }
    })
    child.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("locked")) resolve(child)
    })
    child.on("exit", (code) => reject(new Error(`fixture exited ${code}`)))
  })

/** While a child process holds the lock, `lock` must time out; after SIGKILL it must get it again. */
const blockedWhileChildHolds = (lock: Lock["Type"], script: string, root: string, label: string) =>
  Effect.gen(function*() {
    const child = yield* Effect.promise(() => holdInChild(script, root))
    try {
      const blocked = yield* Effect.either(lock.withLock(Effect.succeed("got")))
      expect(blocked._tag === "Left" && blocked.left._tag).toBe("LockTimeout")
    } finally {
      child.kill("SIGKILL")
    }
    yield* Effect.promise(() => new Promise((r) => child.once("exit", r)))
    expect(yield* lock.withLock(Effect.succeed(label))).toBe(label)
  })

describe("Lock", () => {
  it.live("serializes writers in one process and is re-entrant", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const lock = yield* lockFor(root, 10_000)
      const inside = yield* Ref.make(0)
      const maxInside = yield* Ref.make(0)
      const task = lock.withLock(
        Effect.gen(function*() {
          const n = yield* Ref.updateAndGet(inside, (x) => x + 1)
          yield* Ref.update(maxInside, (m) => Math.max(m, n))
          yield* Effect.sleep("5 millis")
          // Re-entrant: a nested withLock in the same fiber does not deadlock.
          yield* lock.withLock(Effect.void)
          yield* Ref.update(inside, (x) => x - 1)
        })
      )
      yield* Effect.all(Array.from({ length: 10 }, () => task), { concurrency: "unbounded" })
      expect(yield* Ref.get(maxInside)).toBe(1)
      expect(fs.existsSync(path.join(root, ".dossier", "lock.sqlite"))).toBe(true)
    }))

  it.live("the in-memory lock serializes too", () =>
    Effect.gen(function*() {
      const lock = yield* makeLockMemory
      const inside = yield* Ref.make(0)
      const maxInside = yield* Ref.make(0)
      const task = lock.withLock(
        Effect.gen(function*() {
          const n = yield* Ref.updateAndGet(inside, (x) => x + 1)
          yield* Ref.update(maxInside, (m) => Math.max(m, n))
          yield* Effect.sleep("2 millis")
          yield* Ref.update(inside, (x) => x - 1)
        })
      )
      yield* Effect.all(Array.from({ length: 10 }, () => task), { concurrency: "unbounded" })
      expect(yield* Ref.get(maxInside)).toBe(1)
    }))

  it.live("another process holding the lock → LockTimeout; after SIGKILL the next writer gets it at once", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const script = bundleFixture("hold-lock")
      const child = yield* Effect.promise(() => holdInChild(script, root))
      try {
        const blocked = yield* Effect.either((yield* lockFor(root, 300)).withLock(Effect.succeed("got")))
        expect(blocked._tag).toBe("Left")
        if (blocked._tag === "Left") expect(blocked.left._tag).toBe("LockTimeout")
      } finally {
        child.kill("SIGKILL")
      }
      yield* Effect.promise(() => new Promise((r) => child.once("exit", r)))
      // With a wait bound of 200 ms, acquisition must succeed: the OS released the dead holder's lock.
      const got = yield* (yield* lockFor(root, 200)).withLock(Effect.succeed("got"))
      expect(got).toBe("got")
    }))

  it.live("a waiter in the same process gets the lock when the holder releases it", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const lock = yield* lockFor(root, 5_000)
      const order: Array<string> = []
      const first = yield* Effect.fork(
        lock.withLock(
          Effect.sync(() => order.push("first-in")).pipe(
            Effect.zipRight(Effect.sleep("50 millis")),
            Effect.zipRight(Effect.sync(() => order.push("first-out")))
          )
        )
      )
      yield* Effect.sleep("10 millis")
      yield* lock.withLock(Effect.sync(() => order.push("second")))
      yield* Fiber.join(first)
      expect(order).toEqual(["first-in", "first-out", "second"])
    }))

  it.live("between locked regions an instance holds nothing: another process takes the lock, then it waits its turn", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const lock = yield* lockFor(root, 300)
      expect(yield* lock.withLock(Effect.succeed("first"))).toBe("first")
      yield* blockedWhileChildHolds(lock, bundleFixture("hold-lock"), root, "again")
    }))

  it.live("the lock file removed or replaced between regions: the instance locks the file other processes see", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const file = path.join(root, ".dossier", "lock.sqlite")
      const script = bundleFixture("hold-lock")
      const lock = yield* lockFor(root, 300)
      yield* lock.withLock(Effect.void)
      // Removed: the next process creates a new file and holds it; this instance must not lock the old one.
      fs.rmSync(file)
      yield* blockedWhileChildHolds(lock, script, root, "after removal")
      // Replaced by another file renamed over it.
      fs.writeFileSync(`${file}.other`, "")
      fs.renameSync(`${file}.other`, file)
      yield* blockedWhileChildHolds(lock, script, root, "after replacement")
    }))

  it.live("the lock (BEGIN IMMEDIATE) and a BEGIN EXCLUSIVE taker, as dossier was before, exclude each other", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const lock = yield* lockFor(root, 200)
      yield* lock.withLock(Effect.void)
      const db = new Sqlite(path.join(root, ".dossier", "lock.sqlite"), { timeout: 0, fileMustExist: true })
      try {
        db.exec("BEGIN EXCLUSIVE")
        const blocked = yield* Effect.either(lock.withLock(Effect.succeed("got")))
        expect(blocked._tag === "Left" && blocked.left._tag).toBe("LockTimeout")
        db.exec("ROLLBACK")
        const codes = yield* lock.withLock(Effect.sync(() =>
          ["BEGIN EXCLUSIVE", "BEGIN IMMEDIATE"].map((sql) => {
            try {
              db.exec(sql)
              db.exec("ROLLBACK")
              return "taken"
            } catch (e) {
              return (e as { code?: string }).code
            }
          })
        ))
        expect(codes).toEqual(["SQLITE_BUSY", "SQLITE_BUSY"])
        expect(yield* lock.withLock(Effect.succeed("after"))).toBe("after")
      } finally {
        db.close()
      }
    }))

  it.live("`.dossier` moved away or swapped for a symlink between regions: the instance locks what other processes see, or refuses", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const dossier = path.join(root, ".dossier")
      const lock = yield* lockFor(root, 300)
      yield* lock.withLock(Effect.void)
      // The kept `.dossier` still holds the connection's file, under another name in the folder:
      // the next process creates a new `.dossier` and lock file, and this instance must wait for it.
      fs.renameSync(dossier, `${dossier}-old`)
      yield* blockedWhileChildHolds(lock, bundleFixture("hold-lock"), root, "after the move")
      // `.dossier` a symlink to a directory holding the connection's file: never followed.
      yield* lock.withLock(Effect.void)
      fs.rmSync(`${dossier}-old`, { recursive: true })
      fs.renameSync(dossier, `${dossier}-old`)
      fs.symlinkSync(`${dossier}-old`, dossier)
      const refused = yield* Effect.either(lock.withLock(Effect.void))
      expect(refused._tag === "Left" && refused.left._tag === "UnsafePath" && refused.left.reason).toBe("symlink")
    }))

  it.live("the short path (connection open, nothing waiting) excludes like the general one: failures, defects and interruptions release the lock", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const lock = yield* lockFor(root, 5_000)
      const other = yield* lockFor(root, 200)
      // The first region opens the connection; later ones may take the short path.
      yield* lock.withLock(Effect.void)
      const inside = yield* Ref.make(0)
      const maxInside = yield* Ref.make(0)
      const region = (end: Effect.Effect<void, string>) =>
        lock.withLock(
          Effect.gen(function*() {
            const n = yield* Ref.updateAndGet(inside, (x) => x + 1)
            yield* Ref.update(maxInside, (m) => Math.max(m, n))
            // Re-entrant, also from a child fiber forked inside the region.
            yield* Effect.fork(lock.withLock(Effect.void)).pipe(Effect.flatMap(Fiber.join))
            yield* Effect.sleep("2 millis")
          }).pipe(Effect.ensuring(Ref.update(inside, (x) => x - 1)), Effect.zipRight(end))
        )
      const kinds: ReadonlyArray<Effect.Effect<void, string>> = [
        Effect.void,
        Effect.fail("refused"),
        Effect.die(new Error("defect")),
        Effect.never
      ]
      for (let round = 0; round < 5; round++) {
        const fibers = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) => Effect.fork(Effect.exit(region(kinds[i % kinds.length]!)))
        )
        // Interrupt some holders or waiters mid-way (those ending in `never` are interrupted here or below).
        yield* Effect.sleep("5 millis")
        yield* Fiber.interrupt(fibers[round % fibers.length]!)
        yield* Effect.sleep("30 millis")
        yield* Effect.forEach(fibers.filter((_, i) => i % kinds.length === 3), Fiber.interrupt, { discard: true })
        yield* Effect.forEach(fibers, Fiber.await, { discard: true })
        // Each time, the regions overlapped none, and nothing is held afterwards: another instance takes the OS lock at once.
        expect(yield* Ref.get(maxInside)).toBe(1)
        expect(yield* other.withLock(Effect.succeed("free"))).toBe("free")
        yield* Ref.set(inside, 0)
      }
      // Holding the lock in another instance forces the general path (OS lock busy) and it still waits its turn.
      const inB = yield* other.withLock(Effect.either((yield* lockFor(root, 100)).withLock(Effect.succeed("inside"))))
      expect(inB._tag === "Left" && inB.left._tag).toBe("LockTimeout")
      expect(yield* lock.withLock(Effect.succeed("after"))).toBe("after")
    }))

  it.live("a second instance in the same process connecting while the first holds leaves the lock held for other processes", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const file = path.join(root, ".dossier", "lock.sqlite")
      // Another process tries the lock once, as any other taker would.
      const otherProcess = () =>
        spawnSync(process.execPath, [
          "-e",
          `const S = require("better-sqlite3"); const d = new S(${JSON.stringify(file)}, { timeout: 0 });` +
          `try { d.exec("BEGIN IMMEDIATE"); console.log("taken") } catch (e) { console.log(e.code) }`
        ], { encoding: "utf8", env: { ...process.env, NODE_PATH: path.resolve(__dirname, "../../node_modules") } })
          .stdout.trim()
      const a = yield* lockFor(root, 5_000)
      const b = yield* lockFor(root, 100)
      const seen = yield* a.withLock(Effect.gen(function*() {
        const before = otherProcess()
        const inB = yield* Effect.either(b.withLock(Effect.void))
        return { before, inB: inB._tag === "Left" ? inB.left._tag : "taken", after: otherProcess() }
      }))
      expect(seen).toEqual({ before: "SQLITE_BUSY", inB: "LockTimeout", after: "SQLITE_BUSY" })
    }))

  it.live("two instances in one process exclude each other; close keeps the lock usable", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const a = yield* lockFor(root, 5_000)
      const b = yield* lockFor(root, 200)
      const inB = yield* a.withLock(Effect.either(b.withLock(Effect.succeed("b inside a"))))
      expect(inB._tag === "Left" && inB.left._tag).toBe("LockTimeout")
      expect(yield* b.withLock(Effect.succeed("b after a"))).toBe("b after a")
      yield* a.close
      expect(yield* a.withLock(Effect.succeed("a after close"))).toBe("a after close")
    }))

  it.live.skipIf(!fs.existsSync("/proc/self/fd"))(
    "the layer closes its connection when its scope closes",
    () =>
      Effect.gen(function*() {
        const root = tempWorkdir()
        const file = path.join(root, ".dossier", "lock.sqlite")
        const openOnLockFile = () =>
          fs.readdirSync("/proc/self/fd").filter((fd) => {
            try {
              return fs.readlinkSync(`/proc/self/fd/${fd}`) === file
            } catch {
              return false
            }
          }).length
        const layer = LockLive.pipe(Layer.provideMerge(FileStoreLive), Layer.provideMerge(Workdir.live(root)))
        const lock = yield* Effect.scoped(Effect.gen(function*() {
          const lock = Context.get(yield* Layer.build(layer), Lock)
          yield* lock.withLock(Effect.void)
          expect(openOnLockFile()).toBe(1)
          return lock
        }))
        expect(openOnLockFile()).toBe(0)
        // Used after its scope closed, it still works and leaves nothing open.
        expect(yield* lock.withLock(Effect.succeed("late"))).toBe("late")
        expect(openOnLockFile()).toBe(0)
      })
  )
})
