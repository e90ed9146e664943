/**
 * What `dossier schema` answers: the schema names, and each one's JSON Schema, generated from the
 * Schema values the code validates with (./schemas). Computed here, on each call, by the library
 * and by whatever runs from source (the MCP server's tests too). The CLI's bundles hold instead
 * the same answers computed when the project is built (`schemaAnswersBuilt` in
 * scripts/build.mjs), so that `dossier schema` neither builds JSON Schema nor loads the domain's
 * Schemas at start-up; test/cli/schemaAnswers.test.ts compares the built CLI's answer for every
 * name with this module's.
 */
import * as JSONSchema from "effect/JSONSchema"
import type * as Schema from "effect/Schema"
import { allSchemas } from "./schemas/index.js"

/** Put the top-level definition in place of a top-level `$ref`, so readers see the object directly. */
const inlineTopRef = (root: JSONSchema.JsonSchema7Root): Record<string, unknown> => {
  const doc = root as unknown as Record<string, unknown>
  const ref = (doc as { $ref?: string }).$ref
  const defs = { ...((doc.$defs ?? {}) as Record<string, unknown>) }
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return doc
  const name = ref.slice("#/$defs/".length)
  const target = defs[name]
  if (target === undefined || JSON.stringify({ ...defs, [name]: null }).includes(`"${ref}"`)) return doc
  delete defs[name]
  const { $ref: _ref, $defs: _defs, ...rest } = doc
  return { ...rest, ...(target as object), ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) }
}

/**
 * Effect marks the JSON Schema of a keyword schema (`unknown`, `any`, `object`, …) with an `$id`
 * such as `/schemas/unknown`, on every occurrence: a document with two `unknown` fields would name
 * two subschemas with one `$id`, which a validator refuses to compile. Those ids name nothing a
 * reader resolves, so they are dropped (the `title` stays).
 */
const dropKeywordIds = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(dropKeywordIds)
    : typeof node === "object" && node !== null
    ? Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === "$id" && typeof value === "string" && value.startsWith("/schemas/")))
        .map(([key, value]) => [key, dropKeywordIds(value)])
    )
    : node

const WORKDIR = {
  type: "string",
  description:
    "Only on the command line, when the work folder was found elsewhere than the current directory: that folder, relative to it (../..)."
}

/** Names ending in `-output` that are no command's answer: the gate's research.json (an input file). */
const NOT_ANSWERS = new Set(["schema-output", "research-output"])

/**
 * The command line adds `workdir` to every answer, success or refusal, when the work folder was
 * found elsewhere than the current directory (src/cli/Render.ts): every object of a success
 * output's or an error envelope's top level (each alternative of a union) admits it.
 * `schema` takes no work folder, and an input file never holds it.
 */
const admitWorkdir = (name: string, doc: Record<string, unknown>): Record<string, unknown> => {
  if (name !== "errors" && (!name.endsWith("-output") || NOT_ANSWERS.has(name))) return doc
  const defs = (doc["$defs"] ?? {}) as Record<string, Record<string, unknown>>
  const patch = (node: Record<string, unknown>): void => {
    const ref = node["$ref"]
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
      const target = defs[ref.slice("#/$defs/".length)]
      if (target !== undefined) patch(target)
      return
    }
    if (Array.isArray(node["anyOf"])) {
      for (const alternative of node["anyOf"] as Array<Record<string, unknown>>) patch(alternative)
      return
    }
    const properties = node["properties"] as Record<string, unknown> | undefined
    if (properties === undefined || Object.hasOwn(properties, "workdir")) return
    node["properties"] = { ...properties, workdir: WORKDIR }
  }
  patch(doc)
  return doc
}

/** Every schema name, sorted. */
export const schemaNames = (): Array<string> => Object.keys(allSchemas()).sort()

/**
 * The JSON Schema named `name` (a fresh object, plain JSON), or undefined when no schema has that
 * name (an inherited property's name, `toString`, is none).
 */
export const schemaDocument = (name: string): Record<string, unknown> | undefined => {
  const registry = allSchemas()
  if (!Object.hasOwn(registry, name)) return undefined
  const doc = JSONSchema.make(registry[name] as Schema.Schema<unknown, unknown, never>)
  return admitWorkdir(name, inlineTopRef(dropKeywordIds(doc) as JSONSchema.JsonSchema7Root))
}
