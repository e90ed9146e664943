/**
 * Time is Effect's: both lock layers give up after 10 s of Effect's clock (so TestClock moves
 * them, and no test waits 10 real seconds), and service methods given no `now` read the Clock.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeLockLive } from "../../src/layers/LockLive.js"
import { makeLockMemory } from "../../src/layers/LockMemory.js"
import { MonitorMemory } from "../../src/layers/MonitorMemory.js"
import type { LockShape } from "../../src/services/Lock.js"
import { Monitor } from "../../src/services/Monitor.js"
import { literature } from "../monitor/support.js"

/** A holder keeps `first` locked; a second caller of `second` waits, then times out at 10 s of TestClock. */
const timesOutOnTheClock = (first: LockShape, second: LockShape) =>
  Effect.gen(function*() {
    const holding = yield* Deferred.make<void>()
    const holder = yield* Effect.fork(
      first.withLock(Effect.zipRight(Deferred.succeed(holding, undefined), Effect.never))
    )
    yield* Deferred.await(holding)
    const waiter = yield* Effect.fork(Effect.either(second.withLock(Effect.succeed("got it"))))
    yield* TestClock.adjust("9 seconds")
    assert.isTrue(Option.isNone(yield* Fiber.poll(waiter)), "still waiting before 10 s")
    yield* TestClock.adjust("1 second")
    const result = yield* Fiber.join(waiter)
    assert.isTrue(result._tag === "Left" && result.left._tag === "LockTimeout")
    yield* Fiber.interrupt(holder)
    // Released: the next caller gets the lock at once.
    assert.strictEqual(yield* second.withLock(Effect.succeed("after")), "after")
  })

const tempRoot = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-clock-")))

describe("Effect's clock", () => {
  it.effect("LockMemory: a waiter gets LockTimeout after 10 s of TestClock", () =>
    Effect.flatMap(makeLockMemory, (lock) => timesOutOnTheClock(lock, lock)))

  it.scoped("LockLive: a waiter on the OS lock gets LockTimeout after 10 s of TestClock", () =>
    Effect.gen(function*() {
      const root = tempRoot()
      yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(root, { recursive: true, force: true })))
      const store = makeFileStoreLive(root)
      // Two instances in one process exclude each other through the OS lock alone.
      const a = yield* Effect.acquireRelease(makeLockLive(root, store.ensureDir(".dossier")), (l) => l.close)
      const b = yield* Effect.acquireRelease(makeLockLive(root, store.ensureDir(".dossier")), (l) => l.close)
      yield* timesOutOnTheClock(a, b)
    }))

  it.effect("LockLive: the in-process waiter times out on TestClock too", () =>
    Effect.gen(function*() {
      const root = tempRoot()
      const store = makeFileStoreLive(root)
      const lock = yield* makeLockLive(root, store.ensureDir(".dossier"))
      yield* timesOutOnTheClock(lock, lock)
      yield* lock.close
      fs.rmSync(root, { recursive: true, force: true })
    }))

  it.effect("a subscription's due window moves with TestClock when no `now` is given", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.parse("2026-11-30T10:00:00.000Z"))
      const s = yield* Monitor
      const { subscription } = yield* s.createSubscription(literature("clock") as never)
      assert.strictEqual(subscription.createdAt, "2026-11-30T10:00:00.000Z")
      const before = yield* s.due()
      assert.strictEqual(before.now, "2026-11-30T10:00:00.000Z")
      assert.isFalse(before.subscriptions[0]!.due)
      // The first window is 2026-12-01T09:00 Europe/Berlin (08:00Z).
      yield* TestClock.adjust("22 hours")
      const after = yield* s.due()
      assert.strictEqual(after.now, "2026-12-01T08:00:00.000Z")
      assert.isTrue(after.subscriptions[0]!.due)
    }).pipe(Effect.provide(MonitorMemory)))
})
