/**
 * `Exec` of the public surface: grants and confined execution (spec exec, docs/exec.md).
 * `Grants` creates, shows, lists, revokes and narrows the grants of a work folder; `Exec` runs a
 * program under a grant in a bubblewrap sandbox and shows its recorded execution. `GrantsLayer(dir)`
 * and `ExecLayer(dir)` provide them over a work folder on disk; `GrantsLive` and `ExecLive` (the
 * logic, over the `GrantStore` and `ExecutionStore` ports), their folder and memory adapters,
 * `GrantsFolder`/`ExecFolder` (the logic over the folder adapters and `ExecFilesLive`),
 * `SandboxBwrap` and `WorkTreeLive` are the parts (they need `Files.BaseLive(dir)`).
 */
export * from "../domain/ExecErrors.js"
export {
  ExecutionContent,
  ExecutionRecord,
  ExecutionStatus,
  KillReason,
  LogFile,
  LostReason,
  OutputFile,
  receiptHolds
} from "../domain/Execution.js"
export {
  BUDGET_FIELDS,
  GrantBudget,
  GrantContent,
  GrantEvent,
  GrantInput,
  NarrowInput,
  RootIdentity,
  StoredGrant,
  type Tool,
  TOOLS
} from "../domain/Grant.js"
export { ExecFolder, ExecLayer } from "../layers/ExecLayer.js"
export { ExecLive } from "../layers/ExecLive.js"
export { ExecFilesLive } from "../layers/folder/ExecFilesLive.js"
export { ExecutionStoreFolder } from "../layers/folder/ExecutionStoreFolder.js"
export { GrantStoreFolder } from "../layers/folder/GrantStoreFolder.js"
export { ExecStoresFolder, GrantsFolder, GrantsLayer } from "../layers/GrantsLayer.js"
export { GrantsLive } from "../layers/GrantsLive.js"
export { ExecutionStoreMemory } from "../layers/memory/ExecutionStoreMemory.js"
export { GrantStoreMemory } from "../layers/memory/GrantStoreMemory.js"
export { SandboxBwrap } from "../layers/SandboxBwrap.js"
export { WorkTreeLive } from "../layers/WorkTreeLive.js"
export { Exec, type ExecOptions, type ExecShape, type OutputFinding } from "../services/Exec.js"
export { ExecFiles, type ExecFilesShape } from "../services/ExecFiles.js"
export { Grants, type GrantShown, type GrantsShape, type GrantStatus, type GrantView } from "../services/Grants.js"
export { ExecutionStore, type ExecutionStoreError, type ExecutionStoreShape } from "../services/ports/ExecutionStore.js"
export { GrantStore, type GrantStoreError, type GrantStoreShape } from "../services/ports/GrantStore.js"
export { type RunUsage, Sandbox, type SandboxShape } from "../services/Sandbox.js"
export { type UnnamedFile, WorkTree, type WorkTreeShape } from "../services/WorkTree.js"
