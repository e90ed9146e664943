/** The layers the exec commands use: Exec over the sandbox, the work tree, the journal, the grants and the base. */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { ExecLive } from "./ExecLive.js"
import { ExecStoresFolder, GrantsFolder } from "./GrantsLayer.js"
import { JournalLive } from "./JournalLive.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

/** Exec over the work folder: ExecLive over the folder adapters (and Grants, Sandbox, Journal, WorkTree, the base). */
export const ExecFolder = ExecLive.pipe(Layer.provide(ExecStoresFolder))

export const ExecLayer = (dir: string) =>
  ExecFolder.pipe(
    Layer.provideMerge(Layer.mergeAll(GrantsFolder, JournalLive)),
    Layer.provideMerge(Layer.merge(WorkTreeLive, SandboxBwrap)),
    Layer.provideMerge(BaseLive(dir))
  )
