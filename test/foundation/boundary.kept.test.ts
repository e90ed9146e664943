/**
 * A store used again after the directories it walked were moved: the swap race of
 * ./boundary.interleave.test.ts on a store that has already walked `a` and `a/d` (right before
 * the k-th file-system call of a second operation, `a` is exchanged with a symlink to an outside
 * copy of it), and `a` moved out of the work folder between two operations, its name left to a
 * symlink to it, to nothing or to another directory. Every operation succeeds inside the folder
 * or refuses with a typed error, and nothing outside changes. A boundary that kept the walked
 * directories' descriptors without checking that their names still reach them fails 37 of these
 * tests (tried on a variant that kept them: see docs/performance.md, "Journal append").
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as path from "node:path"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { put, snapshot } from "../support/cli.js"
import {
  type FsName,
  real,
  type Store,
  swapAtEveryCall,
  swapFolder,
  type SwapOp,
  swapOps,
  unhook
} from "../support/swapRace.js"

const HOOKED: ReadonlyArray<FsName> = [
  "openSync",
  "lstatSync",
  "statSync",
  "fstatSync",
  "renameSync",
  "linkSync",
  "unlinkSync",
  "mkdirSync",
  "readdirSync",
  "rmSync"
]

afterEach(() => unhook(HOOKED))

/** The folder of the swap race, with a nested directory `a/d` for the store to walk and keep. */
const setup = () => swapFolder({ "d/g.txt": ["inside", "OUTSIDE"] })

/** Walks a and a/d, whose descriptors a caching store would then keep. */
const warm = (store: Store) => expect(Effect.runSync(store.readText("a/d/g.txt"))).toBe("inside")

const operations: Record<string, SwapOp> = {
  ...swapOps,
  readNested: (s) => Effect.map(s.readText("a/d/g.txt"), (t) => (t === "inside" ? null : `read ${t}`)),
  writeAtomicNested: (s) => Effect.as(s.writeAtomic("a/d/new.json", "{}"), null)
}

describe("FileStoreLive, a directory it already walked and keeps open", () => {
  for (const [name, op] of Object.entries(operations)) {
    it(`${name}: inside or a typed refusal, at every call`, () =>
      swapAtEveryCall(name, op, { hooked: HOOKED, setup, warm }))
  }

  // The directory the store keeps moved out of the work folder between two operations (and its
  // name left to a symlink to it, to nothing, or to another directory): a kept descriptor used
  // without checking its name would read and write outside.
  const moves: Record<string, (dir: string, moved: string) => void> = {
    "a symlink to it": (dir, moved) => real.symlinkSync(moved, path.join(dir, "a")),
    nothing: () => {},
    "another directory": (dir) => put(dir, "a/f.txt", "inside")
  }
  for (const [left, leave] of Object.entries(moves)) {
    for (const [name, op] of Object.entries(operations)) {
      it(`${name}, the kept directory moved out and its name left to ${left}: inside or a typed refusal`, () => {
        const { dir, outside } = setup()
        const store = makeFileStoreLive(dir)
        warm(store)
        const moved = path.join(outside, "moved")
        real.renameSync(path.join(dir, "a"), moved)
        real.writeFileSync(path.join(moved, "f.txt"), "OUTSIDE")
        real.writeFileSync(path.join(moved, "d", "g.txt"), "OUTSIDE")
        real.writeFileSync(path.join(moved, "only-outside"), "x")
        leave(dir, moved)
        const before = snapshot(outside)
        const exit = Effect.runSyncExit(op(store))
        store.close()
        if (Exit.isSuccess(exit)) expect(exit.value, name).toBeNull()
        else expect(exit.cause._tag, `${name}: ${String(exit.cause)}`).toBe("Fail")
        expect(snapshot(outside), name).toEqual(before)
      })
    }
  }

  it("a kept directory replaced by another is not used", () => {
    const { dir } = setup()
    const store = makeFileStoreLive(dir)
    expect(Effect.runSync(store.readText("a/f.txt"))).toBe("inside")
    real.renameSync(path.join(dir, "a"), path.join(dir, "old"))
    put(dir, "a/f.txt", "new")
    expect(Effect.runSync(store.readText("a/f.txt"))).toBe("new")
    real.rmSync(path.join(dir, "a"), { recursive: true })
    expect(Exit.isFailure(Effect.runSyncExit(store.readText("a/f.txt")))).toBe(true)
    store.close()
  })
})
