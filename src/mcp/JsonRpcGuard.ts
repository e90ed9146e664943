/**
 * The edge of the MCP server's stdio: every line a client sends passes through `incoming`,
 * every line the server writes through `outgoing`. The official SDK's server (./Server.ts)
 * serves well-formed requests, but its stdio transport answers nothing to a line that is not
 * JSON or not a request (it reports it to `onerror`), and it knows only the handshake revisions.
 * So the guard answers what JSON-RPC 2.0 says it must itself — `-32700` for a line that is not
 * JSON, `-32600` for a message that is not a request (a batch included: MCP has none since
 * 2025-06-18), nested deeper than `MAX_DEPTH` or giving a key twice outside a tool call's
 * arguments (within them the call is refused, ./Tools.ts), `-32601` for an unknown method — and hands the
 * server only requests and notifications it knows, each request under an id of its own (a
 * positive integer, mapped back on the answer), so any id a client uses (string, zero,
 * negative, fractional) is answered under that same id.
 *
 * It also speaks the stateless revision 2026-07-28 beside the handshake ones: `server/discover`
 * is answered here, a request whose `_meta` names a protocol version is checked
 * (`-32022` UnsupportedProtocolVersion with `{supported, requested}` for one it does not serve),
 * and the answer to a 2026-07-28 request carries `resultType: "complete"` and that revision's
 * codes (resource not found: `-32602` with `{uri}`; the older revisions' `-32002`).
 *
 * Pure apart from its own bookkeeping: no I/O, never throws (property-tested).
 */
import { clipped, REFUSAL_MESSAGE_MAX } from "../domain/Clip.js"
import { type DuplicateAt, duplicateKeyAt } from "../domain/DuplicateKeys.js"
import { IdScanner } from "./Lines.js"

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603
export const RESOURCE_NOT_FOUND = -32002
export const UNSUPPORTED_PROTOCOL_VERSION = -32022

/** Deepest nesting of arrays and objects in one message (a tool's inline input needs far less). */
export const MAX_DEPTH = 64

/** The stateless revision: no handshake, the version in every request's `_meta`. */
export const STATELESS_REVISIONS: ReadonlyArray<string> = ["2026-07-28"]
/** The handshake revisions (`initialize`), newest first. */
export const HANDSHAKE_REVISIONS: ReadonlyArray<string> = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
export const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

/**
 * Results 2026-07-28 lets a client cache: they carry `ttlMs` and `cacheScope`. This server says
 * 0 ms, private: the folder changes under it (resources), and a list is cheap to ask again.
 */
const CACHEABLE = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "server/discover"
])
const NO_CACHE = { ttlMs: 0, cacheScope: "private" }

type Id = string | number

/** What to do with one line from the client. */
export type Incoming =
  /** Give this line (one JSON message) to the server. */
  | {
    readonly _tag: "Forward"
    readonly line: string
    readonly method: string
    /**
     * A `tools/call` whose arguments give one key twice in an object: its path from `arguments`
     * (`input.id`). `JSON.parse` kept the last one; the call is refused with this (./Tools.ts).
     */
    readonly duplicate?: DuplicateAt
  }
  /** Answer the client with this line; the server never sees the message. */
  | { readonly _tag: "Reply"; readonly line: string }
  /** Nothing to do (a blank line, an unknown notification, a response to nothing). */
  | { readonly _tag: "Ignore" }

export interface GuardOptions {
  /** Methods the server answers. */
  readonly requests: ReadonlySet<string>
  /** Notifications the server takes. */
  readonly notifications: ReadonlySet<string>
  /** The answer to `server/discover` (without `resultType`, added here). */
  readonly discover: Readonly<Record<string, unknown>>
}

interface Pending {
  readonly id: Id
  readonly method: string
  /** Asked under the stateless revision (answered in its terms). */
  readonly stateless: boolean
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isId = (u: unknown): u is Id => typeof u === "string" || (typeof u === "number" && Number.isFinite(u))

/** A JSON-RPC error response, as one line. */
export const errorLine = (id: Id | null, code: number, message: string, data?: unknown): string =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } })

/** How deep arrays and objects nest in a JSON text (outside strings), counted without parsing. */
export const nestingDepth = (text: string): number => {
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return max
}

/**
 * An error message's backstop, as every refusal's (../domain/Clip.ts): its values were clipped
 * one by one first (a tool name, a URI: their first and last 256 around the marker), so the
 * message keeps them whole; a longer one keeps its beginning and end around the same marker.
 */
const clip = (s: string) => clipped(s, REFUSAL_MESSAGE_MAX)

/** The problems of a schema validation error's message (a JSON array of {path, message}), as text. */
const paramProblems = (text: string): string | undefined => {
  if (!text.startsWith("[")) return undefined
  try {
    const problems: unknown = JSON.parse(text)
    if (!Array.isArray(problems)) return undefined
    return problems
      .filter(isObject)
      .map((i) =>
        `${Array.isArray(i["path"]) ? i["path"].join(".") : "params"}: ${
          typeof i["message"] === "string" ? i["message"] : "invalid"
        }`
      )
      .join("; ")
  } catch {
    return undefined
  }
}

