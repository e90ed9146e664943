/**
 * The layers the grant commands and `status` use: Grants over the folder's grant and execution
 * stores. Apart from ./ExecLayer.ts so that a command that only reads grants does not load the
 * exec service and the sandbox (their modules and schemas built at every start).
 */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { ExecFilesLive } from "./folder/ExecFilesLive.js"
import { ExecutionStoreFolder } from "./folder/ExecutionStoreFolder.js"
import { GrantStoreFolder } from "./folder/GrantStoreFolder.js"
import { GrantsLive } from "./GrantsLive.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

/** The grant and execution stores over the work folder (`.dossier/grants/`, `.dossier/executions/`), and ExecFiles. */
export const ExecStoresFolder = Layer.mergeAll(GrantStoreFolder, ExecutionStoreFolder, ExecFilesLive)

/** Grants over the work folder: GrantsLive over the folder adapters (requires FileStore | Workdir | Lock | WorkTree | EvidenceKey). */
export const GrantsFolder = GrantsLive.pipe(Layer.provide(ExecStoresFolder))

export const GrantsLayer = (dir: string) =>
  GrantsFolder.pipe(Layer.provideMerge(WorkTreeLive), Layer.provideMerge(BaseLive(dir)))
