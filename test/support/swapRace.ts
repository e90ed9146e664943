/**
 * The deterministic swap race of test/foundation/boundary.interleave.test.ts and
 * boundary.kept.test.ts: node:fs calls are intercepted, and right before the k-th one a directory
 * `a` of a work folder is exchanged with a symlink `b` to an outside copy of it — the worst moment
 * a concurrent swapper could pick, between any check and any use.
 */
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import { createRequire } from "node:module"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { put, snapshot, tempWorkdir } from "./cli.js"

const require_ = createRequire(import.meta.url)
const nodeFs = require_("node:fs") as typeof import("node:fs")
const { syncBuiltinESMExports } = require_("node:module") as { syncBuiltinESMExports: () => void }

/** node:fs as it was before any hook (for the test's own moves). */
export const real = { ...nodeFs }

export type FsName = keyof typeof nodeFs

/** Put every intercepted call back (also after a test that failed with a hook in place). */
export const unhook = (hooked: ReadonlyArray<FsName>): void => {
  for (const name of hooked) (nodeFs as any)[name] = real[name]
  syncBuiltinESMExports()
}

/** Run `f` with a hook that calls `before()` right before the k-th call of `hooked`; answers whether it fired. */
export const withSwapAt = <A>(
  hooked: ReadonlyArray<FsName>,
  k: number,
  before: () => void,
  f: () => A
): { value: A; fired: boolean } => {
  let calls = 0
  let fired = false
  for (const name of hooked) {
    ;(nodeFs as any)[name] = (...args: Array<unknown>) => {
      if (++calls === k && !fired) {
        fired = true
        before()
      }
      return (real as any)[name](...args)
    }
  }
  syncBuiltinESMExports()
  try {
    return { value: f(), fired }
  } finally {
    unhook(hooked)
  }
}

/**
 * A work folder with directory `a` (f.txt, log, kept, and `extra`'s files) and `b`, a symlink to
 * an outside copy of it with other bytes (and `only-outside`); `swap` exchanges `a` and `b`.
 * `extra` maps a path below `a` to its inside and outside contents.
 */
export const swapFolder = (extra: Readonly<Record<string, readonly [inside: string, outside: string]>> = {}) => {
  const dir = tempWorkdir()
  put(dir, "a/f.txt", "inside")
  put(dir, "a/log", "one\n")
  put(dir, "a/kept", "kept")
  const outside = tempWorkdir("dossier-outside-")
  put(outside, "f.txt", "OUTSIDE")
  put(outside, "log", "OUTSIDE\n")
  put(outside, "kept", "kept")
  for (const [rel, [inside, out]] of Object.entries(extra)) {
    put(dir, `a/${rel}`, inside)
    put(outside, rel, out)
  }
  put(outside, "only-outside", "x")
  real.symlinkSync(outside, path.join(dir, "b"))
  const a = path.join(dir, "a")
  const b = path.join(dir, "b")
  const tmp = path.join(dir, "a.swap")
  let swapped = false
  const swap = () => {
    real.renameSync(a, tmp)
    real.renameSync(b, a)
    real.renameSync(tmp, b)
    swapped = !swapped
  }
  return { dir, outside, swap, restore: () => swapped && swap() }
}

export type Store = ReturnType<typeof makeFileStoreLive>

/** An operation: null, or what it saw that can only have come from outside. */
export type SwapOp = (store: Store) => Effect.Effect<string | null, unknown>

/**
 * Swap before the k-th call of `op`, for k = 1, 2, … until it makes fewer calls: each time it
 * must succeed inside the folder (answer null) or refuse with a typed error, and the outside copy
 * must be unchanged. `warm` runs on the fresh store first, unhooked.
 */
export const swapAtEveryCall = (
  name: string,
  op: SwapOp,
  options: {
    readonly hooked: ReadonlyArray<FsName>
    readonly setup: () => ReturnType<typeof swapFolder>
    readonly warm?: (store: Store) => void
  }
): void => {
  for (let k = 1; k < 40; k++) {
    const { dir, outside, swap, restore } = options.setup()
    const before = snapshot(outside)
    const store = makeFileStoreLive(dir)
    options.warm?.(store)
    const { value: exit, fired } = withSwapAt(options.hooked, k, swap, () => Effect.runSyncExit(op(store)))
    restore()
    store.close()
    if (Exit.isSuccess(exit)) expect(exit.value, `${name}, swap before call ${k}`).toBeNull()
    else expect(exit.cause._tag, `${name}, swap before call ${k}: ${String(exit.cause)}`).toBe("Fail")
    expect(snapshot(outside), `${name}, swap before call ${k}`).toEqual(before)
    if (!fired) break
  }
}

/** The operations both swap tests run, each under `a` (each test adds its own). */
export const swapOps: Readonly<Record<string, SwapOp>> = {
  read: (s) => Effect.map(s.readText("a/f.txt"), (t) => (t === "inside" ? null : `read ${t}`)),
  hash: (s) => Effect.map(s.hash("a/f.txt"), (d) => (d.bytes === 6 ? null : "hashed the outside file")),
  stat: (s) => Effect.map(s.stat("a/only-outside"), (st) => (st._tag === "None" ? null : "saw an outside entry")),
  list: (s) => Effect.map(s.list("a"), (es) => (es.some((e) => e.name === "only-outside") ? "listed outside" : null)),
  readMany: (s) =>
    Effect.map(
      s.readMany!(["a/f.txt"]),
      ([e]) => (e!.bytes === null || Buffer.from(e!.bytes).toString() === "inside" ? null : "read outside")
    ),
  writeAtomic: (s) => Effect.as(s.writeAtomic("a/new.json", "{}"), null),
  writeRetained: (s) => Effect.as(s.writeRetained("a/retained", "r"), null),
  append: (s) => Effect.as(s.append("a/log", "two\n"), null),
  readThenAppend: (s) =>
    s.readThenAppend!(
      "a/log",
      {},
      (bytes) =>
        Either.right({
          append: "two\n",
          value: Buffer.from(bytes).toString().includes("OUTSIDE") ? "read outside" : null
        })
    ),
  remove: (s) => Effect.as(s.remove("a/kept"), null),
  ensureDir: (s) => Effect.as(s.ensureDir("a/d/e"), null)
}
