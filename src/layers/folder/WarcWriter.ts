/**
 * WarcWriter: the WARC/1.1 file of a fetch (src/domain/Warc.ts), each record gzipped as its own
 * member on libuv's thread pool. Folder-side work beside the CaptureStore port: it makes bytes,
 * the port keeps them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomUUID } from "node:crypto"
import { constants, gzip } from "node:zlib"
import { warcRecords } from "../../domain/Warc.js"
import { WarcWriter } from "../../services/ports/CaptureStore.js"

const SOFTWARE = "dossier/0.1 (research capture)"

/** At least the size of a gzip member of `n` bytes, stored blocks included (zlib's deflateBound, plus the gzip header and trailer). */
const gzipBound = (n: number): number => Math.max(64, n + (n >>> 12) + (n >>> 14) + (n >>> 25) + 64)

/**
 * Gzip each record as its own member on libuv's thread pool, started before the extraction so the
 * compression runs beside it (the main thread is busy extracting meanwhile). The fastest level:
 * the record is an archive of text, and level 6 costs about three times as much for ~25% less.
 * The output chunk is as large as the record could compress to: with zlib's default 16 KiB, each
 * chunk is one trip to the pool and back to the main thread, so only the first chunk was
 * compressed during the extraction and the rest (a hundred trips for a 2 MiB page) after it; one
 * chunk is one trip, made beside the extraction.
 */
const gzipMembers = (records: ReadonlyArray<Buffer>): Promise<Buffer> =>
  Promise.all(
    records.map((r) =>
      new Promise<Buffer>((resolve, reject) =>
        gzip(
          r,
          { level: constants.Z_BEST_SPEED, chunkSize: gzipBound(r.byteLength) },
          (e, out) => (e === null ? resolve(out) : reject(e))
        )
      )
    )
  ).then(
    (members) => Buffer.concat(members)
  )

export const WarcWriterLive: Layer.Layer<WarcWriter> = Layer.succeed(
  WarcWriter,
  WarcWriter.of({
    start: (exchanges) =>
      Effect.sync(() => {
        const compressing = gzipMembers(
          warcRecords({ exchanges, software: SOFTWARE, newId: () => `<urn:uuid:${randomUUID()}>` })
        )
        return Effect.promise(() => compressing)
      })
  })
)
