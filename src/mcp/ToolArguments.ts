/**
 * A command's MCP tool arguments, derived from its declaration (src/commands/Spec.ts): every flag
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
import type { ArgSpec, CommandSpec, FlagSpec, ToolMode } from "../commands/Spec.js"
import { giveA, parseNow, toolName, valueKindOf } from "../commands/Spec.js"
import { UsageError } from "../domain/CliErrors.js"
import { clipped } from "../domain/Clip.js"
import { LONE_SURROGATE, loneSurrogate } from "../domain/Decode.js"
import { InvalidInput } from "../domain/Errors.js"
import { InlineInput } from "../services/InputFile.js"
import { compact, shallow, slim } from "./ToolSchemas.js"

/** Flags a tool never takes. */
const SERVER_FLAGS = new Set(["workdir", "json"])

const Instant = Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
  strict: true,
  decode: (s, _, ast) => {
    const d = parseNow(s)
    return typeof d === "string"
      ? ParseResult.fail(new ParseResult.Type(ast, s, d.replace("--now", "now")))
      : ParseResult.succeed(d)
  },
  encode: (d) => ParseResult.succeed(d.toISOString())
})

/** What an argument's refusal quotes of what it was given: clipped shorter than a refusal's values. */
const QUOTED_MAX = 80
const shown = (u: unknown): string => clipped(JSON.stringify(u) ?? String(u), QUOTED_MAX)

const integer = (f: Extract<FlagSpec, { kind: "integer" }>, description: string) => {
  let s: Schema.Schema<number> = Schema.Number.pipe(Schema.int())
  if (f.min !== undefined) s = s.pipe(Schema.greaterThanOrEqualTo(f.min))
  if (f.max !== undefined) s = s.pipe(Schema.lessThanOrEqualTo(f.max))
  const range = f.min !== undefined && f.max !== undefined
    ? ` from ${f.min} to ${f.max}`
    : f.min !== undefined
    ? ` of at least ${f.min}`
    : f.max !== undefined
    ? ` of at most ${f.max}`
    : ""
  // The JSON Schema annotation replaces the whole generated schema: it carries the description too.
  return s.annotations({
    description,
    // Whatever check fails (a number, an integer, a bound), the refusal says what is taken.
    message: (issue) => ({ message: `expected an integer${range}, got ${shown(issue.actual)}`, override: true }),
    jsonSchema: {
      type: "integer",
      description,
      ...(f.min !== undefined ? { minimum: f.min } : {}),
      ...(f.max !== undefined ? { maximum: f.max } : {})
    }
  })
}

/**
 * A description written for the command line, for a tool: every `--flag` it names becomes the
 * argument's name (`--content-type` → `contentType`, `--input <path>` → `input`), the words after
 * `--` the array argument.
 */
export const forTool = (text: string, restName?: string): string =>
  text
    .replace(/--input <path>/g, "`input`")
    .replace(/(after|following) `?--`?(?=[\s.,;:)]|$)/g, (_m, w) =>
      `${w} ${restName === undefined ? "--" : `the \`${restName}\` array`}`)
    .replace(/`?--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`?( <[^>]+>)?/g, (_m, name: string) =>
      `\`${
        name.replace(/-([a-z0-9])/g, (_x, c: string) => c.toUpperCase())
      }\``)

type Field = Schema.Struct.Field

/** Every field here needs no service; the Struct's type only loses that in the `Record`. */
const struct = (fields: Record<string, Field>) =>
  Schema.Struct(fields) as unknown as Schema.Schema<Record<string, unknown>, Record<string, unknown>, never>

const described = <S extends Schema.Schema.Any>(s: S, description: string) => s.annotations({ description }) as S

/** An argument's description in a tool list: its first sentences, up to this many characters. */
const ARGUMENT_DESCRIPTION_MAX = 90

