/**
 * The FileStore conformance suite: random sequences of store operations, among them hostile
 * entries made behind the store's back (symlinks, hard links, FIFOs, in-place edits), run on
 * the store under test and on the in-memory reference store in lockstep; every result (value,
 * or error tag and reason) must be the same. FileStoreLive and FileStoreMemory pass it
 * (test/foundation/FileStore.property.test.ts); a custom store should too:
 *
 *   it.effect.prop("my store conforms", { ops: FileStoreConformance.operations },
 *     ({ ops }) => FileStoreConformance.check(() => ({ store: myStore() }), ops))
 *
 * Hostile entries a backend cannot hold are skipped when the hook that makes them is omitted.
 * Optional fast paths (`readMany`, `readManyWith`, `readThenAppend`, `listNames`,
 * `writeRetainedMany`) are checked when the store has them, and their fallbacks otherwise.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { isDeepStrictEqual } from "node:util"
import { listNamesOf, readManyWithOf, readThenAppendOf, writeRetainedManyOf } from "../layers/FileStoreFallbacks.js"
import { makeMemoryFs } from "../layers/FileStoreMemory.js"
import type { FileStoreShape, ReadManyEntry } from "../services/FileStore.js"

/** A store to check, with hooks that change its tree behind its back (each optional). */
export interface StoreUnderTest {
  readonly store: FileStoreShape
  /** Make a symlink at `path` (to anything). */
  readonly symlink?: (path: string) => void
  /** Make `path` a second name of the regular file `existing`. */
  readonly hardlink?: (existing: string, path: string) => void
  /** Make a FIFO (or any non-regular, non-directory entry) at `path`. */
  readonly fifo?: (path: string) => void
  /** Overwrite the regular file at `path` in place (hard links keep sharing it), as an editor would. */
  readonly edit?: (path: string, data: string) => void
  /** Called after the sequence (remove a temporary folder). */
  readonly dispose?: () => void
}

const PATHS = ["a", "b", "d/a", "d/b", "d/e/c", "research/sources/s.md", "../escape", "/abs", "d/../a"] as const
const DIRS = ["d", "d/e", "research", "research/sources", "x"] as const
const DATA = ["", "one", "two\n", "three three three"] as const

export type Operation =
  | { readonly op: "writeAtomic"; readonly p: string; readonly d: string }
  | { readonly op: "writeRetained"; readonly p: string; readonly d: string }
  | {
    readonly op: "writeRetainedMany"
    readonly files: ReadonlyArray<{ readonly path: string; readonly data: string }>
  }
  | { readonly op: "append"; readonly p: string; readonly d: string }
  | { readonly op: "read"; readonly p: string; readonly max: number; readonly single: boolean }
  | { readonly op: "hash"; readonly p: string }
  | { readonly op: "readMany"; readonly ps: ReadonlyArray<string>; readonly single: boolean }
  | { readonly op: "readManyWith"; readonly ps: ReadonlyArray<string>; readonly single: boolean }
  | { readonly op: "stat"; readonly p: string }
  | { readonly op: "remove"; readonly p: string }
  | { readonly op: "truncate"; readonly p: string; readonly size: number }
  | { readonly op: "list"; readonly p: string }
  | { readonly op: "listNames"; readonly p: string }
  | { readonly op: "ensureDir"; readonly p: string }
  | { readonly op: "symlink"; readonly p: string }
  | { readonly op: "hardlink"; readonly from: string; readonly p: string }
  | { readonly op: "fifo"; readonly p: string }
  | { readonly op: "edit"; readonly p: string; readonly d: string }
  | {
    readonly op: "readThenAppend"
    readonly p: string
    readonly d: string
    readonly max: number
    readonly refuse: boolean
  }

const p = fc.constantFrom(...PATHS)
const d = fc.constantFrom(...DATA)
const dir = fc.constantFrom(...DIRS)

