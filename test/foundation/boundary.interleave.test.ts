/**
 * The swap race of issue 13 (item 1), made deterministic: the file-system calls FileStoreLive makes
 * are intercepted, and right before the k-th one (k = 1, 2, … until the operation makes fewer
 * calls) a directory of the path is exchanged with a symlink to an outside copy of it — the worst
 * moment a concurrent swapper could pick, between any check and any use. Every operation must then
 * succeed inside the folder or refuse with a typed error; nothing outside may change and nothing
 * read may come from outside. (test/cli/boundary.race.test.ts runs a real concurrent swapper.)
 */
import { afterEach, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type FsName, swapAtEveryCall, swapFolder, type SwapOp, swapOps, unhook } from "../support/swapRace.js"

const HOOKED: ReadonlyArray<FsName> = [
  "openSync",
  "lstatSync",
  "statSync",
  "renameSync",
  "linkSync",
  "unlinkSync",
  "mkdirSync",
  "readdirSync",
  "rmSync"
]

afterEach(() => unhook(HOOKED))

/** Each operation answers null, or what it saw that can only have come from outside. */
const operations: Record<string, SwapOp> = {
  ...swapOps,
  listNames: (s) => Effect.map(s.listNames!("a"), (ns) => (ns.includes("only-outside") ? "listed outside" : null)),
  writeAtomicOver: (s) => Effect.as(s.writeAtomic("a/f.txt", "inside"), null),
  writeRetainedExisting: (s) => Effect.as(s.writeRetained("a/kept", "kept"), null),
  appendNew: (s) => Effect.as(s.append("a/new.log", "x\n"), null),
  truncate: (s) => Effect.as(s.truncate("a/log", 0), null)
}

describe("FileStoreLive with a directory swapped for a symlink before any one of its calls", () => {
  for (const [name, op] of Object.entries(operations)) {
    it(`${name}: inside or a typed refusal, at every call`, () =>
      swapAtEveryCall(name, op, { hooked: HOOKED, setup: () => swapFolder() }))
  }
})
