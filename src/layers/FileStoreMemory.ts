/**
 * FileStore in memory, with the same semantics as FileStoreLive: the same boundary checks
 * (symlinks, hard links, non-regular files, paths leaving the folder), write-once retained files,
 * rename-like atomic replacement (a hard-linked partner keeps the old bytes). The `MemoryFs`
 * handle lets tests lay out hostile entries (symlinks, hard links, FIFOs) and edit bytes behind
 * the store's back. A property test runs random operation sequences against both layers.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { createHash } from "node:crypto"
import { EditedRetainedFile, FileNotFound, UnsafePath } from "../domain/Errors.js"
import { normalizeRelative, type ReadEntry, readRefusal } from "../domain/Paths.js"
import {
  DEFAULT_MAX_BYTES,
  type Digest,
  type EntryKind,
  FileStore,
  type FileStoreShape,
  isStagingName
} from "../services/FileStore.js"
import { readManyWithOf } from "./FileStoreFallbacks.js"

interface Inode {
  data: Uint8Array
  links: number
}
type Node =
  | { readonly kind: "file"; inode: Inode }
  | { readonly kind: "directory" }
  | { readonly kind: "symlink" }
  | { readonly kind: "other" }

/** What `stat` answers for a node, and what a read checks (`readRefusal`). */
const entryOf = (n: Node): ReadEntry => ({
  kind: n.kind,
  size: n.kind === "file" ? n.inode.data.byteLength : 0,
  nlink: n.kind === "file" ? n.inode.links : 1
})

const toBytes = (data: Uint8Array | string): Uint8Array =>
  typeof data === "string" ? new Uint8Array(Buffer.from(data, "utf8")) : new Uint8Array(data)

const digestOf = (data: Uint8Array): Digest => ({
  bytes: data.byteLength,
  sha256: createHash("sha256").update(data).digest("hex")
})

