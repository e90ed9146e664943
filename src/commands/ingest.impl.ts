/** Implementation of `dossier ingest` (loaded lazily by the command definition). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SafeHttpLive } from "../layers/SafeHttpLive.js"
import { Ingest } from "../services/Ingest.js"
import { SafeHttp } from "../services/SafeHttp.js"
import { usageError, work } from "./Work.js"

export interface IngestOptions {
  readonly url: Option.Option<string>
  readonly workdir: string
  readonly timeout: Option.Option<number>
  readonly dryRun: boolean
  readonly file: Option.Option<string>
  readonly origin: Option.Option<string>
  readonly contentType: Option.Option<string>
  readonly now: Option.Option<Date>
}

/** The command line's own contradictions (a usage error), or nothing. */
const usageProblem = (o: IngestOptions): string | undefined => {
  if (Option.isSome(o.file)) {
    if (Option.isSome(o.url)) {
      return "--file imports a saved page: give no URL argument with it (its URL goes in --origin)"
    }
    if (Option.isNone(o.origin)) return "--file needs --origin <url>: the address the page was saved from"
    if (o.dryRun) return "--dry-run checks a URL before a fetch; --file fetches nothing"
    if (Option.isSome(o.timeout)) return "--timeout bounds a fetch; --file fetches nothing"
    return undefined
  }
  if (Option.isSome(o.origin)) return "--origin is only for --file <path>"
  if (Option.isSome(o.contentType)) return "--content-type is only for --file <path> (a fetch takes the server's)"
  if (Option.isNone(o.url)) return "ingest needs a URL, or --file <path> --origin <url>"
  return undefined
}

/** The capture service (extraction, retention), loaded only when a capture or an import is asked for. */
const ingestLayer = (workdir: string) =>
  Layer.unwrapEffect(
    Effect.promise(() => import("../layers/folder/IngestFolder.js")).pipe(
      Effect.map(({ IngestLayer }) => IngestLayer(workdir))
    )
  )

const files = (
  r: {
    original: { path: string; bytes: number; sha256: string; contentType: string }
    source: { path: string; bytes: number; sha256: string }
  }
) => [
  `  original: ${r.original.path} (${r.original.bytes} bytes, ${r.original.contentType}, sha256 ${r.original.sha256})`,
  `  readable: ${r.source.path} (${r.source.bytes} bytes, sha256 ${r.source.sha256})`
]

export const ingest = (o: IngestOptions) => {
  const problem = usageProblem(o)
  if (problem !== undefined) return usageError(problem)
  const now = Option.match(o.now, { onNone: () => ({}), onSome: (now) => ({ now }) })
  if (Option.isSome(o.file)) {
    const options = {
      ...Option.match(o.contentType, { onNone: () => ({}), onSome: (contentType) => ({ contentType }) }),
      ...now
    }
    return work({
      effect: Effect.flatMap(
        Ingest,
        (ingest) =>
          ingest.importFile(o.file.pipe(Option.getOrElse(() => "")), Option.getOrElse(o.origin, () => ""), options)
      ),
      layer: ingestLayer(o.workdir),
      human: (r) =>
        [
          `imported ${r.file} as a page of ${r.finalUrl}${
            r.reused ? " — identical to an earlier capture, files kept" : ""
          }; nothing was fetched`,
          ...files(r),
          `  recorded at ${r.fetchedAt} as via file: the bytes are the agent's, not the fetcher's (the gate reports them as registered, not capture).`
        ].join("\n")
    })
  }
  const url = Option.getOrElse(o.url, () => "")
  if (o.dryRun) {
    return work({
      effect: Effect.map(
        Effect.flatMap(SafeHttp, (http) => http.check(url)),
        (c) => ({ network: "not_checked" as const, url: c.url, host: c.host, literal: c.literal })
      ),
      layer: SafeHttpLive,
      human: (r) =>
        `dry run: ${r.url} passes the URL checks (host ${r.host}${
          r.literal ? ", a literal address" : ""
        }); no DNS or HTTP request was made and nothing was written.`
    })
  }
  const options = {
    ...Option.match(o.timeout, { onNone: () => ({}), onSome: (timeoutSeconds) => ({ timeoutSeconds }) }),
    ...now
  }
  return work({
    effect: Effect.flatMap(Ingest, (ingest) => ingest.capture(url, options)),
    layer: ingestLayer(o.workdir),
    human: (r) =>
      [
        `captured ${r.finalUrl}${r.redirects.length > 0 ? ` (after ${r.redirects.length} redirect(s))` : ""}${
          r.reused ? " — identical to an earlier capture, files kept" : ""
        }`,
        ...files(r),
        `  warc:     ${r.warc.path} (${r.warc.bytes} bytes, sha256 ${r.warc.sha256}): every hop's request and response as sent and received`,
        `  fetched at ${r.fetchedAt}. The digests prove which bytes were received, not that the page is complete.`
      ].join("\n")
  })
}
