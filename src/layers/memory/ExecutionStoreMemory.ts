/**
 * ExecutionStore in memory (src/services/ports/ExecutionStore.ts): records, logs and markers in a
 * Ref. There is no disk to fill, so the record's room is only noted (`reserved`) and
 * nothing is ever left half done: `recover` gives back the room of runs without a marker, as the
 * folder does, and that is all.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { createHash } from "node:crypto"
import { isDeepStrictEqual } from "node:util"
import { EditedRetainedFile, FileNotFound } from "../../domain/Errors.js"
import { executionPaths, type ExecutionRecord, type RunningMarker } from "../../domain/Execution.js"
import { ExecutionStore, type ExecutionStoreShape } from "../../services/ports/ExecutionStore.js"
import { recordText } from "../folder/ExecutionStoreFolder.js"

interface State {
  readonly records: ReadonlyMap<string, ExecutionRecord>
  readonly logs: ReadonlyMap<string, Uint8Array>
  readonly markers: ReadonlyMap<string, RunningMarker>
  readonly reserved: ReadonlySet<string>
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))
/** The digest of a record as the folder writes it (so both adapters name a refused record alike). */
const recordDigest = (r: ExecutionRecord) => sha256(Buffer.from(recordText(r), "utf8"))

/** A fresh, empty memory ExecutionStore (it never fails: no storage error). */
export const makeExecutionStoreMemory: Effect.Effect<ExecutionStoreShape<never>> = Effect.map(
  Ref.make<State>({ records: new Map(), logs: new Map(), markers: new Map(), reserved: new Set() }),
  (state): ExecutionStoreShape<never> => ({
    get: (id) => Effect.map(Ref.get(state), (s) => Option.fromNullable(s.records.get(id))),
    has: (id) => Effect.map(Ref.get(state), (s) => s.records.has(id)),
    ids: Effect.map(Ref.get(state), (s) => [...s.records.keys()].sort()),
    put: (record) =>
      Effect.flatten(Ref.modify(state, (s): [Effect.Effect<void, EditedRetainedFile>, State] => {
        const there = s.records.get(record.id)
        if (there === undefined) {
          return [Effect.void, { ...s, records: new Map(s.records).set(record.id, record) }]
        }
        return isDeepStrictEqual(there, record)
          ? [Effect.void, s]
          : [
            Effect.fail(
              new EditedRetainedFile({
                path: executionPaths(record.id).record,
                expected: recordDigest(record),
                actual: recordDigest(there)
              })
            ),
            s
          ]
      })),
    putLog: (path, bytes) =>
      Effect.flatten(Ref.modify(state, (s): [
        Effect.Effect<
          { sha256: string; bytes: number; reused: boolean },
          EditedRetainedFile
        >,
        State
      ] => {
        const wanted = { sha256: sha256(bytes), bytes: bytes.length }
        const there = s.logs.get(path)
        if (there === undefined) {
          return [
            Effect.succeed({ ...wanted, reused: false }),
            { ...s, logs: new Map(s.logs).set(path, Uint8Array.from(bytes)) }
          ]
        }
        return sameBytes(there, bytes)
          ? [Effect.succeed({ ...wanted, reused: true }), s]
          : [Effect.fail(new EditedRetainedFile({ path, expected: wanted.sha256, actual: sha256(there) })), s]
      })),
    logDigest: (path) =>
      Effect.flatMap(Ref.get(state), (s) => {
        const there = s.logs.get(path)
        return there === undefined
          ? Effect.fail(new FileNotFound({ path }))
          : Effect.succeed({ sha256: sha256(there), bytes: there.length })
      }),
    readLog: (path) =>
      Effect.map(Ref.get(state), (s) => Option.map(Option.fromNullable(s.logs.get(path)), (b) => Uint8Array.from(b))),
    markers: Effect.map(
      Ref.get(state),
      (s) => [...s.markers.keys()].sort().map((id) => s.markers.get(id)!)
    ),
    admit: (marker) =>
      Ref.update(state, (s) => ({
        ...s,
        markers: new Map(s.markers).set(marker.id, marker),
        reserved: new Set(s.reserved).add(marker.id)
      })),
    release: (id) =>
      Ref.update(state, (s) => {
        const reserved = new Set(s.reserved)
        reserved.delete(id)
        return { ...s, reserved }
      }),
    finish: (id) =>
      Ref.update(state, (s) => {
        const markers = new Map(s.markers)
        markers.delete(id)
        return { ...s, markers }
      }),
    recover: Ref.update(state, (s) => ({ ...s, reserved: new Set([...s.reserved].filter((id) => s.markers.has(id))) }))
  })
)

/** ExecutionStore in memory (a fresh store for each build). */
export const ExecutionStoreMemory: Layer.Layer<ExecutionStore> = Layer.effect(ExecutionStore, makeExecutionStoreMemory)
