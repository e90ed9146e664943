/**
 * A command's MCP tool arguments, derived from its declaration (src/cli/Spec.ts): every flag
 * but `--workdir` (the server's folder is fixed at start) and `--json` (a tool always answers
 * JSON) becomes a camelCase field, every positional argument a field of its name, the words
 * after `--` (`exec`'s program) an array under the rest's name, and for a
 * command that reads an input file, `input` holds that JSON inline. One Schema decodes the
 * arguments into exactly the values the CLI's parser gives the command (`Option`s, `Date`s),
 * so the command's implementation cannot tell the two apart; the tool's `inputSchema` is the
 * JSON Schema of the same fields, with `input` described by the Schema `dossier schema <name>`
 * prints.
 */
import * as Either from "effect/Either"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { UsageError } from "../domain/CliErrors.js"
import type { ArgSpec, CommandSpec, FlagSpec, ToolMode } from "../cli/Spec.js"
import { parseNow } from "../cli/Spec.js"
import { InlineInput } from "../services/InputFile.js"

/** Flags a tool never takes. */
const SERVER_FLAGS = new Set(["workdir", "json"])

const Instant = Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
  strict: true,
  decode: (s, _, ast) => {
    const d = parseNow(s)
    return typeof d === "string" ? ParseResult.fail(new ParseResult.Type(ast, s, d.replace("--now", "now"))) : ParseResult.succeed(d)
  },
  encode: (d) => ParseResult.succeed(d.toISOString())
})

const integer = (f: Extract<FlagSpec, { kind: "integer" }>) => {
  let s: Schema.Schema<number> = Schema.Number.pipe(Schema.int())
  if (f.min !== undefined) s = s.pipe(Schema.greaterThanOrEqualTo(f.min))
  if (f.max !== undefined) s = s.pipe(Schema.lessThanOrEqualTo(f.max))
  return s.annotations({ jsonSchema: { type: "integer", ...(f.min !== undefined ? { minimum: f.min } : {}), ...(f.max !== undefined ? { maximum: f.max } : {}) } })
}

type Field = Schema.Struct.Field

/** Every field here needs no service; the Struct's type only loses that in the `Record`. */
const struct = (fields: Record<string, Field>) =>
  Schema.Struct(fields) as unknown as Schema.Schema<Record<string, unknown>, Record<string, unknown>, never>

const described = <S extends Schema.Schema.Any>(s: S, description: string) => s.annotations({ description }) as S

/** The field of one flag: decoded to what the CLI's parser gives for it. */
const flagField = (f: FlagSpec): Field => {
  switch (f.kind) {
    case "text":
      return f.default === undefined
        ? described(Schema.String, f.description)
        : Schema.optionalWith(described(Schema.String, f.description), { default: () => f.default! })
    case "optionalText":
      return f.required === true
        ? described(Schema.String, f.description).pipe(Schema.transform(Schema.OptionFromSelf(Schema.String), { strict: true, decode: Option.some, encode: Option.getOrElse(() => "") }))
        : Schema.optionalWith(described(Schema.String, f.description), { as: "Option" })
    case "boolean":
      return Schema.optionalWith(described(Schema.Boolean, f.description), { default: () => false })
    case "integer": {
      const s = described(integer(f), f.description)
      return f.default !== undefined
        ? Schema.optionalWith(s, { default: () => f.default! })
        : f.optional === true
        ? Schema.optionalWith(s, { as: "Option" })
        : s
    }
    case "workdir":
      // Never a tool argument (the server's folder is fixed at start).
      return Schema.optionalWith(described(Schema.String, f.description), { as: "Option" })
    case "now":
      return Schema.optionalWith(
        described(Instant, `${f.description} ISO-8601, e.g. 2026-11-30T10:00:00Z.`),
        { as: "Option" }
      )
  }
}

const argField = (a: ArgSpec): Field =>
  a.optional
    ? Schema.optionalWith(described(Schema.String, a.description), { as: "Option" })
    : described(Schema.String, a.description)

const INPUT_DESCRIPTION = "The command's input JSON, inline (what the CLI reads from --input <file>), at most 64 KiB."

export interface ToolArguments {
  /** Decode a tool call's arguments into the values the command's implementation takes. */
  readonly decode: (args: unknown) => Either.Either<Record<string, unknown>, UsageError>
  /** The JSON Schema of the arguments (the tool's `inputSchema`). */
  readonly jsonSchema: Record<string, unknown>
}

const toolWords = (spec: CommandSpec) => spec.path.join(" ")

