/** The layer `dossier next` (and, with the grants, `dossier status`) uses: Monitor, Plan and Journal over the base. */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { PlanFolder } from "./folder/PlanStoreFolder.js"
import { JournalLive } from "./JournalLive.js"
import { MonitorLive } from "./MonitorLive.js"

export const NextLayer = (dir: string) =>
  Layer.mergeAll(MonitorLive, PlanFolder, JournalLive).pipe(Layer.provideMerge(BaseLive(dir)))