export class JsonRpcGuard {
  private next = 1
  /** By the server's id: the client's id and the method. */
  private readonly pending = new Map<number, Pending>()
  /** By the client's id (as JSON, so 1 and "1" differ): the server's id. */
  private readonly byClientId = new Map<string, number>()

  constructor(private readonly options: GuardOptions) {}

  /** Requests handed to the server and not yet answered. */
  get inFlight(): number {
    return this.pending.size
  }

  incoming(line: string): Incoming {
    if (line.trim() === "") return { _tag: "Ignore" }
    if (nestingDepth(line) > MAX_DEPTH) {
      const scanner = new IdScanner()
      scanner.feed(Buffer.from(line, "utf8"))
      return {
        _tag: "Reply",
        line: errorLine(scanner.id(), INVALID_REQUEST, `Invalid Request: nested deeper than ${MAX_DEPTH} levels`)
      }
    }
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch (e) {
      return { _tag: "Reply", line: errorLine(null, PARSE_ERROR, `Parse error: ${clip(String((e as Error).message))}`) }
    }
    if (Array.isArray(message)) {
      return {
        _tag: "Reply",
        line: errorLine(null, INVALID_REQUEST, "Invalid Request: batches are not supported (MCP 2025-06-18)")
      }
    }
    if (!isObject(message)) {
      return { _tag: "Reply", line: errorLine(null, INVALID_REQUEST, "Invalid Request: not a JSON-RPC message object") }
    }
    const hasId = Object.hasOwn(message, "id")
    const id = message["id"]
    const replyId: Id | null = hasId && isId(id) ? id : null
    if (message["jsonrpc"] !== "2.0") {
      return { _tag: "Reply", line: errorLine(replyId, INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"") }
    }
    const method = message["method"]
    if (!Object.hasOwn(message, "method")) {
      // A response (result or error under an id): this server sends no requests, so it answers nothing.
      if (hasId && (Object.hasOwn(message, "result") || Object.hasOwn(message, "error"))) return { _tag: "Ignore" }
      return { _tag: "Reply", line: errorLine(replyId, INVALID_REQUEST, "Invalid Request: no method") }
    }
    if (typeof method !== "string") {
      return { _tag: "Reply", line: errorLine(replyId, INVALID_REQUEST, "Invalid Request: method must be a string") }
    }
    if (hasId && !isId(id)) {
      return {
        _tag: "Reply",
        line: errorLine(null, INVALID_REQUEST, "Invalid Request: id must be a string or a number")
      }
    }
    // A key given twice: within a tool's arguments the call is refused as the CLI refuses the same
    // input file; anywhere else in the message, the request itself is ill-formed (-32600).
    const repeated = duplicateKeyAt(line)
    let inArguments: DuplicateAt | undefined
    if (repeated !== null) {
      const [first, second, ...rest] = repeated.path
      if (hasId && method === "tools/call" && first === "params" && second === "arguments" && rest.length > 0) {
        inArguments = { path: rest, message: repeated.message }
      } else if (!hasId) return { _tag: "Ignore" }
      else {
        const at = repeated.path.slice(0, -1).join(".")
        return {
          _tag: "Reply",
          line: errorLine(
            first === "id" ? null : replyId,
            INVALID_REQUEST,
            `Invalid Request: ${at === "" ? "" : `at '${clip(at)}': `}${repeated.message}`
          )
        }
      }
    }
    const params = message["params"]
    if (Object.hasOwn(message, "params") && !isObject(params)) {
      return hasId
        ? { _tag: "Reply", line: errorLine(replyId, INVALID_PARAMS, "Invalid params: params must be an object") }
        : { _tag: "Ignore" }
    }
    if (!hasId) {
      if (!this.options.notifications.has(method)) return { _tag: "Ignore" }
      if (method === "notifications/cancelled" && isObject(params)) {
        // The server knows the request by its own id.
        const key = isId(params["requestId"]) ? JSON.stringify(params["requestId"]) : undefined
        const ours = key === undefined ? undefined : this.byClientId.get(key)
        if (ours === undefined) return { _tag: "Ignore" }
        // A cancelled request is never answered (MCP): it is no longer in flight, and an answer
        // that comes all the same is dropped.
        this.pending.delete(ours)
        this.byClientId.delete(key!)
        return {
          _tag: "Forward",
          method,
          line: JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, requestId: ours } })
        }
      }
      return {
        _tag: "Forward",
        method,
        line: JSON.stringify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) })
      }
    }
    if (this.options.notifications.has(method)) {
      return {
        _tag: "Reply",
        line: errorLine(replyId, INVALID_REQUEST, `Invalid Request: ${method} is a notification and takes no id`)
      }
    }
    // The stateless revision: the version a request is asked under is in its `_meta`.
    const meta = isObject(params) && isObject(params["_meta"]) ? params["_meta"] : undefined
    const stateless = meta !== undefined && Object.hasOwn(meta, PROTOCOL_VERSION_KEY)
    if (stateless) {
      const requested = meta![PROTOCOL_VERSION_KEY]
      if (typeof requested !== "string" || !STATELESS_REVISIONS.includes(requested)) {
        return {
          _tag: "Reply",
          line: errorLine(
            replyId,
            UNSUPPORTED_PROTOCOL_VERSION,
            `Unsupported protocol version: ${clip(String(requested))}`,
            {
              supported: [...STATELESS_REVISIONS, ...HANDSHAKE_REVISIONS],
              requested: typeof requested === "string" ? clip(requested) : null
            }
          )
        }
      }
      if (!isObject(meta![CLIENT_CAPABILITIES_KEY])) {
        return {
          _tag: "Reply",
          line: errorLine(
            replyId,
            INVALID_PARAMS,
            `Invalid params: _meta must carry ${CLIENT_CAPABILITIES_KEY} (an object) with ${PROTOCOL_VERSION_KEY}`
          )
        }
      }
    }
    if (method === "server/discover") {
      const discover = this.options.discover
      const result = {
        resultType: "complete",
        ...NO_CACHE,
        ...discover,
        _meta: { [SERVER_INFO_KEY]: discover["serverInfo"] }
      }
      return { _tag: "Reply", line: JSON.stringify({ jsonrpc: "2.0", id, result }) }
    }
    if (!this.options.requests.has(method)) {
      return { _tag: "Reply", line: errorLine(replyId, METHOD_NOT_FOUND, `Method not found: ${clip(method)}`) }
    }
    const key = JSON.stringify(id)
    if (this.byClientId.has(key)) {
      return {
        _tag: "Reply",
        line: errorLine(
          replyId,
          INVALID_REQUEST,
          "Invalid Request: this id is already in use by a request not yet answered"
        )
      }
    }
    const ours = this.next++
    this.pending.set(ours, { id: id as Id, method, stateless })
    this.byClientId.set(key, ours)
    // tools/call without arguments is a call with none.
    const forwarded = method === "tools/call" && isObject(params) && !Object.hasOwn(params, "arguments")
      ? { ...params, arguments: {} }
      : params
    return {
      _tag: "Forward",
      method,
      line: JSON.stringify({
        jsonrpc: "2.0",
        id: ours,
        method,
        ...(forwarded === undefined ? {} : { params: forwarded })
      }),
      ...(inArguments === undefined ? {} : { duplicate: inArguments })
    }
  }

  /** The line to send the client for one line the server wrote, or undefined to send nothing. */
  outgoing(line: string): string | undefined {
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      return undefined
    }
    if (!isObject(message)) return undefined
    // Notifications from the server (no id) go out as they are.
    if (Object.hasOwn(message, "method") && !Object.hasOwn(message, "id")) return line
    const ours = typeof message["id"] === "number" ? message["id"] : undefined
    const pending = ours === undefined ? undefined : this.pending.get(ours)
    // An answer to no request in flight (one the client cancelled): nothing to send.
    if (pending === undefined) return undefined
    this.pending.delete(ours!)
    this.byClientId.delete(JSON.stringify(pending.id))
    const error = message["error"]
    if (isObject(error)) {
      const code = typeof error["code"] === "number" && Number.isInteger(error["code"]) && error["code"] !== 0
        ? error["code"]
        : INTERNAL_ERROR
      const data = isObject(error["data"]) && typeof error["data"]["uri"] === "string"
        ? { uri: error["data"]["uri"] }
        : undefined
      // The SDK's errors repeat their code in the message ("MCP error -32602: …").
      const text = typeof error["message"] === "string"
        ? error["message"].replace(/^(MCP error -?\d+: )+/, "")
        : "Error"
      if (code === INTERNAL_ERROR) {
        // Params the SDK's own schemas refused (its message lists the problems); any other
        // internal error says nothing of the inside.
        const problems = paramProblems(text)
        return problems === undefined
          ? errorLine(pending.id, INTERNAL_ERROR, "Internal error")
          : errorLine(pending.id, INVALID_PARAMS, `Invalid params for ${pending.method}: ${clip(problems)}`)
      }
      // 2026-07-28 answers a missing resource with -32602 (data {uri}); earlier revisions with -32002.
      const answered = code === RESOURCE_NOT_FOUND && pending.stateless ? INVALID_PARAMS : code
      return errorLine(pending.id, answered, clip(text), data)
    }
    let result = isObject(message["result"]) ? message["result"] : {}
    if (pending.stateless) {
      result = { resultType: "complete", ...(CACHEABLE.has(pending.method) ? NO_CACHE : {}), ...result }
    }
    return JSON.stringify({ jsonrpc: "2.0", id: pending.id, result })
  }
}
