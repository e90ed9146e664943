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

/** Every schema name, sorted. */
export const schemaNames = (): Array<string> => Object.keys(allSchemas()).sort()

/**
 * The JSON Schema named `name` (a fresh object, plain JSON), or undefined when no schema has that
 * name (an inherited property's name, `toString`, is none).
 */
export const schemaDocument = (name: string): Record<string, unknown> | undefined => {
  const registry = allSchemas()
  return Object.hasOwn(registry, name)
    ? inlineTopRef(JSONSchema.make(registry[name] as Schema.Schema<unknown, unknown, never>))
    : undefined
}
