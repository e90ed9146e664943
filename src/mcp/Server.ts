/**
 * `dossier mcp`: the Model Context Protocol over stdio (JSON-RPC 2.0, one message per line)
 * for one work folder, fixed at start. The protocol layer is the official TypeScript SDK's
 * `Server` (handshake revisions 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05; @effect/ai's
 * McpServer answers 2025-06-18 at most and takes no method of its own, so it could serve neither
 * 2025-11-25 nor `server/discover`), on a stdio transport of ours: stdin passes through the line
 * reader (./Lines.ts: `MAX_MESSAGE_BYTES`) and the JSON-RPC guard (./JsonRpcGuard.ts: malformed
 * and too deep messages, the stateless revision 2026-07-28), and every answer back through the
 * guard. The one command table (src/commands/Specs.ts) gives the tools (./Tools.ts), the services are
 * built once at start (and once more over the shared dossier when a plain folder is bound while
 * the server runs) and each call runs the command's Effect on them, in a fiber of its own that
 * a client's `notifications/cancelled` interrupts. Resources: ./Resources.ts.
 *
 * Closing stdin ends the server: the requests already read are answered first (for at most
 * `DRAIN_MS`, after which they are cancelled), then the services are released and the process
 * exits 0.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import { isBoundFolder } from "../commands/Cwd.js"
import { allSchemas } from "../commands/schemas/index.js"
import { commandSpecs } from "../commands/Specs.js"
import type { CommandFailure } from "../commands/Work.js"
import { clipped } from "../domain/Clip.js"
import type { DuplicateAt } from "../domain/DuplicateKeys.js"
import type { ViewNote } from "../domain/ViewNote.js"
import { type CommandServices, CommandsLive } from "../layers/CommandsLive.js"
import { stopAll } from "../layers/RunStops.js"
import { Workdir } from "../services/Workdir.js"
import {
  errorLine,
  HANDSHAKE_REVISIONS,
  INVALID_PARAMS,
  INVALID_REQUEST,
  JsonRpcGuard,
  PARSE_ERROR,
  STATELESS_REVISIONS
} from "./JsonRpcGuard.js"
import { LineReader } from "./Lines.js"
import { resourceHandlers } from "./Resources.js"
import { offersWrites, refusalResult, toolCatalogue, type ToolSelection } from "./Tools.js"

/** After stdin closes, answers to requests already read are awaited at most this long. */
export const DRAIN_MS = 10_000

/** The largest message the server reads: a longer line is refused unread (-32600). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024

export const INSTRUCTIONS =
  "dossier keeps research in one work folder so that another agent or a person can check it and continue. " +
  "Call `status` first. Each tool is a dossier command; its arguments are the command's flags in camelCase, `input` the command's input file as JSON inline (at most 64 KiB). " +
  "A success is {ok: true, …}; a refusal isError with {ok: false, error: {_tag, message, retryable, hint, …}}: hint says what to do. " +
  "Tool lists sketch nested inputs and outputs; the `schema` tool gives each whole schema. " +
  "Inspect before retrying an uncertain write; quote sources verbatim; register a source in the plan before citing it. " +
  "A SHA-256 proves that a file is the one registered, not that it is true."

/** The methods the server answers (the SDK's handlers, and `server/discover` in the guard). */
const REQUESTS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "server/discover"
])
const NOTIFICATIONS = new Set([
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed"
])

/**
 * The lists come whole (they never carry a `nextCursor`), so a cursor is one this server never
 * gave: the protocol's answer to an invalid cursor is -32602, not the first page again.
 */
