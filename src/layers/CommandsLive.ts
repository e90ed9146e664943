/**
 * Every service a command may use, over one work folder: what the MCP server builds once at
 * start and gives every tool call. The CLI builds only what its command needs (each command's
 * own layer), so that a start loads no more than that. A command whose work needs a service not
 * listed here fails type-checking (src/commands/Work.ts bounds it by `CommandServices`).
 */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { ExecFolder } from "./ExecLayer.js"
import { CaptureStoreFolder } from "./folder/CaptureStoreFolder.js"
import { IngestFolder } from "./folder/IngestFolder.js"
import { PlanFolder } from "./folder/PlanStoreFolder.js"
import { GateLive } from "./GateLive.js"
import { GrantsFolder } from "./GrantsLayer.js"
import { JournalLive } from "./JournalLive.js"
import { MonitorLive } from "./MonitorLive.js"
import { SafeHttpLive } from "./SafeHttpLive.js"
import { SandboxBwrap } from "./SandboxBwrap.js"
import { SourcesLive } from "./SourcesLive.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

export const CommandsLive = (dir: string) =>
  Layer.mergeAll(GateLive, IngestFolder, SourcesLive, ExecFolder).pipe(
    Layer.provideMerge(
      Layer.mergeAll(PlanFolder, JournalLive, MonitorLive, SafeHttpLive, GrantsFolder, CaptureStoreFolder)
    ),
    Layer.provideMerge(Layer.merge(WorkTreeLive, SandboxBwrap)),
    Layer.provideMerge(BaseLive(dir))
  )

export type CommandServices = Layer.Layer.Success<ReturnType<typeof CommandsLive>>
