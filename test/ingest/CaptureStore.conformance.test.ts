/**
 * The CaptureStore port's adapters pass the same conformance suite
 * (src/testing/CaptureStoreConformance.ts): the memory adapter, and the folder adapter over the
 * in-memory tree and over a real folder (where an unwritable capture log also refuses a capture).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { CAPTURES_LOG } from "../../src/domain/IngestContent.js"
import { FileStoreLive } from "../../src/layers/FileStoreLive.js"
import { makeMemoryFs } from "../../src/layers/FileStoreMemory.js"
import { makeCaptureStoreFolder } from "../../src/layers/folder/CaptureStoreFolder.js"
import { makeCaptureStoreMemory } from "../../src/layers/memory/CaptureStoreMemory.js"
import { FileStore, type FileStoreShape } from "../../src/services/FileStore.js"
import { Workdir } from "../../src/services/Workdir.js"
import { CaptureStoreConformance } from "../../src/testing.js"

const hooks = (files: FileStoreShape, edit: (p: string, d: string) => void) => ({
  putFile: (p: string, d: string) => Effect.sync(() => edit(p, d)),
  readFile: (p: string) =>
    Effect.map(Effect.either(files.read(p, { requireSingleLink: false })), (r) => Option.getRight(r))
})

const memory: CaptureStoreConformance.Make = () =>
  Effect.gen(function*() {
    const mem = makeMemoryFs()
    const store = yield* makeCaptureStoreMemory.pipe(Effect.provideService(FileStore, mem.store))
    return { store, ...hooks(mem.store, mem.writeRaw) }
  })

const folderInMemory: CaptureStoreConformance.Make = () =>
  Effect.gen(function*() {
    const mem = makeMemoryFs()
    const store = yield* makeCaptureStoreFolder.pipe(Effect.provideService(FileStore, mem.store))
    return { store, ...hooks(mem.store, mem.writeRaw) }
  })

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "dossier-capturestore-")))),
  (d) => Effect.sync(() => fs.rmSync(d, { recursive: true, force: true }))
)

const onDisk = (dir: string) =>
  Effect.gen(function*() {
    const files = yield* Effect.provide(FileStore, FileStoreLive.pipe(Layer.provide(Workdir.live(dir)), Layer.orDie))
    const store = yield* makeCaptureStoreFolder.pipe(Effect.provideService(FileStore, files))
    const edit = (p: string, d: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true })
      fs.writeFileSync(path.join(dir, p), d)
    }
    return { store, ...hooks(files, edit) }
  })

const folderOnDisk: CaptureStoreConformance.Make = () => Effect.flatMap(tempDir, onDisk)

describe("CaptureStore conformance", () => {
  for (
    const [name, make] of [["memory", memory], ["folder (in-memory tree)", folderInMemory], [
      "folder (on disk)",
      folderOnDisk
    ]] as const
  ) {
    it.effect(`${name}: the contract`, () => CaptureStoreConformance.check(make))
  }

  it.effect("folder: a capture log that is a symlink refuses the capture, and nothing is written", () =>
    Effect.scoped(Effect.gen(function*() {
      const dir = yield* tempDir
      const { readFile, store } = yield* onDisk(dir)
      fs.mkdirSync(path.join(dir, ".dossier"))
      fs.writeFileSync(path.join(dir, "elsewhere.jsonl"), "")
      fs.symlinkSync(path.join(dir, "elsewhere.jsonl"), path.join(dir, CAPTURES_LOG))
      const f = "research/sources/x/a.html"
      const refused = yield* Effect.flip(store.record([{ path: f, data: new Uint8Array([1]) }], []))
      expect(refused._tag).toBe("UnsafePath")
      expect(Option.isNone(yield* readFile(f))).toBe(true)
      expect(fs.readFileSync(path.join(dir, "elsewhere.jsonl"), "utf8")).toBe("")
    })))
})
