/**
 * What the store's tests see on the wire, and another host holding a dossier's lock: shared by
 * the journal append's tests (pg.journal.append.test.ts, pg.journal.command.test.ts).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import * as net from "node:net"
import * as Pg from "pg"
import { PgLock } from "../../../src/layers/postgres/PgLock.js"

/**
 * Another host takes the dossier's lock and holds it until `release` (which awaits its end): a
 * wait for it ends only by the waiter's own bound (its lock_timeout or deadline), however slow
 * a loaded machine is, and never because the holder happened to let go first.
 */
export const holdLock = async (
  rt: ManagedRuntime.ManagedRuntime<PgLock, unknown>
): Promise<{ readonly release: () => Promise<void> }> => {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let acquired!: () => void
  const held = new Promise<void>((resolve) => (acquired = resolve))
  const done = rt.runPromise(
    Effect.flatMap(
      PgLock,
      (lock) => lock.withLock(Effect.zipRight(Effect.sync(() => acquired()), Effect.promise(() => released)))
    )
  )
  await Promise.race([held, done])
  return {
    release: async () => {
      release()
      await done
    }
  }
}

/** The reason of a `StoreUnavailable` answer. */
export const reasonOf = (
  e: Either.Either<unknown, unknown>
) => (Either.isLeft(e) ? (e.left as { reason?: string }).reason : "")

export const tagOf = (
  e: Either.Either<unknown, unknown>
) => (Either.isLeft(e) ? (e.left as { _tag: string })._tag : "Right")

/**
 * What the driver sends and answers, in order, by each statement's first word (`> BEGIN`,
 * `< BEGIN`), for the clients of every pool of this process until `restore`.
 */
export const traceQueries = (): { readonly trace: Array<string>; readonly restore: () => void } => {
  const trace: Array<string> = []
  const proto = (Pg as unknown as { Client: { prototype: { query: (...args: Array<unknown>) => unknown } } }).Client
    .prototype
  const query = proto.query
  proto.query = function(this: unknown, ...args: Array<unknown>) {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string } | undefined)?.text ?? ""
    const word = text.trimStart().split(/[\s;(]/)[0]!.toUpperCase()
    trace.push(`> ${word}`)
    const last = args.length - 1
    const callback = args[last]
    if (typeof callback === "function") {
      args[last] = (...r: Array<unknown>) => {
        trace.push(`< ${word}`)
        return (callback as (...r: Array<unknown>) => unknown)(...r)
      }
    }
    return query.apply(this, args)
  }
  return {
    trace,
    restore: () => {
      proto.query = query
    }
  }
}

/** How many writes the sockets of this process hand to the system until `restore` (one per call). */
export const countWrites = (): { readonly count: () => number; readonly restore: () => void } => {
  const proto = net.Socket.prototype as unknown as Record<"_write" | "_writev", (...args: Array<unknown>) => unknown>
  const write = proto._write
  const writev = proto._writev
  let n = 0
  proto._write = function(this: unknown, ...args: Array<unknown>) {
    n++
    return write.apply(this, args)
  }
  proto._writev = function(this: unknown, ...args: Array<unknown>) {
    n++
    return writev.apply(this, args)
  }
  return {
    count: () => n,
    restore: () => {
      proto._write = write
      proto._writev = writev
    }
  }
}
