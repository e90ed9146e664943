/** The layers the grant and exec commands use: Grants and Exec over the sandbox, the work tree, the journal and the base. */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { ExecLive } from "./ExecLive.js"
import { GrantsLive } from "./GrantsLive.js"
import { JournalLive } from "./JournalLive.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

export const GrantsLayer = (dir: string) =>
  GrantsLive.pipe(Layer.provideMerge(WorkTreeLive), Layer.provideMerge(BaseLive(dir)))

export const ExecLayer = (dir: string) =>
  ExecLive.pipe(
    Layer.provideMerge(Layer.mergeAll(GrantsLive, JournalLive)),
    Layer.provideMerge(Layer.merge(WorkTreeLive, SandboxBwrap)),
    Layer.provideMerge(BaseLive(dir))
  )