const wholeList = (params: { readonly cursor?: string | undefined } | undefined) => {
  if (params?.cursor !== undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid cursor '${clipped(params.cursor)}': this server gives each list whole; ask without a cursor`
    )
  }
}

/** stdio through the line reader and the guard: what the SDK's server reads and writes. */
class GuardedStdio implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private readonly reader = new LineReader(MAX_MESSAGE_BYTES)
  private closed = false

  constructor(
    private readonly guard: JsonRpcGuard,
    private readonly input: NodeJS.ReadableStream,
    private readonly write: (line: string) => void,
    /** Called once stdin has ended. */
    private readonly ended: () => void,
    /** Tool calls whose arguments gave a key twice, by the id the server knows them under. */
    private readonly repeated: Map<string | number, DuplicateAt> = new Map()
  ) {}

  async start(): Promise<void> {
    this.input.on("data", (chunk: Buffer) => this.items(this.reader.push(chunk)))
    this.input.on("end", () => {
      this.items(this.reader.end())
      this.ended()
    })
    this.input.on("error", () => this.ended())
  }

  private items(items: ReturnType<LineReader["push"]>) {
    for (const item of items) {
      if (item._tag === "TooLarge") {
        this.write(errorLine(
          item.id,
          INVALID_REQUEST,
          `Invalid Request: a message is at most ${MAX_MESSAGE_BYTES} bytes (this one: ${item.bytes})`
        ))
        continue
      }
      if (item._tag === "NotUtf8") {
        this.write(errorLine(
          item.id,
          PARSE_ERROR,
          `Parse error: a message is UTF-8 text; the byte at offset ${item.offset} is not valid UTF-8`
        ))
        continue
      }
      const verdict = this.guard.incoming(item.line)
      if (verdict._tag === "Reply") this.write(verdict.line)
      else if (verdict._tag === "Forward") {
        const message = JSON.parse(verdict.line) as JSONRPCMessage
        // The SDK's server drops, unanswered, a request its envelope schema refuses (a `_meta`
        // that is not an object, a progress token neither a string nor an integer): answer it
        // here, under the client's id (the guard maps it back and forgets the request).
        const checked = "id" in message ? JSONRPCRequestSchema.safeParse(message) : undefined
        if (checked !== undefined && !checked.success) {
          const problems = checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
          const line = this.guard.outgoing(
            errorLine((message as { id: number }).id, INVALID_PARAMS, `Invalid params: ${problems}`)
          )
          if (line !== undefined) this.write(line)
        } else {
          if (verdict.duplicate !== undefined && "id" in message && message.id !== undefined) {
            this.repeated.set(message.id, verdict.duplicate)
          }
          this.onmessage?.(message)
        }
      }
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return
    const line = this.guard.outgoing(JSON.stringify(message))
    if (line !== undefined) this.write(line)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.onclose?.()
  }
}

export interface ServeOptions {
  /** The work folder as given (`--workdir`); resolved once. */
  readonly dir: string
  readonly name: string
  readonly version: string
  /** Which tools to offer (`--read-only`, `--tools`); default every one. */
  readonly select?: ToolSelection
  /** Called once the folder is resolved, with its real path (the CLI changes into it). */
  readonly onRoot?: (root: string) => void
}

/** Serve until stdin closes. Fails only when the work folder cannot be used (before serving). */
export const serve = (options: ServeOptions): Effect.Effect<void, CommandFailure> =>
  Effect.scoped(Effect.gen(function*() {
    // A folder bound to a shared dossier serves the store's services (src/commands/Bound.ts), and
    // each writing call refreshes the folder's view; an unbound one never loads the driver. A
    // plain folder bound since the server started (`init --store` from another shell) is served
    // over the shared dossier from the next request on (`current`), and a call that waited for the
    // folder's lock while the bind held it is refused before it writes (`guardBind`,
    // src/layers/PlainFolderGuard.ts): never a write to the folder's files alone.
    const scope = yield* Effect.scope
    const serving = (bound: boolean) =>
      Effect.gen(function*() {
        let services: Context.Context<CommandServices>
        let afterWrite: ((path: ReadonlyArray<string>) => Effect.Effect<ViewNote | null>) | undefined
        let refusal: ((error: CommandFailure, path: ReadonlyArray<string>) => CommandFailure) | undefined
        if (bound) {
          const boundCommands = yield* Effect.promise(() => import("../commands/Bound.js"))
          const { CommandsBound } = yield* Effect.promise(() => import("../layers/CommandsBound.js"))
          const context = yield* Layer.buildWithScope(
            boundCommands.refusedConnecting(options.dir, ["mcp"])(
              CommandsBound(options.dir, offersWrites(options.select) ? "write" : "read")
            ),
            scope
          )
          services = context
          afterWrite = (path) => Effect.provide(boundCommands.refreshAfter(path), context)
          refusal = boundCommands.refusalIn(context)
        } else {
          services = yield* Layer.buildWithScope(CommandsLive(options.dir, { guardBind: true }), scope)
        }
        const root = Context.get(services, Workdir).root
        const catalogue = toolCatalogue({
          root,
          specs: commandSpecs,
          schemas: allSchemas(),
          services,
          ...(afterWrite === undefined ? {} : { afterWrite }),
          ...(refusal === undefined ? {} : { refusal }),
          ...(options.select === undefined ? {} : { select: options.select })
        })
        // A bound folder's journals are the store's rows, not files of the folder.
        const resources = resourceHandlers(services, { journalFiles: !bound })
        return { bound, root, catalogue, resources }
      })
    let active = yield* serving(isBoundFolder(options.dir))
    const root = active.root
    options.onRoot?.(root)
    const runtime = yield* Effect.runtime<never>()
    const run = <A, E>(effect: Effect.Effect<A, E>, signal?: AbortSignal) =>
      Runtime.runPromise(runtime)(effect, signal === undefined ? {} : { signal })
    /**
     * What serves the next request: the folder's services, or the shared dossier's once the folder
     * is found bound (built once; a failure to connect is the request's answer, and the next
     * request tries again).
     */
    let switching: Promise<Either.Either<typeof active, CommandFailure>> | undefined
    const current = async (): Promise<Either.Either<typeof active, CommandFailure>> => {
      if (active.bound || !isBoundFolder(root)) return Either.right(active)
      switching ??= run(Effect.either(serving(true))).then((r) => {
        switching = undefined
        if (Either.isRight(r)) active = r.right
        return r
      })
      return switching
    }
    const capabilities = { tools: {}, resources: { listChanged: true } }
    const serverInfo = { name: options.name, version: options.version }
    const guard = new JsonRpcGuard({
      requests: REQUESTS,
      notifications: NOTIFICATIONS,
      discover: {
        supportedVersions: [...STATELESS_REVISIONS, ...HANDSHAKE_REVISIONS],
        capabilities,
        serverInfo,
        instructions: INSTRUCTIONS
      }
    })
    const server = new Server(serverInfo, { capabilities, instructions: INSTRUCTIONS })

    // What the client was last offered, and the candidates that list was made of: a call that
    // adds no candidate cannot have grown the list, so the list (a stat per file) is made again
    // only when one appeared.
    let listed = new Set<string>()
    let candidates: ReadonlySet<string> = new Set<string>()
    const uris = Effect.suspend(() => Effect.map(active.resources.list, (list) => new Set(list.map((r) => r.uri))))
    // The same tools whichever services serve them (one command table).
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      wholeList(request.params)
      return { tools: active.catalogue.tools as Array<never> }
    })
    const repeated = new Map<string | number, DuplicateAt>()
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const duplicate = repeated.get(extra.requestId)
      repeated.delete(extra.requestId)
      const serving = await current()
      // The folder was bound and its shared dossier cannot be served (out of reach, refused): said as the call's answer.
      if (Either.isLeft(serving) && active.catalogue.tools.some((t) => t.name === request.params.name)) {
        return refusalResult(serving.left) as never
      }
      const { resources } = active
      const call = active.catalogue.call(request.params.name, request.params.arguments ?? {}, duplicate)
      if (call === undefined) {
        // The name is repeated as every refusal repeats a value: clipped with a marker (../domain/Clip.ts).
        throw new McpError(ErrorCode.InvalidParams, `Tool not found: ${clipped(request.params.name)}`)
      }
      const result = await run(call, extra.signal)
      // A refusal changed nothing, and in a bound folder looking again asks the store, which may
      // be the reason of the refusal: a frozen server would hold the answer for a second connect
      // timeout (docs/store.md). The next call that succeeds looks.
      if (result.isError === true) return result as never
      // A call may have retained files or started a journal: tell the client the list grew.
      const found = await run(resources.candidates)
      if ([...found].some((u) => !candidates.has(u))) {
        candidates = found
        const now = await run(uris)
        if ([...now].some((u) => !listed.has(u))) {
          listed = now
          void server.sendResourceListChanged().catch(() => undefined)
        }
      }
      return result as never
    })
    // Resources are served by what serves the calls (a folder bound since the start: once its
    // shared dossier is served; until then, and when it cannot be, the folder's files).
    server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
      wholeList(request.params)
      await current()
      const { resources } = active
      candidates = await run(resources.candidates)
      const { resources: list, skipped } = await run(resources.listing)
      listed = new Set(list.map((r) => r.uri))
      // A cut list says so, as source follow's answer does (`skipped`).
      return { resources: list as Array<never>, ...(skipped.length === 0 ? {} : { skipped }) }
    })
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      async (request) => {
        wholeList(request.params)
        return { resourceTemplates: active.resources.templates as Array<never> }
      }
    )
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      await current()
      const read = await run(Effect.either(active.resources.read(request.params.uri)), extra.signal)
      if (Either.isLeft(read)) throw new McpError(read.left.code, read.left.message, read.left.data)
      return read.right as never
    })
    candidates = yield* active.resources.candidates
    listed = yield* uris

    let stdinEnded: () => void = () => undefined
    const ended = new Promise<void>((resolve) => (stdinEnded = resolve))
    const transport = new GuardedStdio(
      guard,
      process.stdin,
      (line) => void process.stdout.write(`${line}\n`),
      () => stdinEnded(),
      repeated
    )
    yield* Effect.promise(() => server.connect(transport))
    yield* Effect.promise(() => ended)
    // stdin closed: a confined run in flight is ended and recorded `interrupted` (nobody is left
    // to wait for it); answer what was already read, then close (cancelling whatever still runs).
    stopAll({ status: "interrupted", detail: "the MCP client disconnected while the program ran" })
    yield* Effect.promise(async () => {
      const until = Date.now() + DRAIN_MS
      while (guard.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
    })
    yield* Effect.promise(() => server.close())
  }))
