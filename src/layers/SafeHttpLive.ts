/**
 * SafeHttp on Node with undici 7. One implementation, `makeSafeHttp(config)`, serves both the
 * live layer (system resolver, real policy, nothing configurable) and the test layer (an
 * injected resolver and policy). How the policy is enforced:
 *
 * - The URL (and every `Location`) is parsed by the WHATWG parser and checked: scheme,
 *   credentials, `localhost` names, literal addresses. Node's `net.connect` skips its lookup for
 *   an IP literal, so literals are checked here, before any request.
 * - A name is resolved once (getaddrinfo, by `getent ahosts` in a child process the deadline
 *   ends); every answer must pass the policy.
 * - Each hop gets its own undici Agent whose connector's `lookup` returns exactly the checked
 *   answers for exactly that host (anything else fails), so there is no second lookup between
 *   check and connect. The connector also compares the socket's remote address with the checked
 *   set before a byte is sent. TLS keeps the host name for SNI and certificate checks.
 * - Redirects are followed by hand (at most 5), each hop checked like the first.
 * - `Accept-Encoding: identity`; any other `Content-Encoding` is refused. Content type and UTF-8
 *   rules; the 2 MiB cap counted on the stream; one deadline from DNS to the last body byte.
 * - For the WARC record of a capture, the connector also keeps a copy of the bytes the socket
 *   carried (what undici wrote, what it read; after TLS) and the address it was pinned to. This
 *   observes the connection only: the request, the checks and the reading are unchanged, except
 *   that a redirect's body is now read (up to the same cap, then cut) so the record can hold it.
 * - Interim (1xx) responses a server sends before the final one (an unrequested `100 Continue`,
 *   `103 Early Hints`) are read past, as RFC 9110 asks of a client: undici sees the final one.
 *
 * Over 400 lines: the policy is enforced at each step of one request (parse, resolve, connect,
 * redirect, read); kept in one file so a reader sees every check of a fetch together.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import ipaddr from "ipaddr.js"
import { execFile } from "node:child_process"
import * as dns from "node:dns"
import type { Socket } from "node:net"
import type { Agent, buildConnector } from "undici"
import {
  type AddressPolicy,
  bareHost,
  checkAddress,
  checkUrl,
  plainName,
  publicUnicastPolicy,
  type Target
} from "../domain/DestinationPolicy.js"
import {
  checkContentType,
  checkEncoding,
  checkNotEmpty,
  decodeBody,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_BODY_BYTES,
  MAX_REDIRECTS
} from "../domain/IngestContent.js"
import {
  ConnectionFailed,
  DnsFailure,
  type ForbiddenDestination,
  HttpStatus,
  type IngestError,
  ResponseTooLarge,
  Timeout,
  TooManyRedirects,
  UnsupportedContent
} from "../domain/IngestErrors.js"
import { interimHead, MAX_INTERIM_RESPONSES, switchesProtocols } from "../domain/Interim.js"
import { type Exchange, type Fetched, SafeHttp, type SafeHttpShape } from "../services/SafeHttp.js"

export interface Answer {
  readonly address: string
  readonly family: number
}

/**
 * Resolve a host name to all its addresses (rejecting when it does not resolve). `signal` aborts
 * when the fetch's deadline passed: a resolver that can stop its lookup should.
 */
export type Resolver = (host: string, signal?: AbortSignal) => Promise<ReadonlyArray<Answer>>

/**
 * The addresses in `getent ahosts` output, in its order, each once (it prints one line per socket
 * type: `<address> STREAM <name>`, `<address> DGRAM`, `<address> RAW`).
 */
export const getentAnswers = (output: string): ReadonlyArray<Answer> => {
  const seen = new Set<string>()
  const answers: Array<Answer> = []
  for (const line of output.split("\n")) {
    const address = line.trim().split(/\s+/)[0] ?? ""
    if (address === "" || seen.has(address)) continue
    seen.add(address)
    answers.push({ address, family: address.includes(":") ? 6 : 4 })
  }
  return answers
}

/** getent's exit status for a name that does not resolve (any other failure: getent is unusable here). */
const GETENT_NOT_FOUND = 2

