/**
 * FileStoreLive.readThenAppend (one descriptor for the journal's read and append): what it
 * refuses, that nothing is written when `decide` refuses, and the fallback for a file that
 * cannot be opened for writing. Live and Memory agreement on random sequences is in
 * FileStore.property.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { readManyWithOf, readThenAppendOf } from "../../src/layers/FileStoreFallbacks.js"
import { makeFileStoreLive } from "../../src/layers/FileStoreLive.js"
import { tempWorkdir } from "../support/cli.js"

const keep = (data: string | null) => (bytes: Uint8Array) =>
  Either.right({ append: data, value: Buffer.from(bytes).toString("utf8") })

describe("FileStoreLive.readThenAppend", () => {
  it.effect("reads the file, appends to it with one fsync; an absent file is created only when something is appended", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const store = makeFileStoreLive(root)
      expect(yield* store.readThenAppend!("d/log", {}, keep(null))).toBe("")
      expect(fs.existsSync(path.join(root, "d"))).toBe(false)
      expect(yield* store.readThenAppend!("d/log", {}, keep("one\n"))).toBe("")
      expect(yield* store.readThenAppend!("d/log", {}, keep("two\n"))).toBe("one\n")
      expect(fs.readFileSync(path.join(root, "d/log"), "utf8")).toBe("one\ntwo\n")
      const refused = yield* Effect.either(store.readThenAppend!("d/log", {}, () => Either.left("no" as const)))
      expect(refused).toEqual(Either.left("no"))
      expect(fs.readFileSync(path.join(root, "d/log"), "utf8")).toBe("one\ntwo\n")
    }))

  it.effect("refuses symlinks, hard links, non-regular files and files over the bound", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const store = makeFileStoreLive(root)
      fs.writeFileSync(path.join(root, "target"), "x\n")
      fs.symlinkSync(path.join(root, "target"), path.join(root, "link"))
      fs.linkSync(path.join(root, "target"), path.join(root, "hard"))
      fs.mkdirSync(path.join(root, "dir"))
      const reason = (p: string, max?: number) =>
        Effect.map(
          Effect.either(store.readThenAppend!(p, max === undefined ? {} : { maxBytes: max }, keep("y\n"))),
          (r) => Either.isLeft(r) ? ("reason" in r.left ? r.left.reason : r.left._tag) : "ok"
        )
      expect(yield* reason("link")).toBe("symlink")
      expect(yield* reason("hard")).toBe("hard-link")
      expect(yield* reason("dir")).toBe("not-regular-file")
      fs.rmSync(path.join(root, "hard"))
      expect(yield* reason("target", 1)).toBe("LimitExceeded")
      expect(fs.readFileSync(path.join(root, "target"), "utf8")).toBe("x\n")
      expect(yield* reason("target")).toBe("ok")
      expect(fs.readFileSync(path.join(root, "target"), "utf8")).toBe("x\ny\n")
    }))

  const immutable = (() => {
    try {
      const probe = path.join(tempWorkdir(), "probe")
      fs.writeFileSync(probe, "")
      execFileSync("chattr", ["+i", probe], { stdio: "ignore" })
      execFileSync("chattr", ["-i", probe], { stdio: "ignore" })
      return true
    } catch {
      return false
    }
  })()

  it.effect.skipIf(!immutable)(
    "a file that cannot be opened for writing is still read; appending to it fails as append does",
    () =>
      Effect.gen(function*() {
        const root = tempWorkdir()
        const store = makeFileStoreLive(root)
        const file = path.join(root, "log")
        fs.writeFileSync(file, "one\n")
        execFileSync("chattr", ["+i", file])
        try {
          expect(yield* store.readThenAppend!("log", {}, keep(null))).toBe("one\n")
          const r = yield* Effect.either(store.readThenAppend!("log", {}, keep("two\n")))
          expect(Either.isLeft(r) && r.left).toMatchObject({ _tag: "IoError", operation: "append", code: "EPERM" })
        } finally {
          execFileSync("chattr", ["-i", file])
        }
        expect(fs.readFileSync(file, "utf8")).toBe("one\n")
      })
  )
})

describe("FileStore fallbacks (for stores without the optional methods)", () => {
  it.effect("readThenAppendOf and readManyWithOf answer as the store's own paths", () =>
    Effect.gen(function*() {
      const root = tempWorkdir()
      const store = makeFileStoreLive(root)
      const viaReadAndAppend = readThenAppendOf(store)
      expect(yield* viaReadAndAppend("d/log", {}, keep(null))).toBe("")
      expect(fs.existsSync(path.join(root, "d"))).toBe(false)
      expect(yield* viaReadAndAppend("d/log", {}, keep("one\n"))).toBe("")
      expect(yield* store.readThenAppend!("d/log", {}, keep("two\n"))).toBe("one\n")
      expect(yield* viaReadAndAppend("d/log", {}, keep(null))).toBe("one\ntwo\n")
      expect(yield* Effect.either(viaReadAndAppend("d/log", {}, () => Either.left("no" as const)))).toEqual(
        Either.left("no")
      )
      expect(fs.readFileSync(path.join(root, "d/log"), "utf8")).toBe("one\ntwo\n")
      fs.linkSync(path.join(root, "d/log"), path.join(root, "d/hard"))
      const aliased = yield* Effect.either(viaReadAndAppend("d/log", {}, keep("x\n")))
      expect(Either.isLeft(aliased) && aliased.left).toMatchObject({ _tag: "UnsafePath", reason: "hard-link" })
      // Reads refuse a hard-linked file too; with the second name gone, the file reads again.
      const linkedRead = yield* Effect.either(store.readManyWith!(["d/log"], (b) => b.byteLength))
      expect(linkedRead).toMatchObject(Either.right([{ error: { _tag: "UnsafePath", reason: "hard-link" } }]))
      fs.unlinkSync(path.join(root, "d/hard"))

      const paths = ["d/log", "d/missing", "../out", "d"]
      const size = (bytes: Uint8Array, i: number) => `${i}:${bytes.byteLength}`
      const own = yield* store.readManyWith!(paths, size)
      expect(yield* readManyWithOf(store)(paths, size)).toEqual(own)
      expect(yield* readManyWithOf({ read: store.read })(paths, size)).toEqual(own)
      expect(own.map((e) => e.error?._tag ?? e.value)).toEqual(["0:8", "FileNotFound", "UnsafePath", "UnsafePath"])
    }))
})
