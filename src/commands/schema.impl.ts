import * as Effect from "effect/Effect"
import * as JSONSchema from "effect/JSONSchema"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import { InvalidInput } from "../domain/Errors.js"
import { allSchemas } from "./schemas/index.js"
import { work } from "./Work.js"

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

export const run = (name: Option.Option<string>) =>
  work({
    effect: Effect.gen(function*() {
      const registry = allSchemas()
      if (Option.isNone(name)) return { names: Object.keys(registry).sort() }
      const schema = registry[name.value]
      if (schema === undefined) {
        return yield* new InvalidInput({
          issues: [{
            path: "name",
            message: `unknown schema '${name.value}'; known: ${Object.keys(registry).sort().join(", ")}`
          }]
        })
      }
      return {
        name: name.value,
        schema: inlineTopRef(JSONSchema.make(schema as Schema.Schema<unknown, unknown, never>))
      }
    }),
    layer: Layer.empty,
    human: (r) => ("names" in r ? r.names.join("\n") : JSON.stringify(r.schema, null, 2))
  })
