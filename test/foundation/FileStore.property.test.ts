/**
 * The Live and in-memory FileStore layers must agree: the same random operation sequences
 * (including hostile entries: symlinks, hard links, FIFOs) give identical results on both.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { listNamesOf } from "../../src/layers/FileStoreFallbacks.js"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import type { FileStoreShape } from "../../src/services/FileStore.js"

const PATHS = ["a", "b", "d/a", "d/b", "d/e/c", "research/sources/s.md", "../escape", "/abs", "d/../a"] as const
const DIRS = ["d", "d/e", "research", "research/sources", "x"] as const
const DATA = ["", "one", "two\n", "three three three"] as const

type Op =
  | { op: "writeAtomic"; p: string; d: string }
  | { op: "writeRetained"; p: string; d: string }
  | { op: "append"; p: string; d: string }
  | { op: "read"; p: string; max: number; single: boolean }
  | { op: "hash"; p: string }
  | { op: "readMany"; ps: Array<string>; single: boolean }
  | { op: "readManyWith"; ps: Array<string>; single: boolean }
  | { op: "stat"; p: string }
  | { op: "remove"; p: string }
  | { op: "truncate"; p: string; size: number }
  | { op: "list"; p: string }
  | { op: "listNames"; p: string }
  | { op: "ensureDir"; p: string }
  | { op: "symlink"; p: string }
  | { op: "hardlink"; from: string; p: string }
  | { op: "fifo"; p: string }
  | { op: "edit"; p: string; d: string }
  | { op: "readThenAppend"; p: string; d: string; max: number; refuse: boolean }

const p = fc.constantFrom(...PATHS)
const d = fc.constantFrom(...DATA)
const dir = fc.constantFrom(...DIRS)
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("writeAtomic" as const), p, d }),
  fc.record({ op: fc.constant("writeRetained" as const), p, d }),
  fc.record({ op: fc.constant("append" as const), p, d }),
  fc.record({ op: fc.constant("read" as const), p, max: fc.constantFrom(2, 100), single: fc.boolean() }),
  fc.record({ op: fc.constant("hash" as const), p }),
  fc.record({ op: fc.constant("readMany" as const), ps: fc.array(p, { maxLength: 4 }), single: fc.boolean() }),
  fc.record({ op: fc.constant("readManyWith" as const), ps: fc.array(p, { maxLength: 4 }), single: fc.boolean() }),
  fc.record({ op: fc.constant("stat" as const), p }),
  fc.record({ op: fc.constant("remove" as const), p }),
  fc.record({ op: fc.constant("truncate" as const), p, size: fc.constantFrom(0, 2) }),
  fc.record({ op: fc.constant("list" as const), p: dir }),
  fc.record({ op: fc.constant("listNames" as const), p: dir }),
  fc.record({ op: fc.constant("ensureDir" as const), p: dir }),
  fc.record({ op: fc.constant("symlink" as const), p }),
  { arbitrary: fc.record({ op: fc.constant("hardlink" as const), from: fc.constantFrom("a", "d/a"), p: fc.constantFrom("b", "d/b") }), weight: 4 },
  fc.record({ op: fc.constant("fifo" as const), p }),
  fc.record({ op: fc.constant("edit" as const), p, d }),
  { arbitrary: fc.record({ op: fc.constant("readThenAppend" as const), p, d, max: fc.constantFrom(2, 100), refuse: fc.boolean() }), weight: 3 }
)

const outcome = <A>(e: Effect.Effect<A, { _tag: string; reason?: string }>) =>
  Effect.map(Effect.either(e), (r) =>
    Either.isLeft(r)
      ? { error: r.left._tag, ...(r.left.reason === undefined ? {} : { reason: r.left.reason }) }
      : { ok: r.right instanceof Uint8Array ? Buffer.from(r.right).toString("hex") : r.right }
  )

const run = (store: FileStoreShape, op: Op) => {
  switch (op.op) {
    case "writeAtomic":
      return outcome(store.writeAtomic(op.p, op.d))
    case "writeRetained":
      return outcome(store.writeRetained(op.p, op.d))
    case "append":
      return outcome(store.append(op.p, op.d))
    case "read":
      return outcome(store.read(op.p, { maxBytes: op.max, requireSingleLink: op.single }))
    case "hash":
      return outcome(store.hash(op.p))
    case "readMany":
      return outcome(
        Effect.map(store.readMany!(op.ps, { requireSingleLink: op.single }), (entries) =>
          entries.map((e) => ({
            path: e.path,
            bytes: e.bytes === null ? null : Buffer.from(e.bytes).toString("hex"),
            error: e.error === null ? null : { tag: e.error._tag, reason: "reason" in e.error ? e.error.reason : undefined }
          }))
        )
      )
    case "readManyWith":
      // `use` sees each file's bytes while they are valid; only its result is kept.
      return outcome(
        Effect.map(store.readManyWith!(op.ps, (bytes) => Buffer.from(bytes).toString("hex"), { requireSingleLink: op.single }), (entries) =>
          entries.map((e) => ({
            path: e.path,
            bytes: e.value,
            error: e.error === null ? null : { tag: e.error._tag, reason: "reason" in e.error ? e.error.reason : undefined }
          }))
        )
      )
    case "stat":
      return outcome(
        Effect.map(store.stat(op.p), (s) =>
          Option.match(s, { onNone: () => null, onSome: (x) => ({ kind: x.kind, size: x.kind === "file" ? x.size : 0, nlink: x.kind === "file" ? x.nlink : 1 }) })
        )
      )
    case "remove":
      return outcome(store.remove(op.p))
    case "truncate":
      return outcome(store.truncate(op.p, op.size))
    case "list":
      return outcome(store.list(op.p))
    case "listNames":
      // The live store's own fast path against the other's names from `list`.
      return outcome((store.listNames ?? listNamesOf(store))(op.p))
    case "ensureDir":
      return outcome(store.ensureDir(op.p))
    case "readThenAppend":
      // What `decide` saw is the result; a refusal must leave the file as it was.
      return outcome(
        store.readThenAppend!(op.p, { maxBytes: op.max }, (bytes) => {
          const seen = Buffer.from(bytes).toString("hex")
          return op.refuse
            ? Either.left({ _tag: "Refused", reason: seen })
            : Either.right({ append: op.d === "" ? null : op.d, value: seen })
        })
      )
    default:
      return Effect.succeed({ setup: true })
  }
}

const plainPath = (rel: string) => !rel.startsWith("/") && !rel.split("/").includes("..") && !rel.includes("/../")

/** Hostile setup applied to both trees, only where it is possible in both (parent dir exists, slot free). */
const setup = (root: string, mem: ReturnType<typeof makeMemoryFs>, op: Op) => {
  if (op.op !== "symlink" && op.op !== "hardlink" && op.op !== "fifo" && op.op !== "edit") return
  if (!plainPath(op.p)) return
  const parent = op.p.includes("/") ? op.p.slice(0, op.p.lastIndexOf("/")) : ""
  if (parent !== "" && mem.kindAt(parent) !== "directory") return
  const abs = path.join(root, op.p)
  if (op.op === "edit") {
    // An editor writing bytes in place (keeps hard links shared).
    if (mem.kindAt(op.p) !== "file") return
    fs.writeFileSync(abs, op.d)
    mem.writeRaw(op.p, op.d)
    return
  }
  if (mem.kindAt(op.p) !== undefined) return
  if (op.op === "symlink") {
    fs.symlinkSync("/dev/null", abs)
    mem.symlink(op.p)
  } else if (op.op === "fifo") {
    execFileSync("mkfifo", [abs])
    mem.fifo(op.p)
  } else if (op.op === "hardlink") {
    if (!plainPath(op.from) || mem.kindAt(op.from) !== "file") return
    fs.linkSync(path.join(root, op.from), abs)
    mem.hardlink(op.from, op.p)
  }
}

describe("FileStore Live and Memory agree", () => {
  it.effect.prop(
    "random operation sequences give identical results",
    { ops: fc.array(opArb, { minLength: 5, maxLength: 40 }) },
    ({ ops }) =>
      Effect.gen(function*() {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-fsprop-")))
        try {
          const live = makeFileStoreLive(root)
          const mem = makeMemoryFs()
          for (const [i, op] of ops.entries()) {
            setup(root, mem, op)
            const a = yield* run(live, op)
            const b = yield* run(mem.store, op)
            expect({ step: i, op, result: a }).toEqual({ step: i, op, result: b })
          }
        } finally {
          fs.rmSync(root, { recursive: true, force: true })
        }
      }),
    { fastCheck: { numRuns: 300 } }
  )
})