/** Sentences end at `.`, `!` or `?` followed by a space and a capital (not inside `a.b` or `e.g. x`). */
export const sentences = (text: string): ReadonlyArray<string> =>
  text.split(/(?<=[.!?])\s+(?=[A-Z`"])/).map((x) => x.trim())

/** The first sentences of `text` that fit in `max` characters (at least the first, clipped at a clause or word). */
export const brief = (text: string, max: number): string => {
  const all = sentences(text)
  let out = all[0] ?? ""
  if (out.length > max) {
    // Too long a sentence: up to its last clause that fits outside parentheses, else its last whole
    // word outside them.
    const cut = out.slice(0, max - 1)
    let open = 0
    let clause = -1
    let outside = 0
    for (let i = 0; i < cut.length; i++) {
      const c = cut[i]
      if (c === "(" || c === "[" || c === "{") open++
      else if (c === ")" || c === "]" || c === "}") open = Math.max(0, open - 1)
      else if (open === 0 && (c === ";" || c === ":") && cut[i + 1] === " ") clause = i
      if (open === 0 && c === " ") outside = i
    }
    return clause > max / 2 ? `${cut.slice(0, clause)}.` : `${cut.slice(0, outside).replace(/[\s,;:]+$/, "")}…`
  }
  for (const x of all.slice(1)) {
    if (out.length + 1 + x.length > max) break
    out = `${out} ${x}`
  }
  return out
}

/** The field of one flag: decoded to what the CLI's parser gives for it. */
const flagField = (flag: FlagSpec, required: boolean): Field => {
  const f = { ...flag, description: brief(forTool(flag.description), ARGUMENT_DESCRIPTION_MAX) } as FlagSpec
  switch (f.kind) {
    case "text":
      return f.default === undefined
        ? described(Schema.String, f.description)
        : Schema.optionalWith(described(Schema.String, f.description), { default: () => f.default! })
    case "optionalText":
      return f.required === true || required
        ? described(Schema.String, f.description).pipe(
          Schema.transform(Schema.OptionFromSelf(Schema.String), {
            strict: true,
            decode: Option.some,
            encode: Option.getOrElse(() => "")
          })
        )
        : Schema.optionalWith(described(Schema.String, f.description), { as: "Option" })
    case "boolean":
      return Schema.optionalWith(described(Schema.Boolean, f.description), { default: () => false })
    case "integer": {
      const s = integer(f, f.description)
      return required
        ? s
        : f.default !== undefined
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
        described(Instant, "When to act (ISO-8601)."),
        { as: "Option" }
      )
  }
}

const argField = (a: ArgSpec, required: boolean): Field =>
  a.optional && !required
    ? Schema.optionalWith(described(Schema.String, brief(forTool(a.description), ARGUMENT_DESCRIPTION_MAX)), {
      as: "Option"
    })
    : a.optional
    ? described(Schema.String, brief(forTool(a.description), ARGUMENT_DESCRIPTION_MAX)).pipe(
      Schema.transform(Schema.OptionFromSelf(Schema.String), {
        strict: true,
        decode: Option.some,
        encode: Option.getOrElse(() => "")
      })
    )
    : described(Schema.String, brief(forTool(a.description), ARGUMENT_DESCRIPTION_MAX))

const INPUT_DESCRIPTION = "The input file's JSON, inline (at most 64 KiB)."

/** An inline input whose compact schema is larger than this is sketched: its fields and their types. */
const INPUT_SCHEMA_MAX = 700

export interface ToolArguments {
  /** Decode a tool call's arguments into the values the command's implementation takes. */
  readonly decode: (args: unknown) => Either.Either<Record<string, unknown>, UsageError | InvalidInput>
  /** The JSON Schema of the arguments (the tool's `inputSchema`). */
  readonly jsonSchema: Record<string, unknown>
}

const issuesText = (e: ParseResult.ParseError) => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(e)
  const key = (i: (typeof issues)[number]) => i.path.map(String).join(".")
  // An optional argument is its type or undefined: that it is not undefined either says nothing more.
  const said = new Set(issues.filter((i) => !i.message.startsWith("Expected undefined,")).map(key))
  return issues
    .filter((i) => !(i.message.startsWith("Expected undefined,") && said.has(key(i))))
    .map((i) => `${i.path.length === 0 ? "arguments" : `argument '${key(i)}'`}: ${i.message}`)
    .join("; ")
}

/**
 * The arguments of `spec`'s tool. `inputSchemas` resolves `spec.inputSchema` (the names of
 * `dossier schema`).
 */
export const toolArguments = (
  spec: CommandSpec,
  inputSchemas: Readonly<Record<string, Schema.Schema.Any>>,
  mode?: ToolMode,
  /** Arguments this tool requires though the command takes them optionally (src/commands/ToolHints.ts). */
  required: ReadonlyArray<string> = []
): ToolArguments => {
  const needed = (key: string) => required.includes(key)
  const decodeFields: Record<string, Field> = {}
  for (const [key, a] of Object.entries(spec.args ?? {})) decodeFields[key] = argField(a, needed(key))
  // The words after `--` on the command line (`exec`'s program and its arguments): an array.
  if (spec.rest !== undefined) {
    const usage = spec.rest.usage ?? `<${spec.rest.name}>…`
    const words = described(
      Schema.Array(Schema.String).annotations({
        message: (issue) => `expected an array of strings, ["<program>", "<arg>", \u2026], got ${shown(issue.actual)}`
      }),
      `The CLI's \`-- ${usage}\` as an array: ["<program>", "<arg>", …].`
    )
    // A required one holds at least the program: `[]` is refused in the tool's terms, not with the
    // command line's words (`after --`), which a tool call has none of.
    const named = words.pipe(
      Schema.filter((w) => w.length > 0, {
        message: () => "expected at least the program to run, [\"<program>\", \"<arg>\", \u2026], got []"
      })
    )
    decodeFields[spec.rest.name] = spec.rest.optional ? Schema.optionalWith(words, { default: () => [] }) : named
  }
  for (const [key, f] of Object.entries(spec.flags)) {
    if (SERVER_FLAGS.has(key)) continue
    decodeFields[key] = flagField(f, needed(key))
  }
  const docFields: Record<string, Field> = { ...decodeFields }
  const inputFlag = spec.flags["input"]
  const inlineInput = spec.inputSchema !== undefined && inputFlag !== undefined
  // A command whose fields may also be given as flags takes its input optionally.
  const inputOptional = inputFlag?.kind === "optionalText"
  let inputDoc: Record<string, unknown> | undefined
  if (inlineInput) {
    const schema = inputSchemas[spec.inputSchema!]
    if (schema === undefined) throw new Error(`unknown input schema '${spec.inputSchema}' of ${spec.path.join(" ")}`)
    const description = `${INPUT_DESCRIPTION}${
      inputOptional ? " Or give its fields as the other arguments (not both)." : ""
    }`
    // Validated by the command itself, as a file would be (InvalidInput with paths into the input).
    const present = Schema.Unknown.pipe(Schema.filter((u) => u !== undefined, { message: () => "is missing" }))
    decodeFields["input"] = inputOptional
      ? Schema.optionalWith(described(present, description), { as: "Option" })
      : described(present, description)
    docFields["input"] = inputOptional ? Schema.optional(Schema.Unknown) : Schema.Unknown
    // The inline input's own schema, whole when small, else its first two levels.
    const defs: Record<string, JSONSchema.JsonSchema7> = {}
    const full = slim(
      compact(
        JSONSchema.fromAST((schema as Schema.Schema.Any).ast, { definitions: defs, topLevelReferenceStrategy: "skip" })
      ),
      1
    ) as Record<string, unknown>
    const whole = JSON.stringify(full).includes("$ref") ? undefined : full
    // An input whose every field is also an argument of its own needs no sketch of its fields.
    const fieldsAsFlags = inputOptional && Object.values(spec.flags).some((f) => "field" in f && f.field !== undefined)
    const sketch = () => {
      const fields = shallow(full, compact(defs) as Record<string, unknown>, { depth: 1, describe: 0 })
      // A union of many shapes (journal events) is only typed: its shapes are one schema call away.
      return JSON.stringify(fields).length <= INPUT_SCHEMA_MAX * 2
        ? fields
        : shallow(full, compact(defs) as Record<string, unknown>, { depth: 0, describe: 0 })
    }
    inputDoc = fieldsAsFlags
      ? { type: "object", description: "Or the other arguments (not both)." }
      : whole !== undefined && JSON.stringify(whole).length <= INPUT_SCHEMA_MAX
      ? {
        ...whole,
        description: `The input (schema ${spec.inputSchema})${
          inputOptional ? "; or the other arguments, not both" : ""
        }.`
      }
      : { ...sketch(), description: `The input, sketched; schema tool, name ${spec.inputSchema}, gives it whole.` }
  }
  // A mode takes only its own fields; the others decode to their defaults.
  const names = Object.keys(decodeFields).filter((k) => mode === undefined || mode.takes.includes(k))
  for (const k of Object.keys(docFields)) if (!names.includes(k)) delete docFields[k]
  const fixed = mode?.fixed ?? {}
  // An empty value is the same mistake for every argument a flag or a positional carries, refused
  // before any other is judged, as the CLI refuses `--status ""` and `ingest ""` (and an empty path
  // would name the folder itself); so is an empty program, the first word of the rest array.
  const flagged = names.filter((k) => spec.flags[k] !== undefined && !(k === "input" && inlineInput))
  const positional = names.filter((k) => spec.args?.[k] !== undefined)
  const emptyValue = (args: Record<string, unknown>): UsageError | undefined => {
    const empty = [
      ...flagged.filter((k) => args[k] === "").map((k) => [k, spec.flags[k]!] as const),
      ...positional.filter((k) => args[k] === "").map((k) => [k, spec.args![k]!] as const),
      ...(spec.rest !== undefined && names.includes(spec.rest.name) && Array.isArray(args[spec.rest.name]) &&
          (args[spec.rest.name] as ReadonlyArray<unknown>)[0] === ""
        ? [[`${spec.rest.name}.0`, spec.rest] as const]
        : [])
    ]
    return empty.length === 0 ? undefined : new UsageError({
      detail: empty.map(([k, f]) => `argument '${k}': the value is empty; ${giveA(valueKindOf(f))}`).join("; ")
    })
  }

  // `input` is the JSON its inputSchema types (an object, or an array of events): anything else,
  // a JSON text encoded as a string included, is an ill-typed argument.
  const inputTypes = [inputDoc?.["type"] ?? []].flat() as unknown as ReadonlyArray<string>
  const jsonType = (u: unknown) => (Array.isArray(u) ? "array" : u === null ? "null" : typeof u)
  const illTypedInput = (values: Record<string, unknown>): UsageError | undefined => {
    const v = values["input"]
    const given = Option.isOption(v) ? Option.getOrUndefined(v) : v
    if (!inlineInput || given === undefined || inputTypes.length === 0 || inputTypes.includes(jsonType(given))) {
      return undefined
    }
    return new UsageError({
      detail: `argument 'input': expected the input's JSON itself (${inputTypes.join(" or ")}), got ${
        typeof given === "string" ? "a string " : ""
      }${shown(given)}`
    })
  }
  const decoder = Schema.decodeUnknownEither(struct(decodeFields), { errors: "all", onExcessProperty: "error" })
  // A Struct without fields is any object to Schema and to its JSON Schema: this tool takes none.
  const root = names.length === 0
    ? { type: "object", properties: {} }
    : slim(
      compact(JSONSchema.fromAST(struct(docFields).ast, { definitions: {}, topLevelReferenceStrategy: "skip" }))
    ) as Record<string, unknown>
  const properties = root["properties"] as Record<string, unknown>
  if (inputDoc !== undefined && Object.hasOwn(properties, "input")) properties["input"] = inputDoc
  // Unknown arguments are refused all the same (with the list of those the tool takes).
  const { additionalProperties: _closed, ...jsonSchema } = root
  const unknownArgument = (args: unknown): UsageError | undefined => {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return new UsageError({ detail: "arguments: expected an object" })
    }
    const extra = Object.keys(args).filter((k) => !names.includes(k))
    return extra.length === 0
      ? undefined
      : new UsageError({
        detail: `unknown argument${extra.length > 1 ? "s" : ""} ${
          extra.map((k) => `'${clipped(k, QUOTED_MAX)}'`).join(", ")
        }; ${toolName(spec, mode)} takes ${names.length === 0 ? "none" : names.join(", ")}`
      })
  }
  // A value no command line can carry: a NUL byte ends a C string (the CLI never sees one), and a
  // lone surrogate is not text — a path holding one would name another file (the file system
  // reads it as U+FFFD) and an answer or record could not hold it as canonical JSON. `input` is
  // checked by the command, as a file is; the rest array by exec. InvalidInput at the argument, as a
  // lone surrogate is wherever it appears (docs/guarantees-input.md).
  const notText = (args: Record<string, unknown>): InvalidInput | undefined => {
    const issues = Object.entries(args).flatMap(([k, v]) =>
      k === "input" || k === spec.rest?.name || typeof v !== "string"
        ? []
        : v.includes("\u0000")
        ? [{ path: k, message: "holds a NUL byte, which no value can carry" }]
        : LONE_SURROGATE.test(v)
        ? [{ path: k, message: loneSurrogate }]
        : []
    )
    return issues.length === 0 ? undefined : new InvalidInput({ issues })
  }
  return {
    jsonSchema,
    decode: (args) => {
      const unknown = unknownArgument(args ?? {}) ?? notText((args ?? {}) as Record<string, unknown>) ??
        emptyValue((args ?? {}) as Record<string, unknown>)
      if (unknown !== undefined) return Either.left(unknown)
      return Either.match(decoder(args ?? {}), {
        onLeft: (e) => Either.left(new UsageError({ detail: issuesText(e) })),
        onRight: (decoded) => {
          const values = { ...decoded, ...fixed }
          const refused = illTypedInput(values)
          if (refused !== undefined) return Either.left(refused)
          if (!inlineInput) return Either.right(values)
          const input = values["input"]
          return Either.right({
            ...values,
            input: inputOptional
              ? Option.map(input as Option.Option<unknown>, (v) => new InlineInput(v))
              : new InlineInput(input)
          })
        }
      })
    }
  }
}
