/**
 * A plain folder's command racing a bind (docs/store.md, "A command racing a bind"). The command
 * line decides once, at start, whether a folder is bound (src/cli/main.ts); a writing command that
 * found it plain, then waited for the folder's lock while `init --store` held it and bound the
 * folder (importing its state into the shared dossier), would write the folder's files only, and
 * its write would never reach the store. Armed by the command line for such a command, the
 * folder's lock (LockLive) reads the binding again once it holds the lock, before the command's
 * first locked region: found bound, the lock is let go at once and the region never runs (a
 * `BoundMeanwhile` defect, which the command line answers as `StoreUnavailable`, retryable: the
 * same command run again runs over the shared dossier). The state is kept on `globalThis`, so
 * that the command line's bundle and a group's bundle share it.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { LockShape } from "../services/Lock.js"

interface GuardState {
  armed: boolean
  /** Locked regions this process has entered (after the first one, its writes may be in the folder). */
  regions: number
}

const KEY = Symbol.for("dossier/plainFolderGuard")

const state = (): GuardState => {
  const g = globalThis as { [KEY]?: GuardState }
  return (g[KEY] ??= { armed: false, regions: 0 })
}

/** The command line arms the guard for a command that runs over the store once a folder is bound. */
export const armPlainFolderGuard = (): void => {
  state().armed = true
}

/** The defect a region that must not run dies with (never seen by a user: the command line answers it). */
export const BOUND_MEANWHILE = "dossier/BoundMeanwhile"

export const isBoundMeanwhile = (u: unknown): boolean =>
  typeof u === "object" && u !== null && (u as { readonly _tag?: unknown })._tag === BOUND_MEANWHILE

/**
 * Whether the region just taken in the folder `root` must not run: the guard armed, no region
 * entered before (nothing of the command is in the folder yet), and the folder bound now.
 */
export const boundMeanwhile = (root: string): boolean => {
  const s = state()
  if (!s.armed) return false
  const first = s.regions === 0
  s.regions++
  if (!first) return false
  try {
    fs.lstatSync(path.join(root, ".dossier", "store.json"))
    return true
  } catch {
    return false
  }
}

/**
 * A lock's `acquire` (src/layers/LockLive.ts) followed by the guard: a folder `root` bound
 * meanwhile lets the lock just taken go at once and dies with `BOUND_MEANWHILE`.
 */
export const guardedAcquire = <A, E>(
  root: string,
  acquire: (started: number) => Effect.Effect<A, E>,
  release: (held: A) => Effect.Effect<void>
) =>
(started: number): Effect.Effect<A, E> =>
  Effect.flatMap(
    acquire(started),
    (held) =>
      boundMeanwhile(root)
        ? Effect.zipRight(release(held), Effect.die({ _tag: BOUND_MEANWHILE }))
        : Effect.succeed(held)
  )

/** Whether the folder `root` holds a binding now (anything at `.dossier/store.json`). */
const boundNow = (root: string): boolean => {
  try {
    fs.lstatSync(path.join(root, ".dossier", "store.json"))
    return true
  } catch {
    return false
  }
}

/**
 * The lock of a plain folder's MCP server (src/mcp/Server.ts), which serves many calls from one
 * start: every region, once it holds the lock, reads the binding again, and a folder bound since
 * the server started (`init --store` from another shell, which holds the same lock for its whole
 * bind) never gets the region's writes in its files alone: the region dies with
 * `BOUND_MEANWHILE` before it runs, which the server answers as `StoreUnavailable` (retryable:
 * the same call again runs over the shared dossier, the server having switched to it). A region
 * taken inside another finds what the outer one found (a bind waits for the lock). A read that
 * runs without the lock (`withReadLock` finding no lock file) writes nothing and is not stopped.
 */
export const guardEveryRegion = <L extends LockShape>(lock: L, root: string): L => ({
  ...lock,
  withLock: (self, hint) =>
    lock.withLock(
      Effect.suspend(() => (boundNow(root) ? Effect.die({ _tag: BOUND_MEANWHILE }) : self)),
      hint
    ),
  withReadLock: (self) =>
    lock.withReadLock((held) => (held && boundNow(root) ? Effect.die({ _tag: BOUND_MEANWHILE }) : self(held)))
})
