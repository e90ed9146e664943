/**
 * Every service a command may use, over one work folder: what the MCP server builds once at
 * start and gives every tool call. The CLI builds only what its command needs (each command's
 * own layer), so that a start loads no more than that. A command whose work needs a service not
 * listed here fails type-checking (src/commands/Work.ts bounds it by `CommandServices`).
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { Lock } from "../services/Lock.js"
import { Workdir } from "../services/Workdir.js"
import { BaseLive } from "./Base.js"
import { ExecFolder } from "./ExecLayer.js"
import { CaptureStoreFolder } from "./folder/CaptureStoreFolder.js"
import { IngestFolder } from "./folder/IngestFolder.js"
import { PlanFolder } from "./folder/PlanStoreFolder.js"
import { GateLive } from "./GateLive.js"
import { GrantsFolder } from "./GrantsLayer.js"
import { JournalLive } from "./JournalLive.js"
import { MonitorLive } from "./MonitorLive.js"
import { guardEveryRegion } from "./PlainFolderGuard.js"
import { SafeHttpLive } from "./SafeHttpLive.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { SourcesLive } from "./SourcesLive.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

/**
 * `guardBind`: the folder's lock reads the binding again in every region and refuses one in a
 * folder bound since (src/layers/PlainFolderGuard.ts, `guardEveryRegion`): the MCP server's in a
 * plain folder, which may be bound while the server runs.
 */
export const CommandsLive = (dir: string, options: { readonly guardBind?: boolean } = {}) =>
  Layer.mergeAll(GateLive, IngestFolder, SourcesLive, ExecFolder).pipe(
    Layer.provideMerge(
      Layer.mergeAll(PlanFolder, JournalLive, MonitorLive, SafeHttpLive, GrantsFolder, CaptureStoreFolder)
    ),
    Layer.provideMerge(Layer.merge(WorkTreeLive, SandboxBwrap)),
    Layer.provideMerge(
      options.guardBind === true
        ? Layer.map(
          BaseLive(dir),
          (c) => Context.add(c, Lock, guardEveryRegion(Context.get(c, Lock), Context.get(c, Workdir).root))
        )
        : BaseLive(dir)
    )
  )

export type CommandServices = Layer.Layer.Success<ReturnType<typeof CommandsLive>>