const issuesText = (e: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(e)
    .map((i) => `${i.path.length === 0 ? "arguments" : `argument '${i.path.map(String).join(".")}'`}: ${i.message}`)
    .join("; ")

/**
 * The arguments of `spec`'s tool. `inputSchemas` resolves `spec.inputSchema` (the names of
 * `dossier schema`).
 */
export const toolArguments = (
  spec: CommandSpec,
  inputSchemas: Readonly<Record<string, Schema.Schema.Any>>,
  mode?: ToolMode
): ToolArguments => {
  const decodeFields: Record<string, Field> = {}
  for (const [key, a] of Object.entries(spec.args ?? {})) decodeFields[key] = argField(a)
  // The words after `--` on the command line (`exec`'s program and its arguments): an array.
  if (spec.rest !== undefined) {
    const words = described(Schema.Array(Schema.String), spec.rest.description)
    decodeFields[spec.rest.name] = spec.rest.optional ? Schema.optionalWith(words, { default: () => [] }) : words
  }
  for (const [key, f] of Object.entries(spec.flags)) {
    if (SERVER_FLAGS.has(key)) continue
    decodeFields[key] = flagField(f)
  }
  const docFields: Record<string, Field> = { ...decodeFields }
  const inputFlag = spec.flags["input"]
  const inlineInput = spec.inputSchema !== undefined && inputFlag !== undefined
  // A command whose fields may also be given as flags takes its input optionally.
  const inputOptional = inputFlag?.kind === "optionalText"
  if (inlineInput) {
    const schema = inputSchemas[spec.inputSchema!]
    if (schema === undefined) throw new Error(`unknown input schema '${spec.inputSchema}' of ${spec.path.join(" ")}`)
    const description = `${INPUT_DESCRIPTION}${inputOptional ? " Or give its fields as the other arguments (not both)." : ""}`
    // Validated by the command itself, as a file would be (InvalidInput with paths into the input).
    const present = Schema.Unknown.pipe(Schema.filter((u) => u !== undefined, { message: () => "is missing" }))
    decodeFields["input"] = inputOptional
      ? Schema.optionalWith(described(present, description), { as: "Option" })
      : described(present, description)
    const typed = (schema as Schema.Schema<unknown, unknown, never>).annotations({
      description: `${description} Schema: \`dossier schema ${spec.inputSchema}\`.`
    })
    docFields["input"] = inputOptional ? Schema.optional(typed) : typed
  }
  // A mode takes only its own fields; the others decode to their defaults.
  const names = Object.keys(decodeFields).filter((k) => mode === undefined || mode.takes.includes(k))
  for (const k of Object.keys(docFields)) if (!names.includes(k)) delete docFields[k]
  const fixed = mode?.fixed ?? {}
  const decoder = Schema.decodeUnknownEither(struct(decodeFields), { errors: "all", onExcessProperty: "error" })
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  // A Struct without fields is any object to Schema and to its JSON Schema: this tool takes none.
  const root = names.length === 0
    ? { type: "object", properties: {}, additionalProperties: false }
    : JSONSchema.fromAST(struct(docFields).ast, { definitions, topLevelReferenceStrategy: "skip" }) as unknown as Record<string, unknown>
  const jsonSchema = Object.keys(definitions).length === 0 ? root : { ...root, $defs: definitions }
  const unknownArgument = (args: unknown): UsageError | undefined => {
    if (typeof args !== "object" || args === null || Array.isArray(args)) return new UsageError({ detail: "arguments: expected an object" })
    const extra = Object.keys(args).filter((k) => !names.includes(k))
    return extra.length === 0
      ? undefined
      : new UsageError({
        detail: `unknown argument${extra.length > 1 ? "s" : ""} ${extra.map((k) => `'${k}'`).join(", ")}; ${toolWords(spec)} takes ${names.length === 0 ? "none" : names.join(", ")}`
      })
  }
  return {
    jsonSchema,
    decode: (args) => {
      const unknown = unknownArgument(args ?? {})
      if (unknown !== undefined) return Either.left(unknown)
      return Either.match(decoder(args ?? {}), {
        onLeft: (e) => Either.left(new UsageError({ detail: issuesText(e) })),
        onRight: (decoded) => {
          const values = { ...decoded, ...fixed }
          if (!inlineInput) return Either.right(values)
          const input = values["input"]
          return Either.right({
            ...values,
            input: inputOptional ? Option.map(input as Option.Option<unknown>, (v) => new InlineInput(v)) : new InlineInput(input)
          })
        }
      })
    }
  }
}
