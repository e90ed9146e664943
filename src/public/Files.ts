/**
 * `Files` of the public surface: the work folder (`Workdir`), the boundary-checked file store
 * every service reads and writes through (`FileStore`) and the one writer lock per work folder
 * (`Lock`), each with its Node and in-memory layers. A custom store implements `FileStoreShape`
 * and can be checked with `dossier/testing`'s conformance suite.
 */
export { type Base, BaseLive, BaseMemory } from "../layers/Base.js"
export { FileStoreLive } from "../layers/FileStoreLive.js"
export { FileStoreMemory } from "../layers/FileStoreMemory.js"
export { LOCK_FILE, LockLive } from "../layers/LockLive.js"
export { LockMemory } from "../layers/LockMemory.js"
export {
  DEFAULT_MAX_BYTES,
  type Digest,
  type EntryKind,
  type EntryStat,
  FileStore,
  type FileStoreShape,
  type ReadError,
  type ReadManyEntry,
  type ReadManyWithEntry,
  type ReadOptions,
  type ReadThenAppendError,
  type RetainedDigest,
  STAGING_SUFFIX,
  type WriteError
} from "../services/FileStore.js"
export { Lock, LOCK_WAIT_MS, type LockRegionHint, type LockShape } from "../services/Lock.js"
export { Workdir } from "../services/Workdir.js"
