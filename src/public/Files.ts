/**
 * `Files` of the public surface: the work folder (`Workdir`), the boundary-checked file store
 * every service reads and writes through (`FileStore`) and the one writer lock per work folder
 * (`Lock`), each with its Node and in-memory layers. A custom store implements `FileStoreShape`
 * and can be checked with `dossier/testing`'s conformance suite.
 */
export { Workdir } from "../services/Workdir.js"
export {
  FileStore,
  type Digest,
  type EntryKind,
  type EntryStat,
  type FileStoreShape,
  type ReadError,
  type ReadManyEntry,
  type ReadManyWithEntry,
  type ReadOptions,
  type ReadThenAppendError,
  type RetainedDigest,
  type WriteError,
  DEFAULT_MAX_BYTES,
  STAGING_SUFFIX
} from "../services/FileStore.js"
export { Lock, type LockShape, LOCK_WAIT_MS } from "../services/Lock.js"
export { FileStoreLive } from "../layers/FileStoreLive.js"
export { FileStoreMemory } from "../layers/FileStoreMemory.js"
export { LockLive, LOCK_FILE } from "../layers/LockLive.js"
export { LockMemory } from "../layers/LockMemory.js"
export { BaseLive, BaseMemory, type Base } from "../layers/Base.js"
