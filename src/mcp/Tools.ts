/**
 * One MCP tool per command of the table (src/commands/Specs.ts), so a new command is a new tool:
 * named by its words joined with `_` (`plan inspect` → `plan_inspect`, `journal recover-tail`
 * → `journal_recover_tail`), described by its description's first sentences, with the arguments
 * of ./ToolArguments.ts, the title and hints of ./ToolHints.ts and the first level of its
 * `--json` output as `outputSchema`; `--read-only` and `--tools` keep a subset. A call runs the
 * command's own work (the Effect the CLI renders) on the services the server built once:
 * - success → `structuredContent` is the command's `--json` object, and one text item holds it;
 * - refusal → `isError: true` with `{ok: false, error: <the envelope>}`, naming the arguments
 *   where the command names its options (./ArgumentNames.ts);
 * - defect → `isError: true` with the `Defect` envelope; the server goes on serving.
 */
import * as Cause from "effect/Cause"
import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import { defectEnvelope, envelopeOf, type ErrorEnvelope } from "../commands/Envelope.js"
import { type CommandSpec, type ToolMode, toolName } from "../commands/Spec.js"
import { TOOL_HINTS, toolArea, type ToolHints } from "../commands/ToolHints.js"
import type { CommandFailure } from "../commands/Work.js"
import { UsageError } from "../domain/CliErrors.js"
import { clipped } from "../domain/Clip.js"
import type { DuplicateAt } from "../domain/DuplicateKeys.js"
import { InvalidInput } from "../domain/Errors.js"
import { StoreUnavailable } from "../domain/StoreErrors.js"
import type { ViewNote } from "../domain/ViewNote.js"
import type { CommandServices } from "../layers/CommandsLive.js"
import { isBoundMeanwhile } from "../layers/PlainFolderGuard.js"
import { namingArguments } from "./ArgumentNames.js"
import { brief, forTool, sentences, toolArguments } from "./ToolArguments.js"
import { compact, shallow } from "./ToolSchemas.js"

/** Commands that are no tool: the server itself. */
const NOT_TOOLS: ReadonlyArray<string> = ["mcp"]

export const isTool = (spec: CommandSpec): boolean => !NOT_TOOLS.includes(spec.path.join(" "))

/** The tools of a command: its own, or one per mode it declares. */
export const modesOf = (spec: CommandSpec): ReadonlyArray<ToolMode | undefined> => spec.tools ?? [undefined]

/** Every tool name of the table, in its order. */
export const toolNames = (specs: ReadonlyArray<CommandSpec>): ReadonlyArray<string> =>
  specs.filter(isTool).flatMap((spec) => modesOf(spec).map((mode) => toolName(spec, mode)))

/** Sentences of a description kept for a tool list: the first ones, up to this many characters. */
const DESCRIPTION_MAX = 100

/** Sentences that only restate the input's schema (the tool's `input` carries it). */
const RESTATES_INPUT = /^(Input file fields|Input fields)\b/

/** A tool's description: the command's first sentences (what it does), in the tool's own words. */
export const toolDescription = (spec: CommandSpec, mode?: ToolMode): string => {
  const all = sentences(forTool(mode?.description ?? spec.description, spec.rest?.name)).filter((x) =>
    !RESTATES_INPUT.test(x)
  )
  return brief(all.join(" "), DESCRIPTION_MAX)
}

export interface ToolDefinition {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: Record<string, unknown>
  readonly outputSchema: Record<string, unknown>
  readonly annotations: {
    readonly readOnlyHint?: boolean
    readonly destructiveHint?: boolean
    readonly idempotentHint?: boolean
    readonly openWorldHint: boolean
  }
}

/**
 * A tool's output schema: its success output's first level (`dossier schema <name>`; the whole
 * schema through the `schema` tool), and for a refusal `{ok: false, error}` (the envelope of
 * `dossier schema errors`). Validating clients check every answer against it, refusals too.
 */
