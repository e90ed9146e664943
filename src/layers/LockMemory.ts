/**
 * Lock for tests and in-memory use: the in-process semaphore of LockLive without the OS lock
 * (re-entrant like it; `LockTimeout` after 10 s of waiting on Effect's clock, as LockLive).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Lock, LOCK_WAIT_MS, type LockShape } from "../services/Lock.js"
import { makeLockRegion } from "./LockRegion.js"

export const makeLockMemory: Effect.Effect<LockShape> = Effect.map(
  makeLockRegion(LOCK_WAIT_MS, { acquire: () => Effect.void, release: () => Effect.void }),
  ({ withLock }): LockShape => ({ withLock, withReadLock: (self) => withLock(self(true)) })
)

export const LockMemory: Layer.Layer<Lock> = Layer.effect(Lock, makeLockMemory)
