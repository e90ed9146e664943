/**
 * CaptureStore in the work folder: retained files under `research/sources/` (write-once, through
 * FileStore's batch: every target looked at before any is written) and the capture log in
 * `.dossier/captures.jsonl`, one JSON line per record, appended with one write and one fsync.
 * The log is checked to be appendable (a plain single-link file, or absent) before any file is
 * written, so a refusal stores nothing.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { UnsafePath } from "../../domain/Errors.js"
import { captureLine, CAPTURES_LOG } from "../../domain/IngestContent.js"
import { FileStore } from "../../services/FileStore.js"
import { readCaptures } from "../../services/Ingest.js"
import { CaptureStore, type CaptureStoreShape } from "../../services/ports/CaptureStore.js"
import { writeRetainedManyOf } from "../FileStoreFallbacks.js"

export const makeCaptureStoreFolder = Effect.map(FileStore, (fs): CaptureStoreShape => {
  /** Refuse a capture log that could not be appended to (a symlink, hard link or non-regular file). */
  const expectAppendable = (path: string) =>
    Effect.flatMap(fs.stat(path), (st) =>
      Option.isNone(st)
        ? Effect.void
        : st.value.kind === "symlink"
        ? Effect.fail(new UnsafePath({ path, reason: "symlink" }))
        : st.value.kind !== "file"
        ? Effect.fail(new UnsafePath({ path, reason: "not-regular-file" }))
        : st.value.nlink > 1
        ? Effect.fail(new UnsafePath({ path, reason: "hard-link" }))
        : Effect.void)

  /** The store's batch of write-once files, or the same made of its required methods. */
  const writeRetainedMany = fs.writeRetainedMany ?? writeRetainedManyOf(fs)

  return {
    record: (files, records) =>
      Effect.gen(function*() {
        yield* expectAppendable(CAPTURES_LOG)
        const stored = yield* writeRetainedMany(files)
        if (records.length > 0) yield* fs.append(CAPTURES_LOG, records.map(captureLine).join(""))
        return stored.map((d, i) => ({ path: files[i]!.path, sha256: d.sha256, bytes: d.bytes, reused: d.reused }))
      }),
    records: Effect.provideService(readCaptures, FileStore, fs),
    readImport: (path, maxBytes) => fs.read(path, { maxBytes })
  }
})

/** CaptureStore over the work folder's FileStore. */
export const CaptureStoreFolder: Layer.Layer<CaptureStore, never, FileStore> = Layer.effect(
  CaptureStore,
  makeCaptureStoreFolder
)
