/**
 * The layer the monitor commands use: Monitor over the base. `dossier next`'s, which adds the plan
 * and the journals, is in ./NextLayer.ts, so that a monitor command does not initialize them.
 */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { MonitorLive } from "./MonitorLive.js"

export const MonitorLayer = (dir: string) => MonitorLive.pipe(Layer.provideMerge(BaseLive(dir)))
