/**
 * The gate's attempts log in the work folder: the file at the path the gate is given, read whole
 * and appended one line at a time with one fsync (the bytes the gate wrote before the port).
 * `paths` names the default log when it is there: a log at another path is the caller's file,
 * which only the caller knows of.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { FileStore, type FileStoreShape } from "../../services/FileStore.js"
import { DEFAULT_ATTEMPTS_LOG } from "../../services/Gate.js"
import { GateAttempts, type GateAttemptsShape } from "../../services/ports/GateAttempts.js"

export const makeGateAttemptsFolder = (store: FileStoreShape): GateAttemptsShape => ({
  read: (path, maxBytes) =>
    store.readText(path, { maxBytes }).pipe(Effect.catchTag("FileNotFound", () => Effect.succeed(""))),
  append: (path, line) => Effect.asVoid(store.append(path, line)),
  paths: Effect.map(store.stat(DEFAULT_ATTEMPTS_LOG), (s) => (Option.isSome(s) ? [DEFAULT_ATTEMPTS_LOG] : []))
})

export const GateAttemptsFolder: Layer.Layer<GateAttempts, never, FileStore> = Layer.effect(
  GateAttempts,
  Effect.map(FileStore, makeGateAttemptsFolder)
)
