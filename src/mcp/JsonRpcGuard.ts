/**
 * The edge of the MCP server's stdio: every line a client sends passes through `incoming`,
 * every line the server writes through `outgoing`. @effect/ai's McpServer (on @effect/rpc's
 * stdio protocol) serves well-formed requests, but on its own a line that is not JSON, a
 * message without `method`, an unknown method or a string `id` stops it answering (its input
 * stream fails, or the id comes back as `null`), and its errors carry `_tag`/`data` fields with
 * the internal cause. The official SDK's stdio transport would not answer malformed lines
 * either (it reports them to `onerror` and sends nothing). So the guard answers what JSON-RPC
 * 2.0 says it must itself — `-32700` for a line that is not JSON, `-32600` for a message that
 * is not a request (a batch included: MCP 2025-06-18 has none), `-32601` for an unknown method —
 * and hands the server only requests and notifications it knows, each request under an id of
 * its own (a positive integer, mapped back on the answer), so any id a client uses (string,
 * zero, negative, fractional) is answered under that same id.
 *
 * Pure apart from its own bookkeeping: no I/O, never throws (property-tested).
 */

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const METHOD_NOT_FOUND = -32601
export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603

type Id = string | number

/** What to do with one line from the client. */
export type Incoming =
  /** Give this line (one JSON message) to the server. */
  | { readonly _tag: "Forward"; readonly line: string; readonly method: string }
  /** Answer the client with this line; the server never sees the message. */
  | { readonly _tag: "Reply"; readonly line: string }
  /** Nothing to do (a blank line, an unknown notification, a response to nothing). */
  | { readonly _tag: "Ignore" }

export interface GuardOptions {
  /** Methods the server answers. */
  readonly requests: ReadonlySet<string>
  /** Notifications the server takes. */
  readonly notifications: ReadonlySet<string>
  /** Added to the answer of `initialize` (MCP's `instructions`). */
  readonly instructions?: string
}

interface Pending {
  readonly id: Id
  readonly method: string
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isId = (u: unknown): u is Id => typeof u === "string" || (typeof u === "number" && Number.isFinite(u))

const errorLine = (id: Id | null, code: number, message: string): string =>
  JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })

const MAX_DETAIL = 400

const clip = (s: string) => (s.length > MAX_DETAIL ? `${s.slice(0, MAX_DETAIL)}…` : s)

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
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch (e) {
      return { _tag: "Reply", line: errorLine(null, PARSE_ERROR, `Parse error: ${clip(String((e as Error).message))}`) }
    }
    if (Array.isArray(message)) {
      return { _tag: "Reply", line: errorLine(null, INVALID_REQUEST, "Invalid Request: batches are not supported (MCP 2025-06-18)") }
    }
    if (!isObject(message)) return { _tag: "Reply", line: errorLine(null, INVALID_REQUEST, "Invalid Request: not a JSON-RPC message object") }
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
    if (typeof method !== "string") return { _tag: "Reply", line: errorLine(replyId, INVALID_REQUEST, "Invalid Request: method must be a string") }
    if (hasId && !isId(id)) {
      return { _tag: "Reply", line: errorLine(null, INVALID_REQUEST, "Invalid Request: id must be a string or a number") }
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
        const ours = isId(params["requestId"]) ? this.byClientId.get(JSON.stringify(params["requestId"])) : undefined
        if (ours === undefined) return { _tag: "Ignore" }
        return { _tag: "Forward", method, line: JSON.stringify({ jsonrpc: "2.0", method, params: { ...params, requestId: ours } }) }
      }
      return { _tag: "Forward", method, line: JSON.stringify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) }) }
    }
    if (this.options.notifications.has(method)) {
      return { _tag: "Reply", line: errorLine(replyId, INVALID_REQUEST, `Invalid Request: ${method} is a notification and takes no id`) }
    }
    if (!this.options.requests.has(method)) return { _tag: "Reply", line: errorLine(replyId, METHOD_NOT_FOUND, `Method not found: ${clip(method)}`) }
    const key = JSON.stringify(id)
    if (this.byClientId.has(key)) {
      return { _tag: "Reply", line: errorLine(replyId, INVALID_REQUEST, "Invalid Request: this id is already in use by a request not yet answered") }
    }
    const ours = this.next++
    this.pending.set(ours, { id: id as Id, method })
    this.byClientId.set(key, ours)
    // tools/call without arguments is a call with none.
    const forwarded = method === "tools/call" && isObject(params) && !Object.hasOwn(params, "arguments")
      ? { ...params, arguments: {} }
      : params
    return { _tag: "Forward", method, line: JSON.stringify({ jsonrpc: "2.0", id: ours, method, ...(forwarded === undefined ? {} : { params: forwarded }) }) }
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
    if (pending === undefined) {
      // An answer to no request of the client's: only a server failure writes one.
      return Object.hasOwn(message, "error") ? errorLine(null, INTERNAL_ERROR, "Internal error") : undefined
    }
    this.pending.delete(ours!)
    this.byClientId.delete(JSON.stringify(pending.id))
    const error = message["error"]
    if (isObject(error)) {
      const data = isObject(error["data"]) ? error["data"] : undefined
      // A cancelled request is not answered (MCP: notifications/cancelled).
      if (data?.["_tag"] === "Interrupt") return undefined
      const code = typeof error["code"] === "number" && error["code"] !== 0 ? error["code"] : undefined
      if (code !== undefined) {
        return errorLine(pending.id, code, typeof error["message"] === "string" ? clip(error["message"]) : "Error")
      }
      // The server failed to decode the request's params (its decoder dies with the Schema's message).
      const defect = data?.["_tag"] === "Die" && typeof data["defect"] === "string" ? data["defect"] : undefined
      return defect === undefined
        ? errorLine(pending.id, INTERNAL_ERROR, "Internal error")
        : errorLine(pending.id, INVALID_PARAMS, `Invalid params for ${pending.method}: ${clip(defect)}`)
    }
    let result = message["result"]
    if (pending.method === "initialize" && isObject(result) && this.options.instructions !== undefined) {
      result = { ...result, instructions: this.options.instructions }
    }
    return JSON.stringify({ jsonrpc: "2.0", id: pending.id, result: result ?? {} })
  }
}
