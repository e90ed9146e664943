/** Ingest over the work folder: the capture logic over `CaptureStoreFolder` and `WarcWriterLive`. */
import * as Layer from "effect/Layer"
import type { FileStore } from "../../services/FileStore.js"
import type { Ingest } from "../../services/Ingest.js"
import type { Lock } from "../../services/Lock.js"
import type { SafeHttp } from "../../services/SafeHttp.js"
import type { Workdir } from "../../services/Workdir.js"
import { IngestLive } from "../IngestLive.js"
import { CaptureStoreFolder } from "./CaptureStoreFolder.js"
import { WarcWriterLive } from "./WarcWriter.js"

export const IngestFolder: Layer.Layer<Ingest, never, SafeHttp | FileStore | Lock | Workdir> = IngestLive.pipe(
  Layer.provide(Layer.merge(CaptureStoreFolder, WarcWriterLive))
)
