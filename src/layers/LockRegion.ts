/**
 * The locked region both lock layers share: an in-process semaphore (one permit), re-entrant
 * within one fiber tree (a `FiberRef` marks the holder and the fibers it forks), then an optional
 * second lock taken inside it (LockLive's OS lock). Waiting for both together is bounded by
 * `waitMs` on Effect's `Clock` (so `TestClock` moves it): `LockTimeout` after that.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import { type IoError, LockTimeout, type UnsafePath } from "../domain/Errors.js"
import type { LockShape } from "../services/Lock.js"

export interface Inner<H> {
  /** Take the inner lock; `started` is when the caller began waiting (Clock milliseconds). */
  readonly acquire: (started: number) => Effect.Effect<H, LockTimeout | IoError | UnsafePath>
  readonly release: (held: H) => Effect.Effect<void>
}

export interface LockRegion {
  readonly withLock: LockShape["withLock"]
  /** Run `self` holding the semaphore only (no waiting bound), e.g. to close what the inner lock keeps. */
  readonly exclusive: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

export const makeLockRegion = <H>(waitMs: number, inner: Inner<H>): Effect.Effect<LockRegion> =>
  Effect.map(Effect.makeSemaphore(1), (mutex) => {
    const held = FiberRef.unsafeMake(false)
    /**
     * Take the inner lock and mark the fiber as holding (its forks inherit the mark) for `self`.
     * Entered only when the fiber does not hold already, so the mark is cleared (not restored)
     * after: one acquire/release instead of a second one nested for `Effect.locally`.
     */
    const region = <A, E, R>(self: Effect.Effect<A, E, R>, started: number) =>
      Effect.acquireUseRelease(
        Effect.zipLeft(inner.acquire(started), FiberRef.set(held, true)),
        () => self,
        (h) => Effect.zipRight(FiberRef.set(held, false), inner.release(h))
      )
    /** The semaphore was taken by someone else: wait for it, at most what is left of `waitMs`. */
    const waitThenRun = <A, E, R>(self: Effect.Effect<A, E, R>, started: number) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(
          restore(
            Effect.flatMap(Clock.currentTimeMillis, (now) =>
              mutex.take(1).pipe(
                Effect.timeoutFail({
                  duration: Duration.millis(Math.max(0, waitMs - (now - started))),
                  onTimeout: () => new LockTimeout({ waitedMs: waitMs })
                })
              ))
          ),
          () => Effect.ensuring(restore(region(self, started)), mutex.release(1))
        )
      )
    const withLock: LockShape["withLock"] = (self) =>
      Effect.flatMap(FiberRef.get(held), (already) =>
        already
          ? self
          : Effect.flatMap(Clock.currentTimeMillis, (started) =>
            Effect.flatMap(
              mutex.withPermitsIfAvailable(1)(region(self, started)),
              Option.match({ onNone: () => waitThenRun(self, started), onSome: Effect.succeed })
            )))
    return { withLock, exclusive: mutex.withPermits(1) }
  })
