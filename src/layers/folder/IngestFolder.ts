/** Ingest over the work folder: the capture logic over `CaptureStoreFolder` and `WarcWriterLive`. */
import * as Layer from "effect/Layer"
import type { FileStore } from "../../services/FileStore.js"
import type { Ingest } from "../../services/Ingest.js"
import type { Lock } from "../../services/Lock.js"
import type { SafeHttp } from "../../services/SafeHttp.js"
import type { Workdir } from "../../services/Workdir.js"
import { BaseLive } from "../Base.js"
import { IngestLive } from "../IngestLive.js"
import { SafeHttpLive } from "../SafeHttpLive.js"
import { CaptureStoreFolder } from "./CaptureStoreFolder.js"
import { WarcWriterLive } from "./WarcWriter.js"

export const IngestFolder: Layer.Layer<Ingest, never, SafeHttp | FileStore | Lock | Workdir> = IngestLive.pipe(
  Layer.provide(Layer.merge(CaptureStoreFolder, WarcWriterLive))
)

/** The layer `dossier ingest` uses for a capture or an import: ingest over the work folder `dir`. */
export const IngestLayer = (dir: string) => IngestFolder.pipe(Layer.provide(Layer.merge(SafeHttpLive, BaseLive(dir))))