export const outputSchemaOf = (
  names: ReadonlyArray<string>,
  schemas: Readonly<Record<string, Schema.Schema.Any>>
): Record<string, unknown> => {
  const properties: Record<string, unknown> = {}
  const required = new Set<string>()
  // Each output, or each alternative of one that is a union, is one shape the success may have.
  const shapes = names.flatMap((name) => {
    const schema = schemas[name]
    if (schema === undefined) throw new Error(`unknown output schema '${name}'`)
    const defs: Record<string, JSONSchema.JsonSchema7> = {}
    const full = compact(JSONSchema.fromAST(schema.ast, { definitions: defs, topLevelReferenceStrategy: "skip" }))
    const top = shallow(full, compact(defs) as Record<string, unknown>, { depth: 1, describe: 0 })
    const alternatives = Array.isArray(top["anyOf"]) ? top["anyOf"] as ReadonlyArray<Record<string, unknown>> : [top]
    return alternatives.map((a) => shallow(a, {}, { depth: 1, describe: 0 }))
  })
  shapes.forEach((top, i) => {
    for (const [k, v] of Object.entries((top["properties"] ?? {}) as Record<string, unknown>)) {
      // A field two shapes describe differently (`network`: checked | not_checked) is either.
      if (!Object.hasOwn(properties, k)) properties[k] = v
      else if (JSON.stringify(properties[k]) !== JSON.stringify(v)) properties[k] = {}
    }
    // A field is required of a success when every shape requires it.
    const req = new Set((top["required"] ?? []) as ReadonlyArray<string>)
    if (i === 0) { for (const r of req) required.add(r) }
    else for (const r of [...required]) if (!req.has(r)) required.delete(r)
  })
  // `ok` (true or false) is required of every answer; its type goes without saying.
  delete properties["ok"]
  required.delete("ok")
  return {
    type: "object",
    properties,
    required: ["ok"],
    // A success has its fields, a refusal its error.
    anyOf: [{ required: [...required] }, { required: ["error"] }]
  }
}

const answer = (isError: boolean, body: object): CallToolResult => ({
  isError,
  structuredContent: body as Record<string, unknown>,
  content: [{ type: "text", text: JSON.stringify(body) }]
})

const refusal = (error: CommandFailure) => answer(true, { ok: false, error: envelopeOf(error) })

/** A call refused before it reached its command (the server could not switch to a shared dossier). */
export const refusalResult = refusal

/** What a call says when the folder was bound since the server started and the call waited for its lock. */
export const BOUND_MEANWHILE_CALL =
  "this folder was bound to a shared dossier while the call waited for its lock, and nothing was written; call the tool again and it runs over the shared dossier"

const defect = (cause: Cause.Cause<unknown>) =>
  Effect.sync(() => {
    if (process.env["DOSSIER_DEBUG"] === "1") process.stderr.write(`${Cause.pretty(cause)}\n`)
    return answer(true, { ok: false, error: defectEnvelope satisfies ErrorEnvelope })
  })

export interface CallToolResult {
  readonly isError: boolean
  readonly structuredContent: Record<string, unknown>
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
}

/** Which tools a server offers (`dossier mcp --read-only`, `--tools <areas>`). */
export interface ToolSelection {
  /** Only the tools that never write. */
  readonly readOnly?: boolean
  /** Only the tools of these areas (the first word of the command: plan, journal, monitor, …). */
  readonly areas?: ReadonlyArray<string>
}

export interface ToolsOptions {
  /** The work folder's real path: every call acts on it. */
  readonly root: string
  readonly specs: ReadonlyArray<CommandSpec>
  /** Every schema of `dossier schema`, by name: inputs and outputs. */
  readonly schemas: Readonly<Record<string, Schema.Schema.Any>>
  readonly services: Context.Context<CommandServices>
  /**
   * Run after a successful call of a tool that may write, with its command's path (in a folder
   * bound to a shared dossier: the part of the folder's view it touched refreshed from the store,
   * src/commands/Bound.ts). What it says (a file kept, the view not refreshed) is the answer's
   * `view` (src/domain/ViewNote.ts); null: nothing to say.
   */
  readonly afterWrite?: (path: ReadonlyArray<string>) => Effect.Effect<ViewNote | null>
  /**
   * A call's refusal as the services answer it, with its command's path (in a bound folder: a
   * record the shared dossier lacks is said to be missing there, a role's missing privilege is
   * `BindingRefused`, src/commands/Bound.ts); default: as it is.
   */
  readonly refusal?: (error: CommandFailure, path: ReadonlyArray<string>) => CommandFailure
  readonly select?: ToolSelection
  /** Hints by tool name (default: ./ToolHints.ts). */
  readonly hints?: Readonly<Record<string, ToolHints>>
}

export interface ToolCatalogue {
  readonly tools: ReadonlyArray<ToolDefinition>
  /** Run one call; `undefined` for a tool this server does not offer. */
  readonly call: (name: string, args: unknown, duplicate?: DuplicateAt) => Effect.Effect<CallToolResult> | undefined
}

/**
 * A key given twice in a call's arguments (`duplicate.path` from `arguments`): inside the inline
 * `input`, `InvalidInput` at its path there, as the CLI answers the same JSON in an input file;
 * an argument given twice, or a key twice inside another argument, an ill-formed argument.
 */
const repeatedKey = (spec: CommandSpec, duplicate: DuplicateAt): CommandFailure => {
  const [argument = "", ...within] = duplicate.path
  return argument === "input" && spec.inputSchema !== undefined && within.length > 0
    ? new InvalidInput({ issues: [{ path: within.join("."), message: duplicate.message }] })
    : new UsageError({
      detail: within.length === 0
        ? `argument '${clipped(argument)}' is given more than once`
        : `argument '${clipped(argument)}'${
          within.length > 1 ? ` at '${clipped(within.slice(0, -1).join("."))}'` : ""
        }: ${duplicate.message}`
    })
}