/** One operation (hostile setup steps included). */
export const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant("writeAtomic" as const), p, d }),
  fc.record({ op: fc.constant("writeRetained" as const), p, d }),
  fc.record({
    op: fc.constant("writeRetainedMany" as const),
    files: fc.array(fc.record({ path: p, data: d }), { minLength: 1, maxLength: 3 })
  }),
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
  {
    arbitrary: fc.record({
      op: fc.constant("hardlink" as const),
      from: fc.constantFrom("a", "d/a"),
      p: fc.constantFrom("b", "d/b")
    }),
    weight: 4
  },
  fc.record({ op: fc.constant("fifo" as const), p }),
  fc.record({ op: fc.constant("edit" as const), p, d }),
  {
    arbitrary: fc.record({
      op: fc.constant("readThenAppend" as const),
      p,
      d,
      max: fc.constantFrom(2, 100),
      refuse: fc.boolean()
    }),
    weight: 3
  }
)

/** Sequences of 5 to 40 operations: what `check` takes. */
export const operations: fc.Arbitrary<ReadonlyArray<Operation>> = fc.array(operation, { minLength: 5, maxLength: 40 })

/** The first step where the store under test and the reference disagreed. */
export class ConformanceMismatch extends Data.TaggedError("ConformanceMismatch")<{
  readonly step: number
  readonly operation: Operation
  readonly expected: unknown
  readonly actual: unknown
}> {
  override get message() {
    return `step ${this.step} (${JSON.stringify(this.operation)}): expected ${JSON.stringify(this.expected)}, got ${
      JSON.stringify(this.actual)
    }`
  }
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

/** A result as plain data: the value (bytes as hex), or the error's tag and reason. */
const outcome = <A>(e: Effect.Effect<A, { readonly _tag: string; readonly reason?: unknown }>) =>
  Effect.map(Effect.either(e), (r): unknown =>
    Either.isLeft(r)
      ? { error: r.left._tag, ...(r.left.reason === undefined ? {} : { reason: r.left.reason }) }
      : { ok: r.right instanceof Uint8Array ? hex(r.right) : r.right })

const errorOf = (
  e: ReadManyEntry["error"]
) => (e === null ? null : { tag: e._tag, reason: "reason" in e ? e.reason : undefined })

const readManyOf = (store: FileStoreShape): NonNullable<FileStoreShape["readMany"]> => (paths, options) =>
  Effect.forEach(paths, (path) =>
    Effect.match(store.read(path, options), {
      onFailure: (error): ReadManyEntry => ({ path, bytes: null, error }),
      onSuccess: (bytes): ReadManyEntry => ({ path, bytes, error: null })
    }))

const run = (store: FileStoreShape, op: Operation): Effect.Effect<unknown> => {
  switch (op.op) {
    case "writeAtomic":
      return outcome(store.writeAtomic(op.p, op.d))
    case "writeRetained":
      return outcome(store.writeRetained(op.p, op.d))
    case "writeRetainedMany":
      return outcome((store.writeRetainedMany ?? writeRetainedManyOf(store))(op.files))
    case "append":
      return outcome(store.append(op.p, op.d))
    case "read":
      return outcome(store.read(op.p, { maxBytes: op.max, requireSingleLink: op.single }))
    case "hash":
      return outcome(store.hash(op.p))
    case "readMany":
      return outcome(
        Effect.map(
          (store.readMany ?? readManyOf(store))(op.ps, { requireSingleLink: op.single }),
          (entries) =>
            entries.map((e) => ({
              path: e.path,
              bytes: e.bytes === null ? null : hex(e.bytes),
              error: errorOf(e.error)
            }))
        )
      )
    case "readManyWith":
      // `use` sees each file's bytes while they are valid; only its result is kept.
      return outcome(
        Effect.map(
          (store.readManyWith ?? readManyWithOf(store))(op.ps, hex, { requireSingleLink: op.single }),
          (entries) => entries.map((e) => ({ path: e.path, bytes: e.value, error: errorOf(e.error) }))
        )
      )
    case "stat":
      return outcome(
        Effect.map(store.stat(op.p), (s) =>
          Option.match(s, {
            onNone: () => null,
            onSome: (x) => ({
              kind: x.kind,
              size: x.kind === "file" ? x.size : 0,
              nlink: x.kind === "file" ? x.nlink : 1
            })
          }))
      )
    case "remove":
      return outcome(store.remove(op.p))
    case "truncate":
      return outcome(store.truncate(op.p, op.size))
    case "list":
      return outcome(store.list(op.p))
    case "listNames":
      return outcome((store.listNames ?? listNamesOf(store))(op.p))
    case "ensureDir":
      return outcome(store.ensureDir(op.p))
    case "readThenAppend":
      // What `decide` saw is the result; a refusal must leave the file as it was.
      return outcome(
        (store.readThenAppend ?? readThenAppendOf(store))(op.p, { maxBytes: op.max }, (bytes) => {
          const seen = hex(bytes)
          return op.refuse
            ? Either.left({ _tag: "Refused", reason: seen })
            : Either.right({ append: op.d === "" ? null : op.d, value: seen })
        })
      )
    default:
      return Effect.succeed({ setup: true })
  }
}

const plainPath = (rel: string) => !rel.startsWith("/") && !rel.split("/").includes("..")

type Reference = ReturnType<typeof makeMemoryFs>

/**
 * Apply a hostile setup step to both trees, only where the store under test has the hook and
 * where it is possible in the reference (parent directory there, slot free, file to edit).
 */
const setup = (subject: StoreUnderTest, reference: Reference, op: Operation) => {
  if (op.op !== "symlink" && op.op !== "hardlink" && op.op !== "fifo" && op.op !== "edit") return
  if (!plainPath(op.p)) return
  const parent = op.p.includes("/") ? op.p.slice(0, op.p.lastIndexOf("/")) : ""
  if (parent !== "" && reference.kindAt(parent) !== "directory") return
  if (op.op === "edit") {
    if (subject.edit === undefined || reference.kindAt(op.p) !== "file") return
    subject.edit(op.p, op.d)
    reference.writeRaw(op.p, op.d)
    return
  }
  if (reference.kindAt(op.p) !== undefined) return
  if (op.op === "symlink" && subject.symlink !== undefined) {
    subject.symlink(op.p)
    reference.symlink(op.p)
  } else if (op.op === "fifo" && subject.fifo !== undefined) {
    subject.fifo(op.p)
    reference.fifo(op.p)
  } else if (op.op === "hardlink" && subject.hardlink !== undefined) {
    if (!plainPath(op.from) || reference.kindAt(op.from) !== "file") return
    subject.hardlink(op.from, op.p)
    reference.hardlink(op.from, op.p)
  }
}

/** JSON-like data compared structurally (an absent key and an `undefined` one are the same). */
const plain = (u: unknown): unknown => (u === undefined ? null : JSON.parse(JSON.stringify(u)))

/**
 * Run `ops` on a fresh store from `make` and on a fresh reference store; fail with the first
 * step whose results differ.
 */
export const check = (
  make: () => StoreUnderTest,
  ops: ReadonlyArray<Operation>
): Effect.Effect<void, ConformanceMismatch> =>
  Effect.acquireUseRelease(
    Effect.sync(() => ({ subject: make(), reference: makeMemoryFs() })),
    ({ reference, subject }) =>
      Effect.forEach(ops, (op, step) =>
        Effect.gen(function*() {
          setup(subject, reference, op)
          const actual = plain(yield* run(subject.store, op))
          const expected = plain(yield* run(reference.store, op))
          if (!isDeepStrictEqual(actual, expected)) {
            return yield* new ConformanceMismatch({ step, operation: op, expected, actual })
          }
        }), { discard: true }),
    ({ subject }) => Effect.sync(() => subject.dispose?.())
  )
