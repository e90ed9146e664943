/** The layer the journal commands use: Journal over the base (work folder, FileStore, Lock). */
import * as Layer from "effect/Layer"
import { BaseLive } from "./Base.js"
import { JournalLive } from "./JournalLive.js"

export const JournalLayer = (dir: string) => JournalLive.pipe(Layer.provideMerge(BaseLive(dir)))