const parentOf = (rel: string) => (rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/")) : "")

/** The handle tests use to arrange and look at the in-memory tree. */
export interface MemoryFs {
  readonly store: FileStoreShape
  /** Put bytes at a path directly (parents created), bypassing the store, like an editor would. */
  readonly writeRaw: (path: string, data: Uint8Array | string) => void
  readonly readRaw: (path: string) => Uint8Array | undefined
  readonly symlink: (path: string) => void
  readonly hardlink: (existing: string, path: string) => void
  readonly fifo: (path: string) => void
  readonly mkdir: (path: string) => void
  readonly kindAt: (path: string) => EntryKind | undefined
}

export const makeMemoryFs = (): MemoryFs => {
  const nodes = new Map<string, Node>()

  const normalize = (p: string) => Either.match(normalizeRelative(p), { onLeft: Effect.fail, onRight: Effect.succeed })

  const parentsState = (rel: string): "ok" | "missing" | UnsafePath => {
    const parts = rel.split("/")
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join("/")
      const n = nodes.get(prefix)
      if (n === undefined) return "missing"
      if (n.kind === "symlink") return new UnsafePath({ path: rel, reason: "symlink" })
      if (n.kind !== "directory") return new UnsafePath({ path: rel, reason: "not-directory" })
    }
    return "ok"
  }

  const checkParents = (rel: string) => {
    const s = parentsState(rel)
    return typeof s === "string" ? Effect.succeed(s) : Effect.fail(s)
  }

  const mkdirs = (rel: string, includeSelf: boolean): Effect.Effect<void, UnsafePath> =>
    Effect.suspend((): Effect.Effect<void, UnsafePath> => {
      const parts = rel.split("/")
      const upto = includeSelf ? parts.length : parts.length - 1
      for (let i = 1; i <= upto; i++) {
        const prefix = parts.slice(0, i).join("/")
        const n = nodes.get(prefix)
        if (n === undefined) nodes.set(prefix, { kind: "directory" })
        else if (n.kind === "symlink") return Effect.fail(new UnsafePath({ path: rel, reason: "symlink" }))
        else if (n.kind !== "directory") return Effect.fail(new UnsafePath({ path: rel, reason: "not-directory" }))
      }
      return Effect.void
    })

  const openFile = (p: string, options?: { maxBytes?: number; requireSingleLink?: boolean }) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      if ((yield* checkParents(rel)) === "missing") return yield* new FileNotFound({ path: rel })
      const n = nodes.get(rel)
      if (n === undefined) return yield* new FileNotFound({ path: rel })
      const refusal = readRefusal(rel, entryOf(n), {
        requireSingleLink: options?.requireSingleLink !== false,
        maxBytes: options?.maxBytes ?? DEFAULT_MAX_BYTES
      })
      if (refusal !== undefined) return yield* refusal
      if (n.kind !== "file") return yield* new UnsafePath({ path: rel, reason: "not-regular-file" })
      return { rel, inode: n.inode }
    })

  const read: FileStoreShape["read"] = (p, options) =>
    Effect.map(openFile(p, options), (f) => new Uint8Array(f.inode.data))
  const readText: FileStoreShape["readText"] = (p, options) =>
    Effect.map(openFile(p, options), (f) => Buffer.from(f.inode.data).toString("utf8"))
  const hash: FileStoreShape["hash"] = (p, options) => Effect.map(openFile(p, options), (f) => digestOf(f.inode.data))

  const stat: FileStoreShape["stat"] = (p) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      if ((yield* checkParents(rel)) === "missing") return Option.none()
      const n = nodes.get(rel)
      if (n === undefined) return Option.none()
      return Option.some(entryOf(n))
    })

  const writeAtomic: FileStoreShape["writeAtomic"] = (p, data) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      yield* mkdirs(rel, false)
      const n = nodes.get(rel)
      if (n !== undefined && n.kind === "symlink") return yield* new UnsafePath({ path: rel, reason: "symlink" })
      if (n !== undefined && n.kind !== "file") return yield* new UnsafePath({ path: rel, reason: "not-regular-file" })
      if (n !== undefined) n.inode.links--
      const bytes = toBytes(data)
      nodes.set(rel, { kind: "file", inode: { data: bytes, links: 1 } })
      return digestOf(bytes)
    })

  const writeRetained: FileStoreShape["writeRetained"] = (p, data) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      yield* mkdirs(rel, false)
      const bytes = toBytes(data)
      const wanted = digestOf(bytes)
      if (nodes.has(rel)) {
        const have = yield* hash(rel, { requireSingleLink: true, maxBytes: Number.MAX_SAFE_INTEGER }).pipe(
          Effect.catchTag("FileNotFound", () => Effect.die("unreachable")),
          Effect.catchTag("LimitExceeded", () => Effect.die("unreachable"))
        )
        if (have.sha256 === wanted.sha256 && have.bytes === wanted.bytes) return { ...wanted, reused: true }
        return yield* new EditedRetainedFile({ path: rel, expected: wanted.sha256, actual: have.sha256 })
      }
      nodes.set(rel, { kind: "file", inode: { data: bytes, links: 1 } })
      return { ...wanted, reused: false }
    })

  const append: FileStoreShape["append"] = (p, data) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      yield* mkdirs(rel, false)
      const n = nodes.get(rel)
      const bytes = toBytes(data)
      if (n === undefined) {
        nodes.set(rel, { kind: "file", inode: { data: bytes, links: 1 } })
        return { created: true, size: bytes.byteLength }
      }
      if (n.kind === "symlink") return yield* new UnsafePath({ path: rel, reason: "symlink" })
      if (n.kind !== "file") return yield* new UnsafePath({ path: rel, reason: "not-regular-file" })
      if (n.inode.links > 1) return yield* new UnsafePath({ path: rel, reason: "hard-link" })
      const joined = new Uint8Array(n.inode.data.byteLength + bytes.byteLength)
      joined.set(n.inode.data, 0)
      joined.set(bytes, n.inode.data.byteLength)
      n.inode.data = joined
      return { created: false, size: joined.byteLength }
    })

  const truncate: FileStoreShape["truncate"] = (p, size) =>
    Effect.map(openFile(p, { maxBytes: Number.MAX_SAFE_INTEGER, requireSingleLink: true }), (f) => {
      const data = new Uint8Array(size)
      data.set(f.inode.data.subarray(0, Math.min(size, f.inode.data.byteLength)))
      f.inode.data = data
    })

  const remove: FileStoreShape["remove"] = (p) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      if ((yield* checkParents(rel)) === "missing") return
      const n = nodes.get(rel)
      if (n === undefined) return
      if (n.kind === "directory") return yield* new UnsafePath({ path: rel, reason: "not-regular-file" })
      if (n.kind === "file") n.inode.links--
      nodes.delete(rel)
    })

  const list: FileStoreShape["list"] = (p) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      if ((yield* checkParents(rel)) === "missing") return []
      const n = nodes.get(rel)
      if (n === undefined) return []
      if (n.kind === "symlink") return yield* new UnsafePath({ path: rel, reason: "symlink" })
      if (n.kind !== "directory") return yield* new UnsafePath({ path: rel, reason: "not-directory" })
      const out: Array<{ name: string; kind: EntryKind }> = []
      for (const [path, node] of nodes) {
        if (parentOf(path) !== rel) continue
        const name = path.slice(rel.length + 1)
        if (!isStagingName(name)) out.push({ name, kind: node.kind })
      }
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    })

  const ensureDir: FileStoreShape["ensureDir"] = (p) => Effect.flatMap(normalize(p), (rel) => mkdirs(rel, true))

  const readMany: NonNullable<FileStoreShape["readMany"]> = (paths, options) =>
    Effect.forEach(paths, (p) =>
      Effect.match(read(p, options), {
        onSuccess: (bytes) => ({ path: Either.getOrElse(normalizeRelative(p), () => p), bytes, error: null }),
        onFailure: (error) => ({ path: Either.getOrElse(normalizeRelative(p), () => p), bytes: null, error })
      }))

  const readManyWith = readManyWithOf({ read, readMany })

  const readThenAppend: NonNullable<FileStoreShape["readThenAppend"]> = (p, options, decide) =>
    Effect.gen(function*() {
      const rel = yield* normalize(p)
      const opened: Inode | undefined = yield* openFile(rel, { ...options, requireSingleLink: true }).pipe(
        Effect.map((f): Inode | undefined => f.inode),
        Effect.catchTag("FileNotFound", () => Effect.succeed(undefined))
      )
      const decided = decide(opened === undefined ? new Uint8Array(0) : new Uint8Array(opened.data))
      if (Either.isLeft(decided)) return yield* Effect.fail(decided.left)
      const { append: data, value } = decided.right
      if (data === null || data.length === 0) return value
      if (opened === undefined) {
        yield* append(rel, data)
        return value
      }
      const bytes = toBytes(data)
      const joined = new Uint8Array(opened.data.byteLength + bytes.byteLength)
      joined.set(opened.data, 0)
      joined.set(bytes, opened.data.byteLength)
      opened.data = joined
      return value
    })

  const store: FileStoreShape = {
    readThenAppend,
    readMany,
    readManyWith,
    normalize,
    stat,
    read,
    readText,
    hash,
    writeAtomic,
    writeRetained,
    append,
    truncate,
    remove,
    list,
    ensureDir
  }

  const mkParents = (rel: string) => {
    const parts = rel.split("/")
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join("/")
      if (!nodes.has(prefix)) nodes.set(prefix, { kind: "directory" })
    }
  }

  return {
    store,
    writeRaw: (path, data) => {
      mkParents(path)
      const n = nodes.get(path)
      if (n !== undefined && n.kind === "file") n.inode.data = toBytes(data)
      else nodes.set(path, { kind: "file", inode: { data: toBytes(data), links: 1 } })
    },
    readRaw: (path) => {
      const n = nodes.get(path)
      return n !== undefined && n.kind === "file" ? n.inode.data : undefined
    },
    symlink: (path) => {
      mkParents(path)
      nodes.set(path, { kind: "symlink" })
    },
    hardlink: (existing, path) => {
      const n = nodes.get(existing)
      if (n === undefined || n.kind !== "file") throw new Error("hardlink needs an existing file")
      mkParents(path)
      n.inode.links++
      nodes.set(path, { kind: "file", inode: n.inode })
    },
    fifo: (path) => {
      mkParents(path)
      nodes.set(path, { kind: "other" })
    },
    mkdir: (path) => {
      mkParents(path)
      nodes.set(path, { kind: "directory" })
    },
    kindAt: (path) => nodes.get(path)?.kind
  }
}

/** A fresh in-memory FileStore layer (each build gets its own empty tree). */
export const FileStoreMemory: Layer.Layer<FileStore> = Layer.sync(FileStore, () => makeMemoryFs().store)

/** An in-memory FileStore over a given tree, for tests that arrange files through the handle. */
export const fileStoreMemoryOf = (fs: MemoryFs): Layer.Layer<FileStore> => Layer.succeed(FileStore, fs.store)