/**
 * The system's answer: getaddrinfo, as `dns.lookup({all: true})` asks it (/etc/hosts, DNS, whatever
 * the host's name service says), run by `getent ahosts` in a child process that the deadline ends.
 * In this process the lookup cannot be stopped: getaddrinfo runs on libuv's thread pool, which the
 * process waits for even in `process.exit`, so a name server that never answers held `dossier
 * ingest --timeout 1` until the resolver gave up (and held one of the pool's four threads). Where
 * getent is missing or cannot answer, the lookup runs here, as before.
 */
export const systemResolver: Resolver = (host, signal) =>
  new Promise<ReadonlyArray<Answer>>((resolve, reject) => {
    execFile(
      "getent",
      ["ahosts", "--", host],
      { ...(signal === undefined ? {} : { signal }), encoding: "utf8", maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        if (error === null) return resolve(getentAnswers(stdout))
        if (signal?.aborted === true || error.code === GETENT_NOT_FOUND) return reject(error)
        dns.promises.lookup(host, { all: true, verbatim: true }).then(resolve, reject)
      }
    )
  })

export interface SafeHttpConfig {
  readonly resolve: Resolver
  readonly policy: AddressPolicy
  /**
   * Observes every connection attempt (`connecting`, before any socket exists) and every socket
   * that reached a checked address (`connected`). Observation only; it cannot change a decision.
   */
  readonly observe?: (event: ConnectEvent) => void
}

export type ConnectEvent =
  | { readonly phase: "connecting"; readonly host: string }
  | { readonly phase: "connected"; readonly host: string; readonly address: string }

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

const HEADERS = {
  "accept-encoding": "identity",
  accept: "text/html, application/xhtml+xml, text/plain;q=0.9, */*;q=0.1",
  "user-agent": "dossier/0.1 (research capture)"
}

const codeOf = (e: unknown): string => {
  const err = e as { code?: unknown; cause?: { code?: unknown } } | undefined
  const code = err?.code ?? err?.cause?.code
  return typeof code === "string" && code.length > 0 ? code.slice(0, 80) : "error"
}

const sameAddress = (a: string, b: string): boolean => {
  try {
    return ipaddr.process(a).toNormalizedString() === ipaddr.process(b).toNormalizedString()
  } catch {
    return false
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | ReadonlyArray<Answer>,
  family?: number
) => void

/** A `lookup` for net/tls.connect that only ever answers the checked addresses of one host. */
const pinnedLookup =
  (host: string, answers: ReadonlyArray<Answer>) =>
  (hostname: string, options: unknown, callback?: LookupCallback): void => {
    const cb = (typeof options === "function" ? options : callback) as LookupCallback
    const opts = (typeof options === "object" && options !== null ? options : {}) as { family?: unknown; all?: boolean }
    const family = opts.family === 4 || opts.family === "IPv4" ? 4 : opts.family === 6 || opts.family === "IPv6" ? 6 : 0
    const list = hostname === host ? answers.filter((a) => family === 0 || a.family === family) : []
    if (list.length === 0) {
      const e: NodeJS.ErrnoException = new Error(`no checked address for ${hostname}`)
      e.code = "ENOTFOUND"
      cb(e, "", 0)
      return
    }
    if (opts.all === true) cb(null, list.map((a) => ({ address: a.address, family: a.family })))
    else cb(null, list[0]!.address, list[0]!.family)
  }

interface Hop {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: NodeJS.ReadableStream & { destroy: (e?: Error) => void }
}

/** Drop a response body we will not read (its abort error is expected and swallowed). */
const discard = (hop: Hop): void => {
  hop.body.on("error", () => {})
  hop.body.destroy()
}

/** What one hop's socket carried, copied as it passed (the WARC record's raw material). */
interface Wire {
  address: string
  readonly sent: Array<Buffer>
  readonly received: Array<Buffer>
  /** The final response opened with `101 Switching Protocols` (undici then fails the request). */
  switched: boolean
}

const newWire = (): Wire => ({ address: "", sent: [], received: [], switched: false })

/**
 * Keep a copy of every chunk undici writes to and reads from the socket. undici writes the
 * request head as latin1 strings and reads with `socket.read()` on 'readable'; both calls are
 * passed through unchanged, except that interim (1xx) responses before the final one are read
 * past (src/domain/Interim.ts): undici would fail an unrequested `100 Continue` as a socket error
 * (and keep a `103 Early Hints` at the head of the WARC's response record, where a reader takes
 * it for the response). The record holds what undici read: the final response.
 */
const tap = (socket: Socket, wire: Wire): void => {
  const write = socket.write as (...args: Array<unknown>) => boolean
  socket.write = function(this: Socket, chunk: unknown, ...rest: Array<unknown>) {
    if (typeof chunk === "string") {
      wire.sent.push(Buffer.from(chunk, typeof rest[0] === "string" ? (rest[0] as BufferEncoding) : "utf8"))
    } else if (chunk instanceof Uint8Array) wire.sent.push(Buffer.from(chunk))
    return write.call(this, chunk, ...rest)
  } as Socket["write"]
  const read = socket.read
  // The start of the response while it may still be an interim (1xx) one; null once the final
  // response began, from when every chunk is passed on as read.
  let held: Buffer | null = Buffer.alloc(0)
  let interim = 0
  /** Take the interim responses off the start of `held`; the bytes to pass on, or null for "need more". */
  const pastInterim = (): Buffer | null => {
    while (held !== null) {
      const head = interim < MAX_INTERIM_RESPONSES ? interimHead(held) : "final"
      if (head === "incomplete") return null
      if (head === "final") {
        const out: Buffer = held
        wire.switched = switchesProtocols(out)
        held = null
        return out
      }
      held = held.subarray(head)
      interim++
    }
    return null
  }
  socket.read = function(this: Socket, size?: number) {
    while (true) {
      const chunk: unknown = read.call(this, size)
      if (held === null || chunk === null) {
        if (typeof chunk === "string") wire.received.push(Buffer.from(chunk, "latin1"))
        else if (chunk instanceof Uint8Array) {
          wire.received.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        }
        return chunk
      }
      const bytes = typeof chunk === "string"
        ? Buffer.from(chunk, "latin1")
        : Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength)
      held = held.length === 0 ? bytes : Buffer.concat([held, bytes])
      const out = pastInterim()
      if (out !== null) {
        wire.received.push(out)
        return out
      }
    }
  }
}

