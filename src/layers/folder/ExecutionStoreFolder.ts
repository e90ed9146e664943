/**
 * ExecutionStore in the work folder (src/services/ports/ExecutionStore.ts), byte for byte what
 * dossier has always written under `.dossier/executions/`: `<id>.json` (the sealed record,
 * `JSON.stringify(record, null, 2)` and a newline, write-once), `<id>/stdout` and `<id>/stderr`
 * (write-once), `<id>.running.json` (the marker, one JSON line, replaced atomically) and
 * `<id>.reserve` (random bytes holding the record's room on the disk). Every access goes through
 * the FileStore's boundary checks.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { decodeWith, parseJson } from "../../domain/Decode.js"
import type { IoError, LimitExceeded, UnsafePath } from "../../domain/Errors.js"
import { ExecutionDigestMismatch } from "../../domain/ExecErrors.js"
import {
  EXECUTION_ID,
  executionPaths,
  type ExecutionRecord,
  ExecutionRecord as ExecutionRecordSchema,
  reserveBytes,
  RunningMarker
} from "../../domain/Execution.js"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import { ExecutionStore, type ExecutionStoreShape } from "../../services/ports/ExecutionStore.js"

export const EXECUTIONS_DIR = ".dossier/executions"

const decodeRecord = decodeWith(ExecutionRecordSchema)
const decodeMarker = decodeWith(RunningMarker)

export const recordText = (record: ExecutionRecord) => `${JSON.stringify(record, null, 2)}\n`
export const markerText = (marker: RunningMarker) => `${JSON.stringify(marker)}\n`

/** What the folder itself may fail with. */
export type ExecutionFolderError = IoError | UnsafePath | LimitExceeded

export const makeExecutionStoreFolder = (store: FileStoreShape): ExecutionStoreShape<ExecutionFolderError> => {
  const names = Effect.map(
    store.list(EXECUTIONS_DIR),
    (entries) => entries.filter((e) => e.kind === "file").map((e) => e.name)
  )

  const markers: ExecutionStoreShape<ExecutionFolderError>["markers"] = Effect.gen(function*() {
    const out: Array<RunningMarker> = []
    for (const name of yield* names) {
      if (!name.endsWith(".running.json")) continue
      const text = yield* store.readText(`${EXECUTIONS_DIR}/${name}`, { requireSingleLink: true }).pipe(
        Effect.map(Option.some),
        Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<string>()))
      )
      if (Option.isNone(text)) continue
      const m = Either.flatMap(parseJson(text.value), decodeMarker)
      if (Either.isRight(m) && EXECUTION_ID.test(m.right.id) && name === `${m.right.id}.running.json`) out.push(m.right)
    }
    return out
  })

  return {
    get: (id) =>
      store.readText(executionPaths(id).record, { requireSingleLink: true }).pipe(
        Effect.flatMap((text) => {
          const r = Either.flatMap(parseJson(text), decodeRecord)
          return Either.isLeft(r) || r.right.id !== id
            ? Effect.fail(new ExecutionDigestMismatch({ executionId: id }))
            : Effect.succeed(Option.some(r.right))
        }),
        Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none()))
      ),
    has: (id) => Effect.map(store.stat(executionPaths(id).record), Option.isSome),
    ids: Effect.map(
      names,
      (ns) =>
        ns.filter((n) => n.endsWith(".json") && !n.endsWith(".running.json")).map((n) => n.slice(0, -5))
          .filter((id) => EXECUTION_ID.test(id))
    ),
    put: (record) => Effect.asVoid(store.writeRetained(executionPaths(record.id).record, recordText(record))),
    putLog: (path, bytes) => store.writeRetained(path, bytes),
    logDigest: (path) =>
      Effect.map(
        store.hash(path, { maxBytes: Number.MAX_SAFE_INTEGER }),
        (d) => ({ sha256: d.sha256, bytes: d.bytes })
      ),
    readLog: (path) =>
      store.read(path, { maxBytes: Number.MAX_SAFE_INTEGER }).pipe(
        Effect.map(Option.some),
        Effect.catchTag("FileNotFound", () => Effect.succeed(Option.none<Uint8Array>()))
      ),
    markers,
    admit: (marker) =>
      Effect.gen(function*() {
        const paths = executionPaths(marker.id)
        const text = markerText(marker)
        // The record's space is taken now (random bytes: no file system compresses them away),
        // before the program can fill the disk; a disk already too full refuses the run here.
        yield* store.writeAtomic(paths.reserve, randomBytes(reserveBytes(text, marker.argv.length)))
        yield* store.writeAtomic(paths.running, text).pipe(
          Effect.tapError(() => Effect.ignore(store.remove(paths.reserve)))
        )
      }),
    release: (id) => store.remove(executionPaths(id).reserve),
    finish: (id) => store.remove(executionPaths(id).running),
    // A reservation whose run is not in flight (its exec died between the two writes of
    // admission, or after the record): given back.
    recover: Effect.gen(function*() {
      const inFlight = new Set((yield* markers).map((m) => `${m.id}.reserve`))
      for (const name of yield* names) {
        if (name.endsWith(".reserve") && !inFlight.has(name)) yield* store.remove(`${EXECUTIONS_DIR}/${name}`)
      }
    })
  }
}

/** ExecutionStore over the work folder's FileStore. */
export const ExecutionStoreFolder: Layer.Layer<ExecutionStore, never, FileStore> = Layer.effect(
  ExecutionStore,
  Effect.map(FileStore, makeExecutionStoreFolder)
)
