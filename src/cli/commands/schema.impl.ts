import * as Effect from "effect/Effect"
import * as JSONSchema from "effect/JSONSchema"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { InvalidInput } from "../../domain/Errors.js"
import { respond } from "../Render.js"
import { allSchemas } from "../schemas/index.js"

export const run = (json: boolean, name: Option.Option<string>) =>
  respond(
    json,
    Effect.gen(function*() {
      const registry = allSchemas()
      if (Option.isNone(name)) return { names: Object.keys(registry).sort() }
      const schema = registry[name.value]
      if (schema === undefined) {
        return yield* new InvalidInput({
          issues: [{ path: "name", message: `unknown schema '${name.value}'; known: ${Object.keys(registry).sort().join(", ")}` }]
        })
      }
      return { name: name.value, schema: JSONSchema.make(schema as Schema.Schema<unknown, unknown, never>) }
    }),
    (r) => ("names" in r ? r.names.join("\n") : JSON.stringify(r.schema, null, 2))
  )
