/**
 * `dossier ingest` in a bound folder: captures into the shared dossier's capture log and bytes
 * (the WARC record and the fetch are this host's).
 */
import * as Layer from "effect/Layer"
import type { IngestLayer } from "../folder/IngestFolder.js"
import { WarcWriterLive } from "../folder/WarcWriter.js"
import { IngestLive } from "../IngestLive.js"
import { CaptureStorePostgres } from "../postgres/CaptureStorePostgres.js"
import { SafeHttpLive } from "../SafeHttpLive.js"
import { BoundBase, type BoundError, type StoreMode } from "./BoundBase.js"

/** `IngestLayer`'s services over the store. */
export const layer = (
  dir: string,
  mode: StoreMode
): Layer.Layer<Layer.Layer.Success<ReturnType<typeof IngestLayer>>, BoundError> =>
  IngestLive.pipe(
    Layer.provide(Layer.merge(CaptureStorePostgres, WarcWriterLive)),
    Layer.provideMerge(SafeHttpLive),
    Layer.provideMerge(BoundBase(dir, mode))
  )
