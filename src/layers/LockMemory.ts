/** Lock for tests and in-memory use: an in-process semaphore only (re-entrant like LockLive). */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import { Lock, type LockShape } from "../services/Lock.js"

export const makeLockMemory = Effect.gen(function*() {
  const mutex = yield* Effect.makeSemaphore(1)
  const held = FiberRef.unsafeMake(false)
  const withLock: LockShape["withLock"] = (self) =>
    Effect.flatMap(FiberRef.get(held), (already) =>
      already ? self : mutex.withPermits(1)(Effect.locally(self, held, true))
    )
  return { withLock, withReadLock: (self) => withLock(self(true)) } satisfies LockShape
})

export const LockMemory: Layer.Layer<Lock> = Layer.effect(Lock, makeLockMemory)
