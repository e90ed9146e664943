/**
 * The swap race of issue 13 (item 1), made deterministic: the file-system calls FileStoreLive makes
 * are intercepted, and right before the k-th one (k = 1, 2, … until the operation makes fewer
 * calls) a directory of the path is exchanged with a symlink to an outside copy of it — the worst
 * moment a concurrent swapper could pick, between any check and any use. Every operation must then
 * succeed inside the folder or refuse with a typed error; nothing outside may change and nothing
 * read may come from outside. (test/cli/boundary.race.test.ts runs a real concurrent swapper.)
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import { createRequire } from "node:module"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { put, snapshot, tempWorkdir } from "../support/cli.js"

const require_ = createRequire(import.meta.url)
const nodeFs = require_("node:fs") as typeof import("node:fs")
const { syncBuiltinESMExports } = require_("node:module") as { syncBuiltinESMExports: () => void }
const real = { ...nodeFs }
const HOOKED = ["openSync", "lstatSync", "statSync", "renameSync", "linkSync", "unlinkSync", "mkdirSync", "readdirSync", "rmSync"] as const

/** Run `f` with a hook that calls `before()` right before the k-th intercepted call; answers whether it fired. */
const withSwapAt = <A>(k: number, before: () => void, f: () => A): { value: A; fired: boolean } => {
  let calls = 0
  let fired = false
  for (const name of HOOKED) {
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
    for (const name of HOOKED) (nodeFs as any)[name] = real[name]
    syncBuiltinESMExports()
  }
}

afterEach(() => {
  for (const name of HOOKED) (nodeFs as any)[name] = real[name]
  syncBuiltinESMExports()
})

/** A work folder with directory `a` (holding f.txt and log) and an outside copy of it with other bytes. */
const setup = () => {
  const dir = tempWorkdir()
  put(dir, "a/f.txt", "inside")
  put(dir, "a/log", "one\n")
  put(dir, "a/kept", "kept")
  const outside = tempWorkdir("dossier-outside-")
  put(outside, "f.txt", "OUTSIDE")
  put(outside, "log", "OUTSIDE\n")
  put(outside, "kept", "kept")
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

type Op = (store: ReturnType<typeof makeFileStoreLive>) => Effect.Effect<string | null, unknown>

/** Each operation answers null, or what it saw that can only have come from outside. */
const operations: Record<string, Op> = {
  read: (s) => Effect.map(s.readText("a/f.txt"), (t) => (t === "inside" ? null : `read ${t}`)),
  hash: (s) => Effect.map(s.hash("a/f.txt"), (d) => (d.bytes === 6 ? null : "hashed the outside file")),
  stat: (s) => Effect.map(s.stat("a/only-outside"), (st) => (st._tag === "None" ? null : "saw an outside entry")),
  list: (s) => Effect.map(s.list("a"), (es) => (es.some((e) => e.name === "only-outside") ? "listed outside" : null)),
  listNames: (s) => Effect.map(s.listNames!("a"), (ns) => (ns.includes("only-outside") ? "listed outside" : null)),
  readMany: (s) => Effect.map(s.readMany!(["a/f.txt"]), ([e]) => (e!.bytes === null || Buffer.from(e!.bytes).toString() === "inside" ? null : "read outside")),
  writeAtomic: (s) => Effect.as(s.writeAtomic("a/new.json", "{}"), null),
  writeAtomicOver: (s) => Effect.as(s.writeAtomic("a/f.txt", "inside"), null),
  writeRetained: (s) => Effect.as(s.writeRetained("a/retained", "r"), null),
  writeRetainedExisting: (s) => Effect.as(s.writeRetained("a/kept", "kept"), null),
  append: (s) => Effect.as(s.append("a/log", "two\n"), null),
  appendNew: (s) => Effect.as(s.append("a/new.log", "x\n"), null),
  readThenAppend: (s) =>
    s.readThenAppend!("a/log", {}, (bytes) =>
      Either.right({ append: "two\n", value: Buffer.from(bytes).toString().includes("OUTSIDE") ? "read outside" : null })),
  truncate: (s) => Effect.as(s.truncate("a/log", 0), null),
  remove: (s) => Effect.as(s.remove("a/kept"), null),
  ensureDir: (s) => Effect.as(s.ensureDir("a/d/e"), null)
}

describe("FileStoreLive with a directory swapped for a symlink before any one of its calls", () => {
  for (const [name, op] of Object.entries(operations)) {
    it(`${name}: inside or a typed refusal, at every call`, () => {
      for (let k = 1; k < 40; k++) {
        const { dir, outside, swap, restore } = setup()
        const before = snapshot(outside)
        const store = makeFileStoreLive(dir)
        const { value: exit, fired } = withSwapAt(k, swap, () => Effect.runSyncExit(op(store)))
        restore()
        store.close()
        if (Exit.isSuccess(exit)) expect(exit.value, `${name}, swap before call ${k}`).toBeNull()
        else expect(exit.cause._tag, `${name}, swap before call ${k}: ${String(exit.cause)}`).toBe("Fail")
        expect(snapshot(outside), `${name}, swap before call ${k}`).toEqual(before)
        if (!fired) break
      }
    })
  }
})
