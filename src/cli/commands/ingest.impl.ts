/** Implementation of `dossier ingest` (loaded lazily by the command definition). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { BaseLive } from "../../layers/Base.js"
import { SafeHttpLive } from "../../layers/SafeHttpLive.js"
import { Ingest } from "../../services/Ingest.js"
import { SafeHttp } from "../../services/SafeHttp.js"
import { work } from "../Work.js"

export interface IngestOptions {
  readonly url: string
  readonly workdir: string
  readonly timeout: Option.Option<number>
  readonly dryRun: boolean
  readonly now: Option.Option<Date>
}

export const ingest = (o: IngestOptions) => {
  if (o.dryRun) {
    return work({
      effect: Effect.map(
        Effect.flatMap(SafeHttp, (http) => http.check(o.url)),
        (c) => ({ network: "not_checked" as const, url: c.url, host: c.host, literal: c.literal })
      ),
      layer: SafeHttpLive,
      human: (r) =>
        `dry run: ${r.url} passes the URL checks (host ${r.host}${r.literal ? ", a literal address" : ""}); no DNS or HTTP request was made and nothing was written.`
    })
  }
  const options = {
    ...Option.match(o.timeout, { onNone: () => ({}), onSome: (timeoutSeconds) => ({ timeoutSeconds }) }),
    ...Option.match(o.now, { onNone: () => ({}), onSome: (now) => ({ now }) })
  }
  // The capture (extraction, retention) is loaded only when a capture is asked for: a dry run starts without it.
  const live = Layer.unwrapEffect(
    Effect.promise(() => import("../../layers/IngestLive.js")).pipe(
      Effect.map(({ IngestLive }) => IngestLive.pipe(Layer.provide(Layer.merge(SafeHttpLive, BaseLive(o.workdir)))))
    )
  )
  return work({
    effect: Effect.flatMap(Ingest, (ingest) => ingest.capture(o.url, options)),
    layer: live,
    human: (r) =>
      [
        `captured ${r.finalUrl}${r.redirects.length > 0 ? ` (after ${r.redirects.length} redirect(s))` : ""}${r.reused ? " — identical to an earlier capture, files kept" : ""}`,
        `  original: ${r.original.path} (${r.original.bytes} bytes, ${r.original.contentType}, sha256 ${r.original.sha256})`,
        `  readable: ${r.source.path} (${r.source.bytes} bytes, sha256 ${r.source.sha256})`,
        `  fetched at ${r.fetchedAt}. The digests prove which bytes were received, not that the page is complete.`
      ].join("\n")
  })
}