const exchangeOf = (wire: Wire, url: string, requestedAt: Date, payload: Uint8Array, truncated: boolean): Exchange => ({
  url,
  address: wire.address,
  requestedAt,
  request: Buffer.concat(wire.sent),
  response: Buffer.concat(wire.received),
  payload,
  truncated
})

type Undici = typeof import("undici")

/** undici is loaded on the first fetch, so a dry run (and every other command) starts without it. */
let undiciModule: Promise<Undici> | undefined
const loadUndici = Effect.promise(() => (undiciModule ??= import("undici")))

export const makeSafeHttp = (config: SafeHttpConfig): SafeHttpShape => {
  const { policy, resolve } = config

  const parse = (raw: string, base?: string) =>
    Either.match(checkUrl(policy, raw, base), { onLeft: Effect.fail, onRight: Effect.succeed })

  /** The addresses a hop may connect to: the checked literal, or every checked DNS answer. */
  /** Every answer the resolver gives for `name` (a DnsFailure names the URL's host). */
  const lookup = (name: string, host: string) =>
    Effect.either(Effect.tryPromise({ try: (signal) => resolve(name, signal), catch: () => new DnsFailure({ host }) }))

  /** The first answer the policy refuses, if any. */
  const refused = (host: string, answers: ReadonlyArray<Answer>): ForbiddenDestination | undefined => {
    for (const a of answers) {
      const checked = checkAddress(policy, host, a.address)
      if (Either.isLeft(checked)) return checked.left
    }
    return undefined
  }

  /**
   * The addresses a hop may connect to: the checked literal, or every checked answer for the name.
   * A name written with its trailing dot (`host.`, the absolute spelling of `host`) is also looked
   * up as `host`, and those answers must pass too: the hosts file, which getaddrinfo reads first,
   * names `host` and does not match `host.`, so a name the machine's own table sends to a refused
   * address is refused in either spelling. The socket connects only to the name's own answers.
   */
  const destinations = (target: Target): Effect.Effect<ReadonlyArray<Answer>, DnsFailure | ForbiddenDestination> =>
    Option.match(target.literal, {
      onSome: (address) => Effect.succeed([{ address, family: address.includes(":") ? 6 : 4 }]),
      onNone: () => {
        const plain = plainName(target.host)
        return Effect.all(
          [
            lookup(target.host, target.host),
            plain === undefined ? Effect.succeed(undefined) : lookup(plain, target.host)
          ],
          { concurrency: "unbounded" }
        ).pipe(
          Effect.flatMap(([own, alias]): Effect.Effect<ReadonlyArray<Answer>, DnsFailure | ForbiddenDestination> => {
            const answers = Either.isRight(own) ? own.right : []
            const forbidden = refused(target.host, [
              ...answers,
              ...(alias !== undefined && Either.isRight(alias) ? alias.right : [])
            ])
            if (forbidden !== undefined) return Effect.fail(forbidden)
            if (answers.length === 0) return Effect.fail(new DnsFailure({ host: target.host }))
            return Effect.succeed(answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })))
          })
        )
      }
    })

  const makeAgent = (
    undici: Undici,
    target: Target,
    answers: ReadonlyArray<Answer>,
    timeoutMs: number,
    wire: Wire
  ): Agent => {
    const host = bareHost(target.host)
    const connector = undici.buildConnector(
      { lookup: pinnedLookup(host, answers), timeout: timeoutMs } as buildConnector.BuildOptions
    )
    const connect: buildConnector.connector = (options, callback) => {
      config.observe?.({ phase: "connecting", host: target.host })
      connector(options, (err, socket) => {
        if (err !== null) return callback(err, null)
        const remote = (socket as Socket).remoteAddress ?? ""
        if (!answers.some((a) => sameAddress(a.address, remote))) {
          socket.destroy()
          const e: NodeJS.ErrnoException = new Error("connected to an unchecked address")
          e.code = "UNCHECKED_ADDRESS"
          return callback(e, null)
        }
        config.observe?.({ phase: "connected", host: target.host, address: remote })
        wire.address = remote
        tap(socket as Socket, wire)
        return callback(null, socket)
      })
    }
    return new undici.Agent({
      connect,
      pipelining: 1,
      connections: 1,
      keepAliveTimeout: 1000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs
    })
  }

  const send = (undici: Undici, target: Target, agent: Agent): Effect.Effect<Hop, ConnectionFailed> =>
    Effect.tryPromise({
      try: (signal) =>
        undici.request(target.url, { method: "GET", headers: HEADERS, dispatcher: agent, signal }).then(
          (r): Hop => ({ status: r.statusCode, headers: r.headers, body: r.body as unknown as Hop["body"] })
        ),
      catch: (e) => new ConnectionFailed({ host: target.host, reason: codeOf(e) })
    })

  /**
   * Read a body, at most `MAX_BODY_BYTES`: past it, `ResponseTooLarge`, or with `cut` the bytes
   * read so far, marked truncated (a redirect's body, kept only for the record).
   */
  const readBody = (
    target: Target,
    hop: Hop,
    cut = false
  ): Effect.Effect<{ readonly body: Uint8Array; readonly truncated: boolean }, ResponseTooLarge | ConnectionFailed> =>
    Effect.async<{ readonly body: Uint8Array; readonly truncated: boolean }, ResponseTooLarge | ConnectionFailed>(
      (resume) => {
        const chunks: Array<Buffer> = []
        let total = 0
        let done = false
        const finish = (
          outcome: Effect.Effect<
            { readonly body: Uint8Array; readonly truncated: boolean },
            ResponseTooLarge | ConnectionFailed
          >
        ) => {
          if (done) return
          done = true
          resume(outcome)
        }
        // Pulled with 'readable' + read() rather than 'data' events: the same bytes, counted the same
        // way, but undici hands them over in fewer, larger chunks (bench/ingest.ts measures a 2 MiB body).
        hop.body.on("readable", () => {
          let chunk: Buffer | null
          while (!done && (chunk = hop.body.read() as Buffer | null) !== null) {
            if (total + chunk.length > MAX_BODY_BYTES) {
              discard(hop)
              if (cut) chunks.push(chunk.subarray(0, MAX_BODY_BYTES - total))
              finish(
                cut
                  ? Effect.succeed({ body: Buffer.concat(chunks), truncated: true })
                  : Effect.fail(new ResponseTooLarge({ max: MAX_BODY_BYTES }))
              )
              return
            }
            total += chunk.length
            chunks.push(chunk)
          }
        })
        hop.body.on("end", () =>
          finish(
            Effect.succeed({ body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total), truncated: false })
          ))
        hop.body.on(
          "error",
          (e: unknown) => finish(Effect.fail(new ConnectionFailed({ host: target.host, reason: codeOf(e) })))
        )
        return Effect.sync(() => {
          done = true
          discard(hop)
        })
      }
    )

  const header = (hop: Hop, name: string): string | Array<string> | undefined => hop.headers[name]

  const fetchAll = (raw: string, timeoutMs: number): Effect.Effect<Fetched, IngestError> =>
    Effect.gen(function*() {
      let target = yield* parse(raw)
      const undici = yield* loadUndici
      const redirects: Array<string> = []
      const exchanges: Array<Exchange> = []
      while (true) {
        const answers = yield* destinations(target)
        const current = target
        const wire = newWire()
        const outcome = yield* Effect.acquireUseRelease(
          Effect.sync(() => makeAgent(undici, current, answers, timeoutMs, wire)),
          (agent) =>
            Effect.gen(function*() {
              const requestedAt = new Date(yield* Clock.currentTimeMillis)
              const hop = yield* send(undici, current, agent).pipe(
                Effect.catchTag("ConnectionFailed", (e) =>
                  Effect.fail(wire.switched ? new HttpStatus({ status: 101 }) : e))
              )
              if (REDIRECT_STATUSES.has(hop.status)) {
                const location = header(hop, "location")
                if (typeof location !== "string" || location.length === 0) {
                  discard(hop)
                  return yield* new HttpStatus({ status: hop.status })
                }
                const read = yield* readBody(current, hop, true)
                exchanges.push(exchangeOf(wire, current.url.href, requestedAt, read.body, read.truncated))
                return { _tag: "redirect" as const, location }
              }
              if (hop.status < 200 || hop.status > 299) {
                discard(hop)
                return yield* new HttpStatus({ status: hop.status })
              }
              // No Content / Reset Content: no page, whatever the type says (a 204 names none, mostly).
              if (hop.status === 204 || hop.status === 205) {
                discard(hop)
                const type = header(hop, "content-type")
                return yield* new UnsupportedContent({
                  contentType: (typeof type === "string" ? type : "").slice(0, 200),
                  detected: "empty"
                })
              }
              const encoding = checkEncoding(header(hop, "content-encoding"))
              if (Either.isLeft(encoding)) {
                discard(hop)
                return yield* encoding.left
              }
              const media = checkContentType(header(hop, "content-type"))
              if (Either.isLeft(media)) {
                discard(hop)
                return yield* media.left
              }
              const declared = Number(header(hop, "content-length"))
              if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
                discard(hop)
                return yield* new ResponseTooLarge({ max: MAX_BODY_BYTES })
              }
              const { body } = yield* readBody(current, hop)
              exchanges.push(exchangeOf(wire, current.url.href, requestedAt, body, false))
              const contentType = header(hop, "content-type")
              const declaredType = typeof contentType === "string" ? contentType : media.right.essence
              yield* Either.match(checkNotEmpty(body, declaredType), { onLeft: Effect.fail, onRight: Effect.succeed })
              const text = yield* Either.match(
                decodeBody(body, declaredType),
                { onLeft: Effect.fail, onRight: Effect.succeed }
              )
              return { _tag: "done" as const, status: hop.status, media: media.right, body, text }
            }),
          (agent) =>
            Effect.promise(() => agent.destroy().catch(() => undefined))
        )
        if (outcome._tag === "done") {
          return {
            url: raw,
            finalUrl: current.url.href,
            redirects,
            status: outcome.status,
            contentType: outcome.media.essence,
            kind: outcome.media.kind,
            body: outcome.body,
            text: outcome.text,
            exchanges
          } satisfies Fetched
        }
        if (redirects.length >= MAX_REDIRECTS) return yield* new TooManyRedirects({ max: MAX_REDIRECTS })
        target = yield* parse(outcome.location, current.url.href)
        redirects.push(target.url.href)
      }
    })

  return {
    check: (raw) =>
      Effect.map(parse(raw), (t) => ({ url: t.url.href, host: t.host, literal: Option.isSome(t.literal) })),
    fetch: (raw, options) => {
      const seconds = options?.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS
      return fetchAll(raw, seconds * 1000).pipe(
        Effect.timeoutFail({ duration: Duration.seconds(seconds), onTimeout: () => new Timeout({ seconds }) })
      )
    }
  }
}

/** The live layer: the system resolver and the real policy. Nothing about it is configurable. */
export const SafeHttpLive: Layer.Layer<SafeHttp> = Layer.sync(
  SafeHttp,
  () => makeSafeHttp({ resolve: systemResolver, policy: publicUnicastPolicy })
)
