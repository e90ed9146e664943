/**
 * `dossier mcp`: the Model Context Protocol over stdio (JSON-RPC 2.0, one message per line)
 * for one work folder, fixed at start. Built on @effect/ai's McpServer (`layerStdio`; protocol
 * revisions 2025-06-18, 2025-03-26, 2024-11-05), with stdin and stdout passed through the
 * JSON-RPC guard (./JsonRpcGuard.ts). Every service is built once, at start; a tool call runs
 * the command's work on them (./Tools.ts). Resources: ./Resources.ts.
 *
 * Closing stdin ends the server: the requests already read are answered first (for at most
 * `DRAIN_MS`), then the services are released and the process exits 0.
 */
import * as McpSchema from "@effect/ai/McpSchema"
import * as McpServer from "@effect/ai/McpServer"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Sink from "effect/Sink"
import * as Stream from "effect/Stream"
import { allSchemas } from "../cli/schemas/index.js"
import { allSpecs } from "../cli/Specs.js"
import { CommandsLive, type CommandServices } from "../layers/CommandsLive.js"
import { stopAll } from "../layers/RunStops.js"
import { Workdir } from "../services/Workdir.js"
import { JsonRpcGuard } from "./JsonRpcGuard.js"
import { registerResources } from "./Resources.js"
import { registerTools } from "./Tools.js"

/** After stdin closes, answers to requests already read are awaited at most this long. */
export const DRAIN_MS = 130_000

export const INSTRUCTIONS =
  "dossier keeps research in one work folder so that another agent or a person can check it and continue. " +
  "Call `status` first to see what is there and what needs attention. Each tool is a dossier command; its arguments are the command's flags. " +
  "Inspect before retrying an uncertain write; quote sources verbatim; register a source in the plan before citing it. " +
  "A SHA-256 proves that a file is the one registered, not that it is true."

const encoder = new TextEncoder()

/** Lines from stdin, through the guard: replies written at once, the rest handed to the server. */
const guardedStdin = (
  guard: JsonRpcGuard,
  write: (line: string) => void,
  ready: Deferred.Deferred<Effect.Effect<void>>
): Stream.Stream<Uint8Array> =>
  Stream.unwrap(Effect.map(Deferred.await(ready), (refresh) =>
    NodeStream.stdin.pipe(
      Stream.decodeText(),
      Stream.splitLines,
      Stream.mapEffect((line) => {
        const verdict = guard.incoming(line)
        switch (verdict._tag) {
          case "Ignore":
            return Effect.succeed(undefined)
          case "Reply":
            return Effect.sync(() => write(verdict.line)).pipe(Effect.as(undefined))
          case "Forward":
            return (verdict.method === "resources/list" ? refresh : Effect.void).pipe(
              Effect.as(encoder.encode(`${verdict.line}\n`))
            )
        }
      }),
      Stream.filterMap((chunk: Uint8Array | undefined) => Option.fromNullable(chunk)),
      // stdin closed: let the requests already handed over be answered before the server stops.
      // A confined run in flight is ended and recorded `interrupted` (nobody is left to wait for it).
      Stream.concat(Stream.fromEffect(
        Effect.sync(() => stopAll({ status: "interrupted", detail: "the MCP client disconnected while the program ran" })).pipe(Effect.zipRight(Effect.repeat(Effect.sync(() => guard.inFlight), {
          until: (n) => n === 0,
          schedule: Schedule.spaced("10 millis")
        }))).pipe(Effect.timeout(DRAIN_MS), Effect.ignore)
      ).pipe(Stream.drain))
    )
  ))

/** What the server writes, through the guard, one line at a time. */
const guardedStdout = (guard: JsonRpcGuard, write: (line: string) => void) => {
  let rest = ""
  return Sink.forEach((chunk: Uint8Array | string) =>
    Effect.sync(() => {
      const text = rest + (typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk))
      const lines = text.split("\n")
      rest = lines.pop() ?? ""
      for (const line of lines) {
        const out = line === "" ? undefined : guard.outgoing(line)
        if (out !== undefined) write(out)
      }
    })
  )
}

export interface ServeOptions {
  /** The work folder as given (`--workdir`); resolved once. */
  readonly dir: string
  readonly name: string
  readonly version: string
  /** Called once the folder is resolved, with its real path (the CLI changes into it). */
  readonly onRoot?: (root: string) => void
}

/** Serve until stdin closes. Fails only when the work folder cannot be used (before serving). */
export const serve = (options: ServeOptions): Effect.Effect<void, Layer.Layer.Error<ReturnType<typeof CommandsLive>>> =>
  Effect.scoped(Effect.gen(function*() {
    const services: Context.Context<CommandServices> = yield* Layer.build(CommandsLive(options.dir))
    const root = Context.get(services, Workdir).root
    options.onRoot?.(root)
    const guard = new JsonRpcGuard({
      requests: new Set(McpSchema.ClientRequestRpcs.requests.keys()),
      notifications: new Set(McpSchema.ClientNotificationRpcs.requests.keys()),
      instructions: INSTRUCTIONS
    })
    const write = (line: string) => void process.stdout.write(`${line}\n`)
    const ready = yield* Deferred.make<Effect.Effect<void>>()
    let refresh: Effect.Effect<void> = Effect.void
    const registrations = Layer.effectDiscard(Effect.gen(function*() {
      const server = yield* McpServer.McpServer
      yield* registerTools(server, {
        root,
        specs: allSpecs,
        inputSchemas: allSchemas(),
        services,
        afterCall: Effect.suspend(() => refresh)
      })
      refresh = yield* registerResources(server, services)
      yield* Deferred.succeed(ready, refresh)
    }))
    const server = registrations.pipe(
      Layer.provide(McpServer.layerStdio({
        name: options.name,
        version: options.version,
        stdin: guardedStdin(guard, write, ready),
        stdout: guardedStdout(guard, write)
      }))
    )
    // The stdio protocol interrupts the fiber that launched it when stdin ends: that is the end.
    yield* Fiber.await(yield* Effect.fork(Layer.launch(server)))
  }))
