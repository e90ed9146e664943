/**
 * CaptureStore in memory: the capture log in a Ref. Retained files are files of the work folder
 * (agents read them, the plan registers them), so they are kept write-once through the FileStore
 * it is given (FileStoreMemory), as the folder adapter keeps them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import type { CaptureRecord } from "../../domain/IngestContent.js"
import { FileStore } from "../../services/FileStore.js"
import { CaptureStore, type CaptureStoreShape } from "../../services/ports/CaptureStore.js"
import { writeRetainedManyOf } from "../FileStoreFallbacks.js"

export const makeCaptureStoreMemory = Effect.gen(function*() {
  const fs = yield* FileStore
  const log = yield* Ref.make<ReadonlyArray<CaptureRecord>>([])
  const writeRetainedMany = fs.writeRetainedMany ?? writeRetainedManyOf(fs)
  const shape: CaptureStoreShape = {
    record: (files, records) =>
      Effect.gen(function*() {
        const stored = yield* writeRetainedMany(files)
        yield* Ref.update(log, (l) => [...l, ...records])
        return stored.map((d, i) => ({ path: files[i]!.path, sha256: d.sha256, bytes: d.bytes, reused: d.reused }))
      }),
    records: Ref.get(log),
    readImport: (path, maxBytes) => fs.read(path, { maxBytes })
  }
  return shape
})

/** CaptureStore in memory (a fresh log for each build), keeping files through the FileStore. */
export const CaptureStoreMemory: Layer.Layer<CaptureStore, never, FileStore> = Layer.effect(
  CaptureStore,
  makeCaptureStoreMemory
)
