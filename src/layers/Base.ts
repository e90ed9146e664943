/**
 * The base every subsystem builds on: the work folder, its FileStore and its Lock.
 * `BaseLive(dir)` for Node; tests build their own from the in-memory layers.
 */
import * as Layer from "effect/Layer"
import type { WorkdirNotFound } from "../domain/Errors.js"
import type { FileStore } from "../services/FileStore.js"
import type { Lock } from "../services/Lock.js"
import { Workdir } from "../services/Workdir.js"
import { FileStoreLive } from "./FileStoreLive.js"
import { LockLive } from "./LockLive.js"

export type Base = Workdir | FileStore | Lock

export const BaseLive = (dir: string): Layer.Layer<Base, WorkdirNotFound> =>
  LockLive.pipe(Layer.provideMerge(FileStoreLive), Layer.provideMerge(Workdir.live(dir)))
