/**
 * The walk of a work root after a run (`WorkTree.scanUpTo`, and `scan`) with a directory of it
 * swapped for a symlink to a host directory while it walks — what a second run of the same grant,
 * or a child grant's run inside its root, still going, can do. Made deterministic the way
 * test/foundation/boundary.interleave.test.ts does it: node:fs calls are intercepted and, right
 * before the k-th one (k = 1, 2, … until the walk makes fewer calls), `w/a` is exchanged with `w/b`,
 * a symlink to an outside copy. The walk must never list or charge what is outside: no entry may
 * be an outside file (device and inode) or carry an outside-only name.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as path from "node:path"
import type { TreeEntry } from "../../src/domain/Execution.js"
import { WorkTreeLive } from "../../src/layers/WorkTreeLive.js"
import { Workdir } from "../../src/services/Workdir.js"
import { WorkTree, type WorkTreeShape } from "../../src/services/WorkTree.js"
import { put, tempWorkdir } from "../support/cli.js"
import { type FsName, real, unhook, withSwapAt } from "../support/swapRace.js"

const HOOKED: ReadonlyArray<FsName> = ["openSync", "lstatSync", "statSync", "fstatSync", "readdirSync", "closeSync"]

afterEach(() => unhook(HOOKED))

/** A work folder with work root `w`: `w/a` (inside files, a subdirectory) and `w/b`, a link to an outside copy. */
const setup = () => {
  const dir = tempWorkdir("dossier-walk-swap-")
  put(dir, "w/a/f.txt", "inside")
  put(dir, "w/a/sub/g.txt", "inside too")
  put(dir, "w/z.txt", "z")
  const outside = tempWorkdir("dossier-walk-outside-")
  put(outside, "f.txt", "OUTSIDE, longer")
  put(outside, "sub/g.txt", "OUTSIDE, longer too")
  put(outside, "only-outside/deep.bin", "x".repeat(4096))
  real.symlinkSync(outside, path.join(dir, "w/b"))
  const ids = new Set<string>()
  const collect = (p: string) => {
    const st = real.lstatSync(p, { bigint: true })
    ids.add(`${st.dev}:${st.ino}`)
    if (st.isDirectory()) { for (const n of real.readdirSync(p)) collect(path.join(p, n)) }
  }
  collect(outside)
  const a = path.join(dir, "w/a")
  const b = path.join(dir, "w/b")
  const tmp = path.join(dir, "w/a.swap")
  const swap = () => {
    real.renameSync(a, tmp)
    real.renameSync(b, a)
    real.renameSync(tmp, b)
  }
  const tree = Effect.runSync(Effect.provide(WorkTree, WorkTreeLive.pipe(Layer.provide(Workdir.fixed(dir)))))
  return { tree, swap, outsideIds: ids }
}

/** What of `entries` came from outside the work folder: empty when nothing. */
const fromOutside = (entries: ReadonlyArray<TreeEntry>, outsideIds: ReadonlySet<string>) =>
  entries
    .filter((e) => outsideIds.has(`${e.device}:${e.inode}`) || e.path.includes("only-outside"))
    .map((e) => `${e.path} (${e.kind}, ${e.size} bytes)`)

const walks: Record<string, (t: WorkTreeShape) => Effect.Effect<ReadonlyArray<TreeEntry>, unknown>> = {
  scanUpTo: (t) => Effect.map(t.scanUpTo("w", 1000), (r) => r.entries),
  scan: (t) => t.scan("w", 1000)
}

describe("the walk of a work root with a directory swapped for a link to a host directory", () => {
  for (const [name, walk] of Object.entries(walks)) {
    it(`${name}: never lists or charges an outside entry, whichever call the swap precedes`, () => {
      let k = 1
      for (; k < 200; k++) {
        const { outsideIds, swap, tree } = setup()
        const { fired, value: exit } = withSwapAt(HOOKED, k, swap, () => Effect.runSyncExit(walk(tree)))
        if (Exit.isSuccess(exit)) {
          expect(fromOutside(exit.value, outsideIds), `${name}, swap before call ${k}`).toEqual([])
        } else {
          // A strict scan may refuse what changed under it, but only with a typed error.
          expect(exit.cause._tag, `${name}, swap before call ${k}: ${String(exit.cause)}`).toBe("Fail")
        }
        if (!fired) break
      }
      expect(k).toBeGreaterThan(5)
    })
  }
})
