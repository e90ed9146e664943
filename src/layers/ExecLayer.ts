/** The layers the grant and exec commands use: Grants and Exec over the sandbox, the work tree, the journal and the base. */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { ExecLive } from "./ExecLive.js"
import { ExecFilesLive } from "./folder/ExecFilesLive.js"
import { ExecutionStoreFolder } from "./folder/ExecutionStoreFolder.js"
import { GrantStoreFolder } from "./folder/GrantStoreFolder.js"
import { GrantsLive } from "./GrantsLive.js"
import { JournalLive } from "./JournalLive.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

/** The grant and execution stores over the work folder (`.dossier/grants/`, `.dossier/executions/`), and ExecFiles. */
export const ExecStoresFolder = Layer.mergeAll(GrantStoreFolder, ExecutionStoreFolder, ExecFilesLive)

/** Grants over the work folder: GrantsLive over the folder adapters (requires FileStore | Workdir | Lock | WorkTree | EvidenceKey). */
export const GrantsFolder = GrantsLive.pipe(Layer.provide(ExecStoresFolder))

/** Exec over the work folder: ExecLive over the folder adapters (and Grants, Sandbox, Journal, WorkTree, the base). */
export const ExecFolder = ExecLive.pipe(Layer.provide(ExecStoresFolder))

export const GrantsLayer = (dir: string) =>
  GrantsFolder.pipe(Layer.provideMerge(WorkTreeLive), Layer.provideMerge(BaseLive(dir)))

export const ExecLayer = (dir: string) =>
  ExecFolder.pipe(
    Layer.provideMerge(Layer.mergeAll(GrantsFolder, JournalLive)),
    Layer.provideMerge(Layer.merge(WorkTreeLive, SandboxBwrap)),
    Layer.provideMerge(BaseLive(dir))
  )
