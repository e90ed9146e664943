/**
 * SafeHttp: fetch one public http(s) URL under the network policy (a security boundary).
 * Every destination — literal, DNS answer, redirect hop — must be public unicast; the socket
 * connects only to addresses that were checked; at most 5 redirects; identity encoding only;
 * UTF-8 text/html, application/xhtml+xml or text/plain; at most 2 MiB; one deadline from DNS to
 * the last body byte.
 *
 * Layers: `SafeHttpLive` (src/layers/SafeHttpLive.ts: the system resolver and the real policy,
 * nothing configurable) and `SafeHttpTest` (src/layers/SafeHttpTest.ts: the same code with an
 * injected resolver and policy, for tests and the offline demo).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { TargetError } from "../domain/DestinationPolicy.js"
import type { IngestError } from "../domain/IngestErrors.js"
import type { ContentKind } from "../domain/Readable.js"
import type { Exchange } from "../domain/Warc.js"

export type { Exchange } from "../domain/Warc.js"

export interface FetchOptions {
  /** The deadline in seconds, from DNS to the last body byte (default 10). */
  readonly timeoutSeconds?: number
}

export interface Fetched {
  /** The URL as given. */
  readonly url: string
  /** The URL of the response that was kept, after redirects. */
  readonly finalUrl: string
  /** Each redirect hop, in order (absolute URLs). */
  readonly redirects: ReadonlyArray<string>
  readonly status: number
  /** The media type essence: text/html, application/xhtml+xml or text/plain. */
  readonly contentType: string
  readonly kind: ContentKind
  /** The body bytes exactly as received. */
  readonly body: Uint8Array
  /** The body decoded as UTF-8. */
  readonly text: string
  /** Every hop's request and response, in order (the last is the one kept). */
  readonly exchanges: ReadonlyArray<Exchange>
}

export interface Checked {
  /** The URL as the WHATWG parser normalizes it. */
  readonly url: string
  readonly host: string
  /** Whether the host is an address literal (which was checked). */
  readonly literal: boolean
}

export interface SafeHttpShape {
  /** Syntax, scheme, credentials and literal destinations only: no DNS, no connection. */
  readonly check: (url: string) => Effect.Effect<Checked, TargetError>
  /** Fetch under the full policy. */
  readonly fetch: (url: string, options?: FetchOptions) => Effect.Effect<Fetched, IngestError>
}

export class SafeHttp extends Context.Tag("dossier/SafeHttp")<SafeHttp, SafeHttpShape>() {}
