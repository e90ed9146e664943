/** The layers the monitor commands use: Scheduler (and, for `next`, Plan and Journal) over the base. */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { JournalLive } from "./JournalLive.js"
import { PlanFolder } from "./folder/PlanStoreFolder.js"
import { SchedulerLive } from "./SchedulerLive.js"

export const SchedulerLayer = (dir: string) => SchedulerLive.pipe(Layer.provideMerge(BaseLive(dir)))

export const NextLayer = (dir: string) =>
  Layer.mergeAll(SchedulerLive, PlanFolder, JournalLive).pipe(Layer.provideMerge(BaseLive(dir)))
