/**
 * One MCP tool per command of the table (src/cli/Specs.ts), so a new command is a new tool:
 * named by its words joined with `_` (`plan inspect` → `plan_inspect`, `journal recover-tail`
 * → `journal_recover_tail`), described by its description, with the arguments of
 * ./ToolArguments.ts. A call runs the command's own work (the Effect the CLI renders) on the
 * services the server built once:
 * - success → `structuredContent` is the command's `--json` object, and one text item holds it;
 * - refusal → `isError: true` with `{ok: false, error: <the envelope>}`;
 * - defect → `isError: true` with the `Defect` envelope; the server goes on serving.
 */
import * as McpSchema from "@effect/ai/McpSchema"
import type { McpServer } from "@effect/ai/McpServer"
import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import { envelopeOf, defectEnvelope, type ErrorEnvelope } from "../cli/Render.js"
import type { CommandSpec, ToolMode } from "../cli/Spec.js"
import type { CommandFailure } from "../cli/Work.js"
import type { CommandServices } from "../layers/CommandsLive.js"
import { toolArguments } from "./ToolArguments.js"

/** Commands that are no tool: the server itself. */
const NOT_TOOLS: ReadonlyArray<string> = ["mcp"]

export const isTool = (spec: CommandSpec): boolean => !NOT_TOOLS.includes(spec.path.join(" "))

/** The tools of a command: its own, or one per mode it declares. */
export const modesOf = (spec: CommandSpec): ReadonlyArray<ToolMode | undefined> => spec.tools ?? [undefined]

export const toolName = (spec: CommandSpec, mode?: ToolMode): string =>
  [...spec.path, ...(mode?.suffix === undefined ? [] : [mode.suffix])].join("_").replaceAll("-", "_")

/** Every tool name of the table, in its order. */
export const toolNames = (specs: ReadonlyArray<CommandSpec>): ReadonlyArray<string> =>
  specs.filter(isTool).flatMap((spec) => modesOf(spec).map((mode) => toolName(spec, mode)))

const toolDescription = (spec: CommandSpec, mode?: ToolMode): string => {
  const base = mode?.description ?? spec.description
  // The words the CLI takes after `--` (`exec`'s `-- <program> [args…]`) are one array argument.
  const rest = spec.rest === undefined
    ? ""
    : ` The CLI's \`-- ${spec.rest.usage ?? `<${spec.rest.name}>…`}\` is the array argument \`${spec.rest.name}\`: ["<program>", "<arg>", …].`
  return spec.inputSchema === undefined || (mode !== undefined && !mode.takes.includes("input"))
    ? base + rest
    : `${base}${rest} The input file's JSON is given inline as \`input\` (its schema: \`dossier schema ${spec.inputSchema}\`).`
}

const answer = (isError: boolean, body: object) =>
  new McpSchema.CallToolResult({
    isError,
    structuredContent: body,
    content: [{ type: "text", text: JSON.stringify(body) }]
  })

const refusal = (error: CommandFailure) => answer(true, { ok: false, error: envelopeOf(error) })

const defect = (cause: Cause.Cause<unknown>) =>
  Effect.sync(() => {
    if (process.env["DOSSIER_DEBUG"] === "1") process.stderr.write(`${Cause.pretty(cause)}\n`)
    return answer(true, { ok: false, error: defectEnvelope satisfies ErrorEnvelope })
  })

export interface ToolsOptions {
  /** The work folder's real path: every call acts on it. */
  readonly root: string
  readonly specs: ReadonlyArray<CommandSpec>
  readonly inputSchemas: Readonly<Record<string, Schema.Schema.Any>>
  readonly services: Context.Context<CommandServices>
  /** Run after every call (the resource list may have grown). */
  readonly afterCall: Effect.Effect<void>
}

/** Run one command for a tool call. */
const call = (spec: CommandSpec, decode: ReturnType<typeof toolArguments>["decode"], options: ToolsOptions) => (args: unknown) =>
  Either.match(decode(args), {
    onLeft: (e) => Effect.succeed(refusal(e)),
    onRight: (values) =>
      Effect.promise(() => spec.run({ ...values, workdir: options.root, json: true })).pipe(
        Effect.flatMap((w) => Effect.provide(w.effect as Effect.Effect<object, CommandFailure, CommandServices>, options.services)),
        Effect.matchCauseEffect({
          onSuccess: (result) => Effect.succeed(answer(false, { ok: true, ...result })),
          onFailure: (cause) =>
            Option.match(Cause.failureOption(cause), { onSome: (e) => Effect.succeed(refusal(e)), onNone: () => defect(cause) })
        }),
        Effect.ensuring(options.afterCall)
      )
  }).pipe(Effect.catchAllCause(defect))

/** Register every command of the table as a tool. */
export const registerTools = (server: McpServer["Type"], options: ToolsOptions) =>
  Effect.forEach(
    options.specs.filter(isTool).flatMap((spec) => modesOf(spec).map((mode) => [spec, mode] as const)),
    ([spec, mode]) => {
      const args = toolArguments(spec, options.inputSchemas, mode)
      return server.addTool({
        tool: new McpSchema.Tool({ name: toolName(spec, mode), description: toolDescription(spec, mode), inputSchema: args.jsonSchema }),
        handle: call(spec, args.decode, options)
      })
    },
    { discard: true }
  )