/** Run one command for a tool call. */
const call =
  (spec: CommandSpec, decode: ReturnType<typeof toolArguments>["decode"], options: ToolsOptions, writes: boolean) =>
  (args: unknown, duplicate?: DuplicateAt) => {
    const named = namingArguments(spec)
    return Either.match(decode(args), {
      onLeft: (e) => Effect.succeed(refusal(e)),
      onRight: (values) =>
        duplicate !== undefined
          ? Effect.succeed(refusal(repeatedKey(spec, duplicate)))
          : Effect.promise(() => spec.run({ ...values, workdir: options.root, json: true })).pipe(
            Effect.flatMap((w) =>
              Effect.provide(w.effect as Effect.Effect<object, CommandFailure, CommandServices>, options.services)
            ),
            // A plain folder bound since the server started: the region refused before it ran.
            Effect.catchSomeDefect((d) =>
              isBoundMeanwhile(d)
                ? Option.some(Effect.fail(new StoreUnavailable({ reason: BOUND_MEANWHILE_CALL })))
                : Option.none()
            ),
            Effect.mapError((e) => (options.refusal === undefined ? e : options.refusal(e, spec.path))),
            Effect.flatMap((result) =>
              writes && options.afterWrite !== undefined
                ? Effect.map(options.afterWrite(spec.path), (view) => (view === null ? result : { ...result, view }))
                : Effect.succeed(result)
            ),
            Effect.matchCauseEffect({
              onSuccess: (result) => Effect.succeed(answer(false, { ok: true, ...result })),
              onFailure: (cause) =>
                Option.match(Cause.failureOption(cause), {
                  onSome: (e) => Effect.succeed(refusal(named(e))),
                  onNone: () => defect(cause)
                })
            })
          )
    }).pipe(Effect.catchAllCause(defect))
  }

/** The `schema` tool is always offered: the whole schemas the tool list only sketches are there. */
const ALWAYS = new Set(["schema"])

/** Whether `select` keeps the tool `name` (whose hints are `hints`). */
const offered = (name: string, hints: ToolHints, select: ToolSelection): boolean =>
  ALWAYS.has(name) ||
  ((select.readOnly !== true || hints.readOnly) &&
    (select.areas === undefined || select.areas.includes(toolArea(name))))

/**
 * Whether a server offering `select` offers a tool that may write. One that does not (`dossier
 * mcp --read-only`, or areas whose tools all read) connects to a shared store as a reader, as
 * the CLI's read-only commands do: it sends no write (docs/store.md, "A read-only role").
 */
export const offersWrites = (
  select: ToolSelection = {},
  hints: Readonly<Record<string, ToolHints>> = TOOL_HINTS
): boolean => Object.entries(hints).some(([name, h]) => !h.readOnly && offered(name, h, select))

/** Every command of the table as a tool (those `select` keeps), and how to run one. */
export const toolCatalogue = (options: ToolsOptions): ToolCatalogue => {
  const hintsOf = options.hints ?? TOOL_HINTS
  const tools: Array<ToolDefinition> = []
  const runners = new Map<string, (args: unknown, duplicate?: DuplicateAt) => Effect.Effect<CallToolResult>>()
  for (const spec of options.specs.filter(isTool)) {
    for (const mode of modesOf(spec)) {
      const name = toolName(spec, mode)
      const hints = hintsOf[name]
      if (hints === undefined) throw new Error(`the tool ${name} has no hints (src/commands/ToolHints.ts)`)
      if (!offered(name, hints, options.select ?? {})) continue
      const args = toolArguments(spec, options.schemas, mode, hints.required)
      tools.push({
        name,
        title: hints.title,
        description: toolDescription(spec, mode),
        inputSchema: args.jsonSchema,
        outputSchema: outputSchemaOf(typeof hints.output === "string" ? [hints.output] : hints.output, options.schemas),
        annotations: {
          // MCP's defaults "may write" and "not idempotent" are left unsaid; a writer says whether it destroys.
          ...(hints.readOnly ? { readOnlyHint: true } : { destructiveHint: hints.destructive ?? true }),
          ...(hints.idempotent === true && !hints.readOnly ? { idempotentHint: true } : {}),
          openWorldHint: hints.openWorld ?? false
        }
      })
      runners.set(name, call(spec, args.decode, options, !hints.readOnly))
    }
  }
  return { tools, call: (name, args, duplicate) => runners.get(name)?.(args, duplicate) }
}

/** Every area a `--tools` list may name. */
export const toolAreas = (
  specs: ReadonlyArray<CommandSpec>
): ReadonlyArray<string> => [...new Set(toolNames(specs).map(toolArea))]
